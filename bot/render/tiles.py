"""Tiles: one square's full picture (background, markers, piece), composed from sprite layers.

A board image is the cached background with a tile pasted on every square that is not plain.
The same few tiles recur in every game, so each is composed once and reused.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from bot.render import sprites
from bot.render.theme import Theme
from bot.render.view import EMPTY


class TileKey(NamedTuple):
    """Everything that decides how one square looks (directions are in screen space)."""

    base: str
    """One of sprites.SQUARE_KINDS."""
    piece: int = EMPTY
    tint: bool = False
    """Origin or target of the last move."""
    path: str = ""
    """Screen directions ("n", "e", "s", "w") the last-move path leaves this square by."""
    path_start: bool = False
    route: str = ""
    """Screen directions a king's open route leaves this square by."""
    route_target: bool = False
    captured: int = EMPTY
    """Code of the piece captured here by the last move (0 when none)."""
    threatened: bool = False
    """The king here can be captured next move."""
    fort: bool = False
    """Inside the exit fort that won the game."""

    @property
    def is_plain(self) -> bool:
        """True when the tile is just its background square (already in the cached background)."""
        return self == TileKey(self.base)


def compose(theme: Theme, square: int, key: TileKey) -> Image.Image:
    """Compose the RGB picture of one square; layers go bottom to top as a player reads them."""
    tile = sprites.square_base(theme, key.base, square).convert("RGBA")
    if key.fort:
        tile = Image.alpha_composite(tile, sprites.fort_tint(theme, square))
    if key.tint:
        tile = Image.alpha_composite(tile, sprites.move_tint(theme, square))
    if key.route:
        halo, core = sprites.route_masks(square, key.route)
        tile.paste(theme.route_halo, (0, 0), halo)
        tile.paste(theme.route, (0, 0), core)
    if key.path or key.path_start:
        mask = sprites.path_mask(square, key.path, key.path_start)
        alpha = theme.move_path[3]
        tile.paste(theme.move_path[:3], (0, 0), mask.point(lambda a: a * alpha // 255))
    if key.captured and key.piece == EMPTY:
        tile = Image.alpha_composite(tile, sprites.ghost(theme, key.captured, square))
    if key.piece != EMPTY:
        tile = Image.alpha_composite(tile, sprites.piece(theme, key.piece, square))
    if key.threatened:
        tile = Image.alpha_composite(tile, sprites.threat_marker(theme, square))
    if key.route_target:
        tile = Image.alpha_composite(tile, sprites.route_target(theme, square))
    if key.captured:
        # A capture that opened the king's road to this very square: the bullseye keeps the
        # centre (where the game goes next), the cross moves to a corner (what just happened).
        cross = sprites.capture_cross(theme, square, corner=key.route_target)
        tile = Image.alpha_composite(tile, cross)
    return tile.convert("RGB")
