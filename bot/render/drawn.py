"""Every string drawn on an image, written down as it is drawn: how a pseudo-locale run of
the bot (``TAFL_PSEUDO_LOCALE``) shows which words on its images escaped translation, as the
messages show it in their text (README, "Translating")."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import ImageDraw

_lock = threading.Lock()
_recording: list[Path] = []
_unseen = threading.local()


@contextlib.contextmanager
def never_shown() -> Iterator[None]:
    """Draw without recording: for pictures no one sees (the sample the palette is taken
    from), whose words need no translation."""
    _unseen.depth = getattr(_unseen, "depth", 0) + 1
    try:
        yield
    finally:
        _unseen.depth -= 1


def record_drawn_text(path: Path) -> None:
    """From now on, append each string this process draws on an image to ``path`` (one JSON
    string a line). Every image's words are drawn through Pillow's ``ImageDraw.text`` (the
    captions, charts, crosstables and the board's margins alike), so it is watched there, in
    one place, rather than at each call. A second call changes only the file."""
    with _lock:
        first = not _recording
        _recording[:] = [path]
    if not first:
        return
    drawing: Callable[..., None] = ImageDraw.ImageDraw.text

    def text(
        self: ImageDraw.ImageDraw, xy: object, text: object, *rest: object, **options: object
    ) -> None:
        if isinstance(text, str) and text.strip() and not getattr(_unseen, "depth", 0):
            line = json.dumps(text, ensure_ascii=False) + "\n"
            with _lock, _recording[0].open("a", encoding="utf-8") as file:
                file.write(line)
        drawing(self, xy, text, *rest, **options)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
