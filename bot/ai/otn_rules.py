"""Read OpenTafl rules records and map them onto the variants this engine plays.

A record is accepted when its board, start position, escape type and camps (attacker forts)
match one of our variants and it asks for no mechanism we do not implement (shieldwalls,
edge forts, berserk, jumps, forts for defenders, repetition wins). Smaller differences in the
throne, corner, king strength and move order details are reported back as warnings rather
than refused: OpenTafl's own records for Brandubh and Tablut differ from our seeds in exactly
such details, the moves stay legal under both, and the host sends the true position after
every move, so the engine plays on with our variant's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.errors import TaflError
from bot.engine.otn import format_position, parse_position
from bot.engine.types import Side, parse_square
from bot.engine.variants import VARIANTS, Variant


class RulesError(ValueError):
    """A rules record we cannot read or cannot play; the message says why."""


_KNOWN_KEYS = {
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "cor", "cen",
    "afor", "dfor", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp",
    "dforp", "cors", "cens", "afors", "dfors", "sw", "swf", "efe", "ber", "linc", "start",
}  # fmt: skip

# OpenTafl's defaults for the keys that decide which of our variants a record describes.
_DEFAULTS = {"esc": "c", "atkf": "y", "ka": "y", "ks": "y", "surf": "y", "tfr": "d"}
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
    features = dict(_DEFAULTS)
    features.update({k: v.lower() for k, v in entries.items() if k in _DEFAULTS})
    for key in _SOFT_PIECE_KEYS:
        if key in entries:
            features[key] = "".join(sorted(set(entries[key]) & _LETTERS))
    strength = features["ks"]
    features["ks"] = {"y": "s", "s": "s", "m": "s", "c": "c", "n": "w", "w": "w"}.get(
        strength, strength
    )
    if "linc" in entries:
        features["linc"] = entries["linc"].lower()
    return features


def _variant_features(variant: Variant) -> dict[str, str]:
    return _features(parse_rules(variant.otn_rules()))


def _squares(text: str, size: int) -> frozenset[int]:
    try:
        return frozenset(parse_square(name, size) for name in text.split(",") if name)
    except TaflError as error:
        raise RulesError(f"bad square list {text!r}: {error}") from None


def match_rules(record: str) -> RulesMatch:
    """Find the variant a rules record describes, or raise :class:`RulesError` saying why."""
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
        "sw": ("n", "shieldwall captures"),
        "efe": ("n", "edge-fort escapes"),
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
    if features["tfr"] not in ("d", "i"):
        raise RulesError(
            f"tfr:{features['tfr']} (repetition wins or loses) is not played: we draw on "
            "threefold repetition"
        )
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

    def differences(variant: Variant) -> list[str]:
        ours = _variant_features(variant)
        return [
            f"{key}:{features[key]} (we play {key}:{ours[key]})"
            for key in sorted(features)
            if key in ours and features[key] != ours[key]
        ]

    def rank(variant: Variant) -> tuple[bool, int]:
        # The same start layout first, then the fewest differing rules.
        return parse_position(variant.start, size) != cells, len(differences(variant))

    best = min(candidates, key=rank)
    first = Side.ATTACKERS if features["atkf"] == "y" else Side.DEFENDERS
    return RulesMatch(best, format_position(cells, size), first, tuple(differences(best)))
