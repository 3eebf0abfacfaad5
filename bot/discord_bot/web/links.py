"""The web board's links: signed for one person and one game, and expiring.

A link is ``{TAFL_PUBLIC_URL}/play/{token}``; the token is itsdangerous's timed, URL-safe
signature over ``{"g": game, "u": user, "r": "p" | "s"}`` (a player's or a spectator's).
Only the bot can make one (the key never leaves the processes); a link cannot be turned into
another person's or another game's, and it stops working after :data:`LINK_HOURS`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
from dataclasses import dataclass
from typing import Literal

from itsdangerous import BadPayload, BadSignature, SignatureExpired, URLSafeTimedSerializer

LINK_HOURS = 12
"""How long a link opens its board."""
SALT = "tafl-board-link"
"""Keeps these signatures apart from any other the same key might make."""
Role = Literal["p", "s"]
"""A player's link (``p``: they may move their own pieces) or a spectator's (``s``)."""


class LinkRefused(Exception):
    """A token that opens nothing: ``kind`` says why (``forged``, ``expired``)."""

    def __init__(self, kind: Literal["forged", "expired"], link: Link | None = None) -> None:
        super().__init__(kind)
        self.kind: Literal["forged", "expired"] = kind
        self.link = link
        """What an expired link opened (its holder's language is known), else ``None``."""


@dataclass(frozen=True)
class Link:
    """What a valid token opens: a game, for a user (``0``: anyone), as player or spectator."""

    game_id: int
    user_id: int
    role: Role

    @property
    def player(self) -> bool:
        """Whether the link may act in the game (a spectator's never may)."""
        return self.role == "p"


def derived_key(token: str) -> str:
    """The links' key when the operator set none: derived from the bot's token, so that every
    process of a cluster signs alike with no extra setting, and the token itself is never the
    key (a leaked signature tells nothing of it)."""
    return hmac.new(token.encode(), b"tafl web board links", hashlib.sha256).hexdigest()


class Links:
    """Makes and reads the links of one bot (``secret``: the key; ``base``: the public URL)."""

    def __init__(self, secret: str, base: str, *, max_age: int = LINK_HOURS * 3600) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt=SALT)
        self.base = base.rstrip("/")
        self.max_age = max_age

    @property
    def hours(self) -> int:
        """How long a link lasts, in whole hours (as the pages and the private answer say it)."""
        return self.max_age // 3600

    def token(self, game_id: int, user_id: int, role: Role) -> str:
        """A token for ``user_id`` in ``game_id``."""
        return str(self._serializer.dumps({"g": game_id, "u": user_id, "r": role}))

    def url(self, game_id: int, user_id: int, role: Role) -> str:
        """The link to the board of ``game_id`` for ``user_id``."""
        return f"{self.base}/play/{self.token(game_id, user_id, role)}"

    def read(self, token: str) -> Link:
        """What ``token`` opens; :class:`LinkRefused` when it was not made by this bot (or
        was changed), or is too old."""
        try:
            data = self._serializer.loads(token, max_age=self.max_age)
        except SignatureExpired as expired:
            # Signed by this bot, only too old: what it opened can still be read.
            opened = None
            if expired.payload is not None:
                with contextlib.suppress(BadPayload):
                    opened = _link(self._serializer.load_payload(expired.payload))
            raise LinkRefused("expired", opened) from None
        except BadSignature:
            raise LinkRefused("forged") from None
        found = _link(data)
        if found is None:
            raise LinkRefused("forged")
        return found


def _link(data: object) -> Link | None:
    """The link a signed payload stands for (``None``: not one of ours)."""
    if not isinstance(data, dict):
        return None
    game, user, role = data.get("g"), data.get("u"), data.get("r")
    if not isinstance(game, int) or not isinstance(user, int) or role not in ("p", "s"):
        return None
    return Link(game, user, "p" if role == "p" else "s")
