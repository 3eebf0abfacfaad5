"""Every kind of refusal a service raises has its words in the composition, and the error
funnel answers a refused person with them."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

import pytest

import bot.discord_bot.app as app_package
import bot.discord_bot.compose as compose_package
from bot.discord_bot.app.errors import Refusal, Refused
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.table import friendly_message
from bot.i18n.language import ENGLISH_LANGUAGE, Language


def _import_all() -> None:
    for package in (app_package, compose_package):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)


def _kinds(base: type[Refusal]) -> set[type[Refusal]]:
    found: set[type[Refusal]] = set()
    for kind in base.__subclasses__():
        found.add(kind)
        found |= _kinds(kind)
    return found


def unworded() -> list[str]:
    """The kinds of refusal (defined in the services) that the composition cannot word."""
    _import_all()
    default = refusal_words.dispatch(Refusal)
    return sorted(
        f"{kind.__module__}.{kind.__qualname__}"
        for kind in _kinds(Refusal)
        if kind.__module__.startswith("bot.") and refusal_words.dispatch(kind) is default
    )


def test_every_kind_of_refusal_has_words() -> None:
    assert unworded() == []


@dataclass(frozen=True)
class _Unworded(Refusal):
    what: str


def test_an_unworded_refusal_is_a_bug_not_a_blank_answer() -> None:
    with pytest.raises(TypeError):
        refusal_words(_Unworded("x"))


@dataclass(frozen=True)
class _Worded(Refusal):
    seconds: int


@refusal_words.register
def _(refusal: _Worded, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"Wait {refusal.seconds} s."


def test_the_funnel_answers_a_refusal_with_its_words() -> None:
    assert friendly_message(Refused(_Worded(3))) == "Wait 3 s."
