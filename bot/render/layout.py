"""Geometry of a board image: square size, margins, caption strip, and where each square lands."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.view import Square

DEFAULT_WIDTH = 720
"""Image width in pixels when none is asked for: crisp at Discord's embed size, small to send."""

MIN_MARGIN = 20  # coordinates stay readable even on 19x19 boards
MIN_SQUARE = 12


@dataclass(frozen=True)
class Layout:
    """Pixel geometry for one board size, image width and caption choice."""

    size: int
    """Squares per side."""
    square: int
    """Side of one square in pixels."""
    margin: int
    """Width of the coordinate margin on each side of the board."""
    caption: int
    """Height of the caption strip above the margin (0 without a caption)."""

    @classmethod
    def fit(cls, size: int, width: int = DEFAULT_WIDTH, caption: bool = False) -> Layout:
        """The layout whose width is as close to `width` as whole-pixel squares allow."""
        margin = max(MIN_MARGIN, round(width / (2 * size + 2)))
        square = (width - 2 * margin) // size
        if square < MIN_SQUARE:
            raise ValueError(
                f"a {size}x{size} board needs an image at least "
                f"{2 * MIN_MARGIN + size * MIN_SQUARE} px wide, not {width}"
            )
        # Whole-pixel squares leave a few pixels over: they widen the margin, not the image.
        margin = (width - size * square) // 2
        return cls(size, square, margin, round(width * 0.075) if caption else 0)

    @property
    def board(self) -> int:
        """Side of the playing area in pixels."""
        return self.size * self.square

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return self.board + 2 * self.margin

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return self.board + 2 * self.margin + self.caption

    @property
    def origin(self) -> tuple[int, int]:
        """Top-left pixel of the playing area."""
        return self.margin, self.caption + self.margin

    def cell(self, square: Square, flip: bool) -> tuple[int, int]:
        """Screen (column, row) of a square, row 0 at the top; flipping turns the board 180°."""
        file, rank = square % self.size, square // self.size
        if flip:
            return self.size - 1 - file, rank
        return file, self.size - 1 - rank

    def top_left(self, square: Square, flip: bool) -> tuple[int, int]:
        """Top-left pixel of a square."""
        column, row = self.cell(square, flip)
        x0, y0 = self.origin
        return x0 + column * self.square, y0 + row * self.square

    def centre(self, square: Square, flip: bool) -> tuple[int, int]:
        """Centre pixel of a square (what tests sample)."""
        x, y = self.top_left(square, flip)
        return x + self.square // 2, y + self.square // 2
