"""The lobby shared by every server: seeks, their pairing (atomic, even across processes), rating
reach widening as a seek waits, blocks, expiry, and the game a pair starts, with a venue in each
player's server. On both backends unless marked."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from storage_helpers import FakeClock, new_game

from bot.storage import ChannelBusy, NotFound, Participant, Place, Storage, TableEnding
from bot.storage.lobby import (
    SEEK_LIFETIME,
    UNSTARTED_GRACE,
    Blocked,
    InAGame,
    OutOfReach,
    OwnSeek,
    Pairing,
    SeekClosed,
    SeekRequest,
    Waiting,
)

ROOT = Path(__file__).resolve().parent.parent
ANN = Participant.user(201, "ann")
BEN = Participant.user(202, "ben")
CAT = Participant.user(203, "cat")
DAN = Participant.user(204, "dan")


def ask(
    player: Participant,
    guild: int = 1,
    *,
    variant: str = "brandubh",
    seconds: int | None = 86400,
    rated: bool = True,
    reach: int | None = None,
) -> SeekRequest:
    return SeekRequest(player, guild, guild * 100, variant, seconds, rated, reach)


def across(pairing: Pairing, places: dict[str, Place]) -> dict[str, object]:
    """What :meth:`GameStore.create_across` takes for a pair's game."""
    first = pairing.attackers
    return {
        "attackers": first.player,
        "defenders": pairing.defenders.player,
        "variant": first.variant,
        "move_seconds": first.move_seconds,
        "rated": first.rated,
        "places": places,
        "pairing": pairing,
    }


async def set_rating(storage: Storage, player: Participant, rating: float) -> None:
    """Give a player a rating in brandubh as if earned."""
    async with storage.db.transaction() as connection:
        await connection.execute(
            "INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, 0)"
            " ON CONFLICT (discord_user_id) DO NOTHING",
            (player.user_id, player.display_name),
        )
        await connection.execute(
            "INSERT INTO ratings (player_id, variant, rating, rd, volatility, updated_at)"
            " SELECT id, 'brandubh', ?, 60, 0.06, 0 FROM players WHERE discord_user_id = ?",
            (rating, player.user_id),
        )


async def test_two_compatible_seeks_pair_and_a_third_waits(storage: Storage) -> None:
    waiting = await storage.lobby.seek(ask(ANN, 1))
    assert isinstance(waiting, Waiting) and waiting.others == 0
    assert await storage.lobby.counts() == {"brandubh": 1}
    paired = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(paired, Pairing)
    assert {paired.attackers.player, paired.defenders.player} == {ANN, BEN}
    assert {seek.guild_id for seek in paired.seeks} == {1, 2}
    assert all(seek.status == "matched" for seek in paired.seeks)
    assert paired.attackers.opponent_id == paired.defenders.id
    # Another variant, another time, another "rated": none of them pairs with cat.
    assert isinstance(await storage.lobby.seek(ask(CAT, 3, variant="tablut")), Waiting)
    assert isinstance(await storage.lobby.seek(ask(DAN, 4, seconds=600)), Waiting)
    assert await storage.lobby.counts() == {"tablut": 1, "brandubh": 1}


async def test_a_player_far_from_everyone_is_paired_once_the_reach_has_widened(
    storage: Storage, clock: FakeClock
) -> None:
    await set_rating(storage, ANN, 1500)
    await set_rating(storage, BEN, 2000)
    assert isinstance(await storage.lobby.seek(ask(ANN, 1)), Waiting)
    assert isinstance(await storage.lobby.seek(ask(BEN, 2)), Waiting)  # 500 apart: ±300 each
    assert await storage.lobby.sweep() == ([], [])
    clock.advance(3 * 60)  # ±450: not yet
    assert (await storage.lobby.sweep())[0] == []
    clock.advance(60)  # ±500 each: they meet
    [pairing], expired = await storage.lobby.sweep()
    assert expired == [] and {seek.player for seek in pairing.seeks} == {ANN, BEN}


async def test_a_reach_set_by_the_player_does_not_widen(storage: Storage, clock: FakeClock) -> None:
    await set_rating(storage, ANN, 1500)
    await set_rating(storage, BEN, 1700)
    assert isinstance(await storage.lobby.seek(ask(ANN, 1, reach=100)), Waiting)
    assert isinstance(await storage.lobby.seek(ask(BEN, 2)), Waiting)  # ben's 300 is not enough
    clock.advance(SEEK_LIFETIME - 60)
    assert (await storage.lobby.sweep())[0] == []


async def test_blocked_players_are_never_paired_either_way_round(storage: Storage) -> None:
    assert await storage.lobby.block(202, ANN)  # ben blocks ann
    assert not await storage.lobby.block(202, ANN)
    assert await storage.lobby.either_blocked(201, 202)
    assert isinstance(await storage.lobby.seek(ask(ANN, 1)), Waiting)
    assert isinstance(await storage.lobby.seek(ask(BEN, 2)), Waiting)
    assert (await storage.lobby.sweep())[0] == []
    seek = await storage.lobby.open_seek_of(201)
    assert seek is not None
    # The lobby's list shows neither of them the other's seek, whoever blocked whom.
    assert [s.player for s in await storage.lobby.playable(202)] == []
    assert [s.player for s in await storage.lobby.playable(201)] == []
    assert {s.player for s in await storage.lobby.playable(203)} == {ANN, BEN}
    with pytest.raises(Blocked):
        await storage.lobby.seek(ask(BEN, 2), answering=seek.id)
    # Cat is paired with the oldest seek she may play: ann's.
    paired = await storage.lobby.seek(ask(CAT, 3))
    assert isinstance(paired, Pairing) and ANN in {s.player for s in paired.seeks}
    assert [p.user_id for p in await storage.lobby.blocked(202)] == [201]
    assert await storage.lobby.unblock(202, 201) and not await storage.lobby.unblock(202, 201)


async def test_one_rule_says_who_may_play_whom_in_the_list_the_count_and_the_play_button(
    storage: Storage, clock: FakeClock
) -> None:
    """A seek out of a player's reach, or of someone blocked either way, is neither listed for
    them, nor counted in their waiting seek's answer, nor playable (each refusal says why); the
    same seeks are listed, counted and playable for a player the rule lets through."""
    await set_rating(storage, ANN, 1500)
    await set_rating(storage, BEN, 1900)  # 400 above ann: outside her ±300
    await set_rating(storage, CAT, 1700)
    await set_rating(storage, DAN, 1700)
    first = await storage.lobby.seek(ask(ANN, 1, seconds=600))
    assert isinstance(first, Waiting)
    assert await storage.lobby.playable(202) == []
    assert [s.player for s in await storage.lobby.playable(204)] == [ANN]
    waiting = await storage.lobby.seek(ask(BEN, 2))  # another time: not paired
    assert isinstance(waiting, Waiting) and waiting.others == 0
    with pytest.raises(OutOfReach) as refused:
        await storage.lobby.seek(ask(BEN, 2, seconds=600), answering=first.seek.id)
    assert refused.value.reach == 300 and refused.value.rating == 1900
    assert await storage.lobby.open_seek_of(202) is not None  # the refusal lost ben nothing
    # Dan (1700) blocks ann: he neither sees nor counts her seek, and cannot play it.
    assert await storage.lobby.block(204, ANN)
    assert [s.player for s in await storage.lobby.playable(204)] == [BEN]
    dan = await storage.lobby.seek(ask(DAN, 4, seconds=60))
    assert isinstance(dan, Waiting) and dan.others == 1  # ben's, not ann's
    with pytest.raises(Blocked):
        await storage.lobby.seek(ask(DAN, 4, seconds=600), answering=first.seek.id)
    # Cat is within everyone's reach: she sees, counts and may play all three.
    assert [s.player for s in await storage.lobby.playable(203)] == [ANN, BEN, DAN]
    cat = await storage.lobby.seek(ask(CAT, 3, seconds=3600))
    assert isinstance(cat, Waiting) and cat.others == 3
    # Ann's reach widens as she waits: ben may play her seek once it reaches him.
    clock.advance(2 * 60)  # ±400
    assert ANN in [s.player for s in await storage.lobby.playable(202)]


async def test_one_open_seek_per_player_and_no_pairing_with_oneself(storage: Storage) -> None:
    first = await storage.lobby.seek(ask(ANN, 1))
    assert isinstance(first, Waiting) and first.replaced is None
    again = await storage.lobby.seek(ask(ANN, 2, variant="tablut"))  # from another server
    assert isinstance(again, Waiting)
    assert again.replaced is not None and again.replaced.id == first.seek.id
    assert await storage.lobby.counts() == {"tablut": 1}  # the first was replaced
    with pytest.raises(OwnSeek):
        await storage.lobby.seek(ask(ANN, 3, variant="tablut"), answering=again.seek.id)
    # The first seek's Cancel button, clicked late, leaves the newer seek waiting.
    assert await storage.lobby.cancel(ANN.user_id, first.seek.id) is None
    assert await storage.lobby.counts() == {"tablut": 1}
    cancelled = await storage.lobby.cancel(ANN.user_id, again.seek.id)
    assert cancelled is not None and cancelled.id == again.seek.id
    assert await storage.lobby.counts() == {}


async def test_a_seek_can_be_answered_from_the_list_and_only_while_it_is_open(
    storage: Storage,
) -> None:
    open_seek = await storage.lobby.seek(ask(ANN, 1, seconds=600))
    assert isinstance(open_seek, Waiting)
    with pytest.raises(SeekClosed):  # another time per move
        await storage.lobby.seek(ask(BEN, 2), answering=open_seek.seek.id)
    paired = await storage.lobby.seek(ask(BEN, 2, seconds=600), answering=open_seek.seek.id)
    assert isinstance(paired, Pairing)
    with pytest.raises(SeekClosed):
        await storage.lobby.seek(ask(CAT, 3, seconds=600), answering=open_seek.seek.id)
    assert await storage.lobby.cancel(201) is None  # paired: nothing to cancel


async def test_seeks_expire_and_a_pair_without_a_game_waits_again(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.lobby.seek(ask(ANN, 1, variant="tablut"))
    clock.advance(SEEK_LIFETIME)
    pairs, expired = await storage.lobby.sweep()
    assert pairs == [] and [seek.player for seek in expired] == [ANN]
    assert await storage.lobby.counts() == {}
    # A pair whose game never came (its process stopped before making it).
    await storage.lobby.seek(ask(ANN, 1))
    paired = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(paired, Pairing)
    clock.advance(UNSTARTED_GRACE - 1)
    await storage.lobby.sweep()
    assert await storage.lobby.counts() == {}
    clock.advance(2)
    pairs, _ = await storage.lobby.sweep()  # open again, and paired again at once
    assert len(pairs) == 1 and {s.player for s in pairs[0].seeks} == {ANN, BEN}


async def test_a_player_at_the_board_cannot_seek_and_starting_a_game_withdraws_a_seek(
    storage: Storage,
) -> None:
    await storage.lobby.seek(ask(ANN, 1))
    await new_game(storage, 555, attackers=ANN, defenders=CAT, move_seconds=300)
    assert await storage.lobby.open_seek_of(201) is None  # withdrawn
    with pytest.raises(InAGame) as playing:
        await storage.lobby.seek(ask(ANN, 1))
    assert playing.value.channel_id == 555
    # A correspondence game (a day per move) leaves its players free to seek.
    await new_game(storage, 556, attackers=BEN, defenders=DAN, move_seconds=86400)
    assert isinstance(await storage.lobby.seek(ask(BEN, 2)), Waiting)


async def test_a_player_seeking_during_a_game_across_servers_is_pointed_to_their_own_thread(
    storage: Storage,
) -> None:
    await storage.lobby.seek(ask(ANN, 1, seconds=600))
    pairing = await storage.lobby.seek(ask(BEN, 2, seconds=600))
    assert isinstance(pairing, Pairing)
    places = {"attackers": Place(1, "North", 9001), "defenders": Place(2, "South", 9002)}
    await storage.games.create_across(**across(pairing, places))
    for seek, channel in ((pairing.attackers, 9001), (pairing.defenders, 9002)):
        with pytest.raises(InAGame) as playing:
            await storage.lobby.seek(ask(seek.player, seek.guild_id))
        assert playing.value.channel_id == channel


async def test_a_pair_starts_one_game_with_a_venue_in_each_server(storage: Storage) -> None:
    await storage.lobby.seek(ask(ANN, 1))
    pairing = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(pairing, Pairing)
    places = {
        "attackers": Place(pairing.attackers.guild_id, "North", 9001),
        "defenders": Place(pairing.defenders.guild_id, "South", 9002, "no thread allowed"),
    }
    record, venues = await storage.games.create_across(**across(pairing, places))
    assert (record.channel_id, record.guild_id) == (9001, pairing.attackers.guild_id)
    assert [(v.side, v.channel_id, v.note) for v in venues] == [
        ("attackers", 9001, None),
        ("defenders", 9002, "no thread allowed"),
    ]
    assert record.rated and record.move_seconds == 86400
    for channel in (9001, 9002):
        found = await storage.games.active_in_channel(channel)
        assert found is not None and found.id == record.id
        with pytest.raises(ChannelBusy):  # a venue takes no other game
            await new_game(storage, channel)
    assert {s.game_id for s in (await storage.lobby.get(pairing.attackers.id),) if s} == {record.id}
    await storage.games.set_venue_board(record.id, "defenders", 77, 0)
    assert (await storage.games.venues(record.id))[1].board_message_id == 77
    assert await storage.games.claim_notice(record.id, 0)
    assert not await storage.games.claim_notice(record.id, 0)  # once per move
    finished = await storage.games.finish(record.id, "attackers", TableEnding.RESIGNATION)
    assert finished.record.status.value == "finished"
    assert not any(v.active for v in await storage.games.venues(record.id))
    assert (await storage.games.last_finished_in_channel(9002)) == record.id
    await new_game(storage, 9002)  # free again


async def test_a_deleted_venue_adjourns_the_game_until_its_player_continues_elsewhere(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.lobby.seek(ask(ANN, 1))
    pairing = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(pairing, Pairing)
    places = {"attackers": Place(1, "North", 9001), "defenders": Place(2, "South", 9002)}
    record, _ = await storage.games.create_across(**across(pairing, places))
    assert [v.game_id for v in await storage.games.venues_in_guild(2)] == [record.id]
    await storage.games.set_venue_board(record.id, "attackers", 71, 0)
    until = int(clock.now) + 7200
    assert await storage.games.adjourn(record.id, "defenders", until)
    assert not await storage.games.adjourn(record.id, "defenders", until)  # once
    assert await storage.games.venues_in_guild(2) == []
    adjourned = await storage.games.get(record.id)
    assert adjourned.move_deadline is not None and adjourned.move_deadline.timestamp() == until
    assert await storage.games.due_for_reminder(10**6) == []  # no reminder while adjourned
    assert await storage.games.lagging_venues(grace=0) == []  # none to redraw in the gone one
    found = await storage.games.adjourned_for(pairing.defenders.player.user_id)
    assert found is not None and found[0].id == record.id and found[1].side == "defenders"
    assert await storage.games.adjourned_for(pairing.attackers.player.user_id) is None
    # Continued in a channel with a game of its own: refused, nothing changed.
    await new_game(storage, 9003, attackers=CAT, defenders=DAN)
    with pytest.raises(ChannelBusy):
        await storage.games.resume_at(record.id, "defenders", Place(2, "South", 9003))
    assert (await storage.games.adjourned_for(pairing.defenders.player.user_id)) is not None
    clock.advance(60)
    venues = await storage.games.resume_at(record.id, "defenders", Place(3, "West", 9004))
    assert [(v.side, v.guild_name, v.channel_id, v.gone_at) for v in venues] == [
        ("attackers", "North", 9001, None),
        ("defenders", "West", 9004, None),
    ]
    resumed = await storage.games.get(record.id)
    assert resumed.move_deadline is not None
    assert resumed.move_deadline.timestamp() == int(clock.now) + 86400  # a whole move's time
    with pytest.raises(NotFound):  # not gone any more
        await storage.games.resume_at(record.id, "defenders", Place(3, "West", 9005))
    found_here = await storage.games.active_in_channel(9004)
    assert found_here is not None and found_here.id == record.id
    assert await storage.games.active_in_channel(9002) is None
    # The attackers' venue is the game's own place: it moves with it.
    assert await storage.games.adjourn(record.id, "attackers", until)
    await storage.games.resume_at(record.id, "attackers", Place(4, "East", 9006))
    moved = await storage.games.get(record.id)
    assert (moved.guild_id, moved.channel_id) == (4, 9006)
    assert await storage.games.active_in_channel(9001) is None


async def test_a_venue_is_refused_where_a_game_is_played(storage: Storage) -> None:
    await new_game(storage, 9002, attackers=CAT, defenders=DAN)
    await storage.lobby.seek(ask(ANN, 1))
    pairing = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(pairing, Pairing)
    places = {"attackers": Place(1, "North", 9001), "defenders": Place(2, "South", 9002)}
    with pytest.raises(ChannelBusy):
        await storage.games.create_across(**across(pairing, places))
    assert await storage.games.active_in_channel(9001) is None  # nothing written


RACER = """
import asyncio, json, sys
from bot.storage import Participant, Storage
from bot.storage.lobby import Pairing, SeekRequest

async def main(url, first):
    storage = await Storage.open(url)
    try:
        async def one(user):
            request = SeekRequest(Participant.user(user), user % 7, user, "brandubh", 86400, True)
            result = await storage.lobby.seek(request)
            return isinstance(result, Pairing)
        await asyncio.gather(*(one(user) for user in range(first, first + 25)))
    finally:
        await storage.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


@pytest.mark.parametrize("database_target", ["postgresql"], indirect=True)
async def test_fifty_racing_seeks_from_two_processes_pair_each_at_most_once(
    database_target: str,
) -> None:
    """Two bot processes on one PostgreSQL, 25 seeks each at the same moment, all compatible:
    every seek is paired exactly once (an even number of them), with a partner that names it
    back, and none is lost."""
    await (await Storage.open(database_target)).close()  # migrated before the race
    racers = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", RACER, database_target, str(first), cwd=ROOT
        )
        for first in (1000, 2000)
    ]
    for racer in racers:
        assert await asyncio.wait_for(racer.wait(), 120) == 0
    storage = await Storage.open(database_target)
    try:
        async with storage.db.read() as connection:
            rows = await connection.fetch(
                "SELECT id, status, opponent_id, side FROM seeks ORDER BY id"
            )
    finally:
        await storage.close()
    assert len(rows) == 50
    by_id = {row[0]: row for row in rows}
    assert {row[1] for row in rows} == {"matched"}
    for row in rows:
        partner = by_id[row[2]]
        assert partner[2] == row[0] and {row[3], partner[3]} == {"attackers", "defenders"}


async def test_a_game_across_servers_counts_in_each_players_server(storage: Storage) -> None:
    await storage.lobby.seek(ask(ANN, 1))
    pairing = await storage.lobby.seek(ask(BEN, 2))
    assert isinstance(pairing, Pairing)
    guilds = {side: pairing.seek_of(side).guild_id for side in ("attackers", "defenders")}
    places = {
        "attackers": Place(guilds["attackers"], "A", 9000 + guilds["attackers"]),
        "defenders": Place(guilds["defenders"], "D", 9000 + guilds["defenders"]),
    }
    record, _ = await storage.games.create_across(**across(pairing, places))
    for ply, move in enumerate(["a4-a2", "d5-f5"]):
        await storage.games.append_move(record.id, ply, move)
    winner = "attackers"
    await storage.games.finish(record.id, winner, TableEnding.RESIGNATION)
    for guild, player in ((1, ANN), (2, BEN)):
        board = await storage.leaderboards.leaderboard("brandubh", guild_id=guild, min_games=1)
        assert [entry.user_id for entry in board] == [player.user_id]
        stats = await storage.leaderboards.player_stats(player.user_id or 0, guild_id=guild)
        other = await storage.leaderboards.player_stats(player.user_id or 0, guild_id=3 - guild)
        assert stats != other
