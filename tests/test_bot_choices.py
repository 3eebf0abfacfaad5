"""What /tafl move's autocomplete and the click-to-move menus offer, from real positions."""

from __future__ import annotations

from bot.discord_bot.cogs.play import move_choices
from bot.discord_bot.views import BACK, TargetSelect, target_view
from bot.engine import Game, Side, parse_square

# Brandubh, attackers to move: a4-c4 captures c3 against c2; the king stands on e6.
CAPTURE = "/7/2t4/2T4/t6/7/4K2/7/"


def listed(game: Game, typed: str) -> list[tuple[str, str]]:
    return [(choice.name, choice.value) for choice in move_choices(game, typed)]


def test_captures_are_marked_and_listed_first_while_the_value_stays_the_plain_move() -> None:
    game = Game("brandubh", CAPTURE, Side.ATTACKERS)
    choices = listed(game, "")
    assert choices[0] == ("a4-c4 ×c3", "a4-c4")
    assert all(name == value for name, value in choices[1:])  # nothing else captures
    assert listed(game, "a4c") == [("a4-c4 ×c3", "a4-c4")]


def test_king_moves_are_marked_and_may_be_typed_as_written() -> None:
    game = Game("brandubh", CAPTURE, Side.DEFENDERS)
    choices = listed(game, "e6")
    assert choices and all(name == "K" + value for name, value in choices)
    assert listed(game, "Ke6") == choices


def test_a_typed_square_lists_its_moves_then_the_moves_ending_there() -> None:
    game = Game("brandubh")
    values = [value for _, value in listed(game, "c1")]
    assert values == [m.text(7) for m in game.legal_moves() if m.text(7).endswith("-c1")]
    values = [value for _, value in listed(game, "d1")]
    assert values == [m.text(7) for m in game.legal_moves(parse_square("d1", 7))]


def test_a_square_with_no_legal_move_says_why_in_one_line() -> None:
    # b1 is shut in by the corner a1 (no attacker may stop there or pass) and c1, b2.
    game = Game("brandubh", "/1tt4/1t5/7/3K3/7/3T3/7/", Side.ATTACKERS)
    [(name, value)] = listed(game, "b1")
    assert name == "b1: this attacker has no legal move now (it is blocked)" and value == "b1"
    [(name, value)] = listed(game, "d6")
    assert "a piece of the defenders; you play the attackers" in name and value == "d6"
    [(name, value)] = listed(game, "a7")
    assert name.startswith("a7: no piece there") and value == "a7"
    [(name, _)] = listed(game, "zz")
    assert "No legal move of the attackers matches 'zz'" in name


def test_every_choice_fits_discord_on_the_biggest_board() -> None:
    game = Game("tablut")
    choices = move_choices(game, "")
    assert len(choices) == 25 and len(game.legal_moves()) > 25
    assert all(1 <= len(choice.name) <= 100 and len(choice.value) <= 100 for choice in choices)


async def test_the_destination_menu_marks_captures_and_ends_with_back() -> None:
    game = Game("brandubh", CAPTURE, Side.ATTACKERS)
    view = target_view(1, game, parse_square("a4", 7))
    assert view is not None
    [menu] = view.children
    assert isinstance(menu, TargetSelect)
    options = menu.item.options
    labels = {option.label: option.value for option in options}
    assert labels["a4-c4 ×c3"] == str(parse_square("c4", 7))
    assert options[-1].value == BACK and options[-1].label == "Back"
    assert [o.description for o in options if "×" in o.label] == ["captures c3"]
