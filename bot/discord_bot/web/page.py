"""The web board's page shell and static files, and the headers every answer carries.

The shell is a few lines of HTML that load the client (``static/board.js``, ``board.css``,
built from ``web/`` by npm and shipped in the package); the client asks the API for the game.
Nothing on the page comes from another site: a strict Content-Security-Policy says so to the
browser, and the page may be framed only by Discord (the Activity).
"""

from __future__ import annotations

import gzip
import hashlib
import html
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

STATIC = Path(__file__).resolve().parent / "static"
"""The client's build output, shipped with the package."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors https://discord.com https://*.discord.com "
    "https://*.discordsays.com; base-uri 'none'; form-action 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers on every answer of the web board."""
NO_STORE = {"Cache-Control": "no-store"}
"""A page or answer that names a person's link: kept by no cache."""
TYPES = {".js": "text/javascript", ".css": "text/css", ".map": "application/json"}
SERVED = ("board.js", "board.css", "activity.js")
"""The client's files: the two the shell loads, and the Activity's sign-in, which the client
loads inside Discord only."""


@dataclass(frozen=True)
class StaticFile:
    """One file of the client, read once: its bytes, gzipped bytes and validator."""

    body: bytes
    gzipped: bytes
    etag: str
    content_type: str


def read_static(name: str, folder: Path = STATIC) -> StaticFile | None:
    """The client's file ``name`` (``None``: not built yet)."""
    path = folder / name
    if not path.is_file():
        return None
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:16]
    content_type = TYPES.get(path.suffix, "application/octet-stream")
    return StaticFile(body, gzip.compress(body, 9, mtime=0), f'"{digest}"', content_type)


class StaticFiles:
    """The client's files, with a long cache life where the address names their digest
    (``?v=``, as the shell does: a new build is a new address), else checked with the server
    each time (``ETag``: a 304 when unchanged)."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder
        self._files: dict[str, StaticFile | None] = {}

    def get(self, name: str) -> StaticFile | None:
        """The file (read at its first use)."""
        if name not in self._files:
            self._files[name] = read_static(name, self.folder)
        return self._files[name]

    def version(self, name: str) -> str:
        """What the shell appends to the file's address (changes with its content)."""
        found = self.get(name)
        return "0" if found is None else found.etag.strip('"')

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """``GET /static/{name}``: gzipped when the browser accepts it, 304 when it has it."""
        name = request.match_info["name"]
        found = self.get(name) if name in SERVED else None
        if found is None:
            raise web.HTTPNotFound(headers=SECURITY_HEADERS)
        versioned = request.query.get("v") == found.etag.strip('"')
        headers = {
            **SECURITY_HEADERS,
            "ETag": found.etag,
            "Cache-Control": "public, max-age=31536000, immutable" if versioned else "no-cache",
            "Vary": "Accept-Encoding",
        }
        if request.headers.get("If-None-Match") == found.etag:
            return web.Response(status=304, headers=headers)
        body = found.body
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = found.gzipped
        return web.Response(body=body, headers=headers, content_type=found.content_type)


def shell(
    static: StaticFiles,
    *,
    base: str,
    lang: str = "en",
    title: str = "Tafl",
    attributes: dict[str, str] | None = None,
) -> str:
    """The page that loads the client. ``base``: the way back to the server's root from the
    page's address (``..`` under ``/play/``), so that it works under any prefix a proxy adds;
    ``attributes``: more ``data-`` attributes on ``#app`` for the client."""
    data = {"base": base, **(attributes or {})}
    found = " ".join(f'data-{key}="{html.escape(value)}"' for key, value in data.items())
    css = f"{base}/static/board.css?v={static.version('board.css')}"
    js = f"{base}/static/board.js?v={static.version('board.js')}"
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{html.escape(css)}">\n'
        f'<script type="module" src="{html.escape(js)}"></script>\n'
        f'</head>\n<body>\n<div id="app" {found}></div>\n</body>\n</html>\n'
    )


def refusal_page(
    static: StaticFiles,
    title: str,
    text: str,
    *,
    base: str,
    lang: str = "en",
    step: str | None = None,
    refresh: int | None = None,
) -> str:
    """A page of one title and one sentence (why a link opens nothing), and the next step
    (``step``) set apart, in the board's style (``board.css``) and without a script;
    ``refresh``: seconds after which the browser asks again by itself (a server starting)."""
    css = f"{base}/static/board.css?v={static.version('board.css')}"
    again = "" if refresh is None else f'<meta http-equiv="refresh" content="{refresh}">\n'
    next_step = "" if step is None else f'<p class="next">{html.escape(step)}</p>\n'
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"{again}<title>{html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{html.escape(css)}">\n</head>\n<body>\n'
        f'<main class="message">\n<h1>{html.escape(title)}</h1>\n<p>{html.escape(text)}</p>\n'
        f"{next_step}</main>\n</body>\n</html>\n"
    )
