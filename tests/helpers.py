"""Small builders shared by the tests."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.ai.analysis import GameAnalysis, Moment, MomentKind, PositionEval
from bot.ai.explain import ChancesFell, Plays
from bot.ai.search import MATE
from bot.discord_bot.app.errors import Refusal, Refused
from bot.engine import Game, Side, format_position, get_variant, parse_square

_CODES = {"t": 1, "T": 2, "K": 3}


def position(size: int, pieces: str) -> str:
    """An OTN position from ``"K:e5 t:e4,d5 T:c3"`` style text."""
    cells = [0] * (size * size)
    for group in pieces.split():
        letter, squares = group.split(":")
        for name in squares.split(","):
            cells[parse_square(name, size)] = _CODES[letter]
    return format_position(cells, size)


def game(variant: str, pieces: str, turn: str = "attackers") -> Game:
    """A game of ``variant`` from a hand-built position with ``turn`` to move."""
    size = get_variant(variant).size
    return Game(variant, position(size, pieces), Side.parse(turn))


def names(game: Game, squares: tuple[int, ...] | list[int]) -> list[str]:
    """Square names for readable assertions."""
    from bot.engine import square_name

    return sorted(square_name(sq, game.size) for sq in squares)


BRANDUBH_GROUP_CAPTURE = (
    "a4-a3",
    "e4-e3",
    "f4-e4",
    "d5-c5",
    "g4-g3",
    "c5-f5",
    "a3-c3",
    "f5-f3",
    "d2-e2",
    "f3-e3",
    "d6-d5",
    "c4-c5",
    "b4-c4",
    "c5-a5",
    "d1-d2",
    "a5-a2",
    "g3-f3",
)
"""A brandubh game from the start that the attackers win by surrounding the king's group."""


def made_up_analysis(moments: tuple[Moment, ...] = ()) -> GameAnalysis:
    """The group-capture brandubh game with made-up scores (even for eight positions, then
    400 for the attackers until they win) and the given moments, for drawing tests."""
    moves = BRANDUBH_GROUP_CAPTURE
    scores = [0] * 8 + [400] * (len(moves) - 8) + [MATE]
    evals = tuple(PositionEval(score, None if score == MATE else "d1-d2") for score in scores)
    return GameAnalysis(
        variant="brandubh",
        start_position=Game("brandubh").start_position,
        first_turn=Side.ATTACKERS,
        moves=moves,
        evals=evals,
        moments=moments,
        move_accuracy=(100.0,) * len(moves),
        attackers_accuracy=100.0,
        defenders_accuracy=100.0,
    )


MADE_UP_BLUNDER = Moment(
    8,
    Side.DEFENDERS,
    MomentKind.BLUNDER,
    "f5-f3",
    "f5-f4",
    0,
    400,
    ChancesFell("f5-f3", Side.DEFENDERS, 0.5, 0.17, Plays(Side.ATTACKERS, "d1-d2")),
    0.33,
    critical=True,
)
"""A blunder for :func:`made_up_analysis`: the defenders' 4… f5-f3, critical."""


@contextmanager
def refused(match: str | None = None) -> Iterator[pytest.ExceptionInfo[Refused]]:
    """Expect a service to refuse (:class:`Refused`) with a refusal whose words, as the player
    reads them, contain ``match`` (a regular expression); the caught error's ``value.refusal``
    is there for checks of the data."""
    with pytest.raises(Refused) as caught:
        yield caught
    words = refusal_words(caught.value.refusal)
    assert match is None or re.search(match, words), f"{words!r} does not match {match!r}"


def refusal_words(refusal: Refusal) -> str:
    """The words of a refusal, every feature's words registered (each compose module)."""
    from bot.discord_bot import compose
    from bot.discord_bot.compose import errors

    for module in pkgutil.iter_modules(compose.__path__):
        importlib.import_module(f"{compose.__name__}.{module.name}")
    return errors.refusal_words(refusal)


def untranslated(code: str, *sources: str) -> list[str]:
    """The strings of the template used in ``sources`` (paths ending so, e.g.
    ``compose/review.py``) that the ``code`` catalogue lacks or marks fuzzy: what its readers
    would see in English."""
    from bot.discord_bot.compose import catalogs

    template = catalogs.read(catalogs.TEMPLATE)
    catalogue = catalogs.read(catalogs.LOCALES_DIR / f"{code}.po", code)
    missing = []
    for message in template:
        if not message.id or not any(
            path.endswith(source) for path, _ in message.locations for source in sources
        ):
            continue
        found = catalogue.get(message.id, context=message.context)
        strings = () if found is None else found.string
        forms = strings if isinstance(strings, tuple) else (strings,)
        if found is None or found.fuzzy or not all(forms):
            missing.append(f"[{message.context}] {message.id!r}")
    return missing
