"""The evaluation chart: its size, the sides' areas and the moments' marks at known places."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from helpers import BRANDUBH_GROUP_CAPTURE, MADE_UP_BLUNDER, made_up_analysis, position
from PIL import Image

from bot.ai.analysis import Moment, MomentKind, evaluate_position, review
from bot.ai.search import MATE
from bot.engine import Side
from bot.render import render_png
from bot.render.adapter import analysis_view
from bot.render.chart import (
    ASPECT,
    SCALE,
    ChartWords,
    _Frame,
    draw_eval_chart,
    render_eval_chart,
)
from bot.render.theme import RGB, get_theme

CLASSIC = get_theme("classic")


def rgb(image: Image.Image, xy: tuple[float, float]) -> RGB:
    pixel = image.convert("RGB").getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


def near(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


# --- the chart ----------------------------------------------------------------------------------


def test_the_chart_is_a_png_of_the_asked_width() -> None:
    analysis = made_up_analysis((MADE_UP_BLUNDER,))
    for width in (800, 400):
        data = render_eval_chart(analysis, width=width, attackers="Ragnar", defenders="Carl")
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG")
        assert image.size == (width, round(width * ASPECT))
    with pytest.raises(ValueError, match="at least"):
        render_eval_chart(analysis, width=200)


def test_the_attackers_share_is_dark_below_the_line_and_the_defenders_light_above() -> None:
    analysis = made_up_analysis()
    image = draw_eval_chart(analysis, theme=CLASSIC)
    frame = _Frame(image.width * SCALE, image.height * SCALE, len(analysis.evals))

    def at(index: float, chance: float) -> RGB:
        return rgb(image, (frame.x(index) / SCALE, frame.y(chance) / SCALE))

    # Even for the first eight positions (50%), then 400 for the attackers (about 71%).
    assert analysis.win_chances()[3] == 0.5 and 0.70 < analysis.win_chances()[12] < 0.72
    assert near(at(3, 0.4), CLASSIC.attacker) and near(at(3, 0.6), CLASSIC.defender)
    assert near(at(12, 0.6), CLASSIC.attacker) and near(at(12, 0.8), CLASSIC.defender)


def test_a_moment_is_marked_on_the_line_in_its_kinds_colour() -> None:
    missed = Moment(
        12,
        Side.DEFENDERS,
        MomentKind.MISSED_WIN,
        "c5-a5",
        "d4-d7",
        -MATE + 1,
        400,
        "...",
        1.0,
        critical=True,
    )
    plain = draw_eval_chart(made_up_analysis(), theme=CLASSIC)
    marked = draw_eval_chart(made_up_analysis((MADE_UP_BLUNDER, missed)), theme=CLASSIC)
    frame = _Frame(plain.width * SCALE, plain.height * SCALE, len(BRANDUBH_GROUP_CAPTURE) + 1)
    for moment, colour in (
        (MADE_UP_BLUNDER, CLASSIC.moment_blunder),
        (missed, CLASSIC.moment_missed_win),
    ):
        on_line = made_up_analysis().win_chances()[moment.ply]
        centre = (frame.x(moment.ply) / SCALE, frame.y(on_line) / SCALE)
        assert near(rgb(marked, centre), colour, 30), moment.kind
        assert not near(rgb(plain, centre), colour, 30)
        # The critical labels are filled, in the row nearest the plot (they do not overlap).
        label = (frame.x(moment.ply) / SCALE, (frame.header + frame.row * 1.2) / SCALE)
        assert near(rgb(marked, label), colour, 30)


def test_a_real_analysis_draws_in_both_themes() -> None:
    start = position(7, "K:a4 t:a3,b2,b6,c5,e7,g3 T:d3,e4")
    moves = ["d3-d2", "c5-a5"]
    evals = [
        evaluate_position("brandubh", start, Side.DEFENDERS, moves[:n], max_depth=1)
        for n in range(3)
    ]
    analysis = review("brandubh", start, Side.DEFENDERS, moves, evals)
    assert analysis.moments  # the missed escape
    for theme in ("classic", "contrast"):
        assert render_eval_chart(analysis, theme=theme).startswith(b"\x89PNG")
        assert render_png(analysis_view(analysis, 1, caption=True), theme=theme)


def test_the_legend_of_every_kind_and_the_boards_stays_inside_the_chart() -> None:
    moments = tuple(
        Moment(2 + index, Side.DEFENDERS, kind, "f5-f3", "f5-f4", 0, 400, "...", 0.5,
               critical=True)
        for index, kind in enumerate(MomentKind)
    )  # fmt: skip
    for kinds in (moments, moments[:1]):
        image = draw_eval_chart(made_up_analysis(kinds), theme=CLASSIC)
        frame = _Frame(image.width * SCALE, image.height * SCALE, len(BRANDUBH_GROUP_CAPTURE) + 1)
        y = (frame.height - frame.legend / 2) / SCALE
        row = [rgb(image, (x, y)) for x in range(image.width)]
        inked = [x for x, colour in enumerate(row) if not near(colour, row[0], 20)]
        # Drawn, and clear of both edges.
        assert inked and inked[0] > image.width * 0.01 and inked[-1] < image.width * 0.99


def test_a_legend_too_long_for_one_row_takes_two_inside_the_chart() -> None:
    """German's and Spanish's names of the five kinds do not fit one row even at the smallest
    face: the legend takes two rows, both clear of the chart's edges."""
    moments = tuple(
        Moment(2 + index, Side.DEFENDERS, kind, "f5-f3", "f5-f4", 0, 400, "...", 0.5,
               critical=True)
        for index, kind in enumerate(MomentKind)
    )  # fmt: skip
    words = ChartWords(
        kinds={
            MomentKind.BLUNDER: "grober Fehler",
            MomentKind.MISSED_WIN: "verpasster Gewinn",
            MomentKind.MISSED_DEFENCE: "verpasste Verteidigung",
            MomentKind.MISTAKE: "Fehler",
            MomentKind.INACCURACY: "Ungenauigkeit",
        },
        on_board=("auf einem Brett gezeigt", "auf einem Brett"),
    )
    image = draw_eval_chart(made_up_analysis(moments), theme=CLASSIC, words=words)
    frame = _Frame(image.width * SCALE, image.height * SCALE, len(BRANDUBH_GROUP_CAPTURE) + 1)
    middle = frame.height - frame.legend / 2
    for y in (middle - frame.legend / 4, middle + frame.legend / 4):
        row = [rgb(image, (x, y / SCALE)) for x in range(image.width)]
        inked = [x for x, colour in enumerate(row) if not near(colour, row[0], 20)]
        assert inked and inked[0] > image.width * 0.01 and inked[-1] < image.width * 0.99


def test_only_a_labelled_moment_has_a_line_from_its_label_down_to_the_plot() -> None:
    # A long game with a moment at every ply: two rows of labels cannot hold them all, and a
    # line for each mark would bar the plot.
    short = made_up_analysis()
    plies = 4 * len(short.moves)
    moments = tuple(
        Moment(ply, short.mover(ply), MomentKind.BLUNDER, "f5-f3", "f5-f4", 0, 400, "...",
               0.9 - ply / 1000)
        for ply in range(1, plies + 1)
    )  # fmt: skip
    analysis = replace(
        short, moves=short.moves * 4, evals=(short.evals[0],) * (plies + 1),
        move_accuracy=(100.0,) * plies, moments=moments,
    )  # fmt: skip
    image = draw_eval_chart(analysis, theme=CLASSIC)
    frame = _Frame(image.width * SCALE, image.height * SCALE, plies + 1)
    # Just inside the top of the plot: far from every mark (the line is at 50%).
    y = (frame.top + frame.row * 0.3) / SCALE
    lined = [
        moment.ply for moment in moments
        if near(rgb(image, (frame.x(moment.ply) / SCALE, y)), CLASSIC.moment_blunder, 40)
    ]  # fmt: skip
    # The costliest (the earliest here) claim the labels first: they have lines, the rest none.
    assert lined and lined[0] == 1 and len(lined) < plies // 2, lined
