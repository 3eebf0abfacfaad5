"""The shared vocabulary is worded in the reader's language wherever a feature uses it: the AI's
name in a replay's captions, a review's names and a challenge, a puzzle's move menus, the
variants' titles (one definition of each, in compose/board.py)."""

from __future__ import annotations

from test_compose_board import AI, ANN, record

from bot.discord_bot.compose import board, challenges, puzzles, records, review
from bot.discord_bot.compose.puzzles import PuzzlePiece
from bot.engine import Game, Side, get_variant
from bot.i18n.language import Languages

FR = Languages().language("fr")


def test_a_replay_is_captioned_in_french() -> None:
    played = Game("brandubh")
    played.play(played.parse_move("d1-c1"))
    [replay] = records.replay_answer(record(played, AI, ANN), played, lang=FR)
    caption = replay.animation.views[0].caption
    assert caption is not None
    assert caption.attackers.startswith("IA Tafl ("), caption


def test_the_ai_is_named_in_french_in_a_review_and_a_challenge() -> None:
    played = Game("brandubh")
    names = review.names_of(record(played, AI, ANN), lang=FR)
    assert names[Side.ATTACKERS].startswith("IA Tafl (") and names[Side.DEFENDERS] == "Ann"
    assert challenges.mention(AI, lang=FR).startswith("IA Tafl (")


def test_a_puzzles_move_menus_are_in_french() -> None:
    played = Game("brandubh")
    origin = played.parse_move("d1-c1").origin
    update = puzzles.target_prompt(PuzzlePiece("abc", 0), played, origin, lang=FR)
    [menu] = update.post.controls
    assert menu.placeholder == "Déplacer d1 vers…", menu  # type: ignore[union-attr]


def test_a_variant_is_titled_as_the_french_picker_shows_it_and_an_unknown_one_as_stored() -> None:
    rules = get_variant("hnefatafl")
    assert board.variant_title("hnefatafl", FR) == board.variant_title(rules, FR) != rules.title
    assert board.variant_title("retired-variant", FR) == "retired-variant"
    assert board.level_words("medium", FR) == "moyen"
