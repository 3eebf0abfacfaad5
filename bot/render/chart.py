"""The evaluation chart of an analysed game: who was winning, move by move, and where it turned.

The chart plots the attackers' winning chances (:func:`bot.ai.analysis.win_chance`), not the raw
score: a forced win is 100%, so a mate score cannot flatten the rest of the game, and a swing
reads the same wherever it happens. The area under the line takes the attackers' piece colour
and the area above it the defenders', so the share of dark in any column is the attackers'
share of the game at that move. Decisive moments are marked on the line with a shape per kind
(circle: blunder, diamond: missed win, square: missed defence) and labelled above the plot with
their move number; the critical ones are filled. Everything is drawn at twice the size and
shrunk, for smooth lines, and sized to stay legible at the ~400 px Discord gives an image on a
phone.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from bot.ai.analysis import GameAnalysis, Moment, MomentKind
from bot.engine.types import Side
from bot.render import sprites
from bot.render.caption import fit_text
from bot.render.fonts import drawn_text, font
from bot.render.theme import DEFAULT_THEME, RGB, Theme, get_theme
from bot.render.view import ATTACKER, DEFENDER

DEFAULT_CHART_WIDTH = 800
"""Pixels: twice what a phone shows, so the text stays sharp when Discord scales it down."""
MIN_CHART_WIDTH = 320
ASPECT = 0.6
"""Height as a fraction of the width."""
SCALE = 2
"""Supersampling factor."""
LABEL_ROWS = 2
"""Rows of move-number labels above the plot: moments a few moves apart still get theirs."""


@dataclass(frozen=True)
class ChartWords:
    """The words a chart shows, given by whoever shows it (the bot's composition words them
    for its readers; these defaults are the command line's own)."""

    attackers: str = "Attackers"
    """The header's name for the attackers' player when none is given."""
    defenders: str = "Defenders"
    accuracy: str = "accuracy"
    """Between the players' figures, when there is room."""
    kinds: Mapping[MomentKind, str] = field(
        default_factory=lambda: {kind: kind.value for kind in MomentKind}
    )
    """The legend's name of each kind of moment."""
    no_moments: str = "no decisive mistakes"
    """The legend of a game without moments."""
    on_board: tuple[str, ...] = ("shown on a board", "on a board")
    """Beside the legend's sample move number, what a filled number means: the fullest of
    these that fits."""
    percent: str = "{value}%"
    """How the header writes a side's accuracy, ``{value}`` its whole number (``87%``; French
    puts a space before the sign)."""


CHART_WORDS = ChartWords()
"""The command line's words (the bot gives its own)."""

_KIND_SHAPES = {
    MomentKind.BLUNDER: "circle",
    MomentKind.MISSED_WIN: "diamond",
    MomentKind.MISSED_DEFENCE: "square",
    MomentKind.MISTAKE: "triangle",
    MomentKind.INACCURACY: "dot",
}


def kind_colour(theme: Theme, kind: MomentKind) -> RGB:
    """The chart's colour for a kind of moment."""
    return {
        MomentKind.BLUNDER: theme.moment_blunder,
        MomentKind.MISSED_WIN: theme.moment_missed_win,
        MomentKind.MISSED_DEFENCE: theme.moment_missed_defence,
        MomentKind.MISTAKE: theme.moment_mistake,
        MomentKind.INACCURACY: theme.moment_inaccuracy,
    }[kind]


class _Frame:
    """Pixel geometry of one chart (in supersampled pixels)."""

    def __init__(self, width: int, height: int, positions: int) -> None:
        self.width, self.height = width, height
        unit = width / 100
        self.header = round(9.5 * unit)
        self.row = round(5.5 * unit)
        self.labels = LABEL_ROWS * self.row
        self.ticks = round(5.0 * unit)
        self.legend = round(6.0 * unit)
        self.left = round(7.0 * unit)
        self.right = round(3.0 * unit)
        # A gap, so that a mark at 100% stays clear of the labels above it.
        self.top = self.header + self.labels + round(2.5 * unit)
        self.bottom = height - self.ticks - self.legend
        self.plot_width = width - self.left - self.right
        self.spans = max(1, positions - 1)

    def x(self, index: float) -> float:
        """Where position ``index`` (0 is the start) sits across the plot."""
        return self.left + self.plot_width * index / self.spans

    def y(self, chance: float) -> float:
        """Where the attackers' chance ``chance`` sits up the plot (1 at the top)."""
        return self.bottom - (self.bottom - self.top) * chance


def render_eval_chart(
    analysis: GameAnalysis,
    *,
    width: int = DEFAULT_CHART_WIDTH,
    theme: str | Theme = DEFAULT_THEME,
    attackers: str | None = None,
    defenders: str | None = None,
    words: ChartWords = CHART_WORDS,
) -> bytes:
    """PNG bytes of the game's evaluation chart, ``width`` pixels wide (``ASPECT`` high).

    The header names the players (``attackers``/``defenders``, by default the sides as
    ``words`` names them) with each side's accuracy; every word drawn comes from ``words``.
    """
    if width < MIN_CHART_WIDTH:
        raise ValueError(f"a chart needs at least {MIN_CHART_WIDTH} px, not {width}")
    palette = get_theme(theme)
    image = draw_eval_chart(
        analysis,
        width=width,
        theme=palette,
        attackers=attackers,
        defenders=defenders,
        words=words,
    )
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def draw_eval_chart(
    analysis: GameAnalysis,
    *,
    width: int = DEFAULT_CHART_WIDTH,
    theme: Theme,
    attackers: str | None = None,
    defenders: str | None = None,
    words: ChartWords = CHART_WORDS,
) -> Image.Image:
    """The chart as an RGB image (see :func:`render_eval_chart`)."""
    height = round(width * ASPECT)
    big = Image.new("RGB", (width * SCALE, height * SCALE), theme.caption_bg)
    draw = ImageDraw.Draw(big)
    chances = analysis.win_chances()
    frame = _Frame(big.width, big.height, len(chances))
    names = (attackers or words.attackers, defenders or words.defenders)
    _header(big, draw, frame, analysis, theme, *names, words.accuracy, words.percent)
    _areas(draw, frame, chances, theme)
    _axes(big, draw, frame, analysis, theme)
    _moments(draw, frame, analysis, chances, theme)
    _legend(draw, frame, analysis, theme, words)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: _Frame,
    analysis: GameAnalysis,
    theme: Theme,
    attackers: str,
    defenders: str,
    accuracy: str,
    percent: str,
) -> None:
    """Each player with a piece icon and their accuracy (written as ``percent`` says),
    attackers on the left and defenders mirrored on the right; the word ``accuracy`` once,
    between them."""
    unit = frame.width / 100
    face = font(round(3.4 * unit))
    small = font(round(2.9 * unit))
    mid = frame.header / 2
    icon_size = round(5.0 * unit)
    pad = round(2.5 * unit)
    players = (
        (Side.ATTACKERS, ATTACKER, drawn_text(attackers)),
        (Side.DEFENDERS, DEFENDER, drawn_text(defenders)),
    )
    scores = {side: analysis.accuracy(side) for side, _, _ in players}
    figures = {
        side: "–" if score is None else percent.format(value=f"{score:.0f}")
        for side, score in scores.items()
    }
    needs = [
        icon_size + 1.4 * pad + face.getlength(name) + face.getlength(figures[side])
        for side, _, name in players
    ]
    word = accuracy
    centre_room = small.getlength(word) + 2 * pad
    if sum(needs) + 2 * pad + centre_room > frame.width:
        word, centre_room = "", 0.0  # the names need the room more than the word does
    half = (frame.width - centre_room) / 2 - pad
    for side, code, name in players:
        figure = figures[side]
        room = half - icon_size - face.getlength(figure) - 1.4 * pad
        shown = fit_text(name, face, room)
        parts = [shown, figure] if side is Side.ATTACKERS else [figure, shown]
        total = icon_size + 1.4 * pad + sum(face.getlength(part) for part in parts)
        x = float(pad) if side is Side.ATTACKERS else frame.width - pad - total
        if side is Side.ATTACKERS:
            _icon(image, theme, code, icon_size, x, mid)
            x += icon_size + pad * 0.6
        for part in parts:
            colour = theme.caption_accent if part is figure else theme.caption_text
            draw.text((x, mid), part, font=face, fill=colour, anchor="lm")
            x += face.getlength(part) + pad * 0.8
        if side is Side.DEFENDERS:
            _icon(image, theme, code, icon_size, x - pad * 0.2, mid)
    if word:
        draw.text((frame.width / 2, mid), word, font=small, fill=theme.caption_dim, anchor="mm")


def _icon(image: Image.Image, theme: Theme, code: int, size: int, x: float, mid: float) -> None:
    sprite = sprites.icon(theme, code, size)
    image.paste(sprite, (round(x), round(mid - size / 2)), sprite)


def _areas(draw: ImageDraw.ImageDraw, frame: _Frame, chances: list[float], theme: Theme) -> None:
    """The defenders' share (above the line), the attackers' (below), the line itself."""
    left, right = frame.x(0), frame.x(frame.spans)
    draw.rectangle((left, frame.top, right, frame.bottom), fill=theme.defender)
    points = [(frame.x(i), frame.y(chance)) for i, chance in enumerate(chances)]
    if len(points) == 1:
        points.append((right, points[0][1]))
    draw.polygon([(left, frame.bottom), *points, (right, frame.bottom)], fill=theme.attacker)
    middle = frame.y(0.5)
    dash = frame.width / 120
    x = left
    while x < right:
        draw.line(
            ((x, middle), (min(right, x + dash), middle)),
            fill=theme.grid,
            width=max(1, round(frame.width / 600)),
        )
        x += 2 * dash
    draw.line(points, fill=theme.caption_accent, width=round(frame.width / 220), joint="curve")
    draw.rectangle(
        (left, frame.top, right, frame.bottom),
        outline=theme.caption_dim,
        width=max(1, round(frame.width / 500)),
    )


def _axes(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: _Frame,
    analysis: GameAnalysis,
    theme: Theme,
) -> None:
    """Which way is whose (a piece at each end of the scale) and the move numbers below."""
    unit = frame.width / 100
    icon_size = round(4.2 * unit)
    for code, top in ((ATTACKER, frame.top), (DEFENDER, frame.bottom - icon_size)):
        _icon(image, theme, code, icon_size, frame.left / 2 - icon_size / 2, top + icon_size / 2)
    face = font(round(2.9 * unit))
    plies = len(analysis.moves)
    if not plies:
        return
    full_moves = int(analysis.move_label(plies).rstrip(".…"))
    step = _tick_step(full_moves, frame.plot_width / face.getlength("000 "))
    y = frame.bottom + frame.ticks / 2
    for number in range(step, full_moves + 1, step):
        ply = _first_ply(analysis, number)
        if ply is None:
            continue
        tick_x = frame.x(ply)
        draw.line(
            ((tick_x, frame.bottom), (tick_x, frame.bottom + frame.ticks * 0.2)),
            fill=theme.caption_dim,
            width=max(1, round(frame.width / 500)),
        )
        draw.text((tick_x, y), str(number), font=face, fill=theme.caption_dim, anchor="mm")


def _tick_step(full_moves: int, fits: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... that labels no more ticks than ``fits``."""
    step = 1
    while full_moves / step > max(1.0, fits):
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if full_moves / step <= max(1.0, fits):
                break
    return step


def _first_ply(analysis: GameAnalysis, number: int) -> int | None:
    """The ply of full move ``number``'s first half (None when the game is shorter)."""
    for ply in range(max(1, 2 * number - 2), min(len(analysis.moves), 2 * number + 1) + 1):
        label = analysis.move_label(ply)
        if int(label.rstrip(".…")) == number:
            return ply
    return None


def _moments(
    draw: ImageDraw.ImageDraw,
    frame: _Frame,
    analysis: GameAnalysis,
    chances: list[float],
    theme: Theme,
) -> None:
    """A mark on the line where each moment's move landed, and its move number above."""
    unit = frame.width / 100
    face = font(round(3.0 * unit))
    placed: list[list[tuple[float, float]]] = [[] for _ in range(LABEL_ROWS)]
    line_width = max(1, round(frame.width / 400))
    # The critical moments claim label room first, then the costliest of the others; the row
    # nearest the plot first.
    order = sorted(analysis.moments, key=lambda m: (not m.critical, -m.loss, m.ply))
    for moment in order:
        colour = kind_colour(theme, moment.kind)
        x = frame.x(moment.ply)
        label = analysis.move_label(moment.ply)
        half = face.getlength(label) / 2 + unit * 0.9
        left = min(max(x - half, 0), frame.width - 2 * half)
        span = (left, left + 2 * half)
        for row in reversed(range(LABEL_ROWS)):
            if all(span[1] < a or span[0] > b for a, b in placed[row]):
                placed[row].append(span)
                top = _label(draw, span, frame, row, label, face, colour, moment, theme)
                # Only a labelled moment gets a line, to tie its number to its mark: in a
                # game of many swings a line for every mark would bar the plot.
                draw.line(((x, top), (x, frame.bottom)), fill=colour, width=line_width)
                break
    for moment in analysis.moments:  # marks last, over every line
        x, y = frame.x(moment.ply), frame.y(chances[moment.ply])
        _mark(draw, (x, y), unit * (1.6 if moment.critical else 1.25), moment, theme)


def _label(
    draw: ImageDraw.ImageDraw,
    span: tuple[float, float],
    frame: _Frame,
    row: int,
    text: str,
    face: ImageFont.FreeTypeFont,
    colour: RGB,
    moment: Moment,
    theme: Theme,
) -> float:
    """Draw a moment's label in ``row``; returns where its box ends (its line starts there)."""
    top = frame.header + row * frame.row + frame.row * 0.1
    bottom = frame.header + (row + 1) * frame.row - frame.row * 0.1
    box = (span[0], top, span[1], bottom)
    radius = (bottom - top) / 3
    centre = ((span[0] + span[1]) / 2, (top + bottom) / 2)
    if moment.critical:
        draw.rounded_rectangle(box, radius=radius, fill=colour)
        draw.text(centre, text, font=face, fill=(255, 255, 255), anchor="mm")
    else:
        draw.rounded_rectangle(
            box, radius=radius, outline=colour, width=max(1, round(frame.width / 400))
        )
        draw.text(centre, text, font=face, fill=theme.caption_text, anchor="mm")
    return bottom


def _mark(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    moment: Moment,
    theme: Theme,
) -> None:
    """The kind's shape, with a light rim and a dark edge so it shows on either area."""
    colour = kind_colour(theme, moment.kind)
    shape = _KIND_SHAPES[moment.kind]
    for grow, fill in (
        (radius * 0.55, theme.attacker),
        (radius * 0.35, (255, 255, 255)),
        (0.0, colour),
    ):
        _shape(draw, shape, centre, radius + grow, fill)


def _shape(
    draw: ImageDraw.ImageDraw, shape: str, centre: tuple[float, float], radius: float, fill: RGB
) -> None:
    x, y = centre
    if shape == "circle":
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)
    elif shape == "diamond":
        r = radius * 1.3
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill)
    elif shape == "triangle":
        r = radius * 1.35
        draw.polygon(
            [(x, y - r), (x + r * 0.87, y + r * 0.5), (x - r * 0.87, y + r * 0.5)], fill=fill
        )
    elif shape == "dot":
        r = radius * 0.75
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    else:
        r = radius * 0.92
        draw.rectangle((x - r, y - r, x + r, y + r), fill=fill)


def _legend(
    draw: ImageDraw.ImageDraw,
    frame: _Frame,
    analysis: GameAnalysis,
    theme: Theme,
    words: ChartWords,
) -> None:
    """The kinds of moment the chart shows, each with its shape; or that there were none.

    One row, its face as large as fits; when the kinds' names are too long for one row even at
    the smallest face (some languages' words are), two rows."""
    unit = frame.width / 100
    kinds = [kind for kind in MomentKind if any(m.kind is kind for m in analysis.moments)]
    y = frame.height - frame.legend / 2
    radius, gap = unit * 1.1, unit * 3
    boards = next((m for m in analysis.moments if m.critical), None)
    sample = analysis.move_label(boards.ply) if boards is not None else ""
    room = frame.width - unit * 4

    def needed(face: ImageFont.FreeTypeFont, row: list[MomentKind], with_sample: bool) -> float:
        width = sum(radius * 2 + unit + face.getlength(words.kinds[kind]) for kind in row)
        width += gap * max(0, len(row) - 1)
        if with_sample:  # the sample number, at least
            width += gap + face.getlength(sample) + unit * 1.8
        return width

    rows = [kinds]
    size = 2.9
    # Tried at the smallest face first: the sizes between are not worth a font each when even
    # that is too wide (fonts are cached, but only a few sizes).
    face = font(round(1.6 * unit))
    one_row = needed(face, kinds, boards is not None) <= room or len(kinds) < 2
    while one_row and size > 1.6:
        face = font(round(size * unit))
        if needed(face, kinds, boards is not None) <= room:
            break
        size -= 0.1
    if not one_row:
        half = (len(kinds) + 1) // 2
        rows = [kinds[:half], kinds[half:]]
        size = 2.3
        while size > 1.6:
            face = font(round(size * unit))
            if (
                needed(face, rows[0], False) <= room
                and needed(face, rows[1], boards is not None) <= room
            ):
                break
            size -= 0.1
    if not kinds:
        draw.text(
            (frame.width / 2, y),
            words.no_moments,
            font=face,
            fill=theme.caption_dim,
            anchor="mm",
        )
        return
    step = frame.legend / 2 if len(rows) == 2 else 0.0
    shape_radius = radius if len(rows) == 1 else radius * 0.85
    for index, row in enumerate(rows):
        row_y = y + (index - (len(rows) - 1) / 2) * step
        last = index == len(rows) - 1
        _legend_row(
            draw, frame, theme, words, face, row, row_y, shape_radius,
            boards if last else None, sample, one_row=len(rows) == 1,
        )  # fmt: skip


def _legend_row(
    draw: ImageDraw.ImageDraw,
    frame: _Frame,
    theme: Theme,
    words: ChartWords,
    face: ImageFont.FreeTypeFont,
    kinds: list[MomentKind],
    y: float,
    radius: float,
    boards: Moment | None,
    sample: str,
    *,
    one_row: bool,
) -> None:
    """One row of the legend, centred at height ``y``: its kinds, and with ``boards`` the
    sample move number of a moment shown on a board, with what it means when there is room."""
    unit = frame.width / 100
    gap = unit * 3
    items = [(kind, words.kinds[kind]) for kind in kinds]
    widths = [radius * 2 + unit + face.getlength(text) for _, text in items]
    # A filled move number means the moment has its own board under the review; the sample is
    # the first such number of this game, not a made-up one the chart does not have.
    sample_box = face.getlength(sample) + unit * 1.8
    boards_text = ""
    if boards is not None:
        # The fullest wording that fits beside the kinds (all three kinds leave little room).
        room = frame.width - unit * 4 - sum(widths) - gap * len(widths) - sample_box - unit
        boards_text = next((t for t in words.on_board if face.getlength(t) <= room), "")
        widths.append(sample_box + unit + face.getlength(boards_text))
    x = (frame.width - sum(widths) - gap * (len(widths) - 1)) / 2
    for (kind, text), item_width in zip(items, widths, strict=False):
        _shape(draw, _KIND_SHAPES[kind], (x + radius, y), radius + unit * 0.3, (255, 255, 255))
        _shape(draw, _KIND_SHAPES[kind], (x + radius, y), radius, kind_colour(theme, kind))
        draw.text((x + 2 * radius + unit, y), text, font=face, fill=theme.caption_text, anchor="lm")
        x += item_width + gap
    if boards is not None:
        half = frame.row * (0.4 if one_row else 0.3)
        box = (x, y - half, x + sample_box, y + half)
        draw.rounded_rectangle(box, radius=half * 2 / 3, fill=kind_colour(theme, boards.kind))
        draw.text(((box[0] + box[2]) / 2, y), sample, font=face, fill=(255, 255, 255), anchor="mm")
        draw.text(
            (x + sample_box + unit, y), boards_text, font=face, fill=theme.caption_text, anchor="lm"
        )
