"""The lobby's service without Discord, on a real database (both backends unless marked): who
may seek and play whom, where a pair's game is played when threads cannot be opened, blocks,
rematches, adjournment when a venue is deleted and resumption elsewhere, venues left behind.

The Discord layer's side (opening threads, reading a server's name) is played by
:class:`Opener`, which answers as Discord would and records what it was asked."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from storage_helpers import START, FakeClock
from without_discord import inner_run, rerun_without_discord

from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.games import GameHub
from bot.discord_bot.app.lobby import (
    ADJOURNMENT,
    NO_THREAD,
    AcrossStarted,
    LobbyService,
    Opened,
    Opening,
    Pairing,
    Redraw,
    ShowEnd,
    VenueRequest,
    Waiting,
)
from bot.discord_bot.compose import lobby as _words  # noqa: F401  (registers the words)
from bot.discord_bot.compose.errors import refusal_words
from bot.engine import Side
from bot.storage import GameStatus, Participant, Storage, Venue

ROOT = Path(__file__).resolve().parent.parent
ANN = Participant.user(201, "ann")
BEN = Participant.user(202, "ben")
CAT = Participant.user(203, "cat")
DAY = 86400


@contextlib.contextmanager
def refused(match: str = "") -> Iterator[pytest.ExceptionInfo[Refused]]:
    """The block is refused (:class:`Refused`), in words matching ``match``."""
    with pytest.raises(Refused) as caught:
        yield caught
    assert re.search(match, refusal_words(caught.value.refusal)), refusal_words(
        caught.value.refusal
    )


class Opener:
    """Discord's answers to the lobby: a thread per request (or ``refuse`` says what instead),
    and each server's name (``None`` for a server the bot has left)."""

    def __init__(self) -> None:
        self.asked: list[VenueRequest] = []
        self.refuse: dict[int, Opening] = {}
        """By channel: what Discord says instead of opening a thread there."""
        self.left: set[int] = set()
        self.deleted: set[int] = set()
        """Channels deleted since."""
        self.next_thread = 9001

    async def guild_name(self, guild_id: int) -> str | None:
        return None if guild_id in self.left else f"server {guild_id}"

    async def open_thread(self, request: VenueRequest) -> Opened:
        self.asked.append(request)
        if request.channel_id in self.refuse:
            return Opened(self.refuse[request.channel_id])
        self.next_thread += 1
        return Opened(Opening.OPENED, self.next_thread - 1)

    async def reachable(self, venue: Venue) -> bool:
        return venue.channel_id not in self.deleted


@pytest.fixture
def opener() -> Opener:
    return Opener()


@pytest.fixture
async def lobby(storage: Storage, opener: Opener) -> LobbyService:
    hub = GameHub(storage)
    await hub.load()
    return LobbyService(storage, hub, opener)


async def configure(storage: Storage, guild: int, **changes: object) -> None:
    """Change a server's settings as its moderators would."""
    await storage.settings.save(replace(await storage.settings.get(guild), **changes))


async def seek(
    lobby: LobbyService,
    player: Participant,
    guild: int,
    *,
    channel: int | None = None,
    parent: int | None = None,
    variant: str = "brandubh",
    seconds: int = DAY,
    answering: int | None = None,
) -> Waiting | Pairing:
    return await lobby.seek(
        player,
        guild,
        channel or guild * 100,
        parent,
        variant,
        seconds,
        True,
        None,
        answering=answering,
    )


async def paired(
    lobby: LobbyService, first: Participant = ANN, second: Participant = BEN
) -> Pairing:
    assert isinstance(await seek(lobby, first, 1), Waiting)
    pairing = await seek(lobby, second, 2)
    assert isinstance(pairing, Pairing)
    return pairing


async def started(lobby: LobbyService) -> AcrossStarted:
    begun = await lobby.start(await paired(lobby))
    assert begun is not None
    return begun


# ---------------------------------------------------------------------- seeking


async def test_a_seek_is_refused_where_the_server_does_not_take_it(
    lobby: LobbyService, storage: Storage
) -> None:
    with refused("lobby's times per move"):
        await seek(lobby, ANN, 1, seconds=1234)
    await configure(storage, 1, lobby=False)
    with refused("turned the lobby off"):
        await seek(lobby, ANN, 1)
    await configure(
        storage,
        1,
        lobby=True,
        lobby_channels=frozenset({100}),
        lobby_variants=frozenset({"tablut", "copenhagen"}),
        lobby_times=frozenset({3600}),
    )
    with refused(r"the lobby is in <#100>: seek from there"):
        await seek(lobby, ANN, 1, channel=555)
    with refused("offers only Copenhagen Hnefatafl and Tablut"):
        await seek(lobby, ANN, 1, channel=555, parent=100)  # a thread of the lobby's channel
    with refused("offers only 1 hour per move in the lobby"):
        await seek(lobby, ANN, 1, variant="tablut")
    assert isinstance(await seek(lobby, ANN, 1, variant="tablut", seconds=3600), Waiting)


async def test_who_may_play_a_listed_seek(lobby: LobbyService, storage: Storage) -> None:
    waiting = await seek(lobby, ANN, 1)
    assert isinstance(waiting, Waiting)
    mine = waiting.seek.id
    with refused("your own seek"):
        await lobby.answer(ANN, 1, 100, None, mine)
    with refused("from a server channel"):
        await lobby.answer(BEN, None, 100, None, mine)
    await lobby.block(ANN.user_id or 0, BEN)
    with refused("one of you has blocked the other"):
        await lobby.answer(BEN, 2, 200, None, mine)
    assert isinstance(await lobby.answer(CAT, 3, 300, None, mine), Pairing)
    with refused("no longer open"):
        await lobby.answer(BEN, 2, 200, None, mine)


async def test_a_player_outside_a_seeks_reach_is_told_the_range(
    lobby: LobbyService, storage: Storage
) -> None:
    async with storage.db.transaction() as connection:  # BEN has earned a brandubh rating
        await connection.execute(
            "INSERT INTO players (discord_user_id, display_name, created_at) VALUES (?, ?, 0)",
            (BEN.user_id, BEN.display_name),
        )
        await connection.execute(
            "INSERT INTO ratings (player_id, variant, rating, rd, volatility, updated_at)"
            " SELECT id, 'brandubh', 1800, 60, 0.06, 0 FROM players WHERE discord_user_id = ?",
            (BEN.user_id,),
        )
    narrow = await lobby.seek(ANN, 1, 100, None, "brandubh", DAY, True, 100)
    assert isinstance(narrow, Waiting)
    with refused() as caught:
        await lobby.answer(BEN, 2, 200, None, narrow.seek.id)
    assert refusal_words(caught.value.refusal) == (
        "That seek is for players rated 1400 to 1600, and your Brandubh rating is 1800, so you "
        "cannot play it. Seek a game yourself with `/tafl seek`."
    )


async def test_cancelling_says_what_became_of_a_seek(lobby: LobbyService) -> None:
    first = await seek(lobby, ANN, 1)
    assert isinstance(first, Waiting)
    assert await lobby.cancel(ANN.user_id or 0, first.seek.id) == "cancelled"
    assert await lobby.cancel(ANN.user_id or 0, first.seek.id) == "already cancelled"
    second = await seek(lobby, ANN, 1, variant="tablut")
    third = await seek(lobby, ANN, 1, variant="copenhagen")  # replaces the second
    assert isinstance(second, Waiting) and isinstance(third, Waiting)
    assert await lobby.cancel(ANN.user_id or 0, second.seek.id) == "replaced"
    await seek(lobby, BEN, 2, variant="copenhagen")  # paired with the third
    assert await lobby.cancel(ANN.user_id or 0, third.seek.id) == "matched"
    assert await lobby.cancel(ANN.user_id or 0, 999) == "closed"


async def test_the_list_shows_only_seeks_playable_from_here(
    lobby: LobbyService, storage: Storage
) -> None:
    await seek(lobby, ANN, 1)
    await seek(lobby, CAT, 3, variant="tablut")
    listed = await lobby.listing(BEN.user_id or 0, 2, 200, None, None)
    assert listed.counts == (("brandubh", 1), ("tablut", 1)) and len(listed.seeks) == 2
    assert listed.own is None and listed.refusal is None
    await configure(storage, 2, lobby_variants=frozenset({"tablut"}))
    listed = await lobby.listing(BEN.user_id or 0, 2, 200, None, None)
    assert [s.variant for s in listed.seeks] == ["tablut"]
    # A server with the lobby off still counts the seeks, but lists none to play from there.
    await configure(storage, 2, lobby=False)
    listed = await lobby.listing(BEN.user_id or 0, 2, 200, None, None)
    assert listed.seeks == () and listed.counts == (("tablut", 1),)
    assert listed.refusal is not None and "turned the lobby off" in refusal_words(listed.refusal)
    own = await lobby.listing(ANN.user_id or 0, None, 0, None, None)
    assert own.own is not None and own.own.variant == "brandubh"
    assert [s.variant for s in own.seeks] == ["tablut"]


# ---------------------------------------------------------------------- blocks


async def test_who_can_be_blocked_and_unblocked(lobby: LobbyService, storage: Storage) -> None:
    with refused("Name the player to block, or the number of a game"):
        await lobby.block_target(ANN.user_id or 0, None)
    with refused("Name the player"):
        await lobby.block_target(ANN.user_id or 0, BEN, game_id=1)
    with refused("cannot block yourself"):
        await lobby.block_target(ANN.user_id or 0, ANN)
    with refused("Bots never play"):
        await lobby.block_target(ANN.user_id or 0, CAT, player_is_bot=True)
    with refused("no game #77"):
        await lobby.block_target(ANN.user_id or 0, None, game_id=77)
    live = (await started(lobby)).live
    with refused(f"did not play game #{live.id}"):
        await lobby.opponent(CAT.user_id or 0, live.id)
    assert await lobby.block_target(ANN.user_id or 0, None, game_id=live.id) == BEN
    ai = await storage.games.create(
        guild_id=1, channel_id=5, variant="brandubh", attackers=ANN,
        defenders=Participant.ai(1),
    )  # fmt: skip
    with refused("AI never plays in the lobby"):
        await lobby.opponent(ANN.user_id or 0, ai.id)

    assert await lobby.block(ANN.user_id or 0, BEN)
    assert not await lobby.block(ANN.user_id or 0, BEN)
    with refused(r"not blocked 'bob': .*blocked 1 player\)"):
        await lobby.unblock(ANN.user_id or 0, "bob")
    assert await lobby.unblock(ANN.user_id or 0, f"<@!{BEN.user_id}>") == BEN
    with refused("not blocked anyone"):
        await lobby.unblock(ANN.user_id or 0, "ben")
    await lobby.block(ANN.user_id or 0, BEN)
    assert await lobby.unblock(ANN.user_id or 0, "BEN") == BEN


# ---------------------------------------------------------------------- starting


async def test_a_pair_plays_in_a_thread_of_each_seekers_channel(
    lobby: LobbyService, opener: Opener
) -> None:
    begun = await started(lobby)
    live = begun.live
    assert lobby.hub.by_id(live.id) is live and live.across
    assert [(r.channel_id, r.player, r.opponent) for r in opener.asked] == [
        (100, ANN, BEN) if live.record.attackers == ANN else (200, BEN, ANN),
        (200, BEN, ANN) if live.record.attackers == ANN else (100, ANN, BEN),
    ]
    assert sorted(v.channel_id for v in live.venues) == [9001, 9002]
    assert begun.noted == () and begun.rematch_of is None
    # The board pings the attackers, who move first; the defenders are called in their venue.
    assert begun.call is not None
    assert begun.call.side is Side.DEFENDERS and begun.call.mover is Side.ATTACKERS
    assert begun.call.player == live.record.defenders
    assert begun.call.venue == live.venue(Side.DEFENDERS)


async def test_where_threads_may_not_be_opened_the_game_is_played_in_the_channel(
    lobby: LobbyService, opener: Opener
) -> None:
    opener.refuse = {100: Opening.NO_PERMISSION, 200: Opening.IN_THREAD}
    begun = await started(lobby)
    by_channel = {v.channel_id: v for v in begun.live.venues}
    assert by_channel[100].note == NO_THREAD and by_channel[200].note is None
    assert begun.noted == (by_channel[100],)


@pytest.mark.parametrize("why", ["channel gone", "server left"])
async def test_a_pair_whose_channel_is_gone_is_not_started(
    lobby: LobbyService, storage: Storage, why: str, opener: Opener
) -> None:
    if why == "channel gone":
        opener.refuse = {100: Opening.GONE}
    else:
        opener.left = {1}
    pairing = await paired(lobby)
    assert await lobby.start(pairing) is None
    assert lobby.hub.active() == []
    # ANN's seek (whose channel failed) is withdrawn; BEN's waits in the lobby again.
    seeks = {s.player: s for s in pairing.seeks}
    assert (await storage.lobby.get(seeks[ANN].id)).status == "withdrawn"  # type: ignore[union-attr]
    assert (await storage.lobby.get(seeks[BEN].id)).status == "open"  # type: ignore[union-attr]


# ---------------------------------------------------------------------- rematches


async def test_a_rematch_across_servers_swaps_sides_in_the_same_venues(
    lobby: LobbyService, storage: Storage
) -> None:
    live = (await started(lobby)).live
    first = live.record.attackers
    ended = await lobby.hub.resign(live.record.channel_id, first.user_id or 0)
    old, venues = ended.finished.record, live.venues
    with refused("Only the players"):
        await lobby.ask_rematch(old, venues, CAT.user_id or 0)
    asked = await lobby.ask_rematch(old, venues, first.user_id or 0)
    assert asked.asker == first and asked.opponent_venue.side != asked.asker_venue.side
    with refused("Only the players of that game can answer"):
        await lobby.answer_rematch(old.id, CAT.user_id or 0, True)
    declined = await lobby.answer_rematch(old.id, asked.opponent.user_id or 0, False)
    assert not declined.accept
    assert declined.asker_venue.channel_id == asked.asker_venue.channel_id
    await configure(storage, asked.opponent_venue.guild_id, lobby=False)
    with refused("has turned games with other servers off"):
        await lobby.answer_rematch(old.id, asked.opponent.user_id or 0, True)
    await configure(storage, asked.opponent_venue.guild_id, lobby=True)
    answer = await lobby.answer_rematch(old.id, asked.opponent.user_id or 0, True)
    again = await lobby.rematch(answer.old, answer.venues)
    record = again.live.record
    assert again.rematch_of == old.id
    assert (record.attackers, record.defenders) == (old.defenders, old.attackers)
    # Each player stays in their own venue.
    for venue in again.live.venues:
        player = record.player(venue.side)
        assert venue.channel_id == next(
            v.channel_id for v in venues if old.player(v.side) == player
        )


# ---------------------------------------------------------------------- adjournment


async def test_a_deleted_venue_adjourns_the_game_once_until_its_player_resumes_it(
    lobby: LobbyService, storage: Storage, clock: FakeClock, opener: Opener
) -> None:
    live = (await started(lobby)).live
    gone = live.venue(Side.DEFENDERS)
    assert gone is not None
    assert await lobby.check_guild(gone.guild_id) == []  # still there
    assert await lobby.check_venue(live, gone) is None
    opener.deleted = {gone.channel_id}
    [adjourned] = await lobby.check_guild(gone.guild_id)
    assert adjourned.until == START + ADJOURNMENT
    assert adjourned.absent == live.record.defenders
    assert adjourned.present == live.record.attackers
    assert adjourned.other == live.venue(Side.ATTACKERS)
    assert adjourned.live.adjourned is not None
    assert await lobby.venue_gone(live, gone) is None  # told once, whoever saw it first
    assert await lobby.check_venue(live, gone) is None

    record = await storage.games.get(live.id)
    with refused("not a direct message"):
        await lobby.may_resume(record, None)
    await configure(storage, 5, lobby=False)
    with refused("turned games with other servers off"):
        await lobby.may_resume(record, 5)
    await lobby.may_resume(record, 6)
    # A channel with a game of its own takes no other.
    await storage.games.create(
        guild_id=6, channel_id=600, variant="brandubh", attackers=CAT, defenders=ANN
    )
    with refused("has a game of its own"):
        await lobby.resume(record, gone, 6, "six", 600, in_thread=True)
    opener.refuse = {700: Opening.GONE}
    with refused("cannot open the game here"):
        await lobby.resume(record, gone, 6, "six", 700, in_thread=False)
    resumed = await lobby.resume(record, gone, 6, "six", 800, in_thread=False)
    assert resumed.player == live.record.defenders
    assert resumed.place.channel_id == 9003 and resumed.place.guild_name == "six"
    assert resumed.live.adjourned is None
    assert resumed.live.venue(Side.DEFENDERS).channel_id == 9003  # type: ignore[union-attr]


async def test_an_adjourned_player_who_never_returns_forfeits(
    lobby: LobbyService, clock: FakeClock, opener: Opener
) -> None:
    live = (await started(lobby)).live
    gone = live.venue(Side.ATTACKERS)
    assert gone is not None
    opener.deleted = {gone.channel_id}
    assert await lobby.check_venue(live, gone) is not None
    clock.advance(ADJOURNMENT + 1)
    ended = await lobby.hub.forfeit_on_time(live, live.game.ply)
    assert ended is not None
    record = ended.finished.record
    assert record.result is not None and record.result.value == "defenders"


# ---------------------------------------------------------------------- keeping in step


async def test_venues_left_behind_are_shown_the_board_or_the_ending(
    lobby: LobbyService, storage: Storage, clock: FakeClock
) -> None:
    live = (await started(lobby)).live
    for venue in live.venues:
        await storage.games.set_venue_board(live.id, venue.side, 1, 0)
    await lobby.hub.play(live.channels[0], live.record.attackers, "d1-c1")
    clock.advance(60)
    lagging = await lobby.lagging()
    assert {type(found) for found in lagging} == {Redraw}
    assert sorted(found.venue.side for found in lagging) == ["attackers", "defenders"]
    for venue in live.venues:
        await storage.games.set_venue_board(live.id, venue.side, 2, 1)
    ended = await lobby.hub.resign(live.record.channel_id, live.record.attackers.user_id or 0)
    assert ended.finished.record.status is GameStatus.FINISHED
    clock.advance(60)
    lagging = await lobby.lagging()
    assert {type(found) for found in lagging} == {ShowEnd}
    for found in lagging:
        assert isinstance(found, ShowEnd)
        await lobby.end_shown(found.record, found.venue)
    assert await lobby.lagging() == []


async def test_signals_name_the_games_to_catch_up_with(lobby: LobbyService) -> None:
    live = (await started(lobby)).live
    assert lobby.to_catch_up(str(live.id)) == [live.id]
    assert lobby.to_catch_up(None) == [live.id]
    assert lobby.to_catch_up("nonsense") == []
    await lobby.changed(live.id)  # SQLite has no signals: a courtesy, never an error


# ---------------------------------------------------------------------- without Discord


@pytest.mark.skipif(inner_run(), reason="the inner run")
def test_the_lobby_service_runs_without_discord() -> None:
    """These tests again (on SQLite) in a fresh interpreter, which must never import
    discord.py."""
    rerun_without_discord(__file__)
