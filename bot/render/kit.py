"""Per (theme, layout) caches: the fixed palette, quantized tiles and backgrounds.

Building a kit costs tens of milliseconds once; afterwards a board image is a background copy
plus a few dozen tile pastes. Caches only grow by the handful of distinct tiles and variants a
theme can produce, so they need no eviction. Concurrent renders in threads at worst compose a
tile twice.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache

from PIL import Image

from bot.render import sprites
from bot.render.arrows import draw_arrows
from bot.render.background import draw_background
from bot.render.caption import draw_caption
from bot.render.drawn import never_shown
from bot.render.layout import Layout
from bot.render.palette import build_palette, quantize
from bot.render.theme import RGB, Theme
from bot.render.tiles import TileKey, compose
from bot.render.view import ATTACKER, DEFENDER, KING, Arrow, Caption, Square

_SAMPLE_CAPTION = Caption("Attackers", "Defenders", "attackers", "12…", "e1-e4", "Raichi!", 3, 2)


def _sample_keys() -> list[TileKey]:
    """Tiles whose colours the palette must cover: each piece on each square kind, each marker."""
    keys = [
        TileKey(base, code, tint)
        for base in sprites.SQUARE_KINDS
        for code in (0, ATTACKER, DEFENDER, KING)
        for tint in (False, True)
    ]
    keys += [
        TileKey("plain", tint=True, path="n", path_start=True),
        TileKey("plain", ATTACKER, tint=True, path="s"),
        TileKey("plain_alt", path="ns"),
        TileKey("plain", route="ew"),
        TileKey("plain_alt", KING, route="nes"),
        TileKey("plain", route="n", route_target=True),
        TileKey("corner", route="s", route_target=True),
        TileKey("plain", route="n", route_target=True, captured=ATTACKER),
        TileKey("plain", KING, threatened=True),
        TileKey("throne", KING, threatened=True),
        TileKey("plain", fort=True),
        TileKey("plain_alt", fort=True),
        TileKey("plain", KING, fort=True),
        TileKey("plain", KING, tint=True, path="n", fort=True),
        TileKey("plain_alt", tint=True, path="s", path_start=True, fort=True),
    ]
    keys += [
        TileKey(base, captured=code)
        for base in ("plain", "plain_alt")
        for code in (ATTACKER, DEFENDER, KING)
    ]
    keys.append(TileKey("plain", KING, captured=KING))
    return keys


def _named_colours(theme: Theme) -> list[RGB]:
    """The theme's opaque colours, which the palette must hold exactly."""
    colours: list[RGB] = []
    for field in fields(theme):
        value = getattr(theme, field.name)
        if isinstance(value, tuple) and len(value) == 3:
            colours.append((int(value[0]), int(value[1]), int(value[2])))
    return colours


class Kit:
    """Everything pre-rendered for one theme and layout."""

    def __init__(self, theme: Theme, layout: Layout) -> None:
        self.theme = theme
        self.layout = layout
        self.palette = build_palette(self._sample(), _named_colours(theme))
        self._tiles: dict[TileKey, Image.Image] = {}
        self._backgrounds: dict[
            tuple[bool, Square | None, frozenset[Square], frozenset[Square]], Image.Image
        ] = {}

    def _sample(self) -> Image.Image:
        square, layout = self.layout.square, self.layout
        keys = _sample_keys()
        columns = max(1, layout.width // square)
        rows = -(-len(keys) // columns)
        caption_height = layout.caption or round(layout.width * 0.075)
        sample = Image.new("RGB", (layout.width, layout.height + rows * square + caption_height))
        board = draw_background(self.theme, layout, False, None, frozenset(), frozenset())
        # Arrows' rims and edges blend with the squares: the palette must cover those too.
        n = layout.size
        arrows = (Arrow(0, n - 1, "played"), Arrow(n + 1, n * (n - 2) + 1, "better"))
        sample.paste(draw_arrows(board, layout, False, arrows, self.theme))
        for index, key in enumerate(keys):
            x, y = index % columns * square, layout.height + index // columns * square
            sample.paste(compose(self.theme, square, key), (x, y))
        with never_shown():
            strip = draw_caption(self.theme, layout.width, caption_height, _SAMPLE_CAPTION)
        sample.paste(strip, (0, layout.height + rows * square))
        return sample

    def tile(self, key: TileKey) -> Image.Image:
        """The quantized picture of one square."""
        tile = self._tiles.get(key)
        if tile is None:
            tile = quantize(compose(self.theme, self.layout.square, key), self.palette)
            self._tiles[key] = tile
        return tile

    def background(
        self,
        flip: bool,
        throne: Square | None,
        corners: frozenset[Square],
        camps: frozenset[Square],
    ) -> Image.Image:
        """The quantized background; callers copy it before drawing on it."""
        cache_key = (flip, throne, corners, camps)
        background = self._backgrounds.get(cache_key)
        if background is None:
            rgb = draw_background(self.theme, self.layout, flip, throne, corners, camps)
            background = quantize(rgb, self.palette)
            self._backgrounds[cache_key] = background
        return background

    def caption(self, caption: Caption) -> Image.Image:
        """The quantized caption strip (text changes every move, so it is drawn each time)."""
        strip = draw_caption(self.theme, self.layout.width, self.layout.caption, caption)
        return quantize(strip, self.palette)


@lru_cache(maxsize=16)
def get_kit(theme: Theme, layout: Layout) -> Kit:
    """The shared kit for a theme and layout, built on first use."""
    return Kit(theme, layout)
