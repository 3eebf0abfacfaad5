"""Tournaments in storage: events, entry (bounds, once), rounds begun by exactly one of several
racing processes, results counted once, the event's history. On both backends."""

from __future__ import annotations

import asyncio

import pytest
from storage_helpers import FakeClock, new_game, open_storage

from bot.storage import NotFound, Participant, Storage
from bot.storage.tournaments import EntryRefused, NewPairing, TournamentSpec

ORGANISER = Participant.user(900, "olga")
PLAYERS = [Participant.user(100 + k, f"p{k}") for k in range(5)]


def spec(**changes: object) -> TournamentSpec:
    fields: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "name": "Monthly Swiss",
        "variant": "brandubh",
        "format": "swiss",
        "rounds": 3,
        "arena_seconds": None,
        "matches": False,
        "move_seconds": 3600,
        "round_seconds": 86400,
        "rated": True,
        "rating_floor": None,
        "rating_ceiling": None,
        "min_entrants": 4,
        "starts_at": 0,
    }
    fields.update(changes)
    return TournamentSpec(**fields)  # type: ignore[arg-type]


async def test_an_event_takes_entrants_once_within_its_rating_bounds(storage: Storage) -> None:
    event = await storage.tournaments.create(
        spec(rating_floor=1400, rating_ceiling=1800), ORGANISER
    )
    assert (event.status, event.round, event.organiser) == ("signup", 0, ORGANISER)
    await storage.tournaments.join(event.id, PLAYERS[0], 1500)
    # The storage refuses with the rule's name alone, never an English sentence (the
    # composition words it, in the player's language).
    with pytest.raises(EntryRefused) as refused:
        await storage.tournaments.join(event.id, PLAYERS[0], 1500)
    assert (refused.value.why, str(refused.value)) == ("already in", "already in")
    with pytest.raises(EntryRefused) as refused:
        await storage.tournaments.join(event.id, PLAYERS[1], 1300)
    assert (refused.value.why, str(refused.value)) == ("below floor", "below floor")
    with pytest.raises(EntryRefused) as refused:
        await storage.tournaments.join(event.id, PLAYERS[1], 1900)
    assert (refused.value.why, str(refused.value)) == ("above ceiling", "above ceiling")
    # Before the start, leaving is changing one's mind: free to join again.
    assert await storage.tournaments.leave(event.id, PLAYERS[0].user_id or 0, "withdrew")
    assert await storage.tournaments.entrants(event.id) == []
    await storage.tournaments.join(event.id, PLAYERS[0], 1500)
    await storage.tournaments.join(event.id, PLAYERS[2], 1500)
    assert await storage.tournaments.begin_round(
        event.id, 1, [NewPairing(1, PLAYERS[0].user_id or 0, PLAYERS[2].user_id or 0)],
        deadline=None,
    )  # fmt: skip
    # Once it has begun, a withdrawal is for good.
    assert await storage.tournaments.leave(event.id, PLAYERS[0].user_id or 0, "withdrew")
    assert not await storage.tournaments.leave(event.id, PLAYERS[0].user_id or 0, "withdrew")
    with pytest.raises(EntryRefused) as refused:
        await storage.tournaments.join(event.id, PLAYERS[0], 1500)
    assert (refused.value.why, refused.value.left_reason) == ("left", "withdrew")
    assert str(refused.value) == "left (withdrew)"
    entrant, _ = await storage.tournaments.entrants(event.id)
    assert (entrant.player, entrant.left_reason, entrant.active) == (PLAYERS[0], "withdrew", False)
    assert [e.id for e in await storage.tournaments.in_guild(1)] == [event.id]
    with pytest.raises(NotFound):
        await storage.tournaments.get(event.id + 1)


async def test_a_round_is_begun_once_and_each_result_counted_once(storage: Storage) -> None:
    event = await storage.tournaments.create(spec(), ORGANISER)
    for player in PLAYERS:
        await storage.tournaments.join(event.id, player, 1500)
    round_one = [
        NewPairing(1, 100, 101),
        NewPairing(2, 102, 103),
        NewPairing(3, 104, None, bye_points=1.0),
    ]
    assert await storage.tournaments.begin_round(event.id, 1, round_one, deadline=5000)
    assert not await storage.tournaments.begin_round(event.id, 1, round_one, deadline=5000)
    running = await storage.tournaments.get(event.id)
    assert (running.status, running.round, running.round_deadline) == ("running", 1, 5000)
    assert await storage.tournaments.round_open(event.id, 1) == 2  # the bye is decided
    game = await new_game(storage, 77, attackers=PLAYERS[0], defenders=PLAYERS[1])
    await storage.tournaments.attach_game(event.id, 1, 1, game.id)
    found = await storage.tournaments.of_game(game.id)
    assert found is not None and found[1].board == 1 and found[1].games == (game.id,)
    assert await storage.tournaments.decide(event.id, 1, 1, 1.0, 0.0, "played")
    assert not await storage.tournaments.decide(event.id, 1, 1, 0.0, 1.0, "played")  # once
    assert await storage.tournaments.decide(
        event.id, 1, 2, 0.0, 0.0, "forfeit", reason="neither came", actor=ORGANISER
    )
    assert await storage.tournaments.round_open(event.id, 1) == 0
    pairings = await storage.tournaments.pairings(event.id, 1)
    assert [(p.board, p.first_points, p.second_points, p.decided) for p in pairings] == [
        (1, 1.0, 0.0, "played"),
        (2, 0.0, 0.0, "forfeit"),
        (3, 1.0, None, "bye"),
    ]
    assert pairings[2].is_bye and pairings[2].second is None
    actions = [(e.action, e.actor) for e in await storage.tournaments.history(event.id)]
    assert actions[0] == ("created", ORGANISER)
    assert ("result", ORGANISER) in actions and ("round", None) in actions
    assert await storage.tournaments.change_status(
        event.id, ["running"], "finished", action="finished"
    )
    assert not await storage.tournaments.change_status(
        event.id, ["running"], "cancelled", action="cancelled"
    )
    assert await storage.tournaments.in_guild(1) == []


async def test_of_several_processes_racing_one_begins_each_round(
    database_target: str, clock: FakeClock
) -> None:
    """Eight connections (as eight processes) see round 1 end at once and each tries to begin
    round 2: exactly one does, and the round's pairings are stored once."""
    first = await open_storage(database_target, clock)
    others = [await open_storage(database_target, clock) for _ in range(7)]
    try:
        event = await first.tournaments.create(spec(), ORGANISER)
        for player in PLAYERS[:4]:
            await first.tournaments.join(event.id, player, 1500)
        assert await first.tournaments.begin_round(
            event.id, 1, [NewPairing(1, 100, 101), NewPairing(2, 102, 103)], deadline=None
        )
        round_two = [NewPairing(1, 100, 102), NewPairing(2, 101, 103)]
        won = await asyncio.gather(
            *(
                s.tournaments.begin_round(event.id, 2, round_two, deadline=None)
                for s in [first, *others]
            )
        )
        assert sorted(won) == [False] * 7 + [True]
        assert len(await first.tournaments.pairings(event.id, 2)) == 2
    finally:
        for each in [first, *others]:
            await each.close()


async def test_the_history_keeps_values_and_reads_lines_written_before(storage: Storage) -> None:
    """Each line is a kind and values (worded in each reader's language where it is shown),
    never an English sentence; a line written before (English, no values) reads as it was."""
    event = await storage.tournaments.create(spec(), ORGANISER)
    await storage.tournaments.join(event.id, PLAYERS[0], 1512.4)
    player = PLAYERS[0].user_id or 0
    assert await storage.tournaments.leave(event.id, player, "removed", actor=ORGANISER, note="x")
    async with storage.db.transaction() as connection:
        await connection.execute(
            "INSERT INTO tournament_log (tournament_id, at, actor_id, action, detail)"
            " VALUES (?, ?, NULL, ?, ?)",
            (event.id, 5, "started", "4 players"),
        )
    history = await storage.tournaments.history(event.id)
    assert [(line.action, line.detail, line.data) for line in history] == [
        ("created", "", {"name": "Monthly Swiss"}),
        ("joined", "", {"rating": 1512}),
        ("left", "", {"player": player, "name": "p0", "reason": "removed", "note": "x",
                      "signup": True}),
        ("started", "4 players", None),
    ]  # fmt: skip
    assert history[2].actor == ORGANISER
