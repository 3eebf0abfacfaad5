"""A fixed 256-colour palette per theme and board geometry, and mapping RGB pictures onto it.

Board images are palette ("P") images: a third of the bytes of RGB to compress, so PNG encoding
is fast and small, and every GIF frame can share one global palette. The palette is fixed once,
from a sample of everything the renderer can draw, so tiles quantized separately agree exactly
with each other and with the background.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from bot.render.theme import RGB

PALETTE_SIZE = 256
TRANSPARENT_INDEX = 255
"""Reserved for GIF frames ("unchanged since the previous frame"); its colour, a saturated
magenta no theme uses, is never the nearest match for anything drawn."""
_TRANSPARENT_COLOUR = (255, 0, 255)
EXACT_COLOURS = 96
"""How many of the sample's most frequent colours are kept exactly: the flat fills (squares,
tints, margin, piece bodies), so they never drift. The rest of the palette, chosen by median cut,
covers anti-aliased edges and shadows."""


def build_palette(sample: Image.Image, required: Iterable[RGB] = ()) -> Image.Image:
    """A 1x1 "P" image carrying a fixed palette fitted to an RGB sample of the theme's drawing.

    `required` colours (a theme's named colours) are kept exactly even when they cover few
    pixels of the sample, like the thin route dots.
    """
    rgb = sample.convert("RGB")
    counts = rgb.getcolors(maxcolors=rgb.width * rgb.height) or []
    counts.sort(key=lambda item: item[0], reverse=True)
    colours: list[RGB] = list(dict.fromkeys(required))
    seen = set(colours)
    for _, counted in counts:
        if len(colours) >= EXACT_COLOURS:
            break
        if isinstance(counted, tuple) and counted[:3] not in seen:
            exact: RGB = (counted[0], counted[1], counted[2])
            seen.add(exact)
            colours.append(exact)
    if len(counts) > len(colours):
        room = TRANSPARENT_INDEX - len(colours)
        fitted = rgb.quantize(room, method=Image.Quantize.MEDIANCUT)
        flat = fitted.getpalette() or []
        for i in range(0, min(len(flat), 3 * room), 3):
            colour: RGB = (flat[i], flat[i + 1], flat[i + 2])
            if colour not in seen:
                seen.add(colour)
                colours.append(colour)
    # Pad with the first colour: a GIF colour table has a power-of-two size anyway.
    colours = colours[:TRANSPARENT_INDEX]
    colours += [colours[0]] * (TRANSPARENT_INDEX - len(colours))
    colours.append(_TRANSPARENT_COLOUR)
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


def quantize(image: Image.Image, palette: Image.Image) -> Image.Image:
    """Map an RGB image onto the fixed palette (nearest colour, no dithering: flat stays flat)."""
    return image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
