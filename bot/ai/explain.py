"""What a move did or could have done, read off the rules engine, as data: a :data:`Reason`.

The post-game review (:mod:`bot.ai.analysis`) decides *which* moves matter from the search's
scores; this module proves *why* on the board: it plays the moves that end the game at once
(an escape, a king capture, an exit fort...), the opponent's answer to a move, or every reply to
a move that claims to win in two, and turns what the engine reports (the termination, the
king's square, his open routes, the captures) into a reason: its kind, the moves and squares it
is about, the sides and the figures. Nothing here can say more than the board shows.

Reasons are worded where they are shown: the bot's review in its composition, a game record's
remarks by :func:`describe` (a file's data, in English).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import UnionType
from typing import Union, cast, get_args, get_type_hints

from bot.engine.board import ATTACKERS, Board
from bot.engine.tables import TARGET_MASK
from bot.engine.types import Outcome, Side, Termination, square_name

from .player import move_text

_SIDES = (Side.ATTACKERS, Side.DEFENDERS)


# ---------------------------------------------------------------------------- reasons


@dataclass(frozen=True)
class MissedFinish:
    """``move`` would have ended the game at once (``ending``) in the mover's favour;
    ``opponent`` is the side it would have beaten."""

    move: str
    ending: Termination
    opponent: Side


@dataclass(frozen=True)
class Allowed:
    """``played`` let the opponent end the game at once with ``answer`` (``ending``; an escape
    to ``target``). ``standing``: the threat was there before the move, which left it open.
    ``mover``: who played ``played``."""

    played: str
    answer: str
    ending: Termination
    target: str
    mover: Side
    standing: bool = False


@dataclass(frozen=True)
class MissedDefence:
    """``threat`` was left standing although ``defence`` would have met it."""

    threat: Allowed
    defence: str


@dataclass(frozen=True)
class Repeated:
    """``played`` repeated the position a third time: a draw (``winner`` ``None``), or a loss
    for its mover where repetition loses."""

    played: str
    winner: Side | None


@dataclass(frozen=True)
class OpenedRoads:
    """``played`` would have opened the king's roads to ``squares`` (one, or two that one move
    cannot close)."""

    played: str
    squares: tuple[str, ...]


@dataclass(frozen=True)
class ForcedWin:
    """``played`` would have won by force within two moves; with ``reply`` (the opponent's
    answer, ``opponent``) and ``finisher``, the move that then ends it (``ending``), when one
    is shown."""

    played: str
    opponent: Side | None = None
    reply: str | None = None
    finisher: str | None = None
    ending: Termination | None = None


@dataclass(frozen=True)
class Captures:
    """The opponent's answer ``answer`` captures ``count`` of ``owner``'s pieces on
    ``squares``."""

    answer: str
    count: int
    owner: Side
    squares: tuple[str, ...]


@dataclass(frozen=True)
class OpensRoads:
    """The answer ``answer`` opens the king's roads to ``squares``."""

    answer: str
    squares: tuple[str, ...]


Effect = Captures | OpensRoads
"""What the opponent's best answer does that a player sees at once."""


@dataclass(frozen=True)
class ForNothing:
    """``played`` loses ``count`` of ``owner``'s pieces on ``squares`` to ``answer``, and
    nothing is captured back."""

    played: str
    count: int
    owner: Side
    squares: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class SlippedWin:
    """``played`` let a forced win slip: ``better`` would have won within ``moves`` moves."""

    played: str
    better: str
    moves: int


@dataclass(frozen=True)
class LostByForce:
    """After ``played``, ``opponent`` wins by force: its answer ``answer`` (doing ``effect``,
    when it shows). ``standing``: the forced win was there before the move, which did not stop
    it."""

    played: str
    opponent: Side
    answer: str | None
    effect: Effect | None = None
    standing: bool = False


@dataclass(frozen=True)
class KingGoes:
    """The answer moves the king to ``target``."""

    target: str


@dataclass(frozen=True)
class Plays:
    """The opponent (``side``) answers ``answer``."""

    side: Side
    answer: str


@dataclass(frozen=True)
class ChancesFell:
    """After ``played``, ``mover``'s winning chances fell from ``before`` to ``after`` (0..1);
    ``cause``: what the answer does (pieces lost for nothing, a capture or roads, the king's
    move, the opponent's move), when known."""

    played: str
    mover: Side
    before: float
    after: float
    cause: ForNothing | Effect | KingGoes | Plays | None = None


Reason = (
    MissedFinish
    | Allowed
    | MissedDefence
    | Repeated
    | OpenedRoads
    | ForcedWin
    | ForNothing
    | SlippedWin
    | LostByForce
    | ChancesFell
)
"""Why a move was a moment of the review, as data."""

_KINDS: dict[str, type] = {
    kind.__name__: kind
    for kind in (
        MissedFinish,
        Allowed,
        MissedDefence,
        Repeated,
        OpenedRoads,
        ForcedWin,
        Captures,
        OpensRoads,
        ForNothing,
        SlippedWin,
        LostByForce,
        KingGoes,
        Plays,
        ChancesFell,
    )
}


def to_data(reason: object) -> dict[str, object]:
    """A reason (or a part of one) as JSON-ready data, its kind named (see :func:`from_data`)."""
    data: dict[str, object] = {"kind": type(reason).__name__}
    assert type(reason).__name__ in _KINDS, reason
    for item in fields(cast(Reason, reason)):
        value = getattr(reason, item.name)
        if type(value).__name__ in _KINDS:
            value = to_data(value)
        elif isinstance(value, Side | Termination):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        data[item.name] = value
    return data


def from_data(data: Mapping[str, object]) -> Reason:
    """The reason :func:`to_data` wrote."""
    return cast(Reason, _part(data))


def _part(data: Mapping[str, object]) -> object:
    kind = _KINDS[str(data["kind"])]
    hints = get_type_hints(kind)
    values = {
        item.name: _read(hints[item.name], data[item.name])
        for item in fields(kind)
        if item.name in data
    }
    return kind(**values)


def _read(hint: object, value: object) -> object:
    """A field's value as :func:`to_data` wrote it, read back as the field's type says."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return _part(value)
    if isinstance(value, list):
        return tuple(value)
    union = isinstance(hint, UnionType) or getattr(hint, "__origin__", None) is Union
    types = get_args(hint) if union else (hint,)
    for enum in (Side, Termination):
        if enum in types:
            return enum(str(value))
    return value


@dataclass(frozen=True)
class Finish:
    """A move that ends the game at once in favour of the side that makes it."""

    move: int
    """The engine's move int (``origin << 9 | target``)."""
    termination: Termination


def copy_board(board: Board) -> Board:
    """A fresh board with the same position and side to move (no move stack)."""
    return Board(board.variant, list(board.cells), board.turn)


def finishes(board: Board) -> list[Finish]:
    """The side to move's moves that end the game at once in its favour.

    Every legal move is played and taken back: the board's status names the rules' endings
    (escape, king or group captured, Tuichi, exit fort, encirclement), and a move that leaves
    the opponent without a legal move wins too. Repetitions are not counted: they depend on
    the game's history, not on the position.
    """
    found = []
    for move in board.moves():
        status = board.make(move)
        if status is None and not board.has_moves():
            status = Termination.NO_LEGAL_MOVE
        if status is not None:
            found.append(Finish(move, status))
        board.unmake()
    return found


def threats(board: Board) -> list[Finish]:
    """The moves that would end the game at once for the side *not* to move, if it could move
    now: the Raichi or Tuichi the attackers must answer, the capture the king must avoid."""
    return finishes(Board(board.variant, list(board.cells), board.turn ^ 1))


def wins_in_two(board: Board, move: int) -> bool:
    """Whether ``move`` wins by force within the mover's next move: whatever the opponent
    answers (and it must not win itself), the mover then has a move that ends the game.

    ``move`` itself must not end the game (that is a win in one).
    """
    if board.make(move) is not None:
        board.unmake()
        return False
    try:
        replies = board.moves()
        if not replies:
            return True
        for reply in replies:
            status = board.make(reply)
            try:
                if status is not None or not _has_finish(board):
                    return False
            finally:
                board.unmake()
        return True
    finally:
        board.unmake()


def _has_finish(board: Board) -> bool:
    """Whether the side to move has a move that ends the game at once (the cheap tactics
    first: the king's open routes, the king's capture; then every move)."""
    if board.turn == ATTACKERS:
        if board.king_capturing_moves():
            return True
    elif board.king_routes():
        return True
    return bool(finishes(board))


def mover_of(board: Board) -> Side:
    """The side to move on ``board``."""
    return _SIDES[board.turn]


def _names(squares: list[int] | tuple[int, ...], size: int) -> tuple[str, ...]:
    """The squares' names, in board order."""
    return tuple(square_name(sq, size) for sq in sorted(squares))


def would_have(board: Board, finish: Finish) -> MissedFinish:
    """What a missed finishing move would have done (``e5-e9`` was an escape for the king)."""
    move = move_text(finish.move, board.variant.size)
    return MissedFinish(move, finish.termination, _SIDES[board.turn ^ 1])


def lets(board_after: Board, played: str, finish: Finish, *, standing: bool = False) -> Allowed:
    """What a move allowed, ``finish`` being the opponent's winning answer on ``board_after``
    (the position after the move): ``d4-d8`` lets the king reach c9. ``standing``: the threat
    was there before the move (it was left open)."""
    size = board_after.variant.size
    return Allowed(
        played,
        move_text(finish.move, size),
        finish.termination,
        square_name(finish.move & TARGET_MASK, size),
        _SIDES[board_after.turn ^ 1],
        standing,
    )


def repeats(played: str, outcome: Outcome) -> Repeated:
    """A move that ended the game by repeating the position."""
    return Repeated(played, outcome.winner)


def forced_two(board: Board, move: int, line: tuple[str, ...]) -> OpenedRoads | ForcedWin:
    """Why ``move`` (proved by :func:`wins_in_two`) wins by force.

    The king's side names the roads the move opens; otherwise one answer and the finishing
    move are shown (``line`` is the search's continuation after ``move``, if any).
    """
    size = board.variant.size
    played = move_text(move, size)
    board.make(move)
    try:
        routes = board.king_routes() if board.turn == ATTACKERS else []
        if routes:
            return OpenedRoads(played, _names(routes, size))
        reply = _reply(board, line)
        if reply is None:
            return ForcedWin(played)
        board.make(reply)
        try:
            found = finishes(board)
        finally:
            board.unmake()
        if not found:
            return ForcedWin(played)
        ending = found[0]
        return ForcedWin(
            played,
            _SIDES[board.turn],
            move_text(reply, size),
            move_text(ending.move, size),
            ending.termination,
        )
    finally:
        board.unmake()


def _reply(board: Board, line: tuple[str, ...]) -> int | None:
    """The answer to show: the search's own if it is legal here, else the first legal one."""
    moves = board.moves()
    size = board.variant.size
    for move in moves:
        if line and move_text(move, size) == line[0]:
            return move
    return moves[0] if moves else None


def answer_effect(board_after: Board, reply: int) -> Effect | None:
    """What the opponent's best answer does that a player sees at once: the pieces it captures
    or the roads it opens for the king (``None`` when it is a quiet move)."""
    size = board_after.variant.size
    board_after.make(reply)
    try:
        captured = board_after.last_captures
        routes = board_after.king_routes() if board_after.turn == ATTACKERS else []
    finally:
        board_after.unmake()
    answer = move_text(reply, size)
    if captured:
        # The reply's side takes the other side's pieces.
        owner = _SIDES[board_after.turn ^ 1]
        return Captures(answer, len(captured), owner, _names(captured, size))
    if routes:
        return OpensRoads(answer, _names(routes, size))
    return None


def loses_for_nothing(board_after: Board, played: str, line: tuple[int, ...]) -> ForNothing | None:
    """``d4-d5`` loses the defender on c5 to ``e5-c5`` for nothing: when the opponent's answer
    (the first move of ``line``, the line after ``played``) captures the mover's pieces and the
    mover's best move after it (the second) captures nothing back (``None`` otherwise)."""
    if len(line) < 2:
        return None  # without the mover's answer, nothing says it was for nothing
    size = board_after.variant.size
    mover = _SIDES[board_after.turn ^ 1]
    board_after.make(line[0])
    try:
        captured = list(board_after.last_captures)
        if not captured or board_after.status is not None:
            return None  # nothing taken, or the answer ended the game (said otherwise)
        board_after.make(line[1])
        try:
            if board_after.last_captures:
                return None  # an exchange, not a loss
        finally:
            board_after.unmake()
    finally:
        board_after.unmake()
    answer = move_text(line[0], size)
    return ForNothing(played, len(captured), mover, _names(captured, size), answer)


# ---------------------------------------------------------------------------- a record's words
# A game record's remarks (OTN comments) are a file's data, written in English whatever the
# reader's language; the bot's review words the same reasons in its composition.


def _listed(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _pieces(count: int, owner: Side) -> str:
    piece = "attacker" if owner is Side.ATTACKERS else "defender"
    return f"the {piece}" if count == 1 else f"{count} {piece}s"


def _effect(effect: Effect) -> str:
    if isinstance(effect, Captures):
        taken = _pieces(effect.count, effect.owner)
        return f"{effect.answer}, capturing {taken} on {_listed(effect.squares)}"
    if len(effect.squares) >= 2:
        return f"{effect.answer}, opening two roads for the king ({_listed(effect.squares)})"
    return f"{effect.answer}, opening a road for the king to {_listed(effect.squares)}"


def _allowed(reason: Allowed) -> str:
    played, answer, ending = reason.played, reason.answer, reason.ending
    if reason.standing:
        if ending is Termination.KING_ESCAPED:
            return f"{played} leaves the king's road to {reason.target} open"
        if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            return f"{played} leaves the king to be captured by {answer}"
    if ending is Termination.KING_ESCAPED:
        return f"{played} lets the king reach {reason.target}"
    if ending is Termination.KING_CAPTURED:
        return f"{played} lets the attackers capture the king with {answer}"
    if ending is Termination.GROUP_CAPTURED:
        return f"{played} lets the attackers capture the king's whole group with {answer}"
    if ending is Termination.TUICHI:
        return f"{played} lets the king open two roads with {answer} (Tuichi)"
    if ending is Termination.EXIT_FORT:
        return f"{played} lets the king close an exit fort with {answer}"
    if ending is Termination.ENCIRCLEMENT:
        return f"{played} lets the attackers complete the encirclement with {answer}"
    if ending is Termination.NO_LEGAL_MOVE:
        return f"{played} lets {answer} leave the {reason.mover.value} without a legal move"
    return f"{played} lets {answer} win at once ({ending.value})"


_FINISHED = {
    Termination.KING_ESCAPED: "escapes",
    Termination.KING_CAPTURED: "captures the king",
    Termination.GROUP_CAPTURED: "captures the king's group",
    Termination.TUICHI: "opens two roads (Tuichi)",
    Termination.EXIT_FORT: "closes an exit fort",
    Termination.ENCIRCLEMENT: "completes the encirclement",
    Termination.NO_LEGAL_MOVE: "leaves no legal move",
}


def describe(reason: Reason) -> str:
    """A reason in plain English, as a game record's remark: ``d4-d8 lets the king reach c9``."""
    if isinstance(reason, MissedFinish):
        move, ending = reason.move, reason.ending
        if ending is Termination.KING_ESCAPED:
            return f"{move} was an escape for the king"
        if ending is Termination.KING_CAPTURED:
            return f"{move} would have captured the king"
        if ending is Termination.GROUP_CAPTURED:
            return f"{move} would have captured the king and his last defenders"
        if ending is Termination.TUICHI:
            return f"{move} would have given the king two open roads (Tuichi), which wins here"
        if ending is Termination.EXIT_FORT:
            return f"{move} would have closed an exit fort round the king"
        if ending is Termination.ENCIRCLEMENT:
            return f"{move} would have completed the encirclement of the defenders"
        if ending is Termination.NO_LEGAL_MOVE:
            return f"{move} would have left the {reason.opponent.value} without a legal move"
        return f"{move} would have won at once ({ending.value})"
    if isinstance(reason, Allowed):
        return _allowed(reason)
    if isinstance(reason, MissedDefence):
        ending = reason.threat.ending
        if ending is Termination.KING_ESCAPED:
            closes = "would have closed it"
        elif ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            closes = "would have saved him"
        else:
            closes = "would have stopped it"
        return f"{_allowed(reason.threat)}; {reason.defence} {closes}"
    if isinstance(reason, Repeated):
        if reason.winner is None:
            return f"{reason.played} repeats the position a third time: a draw"
        return (
            f"{reason.played} repeats the position a third time, which loses for the "
            f"{reason.winner.other.value} here"
        )
    if isinstance(reason, OpenedRoads):
        if len(reason.squares) >= 2:
            return (
                f"{reason.played} would have opened two roads for the king "
                f"({_listed(reason.squares)}): one move cannot close both"
            )
        return (
            f"{reason.played} would have opened a road to {_listed(reason.squares)} "
            "that the attackers could not close"
        )
    if isinstance(reason, ForcedWin):
        if reason.opponent is None or reason.ending is None:
            return f"{reason.played} would have won by force within two moves"
        result = _FINISHED.get(reason.ending, f"wins ({reason.ending.value})")
        return (
            f"{reason.played} would have won by force: whatever the {reason.opponent.value} "
            f"answer (say {reason.reply}), {reason.finisher} {result}"
        )
    if isinstance(reason, ForNothing):
        taken = _pieces(reason.count, reason.owner)
        return (
            f"{reason.played} loses {taken} on {_listed(reason.squares)} to {reason.answer} "
            "for nothing"
        )
    if isinstance(reason, SlippedWin):
        return (
            f"{reason.played} lets a forced win slip: {reason.better} would have won within "
            f"{reason.moves} moves"
        )
    if isinstance(reason, LostByForce):
        played, opponent = reason.played, reason.opponent.value
        if reason.effect is not None:
            verb = "does not stop" if reason.standing else "allows"
            return f"{played} {verb} {_effect(reason.effect)}, and the {opponent} win by force"
        start = f"starting with {reason.answer}"
        if reason.standing:
            return f"{played} does not stop the {opponent}' forced win, {start}"
        return f"{played} allows a forced win for the {opponent}, {start}"
    fall = f"the {reason.mover.value}' chances fall from {reason.before:.0%} to {reason.after:.0%}"
    cause, played = reason.cause, reason.played
    if isinstance(cause, ForNothing):
        return f"{describe(cause)}: {fall}"
    if isinstance(cause, Captures | OpensRoads):
        return f"{played} allows {_effect(cause)}: {fall}"
    if isinstance(cause, KingGoes):
        return f"{played} lets the king go to {cause.target}: {fall}"
    if isinstance(cause, Plays):
        return f"{played} lets the {cause.side.value} play {cause.answer}: {fall}"
    return f"after {played} {fall}"
