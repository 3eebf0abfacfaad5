"""Board images: structure, not golden bytes (sizes, colours at known squares, flips, frames)."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import game, position
from PIL import Image, ImageSequence

from bot.engine import Game, Side, get_variant, parse_square
from bot.render import (
    ATTACKER,
    DEFENDER,
    EMPTY,
    KING,
    THEMES,
    BoardView,
    Call,
    Caption,
    CaptionWords,
    Layout,
    board_view_from_game,
    get_theme,
    parse_otn_position,
    render_board,
    render_gif,
    render_png,
    replay_views,
    result_status,
)
from bot.render.__main__ import main as cli
from bot.render.board import PNG_MAX_BYTES
from bot.render.caption import _right_items
from bot.render.fonts import ASSETS_DIR, FONT_PATH, drawn_text, font
from bot.render.sprites import KING_RADIUS
from bot.render.theme import RGB, Theme

TABLUT_START = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
CLASSIC = get_theme("classic")


def sq(name: str, size: int = 9) -> int:
    return parse_square(name, size)


def tablut(pieces: str = "", **markers: object) -> BoardView:
    """A 9x9 view with the tablut-ashton special squares, from "K:e5 t:e4" style text."""
    variant = get_variant("tablut-ashton")
    otn = position(9, pieces) if pieces else TABLUT_START
    size, cells = parse_otn_position(otn)
    view = BoardView(
        size,
        cells,
        throne=variant.throne,
        camps=variant.camps,
        corners=frozenset({sq("a1"), sq("i1"), sq("a9"), sq("i9")}),
    )
    return replace(view, **markers)  # type: ignore[arg-type]


def rgb(image: Image.Image, xy: tuple[int, int]) -> RGB:
    pixel = image.convert("RGB").getpixel(xy)
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


def near(a: RGB, b: RGB, tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[RGB]:
    crop = image.convert("RGB").crop(box)
    return {
        (c[0], c[1], c[2])
        for _, c in crop.getcolors(crop.width * crop.height) or []
        if isinstance(c, tuple)
    }


def square_box(layout: Layout, square: int, flip: bool = False) -> tuple[int, int, int, int]:
    x, y = layout.top_left(square, flip)
    return x, y, x + layout.square, y + layout.square


def has_colour(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> bool:
    return any(near(found, colour, 3) for found in colours_in(image, box))


def assert_board_fills_the_image(image: Image.Image, layout: Layout, theme: Theme) -> None:
    """The drawing, not just the canvas, matches ``layout``: margin-coloured outer pixels, a
    frame hugging the squares on all four sides with as much margin on each side, and labels
    at both ends of every margin."""
    picture = image.convert("RGB")
    width, height = picture.size
    assert (width, height) == (layout.width, layout.height)
    x0, y0 = layout.origin
    x1, y1 = x0 + layout.board, y0 + layout.board  # just past the last square
    for corner in (
        (0, layout.caption),
        (width - 1, layout.caption),
        (0, height - 1),
        (width - 1, height - 1),
    ):
        assert rgb(picture, corner) == theme.margin, corner
    # The frame, scanned along the first rank and file of squares: it starts just outside the
    # squares, and the margins beyond it are equal on opposite sides (to a pixel).
    hug = max(2, layout.square // 8)
    row = [x for x in range(width) if picture.getpixel((x, y0 + 1)) == theme.frame]
    column = [y for y in range(height) if picture.getpixel((x0 + 1, y)) == theme.frame]
    assert row and column, "no frame"
    assert x0 - hug <= min(row) < x0 and x1 <= max(row) < x1 + hug, (min(row), max(row))
    assert y0 - hug <= min(column) < y0 and y1 <= max(column) < y1 + hug
    assert abs(min(row) - (width - 1 - max(row))) <= 1
    assert abs((min(column) - layout.caption) - (height - 1 - max(column))) <= 1
    # Coordinates in the margins, level with the first and the last square of each side.
    outer = layout.margin - hug  # the margin without the frame
    for offset in (0, layout.board - layout.square):
        along = (x0 + offset, x0 + offset + layout.square)
        for top in (layout.caption, y1 + hug):
            assert has_colour(picture, (along[0], top, along[1], top + outer), theme.margin_text)
        down = (y0 + offset, y0 + offset + layout.square)
        for left in (0, x1 + hug):
            assert has_colour(picture, (left, down[0], left + outer, down[1]), theme.margin_text)


# --- geometry -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [7, 9, 11, 13, 19])
def test_every_board_size_fills_an_image_about_720_px_square(size: int) -> None:
    view = BoardView(size, (EMPTY,) * (size * size), throne=size * size // 2)
    image = render_board(view)
    layout = Layout.fit(size)
    assert image.mode == "P" and image.width == image.height
    assert_board_fills_the_image(image, layout, CLASSIC)
    # The squares at the four corners of the board are drawn where the layout puts them, in
    # the dark shade of a1; their neighbours in the light one.
    last = size - 1
    for file, rank in ((0, 0), (last, 0), (0, last), (last, last)):
        assert rgb(image, layout.centre(rank * size + file, False)) == CLASSIC.square_alt
    assert rgb(image, layout.centre(1, False)) == CLASSIC.square  # b1
    assert rgb(image, layout.centre(size * size - 2, False)) == CLASSIC.square


def test_nine_by_nine_geometry_is_72_px_squares_in_a_36_px_margin() -> None:
    layout = Layout.fit(9, 720)
    assert (layout.square, layout.margin, layout.width) == (72, 36, 720)
    assert layout.centre(sq("a1"), flip=False) == (72, 648)
    assert layout.centre(sq("a1"), flip=True) == (648, 72)


def test_caption_adds_a_strip_above_the_board() -> None:
    plain = render_board(tablut())
    captioned = render_board(tablut(caption=Caption("Ragnar", "Linnaeus", "attackers", "1.")))
    assert captioned.width == plain.width
    assert captioned.height == plain.height + Layout.fit(9, caption=True).caption
    assert rgb(captioned, (plain.width // 2, 2)) == CLASSIC.caption_bg


def test_width_option_scales_the_drawing_not_just_the_canvas() -> None:
    small = render_board(tablut(), width=360)
    layout = Layout.fit(9, 360)
    assert_board_fills_the_image(small, layout, CLASSIC)
    for name, colour in (
        ("e1", CLASSIC.attacker),
        ("a5", CLASSIC.attacker),
        ("i5", CLASSIC.attacker),
        ("e9", CLASSIC.attacker),
        ("e3", CLASSIC.defender),
        ("e5", CLASSIC.crown),
    ):
        assert near(rgb(small, layout.centre(sq(name), False)), colour), name
    assert rgb(small, layout.centre(sq("c3"), False)) == CLASSIC.square_alt
    with pytest.raises(ValueError, match="at least"):
        render_board(BoardView(19, (EMPTY,) * 361), width=100)


# --- what the squares show ----------------------------------------------------------------------


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_piece_kinds_have_their_colours_at_square_centres(theme: Theme) -> None:
    view = tablut("t:c3 T:d3 K:f3")
    image = render_board(view, theme=theme)
    layout = Layout.fit(9)
    assert near(rgb(image, layout.centre(sq("c3"), False)), theme.attacker)
    assert near(rgb(image, layout.centre(sq("d3"), False)), theme.defender)
    x, y = layout.centre(sq("f3"), False)
    assert near(rgb(image, (x, y)), theme.crown)  # the crown sits on the king's centre
    assert near(rgb(image, (x, y - round(0.76 * KING_RADIUS * layout.square))), theme.king)
    assert near(rgb(image, layout.centre(sq("b2"), False)), theme.square_alt)
    assert near(rgb(image, layout.centre(sq("b3"), False)), theme.square)


def test_theme_colours_survive_palette_mapping_exactly() -> None:
    for theme in THEMES.values():
        for value in vars(theme).values():
            if isinstance(value, tuple):
                assert all(c % 4 == 0 or c == 255 for c in value[:3]), (theme.name, value)


def test_sides_differ_by_lightness_not_only_hue() -> None:
    for theme in THEMES.values():

        def lightness(colour: RGB) -> float:
            return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]

        assert lightness(theme.defender) - lightness(theme.attacker) > 150, theme.name
        assert lightness(theme.king) - lightness(theme.attacker) > 150, theme.name


def test_special_squares_are_drawn_distinctly() -> None:
    view = tablut("t:h2")
    image = render_board(view)
    layout = Layout.fit(9)
    throne, corner, camp = (square_box(layout, sq(name)) for name in ("e5", "a1", "e1"))
    # Each carries its own fill and mark colours...
    assert {CLASSIC.throne, CLASSIC.throne_mark} <= colours_in(image, throne)
    assert {CLASSIC.corner, CLASSIC.corner_mark} <= colours_in(image, corner)
    assert {CLASSIC.camp, CLASSIC.camp_mark} <= colours_in(image, camp)
    # ...and its own shape: the throne's diamond fills the centre, the camp's notches fill the
    # corners of the square and leave the centre plain, the corner's hatching alternates.
    assert rgb(image, layout.centre(sq("e5"), False)) == CLASSIC.throne_mark
    assert rgb(image, layout.centre(sq("e1"), False)) == CLASSIC.camp
    x, y = layout.top_left(sq("e1"), False)
    assert rgb(image, (x + 8, y + 8)) == CLASSIC.camp_mark
    x, y = layout.top_left(sq("a1"), False)
    diagonal = [rgb(image, (x + layout.square // 2 + i, y + layout.square // 2)) for i in range(12)]
    assert CLASSIC.corner in diagonal and CLASSIC.corner_mark in diagonal
    assert rgb(image, layout.centre(sq("e3"), False)) in (CLASSIC.square, CLASSIC.square_alt)


def test_flip_turns_the_board_half_round() -> None:
    view = tablut("t:a1 T:i9")
    layout = Layout.fit(9)
    upright, flipped = render_board(view), render_board(view, flip=True)
    assert near(rgb(upright, (72, 648)), CLASSIC.attacker)  # a1 bottom-left
    assert near(rgb(upright, (648, 72)), CLASSIC.defender)
    assert near(rgb(flipped, (648, 72)), CLASSIC.attacker)  # a1 top-right
    assert near(rgb(flipped, (72, 648)), CLASSIC.defender)
    assert rgb(flipped, layout.centre(sq("a1"), True)) == rgb(upright, (72, 648))


def test_flip_reverses_the_coordinate_labels() -> None:
    view = tablut("t:a1")
    upright, flipped = render_board(view), render_board(view, flip=True)
    label_box = (36, 0, 108, 36)  # above the leftmost file: "a" upright, "i" flipped
    assert has_colour(upright, label_box, CLASSIC.margin_text)
    assert upright.crop(label_box).tobytes() != flipped.crop(label_box).tobytes()
    mirrored_box = (612, 0, 684, 36)  # above the rightmost file shows "a" when flipped
    assert upright.crop(label_box).tobytes() == flipped.crop(mirrored_box).tobytes()


def test_last_move_tints_origin_and_target_and_draws_the_path() -> None:
    plain = tablut("t:d6 K:e5")
    moved = replace(plain, last_move=(sq("d2"), sq("d6")))
    image, before = render_board(moved), render_board(plain)
    layout = Layout.fit(9)
    origin = layout.top_left(sq("d2"), False)
    corner = (origin[0] + 6, origin[1] + 6)  # away from the path dot
    tinted = rgb(image, corner)
    assert tinted != rgb(before, corner)
    assert tinted[2] < rgb(before, corner)[2]  # a yellow wash: less blue
    target = layout.top_left(sq("d6"), False)
    assert rgb(image, (target[0] + 6, target[1] + 6)) == tinted or near(
        rgb(image, (target[0] + 6, target[1] + 6)), tinted, 12
    )
    # The path runs through the squares between (d4) and not through the rest of the board.
    x, y = layout.centre(sq("d4"), False)
    assert rgb(image, (x, y)) != rgb(before, (x, y))
    assert rgb(image, (x + layout.square // 3, y)) == rgb(before, (x + layout.square // 3, y))
    assert rgb(image, layout.centre(sq("h4"), False)) == rgb(before, layout.centre(sq("h4"), False))


def test_captures_are_marked_where_the_pieces_stood() -> None:
    view = tablut("t:d4,f4 K:e5", last_move=(sq("f2"), sq("f4")), captured=((sq("e4"), DEFENDER),))
    image = render_board(view)
    layout = Layout.fit(9)
    assert rgb(image, layout.centre(sq("e4"), False)) == CLASSIC.capture
    assert not has_colour(image, square_box(layout, sq("d4")), CLASSIC.capture)


def test_open_routes_run_from_the_king_to_a_bullseye_on_each_escape_square() -> None:
    view = tablut("K:c7", routes=(sq("a7"), sq("c9")))
    image = render_board(view)
    layout = Layout.fit(9)
    for target in ("a7", "c9"):
        assert rgb(image, layout.centre(sq(target), False)) == CLASSIC.route
    assert has_colour(image, square_box(layout, sq("b7")), CLASSIC.route)  # the dotted line
    assert has_colour(image, square_box(layout, sq("c8")), CLASSIC.route)
    assert not has_colour(image, square_box(layout, sq("d7")), CLASSIC.route)
    assert not has_colour(image, square_box(layout, sq("c6")), CLASSIC.route)


def test_a_threatened_king_is_ringed() -> None:
    calm = render_board(tablut("K:c7 t:b7"))
    threatened = render_board(tablut("K:c7 t:b7", king_threatened=True))
    box = square_box(Layout.fit(9), sq("c7"))
    assert has_colour(threatened, box, CLASSIC.threat)
    assert not has_colour(calm, box, CLASSIC.threat)


def test_caption_underlines_the_side_to_move() -> None:
    def underline_x(to_move: str) -> float:
        caption = Caption("Ragnar", "Linnaeus", to_move, "3.", "e1-e4")  # type: ignore[arg-type]
        image = render_board(tablut(caption=caption)).convert("RGB")
        strip = Layout.fit(9, caption=True).caption
        xs = [
            x
            for x in range(image.width)
            for y in range(strip - 10, strip)
            if rgb(image, (x, y)) == CLASSIC.caption_accent
        ]
        assert xs, "no underline"
        return sum(xs) / len(xs)

    assert underline_x("attackers") < underline_x("defenders") < 720 / 2


def test_long_player_names_are_shortened_to_fit() -> None:
    caption = Caption("A" * 200, "D" * 200, "attackers", "120…", "e1-e4", "Tuichi!", 15, 7)
    image = render_board(tablut(caption=caption))
    assert image.width == 720


def test_names_leave_out_what_the_font_cannot_draw() -> None:
    assert drawn_text("⚔️ Bjorn 🐉") == "⚔ Bjorn"  # the emoji and its variation selector go
    assert drawn_text("李小龍 Bruce") == "Bruce"
    assert drawn_text("Þórdís Ægisdóttir") == "Þórdís Ægisdóttir"
    assert drawn_text("山田") == "山田"  # nothing to draw: its boxes keep it apart from others
    # On the board: "Ragnar 🐉" is drawn as "Ragnar", with no box after it.
    captioned = [
        render_board(tablut(caption=Caption(name, "Carl", "attackers", "12", "e1-e4")))
        for name in ("Ragnar 🐉", "Ragnar")
    ]
    assert captioned[0].tobytes() == captioned[1].tobytes()


# --- encoding -----------------------------------------------------------------------------------


def test_png_is_a_small_palette_image() -> None:
    data = render_png(tablut(last_move=(sq("d1"), sq("d3"))))
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and image.mode == "P"
    assert len(data) < 40_000


def test_a_crowded_seven_by_seven_board_with_every_marker_stays_under_40_kb() -> None:
    rng = random.Random(6)  # a fidchell game whose 28th position was 44.8 KB at the quick level
    played = Game("fidchell")
    while played.ply < 28:
        played.play(rng.choice(played.legal_moves()))
    view = board_view_from_game(
        played, caption=True, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus"
    )
    data = render_png(view)
    assert len(data) < PNG_MAX_BYTES == 40_000
    assert Image.open(io.BytesIO(data)).tobytes() == render_board(view).tobytes()  # lossless


def test_rendering_is_a_pure_function_of_its_input() -> None:
    view = tablut(last_move=(sq("d1"), sq("d3")), routes=(sq("a7"),))
    assert render_png(view) == render_png(view)
    assert render_png(view, theme="contrast") != render_png(view)


def test_themes_are_registered_and_unknown_names_fail_clearly() -> None:
    assert {"classic", "contrast"} <= set(THEMES)
    assert get_theme("Contrast") is THEMES["contrast"]
    with pytest.raises(ValueError, match="classic"):
        get_theme("neon")


def test_gif_has_one_frame_per_position_and_holds_the_last() -> None:
    game = Game("tablut")
    for move in ("d1-d3", "e3-f3", "a4-c4", "f3-f2"):
        game.play(move)
    views = replay_views(game)
    gif = Image.open(io.BytesIO(render_gif(views, first_ms=1000, frame_ms=500, last_ms=3000)))
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert durations == [1000, 500, 500, 500, 3000]  # one frame per position, the last held
    assert gif.info["loop"] == 0
    # Frames store only what changed; played through, the last frame shows the final position.
    assert near(rgb(gif, Layout.fit(9).centre(sq("f2"), False)), CLASSIC.defender)
    assert near(rgb(gif, Layout.fit(9).centre(sq("e3"), False)), CLASSIC.square_alt)


def test_gif_refuses_mixed_board_sizes() -> None:
    with pytest.raises(ValueError, match="same board size"):
        render_gif([tablut(), BoardView(7, (EMPTY,) * 49)])


# --- views --------------------------------------------------------------------------------------


def test_otn_positions_parse_rank_one_first() -> None:
    size, cells = parse_otn_position(TABLUT_START)
    assert size == 9 and cells[sq("e1")] == ATTACKER and cells[sq("e5")] == KING
    assert cells.count(ATTACKER) == 16 and cells.count(DEFENDER) == 8
    with pytest.raises(ValueError, match="rank 2"):
        parse_otn_position("/3ttt3/4t3/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")
    with pytest.raises(ValueError, match="'x'"):
        parse_otn_position("/3x3/7/7/7/7/7/7/")


def test_board_view_rejects_what_cannot_be_drawn() -> None:
    with pytest.raises(ValueError, match="cells"):
        BoardView(9, (EMPTY,) * 80)
    with pytest.raises(ValueError, match="rank or file"):
        BoardView(9, (EMPTY,) * 81, last_move=(sq("a1"), sq("b2")))
    with pytest.raises(ValueError, match="off the"):
        BoardView(9, (EMPTY,) * 81, routes=(81,))


def test_view_from_game_carries_move_captures_and_caption() -> None:
    game = Game("tablut", position(9, "K:e5 T:e4 t:d4,a4"), turn=None)
    result = game.play("a4-c4")
    view = board_view_from_game(game, caption=True, attackers="Ragnar", defenders="Linnaeus")
    assert view.last_move == (sq("a4"), sq("c4"))
    assert view.throne == sq("e5") and view.cells[sq("c4")] == ATTACKER
    assert view.caption is not None
    assert view.caption.attackers == "Ragnar" and view.caption.to_move == "defenders"
    assert view.caption.move_label == "1." and view.caption.move_text == "a4-c4"
    assert result.notation == "a4-c4-"  # the record keeps OTN's suffix; the picture shows it


def test_view_from_game_marks_captured_pieces() -> None:
    game = Game("tablut", position(9, "K:e5 T:c4 t:b4,d1"), turn=None)
    result = game.play("d1-d4")
    assert result.captures == (sq("c4"),)
    view = board_view_from_game(game)
    assert view.captured == ((sq("c4"), DEFENDER),)
    image = render_board(view)
    assert rgb(image, Layout.fit(9).centre(sq("c4"), False)) == CLASSIC.capture


def test_replay_views_cover_every_position() -> None:
    game = Game("brandubh")
    for move in ("d7-b7", "d5-c5"):
        game.play(move)
    views = replay_views(game, caption=True)
    assert len(views) == 3
    assert (
        views[0].last_move is None
        and views[0].cells == board_view_from_game(Game("brandubh")).cells
    )
    assert views[2].caption is not None
    assert (views[2].caption.move_label, views[2].caption.move_text) == ("1…", "d5-c5")


# --- command line and assets ---------------------------------------------------------------------


def test_cli_renders_a_position(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert (
        cli(
            [
                "tablut",
                TABLUT_START,
                "--last",
                "d1-d3",
                "--flip",
                "--theme",
                "contrast",
                "-o",
                str(out),
            ]
        )
        == 2
    )  # d3 is empty in the start position: a clear error
    assert cli(["brandubh", "--flip", "--theme", "contrast", "-o", str(out)]) == 0
    image = Image.open(out)
    assert image.size == (720, 720) and image.mode == "P"


def test_cli_refuses_captures_on_occupied_squares(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    moved = "/1t5/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"  # d1-b1 played
    args = ["brandubh", moved, "--last", "d1-b1", "-o", str(out)]
    assert cli([*args, "--captured", "d4"]) == 2  # the king stands on d4
    assert cli([*args, "--captured", "c1"]) == 0


def test_cli_renders_a_record_as_gif(tmp_path: Path) -> None:
    game = Game("brandubh")
    for move in ("d7-b7", "d5-c5", "b7-b6"):
        game.play(move)
    record = tmp_path / "game.otn"
    record.write_text(game.to_record(), encoding="utf-8")
    out = tmp_path / "replay.gif"
    assert cli(["--record", str(record), "--caption", "-o", str(out)]) == 0
    assert len(list(ImageSequence.Iterator(Image.open(out)))) == 4


def test_font_ships_with_its_licence() -> None:
    assert FONT_PATH.is_file()
    assert "Bitstream" in (ASSETS_DIR / "fonts" / "LICENSE-DejaVu.txt").read_text("utf-8")


def test_a_captured_king_is_crossed_out_and_the_result_captioned() -> None:
    game = Game("tablut", position(9, "K:c3 t:b3,d1 T:h8"), turn=None)
    assert game.play("d1-d3").king_captured
    view = board_view_from_game(game, caption=True)
    assert (sq("c3"), KING) in view.captured
    assert view.caption is not None and view.caption.to_move is None
    assert view.caption.status == "Attackers win: king captured"
    image = render_board(view)
    assert rgb(image, Layout.fit(9, caption=True).centre(sq("c3"), False)) == CLASSIC.capture


# --- markers after every move, numbering and material in the caption ------------------------------


def test_routes_and_the_danger_ring_are_drawn_after_an_attackers_move_too() -> None:
    played = game("tablut", "K:c7 t:b7,d1,i1 T:h2")
    result = played.play("i1-i3")  # the attackers leave three roads open and threaten d7
    assert result.side.value == "attackers" and not result.raichi and not result.tuichi
    view = board_view_from_game(played)
    assert sorted(view.routes) == sorted(sq(name) for name in ("c1", "c9", "i7"))
    assert view.king_threatened
    image = render_board(view)
    layout = Layout.fit(9)
    for target in ("c1", "c9", "i7"):
        assert rgb(image, layout.centre(sq(target), False)) == CLASSIC.route
    assert has_colour(image, square_box(layout, sq("c7")), CLASSIC.threat)
    caption = board_view_from_game(played, caption=True).caption
    assert caption is not None and caption.status == "Open roads!"  # not a call: not theirs

    # A puzzle being solved keeps them to itself: finding them is the puzzle.
    hidden = board_view_from_game(played, caption=True, hints=False)
    assert hidden.routes == () and not hidden.king_threatened
    assert hidden.caption is not None and hidden.caption.status is None
    assert hidden.last_move == view.last_move  # the move itself is still shown


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_a_capture_cross_never_hides_a_route_target(theme: Theme) -> None:
    played = game("tablut", "K:c3 T:b1,d5 t:c1,i9,a9", "defenders")
    result = played.play("d5-d1")  # takes c1, which opens the king's road to c1 itself
    assert result.captures == (sq("c1"),) and sq("c1") in result.routes
    image = render_board(board_view_from_game(played), theme=theme)
    layout = Layout.fit(9)
    x, y = layout.top_left(sq("c1"), False)
    half = layout.square // 2
    # The bullseye keeps the centre; the cross sits in the top right corner, seen beside it.
    assert rgb(image, layout.centre(sq("c1"), False)) == theme.route
    assert has_colour(image, (x + half + 8, y, x + layout.square, y + half - 8), theme.capture)
    assert not has_colour(image, (x, y + half, x + half, y + layout.square), theme.capture)


def test_caption_numbers_moves_as_the_record_does_when_the_defenders_move_first() -> None:
    played = Game("tablut-ashton")
    first = played.play(played.legal_moves()[0])
    assert first.side.value == "defenders"
    caption = board_view_from_game(played, caption=True).caption
    assert caption is not None and caption.move_label == "1."
    played.play(played.legal_moves()[0])
    caption = board_view_from_game(played, caption=True).caption
    assert caption is not None and caption.move_label == "1…"
    assert played.to_record().endswith(f"\n1. {first.notation} {played.history[1].notation}\n")


def test_caption_counts_the_pieces_each_side_has_lost() -> None:
    played = game("tablut", "K:e5 T:c4 t:b4,d1,i9 T:h8")
    played.play("d1-d4")
    caption = board_view_from_game(played, caption=True).caption
    assert caption is not None
    assert (caption.attackers_lost, caption.defenders_lost) == (0, 1)
    with_losses = render_board(tablut(caption=replace(caption, defenders_lost=1)))
    without = render_board(tablut(caption=replace(caption, defenders_lost=0)))
    strip = Layout.fit(9, caption=True).caption
    assert (
        with_losses.crop((0, 0, 720, strip)).tobytes() != without.crop((0, 0, 720, strip)).tobytes()
    )


def test_a_short_caption_keeps_the_move_number_and_drops_the_result_detail_first() -> None:
    caption = Caption(
        "Ragnar Lodbrok",
        "Carl Linnaeus",
        None,
        "38.",
        "d3-d5",
        "Attackers win: king's group surrounded",
        5,
        7,
    )
    face = font(10)  # the caption's type at 360 px
    gap = face.getlength("   ")
    full = _right_items(caption, face, gap, room=1000)
    assert [text for text, _ in full] == ["Attackers win: king's group surrounded", "38. d3-d5"]
    short = _right_items(caption, face, gap, room=face.getlength("Attackers win   38. d3-d5"))
    assert [text for text, _ in short] == ["Attackers win", "38. d3-d5"]
    tight = _right_items(caption, face, gap, room=face.getlength("Attackers win"))
    assert [text for text, _ in tight] == ["Attackers win"]


# --- Copenhagen, 11x11 ---------------------------------------------------------------------------

COPENHAGEN_ENDINGS = {
    # A shieldwall: the attacker closing the row on e1 (the corner a1 closes the other end)
    # takes b1, c1 and d1 together.
    "shieldwall": (game("copenhagen", "K:f6 T:b1,c1,d1,f5,g6 t:b2,c2,d2,e4,j6,k7"), ("e4-e1",)),
    "exit fort": (
        game("copenhagen", "K:f2 T:e1,g1,e2,g2,e3,f3 t:a6,k6,f11", "defenders"),
        ("f2-f1",),
    ),
    "encirclement": (game("copenhagen", "K:f6 T:f7 t:e6,g6,f5,e7,g7,f9,a2"), ("f9-f8",)),
    # Beside the empty throne three attackers are enough.
    "king captured": (game("copenhagen", "K:f7 T:d6,h6,g4 t:e7,g7,f10,b2,j3,a6"), ("f10-f8",)),
}


def copenhagen_view(name: str, **names: str) -> BoardView:
    start, moves = COPENHAGEN_ENDINGS[name]
    played = start.copy()
    for move in moves:
        played.play(move)
    return board_view_from_game(played, caption=True, **names)


def test_copenhagen_marks_its_throne_and_four_corners_on_an_11x11_board() -> None:
    view = copenhagen_view("king captured")
    assert view.size == 11 and view.cells[sq("f6", 11)] == EMPTY and not view.camps
    image = render_board(view)
    layout = Layout.fit(11, caption=True)
    assert rgb(image, layout.centre(sq("f6", 11), False)) == CLASSIC.throne_mark
    for corner in ("a1", "k1", "a11", "k11"):
        box = square_box(layout, sq(corner, 11))
        assert {CLASSIC.corner, CLASSIC.corner_mark} <= colours_in(image, box), corner
    # The king taken beside the throne is crossed out where he stood.
    assert rgb(image, layout.centre(sq("f7", 11), False)) == CLASSIC.capture
    assert view.caption is not None and view.caption.status == "Attackers win: king captured"


def test_a_shieldwall_capture_crosses_out_the_whole_row() -> None:
    view = copenhagen_view("shieldwall")
    assert sorted(view.captured) == [(sq(name, 11), DEFENDER) for name in ("b1", "c1", "d1")]
    image = render_board(view)
    layout = Layout.fit(11, caption=True)
    for name in ("b1", "c1", "d1"):
        assert has_colour(image, square_box(layout, sq(name, 11)), CLASSIC.capture), name


@pytest.mark.parametrize("name", ["start", *COPENHAGEN_ENDINGS])
def test_copenhagen_boards_stay_under_40_kb_at_720_and_360_px(name: str) -> None:
    if name == "start":
        view = board_view_from_game(
            Game("copenhagen"), caption=True, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus"
        )
    else:
        view = copenhagen_view(name, attackers="Ragnar Lodbrok", defenders="Carl Linnaeus")
    for width in (720, 360):
        for theme in THEMES:
            data = render_png(view, width=width, theme=theme)
            assert len(data) < PNG_MAX_BYTES, (width, theme, len(data))
            assert Image.open(io.BytesIO(data)).width == Layout.fit(11, width).width


@pytest.mark.parametrize(
    ("name", "words", "width"),
    [
        ("exit fort", "Defenders win: exit fort", 720),
        ("exit fort", "Defenders win: exit fort", 360),
        ("encirclement", "Attackers win: encirclement", 720),
    ],
)
def test_copenhagens_results_fit_the_caption_in_full(name: str, words: str, width: int) -> None:
    """The detail of the result is drawn, not dropped: the strip differs from one whose status
    has no detail. (At 360 px "encirclement" gives way to the move, as designed: the chat
    says it in words.)"""
    view = copenhagen_view(name, attackers="Ann", defenders="Bo")
    assert view.caption is not None and view.caption.status == words
    bare = replace(view, caption=replace(view.caption, status=words.split(":")[0]))
    strip = (0, 0, width, Layout.fit(11, width, caption=True).caption)
    assert (
        render_board(view, width=width).crop(strip).tobytes()
        != render_board(bare, width=width).crop(strip).tobytes()
    )


def test_a_repetition_the_defenders_lose_is_captioned_in_one_short_word() -> None:
    played = Game("copenhagen")
    for move in ("d1-d2", "f4-e4", "d2-d1", "e4-f4") * 2:
        played.play(move)
    caption = board_view_from_game(played, caption=True).caption
    assert caption is not None and caption.status == "Attackers win: repetition"


def test_an_exit_fort_that_won_is_marked_on_its_squares_and_nowhere_else() -> None:
    from bot.render.board import tile_keys
    from bot.render.layout import Layout

    won = game("copenhagen", "K:f2 T:d1,e1,g1,h1,d2,h2,d3,e3,f3,g3,h3 t:a6,k6,f11", "defenders")
    won.play("f2-f1")
    fort = won.exit_fort()
    assert sorted(fort) == sorted(parse_square(name, 11) for name in ("e2", "f1", "f2", "g2")), (
        "the king's square and the empty squares inside the wall"
    )
    view = board_view_from_game(won, caption=True)
    assert view.fort == fort
    keys = dict(tile_keys(view, Layout.fit(11, 720, caption=True), flip=False))
    assert {square for square, key in keys.items() if key.fort} == fort
    for theme in ("classic", "contrast"):
        data = render_png(view, theme=theme)
        assert len(data) < PNG_MAX_BYTES
    # The same wall one move earlier has not won: nothing is marked.
    before = game("copenhagen", "K:f2 T:d1,e1,g1,h1,d2,h2,d3,e3,f3,g3,h3 t:a6,k6,f11", "defenders")
    assert before.exit_fort() == frozenset()
    assert board_view_from_game(before).fort == frozenset()


def test_a_reviewed_board_drops_its_move_before_the_better_move_and_its_number_last() -> None:
    caption = Caption(
        "Ragnar Lodbrok",
        "Carl Linnaeus",
        None,
        "13…",
        "c9-g9",
        "Blunder: better a4-a6",
        7,
        1,
        status_first=True,
    )
    face = font(10)
    gap = face.getlength("   ")
    full = _right_items(caption, face, gap, room=1000)
    assert [text for text, _ in full] == ["Blunder: better a4-a6", "13… c9-g9"]
    numbered = _right_items(caption, face, gap, room=face.getlength("Blunder: better a4-a6   13… "))
    assert [text for text, _ in numbered] == ["Blunder: better a4-a6", "13…"]
    short = _right_items(caption, face, gap, room=face.getlength("Blunder: better a4-a6 "))
    assert [text for text, _ in short] == ["Blunder", "13… c9-g9"]
    tight = _right_items(caption, face, gap, room=face.getlength("Blunder   13… "))
    assert [text for text, _ in tight] == ["Blunder", "13…"]
    tightest = _right_items(caption, face, gap, room=face.getlength("Blunder"))
    assert [text for text, _ in tightest] == ["Blunder"]


@pytest.mark.parametrize(
    "ended", ["Defenders win: resignation", "Draw: by agreement", "Called off"]
)
def test_a_game_ended_off_the_board_is_captioned_with_how_it_ended_not_a_turn_or_call(
    ended: str,
) -> None:
    played = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders")
    played.play("h8-h7")  # Raichi: the king has a road to i4, and the attackers are to move
    live = board_view_from_game(played, caption=True)
    assert live.caption is not None and live.caption.status == "Raichi!"
    assert live.caption.to_move == "attackers"

    assert live.routes  # the road to i4
    view = board_view_from_game(played, caption=True, ended=ended)
    assert view.caption is not None
    assert view.caption.status == ended and view.caption.to_move is None
    assert view.routes == () and not view.king_threatened  # nothing left to play for
    # The last frame of a replay shows the same ending.
    assert replay_views(played, caption=True, ended=ended)[-1] == view


def test_a_result_is_worded_for_the_caption_winner_first() -> None:
    assert result_status(Side.DEFENDERS, "resignation") == "Defenders win: resignation"
    assert result_status(None, "threefold repetition") == "Draw: threefold repetition"


def test_the_caption_draws_the_words_it_is_given() -> None:
    """The caller words the caption: the side names where no player is named, and the note
    (the renderer's own words are only the command line's default)."""
    words = CaptionWords("Angreifer", "Verteidiger", lambda status: f"<{status!r}>")
    played = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders")
    played.play("h8-h7")  # Raichi
    caption = board_view_from_game(played, caption=True, words=words).caption
    assert caption is not None
    assert (caption.attackers, caption.defenders) == ("Angreifer", "Verteidiger")
    assert caption.status == f"<{Call.RAICHI!r}>"
    named = board_view_from_game(played, caption=True, attackers="Ragnar", words=words).caption
    assert named is not None and (named.attackers, named.defenders) == ("Ragnar", "Verteidiger")
    won = game("tablut", "K:c3 t:b3,d1 T:h8")
    won.play("d1-d3")  # the king captured
    frames = replay_views(won, caption=True, words=words)
    assert frames[-1].caption is not None
    assert frames[-1].caption.status == f"<{won.outcome!r}>"
    assert all(frame.caption and frame.caption.attackers == "Angreifer" for frame in frames)
    # As drawn: other words, another image.
    assert render_png(board_view_from_game(played, caption=True, words=words)) != render_png(
        board_view_from_game(played, caption=True)
    )
