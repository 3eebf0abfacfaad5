"""HTTP plumbing: Discord-shaped JSON replies and errors, request bodies, the request log.

Two discord.py details drive this module: a reply is parsed as JSON only when its
``Content-Type`` is exactly ``application/json``, and any 5xx is retried for seconds. So
every reply is built here with that exact header, and every failure of the stand-in itself
becomes a 4xx that is logged and recorded for the test to inspect.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .notifier import Notifier

log = logging.getLogger("fakediscord")

JSON = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

PayloadFilter = Callable[
    [str, JSON, tuple["ReceivedFile", ...]], tuple[JSON, tuple["ReceivedFile", ...]]
]
"""Sees each JSON object the bot sends and its files (with the request's path) before the
route does, and gives what the route is to read: a test's watch on everything the bot says."""
PAYLOAD_FILTERS = web.AppKey("payload_filters", list[PayloadFilter])

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$|^file(\d*)$")


class DiscordHTTPError(Exception):
    """Raised by a handler to answer with a Discord error object."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def invalid_form_body(path: tuple[str | int, ...], code: str, message: str) -> DiscordHTTPError:
    """A 50035 error whose ``errors`` tree points at ``path``, as Discord nests them."""
    errors: JSON = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return DiscordHTTPError(400, 50035, "Invalid Form Body", errors)


def json_response(data: object, status: int = 200) -> web.Response:
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def error_response(
    status: int, code: int, message: str, errors: JSON | None = None
) -> web.Response:
    body: JSON = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return json_response(body, status)


@dataclass(frozen=True)
class ReceivedFile:
    """A file part of a multipart request, exactly as the bot uploaded it."""

    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Body:
    json: JSON | list[Any] | None
    files: tuple[ReceivedFile, ...] = ()


async def read_body(request: web.Request) -> Body:
    """Parse a JSON body or a multipart body with ``payload_json`` and ``files[n]`` parts."""
    content_type = request.content_type
    if content_type.startswith("multipart/"):
        payload: JSON | list[Any] | None = None
        files: list[ReceivedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = _parse_json(await part.text())
                continue
            match = _FILE_FIELD.match(name)
            if match is None:
                raise DiscordHTTPError(400, 50035, f"Invalid Form Body: unexpected field {name!r}")
            index = int(match.group(1) or match.group(2) or 0)
            files.append(
                ReceivedFile(
                    index=index,
                    filename=part.filename or f"file{index}",
                    content_type=part.headers.get("Content-Type", "application/octet-stream"),
                    data=bytes(await part.read()),
                )
            )
        return Body(payload, tuple(files))
    raw = await request.read()
    if not raw:
        return Body(None)
    return Body(_parse_json(raw.decode()))


def _parse_json(text: str) -> JSON | list[Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from exc
    if not isinstance(data, dict | list):
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
    return data


async def read_object(request: web.Request) -> tuple[JSON, tuple[ReceivedFile, ...]]:
    """Like :func:`read_body` but the payload must be a JSON object (empty if absent)."""
    body = await read_body(request)
    if body.json is None:
        return {}, body.files
    if not isinstance(body.json, dict):
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
    payload, files = body.json, body.files
    for watch in request.app.get(PAYLOAD_FILTERS, ()):
        payload, files = watch(request.path, payload, files)
    return payload, files


@dataclass(frozen=True)
class RequestRecord:
    """One REST request the bot made and how the stand-in answered it."""

    method: str
    path: str
    status: int
    at: float
    note: str = ""

    def __str__(self) -> str:
        note = f" ({self.note})" if self.note else ""
        return f"{self.method} {self.path} -> {self.status}{note}"


@dataclass
class RequestLog:
    requests: list[RequestRecord] = field(default_factory=list)
    unhandled: list[RequestRecord] = field(default_factory=list)
    rejected: list[RequestRecord] = field(default_factory=list)
    internal_errors: list[RequestRecord] = field(default_factory=list)

    def add(self, record: RequestRecord, *, kind: str | None = None) -> None:
        self.requests.append(record)
        if kind == "unhandled":
            self.unhandled.append(record)
        elif kind == "internal":
            self.internal_errors.append(record)
        elif record.status >= 400:
            self.rejected.append(record)


def make_middleware(request_log: RequestLog, notifier: Notifier, gateway_path: str) -> Any:
    """Turn every outcome into a JSON reply, log it, and hold notifications until it is sent."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == gateway_path:
            return await handler(request)
        kind: str | None = None
        note = ""
        with notifier.hold():
            response: web.StreamResponse
            try:
                response = await handler(request)
            except DiscordHTTPError as exc:
                response = error_response(exc.status, exc.code, exc.message, exc.errors)
                note = f"{exc.code} {exc.message}"
                if exc.errors:
                    note += f" {json.dumps(exc.errors)}"
                log.info("fake discord rejected %s %s: %s", request.method, request.path_qs, note)
            except web.HTTPException as exc:
                # No route matched (404/405): discord.py must see a 4xx JSON error.
                kind = "unhandled"
                note = "no such route in the fake Discord"
                response = error_response(exc.status, 0, f"{exc.status}: {exc.reason}")
                log.warning("fake discord has no route for %s %s", request.method, request.path_qs)
            except Exception as exc:
                kind = "internal"
                note = f"{type(exc).__name__}: {exc}"
                log.exception("fake discord failed on %s %s", request.method, request.path_qs)
                response = error_response(400, 0, f"fake discord internal error: {note}")
            if not response.prepared:
                await response.prepare(request)
                await response.write_eof()
            request_log.add(
                RequestRecord(
                    request.method, request.path_qs, response.status, time.perf_counter(), note
                ),
                kind=kind,
            )
            notifier.notify()
        return response

    return middleware
