"""Where the data lives: an SQLite file path (the default) or a PostgreSQL URL.

``TAFL_DATABASE`` holds either. A URL may carry a password, so it is only ever shown through
:func:`redact`.
"""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://…``) rather than a file."""
    return (
        isinstance(target, str)
        and target.split("://", 1)[0].lower() in POSTGRES_SCHEMES
        and ("://" in target)
    )


def redact(target: str | os.PathLike[str]) -> str:
    """``target`` safe for logs and messages: a URL's password, in its user part or as a
    ``password=`` option, becomes ``***``. Never raises: a URL it cannot read is masked from
    ``://`` to its last ``@``."""
    text = os.fspath(target)
    if not is_postgres_url(text):
        return text
    scheme, _, rest = text.partition("://")
    try:
        parts = urlsplit(text)
        options = [
            (name, "***" if name.lower() == "password" else value)
            for name, value in parse_qsl(parts.query, keep_blank_values=True)
        ]
        netloc = parts.netloc
        if parts.password is not None:
            user = quote(unquote(parts.username or ""), safe="")
            host = parts.hostname or ""
            port = f":{parts.port}" if parts.port else ""
            netloc = f"{user}:***@{host}{port}"
        if parts.password is None and ":" in rest.rpartition("@")[0]:
            # There is a user:password part that urlsplit did not see as one.
            raise ValueError("unreadable user part")
        query = "&".join(f"{name}={value}" for name, value in options) if options else ""
        return urlunsplit(parts._replace(netloc=netloc, query=query))
    except ValueError:
        # A password with characters urlsplit stops at (#, ?), a port out of range, ...
        return f"{scheme}://***@{rest.rpartition('@')[2]}" if "@" in rest else f"{scheme}://***"
