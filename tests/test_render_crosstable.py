"""The tournament crosstable: its image (size, format, every text inside its column, nothing
overlapping, the same bytes each time, legible when a phone scales it to 380 px) and its text."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from crosstable_samples import SAMPLES, big_swiss, double_round_robin, eight_player_swiss, swiss
from PIL import Image

from bot.discord_bot.compose.tournaments import CROSSTABLE_WORDS
from bot.render import Cell, CrosstableView, PlayerRow, Tiebreak, crosstable_text, render_crosstable
from bot.render.crosstable import (
    BASE_FONT,
    MAX_ROWS,
    Drawn,
    Placed,
    TableStyle,
    _cells_width,
    clean_name,
    draw_crosstable,
    format_points,
    page_count,
)
from bot.render.theme import get_theme

DISCORD_FILE_LIMIT = 10 * 1024 * 1024
PHONE_WIDTH = 380
THEMES = ("classic", "contrast")


def png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


def assert_texts_fit(drawn: Drawn) -> None:
    """Every text (and opponent pill) stays inside the box it was given and inside the image,
    and no two overlap, except a pill and the number written on it."""
    width, height = drawn.image.size
    for placed in drawn.texts:
        x0, y0, x1, y1 = placed.box
        r0, q0, r1, q1 = placed.room
        assert r0 - 1 <= x0 and x1 <= r1 + 1, f"{placed.text!r} is wider than its column"
        assert q0 - 1 <= y0 and y1 <= q1 + 1, f"{placed.text!r} is taller than its row"
        assert x0 >= 0 and x1 <= width and y0 >= 0 and y1 <= height
    boxes = sorted(drawn.texts, key=lambda p: p.box[1])
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b.box[1] >= a.box[3]:
                break  # sorted by top: the rest start below a too
            _assert_apart(a, b)


def _assert_apart(a: Placed, b: Placed) -> None:
    overlap_x = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    overlap_y = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    if overlap_x > 0 and overlap_y > 0:
        pill_and_number = "(pill)" in (a.text, b.text) and (a.room == b.box or b.room == a.box)
        assert pill_and_number, f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}"


# --- the image ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("theme", THEMES)
def test_every_sample_is_a_small_png_whose_texts_fit(name: str, theme: str) -> None:
    view = SAMPLES[name]()
    data = render_crosstable(view, theme=theme)
    image = png(data)
    drawn = draw_crosstable(view, theme=theme)
    assert image.size == drawn.image.size
    assert len(data) < DISCORD_FILE_LIMIT / 20
    assert_texts_fit(drawn)


def test_eight_player_swiss_with_a_bye_a_forfeit_and_a_withdrawal() -> None:
    view = eight_player_swiss()
    data = render_crosstable(view)
    image = png(data)
    # 8 players and 3 rounds: a small image, far under Discord's 10 MiB.
    assert len(data) < 60_000, len(data)
    print(f"8-player Swiss: {image.size[0]}x{image.size[1]} px, {len(data)} bytes")
    texts = [p.text for p in draw_crosstable(view).texts]
    assert texts.count("bye") == 2
    assert "+" in texts and "−" in texts  # the forfeit, both ways
    assert "5–6" in texts  # the tie
    assert "†" in " ".join(texts)
    assert any("withdrew after round 1" in t for t in texts)
    assert "after round 3 of 5" in texts
    assert {"½", "1", "0"} <= set(texts)
    assert texts.count("(pill)") == 2 * 3 * 4 - 2 - 1 - 1  # 8 players x 3 rounds, less byes/absent


def test_a_two_game_match_swiss_shows_game_points() -> None:
    players = [("A", 1500), ("B", 1500), ("C", 1500), ("D", 1500)]
    rounds: list[list[tuple[object, ...]]] = [
        [("game", 0, 1, 1.5, None), ("game", 2, 3, 1.0, None)]
    ]
    view = swiss("Match Swiss", "round 1", players, rounds, games=2)
    texts = [p.text for p in draw_crosstable(view).texts]
    assert "1½" in texts and "½" in texts
    assert any("game points" in t for t in texts)
    assert "1½" in crosstable_text(view)


def test_double_round_robin_grid() -> None:
    view = double_round_robin()
    drawn = draw_crosstable(view)
    cells = [c for c in drawn.columns if c.key.startswith("cell")]
    assert [c.header for c in cells] == ["1", "2", "3", "4", "5"]
    texts = [p.text for p in drawn.texts]
    assert texts.count("1½") >= 3
    # The diagonal is shaded, not written in.
    style = TableStyle.from_theme(get_theme("classic"))
    header_bottom = max(p.box[3] for p in drawn.texts if p.text == "Pts")
    for i, column in enumerate(cells):
        top = header_bottom + 10 + i * round(BASE_FONT * 1.5)
        y = top + round(BASE_FONT * 0.5)
        pixel = drawn.image.getpixel((column.x + column.width // 2, y))
        assert pixel == style.diagonal, (i, pixel)
    assert not drawn.stacked


def test_a_page_of_a_64_player_swiss() -> None:
    view = big_swiss(page=2, rows_per_page=20)
    assert page_count(view) == 4
    data = render_crosstable(view)
    image = png(data)
    print(f"64-player Swiss, rows 21-40: {image.size[0]}x{image.size[1]} px, {len(data)} bytes")
    drawn = draw_crosstable(view)
    texts = [p.text for p in drawn.texts]
    assert any("rows 21–40 of 64" in t for t in texts)
    numbers = [c for c in drawn.columns if c.key == "number"]
    ranks = [t for t in texts if t.isdigit() and 21 <= int(t) <= 40]
    assert numbers and len(set(ranks)) == 20
    assert drawn.stacked  # six rounds and three tiebreaks: two lines a player
    whole = big_swiss(page=1, rows_per_page=None)
    assert len(whole.rows) == MAX_ROWS and page_count(whole) == 1
    whole_data = render_crosstable(whole)
    print(f"64-player Swiss, all rows: {len(whole_data)} bytes")
    assert len(whole_data) < DISCORD_FILE_LIMIT / 10


def test_pages_must_exist() -> None:
    with pytest.raises(ValueError, match="page 5 of 4"):
        big_swiss(page=5, rows_per_page=16)
    with pytest.raises(ValueError, match="rows_per_page"):
        CrosstableView("x", rows_per_page=0, words=CROSSTABLE_WORDS)


@pytest.mark.parametrize("name", ["swiss-8", "swiss-64-page2", "round-robin-5", "arena"])
def test_legible_on_a_phone(name: str) -> None:
    """Scaled to the ~380 px Discord gives an image on a phone, the body text stays at 11 px
    or more (and the smaller text at 9 or more)."""
    drawn = draw_crosstable(SAMPLES[name]())
    scale = PHONE_WIDTH / drawn.image.width
    assert drawn.font_size * scale >= 11, drawn.font_size * scale
    assert drawn.font_size * 0.82 * scale >= 9


def test_same_input_same_bytes() -> None:
    for make in (eight_player_swiss, double_round_robin):
        assert render_crosstable(make()) == render_crosstable(make())
        assert crosstable_text(make()) == crosstable_text(make())


def test_the_themes_differ_and_an_unknown_one_is_refused() -> None:
    view = eight_player_swiss()
    assert render_crosstable(view, theme="classic") != render_crosstable(view, theme="contrast")
    with pytest.raises(ValueError, match="unknown theme"):
        render_crosstable(view, theme="neon")


def test_a_width_can_be_asked_for() -> None:
    view = eight_player_swiss()
    for width in (500, 1200):
        drawn = draw_crosstable(view, width=width)
        assert drawn.image.width == width
        assert_texts_fit(drawn)
    assert png(render_crosstable(view, width=500)).size[0] == 500
    with pytest.raises(ValueError, match="needs at least"):
        render_crosstable(big_swiss(), width=200, stacked=False)


def test_long_and_unicode_names_are_cut_to_their_column() -> None:
    names = [
        "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff Sr.",
        "Þórdís Ægisdóttir",
        "Мстислав Ростропович-Вишневский",
        "李小龍 Bruce",
        "Zoë\u200b\u0007 Line\nbreak",
        "😀" * 30,
    ]
    rows = tuple(
        PlayerRow(i + 1, name, 3 - i * 0.5, 1500, (Cell.game(1, (i + 1) % 6 + 1, "attackers"),))
        for i, name in enumerate(names)
    )
    view = CrosstableView(
        "Names", "", "swiss", rows, (Tiebreak("BH", (1,) * 6, "Buchholz"),), words=CROSSTABLE_WORDS
    )
    for stacked in (False, True):
        drawn = draw_crosstable(view, stacked=stacked)
        assert_texts_fit(drawn)
        shown = [p.text for p in drawn.texts]
        assert any(t.startswith("Hubert") and t.endswith("…") for t in shown)
        assert "Zoë Line break" in shown  # control and zero-width characters dropped
        assert "Bruce" in shown  # what the font cannot draw is left out, not boxed
    text = crosstable_text(view)
    assert "Hubert Blaine…" in text
    assert clean_name("\u200b\n") == "?"


def test_withdrawn_players_are_greyed() -> None:
    view = eight_player_swiss()
    drawn = draw_crosstable(view, stacked=False)
    style = TableStyle.from_theme(get_theme("classic"))
    bjorn = next(p for p in drawn.texts if p.text == "Bjørn")
    ida = next(p for p in drawn.texts if p.text == "Ida")

    def darkest(box: tuple[int, int, int, int]) -> int:
        crop = drawn.image.crop(box).convert("L")
        low, _ = crop.getextrema()  # type: ignore[misc]
        return int(low)

    assert darkest(bjorn.box) > darkest(ida.box) + 40
    assert darkest(ida.box) <= sum(style.text) / 3 + 10


def test_format_points() -> None:
    assert [format_points(v) for v in (0, 0.5, 1, 2.5, 10.25, 3.75, 7, -1.5, 2.3)] == [
        "0",
        "½",
        "1",
        "2½",
        "10¼",
        "3¾",
        "7",
        "−1½",
        "2.3",
    ]
    assert format_points(None) == "" and format_points("n/a") == "n/a"


def test_tiebreaks_need_a_value_per_row() -> None:
    with pytest.raises(ValueError, match="2 values for 1 rows"):
        CrosstableView(
            "x",
            rows=(PlayerRow(1, "A", 0),),
            tiebreaks=(Tiebreak("BH", (1, 2)),),
            words=CROSSTABLE_WORDS,
        )


# --- the text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_text_fits_one_message_in_a_code_block(name: str) -> None:
    text = crosstable_text(SAMPLES[name]())
    assert len(text) <= 2000
    assert text.startswith("**") and text.count("```") == 2


def test_text_of_the_eight_player_swiss() -> None:
    text = crosstable_text(eight_player_swiss())
    block = text.split("```")[1].strip("\n").splitlines()
    header, rows = block[0], block[1:]
    assert len(rows) == 8
    # Columns line up in monospace: the points column ends at the same cell on every line.
    end = _cells_width(header[: header.index("Pts") + 3])
    for row in rows:
        assert _cells_width(row) >= end
    assert "bye +" in text and " +" in text and " −" in text
    assert "5-6" in text
    assert "a/d: played attackers/defenders" in text
    assert "† Bjørn: withdrew after round 1" in text


def test_text_of_a_big_event_is_cut_with_a_note() -> None:
    view = big_swiss(page=1, rows_per_page=None)
    text = crosstable_text(view)
    assert len(text) <= 2000
    assert "more rows not shown" in text
    short = crosstable_text(view, limit=300)
    assert len(short) <= 300 and short.count("```") == 2


def test_arena_rows_show_the_latest_games() -> None:
    view = SAMPLES["arena"]()
    drawn = draw_crosstable(view)
    assert [c.key for c in drawn.columns if c.key == "games"] == ["games"]
    assert any(p.text == "…" for p in drawn.texts)
    assert "4*" in crosstable_text(view)
    empty = replace(view, rows=())
    assert render_crosstable(empty).startswith(b"\x89PNG")


def test_a_long_rank_header_gets_a_column_as_wide_as_itself() -> None:
    """The rank column is as wide as its header in the reader's language (German's
    ``Platzierung``, a pseudo-locale's lengthened word), not only as wide as its numbers."""
    view = replace(eight_player_swiss(), words=replace(CROSSTABLE_WORDS, rank="Platzierung"))
    for stacked in (False, True):
        drawn = draw_crosstable(view, stacked=stacked)
        assert "Platzierung" in [p.text for p in drawn.texts]
        assert_texts_fit(drawn)
