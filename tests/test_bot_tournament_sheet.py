"""From stored events to the tournament logic and back: late entrants, withdrawals and forfeits
as the pairing and the standings see them."""

from __future__ import annotations

from storage_helpers import new_game

from bot.discord_bot.app.tournaments import Line, pair_round, sheet_of, standings_of
from bot.discord_bot.compose.tournaments import describe_event, standings_text
from bot.storage import Participant, Storage, TableEnding
from bot.storage.tournaments import Tournament, TournamentSpec

OLGA = Participant.user(900, "olga")
P = [Participant.user(100 + k, f"p{k}") for k in range(6)]


def swiss(**changes: object) -> TournamentSpec:
    fields: dict[str, object] = {
        "guild_id": 1, "channel_id": 10, "name": "Test Swiss", "variant": "brandubh",
        "format": "swiss", "rounds": 3, "arena_seconds": None, "matches": False,
        "move_seconds": 3600, "round_seconds": None, "rated": True, "rating_floor": None,
        "rating_ceiling": None, "min_entrants": 2, "starts_at": 0,
    }  # fmt: skip
    fields.update(changes)
    return TournamentSpec(**fields)  # type: ignore[arg-type]


async def play_round(storage: Storage, event_id: int, round_number: int) -> None:
    """Every game of the round won by its attacker, through real games."""
    for pairing in await storage.tournaments.pairings(event_id, round_number):
        if pairing.second is None:
            continue
        game = await new_game(
            storage, 5000 + round_number * 10 + pairing.board,
            attackers=pairing.first, defenders=pairing.second,
        )  # fmt: skip
        await storage.tournaments.attach_game(event_id, round_number, pairing.board, game.id)
        await storage.games.finish(game.id, "attackers", TableEnding.RESIGNATION)
        await storage.tournaments.decide(event_id, round_number, pairing.board, 1.0, 0.0, "played")


async def test_a_late_entrant_has_a_zero_point_bye_for_the_round_missed_and_is_paired(
    storage: Storage,
) -> None:
    event = await storage.tournaments.create(swiss(), OLGA)
    for player in P[:4]:
        await storage.tournaments.join(event.id, player, 1500)
    event = await storage.tournaments.get(event.id)
    sheet = await sheet_of(storage, event)
    assert await storage.tournaments.begin_round(
        event.id, 1, pair_round(event, sheet, 1), deadline=None
    )
    running = await storage.tournaments.get(event.id)
    await storage.tournaments.join(running.id, P[4], 1600)  # joins during round 1
    await play_round(storage, event.id, 1)
    sheet = await sheet_of(storage, running)
    [first] = sheet.rounds
    assert [(b.player, b.kind.value, b.points) for b in first.byes] == [
        (P[4].user_id, "missed", 0.0)
    ]
    second = pair_round(running, sheet, 2)
    named = {p.first for p in second} | {p.second for p in second if p.second is not None}
    assert P[4].user_id in named and len(named) == 5
    assert sum(1 for p in second if p.second is None) == 1  # five players: one bye
    table = standings_of(running, sheet)
    late = next(line for line in table if line.player == P[4])
    assert late.points == 0 and late.rank == 5


async def test_a_withdrawn_player_is_not_paired_and_keeps_their_results(storage: Storage) -> None:
    event = await storage.tournaments.create(swiss(), OLGA)
    for player in P[:4]:
        await storage.tournaments.join(event.id, player, 1500)
    sheet = await sheet_of(storage, event)
    await storage.tournaments.begin_round(event.id, 1, pair_round(event, sheet, 1), deadline=None)
    await play_round(storage, event.id, 1)
    winner = (await storage.tournaments.pairings(event.id, 1))[0].first
    await storage.tournaments.leave(event.id, winner.user_id or 0, "withdrew")
    running = await storage.tournaments.get(event.id)
    sheet = await sheet_of(storage, running)
    second = pair_round(running, sheet, 2)
    named = {p.first for p in second} | {p.second for p in second if p.second is not None}
    assert winner.user_id not in named and len(named) == 3
    line = next(line for line in standings_of(running, sheet) if line.player == winner)
    assert line.points == 1 and line.withdrawn and line.left == "withdrew"


async def test_an_organisers_forfeit_counts_but_is_not_a_game_met(storage: Storage) -> None:
    event = await storage.tournaments.create(swiss(rounds=2), OLGA)
    for player in P[:4]:
        await storage.tournaments.join(event.id, player, 1500)
    sheet = await sheet_of(storage, event)
    await storage.tournaments.begin_round(event.id, 1, pair_round(event, sheet, 1), deadline=None)
    pairings = await storage.tournaments.pairings(event.id, 1)
    for pairing in pairings:
        await storage.tournaments.decide(
            event.id, 1, pairing.board, 1.0, 0.0, "forfeit", reason="no-show", actor=OLGA
        )
    running = await storage.tournaments.get(event.id)
    sheet = await sheet_of(storage, running)
    assert all(p.forfeit for p in sheet.rounds[0].pairings)
    table = standings_of(running, sheet)
    winners = {p.first for p in pairings}
    assert {line.player for line in table if line.points == 1} == winners


async def test_a_match_left_after_its_first_game_counts_the_second_as_a_forfeit(
    storage: Storage,
) -> None:
    """A player who leaves after a match's first game never plays the second: the desk sets
    the pairing's points with that game lost by them, and the sheet counts it as a forfeit
    beside the game played (so the two did meet over the board)."""
    event = await storage.tournaments.create(swiss(matches=True, rounds=1), OLGA)
    for player in P[:2]:
        await storage.tournaments.join(event.id, player, 1500)
    sheet = await sheet_of(storage, event)
    await storage.tournaments.begin_round(event.id, 1, pair_round(event, sheet, 1), deadline=None)
    [pairing] = await storage.tournaments.pairings(event.id, 1)
    assert pairing.second is not None
    game = await new_game(storage, 7001, attackers=pairing.first, defenders=pairing.second)
    await storage.tournaments.attach_game(event.id, 1, 1, game.id)
    await storage.games.finish(game.id, "defenders", TableEnding.RESIGNATION)  # first lost
    await storage.tournaments.leave(event.id, pairing.first.user_id or 0, "withdrew")
    await storage.tournaments.decide(event.id, 1, 1, 0.0, 2.0, "played")
    sheet = await sheet_of(storage, await storage.tournaments.get(event.id))
    [played] = sheet.rounds[0].pairings
    assert [(g.attacker, g.result, g.forfeit) for g in played.games] == [
        (pairing.first.user_id, 0.0, False),
        (pairing.second.user_id, 1.0, True),
    ]
    assert not played.forfeit  # they met over the board in the first game
    table = standings_of(await storage.tournaments.get(event.id), sheet)
    assert [(line.player, line.points) for line in table] == [
        (pairing.second, 1.0),
        (pairing.first, 0.0),
    ]


def test_the_standings_text_keeps_a_withdrawn_player_in_place_in_one_notation() -> None:
    """Points and tiebreaks read as the crosstable image writes them (quarters as ¼), a player
    who left keeps their rank, marked, and one round is "1 round"."""
    event = Tournament(
        id=1, spec=swiss(rounds=1), announcement_id=None, status="finished", round=1,
        round_deadline=None, ends_at=None, organiser=OLGA, created_at=0, ended_at=0,
    )  # fmt: skip
    table = [
        Line(1, P[0], 2.0, (("BH", 3.0), ("SB", 4.25), ("W", 2.0), ("Perf", 1712.4)), False),
        Line(2, P[1], 1.5, (("BH", 2.5), ("SB", 0.75), ("W", 1.0), ("Perf", None)), True, "x"),
    ]
    text = standings_text(event, table, 1)
    rows = text.split("```")[1].strip().splitlines()
    assert rows[1].split() == ["1", "p0", "2", "3", "4¼", "2", "1712"], rows
    assert rows[2].split() == ["2", "p1", "(out)", "1½", "2½", "¾", "1", "–"], rows
    assert "(out): no longer paired" in text
    assert describe_event(event).startswith("Brandubh Swiss · 1 round · ")
