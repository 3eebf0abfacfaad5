"""Arrows on the board: the move played and the better one (pixels at known places, the rest of the
board untouched), and the views of the position before a move that carry them."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from helpers import BRANDUBH_GROUP_CAPTURE, MADE_UP_BLUNDER, made_up_analysis
from PIL import Image

from bot.ai.analysis import MomentKind
from bot.engine import Game, parse_square
from bot.render import (
    Better,
    BoardView,
    CaptionWords,
    Layout,
    board_view_from_game,
    render_board,
    render_png,
)
from bot.render.adapter import analysis_view, view_before_move
from bot.render.theme import RGB, get_theme
from bot.render.view import KING, Arrow

CLASSIC = get_theme("classic")


def sq(name: str, size: int = 9) -> int:
    return parse_square(name, size)


def rgb(image: Image.Image, xy: tuple[float, float]) -> RGB:
    pixel = image.convert("RGB").getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


def near(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def lonely_king() -> BoardView:
    cells = [0] * 81
    cells[sq("e5")] = KING
    return BoardView(9, tuple(cells), throne=sq("e5"))


# --- arrows -------------------------------------------------------------------------------------


def test_the_played_move_is_a_solid_arrow_and_the_better_one_a_dashed_arrow() -> None:
    view = replace(
        lonely_king(),
        arrows=(
            Arrow(sq("b2"), sq("b8"), "played"),
            Arrow(sq("h8"), sq("h2"), "better"),
        ),
    )
    image = render_board(view).convert("RGB")
    layout = Layout.fit(9)
    # Sample the shafts pixel by pixel between the third and the seventh rank.
    top, bottom = layout.centre(sq("b7"), False)[1], layout.centre(sq("b3"), False)[1]
    played = [rgb(image, (layout.centre(sq("b2"), False)[0], y)) for y in range(top, bottom)]
    better = [rgb(image, (layout.centre(sq("h2"), False)[0], y)) for y in range(top, bottom)]
    assert all(near(colour, CLASSIC.arrow_played) for colour in played)
    on = [near(colour, CLASSIC.arrow_better) for colour in better]
    assert 0.4 < sum(on) / len(on) < 0.85  # dashes with gaps between them
    # The heads sit on the targets, in each arrow's colour.
    assert near(rgb(image, layout.centre(sq("b8"), False)), CLASSIC.arrow_played)
    assert near(rgb(image, layout.centre(sq("h2"), False)), CLASSIC.arrow_better)


def test_arrows_change_nothing_outside_their_own_squares() -> None:
    plain = lonely_king()
    drawn = replace(plain, arrows=(Arrow(sq("c3"), sq("c6"), "played"),))
    before = render_board(plain).convert("RGB")
    after = render_board(drawn).convert("RGB")
    layout = Layout.fit(9)
    x0, y0 = layout.top_left(sq("c6"), False)
    x1, y1 = layout.top_left(sq("c3"), False)
    box = (
        x0 - layout.square // 2,
        y0 - layout.square // 2,
        x1 + layout.square * 3 // 2,
        y1 + layout.square * 3 // 2,
    )
    for image in (before, after):
        image.paste((0, 0, 0), box)
    assert before.tobytes() == after.tobytes()


def test_a_board_with_arrows_is_still_a_small_palette_png() -> None:
    game = Game("tablut")
    game.play("d1-d3")
    view = replace(
        board_view_from_game(game, caption=True),
        arrows=(Arrow(sq("e4"), sq("c4"), "played"), Arrow(sq("e3"), sq("h3"), "better")),
    )
    data = render_png(view)
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and image.mode == "P" and len(data) < 40_000
    assert render_png(view) == data


@pytest.mark.parametrize("arrow", [Arrow(3, 3), Arrow(0, 81), Arrow(0, 5, "dotted")])  # type: ignore[arg-type]
def test_a_view_refuses_a_bad_arrow(arrow: Arrow) -> None:
    with pytest.raises(ValueError):
        replace(lonely_king(), arrows=(arrow,))


# --- the position before a move -----------------------------------------------------------------


ECHO = CaptionWords("A", "D", lambda status: f"<{status!r}>")
"""Caption words that show what the caption was asked to say."""


def test_the_view_before_a_move_shows_that_position_with_both_arrows() -> None:
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    view = analysis_view(analysis, 8, caption=True, attackers="Ragnar", defenders="Carl")
    game = Game("brandubh")
    for text in BRANDUBH_GROUP_CAPTURE[:7]:
        game.play(text)
    assert view.cells == tuple(int(piece) for piece in game.cells)
    assert view.last_move == (sq("a3", 7), sq("c3", 7))  # the move before, as the player saw it
    assert view.arrows == (
        Arrow(sq("f5", 7), sq("f3", 7), "played"),
        Arrow(sq("f5", 7), sq("f4", 7), "better"),
    )
    assert view.caption is not None
    assert (view.caption.move_label, view.caption.move_text) == ("4…", "f5-f3")
    assert view.caption.status == "Blunder: better f5-f4"
    assert view.caption.to_move == "defenders" and view.caption.attackers == "Ragnar"
    render_png(view)  # and it draws
    worded = analysis_view(analysis, 8, caption=True, words=ECHO).caption
    assert worded is not None
    assert worded.status == f"<{Better('f5-f4', MomentKind.BLUNDER)!r}>"


def test_without_a_moment_the_view_shows_the_engines_choice_if_it_differs() -> None:
    analysis = made_up_analysis()
    view = analysis_view(analysis, 1)
    assert [arrow.style for arrow in view.arrows] == ["played", "better"]
    assert view.arrows[1] == Arrow(sq("d1", 7), sq("d2", 7), "better")
    game = Game("brandubh")
    game.play("a4-a3")
    assert view.caption is None
    noted = analysis_view(analysis, 1, caption=True, words=ECHO)
    assert noted.caption is not None and noted.caption.status == f"<{Better('d1-d2')!r}>"
    only = view_before_move(game, 1, better="a4-a3")
    assert only.arrows == (Arrow(sq("a4", 7), sq("a3", 7), "played"),)
    with pytest.raises(ValueError, match="moves 1 to 1"):
        view_before_move(game, 2)


def test_a_refused_move_ends_in_a_cross_on_its_target_instead_of_a_head() -> None:
    layout = Layout.fit(9)
    for style in ("played", "refused"):
        view = replace(lonely_king(), arrows=(Arrow(sq("b2"), sq("b8"), style),))
        image = render_board(view).convert("RGB")
        x, y = layout.centre(sq("b8"), False)
        quarter = layout.square / 4
        ahead = rgb(image, (x, y - quarter))  # past the centre, along the move (up the board)
        # The head covers the square past its centre; the cross leaves that line clear...
        assert near(ahead, CLASSIC.arrow_played) is (style == "played"), style
        # ...and its bars run corner-wise through the centre.
        corner = rgb(image, (x - quarter * 0.5, y - quarter * 0.5))
        assert near(corner, CLASSIC.arrow_played) is (style == "refused"), style
        assert near(rgb(image, (x, y + layout.square)), CLASSIC.arrow_played)  # the shaft


@pytest.mark.parametrize("style", ["played", "better"])
def test_a_one_square_arrow_is_drawn_long_enough_to_read_at_phone_size(style: str) -> None:
    """On an 11x11 board a phone shows squares about 30 px wide: a one-square move's arrow
    starts nearer its piece's centre so that it spans more than a square, shaft and head."""
    view = board_view_from_game(Game("copenhagen"))
    arrow = Arrow(sq("d4", 11), sq("c4", 11), style)  # type: ignore[arg-type]
    image = render_board(replace(view, arrows=(arrow,))).convert("RGB")
    theme = get_theme("classic")
    colour = theme.arrow_better if style == "better" else theme.arrow_played
    xs = [x for x in range(image.width) for y in range(image.height)
          if image.getpixel((x, y)) == colour]  # fmt: skip
    assert (max(xs) - min(xs)) / Layout.fit(11).square >= 1.1
    # Both of its squares show it.
    layout = Layout.fit(11)
    for name in ("d4", "c4"):
        left, top = layout.top_left(sq(name, 11), False)
        box = image.crop((left, top, left + layout.square, top + layout.square))
        assert colour in {pixel for _, pixel in box.getcolors(1 << 16) or []}
