"""The games service on its own, against a real database and the real AI: what its events say
(plain data, everything the words and boards need), what it records of the boards it is told
of, and the AI's turns. The service runs without discord.py: this file, run as a script, plays
a game through it and reports whether discord was ever imported."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

import pytest
from helpers import refused

from bot.ai import AIService
from bot.discord_bot.app.ai_turns import AIReply, AITurns
from bot.discord_bot.app.games import Declined, GameHub, GameState, Played, Replaced
from bot.engine import Termination
from bot.storage import GameStatus, Participant, PlayerPreferences, Storage

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")
CHANNEL = 100
ROOT = Path(__file__).resolve().parent.parent


async def opened(path: Path) -> tuple[Storage, GameHub]:
    storage = await Storage.open(path)
    hub = GameHub(storage)
    await hub.load()
    return storage, hub


async def started(hub: GameHub, attackers: Participant = ANN, defenders: Participant = BO) -> int:
    record = await hub.storage.games.create(
        guild_id=1, channel_id=CHANNEL, variant="brandubh", attackers=attackers, defenders=defenders
    )
    return hub.adopt(record).id


async def tell_me(storage: Storage, user: Participant, *, flip: bool = False) -> None:
    """``user`` asks for turn notices (and, with ``flip``, boards turned to their side)."""
    assert user.user_id is not None
    mine = PlayerPreferences(user.user_id, theme="wood", flip=flip, notify=True)
    await storage.preferences.save(mine, user.display_name)


async def scenario(folder: Path) -> dict[str, object]:
    """A game played through the service alone; what its events said."""
    storage, hub = await opened(folder / "t.sqlite3")
    try:
        await tell_me(storage, BO)
        game_id = await started(hub)
        played = await hub.play(CHANNEL, ANN, "d1-c1")
        told = await hub.turn_notice(game_id, 1)
        made = await hub.offer_draw(CHANNEL, BO.user_id or 0)
        refused = await hub.answer_draw(game_id, ANN.user_id or 0, 1, accept=False)
        ended = await hub.resign(CHANNEL, BO.user_id or 0)
        return {
            "played": [played.game.record.attackers.display_name, told, played.result.move.text(7)],
            "offer": [made.offer.kind, made.offer.ply, isinstance(refused, Declined)],
            "ended": [str(ended.finished.record.reason)],
            "discord": sorted(m for m in sys.modules if m.split(".")[0] == "discord"),
        }
    finally:
        await storage.close()


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, __file__, str(tmp_path)], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["discord"] == []
    assert seen["played"] == ["Ann", True, "d1-c1"]  # Bo asked to be told of his turn
    assert seen["offer"] == ["draw", 1, True]
    assert seen["ended"] == ["resignation"]


async def test_a_moves_event_says_what_its_boards_need(tmp_path: Path) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    await tell_me(storage, BO, flip=True)
    await started(hub)
    played = await hub.play(CHANNEL, ANN, "d1-c1")
    game = played.game
    assert isinstance(game, GameState) and (game.record.attackers, game.record.defenders) == (
        ANN,
        BO,
    )
    assert (game.record.ply, game.game.ply, game.venues, game.in_event) == (1, 1, (), False)
    # The board is drawn for the player to move (Bo): his options, and nobody else's.
    assert [(p.user_id, p.theme, p.flip) for p in game.preferences] == [(2, "wood", True)]
    # He asked for a direct message when it is his move: once per move, whoever asks.
    assert await hub.turn_notice(game.id, 1)
    assert not await hub.turn_notice(game.id, 1)
    assert not await hub.turn_notice(game.id, 0)  # an older position's notice: not now
    # Ann never asked: no notice on her turn.
    await hub.play(CHANNEL, BO, "d3-c3")
    assert not await hub.turn_notice(game.id, 2)
    await storage.close()


async def test_a_move_carries_the_language_its_server_chose_as_stored_now(
    tmp_path: Path,
) -> None:
    """The language a server chose for its channels comes with each move, read from the
    settings store then: a change made a moment before (by this process or another, sharing
    the database) words the very next board."""
    storage, hub = await opened(tmp_path / "t.sqlite3")
    other, _ = await opened(tmp_path / "t.sqlite3")  # another process on the same database
    await started(hub)
    assert (await hub.play(CHANNEL, ANN, "d1-c1")).languages == {1: None}
    await other.settings.set_language(1, "fr")
    assert (await hub.play(CHANNEL, BO, "d3-c3")).languages == {1: "fr"}
    await other.settings.set_language(1, None)
    assert (await hub.play(CHANNEL, ANN, "c1-b1")).languages == {1: None}
    await other.close()
    await storage.close()


async def test_a_move_made_by_another_process_is_read_before_a_refusal(tmp_path: Path) -> None:
    """In a cluster, the web board's page of a game may be served by a process that does not
    play it: the move made there is written by that process, and the one playing the game may
    not have heard of it when the opponent answers at once. It reads the game before saying
    "not your turn" (the answer is played), as for a game across servers."""
    path = tmp_path / "t.sqlite3"
    storage, playing = await opened(path)
    other, serving = await opened(path)  # the process serving the page
    game_id = await started(playing)
    await playing.play(CHANNEL, ANN, "d1-c1")
    assert await serving.recover(CHANNEL) is not None
    await serving.play_squares(game_id, BO, 17, 14, 1)  # Bo's d3-a3 on the page
    played = await playing.play(CHANNEL, ANN, "c1-b1")  # no news of it yet: read, then played
    assert played.game.game.ply == 3
    await other.close()
    await storage.close()


async def test_against_the_ai_nobody_is_told_of_their_turn(tmp_path: Path) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    await tell_me(storage, ANN)
    game_id = await started(hub, ANN, Participant.ai(1))
    assert not await hub.turn_notice(game_id, 0)  # the reply comes within seconds
    await storage.close()


async def test_the_board_of_a_game_a_person_watches_is_drawn_for_them_too(tmp_path: Path) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub)
    await tell_me(storage, Participant.user(9, "Cy"), flip=True)
    game = await hub.state_of(game_id, 9)
    assert {p.user_id for p in game.preferences} == {1, 9}  # the player to move, the viewer
    with refused("You are not playing in this game"):
        await hub.player_in(game_id, 9)
    await storage.close()


async def test_boards_are_recorded_and_a_new_game_retires_the_last_final_board(
    tmp_path: Path,
) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    first = await started(hub)
    assert await hub.board_posted(first, CHANNEL, 501, 0) == Replaced(None)  # nothing before
    await hub.play(CHANNEL, ANN, "d1-c1")
    assert await hub.board_posted(first, CHANNEL, 502, 1) == Replaced(501, 0)
    live = await hub.require(CHANNEL)
    assert (live.record.board_message_id, live.record.board_ply) == (502, 1)
    assert (await storage.games.get(first)).board_message_id == 502
    ended = await hub.resign(CHANNEL, ANN.user_id or 0)
    assert ended.game.record.board_message_id == 502  # what the final board's words retire
    # The final board of a game the hub no longer plays is recorded all the same.
    assert await hub.board_posted(first, CHANNEL, 503, 1, end=True) == Replaced(502, 1)
    assert (await storage.games.get(first)).board_message_id == 503
    second = await started(hub)
    assert await hub.board_posted(second, CHANNEL, 504, 0) == Replaced(None, None, 503)
    await storage.close()


async def test_a_board_retires_the_one_recorded_last_even_after_its_words_were_composed(
    tmp_path: Path,
) -> None:
    """A player may move on a board the moment it is shown, before the bot has recorded it:
    the next board's words are composed meanwhile, but what it replaces is the board recorded
    by the time it is sent, the first one here (not nothing, which would go looking for an
    older game's final board)."""
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub)
    played = await hub.play(CHANNEL, ANN, "d1-c1")  # on the first board, not yet recorded
    assert played.game.record.board_message_id is None
    await hub.board_posted(game_id, CHANNEL, 501, 0)  # the first board's record lands
    assert await hub.board_posted(game_id, CHANNEL, 502, 1) == Replaced(501, 0)
    await storage.close()


async def test_an_offers_message_is_remembered(tmp_path: Path) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub)
    made = await hub.offer_draw(CHANNEL, ANN.user_id or 0)
    assert made.game.id == game_id and made.offer.message_id is None and made.moves == ()
    await hub.offer_posted(game_id, "draw", made.offer.ply, 77)
    live = await hub.require(CHANNEL)
    assert live.draw_offer is not None and live.draw_offer.message_id == 77
    assert [offer.message_id for offer in await storage.offers.of_game(game_id)] == [77]
    await hub.play(CHANNEL, ANN, "d1-c1")
    asked = await hub.offer_takeback(CHANNEL, ANN.user_id or 0)
    assert [move.move.text(7) for move in asked.moves] == ["d1-c1"]  # what it would take back
    await storage.close()


async def test_menus_are_answered_only_for_the_mover_in_the_position_they_show(
    tmp_path: Path,
) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub)
    assert (await hub.mover_at(game_id, 1, 0)).game.ply == 0
    with refused("not your turn"):
        await hub.mover_at(game_id, 2)
    played = await hub.play_squares(game_id, ANN, 3, 2, 0)  # d1-c1, as the menus chose it
    assert played.result.move.text(7) == "d1-c1"
    with refused("The position has changed; press Move again"):
        await hub.mover_at(game_id, 2, 0)
    await storage.close()


async def test_an_ending_another_process_recorded_first_is_left_to_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes follow one game (a game across servers: each serves one player). One
    commits a winning move; before it has stored the result, the other catches up with the
    move, and its clock finds the game over on the board. The result is the first one's to
    store and announce: the second leaves it, with no error, and the stored game stays as the
    first recorded it."""
    path = tmp_path / "t.sqlite3"
    storage, here = await opened(path)
    other, there = await opened(path)
    record = await storage.games.create(
        guild_id=1,
        channel_id=CHANNEL,
        variant="brandubh",
        attackers=ANN,
        defenders=BO,
        start_position="/7/K6/7/7/7/5t1/7/",
        first_turn="defenders",
    )
    here.adopt(record)
    assert await there.recover(CHANNEL) is not None
    # This process: Bo's winning move is committed (the king escapes)...
    await storage.games.append_move(record.id, 0, "a2-a1", mover=BO.user_id)
    # ...the other catches up with it before the result is stored...
    live = await there.refresh(record.id)
    assert live is not None and live.game.is_over
    # ...and this process stores the result, as its move goes on to do.
    await storage.games.finish(record.id, "defenders", Termination.KING_ESCAPED)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert await there.settle() == []  # nothing for it to announce
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert there.get(CHANNEL) is None
    stored = await other.games.get(record.id)
    assert stored.status is GameStatus.FINISHED and stored.reason is Termination.KING_ESCAPED
    await storage.close()
    await other.close()


# -- the AI's turns ---------------------------------------------------------------------------


TASKS: set[asyncio.Task[None]] = set()


def spawn(coroutine: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
    """As the bot runs its background work: a task kept until it is done."""
    task = asyncio.create_task(coroutine, name=name)
    TASKS.add(task)
    task.add_done_callback(TASKS.discard)
    return task


async def serving() -> bool:
    return True


@pytest.fixture
async def ai() -> AsyncIterator[AIService]:
    service = AIService(workers=1)
    await service.start()
    yield service
    await service.close()


async def test_the_ai_replies_and_its_reply_is_shown_once(tmp_path: Path, ai: AIService) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub, ANN, Participant.ai(1))
    await hub.play(CHANNEL, ANN, "d1-c1")
    turns = AITurns(hub, ai, spawn=spawn, until_serving=serving)
    shown: list[AIReply] = []

    async def show(reply: AIReply) -> None:
        assert not turns.thinking(game_id)  # thinking is over once its move is played
        shown.append(reply)

    # Two callers at once: one search, one board.
    await asyncio.gather(turns.reply(game_id, show), turns.reply(game_id, show))
    [reply] = shown
    assert isinstance(reply.played, Played) and reply.played.game.game.ply == 2
    assert reply.played.game.record.defenders.ai_level == 1
    assert not reply.failed and reply.refused is None
    await storage.close()


async def test_an_ai_move_the_database_refuses_is_told_with_the_game_as_it_stands(
    tmp_path: Path, ai: AIService
) -> None:
    path = tmp_path / "t.sqlite3"
    storage, hub = await opened(path)
    game_id = await started(hub, ANN, Participant.ai(1))
    await hub.play(CHANNEL, ANN, "d1-c1")
    with sqlite3.connect(path) as connection:
        connection.execute(
            f"""CREATE TRIGGER refuse_ai BEFORE INSERT ON moves WHEN NEW.game_id = {game_id}
                BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"""
        )
    turns = AITurns(hub, ai, spawn=spawn, until_serving=serving)
    shown: list[AIReply] = []

    async def show(reply: AIReply) -> None:
        shown.append(reply)

    await turns.reply(game_id, show)
    [reply] = shown
    assert reply.failed and reply.played is None
    assert reply.game is not None and reply.game.game.ply == 1  # the board as it stands
    await storage.close()


async def test_a_game_that_ended_while_the_ai_thought_shows_nothing(
    tmp_path: Path, ai: AIService
) -> None:
    storage, hub = await opened(tmp_path / "t.sqlite3")
    game_id = await started(hub, ANN, Participant.ai(1))
    await hub.play(CHANNEL, ANN, "d1-c1")
    shown: list[AIReply] = []

    async def show(reply: AIReply) -> None:
        shown.append(reply)

    async def resigned_meanwhile() -> bool:
        """Asked once the AI has its move, before it plays it: the player resigns first."""
        # While it thinks, a board or a takeback must wait for its move.
        with refused("its move comes with the next board"):
            turns.check_idle(game_id)
        with refused("a takeback removes your move and its reply"):
            turns.check_idle(game_id, takeback=True)
        await hub.resign(CHANNEL, ANN.user_id or 0)
        return True

    turns = AITurns(hub, ai, spawn=spawn, until_serving=resigned_meanwhile)
    await turns.reply(game_id, show)
    assert shown == [AIReply()]  # nothing to show but the words that led to it
    assert not turns.thinking(game_id)
    turns.check_idle(game_id)
    with refused("is over"):
        await hub.require(CHANNEL)
    await storage.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(scenario(Path(sys.argv[1])))))
