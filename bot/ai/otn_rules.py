"""Read OpenTafl rules records and map them onto the variants this engine plays.

A record is accepted when its board, start position, escape type and camps (attacker forts)
match one of our variants and it asks for no mechanism we do not implement (berserk, jumps,
forts for defenders). Shieldwalls (``sw``), edge-fort escapes (``efe``) and a threefold
repetition that decides a winner (``tfr:w``/``tfr:l``) are Copenhagen's: a record asking for
one is matched only to a variant that plays it, and refused on the other boards. Smaller
differences in the throne, corner, king strength, repetition and move order details are
reported back as warnings rather than refused: OpenTafl's own records for Brandubh and Tablut
differ from our seeds in exactly such details, the moves stay legal under both, and the host
sends the true position after every move, so the engine plays on with our variant's judgement.
OpenTafl's own Copenhagen record (``dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:...``)
maps onto ``copenhagen`` with no warning, its repetition read as OpenTafl reads ``tfr:w`` (the
side whose move makes the third occurrence loses: :func:`~bot.engine.variants.
with_opentafl_repetition`), since an OpenTafl host referees by its record; a host that referees
by this project's rules instead (the third occurrence is the attackers' win whoever makes it)
asks for :attr:`RepetitionReading.PROJECT`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.engine.errors import TaflError
from bot.engine.otn import format_position, parse_position
from bot.engine.rules import SurroundedRules
from bot.engine.types import Side, parse_square
from bot.engine.variants import VARIANTS, Variant, with_opentafl_repetition


class RulesError(ValueError):
    """A rules record we cannot read or cannot play; the message says why."""


class RepetitionReading(StrEnum):
    """How the engine reads a record's threefold repetition that decides a winner (``tfr:w``,
    Copenhagen's), which OpenTafl and this project's rules score differently when the
    attackers make the third occurrence. The host referees the game: read it as the host does.
    """

    OPENTAFL = "opentafl"
    """As OpenTafl reads ``tfr:w``, for its hosts (they referee by their record): the side whose
    move makes the third occurrence loses (:func:`~bot.engine.variants.with_opentafl_repetition`).
    """
    PROJECT = "project"
    """As this project's rules read it, for a host refereeing by them (``python -m
    bot.ai.lab.match`` without ``--opentafl-repetition``): the third occurrence is the
    attackers' win whoever makes it (the variant itself)."""


_KNOWN_KEYS = {
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "cor", "cen",
    "afor", "dfor", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp",
    "dforp", "cors", "cens", "afors", "dfors", "sw", "swf", "efe", "ber", "linc", "start",
}  # fmt: skip

# OpenTafl's defaults for the keys that decide which of our variants a record describes.
_DEFAULTS = {
    "esc": "c", "atkf": "y", "ka": "y", "ks": "y", "surf": "y", "tfr": "d",
    "sw": "n", "swf": "y", "efe": "n",
}  # fmt: skip
# Mechanisms some of our variants play and others do not, with the values that mean "none":
# a record asking for one is matched only to a variant that plays it.
_MECHANISMS = {
    "sw": (("n",), "shieldwall captures"),
    "efe": (("n",), "edge-fort escapes"),
    "tfr": (("d", "i"), "a threefold repetition that decides a winner"),
}
# Piece letters we play; OpenTafl also names knights and commanders (n, c, N, C).
_LETTERS = set("tTK")
# Keys whose differences we tolerate (with a warning), compared as sets of piece letters.
_SOFT_PIECE_KEYS = ("cenh", "cenhe", "cenp", "cens")


@dataclass(frozen=True)
class RulesMatch:
    """A rules record read and matched: the variant to play, the start and any warnings."""

    variant: Variant
    start_position: str
    first: Side
    warnings: tuple[str, ...]


def parse_rules(record: str) -> dict[str, str]:
    """Split an OTN rules record into its entries (``dim`` first, ``start`` last)."""
    entries: dict[str, str] = {}
    tokens = record.split()
    if not tokens:
        raise RulesError("empty rules record")
    for token in tokens:
        key, sep, value = token.partition(":")
        if not sep:
            raise RulesError(f"rules entry {token!r} is not key:value")
        key = key.lower()
        if key not in _KNOWN_KEYS:
            raise RulesError(f"unknown rules key {key!r} in {token!r}")
        entries[key] = value
    if not tokens[0].lower().startswith("dim:"):
        raise RulesError("a rules record must start with dim:")
    if not tokens[-1].lower().startswith("start:"):
        raise RulesError("a rules record must end with start:<position>")
    return entries


def _features(entries: dict[str, str]) -> dict[str, str]:
    """The entries that tell our variants apart, defaults filled in and values normalised."""
    features = dict(_DEFAULTS)
    features.update({k: v.lower() for k, v in entries.items() if k in _DEFAULTS})
    for key in _SOFT_PIECE_KEYS:
        if key in entries:
            features[key] = "".join(sorted(set(entries[key]) & _LETTERS))
    strength = features["ks"]
    # "y" and "n" are OpenTafl's old spellings of strong and weak; "m" (middleweight: the
    # edge counts against the king) stays apart from "s" (never captured on the edge).
    features["ks"] = {"y": "s", "n": "w"}.get(strength, strength)
    if features["sw"] == "n":
        del features["swf"]  # how a shieldwall is closed matters only with shieldwalls
    if "linc" in entries:
        features["linc"] = entries["linc"].lower()
    return features


def _variant_features(variant: Variant) -> dict[str, str]:
    return _features(parse_rules(variant.otn_rules()))


def _plays(variant: Variant, key: str) -> bool:
    """Whether ``variant`` plays the mechanism of :data:`_MECHANISMS` ``key``."""
    none, _ = _MECHANISMS[key]
    return _variant_features(variant)[key] not in none


def _comparable_strength(variant: Variant, strength: str) -> str:
    """A record's king strength as comparable with ``variant``'s own record.

    Our surrounded king (the edge counts against him) is OpenTafl's middleweight king, though
    our records have always written ``ks:s`` for him, so for those variants ``m`` reads as
    ``s``. The Copenhagen king is OpenTafl's strong king: ``ks:m`` there is a difference.
    """
    if issubclass(variant.rules, SurroundedRules) and strength == "m":
        return "s"
    return strength


def _squares(text: str, size: int) -> frozenset[int]:
    try:
        return frozenset(parse_square(name, size) for name in text.split(",") if name)
    except TaflError as error:
        raise RulesError(f"bad square list {text!r}: {error}") from None


def match_rules(
    record: str, repetition: RepetitionReading = RepetitionReading.OPENTAFL
) -> RulesMatch:
    """Find the variant a rules record describes, or raise :class:`RulesError` saying why.

    ``repetition`` says how a ``tfr:w`` the variant plays is read (see
    :class:`RepetitionReading`).
    """
    entries = parse_rules(record)
    try:
        size = int(entries["dim"])
    except ValueError:
        raise RulesError(f"dim:{entries['dim']} is not a board size") from None
    try:
        cells = parse_position(entries["start"], size)
    except TaflError as error:
        raise RulesError(f"start position: {error}") from None
    unsupported = {
        "ber": ("n", "berserk moves"),
        "kj": ("n", "king jumps"),
    }
    for key, (allowed, what) in unsupported.items():
        if entries.get(key, allowed).lower() != allowed:
            raise RulesError(
                f"{key}:{entries[key]} asks for {what}, which this engine does not play"
            )
    if entries.get("dfor"):
        raise RulesError("defender forts (dfor) are not played by this engine")
    features = _features(entries)
    if features["ka"] not in ("y", "n"):
        raise RulesError(f"ka:{features['ka']} (a half-armed king) is not played")
    escape = features["esc"]
    camps = _squares(entries.get("afor", ""), size)
    corners = _squares(entries["cor"], size) if "cor" in entries else None
    candidates = [
        v
        for v in VARIANTS.values()
        if v.size == size
        and ("c" if v.corners else "e") == escape
        and v.camps == camps
        and (corners is None or escape == "e" or v.corners == corners)
    ]
    if not candidates:
        raise RulesError(
            f"no variant here plays a {size}x{size} board with "
            f"{'corner' if escape == 'c' else 'edge'} escape"
            + (" and these attacker forts" if camps else "")
            + f"; we play: {', '.join(VARIANTS)}"
        )
    for key, (none, what) in _MECHANISMS.items():
        if features[key] in none:
            continue
        playing = [v for v in candidates if _plays(v, key)]
        if not playing:
            elsewhere = ", ".join(v.name for v in VARIANTS.values() if _plays(v, key))
            raise RulesError(
                f"{key}:{entries[key]} asks for {what}, which this engine does not play on a "
                f"{size}x{size} board" + (f" (only in {elsewhere})" if elsewhere else "")
            )
        candidates = playing

    def differences(variant: Variant) -> list[str]:
        ours = _variant_features(variant)
        theirs = dict(features, ks=_comparable_strength(variant, features["ks"]))
        return [
            f"{key}:{theirs[key]} (we play {key}:{ours[key]})"
            for key in sorted(theirs)
            if key in ours and theirs[key] != ours[key]
        ]

    def rank(variant: Variant) -> tuple[bool, int]:
        # The same start layout first, then the fewest differing rules.
        return parse_position(variant.start, size) != cells, len(differences(variant))

    best = min(candidates, key=rank)
    first = Side.ATTACKERS if features["atkf"] == "y" else Side.DEFENDERS
    warnings = tuple(differences(best))
    if (
        repetition is RepetitionReading.OPENTAFL
        and features["tfr"] == "w"
        and best.rules.repetition_winner is not None
    ):
        best = with_opentafl_repetition(best)
    return RulesMatch(best, format_position(cells, size), first, warnings)
