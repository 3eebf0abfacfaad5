"""Render one position: a pure function of a BoardView plus display options."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

from bot.render.arrows import draw_arrows
from bot.render.background import square_kind
from bot.render.kit import get_kit
from bot.render.layout import DEFAULT_WIDTH, Layout
from bot.render.sprites import DIRECTIONS
from bot.render.theme import DEFAULT_THEME, Theme, get_theme
from bot.render.tiles import TileKey
from bot.render.view import EMPTY, BoardView, Square

PNG_COMPRESS_LEVEL = 3
"""zlib level for board PNGs: measured on 9x9 boards, levels 1-3 encode in ~2 ms at about the
same size, level 6 doubles the time for a 10% smaller file, 9 takes eight times as long."""
PNG_MAX_BYTES = 40_000
"""The size a board PNG stays under (quick to send and to load on a phone)."""
PNG_DENSE_LEVELS = (6, 9)
"""Tried in turn for the few boards the quick level leaves too large (crowded 7x7 positions,
whose big squares hold the most anti-aliased edges): about 15% and 20% smaller."""


def _line(size: int, start: Square, end: Square) -> list[Square]:
    """Squares from start to end inclusive along their shared rank or file."""
    step = (1 if end > start else -1) * (1 if start // size == end // size else size)
    return list(range(start, end + step, step))


def _directions(layout: Layout, flip: bool, squares: list[Square]) -> dict[Square, str]:
    """For each square of a line, the screen directions in which the line leaves it."""
    out: dict[Square, str] = {}
    cells = [layout.cell(square, flip) for square in squares]
    for i, square in enumerate(squares):
        for j in (i - 1, i + 1):
            if 0 <= j < len(squares):
                dx, dy = cells[j][0] - cells[i][0], cells[j][1] - cells[i][1]
                out[square] = out.get(square, "") + (
                    "e" if dx > 0 else "w" if dx < 0 else "s" if dy > 0 else "n"
                )
    return out


def _merge(a: str, b: str) -> str:
    """Union of two direction sets, in canonical order (so equal tiles share a cache entry)."""
    return "".join(d for d in DIRECTIONS if d in a or d in b)


def tile_keys(view: BoardView, layout: Layout, flip: bool) -> Iterable[tuple[Square, TileKey]]:
    """Every square that differs from its plain background, with how it must look."""
    size = view.size
    path: dict[Square, str] = {}
    tint: set[Square] = set()
    if view.last_move is not None:
        origin, target = view.last_move
        tint = {origin, target}
        path = _directions(layout, flip, _line(size, origin, target))
    route: dict[Square, str] = {}
    king = view.king_square
    if king is not None:
        for escape in view.routes:
            if escape != king and (escape // size == king // size or escape % size == king % size):
                for square, dirs in _directions(layout, flip, _line(size, king, escape)).items():
                    route[square] = _merge(route.get(square, ""), dirs)
    captured = dict(view.captured)
    targets = set(view.routes)
    origin_square = view.last_move[0] if view.last_move is not None else None
    for square in range(size * size):
        key = TileKey(
            base=square_kind(square, size, view.throne, view.corners, view.camps),
            piece=view.cells[square],
            tint=square in tint,
            path=_merge(path.get(square, ""), ""),
            path_start=square == origin_square,
            route=route.get(square, ""),
            route_target=square in targets and view.cells[square] == EMPTY,
            captured=captured.get(square, EMPTY),
            threatened=view.king_threatened and square == king,
            fort=square in view.fort,
        )
        if not key.is_plain:
            yield square, key


def render_board(
    view: BoardView,
    *,
    theme: str | Theme = DEFAULT_THEME,
    flip: bool = False,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """Draw a position as a palette ("P") image about `width` pixels wide.

    `flip` shows the board from the other side (turned 180°: a1 top-right). The caption strip
    appears when the view has a caption; arrows are drawn over everything else.
    """
    layout = Layout.fit(view.size, width, caption=view.caption is not None)
    kit = get_kit(get_theme(theme), layout)
    image = kit.background(flip, view.throne, view.corners, view.camps).copy()
    for square, key in tile_keys(view, layout, flip):
        image.paste(kit.tile(key), layout.top_left(square, flip))
    if view.caption is not None:
        image.paste(kit.caption(view.caption), (0, 0))
    if view.arrows:
        draw_arrows(image, layout, flip, view.arrows, kit.theme, kit.palette)
    return image


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a rendered board (palette kept): quick zlib, and a slower one only for a
    board that would otherwise pass :data:`PNG_MAX_BYTES`."""
    data = _png(image, PNG_COMPRESS_LEVEL)
    for level in PNG_DENSE_LEVELS:
        if len(data) < PNG_MAX_BYTES:
            break
        data = _png(image, level)
    return data


def _png(image: Image.Image, level: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=level)
    return buffer.getvalue()


def render_png(
    view: BoardView,
    *,
    theme: str | Theme = DEFAULT_THEME,
    flip: bool = False,
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """`render_board` encoded as PNG bytes, ready to attach to a message."""
    return encode_png(render_board(view, theme=theme, flip=flip, width=width))
