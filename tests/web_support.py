"""Shared pieces of the web board's tests: a page's event stream, and the link a private
answer carries."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from e2e_support import WAIT

LINK_STYLE = 5
"""Discord's style of a button that opens a web address."""


def link_url(data: dict[str, Any]) -> str:
    """The one link button's address in a message's data."""
    urls = [
        component["url"]
        for row in data.get("components", [])
        for component in row.get("components", [])
        if component.get("style") == LINK_STYLE
    ]
    assert len(urls) == 1, data
    return str(urls[0])


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


class Events:
    """A page's event stream: each ``state`` event's data, in order."""

    def __init__(self, token: str, base: str) -> None:
        self.token = token
        self.base = base
        self.states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.headers: dict[str, str] = {}

    async def __aenter__(self) -> Events:
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _read(self) -> None:
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        async with (
            aiohttp.ClientSession(timeout=timeout) as http,
            http.get(f"{self.base}/api/games/{self.token}/events") as answer,
        ):
            self.headers = dict(answer.headers)
            event = None
            async for raw in answer.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    await self.states.put(json.loads(line[6:]))

    async def until(self, ply: int) -> dict[str, Any]:
        """The first state sent at ``ply`` or later."""
        while True:
            found = await asyncio.wait_for(self.states.get(), WAIT)
            if found["ply"] >= ply:
                return found
