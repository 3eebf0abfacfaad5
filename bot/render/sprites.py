"""Anti-aliased square-sized layers: square backgrounds, pieces and markers.

Everything is drawn at SUPERSAMPLE times the final size and shrunk with LANCZOS, which gives
smooth edges that plain ImageDraw cannot. Each function runs once per (theme, square size): the
tile cache composes these layers and the board only pastes finished tiles.

Shapes carry the meaning, colours only reinforce it: throne = framed diamond, corner = hatched,
camp = corner notches; capture = cross, open route = dotted line to a bullseye, threatened king =
ring with corner brackets, last move = dot-and-line path over tinted squares.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.theme import RGB, Theme
from bot.render.view import ATTACKER, KING

SUPERSAMPLE = 4
DIRECTIONS = "nesw"
"""Screen directions (north = up in the image), used to join path and route segments."""

_STEP = {"n": (0.0, -1.0), "e": (1.0, 0.0), "s": (0.0, 1.0), "w": (-1.0, 0.0)}

Point = tuple[float, float]


def _canvas(square: int, mode: str = "RGBA") -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
    """A transparent supersampled canvas for one square, its drawer and its side in pixels."""
    side = square * SUPERSAMPLE
    image = Image.new(mode, (side, side), 0)
    return image, ImageDraw.Draw(image), float(side)


def _shrink(image: Image.Image, square: int) -> Image.Image:
    return image.resize((square, square), Image.Resampling.LANCZOS)


Ink = int | RGB | None


def _circle(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    fill: Ink = None,
    outline: Ink = None,
    width: int = 1,
) -> None:
    x, y = centre
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width
    )


def _stroke(draw: ImageDraw.ImageDraw, a: Point, b: Point, width: float, fill: Ink) -> None:
    """A straight line with round caps (ImageDraw's own lines have square ends)."""
    draw.line((a, b), fill=fill, width=round(width))
    _circle(draw, a, width / 2, fill=fill)
    _circle(draw, b, width / 2, fill=fill)


def grid_half_width(square: int) -> int:
    """Pixels of grid line each square draws along its own edges (the line is twice this)."""
    return max(1, round(square / 60))


# --- square backgrounds -------------------------------------------------------------------------

SQUARE_KINDS = ("plain", "plain_alt", "throne", "corner", "camp")


@lru_cache(maxsize=64)
def square_base(theme: Theme, kind: str, square: int) -> Image.Image:
    """An RGB square of the given kind, with its half of the grid line around it."""
    fills = {
        "plain": theme.square,
        "plain_alt": theme.square_alt,
        "throne": theme.throne,
        "corner": theme.corner,
        "camp": theme.camp,
    }
    image, draw, side = _canvas(square, "RGB")
    draw.rectangle((0, 0, side, side), fill=fills[kind])
    if kind == "throne":
        _draw_throne(draw, side, theme.throne_mark)
    elif kind == "corner":
        image = _draw_corner(image, side, theme)
        draw = ImageDraw.Draw(image)
    elif kind == "camp":
        _draw_camp(draw, side, theme.camp_mark)
    draw.rectangle(
        (0, 0, side - 1, side - 1), outline=theme.grid, width=grid_half_width(square) * SUPERSAMPLE
    )
    return _shrink(image, square)


def _draw_throne(draw: ImageDraw.ImageDraw, side: float, mark: RGB) -> None:
    # A framed square with a diamond in it: the frame still shows around the king sitting there.
    inset, width = side * 0.11, side * 0.035
    draw.rectangle((inset, inset, side - inset, side - inset), outline=mark, width=round(width))
    c = side / 2
    for radius, fill in ((side * 0.27, mark), (side * 0.17, None), (side * 0.08, mark)):
        diamond = [(c, c - radius), (c + radius, c), (c, c + radius), (c - radius, c)]
        if fill is None:
            draw.polygon(diamond, outline=mark, width=round(width))
        else:
            draw.polygon(diamond, fill=fill)


def _draw_corner(image: Image.Image, side: float, theme: Theme) -> Image.Image:
    # Diagonal hatching inside a frame: a texture no other square has, visible in greyscale.
    inset, width = side * 0.11, side * 0.035
    hatch = Image.new("L", image.size, 0)
    hatch_draw = ImageDraw.Draw(hatch)
    spacing = side / 6
    for k in range(-6, 13):
        x = k * spacing
        hatch_draw.line(((x, side), (x + side, 0)), fill=255, width=round(side * 0.045))
    clip = Image.new("L", image.size, 0)
    ImageDraw.Draw(clip).rectangle((inset, inset, side - inset, side - inset), fill=255)
    image.paste(theme.corner_mark, (0, 0), ImageChops.multiply(hatch, clip))
    ImageDraw.Draw(image).rectangle(
        (inset, inset, side - inset, side - inset), outline=theme.corner_mark, width=round(width)
    )
    return image


def _draw_camp(draw: ImageDraw.ImageDraw, side: float, mark: RGB) -> None:
    # Four notches in the corners, like the bastions of a fort; an attacker there leaves them seen.
    leg, inset = side * 0.3, side * 0.06
    far = side - inset
    for (x, y), (dx, dy) in (
        ((inset, inset), (1, 1)),
        ((far, inset), (-1, 1)),
        ((inset, far), (1, -1)),
        ((far, far), (-1, -1)),
    ):
        draw.polygon([(x, y), (x + dx * leg, y), (x, y + dy * leg)], fill=mark)


# --- pieces -------------------------------------------------------------------------------------

PIECE_RADIUS = 0.39
"""Piece radius as a fraction of the square: room for the threat ring and the grid around it."""
KING_RADIUS = 0.42
"""The king is a little larger than the other pieces, another cue that does not need colour."""


@lru_cache(maxsize=64)
def piece(theme: Theme, code: int, square: int, shadow: bool = True) -> Image.Image:
    """An RGBA piece sprite (ATTACKER, DEFENDER or KING) centred in a square-sized image."""
    image, draw, side = _canvas(square)
    c = side / 2
    r = side * (KING_RADIUS if code == KING else PIECE_RADIUS)
    centre = (c, c)
    if shadow and theme.shadow[3]:
        shade = Image.new("RGBA", image.size, (*theme.shadow[:3], 0))
        mask = Image.new("L", image.size, 0)
        _circle(ImageDraw.Draw(mask), (c, c + side * 0.035), r, fill=theme.shadow[3])
        shade.putalpha(mask.filter(ImageFilter.GaussianBlur(side * 0.025)))
        image = Image.alpha_composite(image, shade)
        draw = ImageDraw.Draw(image)
    if code == ATTACKER:
        _circle(draw, centre, r, fill=theme.attacker)
        _circle(draw, centre, r * 0.72, outline=theme.attacker_rim, width=round(r * 0.09))
    else:
        fill = theme.king if code == KING else theme.defender
        _circle(draw, centre, r, fill=theme.outline)
        _circle(draw, centre, r * 0.86, fill=fill)
        if code == KING:
            _draw_crown(draw, centre, r, theme)
        else:
            _circle(draw, centre, r * 0.6, outline=theme.defender_rim, width=round(r * 0.08))
    return _shrink(image, square)


def _draw_crown(draw: ImageDraw.ImageDraw, centre: Point, r: float, theme: Theme) -> None:
    # Three-pointed crown with pearls on the tips: the king reads as a king at a glance,
    # without relying on colour.
    cx, cy = centre
    u = r * 0.7

    def at(x: float, y: float) -> Point:
        return cx + x * u, cy + y * u

    body = [
        at(-0.78, 0.55),
        at(-0.95, -0.45),
        at(-0.42, -0.02),
        at(0.0, -0.72),
        at(0.42, -0.02),
        at(0.95, -0.45),
        at(0.78, 0.55),
    ]
    edge = round(r * 0.09)
    draw.polygon(body, fill=theme.crown, outline=theme.outline, width=edge)
    draw.rectangle(
        (*at(-0.8, 0.55), *at(0.8, 0.8)), fill=theme.crown, outline=theme.outline, width=edge
    )
    for tip in (at(-0.95, -0.45), at(0.0, -0.72), at(0.95, -0.45)):
        _circle(draw, tip, u * 0.17, fill=theme.crown, outline=theme.outline, width=edge)


@lru_cache(maxsize=64)
def ghost(theme: Theme, code: int, square: int) -> Image.Image:
    """A faded piece: where a captured piece stood."""
    sprite = piece(theme, code, square, shadow=False).copy()
    sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 2 // 5))
    return sprite


# --- markers ------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def capture_cross(theme: Theme, square: int, corner: bool = False) -> Image.Image:
    """A haloed cross over a captured piece; with `corner`, a smaller one in the square's top
    right corner, leaving the centre to a route's bullseye."""
    image, draw, side = _canvas(square)
    if corner:
        c, arm, scale = side * 0.82, side * 0.1, 0.75
        centre = (c, side - c)
    else:
        c, arm, scale = side / 2, side * 0.2, 1.0
        centre = (c, c)
    x, y = centre
    for width, colour in ((side * 0.15, theme.capture_halo), (side * 0.08, theme.capture)):
        _stroke(draw, (x - arm, y - arm), (x + arm, y + arm), width * scale, colour)
        _stroke(draw, (x - arm, y + arm), (x + arm, y - arm), width * scale, colour)
    return _shrink(image, square)


@lru_cache(maxsize=64)
def threat_marker(theme: Theme, square: int) -> Image.Image:
    """A ring round the king plus corner brackets: "this king can be taken next move"."""
    image, draw, side = _canvas(square)
    c = side / 2
    width = side * 0.05
    _circle(draw, (c, c), side * 0.455, outline=theme.threat, width=round(width))
    inset, leg = side * 0.04, side * 0.2
    far = side - inset
    for (x, y), (dx, dy) in (
        ((inset, inset), (1, 1)),
        ((far, inset), (-1, 1)),
        ((inset, far), (1, -1)),
        ((far, far), (-1, -1)),
    ):
        _stroke(draw, (x, y), (x + dx * leg, y), width, theme.threat)
        _stroke(draw, (x, y), (x, y + dy * leg), width, theme.threat)
    return _shrink(image, square)


@lru_cache(maxsize=64)
def route_target(theme: Theme, square: int) -> Image.Image:
    """A haloed bullseye on an escape square the king can reach."""
    image, draw, side = _canvas(square)
    c = (side / 2, side / 2)
    width = side * 0.055
    for radius, outline in ((side * 0.3, True), (side * 0.12, False)):
        if outline:
            _circle(draw, c, radius + width, outline=theme.route_halo, width=round(width * 3))
            _circle(draw, c, radius, outline=theme.route, width=round(width))
        else:
            _circle(draw, c, radius + width, fill=theme.route_halo)
            _circle(draw, c, radius, fill=theme.route)
    return _shrink(image, square)


def fort_tint(theme: Theme, square: int) -> Image.Image:
    """The wash over a square of the exit fort that won the game."""
    return Image.new("RGBA", (square, square), theme.fort_tint)


def move_tint(theme: Theme, square: int) -> Image.Image:
    """The translucent wash over the last move's origin and target squares."""
    return Image.new("RGBA", (square, square), theme.move_tint)


@lru_cache(maxsize=256)
def path_mask(square: int, directions: str, start: bool) -> Image.Image:
    """L mask of the last-move path in one square: a bar from the centre to each named edge,
    plus a dot at the centre where the move started."""
    image, draw, side = _canvas(square, "L")
    c = side / 2
    width = side * 0.1
    for direction in directions:
        dx, dy = _STEP[direction]
        _stroke(draw, (c, c), (c + dx * side, c + dy * side), width, 255)
    if start:
        _circle(draw, (c, c), side * 0.11, fill=255)
    return _shrink(image, square)


@lru_cache(maxsize=256)
def route_masks(square: int, directions: str) -> tuple[Image.Image, Image.Image]:
    """(halo, core) L masks of a king's route in one square: dots toward each named edge.

    Dots sit at multiples of a quarter square from the centre, so the half-dots at two
    neighbouring squares' shared edge join into one.
    """
    halo, halo_draw, side = _canvas(square, "L")
    core, core_draw, _ = _canvas(square, "L")
    c = side / 2
    for direction in directions:
        dx, dy = _STEP[direction]
        for k in range(3):
            centre = (c + dx * k * side / 4, c + dy * k * side / 4)
            _circle(halo_draw, centre, side * 0.075, fill=255)
            _circle(core_draw, centre, side * 0.045, fill=255)
    return _shrink(halo, square), _shrink(core, square)


@lru_cache(maxsize=16)
def icon(theme: Theme, code: int, size: int) -> Image.Image:
    """A small piece for the caption, ringed so a dark piece still shows on a dark strip."""
    image, draw, side = _canvas(size)
    c = side / 2
    _circle(draw, (c, c), side * 0.47, outline=theme.caption_dim, width=round(side * 0.06))
    image.alpha_composite(piece(theme, code, size * SUPERSAMPLE, shadow=False))
    return _shrink(image, size)
