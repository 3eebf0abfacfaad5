"""The challenges service on real SQLite storage, without Discord: the checks of a challenge
(the cooldown, the limit of challenges to one member), accepting with sides and threads,
rematches, games against the AI and expiry."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from refusals import refused, words_of
from storage_helpers import FakeClock, open_storage
from without_discord import run_without_discord

from bot.discord_bot.app.challenges import (
    CHALLENGE_COOLDOWN_SECONDS,
    SAME_OPPONENT_LIMIT,
    SAME_OPPONENT_WINDOW,
    AIGameStarted,
    ChallengeService,
    NewThread,
    RematchAcross,
    RematchOffered,
    RematchStarted,
    Where,
)
from bot.discord_bot.app.games import GameHub
from bot.storage import Participant, Place, ServerSettings, Storage
from bot.storage.lobby import Pairing, SeekRequest
from bot.storage.tournaments import NewPairing, TournamentSpec

GUILD = 1
CHANNEL = 50
ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")
CY = Participant.user(3, "cy")
HERE = Where(CHANNEL, GUILD, "channel", threads=True)
"""A text channel where the bot may open threads."""
NO_THREADS = Where(CHANNEL, GUILD, "channel", threads=False)


class Threads:
    """Stands in for Discord opening a thread: a new channel id, and a note of what for."""

    def __init__(self) -> None:
        self.opened: list[NewThread] = []

    async def __call__(self, new: NewThread) -> int:
        self.opened.append(new)
        return 9000 + len(self.opened)


def service_on(storage: Storage, hub: GameHub) -> ChallengeService:
    return ChallengeService(
        storage.challenges,
        storage.games,
        storage.settings,
        storage.tournaments,
        hub,
        expiry_seconds=900,
    )


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()


@pytest.fixture
def hub(storage: Storage) -> GameHub:
    return GameHub(storage)


@pytest.fixture
def service(storage: Storage, hub: GameHub) -> ChallengeService:
    return service_on(storage, hub)


async def cooldown_and_limit(path: str) -> None:
    """The scenario of the cooldown and the limit (run in this process and, to show that the
    service needs no Discord, in a fresh one)."""
    clock = FakeClock()
    storage = await open_storage(path, clock)
    try:
        service = service_on(storage, GameHub(storage))
        # Mistakes are refused before anything counts: each can be corrected at once.
        with refused("You cannot challenge yourself"):
            await service.challenge(HERE, ANN, ANN)
        with refused("Bots cannot accept challenges"):
            await service.challenge(HERE, ANN, BO, opponent_is_bot=True)
        with refused("between 10 seconds and 14 days"):
            await service.challenge(HERE, ANN, BO, time="1s")
        first = await service.challenge(HERE, ANN, BO, variant="brandubh", time="10m")
        assert (first.challenge.variant, first.challenge.move_seconds) == ("brandubh", 600)
        clock.advance(5)
        slow = (
            r"Slow down: you can challenge again in 15 s "
            rf"\(one challenge every {CHALLENGE_COOLDOWN_SECONDS} seconds\)\."
        )
        with refused(slow):
            await service.challenge(HERE, ANN, CY)
        # A challenge declined is forgiven by the cooldown, but it notified bo all the same.
        await service.decline(first.challenge.id, BO.user_id or 0)
        for _ in range(SAME_OPPONENT_LIMIT - 1):
            clock.advance(60)
            made = await service.challenge(HERE, ANN, BO)
            await service.decline(made.challenge.id, BO.user_id or 0)
        # Three challenges in 125 s: the fourth waits until the first is 10 minutes old.
        with refused() as limit:
            await service.challenge(HERE, ANN, BO)
        wait = SAME_OPPONENT_WINDOW - (5 + 60 * (SAME_OPPONENT_LIMIT - 1))
        assert words_of(limit) == (
            f"You have challenged bo 3 times in the last 10 minutes; you can challenge them "
            f"again in {wait} s."
        )
        await service.challenge(HERE, ANN, CY)  # another member may be asked at once
        clock.advance(wait + CHALLENGE_COOLDOWN_SECONDS)
        await service.challenge(HERE, ANN, BO)
    finally:
        await storage.close()


async def test_the_cooldown_and_the_limit_to_one_member(tmp_path: Path) -> None:
    await cooldown_and_limit(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord("test_app_challenges", "cooldown_and_limit", str(tmp_path / "t.sqlite3"))


async def test_a_quick_cancel_is_forgiven_and_an_accepted_challenge_is_not_counted(
    service: ChallengeService, clock: FakeClock
) -> None:
    for _ in range(SAME_OPPONENT_LIMIT):
        slip = await service.challenge(HERE, ANN, BO)
        clock.advance(2)
        await service.cancel(slip.challenge.id, ANN.user_id or 0)
    # Three in a row, each cancelled at once: no cooldown, but bo was asked three times.
    with refused("You have challenged bo 3 times"):
        await service.challenge(HERE, ANN, BO)
    threads = Threads()
    played = await service.challenge(Where(60, GUILD, "channel"), ANN, CY)
    await service.accept(played.challenge.id, CY, Where(60, GUILD, "channel"), threads)
    clock.advance(CHALLENGE_COOLDOWN_SECONDS)
    for _ in range(SAME_OPPONENT_LIMIT - 1):
        asked = await service.challenge(HERE, ANN, CY)
        await service.decline(asked.challenge.id, CY.user_id or 0)
    # The accepted challenge is one of three made to cy, but it is not held against ann.
    await service.challenge(HERE, ANN, CY)


async def test_the_server_default_time_applies_unless_the_challenge_sets_none(
    storage: Storage, service: ChallengeService, clock: FakeClock
) -> None:
    await storage.settings.save(ServerSettings(GUILD, default_move_seconds=86400))
    posted = await service.challenge(HERE, ANN, BO)
    assert (posted.challenge.move_seconds, posted.server_default_seconds) == (86400, 86400)
    await service.cancel(posted.challenge.id, ANN.user_id or 0)
    unlimited = await service.challenge(HERE, ANN, BO, time="none")
    assert unlimited.challenge.move_seconds is None


async def test_accepting_draws_a_random_side_and_begins_the_game_here(
    service: ChallengeService, hub: GameHub
) -> None:
    threads = Threads()
    sides = set()
    for channel in range(100, 110):
        where = Where(channel, GUILD, "channel", threads=True)
        posted = await service.challenge(where, Participant.user(channel, "x"), BO)
        accepted = await service.accept(posted.challenge.id, BO, where, threads)
        assert accepted.thread_id is None and hub.get(channel) is accepted.live
        sides.add(accepted.live.record.attackers)
    assert threads.opened == []
    # The side is drawn, not always the same (ten draws: 2 in 1024 to fail by chance).
    assert BO in sides and len(sides) > 1


async def test_a_game_gets_a_thread_when_the_server_asks_or_the_channel_is_busy(
    storage: Storage, service: ChallengeService, clock: FakeClock
) -> None:
    await storage.settings.save(ServerSettings(GUILD, game_threads=True))
    threads = Threads()
    posted = await service.challenge(HERE, ANN, BO, variant="brandubh", side="attackers")
    assert posted.in_thread
    accepted = await service.accept(posted.challenge.id, BO, HERE, threads)
    assert threads.opened == [NewThread(ANN, BO, "brandubh")]
    assert accepted.thread_id == accepted.live.record.channel_id == 9001
    assert accepted.live.record.attackers == ANN
    # Where the bot may not open one, the game is played in the channel after all.
    here = await service.challenge(NO_THREADS, CY, BO)
    assert not here.in_thread
    game = await service.accept(here.challenge.id, BO, NO_THREADS, threads)
    assert game.thread_id is None and game.live.record.channel_id == CHANNEL
    # Now the channel is busy: a new game needs a thread, and says so where none can open.
    await storage.settings.save(ServerSettings(GUILD))
    busy = game.live.id
    with refused(rf"already has a game \(#{busy}\), and I may not open"):
        await service.challenge(NO_THREADS, ANN, CY)
    thread = Where(accepted.thread_id, GUILD, "thread")
    with refused(r"^This thread already has a game \(#\d+\)\."):
        await service.challenge(thread, CY, ANN)
    clock.advance(CHALLENGE_COOLDOWN_SECONDS)
    elsewhere = await service.challenge(HERE, ANN, CY)
    assert elsewhere.in_thread


async def test_a_channel_taken_meanwhile_sends_the_accepted_game_to_a_thread(
    storage: Storage, service: ChallengeService, hub: GameHub, clock: FakeClock
) -> None:
    threads = Threads()
    posted = await service.challenge(HERE, ANN, BO)
    # Another process started a game here meanwhile (this one has not heard of it).
    await storage.games.create(
        guild_id=GUILD, channel_id=CHANNEL, variant="tablut", attackers=CY, defenders=BO
    )
    accepted = await service.accept(posted.challenge.id, BO, HERE, threads)
    assert accepted.thread_id == 9001 and threads.opened == [NewThread(ANN, BO, "tablut")]
    # Without threads, the refusal names the game found in the channel.
    clock.advance(CHALLENGE_COOLDOWN_SECONDS)
    late = await service.challenge(Where(70, GUILD, "channel"), CY, ANN)
    await storage.games.create(
        guild_id=GUILD, channel_id=70, variant="tablut", attackers=BO, defenders=ANN
    )
    with refused(r"already has a game \(#\d+\), and I may not"):
        await service.accept(late.challenge.id, ANN, Where(70, GUILD, "channel"), threads)
    assert hub.get(70) is not None  # the unseen game is tracked from now on


async def test_only_the_right_people_answer_and_a_closed_challenge_says_how_it_ended(
    service: ChallengeService,
) -> None:
    threads = Threads()
    posted = await service.challenge(HERE, ANN, BO)
    challenge_id = posted.challenge.id
    with refused(r"^Only the challenger can cancel a challenge\.$"):
        await service.cancel(challenge_id, BO.user_id or 0)
    with refused(r"^Only the person challenged can decline"):
        await service.decline(challenge_id, CY.user_id or 0)
    with refused(r"^This challenge is for someone else\.$"):
        await service.accept(challenge_id, CY, HERE, threads)
    with refused(r"^You cannot accept your own challenge\.$"):
        await service.accept(challenge_id, ANN, HERE, threads)
    declined = await service.decline(challenge_id, BO.user_id or 0)
    assert declined.status.value == "declined"
    with refused(r"^This challenge was declined\.$"):
        await service.accept(challenge_id, BO, HERE, threads)


async def test_challenges_expire_and_those_shown_are_returned_once(
    service: ChallengeService, clock: FakeClock
) -> None:
    shown = await service.challenge(HERE, ANN, BO)
    await service.shown(shown.challenge.id, 777)
    clock.advance(CHALLENGE_COOLDOWN_SECONDS)
    await service.challenge(HERE, ANN, CY)  # never shown (its message was lost)
    clock.advance(900)
    expired = await service.expire_due()
    assert [(c.id, c.message_id) for c in expired] == [(shown.challenge.id, 777)]
    assert await service.expire_due() == []
    with refused("This challenge expired"):
        await service.accept(shown.challenge.id, BO, HERE, Threads())


async def finished(hub: GameHub, channel: int, variant: str, winner: Participant) -> int:
    """A game between ann (attackers) and bo in ``channel``, won by ``winner`` (the other
    resigns)."""
    record = await hub.storage.games.create(
        guild_id=GUILD, channel_id=channel, variant=variant, attackers=ANN, defenders=BO
    )
    hub.adopt(record)
    loser = BO if winner == ANN else ANN
    await hub.resign(channel, loser.user_id or 0)
    return record.id


async def test_a_rematch_swaps_the_sides_and_is_offered_once(
    service: ChallengeService, hub: GameHub
) -> None:
    with refused(r"^No finished game in this channel to rematch\.$"):
        await service.rematch(HERE, ANN, None)
    old = await finished(hub, CHANNEL, "brandubh", ANN)
    with refused("Only the players of that game"):
        await service.rematch(HERE, CY, old)
    offered = await service.rematch(HERE, BO, None)  # the channel's last game
    assert isinstance(offered, RematchOffered)
    assert (offered.attackers, offered.defenders, offered.opponent) == (BO, ANN, ANN)
    assert not offered.winner_defends_again
    challenge = offered.challenge
    assert (challenge.challenger, challenge.challenged) == (BO, ANN)
    assert (challenge.challenger_side, challenge.variant) == ("attackers", "brandubh")
    with refused("You have already offered a game here"):
        await service.rematch(HERE, BO, old)
    with refused(r"^<@2> has already asked you for a game here"):
        await service.rematch(HERE, ANN, old)
    accepted = await service.accept(challenge.id, ANN, HERE, Threads())
    assert (accepted.live.record.attackers, accepted.live.record.defenders) == (BO, ANN)
    with refused(rf"already has a game \(#{accepted.live.id}\)"):
        await service.rematch(HERE, ANN, old)


async def test_in_tablut_the_winner_of_the_last_game_defends_again(
    service: ChallengeService, hub: GameHub
) -> None:
    await finished(hub, CHANNEL, "tablut", BO)  # bo defended, and won
    offered = await service.rematch(HERE, ANN, None)
    assert isinstance(offered, RematchOffered)
    assert (offered.attackers, offered.defenders) == (ANN, BO)
    assert offered.winner_defends_again
    assert offered.challenge.challenger_side == "attackers"


async def test_a_rematch_against_the_ai_begins_at_once(
    storage: Storage, service: ChallengeService, hub: GameHub
) -> None:
    ai = Participant.ai(2)
    record = await storage.games.create(
        guild_id=GUILD, channel_id=CHANNEL, variant="brandubh", attackers=ANN, defenders=ai
    )
    hub.adopt(record)
    await hub.resign(CHANNEL, ANN.user_id or 0)
    started = await service.rematch(HERE, ANN, record.id)
    assert isinstance(started, RematchStarted)
    assert (started.attackers, started.defenders) == (ai, ANN)
    assert hub.get(CHANNEL) is started.live and started.live.record.attackers == ai


async def test_tournament_games_and_games_across_servers_have_rematches_of_their_own(
    storage: Storage, service: ChallengeService, hub: GameHub
) -> None:
    spec = TournamentSpec(
        guild_id=GUILD, channel_id=CHANNEL, name="Cup", variant="brandubh", format="swiss",
        rounds=1, arena_seconds=None, matches=False, move_seconds=None, round_seconds=None,
        rated=True, rating_floor=None, rating_ceiling=None, min_entrants=2, starts_at=0,
    )  # fmt: skip
    event = await storage.tournaments.create(spec, CY)
    for player in (ANN, BO):
        await storage.tournaments.join(event.id, player, 1500)
    pairing = NewPairing(1, ANN.user_id or 0, BO.user_id or 0)
    await storage.tournaments.begin_round(event.id, 1, [pairing], deadline=None)
    game = await finished(hub, CHANNEL, "brandubh", ANN)
    await storage.tournaments.attach_game(event.id, 1, 1, game)
    with refused(r"^Tournament games have no rematch"):
        await service.rematch(HERE, ANN, game)

    await storage.lobby.seek(SeekRequest(ANN, 10, 100, "brandubh", 86400, True, None))
    pairing = await storage.lobby.seek(SeekRequest(BO, 20, 200, "brandubh", 86400, True, None))
    assert isinstance(pairing, Pairing)
    first, second = pairing.attackers, pairing.defenders
    record, venues = await storage.games.create_across(
        attackers=first.player,
        defenders=second.player,
        variant=first.variant,
        move_seconds=first.move_seconds,
        rated=first.rated,
        places={
            "attackers": Place(first.guild_id, "North", 12),
            "defenders": Place(second.guild_id, "South", 22),
        },
        pairing=pairing,
    )
    hub.adopt(record, venues)
    await hub.resign(12, first.player.user_id or 0)
    across = await service.rematch(Where(22, 20, "thread"), second.player, record.id)
    assert isinstance(across, RematchAcross) and across.old.id == record.id
    assert [venue.channel_id for venue in across.venues] == [12, 22]


async def test_a_game_against_the_ai_takes_a_thread_when_one_is_wanted(
    storage: Storage, service: ChallengeService, hub: GameHub
) -> None:
    threads = Threads()
    started = await service.play_ai(HERE, ANN, threads, variant="brandubh", side="defenders")
    assert isinstance(started, AIGameStarted) and started.thread_id is None
    assert started.live.record.defenders == ANN and started.live.record.attackers.is_ai
    again = await service.play_ai(HERE, ANN, threads, level="hard")
    assert again.thread_id == 9001 and threads.opened == [
        NewThread(ANN, Participant.ai(3), "tablut")
    ]
    # A direct conversation has no threads: one game at a time.
    direct = Where(80, None, "direct")
    first = await service.play_ai(direct, ANN, threads)
    with refused(re.escape(f"conversation already has a game (#{first.live.id})")):
        await service.play_ai(direct, ANN, threads)
