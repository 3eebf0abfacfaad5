"""Puzzles as players see them: a go's private board with its task, the words that answer each
move, the menus to move by clicking, and the refusals of the puzzle sessions
(:mod:`..app.puzzles`), in words. Pure: no Discord here; the table sends what this builds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from bot.ai.puzzles import Puzzle, Verdict
from bot.ai.puzzles.hints import GoalHint, Hint, Refutation, Task, ThemeHint
from bot.engine import Escape, Game, Piece, Side, Termination
from bot.render import ATTACKER, DEFENDER, Arrow, BoardView, board_view_from_game, render_png
from bot.storage import RatedGo

from ...i18n.language import ENGLISH_LANGUAGE, Language
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
    MAX_MENUS,
    PLAIN,
    BoardLook,
    caption_words,
    move_to,
    piece_menus,
    target_options,
    variant_title,
)
from .errors import refusal_words
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


def next_button(variant: str, *, skip: bool = False, lang: Language = ENGLISH_LANGUAGE) -> Button:
    """Next puzzle (under a solved one) or, ``skip``, Another puzzle (leaving this one)."""
    return Button(
        NextPuzzle(variant).custom_id,
        lang.gettext("Another puzzle") if skip else lang.gettext("Next puzzle"),
        Style.SECONDARY if skip else Style.PRIMARY,
        emoji="🧩",
    )


def piece_controls(
    puzzle_id: str, step: int, game: Game, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """Under a puzzle's board: click-to-move's choice of a piece (``step``: the moves played in
    the go so far) and a button to leave it for another puzzle of its variant."""
    menus = piece_menus(game, lang=lang)[: MAX_MENUS - 1]
    return (
        *(
            Menu(PuzzlePiece(puzzle_id, step, part).custom_id, placeholder, options)
            for part, (options, placeholder) in enumerate(menus)
        ),
        next_button(game.variant.name, skip=True, lang=lang),
    )


def target_prompt(
    menu: PuzzlePiece, game: Game, origin: int, *, lang: Language = ENGLISH_LANGUAGE
) -> Update:
    """Step two of click-to-move in a puzzle: the chosen piece's destinations (the board and
    its words stay). Captures are not marked, since finding them is the puzzle."""
    options = target_options(game, origin, mark_captures=False, lang=lang)
    target = PuzzleTarget(menu.puzzle_id, menu.step, origin)
    return Update(
        Post(controls=(Menu(target.custom_id, move_to(game, origin, lang=lang), options),))
    )


def piece_prompt(menu: PuzzleTarget, game: Game, *, lang: Language = ENGLISH_LANGUAGE) -> Update:
    """Back to step one: the choice of a piece again."""
    return Update(Post(controls=piece_controls(menu.puzzle_id, menu.step, game, lang=lang)))


# ---------------------------------------------------------------------------- the board


def board_view(
    game: Game,
    tried: str | None = None,
    *,
    answered: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
) -> BoardView:
    """The puzzle's board as the player sees it now; ``tried``, a wrong move just refused, is
    drawn as a line ending in a cross, so the player sees which move the words are about.
    ``answered``: the last move is the reply to the player's right move, whose captures stay
    marked too (the board shows the reply, and the pieces would vanish unseen). The king's
    roads and threats are left for the player to find until the puzzle is over."""
    words = caption_words(lang)
    view = board_view_from_game(game, caption=True, hints=game.is_over, words=words)
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
    lang: Language = ENGLISH_LANGUAGE,
) -> Picture:
    """The board (see :func:`board_view`) to draw as the player likes it (``look``)."""
    view = board_view(game, tried, answered=answered, lang=lang)
    return Picture(view, f"puzzle-{puzzle_id}.png", look.theme, look.flip)


def board_png(
    game: Game, tried: str | None = None, look: BoardLook = PLAIN, *, answered: bool = False
) -> bytes:
    """The board drawn (see :func:`board_view`): what the table attaches, for tests and
    tools."""
    view = board_view(game, tried, answered=answered)
    return render_png(view, theme=look.theme, flip=look.flip)


# ---------------------------------------------------------------------------- words


def in_progress(lang: Language) -> str:
    """The note under a puzzle taken up again."""
    return "\n-# " + lang.gettext("In progress. **Another puzzle** leaves it for a new one.")


def practice(lang: Language) -> str:
    """The note under a puzzle tried before."""
    return "\n-# " + lang.gettext("Practice: you have tried it before, so it is not rated.")


def task_words(task: Task, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The task: ``Defenders to play and win in 2 moves.``"""
    if task.side is Side.ATTACKERS:
        return lang.ngettext(
            "Attackers to play and win in {count} move.",
            "Attackers to play and win in {count} moves.",
            task.length,
        )
    return lang.ngettext(
        "Defenders to play and win in {count} move.",
        "Defenders to play and win in {count} moves.",
        task.length,
    )


def prompt(puzzle: Puzzle, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A puzzle's task in words."""
    return task_words(puzzle.task, lang=lang)


def within_words(length: int, other: Side, *, lang: Language) -> str:
    """How soon a goal is reached: ``this move``, ``in 2 moves, whatever the attackers do``."""
    if length == 1:
        return lang.gettext("this move")
    if other is Side.ATTACKERS:
        return lang.ngettext(
            "in {count} move, whatever the attackers do",
            "in {count} moves, whatever the attackers do",
            length,
        )
    return lang.ngettext(
        "in {count} move, whatever the defenders do",
        "in {count} moves, whatever the defenders do",
        length,
    )


def goal_words(hint: GoalHint, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How the game will be won and how soon, whatever the other side does: ``The king can
    reach a corner in 2 moves, whatever the attackers do.``"""
    goal, other = hint.goal, hint.side.other
    within = within_words(hint.length, other, lang=lang)
    if goal is Termination.KING_ESCAPED:
        if hint.escape is Escape.CORNER:
            return lang.gettext("The king can reach a corner {within}.", within=within)
        return lang.gettext("The king can reach the edge {within}.", within=within)
    if goal in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return lang.gettext("The king can be captured {within}.", within=within)
    if goal is Termination.TUICHI:
        # Any defender's move can open the roads, not only the king's.
        return lang.gettext(
            "The king can be given two open roads at once (Tuichi wins here) {within}.",
            within=within,
        )
    if goal is Termination.EXIT_FORT:
        return lang.gettext(
            "The defenders can close an exit fort round the king on the edge {within}.",
            within=within,
        )
    if goal is Termination.ENCIRCLEMENT:
        return lang.gettext("The defenders can be encircled {within}.", within=within)
    if goal is Termination.NO_LEGAL_MOVE:
        if other is Side.ATTACKERS:
            return lang.gettext(
                "The attackers can be left without a legal move {within}.", within=within
            )
        return lang.gettext(
            "The defenders can be left without a legal move {within}.", within=within
        )
    if hint.side is Side.ATTACKERS:
        return lang.gettext("The attackers win {within}.", within=within)
    return lang.gettext("The defenders win {within}.", within=within)


def theme_words(hint: ThemeHint, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What kind of move starts the win (not which one)."""
    attackers = hint.side.other is Side.ATTACKERS
    if hint.threats >= 2:
        if attackers:
            return lang.gettext(
                "Look for a move that makes two threats at once: the attackers can answer only one."
            )
        return lang.gettext(
            "Look for a move that makes two threats at once: the defenders can answer only one."
        )
    if hint.captures:
        return lang.gettext("A capture clears the way.")
    if hint.threats == 1:
        if hint.king_moves:
            if attackers:
                return lang.gettext(
                    "The king himself makes a threat the attackers must answer, and the "
                    "answer fails."
                )
            return lang.gettext(
                "The king himself makes a threat the defenders must answer, and the answer fails."
            )
        if attackers:
            return lang.gettext(
                "Make a threat the attackers must answer; every answer leaves another way."
            )
        return lang.gettext(
            "Make a threat the defenders must answer; every answer leaves another way."
        )
    if attackers:
        return lang.gettext(
            "A quiet move: it threatens nothing yet, but the attackers have no good reply."
        )
    return lang.gettext(
        "A quiet move: it threatens nothing yet, but the defenders have no good reply."
    )


def hint_words(hint: Hint, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A hint that points the way without giving the move."""
    if isinstance(hint, GoalHint):
        return goal_words(hint, lang=lang)
    if isinstance(hint, ThemeHint):
        return theme_words(hint, lang=lang)
    if hint.piece is Piece.KING:
        return lang.gettext("Look at the king on {square}.", square=hint.square)
    if hint.piece is Piece.ATTACKER:
        return lang.gettext("Look at the attacker on {square}.", square=hint.square)
    return lang.gettext("Look at the defender on {square}.", square=hint.square)


def refutation_words(refutation: Refutation, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a wrong move fails, told by the reply that holds, to follow "**d4-c4** is not it: "
    (``the king escapes with e1-b1``)."""
    reply, side, ending = refutation.reply, refutation.side, refutation.reply_ending
    attackers = side is Side.ATTACKERS
    if ending is Termination.KING_ESCAPED:
        return lang.gettext("the king escapes with {reply}", reply=reply)
    if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
        return lang.gettext("{reply} captures the king", reply=reply)
    if ending is Termination.TUICHI:
        return lang.gettext(
            "{reply} opens two roads for the king at once (Tuichi), and the defenders win",
            reply=reply,
        )
    if ending is Termination.EXIT_FORT:
        return lang.gettext(
            "{reply} closes an exit fort round the king, and the defenders win", reply=reply
        )
    if ending is Termination.ENCIRCLEMENT:
        return lang.gettext(
            "{reply} completes the encirclement, and the attackers win", reply=reply
        )
    if ending is Termination.NO_LEGAL_MOVE:
        if attackers:
            return lang.gettext("{reply} leaves the attackers without a legal move", reply=reply)
        return lang.gettext("{reply} leaves the defenders without a legal move", reply=reply)
    if ending is not None:
        if attackers:
            return lang.gettext("{reply} wins for the defenders", reply=reply)
        return lang.gettext("{reply} wins for the attackers", reply=reply)
    if refutation.king_reply and attackers and refutation.threatened:
        return lang.gettext("the king steps away with {reply}", reply=reply)
    if refutation.blocks is not None:
        if side is Side.DEFENDERS:
            return lang.gettext(
                "{reply} closes the road to {square}", reply=reply, square=refutation.blocks
            )
        return lang.gettext("{reply} covers {square}", reply=reply, square=refutation.blocks)
    if refutation.captured is not None:
        return lang.gettext(
            "{reply} captures the piece on {square}", reply=reply, square=refutation.captured
        )
    if not refutation.threatened:
        # Not the reply itself: any quiet move would do, and naming one reads like a clue.
        if attackers:
            return lang.gettext(
                "it threatens nothing, so the defenders have a free move to stop the win"
            )
        return lang.gettext(
            "it threatens nothing, so the attackers have a free move to stop the win"
        )
    return lang.gettext("{reply} holds", reply=reply)


def rating_change(rated: RatedGo, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``puzzle rating 1500 → 1532 (+32, provisional)``: words rather than the "?" of the
    tables, which a sentence would leave unexplained."""
    before, after = rated.player_before, rated.player_after
    delta = f"{round(after.rating) - round(before.rating):+d}".replace("-", "−")
    values = {"before": round(before.rating), "after": round(after.rating), "delta": delta}
    if after.provisional:
        return lang.gettext("puzzle rating {before} → {after} ({delta}, provisional)", **values)
    return lang.gettext("puzzle rating {before} → {after} ({delta})", **values)


def capturing(verdict: Verdict, puzzle: Puzzle, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``, capturing the attacker on h4`` after a right move that captured (the piece is gone
    from the next board, which shows the reply), else nothing."""
    captures = verdict.captures
    if not captures:
        return ""
    squares = captures[0]
    if len(captures) > 1:
        squares = lang.gettext(
            "{items} and {last}", items=", ".join(captures[:-1]), last=captures[-1]
        )
    if puzzle.to_move is Side.ATTACKERS:
        return lang.ngettext(
            ", capturing the defender on {squares}",
            ", capturing the defenders on {squares}",
            len(captures),
            squares=squares,
        )
    return lang.ngettext(
        ", capturing the attacker on {squares}",
        ", capturing the attackers on {squares}",
        len(captures),
        squares=squares,
    )


def shown(
    session: Session,
    look: BoardLook,
    *,
    playing_here: bool,
    lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """A go's board, privately, with its task, how it came to be shown and the menus to move
    by clicking, in the words of the one who solves it (``lang``). ``playing_here``: the
    person plays this channel's game, so ``/tafl move`` here moves in it, not in the puzzle."""
    stored, puzzle, attempt = session.stored, session.puzzle, session.attempt
    note = in_progress(lang) if session.resumed else practice(lang) if session.practice else ""
    if session.left is not None:
        # Said, so a puzzle never disappears unseen (an older board's button, or a puzzle of
        # another variant, replaces the one in progress).
        note += "\n-# " + lang.gettext("You left puzzle {puzzle} unsolved.", puzzle=session.left)
    solvers = ""
    if session.solvers is not None:
        if session.solvers:
            solvers = "\n" + lang.ngettext(
                "Solved today by {count} player: {players}",
                "Solved today by {count} players: {players}",
                len(session.solvers),
                players=", ".join(f"<@{s.user_id}>" for s in session.solvers[:20]),
            )
        else:
            solvers = "\n" + lang.gettext("Nobody has solved it yet today.")
    command = lang.command("tafl move")
    typing = (
        lang.gettext(
            "`{command}` here plays in your game, so use the menus, or type the move in "
            "another channel.",
            command=command,
        )
        if playing_here
        else lang.gettext("or type it with `{command}`.", command=command)
    )
    text = lang.gettext(
        "**Puzzle {puzzle}** ({variant}, difficulty {rating}): {task} Choose your move below, "
        "{typing}",
        puzzle=stored.id,
        variant=variant_title(stored.variant, lang),
        rating=round(stored.rating.rating),
        task=prompt(puzzle, lang=lang),
        typing=typing,
    )
    game = position_of(puzzle, attempt.line)
    post = Post(
        content=text + solvers + note,
        picture=picture(stored.id, game, look, lang=lang),
        controls=piece_controls(puzzle.id, len(attempt.line), game, lang=lang),
        private=True,
    )
    return [Answer(post)]


def solved_words(judged: Judged, *, lang: Language) -> str:
    """A winning move's words, and what became of the puzzle rating."""
    verdict, rated, before = judged.verdict, judged.rated, judged.attempt.rated
    words = lang.gettext("**{move}** wins: solved!", move=verdict.move)
    if rated is not None:
        words += "\n" + lang.gettext("Your {change}.", change=rating_change(rated, lang=lang))
    elif before == "loss":
        words += "\n" + lang.gettext(
            "Your puzzle rating had already counted this puzzle as missed."
        )
    elif before == "win":
        words += "\n" + lang.gettext("Practice: you had solved it before, so your rating stays.")
    return words


def judged(
    judged: Judged,
    look: BoardLook,
    *,
    in_place: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """What a move of a go did: the win, the reply, or a hint and another try; on a new
    private board or (``in_place``, for a click) on the board clicked."""
    puzzle, verdict, rated = judged.puzzle, judged.verdict, judged.rated
    tried = None
    if verdict.correct and verdict.solved:
        words = solved_words(judged, lang=lang)
    elif verdict.correct:
        values = {
            "move": verdict.move,
            "capturing": capturing(verdict, puzzle, lang=lang),
            "reply": verdict.reply,
        }
        if puzzle.to_move.other is Side.ATTACKERS:
            words = lang.gettext(
                "**{move}** is right{capturing}. The attackers reply **{reply}**: your move.",
                **values,
            )
        else:
            words = lang.gettext(
                "**{move}** is right{capturing}. The defenders reply **{reply}**: your move.",
                **values,
            )
    else:
        tried = verdict.move
        hint = "" if verdict.hint is None else hint_words(verdict.hint, lang=lang)
        if verdict.refutation is None:
            words = lang.gettext(
                "**{move}** is not it. Hint: {hint} Try again.", move=verdict.move, hint=hint
            )
        else:
            words = lang.gettext(
                "**{move}** is not it: {why}. Hint: {hint} Try again.",
                move=verdict.move,
                why=refutation_words(verdict.refutation, lang=lang),
                hint=hint,
            )
        if rated is not None:
            words += "\n" + lang.gettext(
                "This puzzle counts as missed: your {change}.",
                change=rating_change(rated, lang=lang),
            )
    solved = verdict.correct and verdict.solved
    game = position_of(puzzle, judged.line)
    answered = not solved and tried is None
    controls = (
        (next_button(puzzle.variant, lang=lang),)
        if solved
        else piece_controls(puzzle.id, len(judged.line), game, lang=lang)
    )
    # Said on every board, since a click replaces the words that set the task.
    footer = ""
    if not solved:
        footer = "\n-# " + lang.gettext(
            "Puzzle {puzzle}: {task}", puzzle=puzzle.id, task=prompt(puzzle, lang=lang)
        )
    post = Post(
        content=words + footer,
        picture=picture(puzzle.id, game, look, tried, answered=answered, lang=lang),
        controls=controls,
        private=not in_place,
    )
    return [Update(post) if in_place else Answer(post)]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: DailyNeedsServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The daily puzzle belongs to a server: ask in a server channel.")


@refusal_words.register
def _(refusal: AllTried, lang: Language = ENGLISH_LANGUAGE) -> str:
    values = {
        "command": lang.command("tafl puzzle"),
        "option": lang.pgettext("option name", "daily"),
    }
    if refusal.variant:
        return lang.gettext(
            "You have tried every puzzle of {variant}. Try `{command} {option}:True`, or "
            "another variant.",
            variant=variant_title(refusal.variant, lang),
            **values,
        )
    return lang.gettext(
        "You have tried every puzzle. Try `{command} {option}:True`, or another variant.",
        **values,
    )


@refusal_words.register
def _(refusal: PuzzleClosed, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Puzzle {puzzle} is no longer open. `{command}` shows the one you are on, or a new one.",
        puzzle=refusal.puzzle_id,
        command=lang.command("tafl puzzle"),
    )


@refusal_words.register
def _(refusal: StaleBoard, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "That board is out of date: your puzzle has moved on since. Use its newest board, or "
        "`{command}` to show it again.",
        command=lang.command("tafl puzzle"),
    )


@refusal_words.register
def _(refusal: IllegalMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Illegal move: {detail}", detail=refusal.detail)


@refusal_words.register
def _(refusal: PieceStuck, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("That piece cannot move now; choose another.")
