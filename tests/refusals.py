"""Asserting a service's refusal by the words players read: the kind raised as ``Refused`` and
its sentence as the composition words it (every compose module is imported, so that the words
of every kind are registered)."""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest

import bot.discord_bot.compose as compose_package
from bot.discord_bot.app.errors import Refused
from bot.discord_bot.compose.errors import refusal_words

for _module in pkgutil.iter_modules(compose_package.__path__, compose_package.__name__ + "."):
    importlib.import_module(_module.name)


@contextlib.contextmanager
def refused(pattern: str = "") -> Iterator[pytest.ExceptionInfo[Refused]]:
    """Expect the block to be refused with words that ``pattern`` matches (``re.search``)."""
    with pytest.raises(Refused) as caught:
        yield caught
    words = refusal_words(caught.value.refusal)
    assert re.search(pattern, words), f"{words!r} does not match {pattern!r}"


def words_of(caught: pytest.ExceptionInfo[Refused]) -> str:
    """The words a caught refusal is answered with."""
    return refusal_words(caught.value.refusal)
