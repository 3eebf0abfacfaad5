"""Every way a game can end, played through the path the bot uses (hub, then storage), stored,
then reloaded after a restart: every game loads, every ending is stored with its reason and
winner, and ratings count each game once (and a game that ended before each side moved, never).
Half the games are cut off as if the bot died between committing the winning move and recording
the result, so the restart has to settle them."""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from helpers import BRANDUBH_GROUP_CAPTURE, game, refused
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from storage_helpers import moves_to_the_end

from bot.discord_bot.app.games import GameHub
from bot.engine import VARIANTS, Game, Termination
from bot.storage import (
    PLIES_TO_COUNT,
    GameEnding,
    GameResult,
    GameStatus,
    Participant,
    Storage,
    TableEnding,
    Venue,
)

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")


@dataclass(frozen=True)
class Scenario:
    """A game to play to its end: the variant, where it starts, and its moves."""

    variant: str
    start: Game
    moves: tuple[str, ...]


def random_scenario(variant: str, rng: random.Random) -> Scenario:
    """A random playout from the variant's start until the rules end it."""
    moves = moves_to_the_end(variant, seed=rng.randrange(2**32))
    return Scenario(variant, Game(variant), tuple(moves))


# Endings random play seldom reaches, each from a position of the rules' own tests, and one of
# each other board ending, so that every ending is covered whatever the random seed.
RARE = [
    # The game of the bug report: brandubh won by surrounding the king's group.
    Scenario("brandubh", Game("brandubh"), BRANDUBH_GROUP_CAPTURE),
    Scenario("tablut-unarmed", game("tablut-unarmed", "K:c3 T:d3 t:b3,c2,c4,d4,d2,e8"), ("e8-e3",)),
    Scenario("tablut", game("tablut", "K:c3 t:b3,d7"), ("d7-d3",)),
    Scenario("tablut", game("tablut", "K:e5 t:a1 T:a3,b1", "defenders"), ("a3-a2",)),
    Scenario("tablut", Game("tablut"), ("a4-a3", "e3-d3", "a3-a4", "d3-e3") * 2),
    Scenario("fidchell", game("fidchell", "K:d4 t:a1", "defenders"), ("d4-b4",)),
    Scenario("tablut", game("tablut", "K:c3 t:a1", "defenders"), ("c3-c1",)),
    # Copenhagen's own endings: an exit fort, an encirclement, a repetition the defenders lose.
    Scenario(
        "copenhagen",
        game("copenhagen", "K:f2 T:e1,g1,e2,g2,e3,f3 t:a6,k6,f11", "defenders"),
        ("f2-f1",),
    ),
    Scenario("copenhagen", game("copenhagen", "K:f6 T:f7 t:e6,g6,f5,e7,g7,f9,a2"), ("f9-f8",)),
    Scenario("copenhagen", Game("copenhagen"), ("d1-d2", "f4-e4", "d2-d1", "e4-f4") * 2),
]


def expected_outcome(scenario: Scenario) -> tuple[Termination, str]:
    """What the engine says about the scenario's last move."""
    replay = Game(scenario.variant, scenario.start.position_otn(), scenario.start.turn)
    for move in scenario.moves:
        replay.play(move)
    outcome = replay.outcome
    assert outcome is not None, "a scenario must end the game"
    return outcome.termination, outcome.result_text


async def start_game(hub: GameHub, channel: int, scenario: Scenario) -> int:
    record = await hub.storage.games.create(
        guild_id=1,
        channel_id=channel,
        variant=scenario.variant,
        attackers=ANN,
        defenders=BO,
        start_position=scenario.start.position_otn(),
        first_turn=scenario.start.turn.value,  # type: ignore[arg-type]
    )
    hub.adopt(record)
    return record.id


async def play_out(hub: GameHub, channel: int, scenario: Scenario, *, cut_off: bool) -> None:
    """Play every move through the hub; with ``cut_off`` the last move is only committed, as
    when the bot dies before recording the result."""
    moves = list(scenario.moves)
    last = moves.pop() if cut_off else None
    for text in moves:
        live = await hub.require(channel)
        player = live.to_move
        await hub.play(channel, player, text)
    if last is not None:
        live = await hub.require(channel)
        move = live.game.parse_move(last)
        await hub.storage.games.append_move(live.id, live.game.ply, move.text(live.game.size))


async def rated_games(storage: Storage, participant: Participant) -> int:
    total = 0
    for variant in VARIANTS:
        total += (await storage.ratings.get(participant, variant)).games
    return total


async def check_all_endings(path: Path, scenarios: list[Scenario]) -> set[GameEnding]:
    # Every opening closes its database even when an assertion fails: a connection left open
    # keeps its thread alive, and pytest would then hang at exit instead of reporting.
    async with await Storage.open(path) as storage:
        hub = GameHub(storage)
        await hub.load()
        expected: dict[int, tuple[GameEnding, str]] = {}
        games: dict[int, Scenario] = {}
        for index, scenario in enumerate(scenarios):
            channel = 1000 + index
            game_id = await start_game(hub, channel, scenario)
            games[game_id] = scenario
            expected[game_id] = expected_outcome(scenario)
            await play_out(hub, channel, scenario, cut_off=index % 2 == 1)
        # The endings decided by people and the clock, through the hub as the commands use it.
        people = {}
        for channel, ending in enumerate(TableEnding, start=5000):
            opening = ("a4-a3", "e3-d3")
            game_id = await start_game(hub, channel, Scenario("tablut", Game("tablut"), opening))
            await hub.play(channel, ANN, opening[0])
            await hub.play(channel, BO, opening[1])
            if ending is TableEnding.RESIGNATION:
                await hub.resign(channel, BO.user_id or 0)
                people[game_id] = (ending, "attackers")
            elif ending is TableEnding.TIMEOUT:
                await hub.forfeit_on_time(await hub.require(channel), 2)
                people[game_id] = (ending, "defenders")
            elif ending is TableEnding.ABANDONED:
                # As a game across servers whose defenders' thread was deleted: when the
                # adjournment runs out, the absent side forfeits, whoever is to move.
                live = await hub.require(channel)
                live.venues = (
                    Venue(
                        game_id, "defenders", 2, "South", channel, None, None, None, False, True, 1
                    ),
                )
                await hub.forfeit_on_time(live, 2)
                people[game_id] = (ending, "attackers")
            else:
                await hub.offer_draw(channel, BO.user_id or 0)
                await hub.answer_draw(game_id, ANN.user_id or 0, 2, accept=True)
                people[game_id] = (ending, "draw")
        expected.update(people)
        # A game ended before each side had moved (here the one-move board endings) is not rated.
        counts = {game_id: len(game.moves) >= PLIES_TO_COUNT for game_id, game in games.items()}
        counts.update(dict.fromkeys(people, True))

    # Restart: the cut-off games are settled, everything else is already over.
    for restart in range(2):
        async with await Storage.open(path) as storage:
            hub = GameHub(storage)
            settled = await hub.load()
            assert hub.active() == []
            if restart == 0:
                assert len(settled) == len(scenarios) // 2
            else:
                assert settled == []
            for game_id, (termination, result) in expected.items():
                record = await storage.games.get(game_id)
                assert record.status is GameStatus.FINISHED, (game_id, record.problem)
                assert (record.reason, record.result) == (termination, GameResult(result))
                assert record.rated is counts[game_id], (game_id, record.ply)
            # Each game that counts was rated exactly once, however many restarts followed.
            assert await rated_games(storage, ANN) == sum(counts.values())
            assert await rated_games(storage, BO) == sum(counts.values())
            assert sum(counts.values()) < len(counts)  # the rule was exercised
    return {termination for termination, _ in expected.values()}


@settings(
    max_examples=3,
    deadline=None,
    # A seed has no smaller version worth looking for; a failure is reported with its seed.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ending_survives_storage_and_restart(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    scenarios = [random_scenario(variant, rng) for variant in VARIANTS for _ in range(2)]
    scenarios += RARE
    # A new folder per example: Hypothesis replays a failing seed with the same tmp_path.
    path = Path(tempfile.mkdtemp(dir=tmp_path)) / "endings.sqlite3"
    seen = asyncio.run(check_all_endings(path, scenarios))
    every: set[GameEnding] = {*Termination, *TableEnding}
    assert seen == every, f"not covered: {every - seen}"


def test_every_scenario_ends_the_way_it_is_meant_to() -> None:
    endings = Counter(expected_outcome(scenario)[0] for scenario in RARE)
    assert endings == Counter(
        {
            Termination.GROUP_CAPTURED: 2,
            Termination.KING_CAPTURED: 1,
            Termination.KING_ESCAPED: 1,
            Termination.NO_LEGAL_MOVE: 1,
            Termination.REPETITION: 1,
            Termination.TUICHI: 1,
            Termination.EXIT_FORT: 1,
            Termination.ENCIRCLEMENT: 1,
            Termination.PERPETUAL_REPETITION: 1,
        }
    )


async def test_a_move_after_the_end_is_refused_in_words(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    hub = GameHub(storage)
    scenario = RARE[0]
    await start_game(hub, 1, scenario)
    await play_out(hub, 1, scenario, cut_off=False)
    # Said as the game ended, with what to do next (not "there is no game in this channel").
    over = (
        r"^Game #1 is over: Ann won with the attackers \(king's group surrounded\)\. Start a "
        r"new one with `/tafl challenge` or `/tafl play`\.$"
    )
    with refused(over):
        await hub.play(1, BO, "c3-c2")
    with refused(over):
        await hub.resign(1, BO.user_id or 0)
    with refused(over):
        await hub.offer_draw(1, BO.user_id or 0)
    with refused("no game in this channel"):  # a channel that had none
        await hub.play(2, BO, "c3-c2")
    await storage.close()
