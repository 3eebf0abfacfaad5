"""Where the data lives: an SQLite file path (the default) or a PostgreSQL URL.

``TAFL_DATABASE`` holds either. A URL may carry a password, so it is only ever shown through
:func:`redact`.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://…``) rather than a file."""
    return (
        isinstance(target, str)
        and target.split("://", 1)[0].lower() in POSTGRES_SCHEMES
        and ("://" in target)
    )


def redact(target: str | os.PathLike[str]) -> str:
    """``target`` safe for logs and messages: a URL's password becomes ``***``."""
    text = os.fspath(target)
    if not is_postgres_url(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
