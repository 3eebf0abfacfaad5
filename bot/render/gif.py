"""Animated GIF replays: one frame per position, sharing the board palette.

Frames are streamed: each is rendered, reduced to the rectangle that changed since the previous
one (unchanged pixels inside it made transparent) and encoded at once, so a 300-move game needs
no more memory than two boards.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import GifImagePlugin, Image, ImageChops

from bot.render.board import render_board
from bot.render.layout import DEFAULT_WIDTH
from bot.render.palette import TRANSPARENT_INDEX
from bot.render.theme import DEFAULT_THEME, Theme
from bot.render.view import BoardView

FIRST_FRAME_MS = 1500
"""The start position stays long enough to take in the set-up."""
FRAME_MS = 900
"""Long enough to follow one move at a glance; a 60-move game plays in under a minute."""
LAST_FRAME_MS = 5000
"""The final position is held before the replay loops."""

_UNCHANGED = [255] + [0] * 255  # palette-index difference 0 -> mask on
_TRAILER = b";"


def _delta(previous: Image.Image, frame: Image.Image) -> tuple[Image.Image, tuple[int, int]] | None:
    """The changed rectangle of `frame`, unchanged pixels transparent, and where it goes.

    None when nothing changed. Long runs of the transparent index are what GIF's LZW
    compresses best, so the rectangle costs little beyond the pixels that really changed.
    """
    difference = ImageChops.subtract_modulo(frame, previous)
    box = difference.getbbox()
    if box is None:
        return None
    patch = frame.crop(box)
    patch.paste(TRANSPARENT_INDEX, mask=difference.crop(box).point(_UNCHANGED, "1"))
    return patch, (box[0], box[1])


def render_gif(
    views: Iterable[BoardView],
    *,
    theme: str | Theme = DEFAULT_THEME,
    flip: bool = False,
    width: int = DEFAULT_WIDTH,
    frame_ms: int = FRAME_MS,
    first_ms: int = FIRST_FRAME_MS,
    last_ms: int = LAST_FRAME_MS,
) -> bytes:
    """An endlessly looping GIF with one frame per view (usually the start, then each move).

    Every frame uses the board's fixed palette, written once as the GIF's global colour table.
    All views must share a board size and either all have a caption or none.
    """
    out = io.BytesIO()
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int] | None = None  # waits for its duration
    shape: tuple[int, bool] | None = None
    for view in views:
        if shape is None:
            shape = (view.size, view.caption is None)
        elif shape != (view.size, view.caption is None):
            raise ValueError(
                "every position of a replay must have the same board size and caption use"
            )
        frame = render_board(view, theme=theme, flip=flip, width=width)
        if previous is None:
            header, _ = GifImagePlugin.getheader(
                frame.copy(), info={"loop": 0, "transparency": TRANSPARENT_INDEX}
            )
            out.write(b"".join(header))
            pending = (frame, (0, 0), first_ms)
        else:
            change = _delta(previous, frame)
            if change is None:
                if pending is not None:  # an unchanged position only extends the previous one
                    pending = (pending[0], pending[1], pending[2] + frame_ms)
                continue
            _write(out, pending)
            pending = (*change, frame_ms)
        previous = frame
    if pending is None:
        raise ValueError("a replay needs at least one position")
    pending = (pending[0], pending[1], last_ms)
    _write(out, pending)
    out.write(_TRAILER)
    return out.getvalue()


def _write(out: io.BytesIO, frame: tuple[Image.Image, tuple[int, int], int] | None) -> None:
    if frame is None:
        return
    image, offset, duration = frame
    # disposal=1: leave each frame in place; the next one only paints what changed.
    chunks = GifImagePlugin.getdata(
        image, offset, duration=duration, transparency=TRANSPARENT_INDEX, disposal=1
    )
    out.write(b"".join(chunks))
