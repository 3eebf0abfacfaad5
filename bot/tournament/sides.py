"""Side preferences and allocation, by the colour rules of FIDE's Dutch system (C.04.3, articles
on colour preference and allocation), with attackers in the place of white."""

from __future__ import annotations

from dataclasses import dataclass

from .model import PlayerRecord

ATTACKERS, DEFENDERS = "A", "D"


@dataclass(frozen=True)
class Preference:
    """The side a player is due and how strongly: 3 absolute, 2 strong, 1 mild, 0 none."""

    side: str
    strength: int

    @property
    def absolute(self) -> bool:
        """Whether the player must get ``side`` (two games more on one side, or the same side
        in the last two games played)."""
        return self.strength == 3


NO_PREFERENCE = Preference("", 0)


def preference(sides: str) -> Preference:
    """A player's preference from their side history (``-`` rounds are skipped)."""
    played = sides.replace("-", "")
    if not played:
        return NO_PREFERENCE
    difference = played.count(ATTACKERS) - played.count(DEFENDERS)
    other = DEFENDERS if played[-1] == ATTACKERS else ATTACKERS
    if abs(difference) > 1 or (len(played) > 1 and played[-1] == played[-2]):
        due = other if abs(difference) <= 1 else (DEFENDERS if difference > 0 else ATTACKERS)
        return Preference(due, 3)
    if difference:
        return Preference(DEFENDERS if difference > 0 else ATTACKERS, 2)
    return Preference(other, 1)


def conflict(a: Preference, b: Preference) -> int:
    """How badly pairing the two hurts a side preference: 0 not at all, else the weaker of two
    preferences for the same side (3: both absolute, which the pairing never allows)."""
    if not a.side or not b.side or a.side != b.side:
        return 0
    return min(a.strength, b.strength)


def allocate(
    higher: PlayerRecord, lower: PlayerRecord, higher_seed: int
) -> tuple[PlayerRecord, PlayerRecord]:
    """``(attacker, defender)`` for two paired players, ``higher`` the higher ranked (more
    points, then better seed; ``higher_seed`` counts from 1). In order: grant both
    preferences; the stronger one; alternate from the last time they had different sides
    (their played games compared from the last one back, unplayed rounds left out); the
    higher-ranked player's preference; else the higher-ranked player takes the attackers with
    an odd seed number and the defenders with an even one (the initial colour is attackers)."""
    ph, pl = preference(higher.sides), preference(lower.sides)

    def higher_takes(side: str) -> tuple[PlayerRecord, PlayerRecord]:
        return (higher, lower) if side == ATTACKERS else (lower, higher)

    if ph.side and pl.side and ph.side != pl.side:
        return higher_takes(ph.side)
    if ph.strength != pl.strength:
        if ph.strength > pl.strength:
            return higher_takes(ph.side)
        return higher_takes(DEFENDERS if pl.side == ATTACKERS else ATTACKERS)
    if ph.side:
        # unplayed rounds are left out: the played sides are compared from each player's
        # last game back (FIDE C.04.2 on unplayed games)
        played_h, played_l = higher.sides.replace("-", ""), lower.sides.replace("-", "")
        for x, y in zip(reversed(played_h), reversed(played_l), strict=False):
            if x != y:
                return higher_takes(DEFENDERS if x == ATTACKERS else ATTACKERS)
        return higher_takes(ph.side)
    return higher_takes(ATTACKERS if higher_seed % 2 == 1 else DEFENDERS)
