"""The public game object: a position, its history, forgiving move input and OTN records."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Protocol

from . import core
from .board import ATTACKERS, DEFENDERS, Board, Status
from .errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    MoveParseError,
    PositionError,
    TaflError,
    because,
)
from .otn import format_position, parse_position
from .rules import KING_TAKEN
from .tables import EMPTY, KING, MOVE_SHIFT, TARGET_MASK
from .types import (
    Move,
    MoveNumber,
    MoveResult,
    Outcome,
    Piece,
    Side,
    Square,
    Termination,
    parse_square,
    square_name,
)
from .variants import Variant, get_variant

_SIDE_INDEX = {Side.ATTACKERS: ATTACKERS, Side.DEFENDERS: DEFENDERS}
_INDEX_SIDE = (Side.ATTACKERS, Side.DEFENDERS)

_SQ = r"([a-s])\s*(\d{1,2})"
_MOVE_RE = re.compile(
    rf"{_SQ}\s*(?:-|–|—|to|x|:|\s)?\s*{_SQ}"  # origin, separator, target
    r"(?:\s*x\s*[a-s]\d{1,2}(?:\s*/\s*[a-s]\d{1,2})*)?"  # an OTN capture record, ignored
    r"\s*(?:-{1,2}|\+{1,2})?"  # an OTN info suffix, ignored
)
_BARE_RE = re.compile(_SQ)
_TURN_RE = re.compile(r"\d+\s*(?:\.\.\.|…|\.)\s*(.*)")
"""A numbered turn of a record: ``12. e1-e4 e7-e5``, or ``1… e7-e5`` when it starts with the
second mover (``1...`` and ``1. …`` are read too)."""
_SKIPPED = ("…", "...")
"""Placeholders some records put where the first half of a turn is missing."""

REPETITION_LIMIT = 3
"""The occurrence of a position (with the same side to move) that ends the game, unless a rules
option says otherwise (:attr:`bot.engine.variants.Variant.repetition_limit`)."""
_MEN = {Side.ATTACKERS: int(Piece.ATTACKER), Side.DEFENDERS: int(Piece.DEFENDER)}


def _check_setup(variant: Variant, cells: list[int], text: str) -> None:
    """Refuse positions the rules could never reach: pieces where they may not stand, or a
    king who has already escaped."""
    n = variant.size
    for sq, piece in enumerate(cells):
        if piece == EMPTY:
            continue
        name = square_name(sq, n)
        if piece != KING and (sq == variant.throne or sq in variant.corners):
            where = "the throne" if sq == variant.throne else "a corner"
            raise PositionError(f"{text!r}: only the king may stand on {where} ({name})")
        if piece != int(Piece.ATTACKER) and sq in variant.camps:
            raise PositionError(f"{text!r}: defenders never stand in a camp ({name})")
        if piece == KING and sq in variant.escape_squares:
            raise PositionError(f"{text!r}: the king on {name} has already escaped")


class _Playing(Protocol):
    """What playing a move asks of a board: the Python :class:`Board`, or the fast core's
    :class:`~bot.engine.core.ReplayBoard` while :meth:`Game.play_all` replays moves."""

    @property
    def turn(self) -> int: ...
    @property
    def hash(self) -> int: ...
    @property
    def status(self) -> Status: ...
    @property
    def last_captures(self) -> tuple[int, ...]: ...
    def make(self, move: int) -> Status: ...
    def king_routes(self) -> list[int]: ...
    def king_threatened(self) -> bool: ...
    def has_moves(self) -> bool: ...


@cache
def _canonical_moves(size: int) -> dict[str, Move]:
    """Every rook-like move on a board of ``size`` by its ``e1-e4`` text."""
    moves = {}
    for origin in range(size * size):
        rank, file = divmod(origin, size)
        for target in range(size * size):
            if target != origin and (target // size == rank or target % size == file):
                move = Move(origin, target)
                moves[move.text(size)] = move
    return moves


class Game:
    """A tafl game: the current position, the moves that led to it and how it ended.

    >>> game = Game("tablut")
    >>> result = game.play("d1-d3")
    >>> result.notation
    'd1-d3'
    """

    def __init__(
        self,
        variant: str | Variant = "tablut",
        position: str | None = None,
        turn: Side | None = None,
    ) -> None:
        self.variant: Variant = get_variant(variant) if isinstance(variant, str) else variant
        self.size: int = self.variant.size
        cells = None if position is None else parse_position(position, self.size)
        if cells is not None:
            _check_setup(self.variant, cells, position or "")
        self.start_position: str = format_position(
            cells if cells is not None else parse_position(self.variant.start, self.size),
            self.size,
        )
        start_turn = turn if turn is not None else self.variant.first
        self.start_turn: Side = start_turn
        self._board = Board(self.variant, cells, _SIDE_INDEX[start_turn])
        self._start_men = {side: self._board.cells.count(code) for side, code in _MEN.items()}
        self._history: list[MoveResult] = []
        self._seen: Counter[int] = Counter({self._board.hash: 1})
        self._outcomes: list[Outcome | None] = []
        self.outcome: Outcome | None = None
        self.outcome = self._judge_no_move()

    # ------------------------------------------------------------------ state

    @property
    def turn(self) -> Side:
        """The side to move."""
        return _INDEX_SIDE[self._board.turn]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    @property
    def cells(self) -> tuple[Piece, ...]:
        """What stands on every square, indexed by square."""
        return tuple(Piece(code) for code in self._board.cells)

    def piece_at(self, square: Square) -> Piece:
        """What stands on ``square``."""
        return Piece(self._board.cells[square])

    @property
    def king_square(self) -> Square | None:
        """Where the king stands (``None`` if the position has no king)."""
        return self._board.king if self._board.king >= 0 else None

    @property
    def history(self) -> tuple[MoveResult, ...]:
        """Every move played so far, oldest first."""
        return tuple(self._history)

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self._history)

    @property
    def board(self) -> Board:
        """The fast board behind this game (for the AI: copy it before searching)."""
        return self._board

    def position_otn(self) -> str:
        """The current position as an OTN position record."""
        return format_position(self._board.cells, self.size)

    def repetitions(self) -> int:
        """How many times the current position (with the same side to move) has occurred; the
        game ends (see :attr:`repetition_ending`) when this reaches :data:`REPETITION_LIMIT`."""
        return self._seen[self._board.hash]

    def exit_fort(self) -> frozenset[Square]:
        """The squares of the exit fort that won the game: the king's square and the empty
        squares inside the wall (empty unless the game ended by an exit fort)."""
        if self.outcome is None or self.outcome.termination is not Termination.EXIT_FORT:
            return frozenset()
        return self._board.rules.exit_fort(self._board)

    @property
    def repetition_ending(self) -> Outcome:
        """How these rules end a game whose position occurs :data:`REPETITION_LIMIT` times:
        a draw, or (Copenhagen) a win for the attackers."""
        rules = self._board.rules
        return Outcome(rules.repetition_winner, rules.repetition)

    def men(self, side: Side) -> int:
        """How many of ``side``'s pieces, the king aside, stand on the board."""
        return self._board.cells.count(_MEN[side])

    def lost(self, side: Side) -> int:
        """How many of ``side``'s pieces, the king aside, have been captured since the start."""
        return self._start_men[side] - self.men(side)

    # ------------------------------------------------------------------ numbering

    def move_number(self, ply: int | None = None) -> MoveNumber:
        """The full-move number of the ``ply``-th move (1 is the first move played; by default
        the last move played), counted as game records count turns: see :class:`MoveNumber`."""
        return MoveNumber.of(self.ply if ply is None else ply, self.start_turn, self.variant.first)

    @property
    def full_moves(self) -> int:
        """How far the game has gone in full moves: the last move's number (0 before any)."""
        return self.move_number().number if self._history else 0

    def numbered_moves(self) -> list[str]:
        """The moves in OTN, one numbered turn per line: ``1. d1-d3 e3-f3``. A game whose first
        move was the second mover's starts ``1… e3-f3``."""
        lines: list[str] = []
        for ply, result in enumerate(self._history, start=1):
            number = self.move_number(ply)
            if lines and number.second:
                lines[-1] += f" {result.notation}"
            else:
                lines.append(f"{number} {result.notation}")
        return lines

    def copy(self) -> Game:
        """An independent game with the same start and moves."""
        clone = Game(self.variant, self.start_position, self.start_turn)
        for result in self._history:
            clone._apply(result.move)
        return clone

    # ------------------------------------------------------------------ moves

    def legal_moves(self, origin: Square | None = None) -> list[Move]:
        """Legal moves of the side to move, sorted (only those of ``origin`` if given)."""
        if self.outcome is not None:
            return []
        moves = [Move(m >> MOVE_SHIFT, m & TARGET_MASK) for m in self._board.moves()]
        if origin is not None:
            moves = [move for move in moves if move.origin == origin]
        moves.sort()
        return moves

    def captures_of(self, move: Move) -> tuple[Square, ...]:
        """The squares a legal ``move`` would capture, sorted, without playing it.

        Made and unmade on the fast board only, so the history and the repetition count stay
        untouched and it costs a fraction of :meth:`play` plus :meth:`undo` (menus label every
        move they list). ``move`` must be one of :meth:`legal_moves`.
        """
        board = self._board
        board.make(move.origin << MOVE_SHIFT | move.target)
        try:
            return tuple(sorted(board.last_captures))
        finally:
            board.unmake()

    def king_routes(self) -> tuple[Square, ...]:
        """The king's open routes: escape squares he could reach with one move."""
        return tuple(sorted(self._board.king_routes()))

    def king_threatened(self) -> bool:
        """Whether the attackers could capture the king with their next move."""
        return self._board.king_threatened()

    def parse_move(self, text: str) -> Move:
        """Read a move as people type it and check it is legal in this position.

        Accepts ``e1-e4``, ``e1e4``, ``e1 e4``, ``E1-E4``, ``e1 to e4``, full OTN records
        (``e1-e4xd4/f4-``) and a bare destination (``e4``) when exactly one legal move ends
        there. Errors quote ``text`` and say exactly why it cannot be played.
        """
        cleaned = text.strip().lower()
        if self.outcome is not None:
            raise self._over(text)
        canonical = _canonical_moves(self.size).get(cleaned)
        if canonical is not None:  # the stored "e1-e4" form: no pattern matching needed
            self._check(canonical, text)
            return canonical
        match = _MOVE_RE.fullmatch(cleaned)
        if match:
            origin = self._square(match.group(1) + match.group(2), text)
            target = self._square(match.group(3) + match.group(4), text)
            move = Move(origin, target)
            self._check(move, text)
            return move
        bare = _BARE_RE.fullmatch(cleaned)
        if bare:
            target = self._square(bare.group(1) + bare.group(2), text)
            candidates = [move for move in self.legal_moves() if move.target == target]
            if len(candidates) == 1:
                return candidates[0]
            name = square_name(target, self.size)
            if not candidates:
                raise because(
                    IllegalMoveError(
                        f"{text!r}: none of the {self.turn.value}' pieces can move to {name}"
                    ),
                    "none can reach",
                    move=text,
                    side=self.turn.value,
                    square=name,
                )
            options = ", ".join(move.text(self.size) for move in candidates)
            raise because(
                AmbiguousMoveError(
                    f"{text!r}: {len(candidates)} pieces can move to {name} ({options}); "
                    "say which, e.g. " + candidates[0].text(self.size)
                ),
                "ambiguous",
                move=text,
                count=len(candidates),
                square=name,
                options=options,
                example=candidates[0].text(self.size),
            )
        raise because(
            MoveParseError(
                f"{text!r} is not a move: write it like 'e1-e4' (from a square to a square)"
            ),
            "not a move",
            move=text,
        )

    def play(self, move: str | Move) -> MoveResult:
        """Play a move given as text or as a :class:`Move`; returns what it did."""
        if isinstance(move, str):
            parsed = self.parse_move(move)
        else:
            if self.outcome is not None:
                raise self._over(move.text(self.size))
            self._check(move, move.text(self.size))
            parsed = move
        return self._apply(parsed)

    def play_all(self, moves: Iterable[str]) -> None:
        """Play ``moves`` in order, exactly as calling :meth:`play` on each would: the same
        history, position, repetitions and outcome, and the first move that cannot be played
        raises the same error, with the moves before it played.

        Where the fast core is built, moves written as the engine writes them (``e1-e4``, as
        storage keeps them) are made on its C board, and the Python board then takes over the
        position and its undo history: restoring a stored game (the bot's start-up restores
        every active game) costs a fraction of playing each move on the Python board.
        """
        pending = iter(moves)
        if core.extension() is not None:
            fast = core.ReplayBoard(self._board)
            try:
                refused = self._play_on(fast, pending)
            finally:
                self._board = fast.to_board()
            if refused is None:
                return
            self.play(refused)  # written otherwise, or illegal: the Python board says why
        for text in pending:
            self.play(text)

    def _play_on(self, board: core.ReplayBoard, moves: Iterable[str]) -> str | None:
        """Play ``moves`` on the fast core's board up to the first one it cannot take (written
        other than ``e1-e4``, or not to be played), which is returned (``None``: all played)."""
        canonical = _canonical_moves(self.size)
        for text in moves:
            move = canonical.get(text)
            if (
                move is None
                or self.outcome is not None
                or not board.is_legal(move.origin << MOVE_SHIFT | move.target)
            ):
                return text
            self._apply(move, board)
        return None

    def undo(self) -> MoveResult:
        """Take back the last move (for takebacks); returns the move taken back."""
        if not self._history:
            raise TaflError("there is no move to take back")
        self._seen[self._board.hash] -= 1
        self._board.unmake()
        self.outcome = self._outcomes.pop()
        return self._history.pop()

    # ------------------------------------------------------------------ internals

    def _apply(self, move: Move, board: _Playing | None = None) -> MoveResult:
        """Make a legal ``move`` on ``board`` (the game's own by default) and record it."""
        if board is None:
            board = self._board
        mover = _INDEX_SIDE[board.turn]
        status = board.make(move.origin << MOVE_SHIFT | move.target)
        captures = tuple(sorted(board.last_captures))
        self._seen[board.hash] += 1
        previous = self.outcome
        outcome: Outcome | None = None
        if status is not None:
            outcome = Outcome(mover, status)  # the move that ends the game wins it
        else:
            outcome = self._judge_no_move(board)
            if outcome is None and self._seen[board.hash] >= self.variant.repetition_limit:
                outcome = self.repetition_ending
                if self.variant.repetition_mover_loses:
                    outcome = Outcome(mover.other, outcome.termination)
        king_captured = status in KING_TAKEN
        # Once the king is out or taken, "open routes" would only confuse an announcement.
        routes: tuple[Square, ...] = ()
        if not king_captured and status is not Termination.KING_ESCAPED:
            routes = tuple(sorted(board.king_routes()))
        threatened = outcome is None and board.king_threatened()
        notation = move.text(self.size)
        if captures:
            notation += "x" + "/".join(square_name(sq, self.size) for sq in captures)
        if status is Termination.KING_ESCAPED:
            notation += "--"
        elif king_captured:
            notation += "++"
        elif threatened:
            notation += "+"
        elif routes:
            notation += "-"
        result = MoveResult(
            move=move,
            side=mover,
            captures=captures,
            king_captured=king_captured,
            routes=routes,
            king_threatened=threatened,
            outcome=outcome,
            notation=notation,
        )
        self._outcomes.append(previous)
        self._history.append(result)
        self.outcome = outcome
        return result

    def _judge_no_move(self, board: _Playing | None = None) -> Outcome | None:
        """The side to move loses when it has no legal move (a stalemate counts as surrounded)."""
        if board is None:
            board = self._board
        if board.status is None and not board.has_moves():
            return Outcome(_INDEX_SIDE[board.turn].other, Termination.NO_LEGAL_MOVE)
        return None

    def _over(self, text: str) -> GameOverError:
        """The error for a move ``text`` tried once the game is over."""
        outcome = self.outcome
        assert outcome is not None
        ending = outcome.termination.value
        if outcome.winner is None:
            error = GameOverError(f"{text!r}: the game is over (drawn by {ending})")
            return because(error, "game drawn", move=text, ending=ending)
        side = outcome.winner.value
        error = GameOverError(f"{text!r}: the game is over (the {side} won: {ending})")
        return because(error, "game won", move=text, side=side, ending=ending)

    def _square(self, name: str, text: str) -> Square:
        try:
            return parse_square(name, self.size)
        except MoveParseError as error:
            raise because(
                MoveParseError(f"{text!r}: {error}"),
                f"move: {error.kind}",
                move=text,
                **dict(error.values),
            ) from None

    def _check(self, move: Move, text: str) -> None:
        """Raise an :class:`IllegalMoveError` naming the exact reason ``move`` is illegal."""
        if self.outcome is not None:
            raise self._over(text)
        area = self.size**2
        if not (0 <= move.origin < area and 0 <= move.target < area):
            raise because(
                IllegalMoveError(f"{text!r}: that square is off the board"),
                "off the board",
                move=text,
            )
        if self._board.is_legal(move.origin << MOVE_SHIFT | move.target):
            return  # the reasons below are only worked out for illegal moves
        board = self._board
        cells = board.cells
        name = square_name
        n = self.size
        origin_name = name(move.origin, n)
        target_name = name(move.target, n)
        piece = cells[move.origin]
        if piece == EMPTY:
            raise because(
                IllegalMoveError(f"{text!r}: there is no piece on {origin_name}"),
                "no piece",
                move=text,
                square=origin_name,
            )
        if Piece(piece).side is not self.turn:
            raise because(
                IllegalMoveError(
                    f"{text!r}: the piece on {origin_name} belongs to the "
                    f"{self.turn.other.value}; it is the {self.turn.value}' turn"
                ),
                "not yours",
                move=text,
                square=origin_name,
                other=self.turn.other.value,
                side=self.turn.value,
            )
        if move.origin == move.target:
            raise because(
                IllegalMoveError(f"{text!r}: the piece must move to another square"),
                "same square",
                move=text,
            )
        (r1, f1), (r2, f2) = divmod(move.origin, n), divmod(move.target, n)
        if r1 != r2 and f1 != f2:
            raise because(
                IllegalMoveError(
                    f"{text!r}: pieces move along a rank or a file, like a rook; "
                    f"{origin_name} and {target_name} share neither"
                ),
                "not straight",
                move=text,
                origin=origin_name,
                target=target_name,
            )
        step = (1 if f2 > f1 else -1) if r1 == r2 else (n if r2 > r1 else -n)
        variant = self.variant
        throne = variant.throne
        corners = variant.corners
        origin_camp = next((g for g in variant.camp_groups if move.origin in g), None)
        is_king = piece == KING
        sq = move.origin
        while sq != move.target:
            sq += step
            here = name(sq, n)
            if cells[sq] != EMPTY:
                raise because(
                    IllegalMoveError(f"{text!r}: {here} blocks the path"),
                    "blocked",
                    move=text,
                    square=here,
                )
            arriving = sq == move.target
            if sq == throne:
                if is_king and board.tables.king_barred[sq]:
                    raise because(
                        IllegalMoveError(
                            f"{text!r}: the king may not return to the throne ({here}) in "
                            f"{variant.title}"
                        ),
                        "throne barred",
                        move=text,
                        square=here,
                        rules=variant.title,
                    )
                if not is_king:
                    if arriving:
                        raise because(
                            IllegalMoveError(
                                f"{text!r}: only the king may stop on the throne ({here})"
                            ),
                            "throne stop",
                            move=text,
                            square=here,
                        )
                    if not variant.throne_passable:
                        raise because(
                            IllegalMoveError(
                                f"{text!r}: only the king may pass through the throne ({here})"
                            ),
                            "throne pass",
                            move=text,
                            square=here,
                        )
            if sq in corners and not is_king:
                raise because(
                    IllegalMoveError(f"{text!r}: only the king may enter a corner ({here})"),
                    "corner",
                    move=text,
                    square=here,
                )
            camp = next((g for g in variant.camp_groups if sq in g), None)
            if camp is not None and camp is not origin_camp:
                if is_king or piece != int(Piece.ATTACKER):
                    raise because(
                        IllegalMoveError(
                            f"{text!r}: {here} is an attackers' camp; defenders never enter camps"
                        ),
                        "camp for attackers",
                        move=text,
                        square=here,
                    )
                if origin_camp is None:
                    raise because(
                        IllegalMoveError(
                            f"{text!r}: {here} is a camp; an attacker that has left its camp "
                            "may not enter one again"
                        ),
                        "camp left",
                        move=text,
                        square=here,
                    )
                raise because(
                    IllegalMoveError(
                        f"{text!r}: {here} belongs to another camp; no piece may cross from one "
                        "camp to another"
                    ),
                    "other camp",
                    move=text,
                    square=here,
                )
        raise because(
            IllegalMoveError(f"{text!r} is not a legal move here"), "not legal", move=text
        )

    # ------------------------------------------------------------------ records

    def to_record(
        self, tags: dict[str, str] | None = None, comments: Mapping[int, str] | None = None
    ) -> str:
        """The game as an OTN game record: tags, rules, start position, numbered moves.

        ``comments`` maps a ply (1 for the first move) to a remark on that move, written as
        OpenTafl writes its commented records: after each turn's line, a line in brackets with
        the remarks on the turn's moves separated by ``|`` (``[d4-d8 lets the king out|]``).
        """
        all_tags = {"variant": self.variant.name}
        if self.outcome is not None:
            all_tags["result"] = {None: "0", Side.ATTACKERS: "1", Side.DEFENDERS: "-1"}[
                self.outcome.winner
            ]
            all_tags["termination"] = self.outcome.termination.value
        all_tags.update(tags or {})
        if self.start_turn is not self.variant.first:
            all_tags["turn"] = self.start_turn.value
        lines = [f"[{key}:{value.replace(']', ')')}]" for key, value in all_tags.items()]
        lines.append(self.variant.otn_rules())
        if self.start_position != format_position(
            parse_position(self.variant.start, self.size), self.size
        ):
            lines.append(self.start_position)
        remarks = {ply: _comment_text(text) for ply, text in (comments or {}).items() if text}
        if not remarks:
            lines.extend(self.numbered_moves())
            return "\n".join(lines) + "\n"
        turn: list[int] = []
        for ply in range(1, len(self._history) + 1):
            if turn and not self.move_number(ply).second:
                lines.extend(self._commented_turn(turn, remarks))
                turn = []
            turn.append(ply)
        if turn:
            lines.extend(self._commented_turn(turn, remarks))
        return "\n".join(lines) + "\n"

    def _commented_turn(self, plies: list[int], remarks: Mapping[int, str]) -> list[str]:
        number = self.move_number(plies[0])
        line = f"{number} " + " ".join(self._history[ply - 1].notation for ply in plies)
        if not any(ply in remarks for ply in plies):
            return [line]
        return [line, "[" + "|".join(remarks.get(ply, "") for ply in plies) + "]"]

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Rebuild a game from an OTN game record written by :meth:`to_record`.

        The variant comes from the ``[variant:...]`` tag; every move is replayed and checked.
        """
        tags: dict[str, str] = {}
        position: str | None = None
        moves: list[str] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if moves and line.startswith("["):
                continue  # the remarks on the turn above (tags come before the moves)
            tag = re.fullmatch(r"\[([^:\]]+):(.*)\]", line)
            if tag:
                tags[tag.group(1).strip().lower()] = tag.group(2).strip()
            elif line.startswith("dim:"):
                continue
            elif line.startswith("/"):
                position = line
            else:
                turn = _TURN_RE.fullmatch(line)
                if not turn:
                    raise TaflError(f"record line {number} ({line!r}) is not a tag, rules or turn")
                moves.extend(word for word in turn.group(1).split() if word not in _SKIPPED)
        if "variant" not in tags:
            raise TaflError("the record has no [variant:...] tag, so its rules are unknown")
        turn_tag = tags.get("turn")
        game = cls(tags["variant"], position, Side.parse(turn_tag) if turn_tag else None)
        for index, move in enumerate(moves, start=1):
            try:
                game.play(move)
            except TaflError as error:
                raise TaflError(f"record move {index}: {error}") from None
        return game


def _comment_text(text: str) -> str:
    """A remark fit for a bracketed comment line: one line, no brackets or bars."""
    return " ".join(text.replace("[", "(").replace("]", ")").replace("|", "/").split())
