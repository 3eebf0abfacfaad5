"""The registry of variants: each ruleset is one frozen description, looked up by name.

Move generation, captures and end-of-game checks read these descriptions; nothing else in the
engine knows a variant by its name. ``docs/RULES.md`` is the authority on every field.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import UnknownVariantError
from .rules import CentreStrongRules, CopenhagenRules, GroupRules, Rules, SurroundedRules
from .types import Escape, Side, Square, parse_square, square_name


@dataclass(frozen=True)
class Variant:
    """One ruleset, complete enough for the engine to play it.

    Squares are indices (``rank * size + file``); ``a1`` is 0.
    """

    name: str
    title: str
    size: int
    start: str
    first: Side
    escape: Escape
    king_armed: bool
    rules: type[Rules]
    """The family of rules it plays: how the king is captured, what else a move captures, how
    a move ends the game (see :mod:`bot.engine.rules`)."""
    summary: str
    source: str
    """Where the rules come from, as a player would look them up (a book or a site); the
    project's own label for each ruleset is a comment beside it."""
    tuichi_wins: bool = False
    throne_passable: bool = False
    """Ordinary pieces may pass over the empty throne (never stop on it)."""
    king_may_enter_throne: bool = True
    """The king may stop on or pass through the throne once he has left it."""
    empty_throne_hostile_to: frozenset[Side] = frozenset()
    occupied_throne_hostile_to_defenders: bool = False
    linnaean_capture: bool = False
    """Linnaeus law 10: a defender beside the throned king, whose other three neighbours are
    attackers, is captured against the throne."""
    camp_groups: tuple[frozenset[Square], ...] = ()
    camps_hostile_to_attackers: frozenset[Square] = frozenset()
    rematch_winner_defends: bool = False
    """Linnaeus law 12: in the next game the winner takes the defenders (else sides swap)."""
    aliases: tuple[str, ...] = field(default=())
    repetition_limit: int = 3
    """The occurrence of a position (the same side to move) that ends the game. A rules
    option: 2 is the Tablut Challenge's rule (see :func:`with_first_repetition`)."""
    repetition_mover_loses: bool = False
    """A rules option: the side whose move makes the ending occurrence loses it, as OpenTafl
    reads ``tfr:w`` (see :func:`with_opentafl_repetition`)."""

    @property
    def throne(self) -> Square:
        """The centre square."""
        middle = self.size // 2
        return middle * self.size + middle

    @property
    def corners(self) -> frozenset[Square]:
        """Corner squares (only in corner-escape variants)."""
        if self.escape is not Escape.CORNER:
            return frozenset()
        last = self.size - 1
        return frozenset({0, last, last * self.size, last * self.size + last})

    @property
    def camps(self) -> frozenset[Square]:
        """Every camp square (``tablut-ashton`` only)."""
        return frozenset().union(*self.camp_groups)

    @property
    def escape_squares(self) -> frozenset[Square]:
        """Squares where the king wins by arriving."""
        if self.escape is Escape.CORNER:
            return self.corners
        n = self.size
        edge = {sq for sq in range(n * n) if sq // n in (0, n - 1) or sq % n in (0, n - 1)}
        return frozenset(edge - self.camps)

    def otn_rules(self) -> str:
        """This ruleset as an OpenTafl rules record (``dim:`` first, ``start:`` last).

        The Copenhagen family writes the keys of OpenTafl's own Copenhagen record
        (``RulesSerializer`` on ``Copenhagen.newCopenhagen11()``: ``tfr:w sw:s efe:y`` and its
        defaults ``surf:y ks:s swf:y``), so that OpenTafl plays it as its Copenhagen:

        - ``ks:s``: strong king, captured only when all four neighbours are hostile; on the
          edge he has three, so he is never captured there (``ks:m`` would let the edge count).
        - ``surf:y``: a side entirely surrounded loses (encirclement).
        - ``tfr:w``: OpenTafl gives a threefold repetition to the side to move in the repeated
          position, so the side whose move repeats it loses. docs/RULES.md gives it to the attackers
          whoever repeats; the two agree when the defenders repeat, which is what the rule is
          for, and OTN has no value closer to it.
        - ``sw:s``: shieldwall captures, and a corner may stand in for a bracket.
        - ``swf:y``: the capturing move must be a bracket's (docs/RULES.md also lets a front piece
          close the wall; OpenTafl's ``swf:n`` would let any move capture a closed wall).
        - ``efe:y``: the king wins by an edge fort (docs/RULES.md's exit fort).

        Read back by OpenTafl's ``RulesSerializer.loadRulesRecord``, the record has the settings
        of its built-in Copenhagen; only the throne lists name fewer piece kinds (we have no
        knights or commanders), and ``cenh:`` is moot under an armed king on the throne.
        """
        yn = {True: "y", False: "n"}
        copenhagen = self.rules.forts_and_walls

        def squares(group: frozenset[Square]) -> str:
            return ",".join(square_name(sq, self.size) for sq in sorted(group))

        hostile_empty = "".join(
            letters
            for side, letters in ((Side.ATTACKERS, "t"), (Side.DEFENDERS, "TK"))
            if side in self.empty_throne_hostile_to
        )
        strength = self.rules.king_strength
        throne_passers = ("tT" if self.throne_passable else "") + (
            "K" if self.king_may_enter_throne else ""
        )
        parts = [
            f"dim:{self.size}",
            f"name:{self.title.replace(' ', '_')}",
            f"esc:{'c' if self.escape is Escape.CORNER else 'e'}",
            f"atkf:{yn[self.first is Side.ATTACKERS]}",
            f"tfr:{'w' if self.rules.repetition_winner is not None else 'd'}",
            f"ka:{yn[self.king_armed]}",
            f"ks:{strength}",
            f"surf:{yn[self.rules.surrounded_side_loses]}",
            f"linc:{yn[self.linnaean_capture]}",
            f"cor:{squares(self.corners)}",
            f"cenhe:{hostile_empty}",
            f"cenh:{'TK' if self.occupied_throne_hostile_to_defenders else ''}",
            f"cenp:{throne_passers}",
            f"cens:{'K' if self.king_may_enter_throne else ''}",
            f"afor:{squares(self.camps)}",
        ]
        if copenhagen:
            parts += ["sw:s", "swf:y", "efe:y"]
        parts.append(f"start:{self.start}")
        return " ".join(parts)


def _squares(names: str, size: int) -> frozenset[Square]:
    return frozenset(parse_square(name, size) for name in names.split())


_NINE = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
_BOTH = frozenset({Side.ATTACKERS, Side.DEFENDERS})

_ASHTON_CAMPS = tuple(
    _squares(group, 9) for group in ("a4 a5 a6 b5", "d1 e1 f1 e2", "i4 i5 i6 h5", "d9 e9 f9 e8")
)

_REGISTRY: tuple[Variant, ...] = (
    Variant(
        name="tablut",
        title="Tablut",
        size=9,
        start=_NINE,
        first=Side.ATTACKERS,
        escape=Escape.EDGE,
        king_armed=True,
        rules=CentreStrongRules,
        empty_throne_hostile_to=_BOTH,
        linnaean_capture=True,
        rematch_winner_defends=True,
        summary=(
            "Linnaeus's Tablut of 1732 as reconstructed by Ashton, Cartier, Salmi and Walker. "
            "16 attackers (Muscovites) move first against 8 defenders (Swedes) and their king. "
            "Every piece moves like a chess rook. Trap an enemy between two of yours to capture "
            "it; the empty throne (e5) is hostile to everyone. The defenders win when the king "
            "reaches any edge square. The attackers win by surrounding the king on four sides "
            "on the throne, on three sides beside it, or by trapping him between two attackers "
            "elsewhere. Only the king may stop on or cross the throne."
        ),
        # Aisling-1198's rule sheet (docs/RULES.md, `tablut`)
        source=(
            "Linnaeus, Lachesis Lapponica (1732), as reconstructed by Ashton (2010), Cartier, "
            "Salmi and Walker"
        ),
        aliases=("linnaeus",),
    ),
    Variant(
        name="tablut-ashton",
        title="Tablut (Ashton camps)",
        size=9,
        start=_NINE,
        first=Side.DEFENDERS,
        escape=Escape.EDGE,
        king_armed=True,
        rules=CentreStrongRules,
        king_may_enter_throne=False,
        empty_throne_hostile_to=_BOTH,
        occupied_throne_hostile_to_defenders=True,
        camp_groups=_ASHTON_CAMPS,
        camps_hostile_to_attackers=_squares("a4 a6 b5 d1 f1 e2 i4 i6 h5 d9 f9 e8", 9),
        summary=(
            "Linnaeus's laws as translated by Ashton (2007), played with the 16 attackers' "
            "camps (citadels) of the Tablut Challenge. The defenders move first. Nobody may "
            "enter the throne, not even the king returning. Attackers may move inside their "
            "own camp or leave it but never re-enter; defenders never enter camps. Camps and "
            "the throne count as a capturing piece. The king escapes at any edge square."
        ),
        # Linnaeus's laws as Ashton translates them (docs/RULES.md, `tablut-ashton`)
        source=(
            "Linnaeus's laws as translated by John Ashton (2007), with the Tablut Challenge's camps"
        ),
        aliases=("ashton",),
    ),
    Variant(
        name="tablut-corner",
        title="Tablut (corner escape)",
        size=9,
        start=_NINE,
        first=Side.DEFENDERS,
        escape=Escape.CORNER,
        king_armed=True,
        rules=SurroundedRules,
        throne_passable=True,
        summary=(
            "Tablut as Ludoteka plays it. The defenders move first and the king escapes to a "
            "corner. Corners are hostile to every piece; other pieces may cross the empty "
            "throne but only the king may stop on it. The king must be surrounded on all four "
            "sides by attackers, the board edge, the throne or a corner."
        ),
        # Ludoteka's Tablut (docs/RULES.md, `tablut-corner`)
        source="Ludoteka (ludoteka.com)",
        aliases=("ludoteka",),
    ),
    Variant(
        name="tablut-unarmed",
        title="Tablut (unarmed king)",
        size=9,
        start=_NINE,
        first=Side.ATTACKERS,
        escape=Escape.CORNER,
        king_armed=False,
        rules=GroupRules,
        throne_passable=True,
        summary=(
            "Tablut after Board Game Arena. Attackers move first; the king escapes to a corner "
            "but never helps capture. Surround the king on four sides (edge, throne and "
            "corners help), or surround the king together with every defender connected to "
            "him so that the group has no free square."
        ),
        # regledujeu.fr's Tablut (Gwezboell) (docs/RULES.md, `tablut-unarmed`)
        source="Board Game Arena's Tablut, as described by regledujeu.fr",
        aliases=("bga",),
    ),
    Variant(
        name="brandubh",
        title="Brandubh",
        size=7,
        start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        first=Side.ATTACKERS,
        escape=Escape.CORNER,
        king_armed=True,
        rules=GroupRules,
        throne_passable=True,
        empty_throne_hostile_to=_BOTH,
        summary=(
            "The Irish 7x7 game. 8 attackers move first against 4 defenders and the king, who "
            "escapes to a corner. Corners and the empty throne are hostile to every piece. "
            "The king must be surrounded on four sides (edge, throne and corners count), or "
            "his whole group must be shut in. The defenders win most games between equals."
        ),
        # the leaflet Jeux de Tafl's Brandubh (docs/RULES.md, `brandubh`)
        source="Jeux de Tafl (its first 7x7 version)",
        aliases=("brandub",),
    ),
    Variant(
        name="fidchell",
        title="Fidchell",
        size=7,
        start="/2ttt2/3t3/t1TTT1t/ttTKTtt/t1TTT1t/3t3/2ttt2/",
        first=Side.ATTACKERS,
        escape=Escape.EDGE,
        king_armed=True,
        rules=CentreStrongRules,
        king_may_enter_throne=False,
        tuichi_wins=True,
        empty_throne_hostile_to=_BOTH,
        summary=(
            "A 7x7 edge-escape game (Ard Ri layout). 16 attackers move first against 8 "
            "defenders and the king, who wins at any edge square, and also wins at once with "
            "Tuichi: a move that opens two escape routes. Once the king leaves the throne, "
            "nobody may enter or cross it, and the empty throne is hostile to all."
        ),
        # the leaflet's other version (docs/RULES.md, `fidchell`)
        source="Jeux de Tafl (its other 7x7 version)",
    ),
    Variant(
        name="copenhagen",
        title="Copenhagen Hnefatafl",
        size=11,
        start="/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        first=Side.ATTACKERS,
        escape=Escape.CORNER,
        king_armed=True,
        rules=CopenhagenRules,
        throne_passable=True,
        empty_throne_hostile_to=_BOTH,
        summary=(
            "The 11x11 tafl most played today. 24 attackers move first against 12 defenders "
            "and their king, who wins by reaching a corner or by building an exit fort on the "
            "edge that the attackers cannot break. The king fights like any defender; he is "
            "captured only with attackers on all four sides (three beside the throne), never "
            "on the edge. Pieces lined up along the edge fall together to a shieldwall "
            "capture. The attackers also win by encircling the king and every defender, and "
            "the defenders may not repeat a position a third time."
        ),
        # the Rules of Copenhagen Hnefatafl 11x11 (docs/RULES.md, `copenhagen`)
        source="Copenhagen Hnefatafl 11x11 rules (aagenielsen.dk; World Tafl Federation)",
        aliases=("hnefatafl",),
    ),
)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in _REGISTRY}
"""Every playable variant by name, in display order (``tablut``, the default, first)."""

DEFAULT_VARIANT = "tablut"

_ALIASES: dict[str, str] = {
    alias: variant.name for variant in _REGISTRY for alias in variant.aliases
}


def with_first_repetition(variant: Variant) -> Variant:
    """``variant`` under the Tablut Challenge's rule of repetition: the first return to a
    position since the last capture is a draw (its server calls it so), where Linnaeus and every
    variant here wait for the third occurrence. A capture leaves fewer pieces, so no position
    before it can return: "since the last capture" needs no memory of its own.

    A rules option for matches refereed as the challenge's server referees them (``python -m
    bot.ai.lab.match --first-repetition``), never offered to players.
    """
    return replace(variant, repetition_limit=2)


def with_opentafl_repetition(variant: Variant) -> Variant:
    """``variant`` with its repetition read as OpenTafl reads ``tfr:w``, the value its
    Copenhagen records carry: the side whose move makes the third occurrence loses (OpenTafl's
    ``GameState`` gives the game to the side to move in the repeated position). Our Copenhagen
    gives it to the attackers whoever repeats; the two agree when the defenders repeat.

    A rules option for an engine given such a record (``python -m bot.ai otep``) and for
    matches refereed as OpenTafl would (``python -m bot.ai.lab.match --opentafl-repetition``);
    players never meet it.
    """
    return replace(variant, repetition_mover_loses=True)


def get_variant(name: str) -> Variant:
    """Look a variant up by name or alias (case-insensitive)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"{name!r} is not a variant this engine plays: {known}") from None
