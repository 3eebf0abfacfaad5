"""The web board's routes, on the bot's own HTTP server (``TAFL_HTTP_PORT``), served only
when ``TAFL_PUBLIC_URL`` is set.

- ``GET /play/{token}``: the page; ``GET /activity``: the same page inside Discord;
  ``GET /static/{name}``: the client.
- ``GET /api/games/{token}/state``: the game as the link's holder sees it (JSON);
  ``GET /api/games/{token}/events``: the same, sent again after every change (Server-Sent
  Events), with a comment every :data:`KEEP_ALIVE_SECONDS`.
- ``POST /api/games/{token}/move`` and ``/action``: a player's move or action, through the
  games service exactly as ``/tafl move`` and the board's buttons (same checks, same storage),
  and told in the game's channel alike (the board image, the notices).
- ``POST /api/activity/token``: the Activity's sign-in (:mod:`.activity`).

The adapter of the web as the cogs are Discord's: it reads the request, asks a service, has the
composition (:mod:`..compose.web`) word the answer. A link is checked on every request
(:mod:`.links`); refusals are worded in the reader's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace

from aiohttp import web

from bot.engine import Side, TaflError, parse_square
from bot.storage import PlayerPreferences, StorageError

from ...i18n.language import Language, Languages
from ..app.errors import Refused
from ..app.games import GameHub, IllegalMove, NotPlaying, Played
from ..app.watch import GameWatch, Shown, UnknownGame
from ..compose import errors as error_words
from ..compose import web as words
from ..compose.board import look_of
from .activity import DiscordSignIn, SignInFailed
from .links import Link, LinkRefused, Links
from .page import NO_STORE, SECURITY_HEADERS, StaticFiles, refusal_page, shell

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 15.0
"""Between two comments on a quiet event stream (proxies close silent connections)."""
ACTIONS = frozenset(
    {
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "takeback",
        "accept_takeback",
        "decline_takeback",
    }
)
STATUS: dict[type, int] = {UnknownGame: 404, IllegalMove: 422, NotPlaying: 403}
"""The HTTP status of a refusal (409, the game's state says no, for the others)."""
MAX_WATCHERS = 5000
"""Pages a process keeps streaming at once; more are asked to come back later (503), so that
a flood of connections cannot exhaust the process."""
STATES_KEPT = 512
"""Games whose state JSON is kept for their pages' streams (then all are made afresh)."""
BODY_LIMIT = 4096
"""Bytes a request's JSON may take (a move is a few dozen)."""


@dataclass
class Bucket:
    """What is left of one person's allowance (tokens), and when it was last counted."""

    tokens: float
    at: float


class RateLimit:
    """At most ``burst`` requests at once per key, refilled at ``rate`` a second: a page
    that floods the bot is slowed down as a person repeating a command is."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[object, Bucket] = {}

    def wait(self, key: object) -> float:
        """0 when ``key`` may go on now (counted), else the seconds until it may."""
        now = self._clock()
        if len(self._buckets) > 10_000:  # forget the idle ones
            full = [k for k, b in self._buckets.items() if now - b.at > self.burst / self.rate]
            for stale in full:
                del self._buckets[stale]
        bucket = self._buckets.setdefault(key, Bucket(float(self.burst), now))
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate


Spawn = Callable[[Coroutine[object, None, None], str], object]
Announce = Callable[[Played], Coroutine[object, None, None]]
Act = Callable[[int, int, str, int], Awaitable[None]]


class WebBoard:
    """The web board's handlers, given what they use (the composition root builds it)."""

    def __init__(
        self,
        links: Links,
        watch: GameWatch,
        hub: GameHub,
        languages: Languages,
        *,
        channel_language: Callable[[int | None], Awaitable[Language]],
        last_locale: Callable[[int], Awaitable[str | None]],
        announce: Announce,
        act: Act,
        spawn: Spawn,
        application_id: Callable[[], int | None],
        sign_in: DiscordSignIn | None = None,
        static: StaticFiles | None = None,
    ) -> None:
        self.links = links
        self.watch = watch
        self.hub = hub
        self.languages = languages
        self._channel_language = channel_language
        self._last_locale = last_locale
        self._announce = announce
        self._act = act
        self._spawn = spawn
        self._application_id = application_id
        self.sign_in = sign_in
        self.static = static or StaticFiles()
        self.posts = RateLimit(rate=2.0, burst=8)
        """Moves and actions, per person (as fast as anyone plays, never a flood)."""
        self.sign_ins = RateLimit(rate=1.0, burst=10)
        """Activity sign-ins, per address (each costs two requests to Discord)."""
        self._states: dict[int, tuple[int, dict[tuple[object, ...], str]]] = {}
        """The state JSON of each watched game at its version, by how a page sees it."""

    # ------------------------------------------------------------------ reading requests

    def _browser_language(self, request: web.Request) -> Language:
        """The language the browser asks for first (``Accept-Language``), for a page that
        knows no one."""
        header = request.headers.get("Accept-Language", "")
        first = header.split(",")[0].split(";")[0].strip()
        return self.languages.for_reader(first or None)

    def _link(self, request: web.Request) -> Link:
        return self.links.read(request.match_info["token"])

    async def _language(self, link: Link, shown: Shown | None) -> Language:
        """The reader's language: the one their Discord client last reported, else their
        game's channel's."""
        if link.user_id:
            with contextlib.suppress(StorageError):
                locale = await self._last_locale(link.user_id)
                if locale:
                    return self.languages.for_reader(locale)
        guild = None if shown is None else shown.game.record.guild_id
        return await self._channel_language(guild)

    @staticmethod
    def side_of(link: Link, shown: Shown) -> Side | None:
        """The side the link's holder plays (``None``: they watch); the side to move when they
        play both."""
        if not link.player or not link.user_id:
            return None
        record = shown.game.record
        players = ((Side.ATTACKERS, record.attackers), (Side.DEFENDERS, record.defenders))
        sides = [side for side, player in players if player.user_id == link.user_id]
        turn = shown.game.game.turn
        return turn if turn in sides else (sides[0] if sides else None)

    async def _state(self, link: Link, lang: Language | None = None) -> dict[str, object]:
        shown = await self.watch.show(link.game_id, link.user_id)
        if lang is None:
            lang = await self._language(link, shown)
        you = self.side_of(link, shown)
        return words.state(shown, you=you, now_ms=int(time.time() * 1000), lang=lang)

    async def _shared_state(
        self, link: Link, lang: Language, preferences: PlayerPreferences | None
    ) -> str:
        """The state JSON for a page's stream, made once per change of the game for all the
        pages that see it alike (the same side, language and look): two hundred pages
        watching one game cost one state a move, not two hundred."""
        game_id = link.game_id
        version = self.watch.version(game_id)
        shown = replace(await self.watch.show(game_id, 0), preferences=preferences)
        you = self.side_of(link, shown)
        look = look_of(preferences, you)
        key = (None if you is None else you.value, lang.locale, look.theme, look.flip)
        made = self._states.get(game_id)
        if made is None or made[0] != version:
            if len(self._states) > STATES_KEPT:
                self._states.clear()
            made = self._states[game_id] = (version, {})
        text = made[1].get(key)
        if text is None:
            now = int(time.time() * 1000)
            text = made[1][key] = _dumps(words.state(shown, you=you, now_ms=now, lang=lang))
        return text

    # ------------------------------------------------------------------ answers

    @staticmethod
    def _json(data: object, status: int = 200) -> web.Response:
        return web.json_response(
            data, status=status, headers={**SECURITY_HEADERS, **NO_STORE}, dumps=_dumps
        )

    async def _refused_link(self, request: web.Request, refused: LinkRefused) -> web.Response:
        """A link that opens nothing, said in its holder's language when the link still says
        who they are (an expired one), else in the browser's."""
        lang = self._browser_language(request)
        if refused.link is not None:
            lang = await self._language(refused.link, None)
        title, text, step = words.link_page(refused.kind, hours=self.links.hours, lang=lang)
        status = 410 if refused.kind == "expired" else 403
        if request.path.startswith("/api/"):
            said = text if step is None else f"{text} {step}"
            return self._json({"error": said, "kind": refused.kind}, status)
        return self._message(request, title, text, lang, status, step)

    def _page_of(self, request: web.Request, kind: str, status: int) -> web.Response:
        """A page saying why the board cannot be shown (see :func:`words.link_page`)."""
        lang = self._browser_language(request)
        title, text, step = words.link_page(kind, lang=lang)
        return self._message(request, title, text, lang, status, step)

    def _message(
        self,
        request: web.Request,
        title: str,
        text: str,
        lang: Language,
        status: int = 200,
        step: str | None = None,
    ) -> web.Response:
        """A page of a title, a sentence and the next step instead of a board, in the
        board's style."""
        page = refusal_page(
            self.static, title, text, base=base_of(request.path), lang=lang.catalogue, step=step
        )
        headers = {**SECURITY_HEADERS, **NO_STORE}
        return web.Response(text=page, status=status, content_type="text/html", headers=headers)

    def _error(self, text: str, kind: str, status: int) -> web.Response:
        return self._json({"error": text, "kind": kind}, status)

    # ------------------------------------------------------------------ pages

    async def page(self, request: web.Request) -> web.Response:
        """``GET /play/{token}``: the page (or a page saying why the link opens nothing)."""
        try:
            link = self._link(request)
            shown = await self.watch.show(link.game_id, link.user_id)
        except LinkRefused as refused:
            return await self._refused_link(request, refused)
        except Refused:
            return self._page_of(request, "unknown", 404)
        except StorageError:  # the database out of reach: the page can be reloaded
            return self._page_of(request, "unavailable", 503)
        lang = await self._language(link, shown)
        title = words.page_words(shown, lang=lang)["title"]
        text = shell(self.static, base="..", lang=lang.catalogue, title=title)
        headers = {**SECURITY_HEADERS, **NO_STORE}
        return web.Response(text=text, content_type="text/html", headers=headers)

    async def static_file(self, request: web.Request) -> web.StreamResponse:
        """``GET /static/{name}``: the client's files."""
        return await self.static.serve(request)

    async def root(self, request: web.Request) -> web.Response:
        """``GET /``: where Discord opens the Activity (its URL mapping's root, with
        ``frame_id`` and the other launch parameters in the query): the Activity's page; for
        anyone else, a line saying how to open a board."""
        if "frame_id" in request.query:
            return await self.activity(request)
        lang = self._browser_language(request)
        title, text = words.front_page(lang=lang)
        return self._message(request, title, text, lang)

    async def activity(self, request: web.Request) -> web.Response:
        """``GET /activity``: the page inside Discord, which signs in before it opens a game
        (``data-client-id``: the application the SDK authorises for)."""
        application = self._application_id()
        lang = self._browser_language(request)
        client_id = "" if application is None else str(application)
        attributes = {"mode": "activity", "client-id": client_id}
        text = shell(self.static, base=".", lang=lang.catalogue, attributes=attributes)
        headers = {**SECURITY_HEADERS, **NO_STORE}
        return web.Response(text=text, content_type="text/html", headers=headers)

    # ------------------------------------------------------------------ the API

    async def state(self, request: web.Request) -> web.Response:
        """``GET /api/games/{token}/state``."""
        try:
            link = self._link(request)
            return self._json(await self._state(link))
        except LinkRefused as refused:
            return await self._refused_link(request, refused)
        except Refused as refused:
            lang = self._browser_language(request)
            return self._error(words.refusal(refused.refusal, None, lang=lang), "unknown", 404)
        except StorageError as error:
            lang = self._browser_language(request)
            return self._error(error_words.storage_words(error, lang), "unavailable", 503)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """``GET /api/games/{token}/events``: the state at once, then after every change."""
        try:
            link = self._link(request)
            shown = await self.watch.show(link.game_id, link.user_id)
        except LinkRefused as refused:
            return await self._refused_link(request, refused)
        except Refused as refused:
            lang = self._browser_language(request)
            return self._error(words.refusal(refused.refusal, None, lang=lang), "unknown", 404)
        except StorageError as error:  # the page's EventSource tries again by itself
            lang = self._browser_language(request)
            return self._error(error_words.storage_words(error, lang), "unavailable", 503)
        lang = await self._language(link, shown)
        if self.watch.watchers() >= MAX_WATCHERS:
            busy = self._error(words.busy(lang=lang), "busy", 503)
            busy.headers["Retry-After"] = "30"
            return busy
        preferences = shown.preferences  # read once: a page reloads to show new ones
        response = web.StreamResponse(
            headers={
                **SECURITY_HEADERS,
                **NO_STORE,
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",  # nginx-like proxies: pass each event at once
            }
        )
        await response.prepare(request)
        with self.watch.watching(link.game_id) as watcher:
            try:
                while not self.watch.closed:
                    if not await watcher.wait(KEEP_ALIVE_SECONDS):
                        await response.write(b": keep-alive\n\n")
                        continue
                    if self.watch.closed:
                        break
                    try:
                        data = await self._shared_state(link, lang, preferences)
                    except StorageError as error:  # the page reconnects and reads again
                        log.info("game %d: a page missed its state: %s", link.game_id, error)
                        break
                    await response.write(f"event: state\ndata: {data}\n\n".encode())
            except (ConnectionResetError, asyncio.CancelledError):
                pass  # the page went away (or the server stops)
        return response

    async def _acting(
        self, request: web.Request
    ) -> tuple[Link, Shown, Language, dict[str, object]]:
        """The link, its game and reader, and the request's JSON, for a move or an action;
        refused (as :class:`web.HTTPException` answers) for spectators and floods."""
        link = self._link(request)
        shown = await self.watch.show(link.game_id, link.user_id)
        lang = await self._language(link, shown)
        if not link.player:
            raise _Answer(self._error(words.spectators_cannot_act(lang=lang), "spectator", 403))
        wait = self.posts.wait(link.user_id)
        if wait > 0:
            raise _Answer(self._error(words.too_fast(wait, lang=lang), "rate_limited", 429))
        if self.side_of(link, shown) is None:
            raise Refused(NotPlaying())
        try:
            body = await request.content.read(BODY_LIMIT + 1)
            data = json.loads(body) if len(body) <= BODY_LIMIT else None
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("ply"), int):
            raise _Answer(self._error(words.not_understood(lang=lang), "bad_request", 400))
        return link, shown, lang, data

    async def move(self, request: web.Request) -> web.Response:
        """``POST /api/games/{token}/move``: ``{"from": "e5", "to": "e2", "ply": N}``."""
        return await self._post(request, self._move)

    async def _move(self, request: web.Request) -> web.Response:
        link, shown, lang, data = await self._acting(request)
        size = shown.game.game.size
        try:
            origin = parse_square(str(data.get("from", "")), size)
            target = parse_square(str(data.get("to", "")), size)
        except (TaflError, ValueError):
            return self._error(words.not_understood(lang=lang), "bad_request", 400)
        side = self.side_of(link, shown)
        record = shown.game.record
        player = record.attackers if side is Side.ATTACKERS else record.defenders
        ply = data["ply"]
        assert isinstance(ply, int)
        played = await self.hub.play_squares(link.game_id, player, origin, target, ply)
        # Committed: the page hears of it at once; the channel gets its board (and the AI
        # its turn) without keeping the page waiting.
        self._spawn(self._announce(played), f"web-move-{link.game_id}")
        return self._json({"state": await self._state(link, lang)})

    async def action(self, request: web.Request) -> web.Response:
        """``POST /api/games/{token}/action``: ``{"action": "resign", "ply": N}`` and the
        others of :data:`ACTIONS`."""
        return await self._post(request, self._action)

    async def _action(self, request: web.Request) -> web.Response:
        link, _, lang, data = await self._acting(request)
        action = data.get("action")
        if action not in ACTIONS:
            return self._error(words.not_understood(lang=lang), "bad_request", 400)
        ply = data["ply"]
        assert isinstance(ply, int)
        await self._act(link.game_id, link.user_id, str(action), ply)
        return self._json({"state": await self._state(link, lang)})

    async def _post(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.Response]]
    ) -> web.Response:
        """A move or an action, its refusals worded for the page."""
        try:
            return await handler(request)
        except _Answer as answer:
            return answer.response
        except LinkRefused as refused:
            return await self._refused_link(request, refused)
        except Refused as refused:
            link = self.links.read(request.match_info["token"])
            game = None
            with contextlib.suppress(Refused, StorageError):
                game = (await self.watch.show(link.game_id, 0)).game
            shown = None if game is None else Shown(game, None, None, None)
            lang = await self._language(link, shown)
            found = refused.refusal
            status = STATUS.get(type(found), 409)
            text = words.refusal(found, game, lang=lang)
            return self._error(text, type(found).__name__, status)
        except StorageError as error:
            lang = self._browser_language(request)
            return self._error(error_words.storage_words(error, lang), "unavailable", 503)

    # ------------------------------------------------------------------ the Activity

    async def activity_token(self, request: web.Request) -> web.Response:
        """``POST /api/activity/token``: ``{"code", "channel_id", "guild_id"}`` → the access
        token, and a link token for the signed-in person's game in that channel."""
        lang = self._browser_language(request)
        sign_in, application = self.sign_in, self._application_id()
        if sign_in is None or application is None:
            return self._error(words.activity_off(lang=lang), "activity_off", 503)
        wait = self.sign_ins.wait(client_address(request))
        if wait > 0:
            return self._error(words.too_fast(wait, lang=lang), "rate_limited", 429)
        try:
            data = json.loads(await request.content.read(BODY_LIMIT + 1))
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return self._error(words.not_understood(lang=lang), "bad_request", 400)
        try:
            signed = await sign_in.exchange(application, data["code"])
        except SignInFailed as failed:
            log.info("an Activity sign-in failed: %s", failed)
            return self._error(words.sign_in_failed(lang=lang), "sign_in", failed.status)
        channel = str(data.get("channel_id") or "")
        token = None
        games: list[int] = []
        game = None
        if channel.isdigit():
            with contextlib.suppress(StorageError):
                game = await self.watch.game_in(int(channel))
        answer: dict[str, object] = {"access_token": signed.access_token}
        if game is None:
            answer.update(token=None, games=games, error=words.no_web_game(lang=lang))
            return self._json(answer)
        record = game.record
        plays = signed.user_id in (record.attackers.user_id, record.defenders.user_id)
        token = self.links.token(game.id, signed.user_id, "p" if plays else "s")
        answer.update(token=token, games=[game.id], you=plays)
        return self._json(answer)

    # ------------------------------------------------------------------ wiring

    def board_link(self, game_id: int, user_id: int, player: bool) -> str:
        """The link to a game's board for ``user_id`` (a player's or a spectator's)."""
        return self.links.url(game_id, user_id, "p" if player else "s")

    def routes(self) -> list[web.RouteDef]:
        """Every route of the web board."""
        return [web.route(method, path, getattr(self, name)) for method, path, name in ROUTES]


ROUTES = (
    ("GET", "/", "root"),
    ("GET", "/play/{token}", "page"),
    ("GET", "/activity", "activity"),
    ("GET", "/static/{name}", "static_file"),
    ("GET", "/api/games/{token}/state", "state"),
    ("GET", "/api/games/{token}/events", "events"),
    ("POST", "/api/games/{token}/move", "move"),
    ("POST", "/api/games/{token}/action", "action"),
    ("POST", "/api/activity/token", "activity_token"),
)
"""The web board's routes: method, path, and the :class:`WebBoard` method that answers."""


class _Answer(Exception):
    """An answer decided before the request reached a service."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


def base_of(path: str) -> str:
    """The way back to the server's root from a page at ``path`` (``..`` from
    ``/play/{token}``, ``.`` from ``/``), so that its files load under any proxy's prefix."""
    return "/".join([".."] * (path.count("/") - 1)) or "."


def client_address(request: web.Request) -> str:
    """The browser's address: the connection's, or behind a proxy on a private network (Caddy,
    an Ingress) the one the proxy saw, which it adds last to ``X-Forwarded-For`` (the entries
    before it are the browser's to write, and are not believed)."""
    peer = request.remote or ""
    try:
        behind_proxy = ipaddress.ip_address(peer).is_private
    except ValueError:
        behind_proxy = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if behind_proxy and forwarded:
        return forwarded.split(",")[-1].strip()
    return peer


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class WebFront:
    """The web board's routes on the health server, added before the bot exists (the server
    starts first of all): until :meth:`serve` hands them the board, they serve the client's
    files and say that the board is starting (503: a page that reloads itself, or for the
    page's own requests a sentence it shows while it tries again)."""

    def __init__(self, static: StaticFiles | None = None) -> None:
        self.board: WebBoard | None = None
        self.static = static or StaticFiles()
        self._languages = Languages()

    def serve(self, board: WebBoard) -> None:
        """Answer with ``board`` from now on."""
        self.board = board

    def add_to(self, app: web.Application) -> None:
        """Add the routes to ``app`` (before it starts)."""
        for method, path, name in ROUTES:
            app.router.add_route(method, path, self._forward(name))

    def _starting(self, request: web.Request) -> web.StreamResponse:
        header = request.headers.get("Accept-Language", "")
        lang = self._languages.for_reader(header.split(",")[0].split(";")[0].strip() or None)
        title, text, _ = words.link_page("starting", lang=lang)
        headers = {**SECURITY_HEADERS, **NO_STORE, "Retry-After": "5"}
        if request.path.startswith("/api/"):
            return web.json_response(
                {"error": text, "kind": "unavailable"}, status=503, headers=headers, dumps=_dumps
            )
        page = refusal_page(
            self.static, title, text, base=base_of(request.path), lang=lang.catalogue, refresh=5
        )
        return web.Response(text=page, status=503, content_type="text/html", headers=headers)

    def _forward(self, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handler(request: web.Request) -> web.StreamResponse:
            board = self.board
            if board is None:
                if name == "static_file":
                    return await self.static.serve(request)
                return self._starting(request)
            answer: Callable[[web.Request], Awaitable[web.StreamResponse]] = getattr(board, name)
            return await answer(request)

        return handler
