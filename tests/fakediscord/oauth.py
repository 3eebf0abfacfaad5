"""Discord's OAuth2 code exchange, as an Activity's server uses it.

The Discord client hands the Activity a code (the Embedded App SDK's ``authorize``):
:meth:`OAuth2.authorize` makes one for a user, as the client would. The app's server exchanges
it at ``POST /oauth2/token`` (form-encoded ``client_id``, ``client_secret``, ``grant_type=
authorization_code``, ``code``; once only) for an access token, and reads the person with
``GET /users/@me`` and ``Authorization: Bearer <token>``. Errors answer as Discord's OAuth2
endpoint does: ``{"error": "invalid_grant" | "invalid_client" | ...}``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from aiohttp import web

from .models import FakeUser
from .state import World

TOKEN_SECONDS = 604800
"""An access token's life (Discord's: a week)."""


@dataclass
class OAuth2:
    """The application's client secret, the codes handed out and the tokens granted."""

    world: World
    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    codes: dict[str, int] = field(default_factory=dict)
    """Codes not yet exchanged, by the id of the user who authorised."""
    tokens: dict[str, int] = field(default_factory=dict)
    exchanges: list[dict[str, str]] = field(default_factory=list)
    """Every exchange asked for (its form, the secret left out)."""

    def authorize(self, user: FakeUser, scope: str = "identify") -> str:
        """A code for ``user``, as the Discord client gives the Activity."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = user.id
        return code

    def add_routes(self, app: web.Application, prefix: str) -> None:
        app.router.add_post(prefix + "/oauth2/token", self.token)

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        fields = {key: str(value) for key, value in form.items()}
        self.exchanges.append({k: v for k, v in fields.items() if k != "client_secret"})
        if fields.get("grant_type") != "authorization_code":
            return _error("unsupported_grant_type", 400)
        if (
            fields.get("client_id") != str(self.world.application_id)
            or fields.get("client_secret") != self.client_secret
        ):
            return _error("invalid_client", 401)
        user_id = self.codes.pop(fields.get("code", ""), None)
        if user_id is None:
            return _error("invalid_grant", 400, 'Invalid "code" in request.')
        access = secrets.token_urlsafe(24)
        self.tokens[access] = user_id
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": TOKEN_SECONDS,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    def user_for(self, authorization: str) -> FakeUser | None:
        """The user a ``Bearer`` header's token was granted for."""
        token = authorization.removeprefix("Bearer ").strip()
        user_id = self.tokens.get(token)
        return None if user_id is None else self.world.users.get(user_id)


def _error(error: str, status: int, description: str | None = None) -> web.Response:
    body = {"error": error}
    if description:
        body["error_description"] = description
    return web.json_response(body, status=status)
