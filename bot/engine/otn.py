"""OpenTafl Notation (OTN): position records and move records."""

from __future__ import annotations

import re

from .errors import PositionError
from .types import FILES, Piece

_PIECE_LETTERS = {"t": Piece.ATTACKER, "T": Piece.DEFENDER, "K": Piece.KING, "k": Piece.KING}
_LETTER_OF = {Piece.ATTACKER: "t", Piece.DEFENDER: "T", Piece.KING: "K"}
_RUN_RE = re.compile(r"\d+|[A-Za-z]")


def parse_position(text: str, size: int | None = None) -> list[int]:
    """Read an OTN position record (rank 1 first) into a list of piece codes by square.

    With ``size`` given the record must describe a board of that size.
    """
    record = text.strip()
    if not (record.startswith("/") and record.endswith("/")) or len(record) < 3:
        raise PositionError(f"{text!r} is not an OTN position: expected '/rank1/rank2/.../'")
    ranks = record[1:-1].split("/")
    n = size if size is not None else len(ranks)
    if n > len(FILES):
        raise PositionError(
            f"{text!r}: boards larger than {len(FILES)} squares a side are not played"
        )
    if len(ranks) != n:
        raise PositionError(f"{text!r} has {len(ranks)} ranks, but the board is {n}x{n}")
    cells: list[int] = []
    for number, rank in enumerate(ranks, start=1):
        row: list[int] = []
        for token in _RUN_RE.findall(rank):
            if token.isdigit():
                row.extend([int(Piece.EMPTY)] * int(token))
            elif token in _PIECE_LETTERS:
                row.append(int(_PIECE_LETTERS[token]))
            else:
                raise PositionError(
                    f"{text!r}: rank {number} has the piece letter {token!r}; "
                    "this engine knows t (attacker), T (defender) and K (king)"
                )
        if "".join(_RUN_RE.findall(rank)) != rank:
            raise PositionError(
                f"{text!r}: rank {number} ({rank!r}) has characters OTN does not use"
            )
        if len(row) != n:
            raise PositionError(
                f"{text!r}: rank {number} ({rank!r}) has {len(row)} squares, not {n}"
            )
        cells.extend(row)
    kings = cells.count(int(Piece.KING))
    if kings > 1:
        raise PositionError(f"{text!r} has {kings} kings; a tafl position has at most one")
    return cells


def format_position(cells: list[int] | tuple[int, ...], size: int) -> str:
    """Write piece codes by square as an OTN position record (rank 1 first)."""
    ranks = []
    for rank in range(size):
        parts: list[str] = []
        empty = 0
        for file in range(size):
            piece = cells[rank * size + file]
            if piece == Piece.EMPTY:
                empty += 1
                continue
            if empty:
                parts.append(str(empty))
                empty = 0
            parts.append(_LETTER_OF[Piece(piece)])
        if empty:
            parts.append(str(empty))
        ranks.append("".join(parts))
    return "/" + "/".join(ranks) + "/"
