"""The static part of a board image: margin, coordinates, frame and every empty square."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import sprites
from bot.render.fonts import font
from bot.render.layout import Layout
from bot.render.theme import Theme
from bot.render.view import FILES, Square


def square_kind(
    square: Square,
    size: int,
    throne: Square | None,
    corners: frozenset[Square],
    camps: frozenset[Square],
) -> str:
    """Which background a square has (one of sprites.SQUARE_KINDS)."""
    if square == throne:
        return "throne"
    if square in corners:
        return "corner"
    if square in camps:
        return "camp"
    # a1 takes the darker shade, as on a chessboard.
    return "plain_alt" if (square % size + square // size) % 2 == 0 else "plain"


def coordinate_font_size(layout: Layout) -> int:
    """Label size: as large as the margin allows, never larger than a third of a square."""
    return max(10, min(round(layout.margin * 0.58), round(layout.square * 0.36)))


def draw_background(
    theme: Theme,
    layout: Layout,
    flip: bool,
    throne: Square | None,
    corners: frozenset[Square],
    camps: frozenset[Square],
) -> Image.Image:
    """The RGB background for one orientation and set of special squares."""
    image = Image.new("RGB", (layout.width, layout.height), theme.margin)
    draw = ImageDraw.Draw(image)
    if layout.caption:
        draw.rectangle((0, 0, layout.width, layout.caption - 1), fill=theme.caption_bg)
    x0, y0 = layout.origin
    # A frame just outside the squares; the squares' own grid half-lines complete it inside.
    frame = max(2, layout.square // 24)
    draw.rectangle(
        (x0 - frame, y0 - frame, x0 + layout.board + frame - 1, y0 + layout.board + frame - 1),
        fill=theme.frame,
    )
    tiles = {kind: sprites.square_base(theme, kind, layout.square) for kind in sprites.SQUARE_KINDS}
    size = layout.size
    for square in range(size * size):
        kind = square_kind(square, size, throne, corners, camps)
        image.paste(tiles[kind], layout.top_left(square, flip))
    _draw_coordinates(draw, theme, layout, flip)
    return image


def _draw_coordinates(draw: ImageDraw.ImageDraw, theme: Theme, layout: Layout, flip: bool) -> None:
    label_font = font(coordinate_font_size(layout))
    x0, y0 = layout.origin
    size, step = layout.size, layout.square
    # Labels sit in the middle of the margin beside the frame, on all four sides so that any
    # square of a big board is easy to name.
    near = layout.margin / 2
    far_x = x0 + layout.board + layout.margin / 2
    far_y = y0 + layout.board + layout.margin / 2
    for index in range(size):
        shown = size - 1 - index if flip else index
        x = x0 + (shown + 0.5) * step
        letter = FILES[index]
        draw.text((x, y0 - near), letter, font=label_font, fill=theme.margin_text, anchor="mm")
        draw.text((x, far_y), letter, font=label_font, fill=theme.margin_text, anchor="mm")
        row = index if flip else size - 1 - index
        y = y0 + (row + 0.5) * step
        number = str(index + 1)
        draw.text((x0 - near, y), number, font=label_font, fill=theme.margin_text, anchor="mm")
        draw.text((far_x, y), number, font=label_font, fill=theme.margin_text, anchor="mm")
