"""``python -m bot.tools puzzles``: puzzles mined from the games people finished on the bot,
the same puzzles the miner finds in those games anywhere else, added to the database once."""

from __future__ import annotations

import asyncio
from itertools import islice
from pathlib import Path

import pytest
from storage_helpers import ALICE, BOB, open_storage

from bot.ai.puzzles import read_puzzles
from bot.ai.puzzles.mining import Tally, mine, self_play_games
from bot.engine import Game, get_variant
from bot.storage import GameResult, Storage, TableEnding
from bot.tools.__main__ import main as tools_main
from bot.tools.puzzles import mine_database

FIDCHELL = get_variant("fidchell")


def played_games(count: int) -> list[Game]:
    """The first self-play fidchell games of seed 1 (quick, and known to hold two puzzles)."""
    return [game for game, _ in islice(self_play_games(FIDCHELL, 1, Tally()), count)]


async def store(storage: Storage, games: list[Game], channel: int = 500) -> list[int]:
    """Record each game as people would have played it on the bot, and finish it."""
    ids = []
    for offset, game in enumerate(games):
        record = await storage.games.create(
            guild_id=1,
            channel_id=channel + offset,
            variant="fidchell",
            attackers=ALICE,
            defenders=BOB,
        )
        for ply, result in enumerate(game.history):
            await storage.games.append_move(record.id, ply, result.move.text(game.size))
        # A self-play game cut at its length limit is recorded as agreed drawn.
        outcome = game.outcome
        await storage.games.finish(
            record.id,
            GameResult.DRAW if outcome is None else outcome.result_text,
            TableEnding.AGREED_DRAW if outcome is None else outcome.termination,
            expected_ply=game.ply,
        )
        ids.append(record.id)
    return ids


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return played_games(3)


async def test_the_games_of_the_database_give_the_puzzles_the_miner_finds_in_them(
    database_target: str, games: list[Game], tmp_path: Path
) -> None:
    storage = await open_storage(database_target)
    try:
        # A game whose log the rules now refuse is named, not mined, and stops nothing.
        broken = await storage.games.create(
            guild_id=1, channel_id=900, variant="fidchell", attackers=ALICE, defenders=BOB
        )
        await storage.games.append_move(broken.id, 0, "a1-a1")
        await storage.games.finish(broken.id, GameResult.DRAW, TableEnding.AGREED_DRAW)
        ids = await store(storage, games)
        # Neither an unfinished game nor another variant's is read for fidchell.
        for channel, variant in ((901, "fidchell"), (902, "brandubh")):
            other = await storage.games.create(
                guild_id=1, channel_id=channel, variant=variant, attackers=ALICE, defenders=BOB
            )
        await storage.games.finish(other.id, GameResult.DRAW, TableEnding.AGREED_DRAW)
    finally:
        await storage.close()
    expected = await asyncio.to_thread(
        mine, ((game, "") for game in games), Tally(), 2, say=lambda line: None
    )
    assert len(expected) == 2

    out = tmp_path / "mined.jsonl"
    lines: list[str] = []
    report = await mine_database(
        database_target, ["fidchell"], 2, out=out, add=True, say=lines.append
    )
    found = read_puzzles(out)
    assert [p.id for p in found] == [p.id for p in expected]
    assert {p.source.split(" ply ")[0] for p in found} <= {
        f"game {i} of the bot's database" for i in ids
    }
    assert report.games == {"fidchell": len(games) + 1}
    assert report.not_replayed == [broken.id]
    assert report.added == 2 and "2 puzzles found, 2 new in the database" in report.describe()
    assert any(line.startswith("fidchell: 4 finished games in ") for line in lines)

    storage = await open_storage(database_target)
    try:
        stored = await storage.puzzles.get(found[0].id)
        assert stored.variant == "fidchell" and stored.rating.rating == found[0].rating
    finally:
        await storage.close()
    # Mining again finds them again and adds nothing: a stored puzzle keeps its rating.
    again = await mine_database(database_target, ["fidchell"], 2, add=True, say=lines.append)
    assert again.added == 0
    # Games after the last one mined hold nothing new.
    later = await mine_database(
        database_target, ["fidchell"], 2, add=True, after_id=ids[-1], say=lines.append
    )
    assert later.games == {"fidchell": 0} and later.found == {"fidchell": []}


def test_the_command_refuses_a_missing_file_and_asks_where_the_puzzles_go(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    assert tools_main(["puzzles", str(missing), "--add"]) == 1
    assert "mining refused: there is no database file" in capsys.readouterr().err
    assert not missing.exists()
    with pytest.raises(SystemExit) as stopped:
        tools_main(["puzzles", str(missing)])
    assert stopped.value.code == 2
    assert "--out FILE, --add, or both" in capsys.readouterr().err


def test_the_command_writes_what_it_found(
    tmp_path: Path, games: list[Game], capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "bot.sqlite3"

    async def fill() -> None:
        storage = await open_storage(str(target))
        try:
            await store(storage, games[:2])
        finally:
            await storage.close()

    asyncio.run(fill())
    out = tmp_path / "found.jsonl"
    args = ["puzzles", str(target), "--variant", "fidchell", "--count", "1", "--out", str(out)]
    assert tools_main(args) == 0
    printed = capsys.readouterr().out
    assert "fidchell: 2 games, 1 puzzles" in printed and f"wrote 1 puzzles to {out}" in printed
    assert len(read_puzzles(out)) == 1
