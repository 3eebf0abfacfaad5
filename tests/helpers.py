"""Small builders shared by the tests."""

from __future__ import annotations

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
