"""The Activity's sign-in: Discord's OAuth2 code exchange, made by the bot's server.

Inside Discord the page asks the Discord client for a code (the Embedded App SDK's
``authorize``); the bot exchanges it at Discord's token endpoint with the application's client
secret (which never reaches the browser), reads who signed in (``GET /users/@me``), and hands
back the access token (for the SDK's ``authenticate``) with a link token for that person's
game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
"""Discord's API, unless ``DISCORD_API_BASE`` points elsewhere (the stand-in in tests)."""
TIMEOUT = aiohttp.ClientTimeout(total=10)


class SignInFailed(Exception):
    """Discord refused the code (or could not be reached): ``status`` is what the page gets."""

    def __init__(self, status: int, problem: str) -> None:
        super().__init__(problem)
        self.status = status


@dataclass(frozen=True)
class SignedIn:
    """Who signed in, and the token Discord gave for them."""

    access_token: str
    user_id: int
    name: str


class DiscordSignIn:
    """Exchanges Activity codes for tokens and people (one HTTP session, made when first
    needed and closed with the bot)."""

    def __init__(self, client_secret: str, *, api_base: str | None = None) -> None:
        self._secret = client_secret
        self.api_base = (api_base or DISCORD_API).rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def exchange(self, client_id: int, code: str) -> SignedIn:
        """The person behind ``code`` (from ``authorize`` for the application ``client_id``)."""
        form = {
            "client_id": str(client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        http = self._http()
        try:
            async with http.post(f"{self.api_base}/oauth2/token", data=form) as answer:
                granted = await answer.json(content_type=None)
                if answer.status != 200 or not isinstance(granted, dict):
                    # Discord says why in ``error`` (invalid_grant: a code used or expired).
                    why = granted.get("error") if isinstance(granted, dict) else answer.status
                    raise SignInFailed(401, f"Discord refused the code: {why}")
            token = granted.get("access_token")
            if not isinstance(token, str):
                raise SignInFailed(502, "Discord's answer had no access token")
            headers = {"Authorization": f"Bearer {token}"}
            async with http.get(f"{self.api_base}/users/@me", headers=headers) as answer:
                user = await answer.json(content_type=None)
                if answer.status != 200 or not isinstance(user, dict):
                    raise SignInFailed(502, f"Discord did not say who signed in ({answer.status})")
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise SignInFailed(502, f"Discord could not be reached: {error}") from None
        name = user.get("global_name") or user.get("username") or ""
        return SignedIn(token, int(str(user.get("id", 0))), str(name))

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
