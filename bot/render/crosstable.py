"""Tournament standings as a crosstable image (PNG) and as plain text.

The input is plain data (:class:`CrosstableView`), built by whoever runs the event; nothing here
knows Discord or the database. One row per player in standing order: rank (ties as "3–4"), name,
rating, one cell per Swiss round (or per opponent of a round robin, or the run of an arena's
games), points and the tiebreak columns the event uses.

In a Swiss cell the opponent is a small numbered pill, the opponent's row number in the whole
standings; the pill is dark when the player had the attackers and light when they had the
defenders (the board's piece colours), plain for a two-game match or a game not played. The
result follows: 1, ½, 0, or the game points of a match (1½). A bye shows "bye" and its points as
"+" (a point), "½" or "−" (none); a forfeit shows "+" or "−" beside the opponent's pill.

The image is sized from its contents, with the body text at ``BASE_FONT`` pixels; Discord shows
an image about 380 px wide on a phone, so nothing is drawn smaller than four fifths of that size
and the columns stay narrow (names are cut with an ellipsis). A big event is shown a page of rows
at a time (``page``/``rows_per_page``), the page named in the subtitle.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot.render.caption import ELLIPSIS, MINUS, fit_text
from bot.render.fonts import drawn_text, font
from bot.render.theme import DEFAULT_THEME, RGB, Theme, get_theme

Format = Literal["swiss", "round_robin", "arena"]
SidePlayed = Literal["attackers", "defenders"]
CellKind = Literal["played", "pending", "bye", "forfeit", "absent"]

BASE_FONT = 26
"""Body text in pixels when no width is asked for: a table of a typical Swiss is then about
1,000 px wide, and Discord's ~380 px on a phone shows the text at 9-11 px."""
MIN_FONT = 12
MAX_ROWS = 64
"""Rows in one image when the caller does not page: more would be too small on a phone."""
TEXT_LIMIT = 2000
"""Characters in one Discord message."""
STACK_EM = 34
"""A Swiss table wider than this many body-font ems gets two lines a player (see _Table)."""
ARENA_GAMES = 12
"""At most this many of an arena player's latest games are shown."""
PLAYER_EM = 7.5
"""The name column's widest, in body-font ems: longer names are cut with an ellipsis."""
STACKED_PLAYER_EM = 9.5
"""The same in a stacked table, whose first line has room to spare."""
TEXT_NAME_CHARS = 14
"""The plain-text table's name column, in monospace cells."""

_DAGGER = "†"
_MEDALS: tuple[RGB, RGB, RGB] = ((232, 176, 32), (160, 168, 180), (192, 120, 64))


# --- the data -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One pairing of a row's player: a Swiss round, a round-robin opponent or an arena game.

    ``points`` is what this player scored (game points for a two-game match); ``opponent`` the
    opponent's row number in the whole standings (1 is the top row), for Swiss; ``side`` the side
    this player had in a one-game pairing (None for a match, where both sides are played).
    ``streak`` marks an arena game scored double on a winning streak. The constructors below
    read better than the fields.
    """

    kind: CellKind = "played"
    points: float | None = None
    opponent: int | None = None
    side: SidePlayed | None = None
    streak: bool = False

    @classmethod
    def game(
        cls,
        points: float,
        opponent: int | None = None,
        side: SidePlayed | None = None,
        *,
        streak: bool = False,
    ) -> Cell:
        """A game or match that was played."""
        return cls("played", points, opponent, side, streak)

    @classmethod
    def pending(cls, opponent: int | None = None, side: SidePlayed | None = None) -> Cell:
        """Paired, not finished yet."""
        return cls("pending", None, opponent, side)

    @classmethod
    def bye(cls, points: float) -> Cell:
        """No opponent this round: a full-point (1), half-point or zero-point bye."""
        return cls("bye", points)

    @classmethod
    def forfeit(cls, points: float, opponent: int | None = None) -> Cell:
        """Decided without play: ``points`` above 0 is a win by forfeit, 0 a loss."""
        return cls("forfeit", points, opponent)

    @classmethod
    def absent(cls) -> Cell:
        """Not paired: withdrawn, or not yet in the event."""
        return cls("absent")


@dataclass(frozen=True)
class PlayerRow:
    """One player's line of the standings.

    ``rank_to`` is the last rank of a tie (``rank=3, rank_to=4`` shows "3–4"). ``cells`` holds
    one cell per round (Swiss), per row of the table (round robin: the player's own is None), or
    per game in the order played (arena). A withdrawn player's row is greyed, with ``note``
    ("withdrew after round 2") under the table.
    """

    rank: int
    name: str
    points: float
    rating: int | None = None
    cells: tuple[Cell | None, ...] = ()
    rank_to: int | None = None
    withdrawn: bool = False
    note: str = ""


@dataclass(frozen=True)
class Tiebreak:
    """A tiebreak column: a short header ("BH"), the values by row in standing order (numbers
    are shown with halves and quarters as ½ ¼ ¾; a string as it is; None empty) and the name
    spelled out under the table ("Buchholz")."""

    name: str
    values: tuple[float | int | str | None, ...]
    title: str = ""


@dataclass(frozen=True)
class CrosstableWords:
    """Every word a crosstable shows besides names and numbers, as its caller words them (the
    renderer composes no sentence of its own). ``round`` takes the round's number, ``matches``
    the games per pairing, ``page`` the first and last row shown and the number of rows,
    ``left_note`` a player's name and why they no longer play."""

    rank: str
    number: str
    player: str
    rating: str
    games: str
    round: str
    bye: str
    attackers: str
    defenders: str
    matches: str
    forfeit: str
    playing: str
    streak: str
    withdrawn: str
    page: str
    played_sides: str
    pending_sides: str
    attacker_mark: str
    """The letter after a cell's opponent in the text form when the player had the attackers
    (``a``; the legend, ``played_sides`` and ``pending_sides``, spells it out)."""
    defender_mark: str
    """The same for the defenders (``d``)."""
    streak_short: str
    left_note: str = "{0}: {1}"
    """A player who no longer plays, under the table: their name and why (French puts a space
    before the colon)."""


@dataclass(frozen=True)
class CrosstableView:
    """Everything a crosstable shows. ``rows`` are the whole standings in order; ``page`` (from
    1) and ``rows_per_page`` choose the rows drawn (by default all, up to ``MAX_ROWS`` a page).
    ``games_per_pairing`` is 2 for two-game matches (cells and points are game points)."""

    title: str
    subtitle: str = ""
    format: Format = "swiss"
    rows: tuple[PlayerRow, ...] = ()
    tiebreaks: tuple[Tiebreak, ...] = ()
    games_per_pairing: int = 1
    page: int = 1
    rows_per_page: int | None = None
    points_label: str = "Pts"
    words: CrosstableWords = field(kw_only=True)
    """The words it shows (headers, notes, the legend)."""

    def __post_init__(self) -> None:
        if self.format not in ("swiss", "round_robin", "arena"):
            raise ValueError(f"unknown format {self.format!r}")
        for tiebreak in self.tiebreaks:
            if len(tiebreak.values) != len(self.rows):
                raise ValueError(
                    f"tiebreak {tiebreak.name!r} has {len(tiebreak.values)} values "
                    f"for {len(self.rows)} rows"
                )
        if self.rows_per_page is not None and self.rows_per_page < 1:
            raise ValueError("rows_per_page must be at least 1")
        if not 1 <= self.page <= page_count(self):
            raise ValueError(f"page {self.page} of {page_count(self)} does not exist")


def page_count(view: CrosstableView) -> int:
    """How many pages the view's rows make (at least 1)."""
    per_page = _per_page(view)
    return max(1, -(-len(view.rows) // per_page))


def _per_page(view: CrosstableView) -> int:
    return view.rows_per_page or MAX_ROWS


def _page_span(view: CrosstableView) -> tuple[int, int]:
    """The page's rows as a slice (start, stop) of ``view.rows``."""
    per_page = _per_page(view)
    start = (view.page - 1) * per_page
    return start, min(len(view.rows), start + per_page)


def page_note(view: CrosstableView) -> str:
    """ "rows 21–40 of 64" when the page does not hold every row, else ""."""
    start, stop = _page_span(view)
    if start == 0 and stop == len(view.rows):
        return ""
    return view.words.page.format(start + 1, stop, len(view.rows))


# --- formatting shared by the image and the text --------------------------------------------------


_FRACTIONS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def format_points(value: float | int | str | None) -> str:
    """A score as people write it: 2.5 -> "2½", 0.5 -> "½", 7 -> "7", 10.25 -> "10¼"; other
    fractions to one decimal; a string unchanged; None as ""."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    sign = MINUS if value < 0 else ""
    quarters = abs(value) * 4
    if abs(quarters - round(quarters)) < 1e-6:
        whole, part = divmod(round(quarters), 4)
        if whole == 0 and part:
            return sign + _FRACTIONS[part]
        return f"{sign}{whole}{_FRACTIONS[part]}"
    return f"{sign}{abs(value):.1f}"


def _rank_text(row: PlayerRow, dash: str = "–") -> str:
    if row.rank_to is not None and row.rank_to != row.rank:
        return f"{row.rank}{dash}{row.rank_to}"
    return str(row.rank)


def _result_text(cell: Cell) -> str:
    """What a cell shows after the opponent: the points, a forfeit's + or −, a bye's points."""
    if cell.kind == "pending":
        return ELLIPSIS
    if cell.kind == "absent" or cell.points is None:
        return ""
    if cell.kind == "forfeit":
        return "+" if cell.points > 0 else MINUS
    if cell.kind == "bye":
        if cell.points <= 0:
            return MINUS
        return "+" if cell.points >= 1 else format_points(cell.points)
    return format_points(cell.points)


def clean_name(name: str) -> str:
    """A name fit to draw: control and formatting characters dropped, whitespace single."""
    kept = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in name
        if unicodedata.category(ch) not in ("Cf", "Co", "Cs")
    )
    return " ".join(kept.split()) or "?"


# --- the image ----------------------------------------------------------------------------------


def drawn_name(name: str) -> str:
    """:func:`clean_name` as the image draws it (see :func:`~bot.render.fonts.drawn_text`)."""
    return drawn_text(clean_name(name))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class TableStyle:
    """The table's colours, taken from a board theme so a server's standings match its boards."""

    band: RGB
    band_text: RGB
    band_dim: RGB
    body: RGB
    stripe: RGB
    text: RGB
    dim: RGB
    line: RGB
    points_band: RGB
    accent: RGB
    attacker: RGB
    attacker_text: RGB
    defender: RGB
    defender_text: RGB
    outline: RGB
    medals: tuple[RGB, RGB, RGB]
    podium: tuple[RGB, RGB, RGB]
    diagonal: RGB

    @classmethod
    def from_theme(cls, theme: Theme) -> TableStyle:
        body = _mix(theme.defender, theme.square, 0.18)
        # From the grid colour, which every theme has dark: a white theme still gets stripes.
        stripe = _mix(body, theme.grid, 0.1)
        text = theme.outline
        return cls(
            band=theme.caption_bg,
            band_text=theme.caption_text,
            band_dim=theme.caption_dim,
            body=body,
            stripe=stripe,
            text=text,
            dim=_mix(text, body, 0.45),
            line=_mix(theme.grid, body, 0.55),
            points_band=_mix(body, theme.square, 0.9),
            accent=theme.capture,
            attacker=theme.attacker,
            attacker_text=theme.defender,
            defender=_mix(theme.defender, (255, 255, 255), 0.6),
            defender_text=theme.attacker,
            outline=theme.outline,
            medals=_MEDALS,
            podium=(
                _mix(body, _MEDALS[0], 0.3),
                _mix(body, _MEDALS[1], 0.3),
                _mix(body, _MEDALS[2], 0.3),
            ),
            diagonal=_mix(theme.grid, body, 0.55),
        )


@dataclass(frozen=True)
class Column:
    """One column of the table: where it is and how its cells are aligned."""

    key: str
    header: str
    x: int
    width: int
    align: Literal["left", "right", "centre"] = "right"
    line: int = 0
    """0, or 1 for the round cells of a stacked table's second line."""

    @property
    def right(self) -> int:
        return self.x + self.width


@dataclass(frozen=True)
class Placed:
    """A piece of text as drawn: its ink box and the box it had to stay in."""

    text: str
    box: tuple[int, int, int, int]
    room: tuple[int, int, int, int]


@dataclass(frozen=True)
class Drawn:
    """A drawn crosstable: the image, its columns and every text placed in it (for tests)."""

    image: Image.Image
    columns: tuple[Column, ...]
    texts: tuple[Placed, ...]
    font_size: int
    stacked: bool


class _Metrics:
    """Sizes derived from the body font size."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.body = font(size)
        self.small = font(max(MIN_FONT, round(size * 0.82)))
        self.pill = font(max(MIN_FONT, round(size * 0.86)))
        self.title = font(round(size * 1.2))
        self.pad = max(3, round(size * 0.32))
        self.margin = round(size * 0.6)
        self.row = round(size * 1.5)
        self.header = round(size * 1.45)
        self.pill_height = round(size * 1.02)
        self.pill_pad = round(size * 0.28)
        self.gap = max(2, round(size * 0.22))
        self.line = max(1, round(size / 18))
        self.medal = max(3, round(size * 0.2))


def _digits_width(face: ImageFont.FreeTypeFont, value: int) -> float:
    return face.getlength(str(value))


class _Table:
    """The layout of one page: columns, their widths and lines, and the rows drawn.

    A table whose columns would make it wider than ``STACK_EM`` body-font ems is *stacked*: each
    player takes two lines, the standing (rank, name, rating, points, tiebreaks) on the first
    and the round cells under the name on the second. It is then about half as wide and twice
    as tall, which suits a phone's tall screen: the text comes out half as big again.
    """

    def __init__(
        self, view: CrosstableView, size: int, width: int | None, stacked: bool | None
    ) -> None:
        self.view = view
        self.m = _Metrics(size)
        start, stop = _page_span(view)
        self.start = start
        self.rows = view.rows[start:stop]
        # Cells name opponents by row number: when ranks are shared on this page, each row
        # shows its number too.
        self.ties = any(r.rank_to is not None and r.rank_to != r.rank for r in self.rows)
        self.rounds = max((len(r.cells) for r in view.rows), default=0)
        if view.format == "round_robin":
            self.rounds = len(view.rows)
        self._widest_opponent = max(
            (c.opponent for r in view.rows for c in r.cells if c and c.opponent), default=1
        )
        self.name_needs = [self._name_need(r) for r in self.rows] or [0.0]
        self.cell_parts = self._cell_parts()
        specs = self._specs(PLAYER_EM)
        if stacked is None:
            one_line = self._natural(specs, stacked=False)
            stacked = view.format == "swiss" and one_line > STACK_EM * size
        if stacked:  # the rounds left the first line: room for longer names
            specs = self._specs(STACKED_PLAYER_EM)
        self.stacked = stacked
        self.lines = 2 if stacked else 1
        self.natural = self._natural(specs, stacked)
        self.width = max(self.natural, self._min_width()) if width is None else width
        if self.width < self.natural:
            raise ValueError(f"this table needs {self.natural} px at a {size} px font")
        self.columns = self._place(specs)

    # What each column needs.

    def _cell_parts(self) -> tuple[float, float]:
        """The widest opponent slot (pill or "bye") and the widest result in the cells."""
        m = self.m
        slot = 0.0
        result = 0.0
        for row in self.view.rows:
            for cell in row.cells:
                if cell is None:
                    continue
                result = max(result, m.body.getlength(_result_text(cell)))
                if self.view.format == "swiss":
                    if cell.opponent is not None:
                        slot = max(slot, self.pill_width())
                    elif cell.kind == "bye":
                        slot = max(slot, m.small.getlength(self.view.words.bye))
                elif self.view.format == "round_robin" and cell.side is not None:
                    slot = max(slot, self.dot())
        return slot, result

    def pill_width(self) -> float:
        """Every opponent pill is as wide as the widest number's needs."""
        return self.m.pill.getlength("8" * len(str(self._widest_opponent))) + 2 * self.m.pill_pad

    def dot(self) -> float:
        return self.m.size * 0.5

    def _arena_width(self) -> float:
        m = self.m
        longest = max((len(r.cells) for r in self.view.rows), default=0)
        shown = min(longest, ARENA_GAMES)
        widest = max(
            (m.small.getlength(_result_text(c)) for r in self.view.rows for c in r.cells if c),
            default=0.0,
        )
        run = shown * widest + max(0, shown - 1) * m.gap
        if longest > ARENA_GAMES:
            run += m.small.getlength(ELLIPSIS) + m.gap
        return max(run, m.small.getlength(self.view.words.games))

    def _specs(self, player_em: float) -> list[_Spec]:
        m, view = self.m, self.view
        specs: list[_Spec] = []
        ranks = [m.body.getlength(_rank_text(r)) for r in self.rows] or [0.0]
        words = view.words
        rank = max(max(ranks) + m.medal / 2, m.small.getlength(words.rank))
        specs.append(_Spec("rank", words.rank, rank, "right"))
        if self.ties:
            last = str(self.start + len(self.rows))
            need = max(m.small.getlength(last), m.small.getlength(words.number))
            specs.append(_Spec("number", words.number, need, "right"))
        player = min(max(self.name_needs), player_em * m.size)
        specs.append(
            _Spec("name", words.player, max(player, m.small.getlength(words.player)), "left")
        )
        if any(r.rating is not None for r in view.rows):
            ratings = [m.small.getlength(str(r.rating)) for r in view.rows if r.rating is not None]
            specs.append(
                _Spec("rating", words.rating, max([*ratings, m.small.getlength(words.rating)]))
            )
        if view.format == "arena":
            specs.append(_Spec("games", words.games, self._arena_width(), "right", cells=True))
        else:
            slot, result = self.cell_parts
            inner = slot + (m.gap if slot and result else 0) + result
            for index in range(self.rounds):
                header = words.round.format(index + 1) if view.format == "swiss" else str(index + 1)
                need = max(inner, m.small.getlength(header))
                specs.append(_Spec(f"cell{index}", header, need, "centre", cells=True))
        points = [m.body.getlength(format_points(r.points)) for r in view.rows] or [0.0]
        label = view.points_label
        specs.append(_Spec("points", label, max([*points, m.small.getlength(label)])))
        for index, tiebreak in enumerate(view.tiebreaks):
            values = [m.small.getlength(format_points(v)) for v in tiebreak.values]
            need = max([*values, m.small.getlength(tiebreak.name)])
            specs.append(_Spec(f"tb{index}", tiebreak.name, need))
        return specs

    def _room(self, spec: _Spec) -> int:
        # Round cells get a little more air, so that a result is not read with the next pill.
        air = round(self.m.size * 0.3) if spec.cells else 0
        return math.ceil(spec.need) + 2 * self.m.pad + air

    def _indent(self, specs: list[_Spec]) -> int:
        """Where the stacked second line starts: under the name."""
        return sum(self._room(s) for s in specs if s.key in ("rank", "number"))

    def _natural(self, specs: list[_Spec], stacked: bool) -> int:
        if not stacked:
            return sum(self._room(s) for s in specs) + 2 * self.m.margin
        first = sum(self._room(s) for s in specs if not s.cells)
        second = self._indent(specs) + sum(self._room(s) for s in specs if s.cells)
        return max(first, second) + 2 * self.m.margin

    def _place(self, specs: list[_Spec]) -> tuple[Column, ...]:
        """Columns at their places, the spare width of the first line shared out: the name
        first (up to its full length), then every column but the rank alike."""
        groups = [[s for s in specs if not s.cells], [s for s in specs if s.cells]]
        if not self.stacked:
            groups = [specs]
        columns: list[Column] = []
        for line, group in enumerate(groups):
            if not group:
                continue
            x0 = self.m.margin + (self._indent(specs) if line else 0)
            widths = [self._room(s) for s in group]
            extra = self.width - self.m.margin - x0 - sum(widths)
            if line == 0:
                i = next(i for i, s in enumerate(group) if s.key == "name")
                grow = min(extra, max(0, math.ceil(max(self.name_needs) - group[i].need)))
                widths[i] += grow
                extra -= grow
            # A stacked table's round cells stay packed under the name, where the eye
            # finds them; only the standing's line spreads.
            sharing = [
                i for i, s in enumerate(group) if s.key not in ("rank", "number") and not line
            ]
            for n, i in enumerate(sharing):
                share = extra // (len(sharing) - n)
                widths[i] += share
                extra -= share
            x = x0
            for spec, w in zip(group, widths, strict=True):
                columns.append(Column(spec.key, spec.header, x, w, spec.align, line))
                x += w
        return tuple(columns)

    def _name_need(self, row: PlayerRow) -> float:
        need = self.m.body.getlength(drawn_name(row.name))
        if row.withdrawn:
            need += self.m.small.getlength(" " + _DAGGER)
        return need

    def _min_width(self) -> int:
        return round(self.m.size * 16)


@dataclass(frozen=True)
class _Spec:
    """A column before placing: its key, header, the width its contents need, its alignment,
    and whether it holds round cells (the second line of a stacked table)."""

    key: str
    header: str
    need: float
    align: Literal["left", "right", "centre"] = "right"
    cells: bool = False


def draw_crosstable(
    view: CrosstableView,
    *,
    theme: str | Theme = DEFAULT_THEME,
    width: int | None = None,
    stacked: bool | None = None,
) -> Drawn:
    """The crosstable as an RGB image with its layout (see :func:`render_crosstable`)."""
    style = TableStyle.from_theme(get_theme(theme))
    size = BASE_FONT
    if stacked is None:
        stacked = _Table(view, BASE_FONT, None, None).stacked
    if width is not None:
        natural = _Table(view, BASE_FONT, None, stacked).natural
        size = max(MIN_FONT, math.floor(BASE_FONT * width / natural))
        while size > MIN_FONT and _Table(view, size, None, stacked).natural > width:
            size -= 1
        need = _Table(view, size, None, stacked).natural
        if need > width:
            raise ValueError(f"this crosstable needs at least {need} px, not {width}")
    table = _Table(view, size, width, stacked)
    return _Painter(table, style).paint()


def render_crosstable(
    view: CrosstableView,
    *,
    theme: str | Theme = DEFAULT_THEME,
    width: int | None = None,
    stacked: bool | None = None,
) -> bytes:
    """PNG bytes of the view's page of standings.

    Without ``width`` the image takes the width its columns need at ``BASE_FONT``; with one,
    the text is scaled to fill exactly that many pixels (ValueError if even ``MIN_FONT`` text
    does not fit). ``stacked`` forces the two-line rows on or off (by default a Swiss table
    wider than ``STACK_EM`` ems is stacked).
    """
    image = draw_crosstable(view, theme=theme, width=width, stacked=stacked).image
    # A table is flat fills and anti-aliased text: 256 colours look the same and make the
    # file a third of the size.
    fitted = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    fitted.save(buffer, "PNG", optimize=False, compress_level=9)
    return buffer.getvalue()


@lru_cache(maxsize=64)
def _pill(width: int, height: int, fill: RGB | None, outline: RGB | None, line: int) -> Image.Image:
    """A rounded pill drawn four times over and shrunk, for smooth edges (RGBA)."""
    k = 4
    big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * k - 1, height * k - 1),
        radius=height * k / 2,
        fill=None if fill is None else (*fill, 255),
        outline=None if outline is None else (*outline, 255),
        width=line * k,
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _wrap(text: str, face: ImageFont.FreeTypeFont, room: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` pixels, broken at spaces, the last cut
    with an ellipsis when it still does not fit."""
    words = text.split()
    out: list[str] = []
    while words and len(out) < lines:
        line = words.pop(0)
        while words and face.getlength(line + " " + words[0]) <= room:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = out[-1] + " " + " ".join(words)
    return [fit_text(line, face, room) for line in out]


class _Painter:
    """Draws a laid-out table."""

    def __init__(self, table: _Table, style: TableStyle) -> None:
        self.t = table
        self.s = style
        self.m = table.m
        self.placed: list[Placed] = []
        self.by_key = {c.key: c for c in table.columns}
        m = table.m
        # A stacked row's two lines sit a little closer than two separate rows would.
        self.line_height = round(m.size * 1.3) if table.stacked else m.row
        self.row_height = table.lines * self.line_height + (
            round(m.size * 0.25) if table.stacked else 0
        )

    def paint(self) -> Drawn:
        t, m, s = self.t, self.m, self.s
        width = t.width
        inner = width - 2 * m.margin
        view = t.view
        title = _wrap(drawn_name(view.title), m.title, inner, 2)
        subtitle_text = " · ".join(
            p for p in (drawn_name(view.subtitle) if view.subtitle else "", page_note(view)) if p
        )
        subtitle = _wrap(subtitle_text, m.small, inner, 2) if subtitle_text else []
        line_title = round(m.size * 1.45)
        line_sub = round(m.size * 1.15)
        band = m.margin + len(title) * line_title + len(subtitle) * line_sub + round(m.size * 0.35)
        header_top = band
        header_height = m.header if t.lines == 1 else round(m.header * 0.85) * 2
        body_top = header_top + header_height
        legend = self._legend_lines(inner)
        legend_line = round(m.size * 1.1)
        body_bottom = body_top + len(t.rows) * self.row_height
        height = body_bottom + (m.margin + len(legend) * legend_line if legend else 0) + m.margin
        image = Image.new("RGB", (width, height), s.body)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, width, body_top - 1), fill=s.band)
        room = (m.margin, 0, width - m.margin, band)
        y = m.margin + line_title / 2
        for line in title:
            self._text(draw, (m.margin, y), line, m.title, s.band_text, "lm", room)
            y += line_title
        y += (line_sub - line_title) / 2
        for line in subtitle:
            self._text(draw, (m.margin, y), line, m.small, s.band_dim, "lm", room)
            y += line_sub
        rule = _mix(s.band, s.band_dim, 0.4)
        draw.line((m.margin, header_top, width - m.margin, header_top), fill=rule, width=m.line)
        self._headers(draw, header_top, header_height)
        self._body(image, draw, body_top)
        if legend:
            y = body_bottom + m.margin + legend_line / 2
            for items in legend:
                self._legend_line(draw, y, items)
                y += legend_line
        return Drawn(image, t.columns, tuple(self.placed), m.size, t.stacked)

    # Text with its box recorded.

    def _text(
        self,
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        face: ImageFont.FreeTypeFont,
        fill: RGB,
        anchor: str,
        room: tuple[float, float, float, float],
    ) -> None:
        if not text:
            return
        draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        self._record(text, draw.textbbox(xy, text, font=face, anchor=anchor), room)

    def _record(
        self,
        text: str,
        box: tuple[float, float, float, float],
        room: tuple[float, float, float, float],
    ) -> None:
        self.placed.append(
            Placed(
                text,
                (round(box[0]), round(box[1]), round(box[2]), round(box[3])),
                (round(room[0]), round(room[1]), round(room[2]), round(room[3])),
            )
        )

    def _aligned(
        self,
        draw: ImageDraw.ImageDraw,
        column: Column,
        band: tuple[float, float],
        text: str,
        face: ImageFont.FreeTypeFont,
        fill: RGB,
    ) -> None:
        pad = self.m.pad
        top, bottom = band
        mid = (top + bottom) / 2
        room = (column.x + pad, top, column.right - pad, bottom)
        if column.align == "left":
            self._text(draw, (column.x + pad, mid), text, face, fill, "lm", room)
        elif column.align == "centre":
            self._text(draw, (column.x + column.width / 2, mid), text, face, fill, "mm", room)
        else:
            self._text(draw, (column.right - pad, mid), text, face, fill, "rm", room)

    # The header row.

    def _headers(self, draw: ImageDraw.ImageDraw, top: int, height: int) -> None:
        each = height / self.t.lines
        for column in self.t.columns:
            colour = self.s.band_text if column.key == "points" else self.s.band_dim
            band = (top + column.line * each, top + (column.line + 1) * each)
            self._aligned(draw, column, band, column.header, self.m.small, colour)

    # The rows.

    def _line_band(self, y0: int, line: int) -> tuple[float, float]:
        """The vertical span of a row's line ``line``, starting at ``y0``."""
        slack = (self.row_height - self.t.lines * self.line_height) / 2
        top = y0 + slack + line * self.line_height
        return top, top + self.line_height

    def _body(self, image: Image.Image, draw: ImageDraw.ImageDraw, top: int) -> None:
        t, m, s = self.t, self.m, self.s
        points = self.by_key["points"]
        for i, row in enumerate(t.rows):
            y0 = top + i * self.row_height
            y1 = y0 + self.row_height
            # A player who withdrew keeps the place their score gives them, podium included
            # (greyed and marked, as the legend says).
            podium = 1 <= row.rank <= 3
            fill = s.podium[row.rank - 1] if podium else (s.stripe if i % 2 else s.body)
            draw.rectangle((0, y0, t.width, y1 - 1), fill=fill)
            band = (y0, y1) if not t.stacked else self._line_band(y0, 0)
            draw.rectangle(
                (points.x, round(band[0]), points.right - 1, round(band[1]) - 1),
                fill=_mix(fill, s.points_band, 0.7),
            )
            if podium:
                bar = (m.margin - m.medal, y0, m.margin - 1, y1 - 1)
                draw.rectangle(bar, fill=s.medals[row.rank - 1])
            self._row(image, draw, row, t.start + i + 1, y0)
        bottom = top + len(t.rows) * self.row_height
        if not t.stacked:
            # Light rules between the groups of columns, and between a round robin's cells.
            firsts = {
                next((c.key for c in t.columns if c.key.startswith(prefix)), "")
                for prefix in ("cell", "games", "points", "tb")
            }
            for column in t.columns:
                grid = t.view.format == "round_robin" and column.key.startswith("cell")
                if column.key in firsts or grid:
                    draw.line((column.x, top, column.x, bottom - 1), fill=s.line, width=m.line)
        draw.line((m.margin, bottom, t.width - m.margin, bottom), fill=s.line, width=m.line)

    def _row(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        row: PlayerRow,
        number: int,
        y0: int,
    ) -> None:
        t, m, s = self.t, self.m, self.s
        text = s.dim if row.withdrawn else s.text
        for column in t.columns:
            key = column.key
            band = self._line_band(y0, column.line)
            if key == "rank":
                self._aligned(draw, column, band, _rank_text(row), m.body, text)
            elif key == "number":
                self._aligned(draw, column, band, str(number), m.small, s.dim)
            elif key == "name":
                self._name(draw, column, row, band, text)
            elif key == "rating":
                rating = "" if row.rating is None else str(row.rating)
                self._aligned(draw, column, band, rating, m.small, s.dim)
            elif key == "games":
                self._arena(draw, column, row, band, text)
            elif key.startswith("cell"):
                index = int(key[4:])
                if t.view.format == "round_robin" and index == number - 1:
                    inset = m.line
                    box = (
                        column.x + inset,
                        band[0] + inset,
                        column.right - 1 - inset,
                        band[1] - 1 - inset,
                    )
                    draw.rectangle(box, fill=s.diagonal)
                    continue
                cell = row.cells[index] if index < len(row.cells) else None
                if cell is not None:
                    self._cell(image, draw, column, cell, band, text)
            elif key == "points":
                self._aligned(draw, column, band, format_points(row.points), m.body, text)
            elif key.startswith("tb"):
                value = t.view.tiebreaks[int(key[2:])].values[number - 1]
                self._aligned(draw, column, band, format_points(value), m.small, text)

    def _name(
        self,
        draw: ImageDraw.ImageDraw,
        column: Column,
        row: PlayerRow,
        band: tuple[float, float],
        colour: RGB,
    ) -> None:
        """The name in the body font, or the smaller one when that makes it fit whole, else
        cut with an ellipsis; a withdrawn player's dagger after it."""
        m = self.m
        mid = (band[0] + band[1]) / 2
        room = column.width - 2 * m.pad
        mark = " " + _DAGGER if row.withdrawn else ""
        mark_width = m.small.getlength(mark) if mark else 0.0
        name = drawn_name(row.name)
        face = m.body
        if m.body.getlength(name) > room - mark_width:
            face = m.small
        shown = fit_text(name, face, room - mark_width)
        x: float = column.x + m.pad
        box = (x, band[0], column.right - m.pad, band[1])
        self._text(draw, (x, mid), shown, face, colour, "lm", box)
        if mark:
            x += face.getlength(shown)
            self._text(draw, (x, mid), mark, m.small, self.s.dim, "lm", box)

    def _cell(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        column: Column,
        cell: Cell,
        band: tuple[float, float],
        colour: RGB,
    ) -> None:
        m, s, t = self.m, self.s, self.t
        mid = (band[0] + band[1]) / 2
        left, right = column.x + m.pad, column.right - m.pad
        room = (left, band[0], right, band[1])
        if cell.kind == "absent":
            self._text(draw, ((left + right) / 2, mid), "·", m.body, s.dim, "mm", room)
            return
        result = _result_text(cell)
        result_colour = s.dim if cell.kind == "pending" else colour
        if t.view.format == "swiss":
            slot, result_width = t.cell_parts
            # The pill and the result sit together in the middle of the column.
            inner = slot + (m.gap if slot and result_width else 0) + result_width
            start = column.x + (column.width - inner) / 2
            if cell.opponent is not None:
                self._opponent_pill(image, draw, cell, round(start), mid, room)
            elif cell.kind == "bye":
                self._text(draw, (start, mid), self.t.view.words.bye, m.small, s.dim, "lm", room)
            self._text(draw, (start + inner, mid), result, m.body, result_colour, "rm", room)
        else:
            if cell.side is not None:
                r = t.dot() / 2
                self._side_dot(draw, cell.side, left + r, mid, r)
            self._text(draw, (right, mid), result, m.body, result_colour, "rm", room)

    def _opponent_pill(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        cell: Cell,
        x: int,
        mid: float,
        room: tuple[float, float, float, float],
    ) -> None:
        """The opponent's row number on a pill of the colour of the side this player had."""
        m, s = self.m, self.s
        width = round(self.t.pill_width())
        height = m.pill_height
        if cell.side == "attackers":
            pill = _pill(width, height, s.attacker, None, m.line)
            ink = s.attacker_text
        elif cell.side == "defenders":
            pill = _pill(width, height, s.defender, s.outline, m.line)
            ink = s.defender_text
        else:
            pill = _pill(width, height, None, s.dim, m.line)
            ink = s.text
        top = round(mid - height / 2)
        image.paste(pill, (x, top), pill)
        box = (x, top, x + width, top + height)
        self._record("(pill)", box, room)
        self._text(draw, (x + width / 2, mid), str(cell.opponent), m.pill, ink, "mm", box)

    def _side_dot(
        self, draw: ImageDraw.ImageDraw, side: SidePlayed, cx: float, cy: float, r: float
    ) -> None:
        s = self.s
        box = (cx - r, cy - r, cx + r, cy + r)
        if side == "attackers":
            draw.ellipse(box, fill=s.attacker)
        else:
            draw.ellipse(box, fill=s.defender, outline=s.outline, width=self.m.line)

    def _arena(
        self,
        draw: ImageDraw.ImageDraw,
        column: Column,
        row: PlayerRow,
        band: tuple[float, float],
        colour: RGB,
    ) -> None:
        """The latest games' scores, the most recent on the right; streak scores stand out."""
        m, s = self.m, self.s
        mid = (band[0] + band[1]) / 2
        room = (column.x + m.pad, band[0], column.right - m.pad, band[1])
        x: float = column.right - m.pad
        cells = [c for c in row.cells if c is not None]
        shown = cells[-ARENA_GAMES:]
        for cell in reversed(shown):
            text = _result_text(cell)
            fill = s.accent if cell.streak else (s.dim if cell.kind != "played" else colour)
            self._text(draw, (x, mid), text, m.small, fill, "rm", room)
            x -= m.small.getlength(text) + m.gap
        if len(cells) > len(shown):
            self._text(draw, (x, mid), ELLIPSIS, m.small, s.dim, "rm", room)

    # The legend under the table.

    def _legend_items(self) -> list[tuple[str, str]]:
        """(marker, text) pairs; the marker names a drawn sample ("attackers", "defenders")
        or is empty."""
        view = self.t.view
        words = view.words
        cells = [c for r in view.rows for c in r.cells if c is not None]
        items: list[tuple[str, str]] = []
        if any(c.side == "attackers" for c in cells):
            items.append(("attackers", words.attackers))
        if any(c.side == "defenders" for c in cells):
            items.append(("defenders", words.defenders))
        if view.games_per_pairing > 1:
            items.append(("", words.matches.format(view.games_per_pairing)))
        if any(c.kind == "forfeit" for c in cells):
            items.append(("", f"+ {MINUS} {words.forfeit}"))
        if any(c.kind == "pending" for c in cells):
            items.append(("", f"{ELLIPSIS} {words.playing}"))
        if view.format == "arena" and any(c.streak for c in cells):
            items.append(("streak", words.streak))
        for tiebreak in view.tiebreaks:
            if tiebreak.title and tiebreak.title != tiebreak.name:
                items.append(("", f"{tiebreak.name} {tiebreak.title}"))
        page = self.t.rows
        for row in page:
            if row.withdrawn:
                note = row.note or words.withdrawn
                line = words.left_note.format(drawn_name(row.name), drawn_name(note))
                items.append(("", f"{_DAGGER} {line}"))
        return items

    def _item_width(self, item: tuple[str, str]) -> float:
        marker, text = item
        face = self.m.small
        extra = self.m.pill_height + self.m.gap if marker in ("attackers", "defenders") else 0
        return extra + face.getlength(text)

    def _legend_lines(self, room: float) -> list[list[tuple[str, str]]]:
        gap = self.m.small.getlength("   ")
        lines: list[list[tuple[str, str]]] = []
        current: list[tuple[str, str]] = []
        used = 0.0
        for item in self._legend_items():
            w = min(self._item_width(item), room)
            if current and used + gap + w > room:
                lines.append(current)
                current, used = [], 0.0
            used += (gap if current else 0) + w
            current.append(item)
        if current:
            lines.append(current)
        return lines

    def _legend_line(
        self, draw: ImageDraw.ImageDraw, mid: float, items: list[tuple[str, str]]
    ) -> None:
        m, s = self.m, self.s
        gap = m.small.getlength("   ")
        x = float(m.margin)
        limit = self.t.width - m.margin
        room = (m.margin, mid - m.size, limit, mid + m.size)
        for marker, text in items:
            if marker in ("attackers", "defenders"):
                side: SidePlayed = "attackers" if marker == "attackers" else "defenders"
                r = m.pill_height * 0.42
                self._side_dot(draw, side, x + m.pill_height / 2, mid, r)
                x += m.pill_height + m.gap
            colour = s.accent if marker == "streak" else s.dim
            shown = fit_text(text, m.small, limit - x)
            self._text(draw, (x, mid), shown, m.small, colour, "lm", room)
            x += m.small.getlength(shown) + gap


# --- the text -----------------------------------------------------------------------------------


def _cells_width(text: str) -> int:
    """Monospace cells ``text`` takes: wide East Asian characters two, combining marks none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _fit_cells(text: str, cells: int) -> str:
    """``text`` cut with an ellipsis to ``cells`` monospace cells, then padded to them."""
    if _cells_width(text) > cells:
        while text and _cells_width(text) + 1 > cells:
            text = text[:-1]
        text = text.rstrip() + ELLIPSIS
    return text + " " * (cells - _cells_width(text))


def _text_cell(view: CrosstableView, cell: Cell | None) -> str:
    if cell is None:
        return ""
    if cell.kind == "absent":
        return "·"
    result = _result_text(cell)
    if view.format == "swiss":
        if cell.kind == "bye":
            return f"{view.words.bye} {result}"
        side = _side_mark(view.words, cell.side) or " "
        opponent = "" if cell.opponent is None else str(cell.opponent)
        return f"{opponent}{side} {result}".rstrip()
    if view.format == "round_robin" and cell.side is not None:
        return f"{_side_mark(view.words, cell.side)}{result}"
    return result


def _side_mark(words: CrosstableWords, side: SidePlayed | None) -> str:
    """The letter of the side a cell's player had, in the caller's words ("" for none)."""
    if side == "attackers":
        return words.attacker_mark
    if side == "defenders":
        return words.defender_mark
    return ""


def _markdown(text: str) -> str:
    """Discord markdown's special characters escaped (a heading, quote or list mark only at
    the start, where it means something)."""
    text = "".join("\\" + ch if ch in "\\*_~`|" else ch for ch in text)
    return "\\" + text if text.startswith(("#", ">", "-")) else text


def crosstable_text(view: CrosstableView, *, limit: int = TEXT_LIMIT) -> str:
    """The page of standings as one Discord message: title and subtitle, a monospace table in a
    code block, and what its marks mean; at most ``limit`` characters (the last rows give way to
    a note saying how many were left out)."""
    start, stop = _page_span(view)
    rows = view.rows[start:stop]
    ties = any(r.rank_to is not None and r.rank_to != r.rank for r in view.rows)
    has_rating = any(r.rating is not None for r in view.rows)
    words = view.words
    columns: list[tuple[str, bool, list[str]]] = []
    columns.append((words.rank, True, [_rank_text(r, "-") for r in rows]))
    if ties:
        columns.append((words.number, True, [str(start + i + 1) for i in range(len(rows))]))
    names = [
        clean_name(r.name).replace("`", "'") + (" " + _DAGGER if r.withdrawn else "") for r in rows
    ]
    name_cells = min(TEXT_NAME_CHARS, max([_cells_width(n) for n in names] + [6]))
    columns.append((words.player, False, [_fit_cells(n, name_cells) for n in names]))
    if has_rating:
        columns.append(
            (words.rating, True, ["" if r.rating is None else str(r.rating) for r in rows])
        )
    if view.format == "arena":
        games = []
        for r in rows:
            cells = [c for c in r.cells if c is not None]
            shown = " ".join(
                _result_text(c) + ("*" if c.streak else "") for c in cells[-ARENA_GAMES:]
            )
            games.append((ELLIPSIS + " " if len(cells) > ARENA_GAMES else "") + shown)
        columns.append((words.games, False, games))
    else:
        count = (
            len(view.rows)
            if view.format == "round_robin"
            else max((len(r.cells) for r in view.rows), default=0)
        )
        for index in range(count):
            header = words.round.format(index + 1) if view.format == "swiss" else str(index + 1)
            values = []
            for i, r in enumerate(rows):
                if view.format == "round_robin" and index == start + i:
                    values.append("x")
                else:
                    values.append(
                        _text_cell(view, r.cells[index] if index < len(r.cells) else None)
                    )
            columns.append((header, view.format != "swiss", values))
    columns.append((view.points_label, True, [format_points(r.points) for r in rows]))
    for tiebreak in view.tiebreaks:
        columns.append(
            (tiebreak.name, True, [format_points(v) for v in tiebreak.values[start:stop]])
        )
    widths = [max([_cells_width(h), *(_cells_width(v) for v in vals)]) for h, _, vals in columns]

    def line(values: Sequence[str]) -> str:
        out = []
        for (_, right, _), width, value in zip(columns, widths, values, strict=True):
            pad = " " * (width - _cells_width(value))
            out.append(pad + value if right else value + pad)
        return "  ".join(out).rstrip()

    head = line([h for h, _, _ in columns])
    body = [line([vals[i] for _, _, vals in columns]) for i in range(len(rows))]
    top = [f"**{_markdown(clean_name(view.title))}**"]
    sub = " · ".join(
        p for p in (clean_name(view.subtitle) if view.subtitle else "", page_note(view)) if p
    )
    if sub:
        top.append(_markdown(sub))
    notes = _text_notes(view, rows)

    def message(count: int, notes: str) -> str:
        parts = [*top, "```", head, *body[:count]]
        if count < len(body):
            parts.append(f"{ELLIPSIS} {len(body) - count} more rows not shown")
        parts.append("```")
        if notes:
            parts.append(notes)
        return "\n".join(parts)

    count = len(body)
    while count > 0 and len(message(count, notes)) > limit:
        count -= 1
    text = message(count, notes)
    if len(text) > limit:  # not even the header fits: the notes give way, then the header
        text = message(0, "")
    if len(text) > limit:
        text = text[: limit - 5] + ELLIPSIS + "\n```"
    return text


def _text_notes(view: CrosstableView, rows: Iterable[PlayerRow]) -> str:
    words = view.words
    cells = [c for r in view.rows for c in r.cells if c is not None]
    notes: list[str] = []
    if view.format == "swiss" and any(c.side for c in cells):
        notes.append(words.played_sides)
    if view.format == "round_robin" and any(c.side for c in cells):
        notes.append(words.pending_sides)
    if view.games_per_pairing > 1:
        notes.append(words.matches.format(view.games_per_pairing))
    if any(c.kind == "forfeit" for c in cells):
        notes.append(f"+ {MINUS} {words.forfeit}")
    if any(c.kind == "pending" for c in cells):
        notes.append(f"{ELLIPSIS} {words.playing}")
    if view.format == "arena" and any(c.streak for c in cells):
        notes.append(f"* {words.streak_short}")
    notes += [f"{t.name} {t.title}" for t in view.tiebreaks if t.title and t.title != t.name]
    notes += [
        f"{_DAGGER} "
        + words.left_note.format(clean_name(r.name), clean_name(r.note or words.withdrawn))
        for r in rows
        if r.withdrawn
    ]
    return _markdown(" · ".join(notes)) if notes else ""


__all__ = [
    "BASE_FONT",
    "MAX_ROWS",
    "Cell",
    "CrosstableView",
    "CrosstableWords",
    "Drawn",
    "PlayerRow",
    "Tiebreak",
    "crosstable_text",
    "draw_crosstable",
    "format_points",
    "page_count",
    "render_crosstable",
]
