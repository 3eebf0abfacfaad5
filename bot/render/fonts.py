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
