"""The bot object and the composition root: the services built on storage and the AI, the
table (the Discord edge), one cog per feature given what it uses, persistent buttons, command
sync."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import AIService
from bot.engine import VARIANTS, Game
from bot.render import board_view_from_game, render_png
from bot.render.drawn import record_drawn_text
from bot.storage import GameRecord, LeaseKeeper, Lost, Storage, StorageError, Venue

from ..i18n.language import Language, Languages
from .app.ai_turns import AITurns
from .app.challenges import ChallengeService
from .app.clocks import Clocks
from .app.games import GameHub, Played
from .app.lobby import GAMES, LobbyService
from .app.players import Players
from .app.puzzles import PuzzleSessions
from .app.records import GameRecords
from .app.reviews import ReviewService
from .app.tournaments import TournamentService
from .app.watch import WEB, GameWatch
from .cogs.challenges import Challenges
from .cogs.info import Info
from .cogs.lobby import Lobby
from .cogs.play import Play
from .cogs.preferences import PlayerOptions
from .cogs.puzzles import Puzzles
from .cogs.review import Review
from .cogs.settings import ServerOptions
from .cogs.timers import Announcers, Timers
from .cogs.tournaments import Tournaments
from .compose.board import caption_words
from .lobby_desk import DiscordVenues, LobbyDesk
from .runtime.config import Settings
from .runtime.gateway import Gateway
from .runtime.heartbeat import time_heartbeats_when_sent
from .runtime.identify import SharedIdentifyPacer
from .runtime.loopmonitor import watch_loop_lag
from .table import Table
from .tournament_desk import TournamentDesk
from .translator import CommandTranslator, Node
from .web.activity import DiscordSignIn
from .web.links import Links, derived_key
from .web.routes import WebBoard

if TYPE_CHECKING:
    from .runtime.metrics import Metrics

log = logging.getLogger(__name__)


class StoppedBeforeConnecting(Exception):
    """Asked to stop (SIGTERM) before the bot had connected: nothing to close cleanly."""


SESSION_RESERVE = 10
"""Gateway sessions a process leaves unstarted in the day's budget (for other processes)."""
INTERACTION_GRACE_SECONDS = 10.0
"""On shutdown, how long interactions already being handled may take to finish before they are
cancelled quietly (their replies need the HTTP session, which closes last)."""


def warm_renderer(lang: Language) -> None:
    """Render one captioned start position of every board size the variants use, with the
    words of ``lang`` (the pseudo-locale's in a pseudo-locale run, which checks every word
    drawn)."""
    seen: set[int] = set()
    words = caption_words(lang)
    for variant in VARIANTS.values():
        if variant.size not in seen:
            seen.add(variant.size)
            render_png(board_view_from_game(Game(variant), caption=True, words=words))


class TaflTree(app_commands.CommandTree["TaflBot"]):
    """The command tree: notes each slash command (and autocomplete) being handled so that a
    shutdown can let it finish, and turns every command's error into a private reply."""

    async def interaction_check(self, interaction: discord.Interaction[TaflBot], /) -> bool:
        self.client.table.track(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[TaflBot], error: app_commands.AppCommandError, /
    ) -> None:
        """Expected errors become short private replies; bugs are logged with their traceback
        and get a generic one (see :meth:`Table.report`)."""
        name = interaction.command.qualified_name if interaction.command else "a command"
        await self.client.table.report(interaction, error, f"/{name}")


class TaflBot(commands.Bot):
    """The bot, on one unsharded connection: every feature is a cog under the ``/tafl``
    command group, but the tournaments, under ``/tafl-tournament`` (:class:`ShardedTaflBot` is
    the same bot running shards)."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        *,
        leases: LeaseKeeper | None = None,
        ai_workers: int = 2,
        metrics: Metrics | None = None,
        **options: Any,
    ) -> None:
        """``leases`` are this process's on its shards, already taken (``None``: it answers
        for them without any). ``metrics``, when the process serves them, hear of its moves,
        searches and interactions. ``options`` go to discord.py as they are (the sharded bot's
        ``shard_ids`` and ``shard_count``; typed ``Any`` because discord.py's own type for them is
        private and differs between the plain bot it is checked against and the sharded one it
        reaches)."""
        if metrics is not None:
            # discord.py's HTTP session carries the trace: it sees each interaction's first
            # response reach Discord.
            options["http_trace"] = metrics.trace_config()
        time_heartbeats_when_sent()  # the shards' latency, in the metrics
        # The bot never joins voice: discord.py's start-up warnings about missing voice
        # libraries would only alarm operators.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread lookups; no message content needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=TaflTree,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            **options,
        )
        self._gate_interactions()
        self.settings = settings
        self.storage = storage
        self.leases = leases
        self.metrics = metrics
        self.lost: Lost | None = None
        """Set when a lease was lost to another process: the bot stops (with status 1)."""
        web_on = settings.public_url is not None
        self.hub = GameHub(
            storage,
            on_move=None if metrics is None else metrics.count_move,
            on_change=(lambda game_id: self.watch.changed(game_id)) if web_on else None,
            web=web_on,
        )
        self.watch = GameWatch(self.hub, storage, spawn=self.spawn)
        """The games watched on the web board, and the news of their changes."""
        self.ai = AIService(
            workers=ai_workers, on_search=None if metrics is None else metrics.observe_search
        )
        self.ai_turns = AITurns(
            self.hub, self.ai, spawn=self.spawn, until_serving=self.until_serving
        )
        """The AI's turns in games: one search at a time per game, retried, played in time."""
        self.puzzles = PuzzleSessions(storage)
        """Who is given which puzzle, and what each move does to their go."""
        self.languages = Languages(pseudo=settings.pseudo_locale)
        """The shipped catalogues: the language each reader's locale gets."""
        if settings.pseudo_locale and settings.pseudo_drawn is not None:
            record_drawn_text(settings.pseudo_drawn)
        self.players = Players(
            storage.preferences,
            storage.settings,
            storage.leaderboards,
            storage.ratings,
            storage.puzzles,
            languages=self.languages.codes,
        )
        """Preferences, server settings, records and leaderboards."""
        venues = DiscordVenues(
            self, language=lambda guild_id: self.table.channel_language(guild_id)
        )
        self.lobby = LobbyService(storage, self.hub, venues)
        """Seeks, blocks and games across servers: who plays whom, and where."""
        self.tournament_desk = TournamentDesk(
            self, language=lambda guild_id: self.table.channel_language(guild_id)
        )
        """Tournaments on Discord: their threads, news, standings and records."""
        self.tournaments = TournamentService(storage, self.hub, self.tournament_desk)
        """The servers' tournaments, from sign-up to the podium."""
        self.lobby_venues = LobbyVenues(self.hub)
        """The table's keeper of games across servers (the lobby's desk, once built)."""
        self.table = Table(
            self,
            self.hub,
            self.lobby_venues,
            languages=self.languages,
            server_language=self.players.server_language,
            last_locale=self.players.last_locale,
        )
        """The Discord edge: sends what is composed, answers every command and click."""
        self.puzzle_cog = Puzzles(
            self.puzzles,
            self.players,
            self.table,
            live_game=lambda channel_id: self.play.live_game(channel_id),
            spawn=self.spawn,
        )
        """Puzzles on Discord: /tafl puzzle, its boards, and moves typed in a go."""
        self.play = Play(
            self.hub,
            self.table,
            self.ai_turns,
            self.puzzles,
            puzzle_move=self.puzzle_cog.move,
            resume=self.lobby_venues.resume,
        )
        self.web_board = self._web_board(settings)
        """The web board's routes (``None`` without ``TAFL_PUBLIC_URL``)."""
        if self.web_board is not None:
            self.play.board_link = self.web_board.board_link
            self.play.link_hours = self.web_board.links.hours
        """Playing, and what happens in games announced, for every feature."""
        self.lobby_desk = LobbyDesk(self.lobby, self.table, show=self.play.show, spawn=self.spawn)
        """Games across servers on Discord: their boards and news in both venues."""
        self.lobby_venues.serve(self.lobby_desk)
        self.challenges = ChallengeService(
            storage.challenges,
            storage.games,
            storage.settings,
            storage.tournaments,
            self.hub,
            expiry_seconds=settings.challenge_expiry,
            recover=self.play.live_game,
        )
        """Challenges, games against the AI and rematches."""
        self.records = GameRecords(storage.games, storage.analyses, self.hub)
        """The games people ask about, and their records."""
        self.reviews = ReviewService(storage.games, storage.analyses, self.records, self.ai)
        """Reviews of finished games, made one at a time per member."""
        self.clocks = Clocks(storage.games, storage.lobby, self.hub, self.challenges)
        """What the timers find due."""
        self.tafl = app_commands.Group(name="tafl", description="Play tafl games: Tablut and kin")
        self.top_level: list[Node] = [self.tafl]
        """The commands Discord lists: /tafl, and those beside it (:meth:`gather_commands`)."""
        self.background: set[asyncio.Task[None]] = set()
        # Games the board ended while the bot was down; the clock announces them once ready.
        self.settled_at_start: list[Played] = []
        self.session_limits: discord.SessionStartLimits | None = None
        self._stopping = asyncio.Event()
        self._closed = False
        self._ignoring = False

    def _web_board(self, settings: Settings) -> WebBoard | None:
        """The web board, when the bot serves one (``TAFL_PUBLIC_URL``)."""
        if settings.public_url is None:
            return None
        secret = settings.web_secret or derived_key(settings.token)
        sign_in = None
        if settings.client_secret is not None:
            sign_in = DiscordSignIn(settings.client_secret, api_base=settings.api_base)
        return WebBoard(
            Links(secret, settings.public_url),
            self.watch,
            self.hub,
            self.languages,
            channel_language=self.table.channel_language,
            last_locale=self.players.last_locale,
            announce=self.play.announce,
            act=self.play.act,
            spawn=self.spawn,
            application_id=lambda: self.application_id,
            sign_in=sign_in,
        )

    def serving(self) -> bool:
        """Whether this process may answer for its servers now: it holds their leases (and
        has renewed them in time)."""
        return self.leases is None or self.leases.valid()

    async def until_serving(self) -> bool:
        """Wait while the leases have lapsed (the database out of reach); ``False`` if the bot
        stops, or loses them, meanwhile."""
        while not self.serving():
            if self._stopping.is_set() or self.lost is not None:
                return False
            await asyncio.sleep(0.5)
        return not self._stopping.is_set()

    def _gate_interactions(self) -> None:
        """Have discord.py's connection state (built once, by its constructor) pass
        interactions on only while this process serves its shards: an interaction that arrives
        when it cannot prove its leases is left to the process that can (or, the database
        being out of reach, to no one)."""
        parsers = self._connection.parsers  # the gateway dispatches through this dictionary
        deliver = parsers["INTERACTION_CREATE"]

        def gated(data: Mapping[str, object]) -> None:
            if self.serving():
                if self._ignoring:
                    self._ignoring = False
                    log.warning("answering interactions again")
                if self.metrics is not None:
                    self.metrics.interaction_arrived(data)
                self.table.note_arrival(data)
                deliver(data)
                return
            if self.metrics is not None:
                self.metrics.interaction_dropped(data)
            if not self._ignoring:
                self._ignoring = True
                log.warning("not answering interactions: this process cannot prove its leases")

        parsers["INTERACTION_CREATE"] = gated

    def gateways(self) -> dict[int, Gateway]:
        """This process's gateway connections by shard (the unsharded bot's one is shard 0)."""
        ws = self.ws
        return {0: Gateway(ws is not None and ws.open, self.latency)}

    def _lease_lost(self, lost: Lost) -> None:
        self.lost = lost
        self.spawn(self.close(), "stop-after-losing-a-lease")

    async def setup_hook(self) -> None:
        """Mind the day's budget of gateway sessions, load games, the AI workers and the cogs,
        then sync the commands."""
        if self.leases is not None:
            self.spawn(self.leases.keep(self._lease_lost), "shard-leases")
        shards = self.settings.shards
        self.session_limits = await self._within_session_budget(
            1 if shards is None else len(shards.ids)
        )
        await self.ai.start()
        if self.settings.loop_monitor:
            self.spawn(watch_loop_lag(), "loop-monitor")
        self.settled_at_start = await self.hub.load()
        # Other processes' moves in games across servers (PostgreSQL; one process has none).
        self.storage.db.listen(GAMES, self.lobby_desk.heard)
        if self.web_board is not None:  # other processes' changes, for the web board's pages
            self.storage.db.listen(WEB, self.watch.heard)
        # The first board of each size builds the renderer's palette and backgrounds (a few
        # hundred ms): do it now, off the loop, rather than inside someone's first move.
        await asyncio.to_thread(warm_renderer, self.languages.language(None))
        for feature in self.features():
            await self.add_cog(feature)
        self.add_dynamic_items(*self.table.controls())
        self.gather_commands(self.cogs.values())
        # Every command's, option's and choice's names and descriptions in the shipped
        # languages, from the catalogues (discord.py asks for each as it builds the payload).
        await self.tree.set_translator(CommandTranslator(self.languages))
        guild_id = self.settings.test_guild_id
        shards = self.settings.shards
        if shards is not None and 0 not in shards.ids:
            # One sync is enough for every process of a sharded bot: the one running shard 0
            # (there is always exactly one) does it.
            log.info("commands are synced by the process that runs shard 0")
        elif guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the test server %d", guild_id)
        else:
            await self.tree.sync()
            log.info("commands synced globally")

    def features(self) -> tuple[commands.Cog, ...]:
        """One cog per feature, each built with what it uses (services, the table, a sibling's
        entry point as a callable), never the bot; the tournaments' desk is handed the
        tournaments' cog's news."""
        tournaments = Tournaments(
            self.tournaments,
            self.table,
            show=self.play.show,
            announce_end=self.play.announce_end,
            called_off=self.play.called_off,
        )
        self.tournament_desk.serve(self.tournaments, tournaments.show)
        return (
            Lobby(self.lobby, self.table, self.lobby_desk),
            tournaments,
            Challenges(
                self.challenges,
                self.table,
                show=self.play.show,
                open_game=self.play.open_game,
                ask_rematch=self.lobby_desk.ask_rematch,
            ),
            self.play,
            Info(self.players, self.records, self.table, commands=self._command_list),
            ServerOptions(self.players, self.table),
            PlayerOptions(self.players, self.table),
            Review(self.reviews, self.players, self.table),
            self.puzzle_cog,
            Timers(
                self.clocks,
                self.table,
                Announcers(
                    announce=self.play.announce,
                    announce_end=self.play.announce_end,
                    remind=self.play.remind,
                    settle=self.hub.settle,
                    start_pairing=self.lobby_desk.start,
                    redraw_lagging=self.lobby_desk.redraw_lagging,
                    tournaments_tick=self.tournament_desk.tick,
                ),
                tick_seconds=self.settings.timer_tick,
                ready=self.wait_until_ready,
                settled_at_start=self.settled_at_start,
            ),
        )

    def gather_commands(self, features: Iterable[commands.Cog]) -> list[Node]:
        """Gather the commands each feature declares under the ``/tafl`` group (taken off the
        tree's top level, where adding a cog put them), except a feature's that stand beside
        it (its ``top_level``: the tournaments'); the top-level commands, ``/tafl`` first."""
        beside: list[app_commands.Group] = []
        for feature in features:
            for command in feature.__cog_app_commands__:
                if getattr(feature, "top_level", False):
                    if not isinstance(command, app_commands.Group):
                        raise TypeError(f"/{command.name}: a command beside /tafl is a group")
                    beside.append(command)
                    continue
                self.tree.remove_command(command.name)
                self.tafl.add_command(command)
        if self.tree.get_command(self.tafl.name) is None:
            self.tree.add_command(self.tafl)
        for command in beside:
            if self.tree.get_command(command.name) is None:
                self.tree.add_command(command)
        self.top_level = [self.tafl, *beside]
        return self.top_level

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Keep the locale each player's Discord client reports, for what is sent to them
        later (reminders, direct messages of the lobby); written only when it changed."""
        try:
            await self.players.note_locale(interaction.user.id, interaction.locale.value)
        except StorageError as error:  # the interaction itself is answered all the same
            log.warning("could not keep the locale of user %d: %s", interaction.user.id, error)

    def _command_list(self) -> list[tuple[str, str]]:
        """The commands, as /tafl help lists them: (path, description), ``tafl challenge``
        and the others under /tafl, then the commands beside it (``tafl-tournament``)."""
        under = [(f"tafl {command.name}", command.description) for command in self.tafl.commands]
        beside = [(command.name, command.description) for command in self.top_level[1:]]
        return under + beside

    async def _within_session_budget(self, sessions: int) -> discord.SessionStartLimits | None:
        """Discord's limits on starting gateway sessions, after waiting for the day's budget to
        reset if starting ``sessions`` now would leave less than :data:`SESSION_RESERVE`.

        Past the budget (1,000 a day for most bots) Discord resets the bot's token, and the
        bot is down until someone puts a new one in: a process restarted in a loop (a crash
        at each start) must wait instead. ``None`` when the limits cannot be read.
        """
        try:
            # What AutoShardedClient.fetch_session_start_limits does, for the plain bot too.
            _, _, raw = await self.http.get_bot_gateway()
            limits = discord.SessionStartLimits(**raw)
        except discord.DiscordException as error:  # GatewayNotFound wraps HTTP failures
            log.warning("could not read Discord's session start limits: %s", error)
            return None
        if limits.remaining - sessions < SESSION_RESERVE:
            wait = limits.reset_after / 1000
            log.error(
                "Discord allows only %d more gateway sessions today (of %d); starting %d now "
                "would risk its resetting the bot's token, so the bot waits %.0f minutes for "
                "the day's budget to reset. Is it being restarted in a loop? (see the log above)",
                limits.remaining,
                limits.total,
                sessions,
                wait / 60,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), wait)
            if self._stopping.is_set():
                raise StoppedBeforeConnecting("stopped while waiting for Discord's session budget")
        return limits

    def spawn(self, coroutine: Coroutine[object, None, None], name: str) -> asyncio.Task[None]:
        """Run a coroutine in the background, keeping a reference and logging its failure."""
        task = asyncio.create_task(coroutine, name=name)
        self.background.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self.background.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                error = finished.exception()
                log.error("%s failed", name, exc_info=error)

        task.add_done_callback(done)
        return task

    async def close(self) -> None:
        """Stop the AI's searches, let interactions being handled finish (their replies need
        the HTTP session), stop background work, then close the connection and the session.

        The searches go first: one can take seconds, and an interaction waiting for the AI's
        move would hold the stop that long. Nothing is lost: the player's move is saved, and
        the AI moves when the bot is back (its games are resumed at start-up)."""
        self._stopping.set()
        self.watch.close()  # the web board's pages reconnect (to another process, or later)
        await self.ai.close()
        await self._finish_in_flight()
        await self._cancel_background()
        await super().close()

    async def _finish_in_flight(self) -> None:
        current = asyncio.current_task()
        pending = {task for task in self.table.in_flight if task is not current and not task.done()}
        if not pending:
            return
        log.info("letting %d interaction(s) finish before stopping", len(pending))
        _, late = await asyncio.wait(pending, timeout=INTERACTION_GRACE_SECONDS)
        for task in late:
            task.cancel()
        if late:
            log.warning("cancelled %d interaction(s) still running at shutdown", len(late))
            await asyncio.gather(*late, return_exceptions=True)

    async def _cancel_background(self) -> None:
        for task in list(self.background):
            task.cancel()
        await asyncio.gather(*self.background, return_exceptions=True)

    async def shutdown(self) -> None:
        """Stop background work, release the AI workers, give the leases back (a successor
        takes the shards at once) and close the database."""
        if self._closed:
            return
        self._closed = True
        await self._cancel_background()
        await self.ai.close()
        if self.web_board is not None and self.web_board.sign_in is not None:
            await self.web_board.sign_in.close()
        if self.leases is not None:
            await self.leases.give_back()
        await self.storage.close()


class ShardedTaflBot(TaflBot, commands.AutoShardedBot):
    """The bot running some of Discord's shards (``settings.shards``), one gateway connection
    per shard in this process; Discord sends each connection only its servers' events."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        *,
        leases: LeaseKeeper | None = None,
        ai_workers: int = 2,
        metrics: Metrics | None = None,
    ) -> None:
        shards = settings.shards
        if shards is None:
            raise ValueError("ShardedTaflBot needs settings.shards; use TaflBot without them")
        super().__init__(
            settings,
            storage,
            leases=leases,
            ai_workers=ai_workers,
            metrics=metrics,
            shard_ids=sorted(shards.ids),
            shard_count=shards.count,
        )
        self.identify_pacer = SharedIdentifyPacer(storage.identify_turns, 1)

    async def setup_hook(self) -> None:
        """Everything the plain bot does, then learn how fast the shards may identify."""
        await super().setup_hook()
        limits = self.session_limits
        if limits is None:
            return  # identifying slowly, as if one shard a time were allowed
        self.identify_pacer = SharedIdentifyPacer(
            self.storage.identify_turns, max(1, limits.max_concurrency)
        )
        log.info(
            "Discord lets this bot identify %d shard(s) per 5 s (%d sessions left today)",
            limits.max_concurrency,
            limits.remaining,
        )

    def gateways(self) -> dict[int, Gateway]:
        """Each of this process's shards' gateway connection (closed until it is launched)."""
        found = {}
        for shard_id in sorted(self.shard_ids or ()):
            shard = self.get_shard(shard_id)
            if shard is None:
                found[shard_id] = Gateway(False, float("nan"))
            else:
                found[shard_id] = Gateway(not shard.is_closed(), shard.latency)
        return found

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for the shard's turn under Discord's identify limit (instead of discord.py's
        flat 5 s before each IDENTIFY but the first)."""
        delay = await self.identify_pacer.reserve(shard_id or 0)
        if delay > 0:
            await asyncio.sleep(delay)


class LobbyVenues:
    """The lobby's desk as the table's keeper of games across servers (by game id), and the
    games' cog's way to resume a game whose venue was deleted. The desk shows boards through
    the games' cog, which is built after the table: it is given here once built
    (:meth:`serve`)."""

    def __init__(self, games: GameHub) -> None:
        self._games = games
        self._desk: LobbyDesk | None = None

    def serve(self, desk: LobbyDesk) -> None:
        """Hand what the table asks to ``desk``."""
        self._desk = desk

    @property
    def desk(self) -> LobbyDesk:
        """The lobby's desk (wired in the client's constructor, before anything runs)."""
        if self._desk is None:
            raise RuntimeError("the lobby's desk is not wired yet")
        return self._desk

    async def resume(
        self, interaction: discord.Interaction, record: GameRecord, venue: Venue
    ) -> None:
        """Continue here a game across servers whose venue was deleted."""
        await self.desk.resume(interaction, record, venue)

    async def venue_gone(self, game_id: int, venue: Venue) -> None:
        """Adjourn the game whose venue was found gone (an ended game has nothing to wait
        for)."""
        live = self._games.by_id(game_id)
        if live is not None:
            await self.desk.venue_gone(live, venue)

    async def check_venue(self, game_id: int, venue: Venue) -> None:
        """Adjourn the game if its venue, not found, is really gone."""
        live = self._games.by_id(game_id)
        if live is not None:
            await self.desk.check_venue(live, venue)

    async def changed(self, game_id: int) -> None:
        """Tell the other processes that the game changed."""
        await self.desk.changed(game_id)


def make_bot(
    settings: Settings,
    storage: Storage,
    leases: LeaseKeeper | None = None,
    metrics: Metrics | None = None,
) -> TaflBot:
    """The plain bot, or the sharded one when ``settings.shards`` is set."""
    kind = TaflBot if settings.shards is None else ShardedTaflBot
    return kind(settings, storage, leases=leases, ai_workers=settings.ai_workers, metrics=metrics)
