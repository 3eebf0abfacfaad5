"""Colour themes: every colour a board image uses, as data.

A theme only chooses colours; shapes are fixed by the sprite code, so that every marker stays
recognisable without colour (colour-blind safety comes from shape and lightness, not hue).
Marker hues come from the Okabe-Ito palette, which stays distinct for common colour-vision
deficiencies.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class Theme:
    """The colours of one board style. Alpha in an RGBA colour is its opacity over the board.

    Colour channels are multiples of 4 (or 255): Pillow maps RGB to a palette through a cache
    keyed on 6 bits per channel, and only colours on that grid are guaranteed to map to
    themselves, so flat fills come out exactly as specified.
    """

    name: str
    title: str
    # Margin (coordinates) and the frame around the playing area.
    margin: RGB
    margin_text: RGB
    frame: RGB
    # Ordinary squares: two shades for a faint checker that helps count squares on big boards.
    square: RGB
    square_alt: RGB
    grid: RGB
    # Special squares: a fill and a mark colour each; the mark's shape tells them apart.
    throne: RGB
    throne_mark: RGB
    corner: RGB
    corner_mark: RGB
    camp: RGB
    camp_mark: RGB
    # Pieces: attackers dark, defenders light with an outline, the king light and crowned.
    attacker: RGB
    attacker_rim: RGB
    defender: RGB
    defender_rim: RGB
    outline: RGB
    king: RGB
    crown: RGB
    shadow: RGBA
    # Markers.
    move_tint: RGBA
    fort_tint: RGBA
    """Over the squares of an exit fort that won: a colour no other marker uses."""
    move_path: RGBA
    capture: RGB
    capture_halo: RGB
    route: RGB
    route_halo: RGB
    threat: RGB
    arrow_played: RGB
    """The move that was played, drawn as a solid arrow."""
    arrow_better: RGB
    """The better move, drawn as a dashed arrow (not the blue of the king's roads)."""
    arrow_halo: RGB
    """The rim round both arrows, so they stand out on dark pieces and light squares alike."""
    moment_blunder: RGB
    """The evaluation chart's marks: each kind of decisive moment has a colour and a shape."""
    moment_missed_win: RGB
    moment_missed_defence: RGB
    moment_mistake: RGB
    moment_inaccuracy: RGB
    # Caption strip.
    caption_bg: RGB
    caption_text: RGB
    caption_dim: RGB
    caption_accent: RGB


CLASSIC = Theme(
    name="classic",
    title="Classic (warm wood)",
    margin=(72, 48, 28),
    margin_text=(236, 216, 176),
    frame=(44, 24, 12),
    square=(232, 200, 148),
    square_alt=(224, 192, 136),
    grid=(152, 108, 64),
    throne=(196, 144, 80),
    throne_mark=(96, 56, 24),
    corner=(140, 88, 48),
    corner_mark=(236, 208, 152),
    camp=(216, 168, 112),
    camp_mark=(128, 80, 40),
    attacker=(40, 32, 28),
    attacker_rim=(96, 80, 68),
    defender=(248, 244, 224),
    defender_rim=(216, 200, 168),
    outline=(52, 36, 24),
    king=(252, 248, 232),
    crown=(176, 120, 16),
    shadow=(40, 20, 4, 110),
    move_tint=(255, 224, 40, 120),
    fort_tint=(60, 148, 88, 110),
    move_path=(176, 120, 8, 255),
    capture=(212, 96, 0),
    capture_halo=(255, 248, 232),
    route=(0, 112, 176),
    route_halo=(255, 255, 255),
    threat=(212, 96, 0),
    arrow_played=(212, 96, 0),
    arrow_better=(0, 156, 116),
    arrow_halo=(255, 248, 232),
    moment_blunder=(212, 96, 0),
    moment_missed_win=(0, 112, 176),
    moment_missed_defence=(204, 120, 168),
    moment_mistake=(228, 160, 0),
    moment_inaccuracy=(240, 228, 64),
    caption_bg=(52, 32, 20),
    caption_text=(248, 232, 204),
    caption_dim=(192, 160, 120),
    caption_accent=(240, 192, 60),
)

CONTRAST = Theme(
    name="contrast",
    title="High contrast",
    margin=(0, 0, 0),
    margin_text=(255, 255, 255),
    frame=(0, 0, 0),
    square=(255, 255, 255),
    square_alt=(240, 240, 240),
    grid=(0, 0, 0),
    throne=(152, 152, 152),
    throne_mark=(0, 0, 0),
    corner=(88, 88, 88),
    corner_mark=(255, 255, 255),
    camp=(204, 204, 204),
    camp_mark=(0, 0, 0),
    attacker=(0, 0, 0),
    attacker_rim=(120, 120, 120),
    defender=(255, 255, 255),
    defender_rim=(255, 255, 255),
    outline=(0, 0, 0),
    king=(255, 255, 255),
    crown=(0, 0, 0),
    shadow=(0, 0, 0, 0),
    move_tint=(240, 228, 64, 200),
    fort_tint=(80, 188, 120, 200),
    move_path=(0, 0, 0, 255),
    capture=(212, 96, 0),
    capture_halo=(255, 255, 255),
    route=(0, 112, 176),
    route_halo=(255, 255, 255),
    threat=(212, 96, 0),
    arrow_played=(212, 96, 0),
    arrow_better=(0, 156, 116),
    arrow_halo=(255, 255, 255),
    moment_blunder=(212, 96, 0),
    moment_missed_win=(0, 112, 176),
    moment_missed_defence=(204, 120, 168),
    moment_mistake=(228, 160, 0),
    moment_inaccuracy=(240, 228, 64),
    caption_bg=(0, 0, 0),
    caption_text=(255, 255, 255),
    caption_dim=(200, 200, 200),
    caption_accent=(240, 228, 64),
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (CLASSIC, CONTRAST)}
"""Registered themes by name; the first is the default."""

DEFAULT_THEME = CLASSIC.name


def get_theme(theme: str | Theme) -> Theme:
    """Return a registered theme by name (a Theme passes through unchanged).

    Raises ValueError naming the known themes when the name is unknown.
    """
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme.strip().lower()]
    except KeyError:
        known = ", ".join(THEMES)
        raise ValueError(f"unknown theme {theme!r}: choose one of {known}") from None
