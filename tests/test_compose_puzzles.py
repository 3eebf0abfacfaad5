"""Puzzles as the composition builds them: a go's private board with its task and menus, the
words answering each move (hints and refutations worded from the checker's data), and the
sessions' refusals."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import untranslated

from bot.ai.puzzles import load_starter_set
from bot.ai.puzzles.hints import GoalHint, PieceHint, Refutation, Task, ThemeHint
from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.puzzles import (
    AllTried,
    DailyNeedsServer,
    IllegalMove,
    Judged,
    PieceStuck,
    PuzzleClosed,
    Session,
    StaleBoard,
)
from bot.discord_bot.compose import puzzles as compose
from bot.discord_bot.compose.board import PLAIN, BoardLook
from bot.discord_bot.compose.post import Answer, Button, Menu, Update
from bot.discord_bot.compose.puzzles import NextPuzzle, PuzzlePiece
from bot.discord_bot.table import friendly_message, read
from bot.engine import Escape, Piece, Side, Termination
from bot.i18n.language import Languages
from bot.render import render_png
from bot.storage import DailySolver, PuzzleAttempt, StoredPuzzle
from bot.storage.glicko2 import Rating

PUZZLE = next(p for p in load_starter_set() if p.id == "tablut-dd8cea04")


def stored() -> StoredPuzzle:
    return StoredPuzzle(PUZZLE.id, PUZZLE.variant, PUZZLE.to_text(), Rating(1600.4), 3, 1)


def attempt(rated: str | None = None, line: tuple[str, ...] = ()) -> PuzzleAttempt:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return PuzzleAttempt(
        user_id=5, puzzle_id=PUZZLE.id, line=line, mistakes=0, status="open", rated=rated,
        guild_id=None, daily_day=None, started_at=now,
    )  # fmt: skip


def test_the_task_hints_and_refutations_are_worded_from_the_checkers_data() -> None:
    assert compose.task_words(Task(Side.DEFENDERS, 2)) == "Defenders to play and win in 2 moves."
    assert compose.prompt(PUZZLE) == compose.task_words(PUZZLE.task)
    goal = GoalHint(Termination.KING_ESCAPED, Side.DEFENDERS, 2, Escape.CORNER)
    assert compose.hint_words(goal) == (
        "The king can reach a corner in 2 moves, whatever the attackers do."
    )
    theme = ThemeHint(0, False, False, Side.ATTACKERS)
    assert compose.hint_words(theme) == (
        "A quiet move: it threatens nothing yet, but the defenders have no good reply."
    )
    assert compose.hint_words(PieceHint(Piece.KING, "c5")) == "Look at the king on c5."
    held = Refutation("b6-a6", Side.DEFENDERS, None, False, "a7", None, True)
    assert compose.refutation_words(held) == "b6-a6 closes the road to a7"
    escaped = Refutation("e1-b1", Side.ATTACKERS, Termination.KING_ESCAPED, True, None, None, True)
    assert compose.refutation_words(escaped) == "the king escapes with e1-b1"


def test_a_go_is_shown_privately_with_its_task_board_and_menus() -> None:
    session = Session(stored(), PUZZLE, attempt(), resumed=True)
    look = BoardLook("contrast", True)
    [answer] = compose.shown(session, look, playing_here=False)
    assert isinstance(answer, Answer)
    post = answer.post
    assert post.private and not post.pings and not post.ping_mentioned
    assert post.content is not None
    assert post.content.startswith(f"**Puzzle {PUZZLE.id}** (Tablut, difficulty 1600): ")
    assert compose.prompt(PUZZLE) in post.content
    assert post.content.endswith("-# In progress. **Another puzzle** leaves it for a new one.")
    assert "or type it with `/tafl move`." in post.content
    assert post.picture is not None and post.picture.filename == f"puzzle-{PUZZLE.id}.png"
    assert (post.picture.theme, post.picture.flip) == ("contrast", True)
    assert render_png(post.picture.view, theme="contrast", flip=True) == compose.board_png(
        PUZZLE.game(), None, look
    )
    *menus, button = post.controls
    assert all(isinstance(menu, Menu) for menu in menus)
    assert read(PuzzlePiece, menus[0].custom_id) == PuzzlePiece(PUZZLE.id, 0)
    assert isinstance(button, Button) and button.label == "Another puzzle"
    assert read(NextPuzzle, button.custom_id) == NextPuzzle(PUZZLE.variant)
    # The daily puzzle names who solved it (without notifying them); playing here says so.
    daily = Session(
        stored(),
        PUZZLE,
        attempt(rated="win"),
        False,
        "x-1",
        (DailySolver(8, "Eve", 0, datetime(2026, 1, 1, tzinfo=UTC)),),
    )
    [answer] = compose.shown(daily, PLAIN, playing_here=True)
    content = answer.post.content or ""
    assert "Solved today by 1 player: <@8>" in content and not answer.post.pings
    assert "`/tafl move` here plays in your game" in content
    assert "Practice: you have tried it before" in content
    assert "You left puzzle x-1 unsolved." in content


def test_a_wrong_move_gets_its_refutation_and_a_hint_on_the_board_clicked() -> None:
    wrong = next(
        move.text(PUZZLE.game().size)
        for move in PUZZLE.game().legal_moves()
        if move.text(PUZZLE.game().size) != PUZZLE.main_line()[0]
    )
    verdict = PUZZLE.answer((), wrong)
    assert not verdict.correct and verdict.hint is not None
    judged = Judged(PUZZLE, attempt(), verdict, ())
    [update] = compose.judged(judged, PLAIN, in_place=True)
    assert isinstance(update, Update)
    content = update.post.content or ""
    assert content.startswith(f"**{wrong}** is not it")
    assert f"Hint: {compose.hint_words(verdict.hint)} Try again." in content
    assert content.endswith(f"\n-# Puzzle {PUZZLE.id}: {compose.prompt(PUZZLE)}")
    assert update.post.picture is not None  # the refused move drawn on the board
    # A right move that solves it offers the next puzzle, as a new private answer.
    first, reply = PUZZLE.main_line()[:2]
    right = PUZZLE.answer((), first)
    [answer] = compose.judged(Judged(PUZZLE, attempt(), right, (first, reply)), PLAIN)
    assert isinstance(answer, Answer) and answer.post.private
    assert (answer.post.content or "").startswith(f"**{first}** is right, capturing the ")


def test_the_sessions_refusals_are_worded() -> None:
    said = {
        DailyNeedsServer(): "The daily puzzle belongs to a server: ask in a server channel.",
        AllTried("brandubh"): (
            "You have tried every puzzle of Brandubh. Try `/tafl puzzle daily:True`, or another"
            " variant."
        ),
        AllTried(None): (
            "You have tried every puzzle. Try `/tafl puzzle daily:True`, or another variant."
        ),
        PuzzleClosed("tablut-1"): (
            "Puzzle tablut-1 is no longer open. `/tafl puzzle` shows the one you are on, or a"
            " new one."
        ),
        StaleBoard(): (
            "That board is out of date: your puzzle has moved on since. Use its newest board, or "
            "`/tafl puzzle` to show it again."
        ),
        IllegalMove("c5-c7 is blocked"): "Illegal move: c5-c7 is blocked",
        PieceStuck(): "That piece cannot move now; choose another.",
    }
    for refusal, words in said.items():
        assert friendly_message(Refused(refusal)) == words


FRENCH = Languages().language("fr")


def test_a_puzzle_reads_in_french_for_a_french_player(tmp_path: Path) -> None:
    assert compose.task_words(Task(Side.DEFENDERS, 2), lang=FRENCH) == (
        "Les défenseurs jouent et gagnent en 2 coups."
    )
    goal = GoalHint(Termination.KING_ESCAPED, Side.DEFENDERS, 2, Escape.CORNER)
    assert compose.hint_words(goal, lang=FRENCH) == (
        "Le roi peut atteindre un coin en 2 coups, quoi que fassent les attaquants."
    )
    assert compose.hint_words(PieceHint(Piece.KING, "c5"), lang=FRENCH) == (
        "Regardez le roi en c5."
    )
    held = Refutation("b6-a6", Side.DEFENDERS, None, False, "a7", None, True)
    assert compose.refutation_words(held, lang=FRENCH) == "b6-a6 ferme la voie vers a7"

    session = Session(stored(), PUZZLE, attempt(), resumed=True)
    [answer] = compose.shown(session, PLAIN, playing_here=False, lang=FRENCH)
    content = answer.post.content or ""
    assert content.startswith(f"**Problème {PUZZLE.id}** (Tablut, difficulté 1600) : ")
    assert "Choisissez votre coup ci-dessous, ou tapez-le avec `/tafl coup`." in content
    assert content.endswith("-# En cours. **Un autre problème** le laisse de côté pour un nouveau.")
    button = answer.post.controls[-1]
    assert isinstance(button, Button) and button.label == "Un autre problème"
    assert answer.post.picture is not None
    caption = answer.post.picture.view.caption
    assert caption is not None and "Défenseurs" in (caption.attackers, caption.defenders)

    wrong = next(
        move.text(PUZZLE.game().size)
        for move in PUZZLE.game().legal_moves()
        if move.text(PUZZLE.game().size) != PUZZLE.main_line()[0]
    )
    verdict = PUZZLE.answer((), wrong)
    assert verdict.hint is not None
    [update] = compose.judged(Judged(PUZZLE, attempt(), verdict, ()), PLAIN, lang=FRENCH)
    content = update.post.content or ""
    assert content.startswith(f"**{wrong}** n'est pas le bon coup")
    assert f"Indice : {compose.hint_words(verdict.hint, lang=FRENCH)} Essayez encore." in content
    assert content.endswith(f"\n-# Problème {PUZZLE.id} : {compose.prompt(PUZZLE, lang=FRENCH)}")
    first, reply = PUZZLE.main_line()[:2]
    right = PUZZLE.answer((), first)
    [answer] = compose.judged(Judged(PUZZLE, attempt(), right, (first, reply)), PLAIN, lang=FRENCH)
    assert (answer.post.content or "").startswith(
        f"**{first}** est le bon coup, qui prend l'attaquant en "
    )
    assert f"Les attaquants répondent **{reply}** : à vous de jouer." in (answer.post.content or "")
    assert friendly_message(Refused(PieceStuck()), FRENCH) == (
        "Cette pièce ne peut pas bouger pour l'instant ; choisissez-en une autre."
    )
    assert friendly_message(Refused(AllTried("brandubh")), FRENCH) == (
        "Vous avez essayé tous les problèmes de Brandubh. Essayez `/tafl problème du_jour:True`,"
        " ou une autre variante."
    )


@pytest.mark.parametrize(
    ("code", "task"),
    [
        ("fr", "Les défenseurs jouent et gagnent en 2 coups."),
        ("es", "Juegan los defensores y ganan en 2 jugadas."),
        ("sv", "Försvararna drar och vinner på 2 drag."),
        ("de", "Die Verteidiger ziehen und gewinnen in 2 Zügen."),
    ],
)
def test_every_string_of_the_puzzles_is_translated(code: str, task: str) -> None:
    assert untranslated(code, "compose/puzzles.py") == []
    lang = Languages().language(code)
    assert compose.task_words(Task(Side.DEFENDERS, 2), lang=lang) == task
