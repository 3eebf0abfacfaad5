"""Challenges: accepted into games exactly once, declined, cancelled, expired."""

from __future__ import annotations

import asyncio

import pytest
from storage_helpers import ALICE, BOB, CAROL, FakeClock, new_game

from bot.storage import (
    Challenge,
    ChallengeClosed,
    ChallengeStatus,
    ChannelBusy,
    NotAllowed,
    Participant,
    SideChoice,
    Storage,
)


async def challenge(
    storage: Storage,
    challenged: Participant | None = BOB,
    *,
    challenger_side: SideChoice = "random",
    move_seconds: int | None = None,
    expires_in: int = 900,
) -> Challenge:
    """Alice challenges ``challenged`` (anyone with ``None``) to Brandubh in channel 50."""
    return await storage.challenges.create(
        guild_id=1,
        channel_id=50,
        challenger=ALICE,
        challenged=challenged,
        variant="brandubh",
        challenger_side=challenger_side,
        move_seconds=move_seconds,
        expires_in=expires_in,
    )


async def test_accepting_creates_the_game_with_the_chosen_sides(storage: Storage) -> None:
    offer = await challenge(storage, challenger_side="defenders", move_seconds=600)
    assert offer.status is ChallengeStatus.PENDING
    accepted, game = await storage.challenges.accept(offer.id, BOB)
    assert accepted.status is ChallengeStatus.ACCEPTED and accepted.game_id == game.id
    assert (game.attackers, game.defenders) == (BOB, ALICE)
    assert (game.variant, game.channel_id, game.move_seconds) == ("brandubh", 50, 600)
    assert game.first_turn == "attackers" and game.rated


async def test_a_random_side_can_be_settled_by_the_caller(storage: Storage) -> None:
    offer = await challenge(storage)
    _, game = await storage.challenges.accept(offer.id, BOB, challenger_side="attackers")
    assert game.attackers == ALICE


async def test_a_challenge_is_accepted_at_most_once(storage: Storage) -> None:
    offer = await challenge(storage, challenged=None)
    outcomes = await asyncio.gather(
        storage.challenges.accept(offer.id, BOB),
        storage.challenges.accept(offer.id, CAROL),
        return_exceptions=True,
    )
    assert sum(isinstance(o, ChallengeClosed) for o in outcomes) == 1
    assert len(await storage.games.active()) == 1
    accepted = await storage.challenges.get(offer.id)
    assert accepted.challenged in (BOB, CAROL)


async def test_only_the_right_people_can_answer(storage: Storage) -> None:
    offer = await challenge(storage)
    with pytest.raises(NotAllowed):
        await storage.challenges.accept(offer.id, CAROL)
    with pytest.raises(NotAllowed):
        await storage.challenges.accept(offer.id, ALICE)
    with pytest.raises(NotAllowed):
        await storage.challenges.decline(offer.id, ALICE.user_id or 0)
    with pytest.raises(NotAllowed):
        await storage.challenges.cancel(offer.id, BOB.user_id or 0)
    with pytest.raises(NotAllowed):
        await challenge(storage, challenged=ALICE)
    assert (await storage.challenges.get(offer.id)).status is ChallengeStatus.PENDING


async def test_decline_and_cancel_close_the_challenge(storage: Storage) -> None:
    declined = await storage.challenges.decline((await challenge(storage)).id, BOB.user_id or 0)
    assert declined.status is ChallengeStatus.DECLINED and declined.resolved_at is not None
    cancelled = await storage.challenges.cancel((await challenge(storage)).id, ALICE.user_id or 0)
    assert cancelled.status is ChallengeStatus.CANCELLED
    with pytest.raises(ChallengeClosed, match="declined"):
        await storage.challenges.accept(declined.id, BOB)


async def test_expired_challenges_cannot_be_accepted_and_are_swept(
    storage: Storage, clock: FakeClock
) -> None:
    short = await challenge(storage, expires_in=60)
    long = await challenge(storage, challenged=CAROL, expires_in=3600)
    clock.advance(61)
    with pytest.raises(ChallengeClosed, match="expired"):
        await storage.challenges.accept(short.id, BOB)
    expired = await storage.challenges.expire_due()
    assert [c.id for c in expired] == [short.id]
    assert expired[0].status is ChallengeStatus.EXPIRED
    assert [c.id for c in await storage.challenges.pending()] == [long.id]
    assert await storage.challenges.expire_due() == []


async def test_accepting_in_a_busy_channel_keeps_the_challenge_open(storage: Storage) -> None:
    offer = await challenge(storage)
    await new_game(storage, channel_id=50, attackers=CAROL, defenders=Participant.user(104))
    with pytest.raises(ChannelBusy):
        await storage.challenges.accept(offer.id, BOB)
    assert (await storage.challenges.get(offer.id)).status is ChallengeStatus.PENDING
    assert [c.id for c in await storage.challenges.pending(channel_id=50)] == [offer.id]


async def test_the_challenge_message_is_remembered(storage: Storage) -> None:
    offer = await challenge(storage)
    await storage.challenges.set_message(offer.id, 998877)
    assert (await storage.challenges.get(offer.id)).message_id == 998877


async def test_the_time_since_the_last_challenge_is_known_for_a_cooldown(
    storage: Storage, clock: FakeClock
) -> None:
    await challenge(storage)
    clock.advance(30)
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 30
    await challenge(storage, challenged=CAROL)
    clock.advance(5)
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 5
    assert await storage.challenges.seconds_since_last(BOB.user_id or 0) is None  # only challenged


async def test_a_challenge_cancelled_within_a_minute_does_not_count_for_the_cooldown(
    storage: Storage, clock: FakeClock
) -> None:
    first = await challenge(storage)
    clock.advance(100)
    slip = await challenge(storage, challenged=CAROL)
    clock.advance(10)
    await storage.challenges.cancel(slip.id, ALICE.user_id or 0)  # a wrong option, corrected
    clock.advance(2)
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 112  # `first`
    kept = await challenge(storage, challenged=CAROL)
    clock.advance(61)
    await storage.challenges.cancel(kept.id, ALICE.user_id or 0)  # open a minute: it counted
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 61
    assert first.id < slip.id < kept.id
    # Every quick correction is forgiven, not only the latest: fixing options twice is fine.
    clock.advance(100)
    for _ in range(2):
        fixed = await challenge(storage, challenged=BOB)
        clock.advance(5)
        await storage.challenges.cancel(fixed.id, ALICE.user_id or 0)
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 171  # `kept`


async def test_a_declined_challenge_does_not_count_for_the_cooldown(
    storage: Storage, clock: FakeClock
) -> None:
    first = await challenge(storage, challenged=CAROL)
    clock.advance(100)
    refused = await challenge(storage)
    clock.advance(3)
    await storage.challenges.decline(refused.id, BOB.user_id or 0)  # answered: ask another
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 103  # `first`
    accepted = await challenge(storage)
    clock.advance(4)
    await storage.challenges.accept(accepted.id, BOB)  # a game: it counted
    assert await storage.challenges.seconds_since_last(ALICE.user_id or 0) == 4
    assert first.id < refused.id < accepted.id


async def test_the_challenges_made_to_one_member_are_counted_unless_accepted(
    storage: Storage, clock: FakeClock
) -> None:
    alice, bob = ALICE.user_id or 0, BOB.user_id or 0
    early = await challenge(storage)
    clock.advance(700)  # outside a 600 s window
    await storage.challenges.cancel(early.id, alice)
    slip = await challenge(storage)
    clock.advance(5)
    await storage.challenges.cancel(slip.id, alice)
    refused = await challenge(storage)
    clock.advance(3)
    await storage.challenges.decline(refused.id, bob)
    await challenge(storage, challenged=CAROL)
    played = await challenge(storage)
    clock.advance(2)
    await storage.challenges.accept(played.id, BOB)  # they wanted that one
    assert await storage.challenges.made_to(alice, bob, 600) == [5, 10]
    assert await storage.challenges.made_to(alice, CAROL.user_id or 0, 600) == [2]
    assert await storage.challenges.made_to(bob, alice, 600) == []
