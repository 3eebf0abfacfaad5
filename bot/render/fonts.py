"""The bundled font (DejaVu Sans Bold, under `assets/fonts/` at the repository root)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

# bot/render/fonts.py -> repository root; the font ships in the repo, not with the system,
# so images look the same on every host.
ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"
FONT_PATH = ASSETS_DIR / "fonts" / "DejaVuSans-Bold.ttf"


class FontMissingError(FileNotFoundError):
    """The bundled font file is not where the renderer expects it."""


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled bold sans font at `size` pixels (cached per size)."""
    if not FONT_PATH.is_file():
        raise FontMissingError(
            f"bundled font not found at {FONT_PATH}: restore assets/fonts/ from the repository "
            "(DejaVuSans-Bold.ttf and LICENSE-DejaVu.txt)"
        )
    return ImageFont.truetype(str(FONT_PATH), size)


_MISSING = "\U0010ffff"
"""A code point no font draws: what the font shows for it is its missing-glyph box."""


@lru_cache(maxsize=8192)
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (a character it lacks comes out as its box)."""
    face = font(26)
    shown, missing = face.getmask(ch), face.getmask(_MISSING)
    return shown.size != missing.size or bytes(shown) != bytes(missing)


def drawn_text(text: str) -> str:
    """``text`` as the bundled font can draw it: characters it lacks (emoji, and scripts such
    as Chinese or Japanese) left out rather than drawn as boxes, as are the variation selectors
    that only choose how an emoji looks; whitespace single. A text with nothing left to draw
    keeps its boxes, one a character, so that two such names still look apart (the message
    beside the image names them in full)."""
    kept = "".join(ch for ch in text if has_glyph(ch) and not 0xFE00 <= ord(ch) <= 0xFE0F)
    return " ".join(kept.split()) or text
