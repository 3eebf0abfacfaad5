"""Every letter the shipped languages write draws on the images: a real glyph in every font the
renderer uses, never the font's missing-glyph box (nor dropped by ``drawn_text``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageFont

from bot.i18n.language import _ACCENTED, PSEUDO_CLOSE, PSEUDO_OPEN
from bot.render import fonts

LETTERS = "éèêëàâçœæùûüïîôÿñáíóúåäöß"
"""French, Spanish, Swedish and German letters beyond English's."""
MARKS = "«»’‘“”„¿¡–—…·½±×"
"""Their punctuation, and signs the bot's texts use."""
SPACES = "\u00a0\u202f"
"""CLDR's non-breaking spaces: inside numbers (``1 234``) and before units (``3 heures``)."""
PSEUDO = "".join(chr(code) for code in _ACCENTED.values()) + PSEUDO_OPEN + PSEUDO_CLOSE
"""What the pseudo-locale writes, so that its images show text rather than boxes."""
NEEDED = LETTERS + LETTERS.upper().replace("SS", "ẞ") + MARKS + SPACES + PSEUDO
MISSING = "\U0010ffff"


def font_files() -> list[Path]:
    """Every font the images are drawn with: the renderer draws with its bundled font, and the
    fonts folder holds only what it uses."""
    found = sorted(fonts.FONT_PATH.parent.glob("*.[ot]tf"))
    assert fonts.FONT_PATH in found
    return found


def drawn(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    mask = face.getmask(text)
    return bytes(mask) + repr(mask.size).encode()


@pytest.mark.parametrize("path", font_files(), ids=lambda path: path.name)
def test_every_glyph_of_the_shipped_languages_draws(path: Path) -> None:
    face = ImageFont.truetype(str(path), 26)
    box = drawn(face, MISSING)
    boxed = [ch for ch in NEEDED if drawn(face, ch) == box]
    assert boxed == [], f"{path.name} has no glyph for {''.join(boxed)!r}"
    # Letters are drawn (ink), spaces take room without any.
    for ch in LETTERS + LETTERS.upper() + PSEUDO:
        assert face.getbbox(ch)[2] > 0 and any(face.getmask(ch)), ch
    for ch in SPACES:
        assert face.getlength(ch) > 0 and not any(face.getmask(ch)), hex(ord(ch))


def test_the_renderer_keeps_every_such_character() -> None:
    text = f"Les défenseurs gagnent « encerclé » {SPACES} ẞ Åsa Öl ¿Sí? {PSEUDO}"
    assert fonts.drawn_text(text) == " ".join(text.split())
