"""Puzzles as players see them: a go's private board with its task, the words that answer each
move, the menus to move by clicking, and the refusals of the puzzle sessions
(:mod:`..app.puzzles`), in words. Pure: no Discord here; the table sends what this builds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from bot.ai.puzzles import Puzzle, Verdict
from bot.ai.puzzles.hints import GoalHint, Hint, Refutation, Task, ThemeHint
from bot.engine import Escape, Game, Piece, Side, Termination, get_variant
from bot.render import ATTACKER, DEFENDER, Arrow, BoardView, board_view_from_game, render_png
from bot.storage import RatedGo

from ..app.puzzles import (
    AllTried,
    DailyNeedsServer,
    IllegalMove,
    Judged,
    PieceStuck,
    PuzzleClosed,
    Session,
    StaleBoard,
    position_of,
)
from .board import (
    CAPTION_WORDS,
    MAX_MENUS,
    PLAIN,
    BoardLook,
    move_to,
    piece_menus,
    plural,
    target_options,
)
from .errors import refusal_words
from .language import ENGLISH_LANGUAGE, Language
from .post import Answer, Button, Control, Delivery, Menu, Picture, Post, Style, Update

# ---------------------------------------------------------------------------- controls
# The custom ids of a puzzle's controls (the same strings as ever: old boards keep working).

PUZZLE_ID = r"[a-z0-9-]{1,60}"
"""How a puzzle's id is written in a custom id (``tablut-2cae849b``)."""


@dataclass(frozen=True)
class PuzzlePiece:
    """Click-to-move in a puzzle, step one: a piece. ``step`` is the number of moves played in
    the go when the menu was shown, so a menu left on an older board is recognised; ``part``
    tells the menus of one board apart (the first has none in its custom id)."""

    TEMPLATE: ClassVar[str] = (
        rf"tafl:zp:(?P<puzzle_id>{PUZZLE_ID}):(?P<step>\d+)(?::(?P<part>\d+))?"
    )
    puzzle_id: str
    step: int
    part: int = 0
    values: tuple[str, ...] = ()

    @property
    def custom_id(self) -> str:
        """The id this menu carries."""
        suffix = f":{self.part}" if self.part else ""
        return f"tafl:zp:{self.puzzle_id}:{self.step}{suffix}"


@dataclass(frozen=True)
class PuzzleTarget:
    """Click-to-move in a puzzle, step two: where the piece on ``origin`` goes (or Back)."""

    TEMPLATE: ClassVar[str] = rf"tafl:zt:(?P<puzzle_id>{PUZZLE_ID}):(?P<step>\d+):(?P<origin>\d+)"
    puzzle_id: str
    step: int
    origin: int
    values: tuple[str, ...] = ()

    @property
    def custom_id(self) -> str:
        """The id this menu carries."""
        return f"tafl:zt:{self.puzzle_id}:{self.step}:{self.origin}"


@dataclass(frozen=True)
class NextPuzzle:
    """Another puzzle of the same variant: "Next puzzle" under a solved one, "Another puzzle"
    (leaving this one) under one in progress."""

    TEMPLATE: ClassVar[str] = r"tafl:zn:(?P<variant>[a-z0-9-]{1,40})"
    variant: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:zn:{self.variant}"


CONTROLS = (PuzzlePiece, PuzzleTarget, NextPuzzle)
"""Every kind of control of a puzzle's boards."""


def next_button(variant: str, *, skip: bool = False) -> Button:
    """Next puzzle (under a solved one) or, ``skip``, Another puzzle (leaving this one)."""
    return Button(
        NextPuzzle(variant).custom_id,
        "Another puzzle" if skip else "Next puzzle",
        Style.SECONDARY if skip else Style.PRIMARY,
        emoji="🧩",
    )


def piece_controls(puzzle_id: str, step: int, game: Game) -> tuple[Control, ...]:
    """Under a puzzle's board: click-to-move's choice of a piece (``step``: the moves played in
    the go so far) and a button to leave it for another puzzle of its variant."""
    menus = piece_menus(game)[: MAX_MENUS - 1]
    return (
        *(
            Menu(PuzzlePiece(puzzle_id, step, part).custom_id, placeholder, options)
            for part, (options, placeholder) in enumerate(menus)
        ),
        next_button(game.variant.name, skip=True),
    )


def target_prompt(menu: PuzzlePiece, game: Game, origin: int) -> Update:
    """Step two of click-to-move in a puzzle: the chosen piece's destinations (the board and
    its words stay). Captures are not marked, since finding them is the puzzle."""
    options = target_options(game, origin, mark_captures=False)
    target = PuzzleTarget(menu.puzzle_id, menu.step, origin)
    return Update(Post(controls=(Menu(target.custom_id, move_to(game, origin), options),)))


def piece_prompt(menu: PuzzleTarget, game: Game) -> Update:
    """Back to step one: the choice of a piece again."""
    return Update(Post(controls=piece_controls(menu.puzzle_id, menu.step, game)))


# ---------------------------------------------------------------------------- the board


def board_view(game: Game, tried: str | None = None, *, answered: bool = False) -> BoardView:
    """The puzzle's board as the player sees it now; ``tried``, a wrong move just refused, is
    drawn as a line ending in a cross, so the player sees which move the words are about.
    ``answered``: the last move is the reply to the player's right move, whose captures stay
    marked too (the board shows the reply, and the pieces would vanish unseen). The king's
    roads and threats are left for the player to find until the puzzle is over."""
    view = board_view_from_game(game, caption=True, hints=game.is_over, words=CAPTION_WORDS)
    if answered and game.ply >= 2:
        mine = game.history[-2]
        victim = DEFENDER if mine.side is Side.ATTACKERS else ATTACKER
        kept = [(sq, victim) for sq in mine.captures if game.piece_at(sq) is Piece.EMPTY]
        view = replace(view, captured=(*view.captured, *kept))
    if tried is not None:
        move = game.parse_move(tried)
        view = replace(view, arrows=(Arrow(move.origin, move.target, "refused"),))
    return view


def picture(
    puzzle_id: str,
    game: Game,
    look: BoardLook = PLAIN,
    tried: str | None = None,
    *,
    answered: bool = False,
) -> Picture:
    """The board (see :func:`board_view`) to draw as the player likes it (``look``)."""
    view = board_view(game, tried, answered=answered)
    return Picture(view, f"puzzle-{puzzle_id}.png", look.theme, look.flip)


def board_png(
    game: Game, tried: str | None = None, look: BoardLook = PLAIN, *, answered: bool = False
) -> bytes:
    """The board drawn (see :func:`board_view`): what the table attaches, for tests and
    tools."""
    view = board_view(game, tried, answered=answered)
    return render_png(view, theme=look.theme, flip=look.flip)


# ---------------------------------------------------------------------------- words

IN_PROGRESS = "\n-# In progress. **Another puzzle** leaves it for a new one."
PRACTICE = "\n-# Practice: you have tried it before, so it is not rated."


def moves_text(count: int) -> str:
    """``1 move``, ``2 moves``."""
    return f"{count} move" if count == 1 else f"{count} moves"


def task_words(task: Task) -> str:
    """The task: ``Defenders to play and win in 2 moves.``"""
    return f"{task.side.value.capitalize()} to play and win in {moves_text(task.length)}."


def prompt(puzzle: Puzzle) -> str:
    """A puzzle's task in words."""
    return task_words(puzzle.task)


PIECE_NAMES = {Piece.ATTACKER: "attacker", Piece.DEFENDER: "defender", Piece.KING: "king"}
"""Pieces as a player names them."""


def goal_words(hint: GoalHint) -> str:
    """How the game will be won and how soon, whatever the other side does: ``The king can
    reach a corner in 2 moves, whatever the attackers do.``"""
    goal, length = hint.goal, hint.length
    other = hint.side.other.value
    within = "this move" if length == 1 else f"in {moves_text(length)}, whatever the {other} do"
    if goal is Termination.KING_ESCAPED:
        where = "a corner" if hint.escape is Escape.CORNER else "the edge"
        return f"The king can reach {where} {within}."
    if goal in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return f"The king can be captured {within}."
    if goal is Termination.TUICHI:
        # Any defender's move can open the roads, not only the king's.
        return f"The king can be given two open roads at once (Tuichi wins here) {within}."
    if goal is Termination.EXIT_FORT:
        return f"The defenders can close an exit fort round the king on the edge {within}."
    if goal is Termination.ENCIRCLEMENT:
        return f"The defenders can be encircled {within}."
    if goal is Termination.NO_LEGAL_MOVE:
        return f"The {other} can be left without a legal move {within}."
    return f"The {hint.side.value} win {within}."


def theme_words(hint: ThemeHint) -> str:
    """What kind of move starts the win (not which one)."""
    other = hint.side.other.value
    if hint.threats >= 2:
        return f"Look for a move that makes two threats at once: the {other} can answer only one."
    if hint.captures:
        return "A capture clears the way."
    if hint.threats == 1:
        if hint.king_moves:
            return f"The king himself makes a threat the {other} must answer, and the answer fails."
        return f"Make a threat the {other} must answer; every answer leaves another way."
    return f"A quiet move: it threatens nothing yet, but the {other} have no good reply."


def hint_words(hint: Hint) -> str:
    """A hint that points the way without giving the move."""
    if isinstance(hint, GoalHint):
        return goal_words(hint)
    if isinstance(hint, ThemeHint):
        return theme_words(hint)
    return f"Look at the {PIECE_NAMES[hint.piece]} on {hint.square}."


def refutation_words(refutation: Refutation) -> str:
    """Why a wrong move fails, told by the reply that holds, to follow "**d4-c4** is not it: "
    (``the king escapes with e1-b1``)."""
    reply, side, ending = refutation.reply, refutation.side, refutation.reply_ending
    other = side.other.value
    if ending is Termination.KING_ESCAPED:
        return f"the king escapes with {reply}"
    if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return f"{reply} captures the king"
    if ending is Termination.TUICHI:
        return f"{reply} opens two roads for the king at once (Tuichi), and the defenders win"
    if ending is Termination.EXIT_FORT:
        return f"{reply} closes an exit fort round the king, and the defenders win"
    if ending is Termination.ENCIRCLEMENT:
        return f"{reply} completes the encirclement, and the attackers win"
    if ending is Termination.NO_LEGAL_MOVE:
        return f"{reply} leaves the {side.value} without a legal move"
    if ending is not None:
        return f"{reply} wins for the {other}"
    if refutation.king_reply and side is Side.ATTACKERS and refutation.threatened:
        return f"the king steps away with {reply}"
    if refutation.blocks is not None:
        if side is Side.DEFENDERS:
            return f"{reply} closes the road to {refutation.blocks}"
        return f"{reply} covers {refutation.blocks}"
    if refutation.captured is not None:
        return f"{reply} captures the piece on {refutation.captured}"
    if not refutation.threatened:
        # Not the reply itself: any quiet move would do, and naming one reads like a clue.
        return f"it threatens nothing, so the {other} have a free move to stop the win"
    return f"{reply} holds"


def rating_change(rated: RatedGo) -> str:
    """``puzzle rating 1500 → 1532 (+32, provisional)``: words rather than the "?" of the
    tables, which a sentence would leave unexplained."""
    before, after = rated.player_before, rated.player_after
    delta = f"{round(after.rating) - round(before.rating):+d}".replace("-", "−")
    provisional = ", provisional" if after.provisional else ""
    return f"puzzle rating {round(before.rating)} → {round(after.rating)} ({delta}{provisional})"


def capturing(verdict: Verdict, puzzle: Puzzle) -> str:
    """``, capturing the attacker on h4`` after a right move that captured (the piece is gone
    from the next board, which shows the reply), else nothing."""
    if not verdict.captures:
        return ""
    pieces = "defender" if puzzle.to_move is Side.ATTACKERS else "attacker"
    if len(verdict.captures) == 1:
        return f", capturing the {pieces} on {verdict.captures[0]}"
    squares = ", ".join(verdict.captures[:-1]) + f" and {verdict.captures[-1]}"
    return f", capturing the {pieces}s on {squares}"


def shown(session: Session, look: BoardLook, *, playing_here: bool) -> list[Delivery]:
    """A go's board, privately, with its task, how it came to be shown and the menus to move
    by clicking. ``playing_here``: the person plays this channel's game, so ``/tafl move``
    here moves in it, not in the puzzle."""
    stored, puzzle, attempt = session.stored, session.puzzle, session.attempt
    note = IN_PROGRESS if session.resumed else PRACTICE if session.practice else ""
    if session.left is not None:
        # Said, so a puzzle never disappears unseen (an older board's button, or a puzzle of
        # another variant, replaces the one in progress).
        note += f"\n-# You left puzzle {session.left} unsolved."
    solvers = ""
    if session.solvers is not None:
        solvers = (
            f"\nSolved today by {plural(len(session.solvers), 'player')}: "
            + ", ".join(f"<@{s.user_id}>" for s in session.solvers[:20])
            if session.solvers
            else "\nNobody has solved it yet today."
        )
    typing = (
        "`/tafl move` here plays in your game, so use the menus, or type the move in "
        "another channel."
        if playing_here
        else "or type it with `/tafl move`."
    )
    text = (
        f"**Puzzle {stored.id}** ({get_variant(stored.variant).title}, difficulty "
        f"{round(stored.rating.rating)}): {prompt(puzzle)} Choose your move below, "
        f"{typing}{solvers}{note}"
    )
    game = position_of(puzzle, attempt.line)
    post = Post(
        content=text,
        picture=picture(stored.id, game, look),
        controls=piece_controls(puzzle.id, len(attempt.line), game),
        private=True,
    )
    return [Answer(post)]


def judged(judged: Judged, look: BoardLook, *, in_place: bool = False) -> list[Delivery]:
    """What a move of a go did: the win, the reply, or a hint and another try; on a new
    private board or (``in_place``, for a click) on the board clicked."""
    puzzle, verdict, rated = judged.puzzle, judged.verdict, judged.rated
    before = judged.attempt.rated
    tried = None
    if verdict.correct and verdict.solved:
        words = f"**{verdict.move}** wins: solved!"
        if rated is not None:
            words += f"\nYour {rating_change(rated)}."
        elif before == "loss":
            words += "\nYour puzzle rating had already counted this puzzle as missed."
        elif before == "win":
            words += "\nPractice: you had solved it before, so your rating stays."
    elif verdict.correct:
        words = (
            f"**{verdict.move}** is right{capturing(verdict, puzzle)}. The "
            f"{puzzle.to_move.other.value} reply **{verdict.reply}**: your move."
        )
    else:
        tried = verdict.move
        why = "" if verdict.refutation is None else f": {refutation_words(verdict.refutation)}"
        hint = "" if verdict.hint is None else hint_words(verdict.hint)
        words = f"**{verdict.move}** is not it{why}. Hint: {hint} Try again."
        if rated is not None:
            words += f"\nThis puzzle counts as missed: your {rating_change(rated)}."
    solved = verdict.correct and verdict.solved
    game = position_of(puzzle, judged.line)
    answered = not solved and tried is None
    controls = (
        (next_button(puzzle.variant),)
        if solved
        else piece_controls(puzzle.id, len(judged.line), game)
    )
    # Said on every board, since a click replaces the words that set the task.
    footer = "" if solved else f"\n-# Puzzle {puzzle.id}: {prompt(puzzle)}"
    post = Post(
        content=words + footer,
        picture=picture(puzzle.id, game, look, tried, answered=answered),
        controls=controls,
        private=not in_place,
    )
    return [Update(post) if in_place else Answer(post)]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: DailyNeedsServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "The daily puzzle belongs to a server: ask in a server channel."


@refusal_words.register
def _(refusal: AllTried, lang: Language = ENGLISH_LANGUAGE) -> str:
    of = f" of {get_variant(refusal.variant).title}" if refusal.variant else ""
    return f"You have tried every puzzle{of}. Try `/tafl puzzle daily:True`, or another variant."


@refusal_words.register
def _(refusal: PuzzleClosed, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"Puzzle {refusal.puzzle_id} is no longer open. `/tafl puzzle` shows the one you are on,"
        " or a new one."
    )


@refusal_words.register
def _(refusal: StaleBoard, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "That board is out of date: your puzzle has moved on since. Use its newest board, or "
        "`/tafl puzzle` to show it again."
    )


@refusal_words.register
def _(refusal: IllegalMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"Illegal move: {refusal.detail}"


@refusal_words.register
def _(refusal: PieceStuck, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "That piece cannot move now; choose another."
