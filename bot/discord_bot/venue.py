"""Threads for new games on Discord, for the features not yet composing their messages as data
(the lobby, tournaments): how long they stay open, and their names. Where an interaction
happened and opening a game's thread are the table's (:func:`.table.where_of`,
:func:`.table.open_thread`)."""

from __future__ import annotations

from .table import THREAD_ARCHIVE_MINUTES as THREAD_ARCHIVE_MINUTES
from .table import THREAD_NAME as THREAD_NAME
from .table import clip


def thread_name(first: str, second: str, variant_title: str) -> str:
    """A thread named after the players and the variant."""
    return clip(f"{first} vs {second} · {variant_title}", THREAD_NAME)
