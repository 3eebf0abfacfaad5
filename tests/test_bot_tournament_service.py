"""The tournaments' service without Discord, on a real database (both backends): the
organiser's options and tools, starting (or cancelling) an event, pairing rounds and when they
end, deadlines, forfeits, removals, leaving mid-game, matches, arenas, pauses, departures and the
record.

The Discord layer's side (threads for games, whether a member left, what is told) is played by
:class:`Stage`, which opens numbered threads and keeps what it was told."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from refusals import refused
from storage_helpers import START, FakeClock
from without_discord import inner_run, rerun_without_discord

from bot.discord_bot.app.games import GameHub
from bot.discord_bot.app.tournaments import (
    AnnouncementChanged,
    CalledOff,
    CancelledForTooFew,
    EventCancelled,
    Finished,
    GameBegun,
    GameLostOnTime,
    LeaveAsked,
    Left,
    News,
    PausedForThreads,
    PlayerRemoved,
    ResultSet,
    RoundOverWhilePaused,
    RoundPaired,
    StandingsDue,
    StoredPairing,
    Tournament,
    TournamentService,
)
from bot.discord_bot.compose import tournaments as _words  # noqa: F401  (registers the words)
from bot.storage import GameStatus, Participant, Storage

ROOT = Path(__file__).resolve().parent.parent
GUILD, CHANNEL = 1, 10
OLGA = Participant.user(900, "olga")
PLAYERS = [Participant.user(100 + k, f"p{k}") for k in range(8)]


class Stage:
    """Discord as the tournaments see it: threads numbered from 5001 (none while
    ``refuse_threads``), members who ``left`` the server, and every piece of news told."""

    def __init__(self) -> None:
        self.news: list[News] = []
        self.refuse_threads = False
        self.left: set[int] = set()
        self._next = 5000

    async def open_thread(
        self,
        event: Tournament,
        pairing: StoredPairing,
        attackers: Participant,
        defenders: Participant,
    ) -> int | None:
        if self.refuse_threads:
            return None
        self._next += 1
        return self._next

    async def member_left(self, guild_id: int, user_id: int) -> bool:
        return user_id in self.left

    async def show(self, news: News) -> None:
        self.news.append(news)

    def told(self, kind: type[News]) -> list[News]:
        """The news of one kind, in order; forgotten once read."""
        found = [n for n in self.news if isinstance(n, kind)]
        self.news = [n for n in self.news if not isinstance(n, kind)]
        return found

    def begun(self) -> list[GameBegun]:
        return [n for n in self.told(GameBegun) if isinstance(n, GameBegun)]


@pytest.fixture
def stage() -> Stage:
    return Stage()


@pytest.fixture
async def events(storage: Storage, stage: Stage) -> TournamentService:
    hub = GameHub(storage)
    await hub.load()
    return TournamentService(storage, hub, stage)


async def create(events: TournamentService, players: int = 4, **options: object) -> Tournament:
    """An event in brandubh (one round by default, starting now) with ``players`` joined."""
    settings: dict[str, object] = {
        "name": "Cup", "variant": "brandubh", "format": "swiss", "rounds": 1,
        "starts_in": "1m",
    }  # fmt: skip
    settings.update(options)
    event = await events.create(OLGA, GUILD, CHANNEL, text_channel=True, **settings)  # type: ignore[arg-type]
    for player in PLAYERS[:players]:
        await events.join(event, player)
    return event


async def resign(events: TournamentService, begun: GameBegun, loser: Participant) -> None:
    await events.hub.resign(begun.live.record.channel_id, loser.user_id or 0)


# ---------------------------------------------------------------------- the organiser


async def test_an_events_options_are_checked_and_defaulted(events: TournamentService) -> None:
    async def make(**options: object) -> Tournament:
        return await events.create(
            OLGA, GUILD, CHANNEL, text_channel=True, name=" Cup ", variant="brandubh",
            **{"format": "swiss", **options},  # type: ignore[arg-type]
        )  # fmt: skip

    with refused(r"floor \(1800\) is above the ceiling \(1500\)"):
        await make(floor=1800, ceiling=1500)
    with refused("in a text channel"):
        await events.create(OLGA, GUILD, CHANNEL, text_channel=False, name="x", variant="brandubh", format="swiss")  # fmt: skip  # noqa: E501
    with refused("`rounds` is for Swiss events"):
        await make(format="round_robin", rounds=3)
    with refused("`minutes` is for arenas"):
        await make(minutes=30)
    with refused("A round of 1 hour is shorter than one move's 1 day"):
        await make(round_time="1h")
    with refused("is not a time"):
        await make(time="soon")
    swiss = await make()
    assert swiss.name == "Cup" and swiss.status == "signup"
    assert (swiss.spec.rounds, swiss.spec.min_entrants, swiss.spec.move_seconds) == (5, 4, 86400)
    assert swiss.spec.starts_at == START + 3600 and swiss.spec.round_seconds is None
    arena = await make(format="arena", time="10m", starts_in="30m")
    assert (arena.spec.arena_seconds, arena.spec.min_entrants, arena.spec.rounds) == (3600, 2, None)
    assert arena.spec.starts_at == START + 1800 and arena.spec.move_seconds == 600
    robin = await make(format="round_robin", min_players=6)
    assert robin.spec.min_entrants == 6


async def test_who_may_organise(events: TournamentService, storage: Storage) -> None:
    assert await events.may_organise(GUILD, True, [])
    assert not await events.may_organise(GUILD, False, [77])
    await storage.settings.save(replace(await storage.settings.get(GUILD), tournament_role=77))
    assert await events.may_organise(GUILD, False, [5, 77])
    with refused("organisers' role of `/tafl settings`\\) can do that"):
        await events.check_organiser(GUILD, False, [5])


async def test_commands_without_a_number_find_the_newest_event_here(
    events: TournamentService,
) -> None:
    with refused("This server has had no tournament yet"):
        await events.find(GUILD, None)
    with refused("no tournament waiting to start"):
        await events.find(GUILD, None, frozenset(("signup",)))
    here = await create(events, 0)
    there = await events.create(
        OLGA, GUILD, 11, text_channel=True, name="Other", variant="brandubh", format="swiss"
    )
    assert (await events.find(GUILD, None, channel_id=CHANNEL)).id == here.id
    assert (await events.find(GUILD, None, channel_id=999, parent_id=11)).id == there.id
    assert (await events.find(GUILD, here.id)).id == here.id
    with refused(f"no tournament #{here.id} in this server"):
        await events.find(GUILD + 1, here.id)
    with refused("no tournament being played"):
        await events.find(GUILD, None, frozenset(("running",)))


# ---------------------------------------------------------------------- starting


async def test_too_few_players_cancel_the_event_at_its_start(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 2)
    with refused("needs 4 players to start and has 2; it stays open"):
        await events.check_start(event)
    await events.advance(event.id)
    cancelled = stage.told(CancelledForTooFew)
    assert [n.joined for n in cancelled] == [2]  # type: ignore[attr-defined]
    announced = stage.told(AnnouncementChanged)
    assert [(n.event.status, n.players) for n in announced] == [("cancelled", 2)]  # type: ignore[attr-defined]
    assert (await storage.tournaments.get(event.id)).status == "cancelled"
    history = (await events.info(event)).history
    # Kept as values, worded in each reader's language (never an English sentence).
    assert (history[-1].action, history[-1].detail) == ("cancelled", "")
    assert history[-1].data == {"needed": 4, "joined": 2}
    assert (await events.start(event)).outcome == "already begun"


async def test_a_swiss_is_paired_round_by_round_to_its_podium(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 5, rounds=2)
    with refused("has not begun"):
        events.check_begun(event)
    start = await events.start(event, by=OLGA)
    assert start.outcome == "begun" and start.event.round == 1
    games = stage.begun()
    assert len(games) == 2 and {g.number for g in games} == {1}
    assert sorted(g.live.record.channel_id for g in games) == [5001, 5002]
    assert (await events.event_of(games[0].live.id)).id == event.id  # type: ignore[union-attr]
    for game in games:  # the pairing's first-named player attacks, in their thread
        assert game.live.record.attackers == game.pairing.first
        assert events.hub.by_id(game.live.id) is game.live
    paired = stage.told(RoundPaired)
    assert len(paired) == 1 and isinstance(paired[0], RoundPaired)
    shown = paired[0].pairings
    late = await events.join(await storage.tournaments.get(event.id), PLAYERS[7])
    assert late.from_round == 2  # paired from the next round on
    assert [s.channel_id is not None for s in shown] == [True, True, False]  # the bye last
    assert shown[2].pairing.second is None

    # The round ends when its last game does, not before.
    await resign(events, games[0], games[0].pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    assert stage.told(RoundPaired) == [] and stage.begun() == []
    assert (await events.standings(event.id)).after == 0
    await resign(events, games[1], games[1].pairing.first)
    await events.advance(event.id)
    due = stage.told(StandingsDue)
    assert len(due) == 1 and isinstance(due[0], StandingsDue) and due[0].standings.after == 1
    assert [n.round for n in stage.told(RoundPaired)] == [2]  # type: ignore[attr-defined]
    games = stage.begun()
    assert len(games) == 3  # six players with the late one: no bye
    pairings = await storage.tournaments.pairings(event.id, 1)
    assert [(p.first_points, p.second_points, p.decided) for p in pairings[:2]] == [
        (1.0, 0.0, "played"),
        (0.0, 1.0, "played"),
    ]
    for game in games:
        await resign(events, game, game.pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    finished = stage.told(Finished)
    assert len(finished) == 1 and isinstance(finished[0], Finished)
    assert len(finished[0].podium) == 3 and finished[0].unpaired is None
    assert [n.standings.after for n in stage.told(StandingsDue)] == [2]  # type: ignore[attr-defined]
    assert (await storage.tournaments.get(event.id)).status == "finished"
    assert [n.event.status for n in stage.told(AnnouncementChanged)][-1] == "finished"  # type: ignore[attr-defined]


async def test_a_rounds_deadline_loses_its_unfinished_games_on_time(
    events: TournamentService, stage: Stage, clock: FakeClock
) -> None:
    event = await create(events, 4, rounds=2, time="1h", round_time="1d")
    await events.start(event)
    assert [n.round for n in stage.told(RoundPaired)] == [1]  # type: ignore[attr-defined]
    games = stage.begun()
    await resign(events, games[0], games[0].pairing.first)
    clock.advance(86400 - 1)
    await events.advance(event.id)
    assert stage.told(GameLostOnTime) == []
    clock.advance(2)
    await events.advance(event.id)
    lost = stage.told(GameLostOnTime)
    assert len(lost) == 1 and isinstance(lost[0], GameLostOnTime)
    record = lost[0].ended.finished.record
    assert record.id == games[1].live.id and record.result is not None
    assert record.result.value == "defenders"  # the attackers were to move
    await events.advance(event.id)
    assert [n.round for n in stage.told(RoundPaired)] == [2]  # type: ignore[attr-defined]


async def test_without_threads_an_event_pauses_until_resumed(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4)
    stage.refuse_threads = True
    await events.start(event)
    assert len(stage.told(PausedForThreads)) == 1 and stage.begun() == []
    assert (await storage.tournaments.get(event.id)).status == "paused"
    await events.advance(event.id)  # paused: nothing starts
    assert stage.begun() == []
    stage.refuse_threads = False
    paused = await storage.tournaments.get(event.id)
    await events.resume(paused, OLGA)
    with refused(r"\*\*Cup\*\* is paused"):
        await events.resume(paused, OLGA)  # twice: the second finds it running
    await events.advance(event.id)
    assert len(stage.begun()) == 2


async def test_a_round_that_ends_during_a_pause_waits_for_the_resume(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4, rounds=2)
    await events.start(event)
    assert len(stage.told(RoundPaired)) == 1
    games = stage.begun()
    running = await storage.tournaments.get(event.id)
    await events.pause(running, OLGA)
    with refused("is being played"):
        await events.pause(running, OLGA)
    for game in games:
        await resign(events, game, game.pairing.first)
    await events.advance(event.id)
    assert len(stage.told(RoundOverWhilePaused)) == 1
    assert [n.standings.after for n in stage.told(StandingsDue)] == [1]  # type: ignore[attr-defined]
    assert stage.told(RoundPaired) == []
    await events.advance(event.id)  # said once
    assert stage.told(RoundOverWhilePaused) == [] and stage.told(StandingsDue) == []
    await events.resume(await storage.tournaments.get(event.id), OLGA)
    await events.advance(event.id)
    assert [n.round for n in stage.told(RoundPaired)] == [2]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- players and forfeits


async def test_leaving_mid_game_asks_first_then_resigns_the_game(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4)
    await events.start(event)
    game = stage.begun()[0]
    leaver, opponent = game.pairing.first, game.pairing.second
    running = await storage.tournaments.get(event.id)
    asked = await events.leave(running, leaver.user_id or 0)
    assert isinstance(asked, LeaveAsked)
    assert (asked.live.id, asked.opponent) == (game.live.id, opponent)
    assert (await events.players(event.id)) == 4  # nothing happened yet
    left = await events.leave(running, leaver.user_id or 0, confirmed=game.live.id)
    assert isinstance(left, Left) and left.resigned is not None
    assert left.resigned.finished.record.result is not None
    assert left.resigned.finished.record.result.value == "defenders"
    assert (await events.players(event.id)) == 3
    with refused(r"not playing in \*\*Cup\*\*"):
        await events.leave(running, leaver.user_id or 0)
    await events.advance(event.id)
    pairing = (await storage.tournaments.pairings(event.id, 1))[game.pairing.board - 1]
    assert (pairing.first_points, pairing.second_points) == (0.0, 1.0)


async def test_before_the_start_leaving_is_changing_ones_mind(
    events: TournamentService, storage: Storage
) -> None:
    event = await create(events, 2)
    left = await events.leave(event, PLAYERS[0].user_id or 0)
    assert isinstance(left, Left) and left.resigned is None
    assert await events.players(event.id) == 1
    joined = await events.join(event, PLAYERS[0])
    assert joined.from_round is None
    with refused("already in"):
        await events.join(event, PLAYERS[0])


async def test_an_entry_outside_the_rating_bounds_is_refused_with_both_numbers(
    events: TournamentService,
) -> None:
    high = await events.create(
        OLGA, GUILD, CHANNEL, text_channel=True, name="High", variant="brandubh",
        format="swiss", floor=1600,
    )  # fmt: skip
    with refused(r"\*\*High\*\* is for players rated 1600 or more; you are 1500\."):
        await events.join(high, PLAYERS[1])
    low = await events.create(
        OLGA, GUILD, CHANNEL, text_channel=True, name="Low", variant="brandubh",
        format="swiss", ceiling=1400,
    )  # fmt: skip
    with refused(r"\*\*Low\*\* is for players rated up to 1400; you are 1500\."):
        await events.join(low, PLAYERS[1])


async def test_a_removed_players_game_is_called_off_and_lost_by_forfeit(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4)
    await events.start(event)
    game = stage.begun()[0]
    running = await storage.tournaments.get(event.id)
    with refused(r"nobody is not playing in \*\*Cup\*\*"):
        await events.remove(running, Participant.user(5, "nobody"), "spam", OLGA)
    removed = game.pairing.second
    assert removed is not None
    assert await events.remove(running, removed, "no-show", OLGA)
    called = stage.told(CalledOff)
    assert len(called) == 1 and isinstance(called[0], CalledOff)
    reason = called[0].reason
    assert isinstance(reason, PlayerRemoved)
    assert (reason.removed, reason.reason, reason.first, reason.second) == (
        removed,
        "no-show",
        1.0,
        0.0,
    )
    assert called[0].ended.finished.record.status is GameStatus.ABORTED
    assert events.hub.by_id(game.live.id) is None
    pairing = (await storage.tournaments.pairings(event.id, 1))[game.pairing.board - 1]
    assert (pairing.first_points, pairing.second_points, pairing.decided, pairing.reason) == (
        1.0,
        0.0,
        "forfeit",
        "no-show",
    )


async def test_an_organisers_result_calls_the_game_off_and_the_record_keeps_it(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 2, matches=True, min_players=2)
    await events.start(event)
    assert len(stage.begun()) == 1
    running = await storage.tournaments.get(event.id)
    with refused("Round 1 of \\*\\*Cup\\*\\* has no board 2"):
        await events.verdict(running, 1, 2, "1-0", "no-show")
    verdict = await events.verdict(running, 1, 1, "0-1", "no-show")
    assert (verdict.first, verdict.second, verdict.how) == (0.0, 2.0, "adjudicated")
    assert verdict.detail == "adjudicated: no-show"
    forfeit = await events.verdict(running, 1, 1, "0-1", "Forfeit: no-show")
    assert forfeit.how == "forfeit" and forfeit.detail == "Forfeit: no-show"
    assert (await events.verdict(running, 1, 1, "0-0", "both absent")).how == "forfeit"
    await events.set_result(forfeit, OLGA)
    called = stage.told(CalledOff)
    assert len(called) == 1 and isinstance(called[0], CalledOff)
    assert isinstance(called[0].reason, ResultSet) and called[0].reason.second == 2.0
    pairing = (await storage.tournaments.pairings(event.id, 1))[0]
    assert (pairing.first_points, pairing.second_points, pairing.decided) == (0.0, 2.0, "forfeit")
    await events.advance(event.id)  # the pairing is decided: no second game of the match
    assert stage.begun() == [] and len(stage.told(Finished)) == 1
    record = await events.export(await storage.tournaments.get(event.id))
    assert [g.number for g in record.games] == [1]
    otn = record.games[0].otn
    assert "[termination:forfeit]" in otn
    assert "[result:-1]" in otn  # the second player, who defended, wins the match
    assert record.standings.event.status == "finished"


async def test_a_match_plays_its_second_game_in_the_same_thread_with_sides_swapped(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 2, matches=True, min_players=2)
    await events.start(event)
    first = stage.begun()[0]
    await resign(events, first, first.pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    second = stage.begun()
    assert len(second) == 1 and second[0].number == 2
    record = second[0].live.record
    assert record.channel_id == first.live.record.channel_id
    assert (record.attackers, record.defenders) == (first.pairing.second, first.pairing.first)
    await resign(events, second[0], first.pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    pairing = (await storage.tournaments.pairings(event.id, 1))[0]
    assert (pairing.first_points, pairing.second_points) == (2.0, 0.0)
    assert len(stage.told(Finished)) == 1


async def test_a_cancelled_events_games_are_called_off(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4)
    await events.start(event)
    assert len(stage.begun()) == 2
    running = await storage.tournaments.get(event.id)
    await events.cancel(running, OLGA, "the club closed")
    with refused("is being played"):
        await events.cancel(running, OLGA, "again")
    await events.stop_games(running, "the club closed")
    called = stage.told(CalledOff)
    assert [type(n.reason) for n in called] == [EventCancelled, EventCancelled]  # type: ignore[attr-defined]
    assert [n.event.status for n in stage.told(AnnouncementChanged)][-1] == "cancelled"  # type: ignore[attr-defined]
    assert events.hub.active() == []


# ---------------------------------------------------------------------- arenas and departures


async def test_an_arena_pairs_its_players_again_as_soon_as_their_game_ends(
    events: TournamentService, stage: Stage, clock: FakeClock, storage: Storage
) -> None:
    event = await create(events, 4, format="arena", rounds=None, minutes=10, time="1m")
    await events.start(event)
    first = stage.begun()
    assert len(first) == 2
    # Alone free, a player waits: never an immediate rematch.
    await resign(events, first[0], first[0].pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    assert stage.begun() == []
    await resign(events, first[1], first[1].pairing.second)  # type: ignore[arg-type]
    await events.advance(event.id)
    again = stage.begun()
    assert sorted(g.pairing.board for g in again) == [3, 4]
    met = {frozenset((g.pairing.first, g.pairing.second)) for g in first}
    assert not met & {frozenset((g.pairing.first, g.pairing.second)) for g in again}
    clock.advance(600)  # the arena is over: the games under way are played out, and count
    for game in again:
        await resign(events, game, game.pairing.first)
    await events.advance(event.id)
    assert stage.begun() == []
    finished = stage.told(Finished)
    assert len(finished) == 1 and isinstance(finished[0], Finished)
    assert all(line.points > 0 for line in finished[0].podium)  # a win each


async def test_players_who_left_the_server_are_withdrawn_before_the_next_round(
    events: TournamentService, stage: Stage, storage: Storage
) -> None:
    event = await create(events, 4, rounds=2)
    await events.start(event)
    games = stage.begun()
    gone = games[0].pairing.second
    assert gone is not None
    stage.left = {gone.user_id or 0}
    for game in games:
        await resign(events, game, game.pairing.first)
    await events.advance(event.id)
    entrants = {e.player: e.left_reason for e in (await events.info(event)).entrants}
    assert entrants[gone] == "left the server"
    second = await storage.tournaments.pairings(event.id, 2)
    assert gone not in {p for pairing in second for p in (pairing.first, pairing.second)}
    assert any(pairing.second is None for pairing in second)  # three left: a bye


async def test_the_clock_serves_only_the_events_that_are_due(
    events: TournamentService, clock: FakeClock
) -> None:
    event = await create(events, 4, starts_in="1h")
    assert await events.due() == []
    clock.advance(3600)
    assert [e.id for e in await events.due()] == [event.id]


# ---------------------------------------------------------------------- without Discord


@pytest.mark.skipif(inner_run(), reason="the inner run")
def test_the_tournament_service_runs_without_discord() -> None:
    """These tests again (on SQLite) in a fresh interpreter, which must never import
    discord.py."""
    rerun_without_discord(__file__)
