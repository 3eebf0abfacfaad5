"""Arrows over a rendered board: the move played (solid), the better move (dashed), and a move
tried and refused (solid, with a cross where a head would be).

Arrows cross squares, so they are not tiles: each is drawn once over the finished board, as two
anti-aliased masks (a light halo, then the colour) rendered at SUPERSAMPLE times the size inside
the arrow's own bounding box only, which keeps it cheap. The styles differ by shape as well as by
colour (solid against dashed shaft, a wider head for the better move), so a reader who cannot
tell the hues apart still can tell the arrows apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFilter

from bot.render.layout import Layout
from bot.render.palette import quantize
from bot.render.sprites import SUPERSAMPLE
from bot.render.theme import Theme
from bot.render.view import Arrow

SHAFT = 0.17
"""Shaft width as a fraction of a square."""
HEAD_LENGTH = 0.42
HEAD_WIDTH = {"played": 0.44, "better": 0.52, "refused": 0.44}
CROSS = 0.3
"""Half the span of a refused move's cross, centred on its target (fraction of a square)."""
TIP_BEYOND_CENTRE = 0.28
"""How far past the target square's centre the tip reaches (fractions of a square): the head
sits on the target square, clear of the next one."""
DASH, GAP = 0.26, 0.14
"""The better move's dashes and gaps along the shaft (fractions of a square)."""
HALO = 0.045
"""Width of the light rim (fraction of a square)."""
START_BEYOND_CENTRE = 0.3
"""How far from the origin square's centre the arrow starts (fraction of a square): at the
piece's rim, so the piece, a king's crown above all, stays in view."""
MIN_DRAWN = 1.2
"""The shortest an arrow is drawn, start to tip (squares): a one-square move starts nearer its
piece's centre, so that its shaft still shows beside its head when a phone shows the board at
360 px."""
SIDE_BY_SIDE = 0.19
"""How far two arrows along the same line are moved apart, each to its side (fraction of a
square), so that the one underneath still shows."""

Point = tuple[float, float]


def draw_arrows(
    image: Image.Image,
    layout: Layout,
    flip: bool,
    arrows: Iterable[Arrow],
    theme: Theme,
    palette: Image.Image | None = None,
) -> Image.Image:
    """``image`` with the arrows drawn over it, in place; the better move goes on top, since it
    is the one the picture teaches.

    A palette image needs its ``palette``: only the boxes the arrows cover are drawn in RGB and
    mapped back to it, so the rest of the board keeps its exact pixels.
    """
    ordered = sorted(arrows, key=lambda item: item.style == "better")
    ends = [(layout.centre(a.origin, flip), layout.centre(a.target, flip)) for a in ordered]
    for index, arrow in enumerate(ordered):
        others = ends[:index] + ends[index + 1 :]
        shift = SIDE_BY_SIDE if any(_overlap(ends[index], other) for other in others) else 0.0
        # Side by side: the played move to one side of the line, the better one to the other.
        side = shift if arrow.style == "better" else -shift
        _draw(image, layout, *ends[index], arrow, theme, palette, side)
    return image


def _overlap(first: tuple[Point, Point], second: tuple[Point, Point]) -> bool:
    """Whether two moves run along the same rank or file over a shared stretch (an arrow
    would hide the other)."""
    (a, b), (c, d) = first, second
    for axis in (0, 1):
        other = 1 - axis
        if a[other] == b[other] == c[other] == d[other]:
            low, high = sorted((a[axis], b[axis]))
            low2, high2 = sorted((c[axis], d[axis]))
            return min(high, high2) > max(low, low2)
    return False


def _draw(
    image: Image.Image,
    layout: Layout,
    centre_from: Point,
    centre_to: Point,
    arrow: Arrow,
    theme: Theme,
    palette: Image.Image | None,
    side: float,
) -> None:
    square = layout.square
    dx, dy = centre_to[0] - centre_from[0], centre_to[1] - centre_from[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    # ``side`` moves the whole arrow across its line (see SIDE_BY_SIDE).
    across = (-uy * side * square, ux * side * square)
    span = length / square
    lead = max(0.0, min(START_BEYOND_CENTRE, span + TIP_BEYOND_CENTRE - MIN_DRAWN))
    start = (
        centre_from[0] + ux * lead * square + across[0],
        centre_from[1] + uy * lead * square + across[1],
    )
    end = (centre_to[0] + across[0], centre_to[1] + across[1])
    tip = (end[0] + ux * TIP_BEYOND_CENTRE * square, end[1] + uy * TIP_BEYOND_CENTRE * square)
    pad = square * 0.5
    left = max(0, math.floor(min(start[0], tip[0]) - pad))
    top = max(0, math.floor(min(start[1], tip[1]) - pad))
    right = min(image.width, math.ceil(max(start[0], tip[0]) + pad))
    bottom = min(image.height, math.ceil(max(start[1], tip[1]) + pad))
    box = (right - left, bottom - top)
    scale = SUPERSAMPLE

    def local(point: Point) -> Point:
        return (point[0] - left) * scale, (point[1] - top) * scale

    core = Image.new("L", (box[0] * scale, box[1] * scale), 0)
    draw = ImageDraw.Draw(core)
    unit = square * scale
    head_length = HEAD_LENGTH * unit
    head_half = HEAD_WIDTH[arrow.style] * unit / 2
    shaft_half = SHAFT * unit / 2
    a, b = local(start), local(tip)
    refused = arrow.style == "refused"
    # A refused move's shaft stops short of its cross, centred on the target, so the cross
    # reads on its own.
    centre = local(end)
    gap = CROSS * 0.8 * unit
    base = (
        (centre[0] - ux * gap, centre[1] - uy * gap)
        if refused
        else (b[0] - ux * head_length, b[1] - uy * head_length)
    )
    # Perpendicular to the arrow, for the widths.
    px, py = -uy, ux
    if arrow.style == "better":
        segments = _dashes(a, base, (ux, uy), DASH * unit, GAP * unit)
    else:
        segments = [(a, base)]
    if refused:
        # The cross: two bars through the target's centre, square to each other and at 45
        # degrees to the shaft, so they read as "not this" whichever way the move went.
        span = CROSS * unit
        for rx, ry in ((ux + px, uy + py), (ux - px, uy - py)):
            norm = math.hypot(rx, ry)
            rx, ry = rx / norm * span, ry / norm * span
            segments.append(((centre[0] - rx, centre[1] - ry), (centre[0] + rx, centre[1] + ry)))
    for p, q in segments:
        draw.polygon(
            [
                (p[0] + px * shaft_half, p[1] + py * shaft_half),
                (q[0] + px * shaft_half, q[1] + py * shaft_half),
                (q[0] - px * shaft_half, q[1] - py * shaft_half),
                (p[0] - px * shaft_half, p[1] - py * shaft_half),
            ],
            fill=255,
        )
    if arrow.style != "better":
        # A round dot where the move starts, so its origin reads at a glance.
        radius = shaft_half * 1.35
        draw.ellipse((a[0] - radius, a[1] - radius, a[0] + radius, a[1] + radius), fill=255)
    if not refused:
        draw.polygon(
            [
                (base[0] + px * head_half, base[1] + py * head_half),
                b,
                (base[0] - px * head_half, base[1] - py * head_half),
            ],
            fill=255,
        )
    # The rim grows the arrow by blurring it and keeping every touched pixel: a blur costs the
    # same whatever its radius, unlike a max filter.
    rim = max(2.0, HALO * unit)
    halo = core.filter(ImageFilter.BoxBlur(rim)).point(lambda value: 255 if value > 24 else 0)
    colour = theme.arrow_better if arrow.style == "better" else theme.arrow_played
    region = image.crop((left, top, right, bottom)).convert("RGB")
    for mask, fill in ((halo, theme.arrow_halo), (core, colour)):
        small = mask.resize(box, Image.Resampling.LANCZOS)
        region.paste(fill, (0, 0), small)
    if palette is not None:
        region = quantize(region, palette)
    image.paste(region, (left, top))


def _dashes(a: Point, b: Point, unit: Point, dash: float, gap: float) -> list[tuple[Point, Point]]:
    """Dash segments from ``a`` to ``b``, evenly spread: the first starts at ``a`` and the last
    reaches ``b``, so the shaft leaves the origin and meets the head (dashes stretch a little
    to fit a whole number of them)."""
    total = math.hypot(b[0] - a[0], b[1] - a[1])
    count = max(1, round((total + gap) / (dash + gap)))
    length = (total - gap * (count - 1)) / count
    segments: list[tuple[Point, Point]] = []
    for index in range(count):
        begin = index * (length + gap)
        end = begin + length
        segments.append(
            (
                (a[0] + unit[0] * begin, a[1] + unit[1] * begin),
                (a[0] + unit[0] * end, a[1] + unit[1] * end),
            )
        )
    return segments
