"""What a move did or could have done, read off the rules engine and said in a player's words.

The post-game review (:mod:`bot.ai.analysis`) decides *which* moves matter from the search's
scores; this module proves *why* on the board: it plays the moves that end the game at once
(an escape, a king capture, an exit fort...), the opponent's answer to a move, or every reply to
a move that claims to win in two, and turns what the engine reports (the termination, the
king's square, his open routes, the captures) into a sentence. Nothing here is a template that
could say more than the board shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.board import ATTACKERS, Board
from bot.engine.tables import TARGET_MASK
from bot.engine.types import Outcome, Side, Termination, square_name

from .player import move_text

_SIDES = (Side.ATTACKERS, Side.DEFENDERS)


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


def _squares(squares: list[int] | tuple[int, ...], size: int) -> str:
    names = [square_name(sq, size) for sq in sorted(squares)]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _pieces(count: int, owner: Side) -> str:
    """``the attacker`` / ``2 defenders``: whose pieces a capture takes, as players say it."""
    piece = "attacker" if owner is Side.ATTACKERS else "defender"
    return f"the {piece}" if count == 1 else f"{count} {piece}s"


def would_have(board: Board, finish: Finish) -> str:
    """What a missed finishing move would have done: ``e5-e9 was an escape for the king``."""
    size = board.variant.size
    move = move_text(finish.move, size)
    opponent = _SIDES[board.turn ^ 1].value
    ending = finish.termination
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
        return f"{move} would have left the {opponent} without a legal move"
    return f"{move} would have won at once ({ending.value})"


def lets(board_after: Board, played: str, finish: Finish) -> str:
    """What a move allowed, ``finish`` being the opponent's winning answer on
    ``board_after`` (the position after the move): ``d4-d8 lets the king reach c9``."""
    size = board_after.variant.size
    answer = move_text(finish.move, size)
    mover = _SIDES[board_after.turn ^ 1].value
    ending = finish.termination
    if ending is Termination.KING_ESCAPED:
        return f"{played} lets the king reach {square_name(finish.move & TARGET_MASK, size)}"
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
        return f"{played} lets {answer} leave the {mover} without a legal move"
    return f"{played} lets {answer} win at once ({ending.value})"


def left_open(board_after: Board, played: str, finish: Finish) -> str:
    """A threat that was not answered: ``e2-e4 leaves the king's road to e9 open``."""
    size = board_after.variant.size
    answer = move_text(finish.move, size)
    ending = finish.termination
    if ending is Termination.KING_ESCAPED:
        target = square_name(finish.move & TARGET_MASK, size)
        return f"{played} leaves the king's road to {target} open"
    if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return f"{played} leaves the king to be captured by {answer}"
    return lets(board_after, played, finish)


def closes(finish: Finish) -> str:
    """The end of a missed defence's sentence: what the better move would have stopped."""
    if finish.termination is Termination.KING_ESCAPED:
        return "would have closed it"
    if finish.termination in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return "would have saved him"
    return "would have stopped it"


def repeats(played: str, outcome: Outcome) -> str:
    """A move that ended the game by repeating the position: ``e2-e4 repeats the position a
    third time: a draw``."""
    if outcome.winner is None:
        return f"{played} repeats the position a third time: a draw"
    return (
        f"{played} repeats the position a third time, which loses for the "
        f"{outcome.winner.other.value} here"
    )


def forced_two(board: Board, move: int, line: tuple[str, ...]) -> str:
    """Why ``move`` (proved by :func:`wins_in_two`) wins by force, in words.

    The king's side names the roads the move opens; otherwise the sentence shows one answer
    and the finishing move (``line`` is the search's continuation after ``move``, if any).
    """
    size = board.variant.size
    played = move_text(move, size)
    board.make(move)
    try:
        routes = board.king_routes() if board.turn == ATTACKERS else []
        if len(routes) >= 2:
            return (
                f"{played} would have opened two roads for the king "
                f"({_squares(routes, size)}): one move cannot close both"
            )
        if len(routes) == 1:
            return (
                f"{played} would have opened a road to {_squares(routes, size)} "
                "that the attackers could not close"
            )
        reply = _reply(board, line)
        if reply is None:
            return f"{played} would have won by force within two moves"
        board.make(reply)
        try:
            found = finishes(board)
        finally:
            board.unmake()
        if not found:
            return f"{played} would have won by force within two moves"
        ending = found[0]
        finisher = move_text(ending.move, size)
        opponent = _SIDES[board.turn].value
        result = _ending_words(ending.termination)
        return (
            f"{played} would have won by force: whatever the {opponent} answer "
            f"(say {move_text(reply, size)}), {finisher} {result}"
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


def _ending_words(ending: Termination) -> str:
    return {
        Termination.KING_ESCAPED: "escapes",
        Termination.KING_CAPTURED: "captures the king",
        Termination.GROUP_CAPTURED: "captures the king's group",
        Termination.TUICHI: "opens two roads (Tuichi)",
        Termination.EXIT_FORT: "closes an exit fort",
        Termination.ENCIRCLEMENT: "completes the encirclement",
        Termination.NO_LEGAL_MOVE: "leaves no legal move",
    }.get(ending, f"wins ({ending.value})")


def answer_effect(board_after: Board, reply: int) -> str | None:
    """What the opponent's best answer does that a player sees at once, as "the move, doing
    what": the pieces it captures or the roads it opens for the king (``None`` when it is a
    quiet move)."""
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
        taken = _pieces(len(captured), owner)
        return f"{answer}, capturing {taken} on {_squares(captured, size)}"
    if len(routes) >= 2:
        return f"{answer}, opening two roads for the king ({_squares(routes, size)})"
    if routes:
        return f"{answer}, opening a road for the king to {_squares(routes, size)}"
    return None


def loses_for_nothing(board_after: Board, played: str, line: tuple[int, ...]) -> str | None:
    """``d4-d5 loses the defender on c5 to e5-c5 for nothing``: when the opponent's answer (the
    first move of ``line``, the line after ``played``) captures the mover's pieces and the
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
    taken = _pieces(len(captured), mover)
    answer = move_text(line[0], size)
    return f"{played} loses {taken} on {_squares(captured, size)} to {answer} for nothing"
