"""Playing levels: how long each thinks, how deep, and how much it misjudges.

Weak levels are not random movers: they search shallowly with evaluation noise keyed by the
position and a seed, so their mistakes look like a person's (a misread position, a missed quiet
threat) and a seed makes every game reproducible. ``easy`` and ``medium`` are limited by depth,
not time (their clock is only a safety net), so they play the same on a loaded machine; ``hard``
and ``master`` use their whole time budget.

Measured with ``python -m bot.ai.arena --variant V --a A --b B --games 20 --max-plies 160``
(paired openings; score of A, 95% CI; ``--time-scale`` shrinks only the timed levels). Rows
marked * were measured after each level got its own transposition table (before, ``hard`` and
``master`` shared one in the arena, so the weaker read the stronger's analysis: master-hard
tablut was then 60.0%, +10 =4 -6 at scale 0.25); ** also with unfinished iterations used:

=========  ==============  ============================  ===========================
variant    pairing         games, +W =D -L               score [95% CI]
=========  ==============  ============================  ===========================
tablut     medium-easy     20, +18 =2 -0                 95.0% [88.4, 100]
tablut     hard-medium     20, +18 =1 -1 (scale 0.5) *   92.5% [82.0, 100]
tablut     master-hard     20, +16 =0 -4 (scale 0.25) *  80.0% [62.5, 97.5]
tablut     master-hard     20, +16 =0 -4 (scale 0.5) **  80.0% [62.5, 97.5]
brandubh   medium-easy     40, +19 =12 -9 (seeds 1, 2)   62.5% [50.1, 74.9]
brandubh   hard-medium     40, +20 =15 -5 (scale 0.5)    68.8% [58.0, 79.5]
brandubh   hard-medium     40, +22 =7 -11 (scale 0.5) ** 63.7% [50.3, 77.2]
brandubh   master-hard     20, +10 =0 -10 (scale 0.25)   50.0% [28.1, 71.9]
brandubh   master-hard     20, +10 =1 -9 (scale 0.5) **  52.5% [31.2, 73.8]
=========  ==============  ============================  ===========================

At scale 0.5 on a two-core test machine ``master`` (2 s) often could not finish the iteration
that ``hard`` (0.75 s) never starts; before unfinished iterations were used it stood at
+2 =2 -3 after 7 games of that match.

In ``brandubh`` (king taken only when surrounded on four sides) the defenders won every game
between the two timed levels: a stronger level gains only where the weaker one defends badly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Level:
    """One playing strength."""

    name: str
    description: str
    """A short lower-case phrase for menus, e.g. "strong; searches 1.5 seconds a move"."""
    time_limit: float
    """Seconds per move the search may use."""
    max_depth: int
    """Deepest iteration (plies before quiescence)."""
    noise: int
    """Evaluation noise amplitude in hundredths of an attacker (0: none)."""
    quiescence: bool = True
    """Whether quiet escape threats (king moves that open routes) are followed at the horizon."""
    reads_threats: bool = True
    """Whether route threats are read beyond the depth (forks, free blocks, king captures);
    without it only routes already open on the board are seen."""

    def with_time(self, seconds: float) -> Level:
        """The same level with another time budget."""
        return replace(self, time_limit=seconds)


LEVEL_SETTINGS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "beginner; looks one move ahead, misses forks, misjudges quiet positions",
            time_limit=0.3,
            max_depth=1,
            noise=200,
            quiescence=False,
            reads_threats=False,
        ),
        Level(
            "medium",
            "club player; reads two moves ahead and every direct king threat",
            time_limit=5.0,
            max_depth=2,
            noise=60,
        ),
        Level(
            "hard",
            "strong; searches 1.5 seconds a move",
            time_limit=1.5,
            max_depth=64,
            noise=0,
        ),
        Level(
            "master",
            "strongest; searches 4 seconds a move",
            time_limit=4.0,
            max_depth=64,
            noise=0,
        ),
    )
}
"""Every level by name, weakest first."""

LEVELS: tuple[str, ...] = tuple(LEVEL_SETTINGS)
"""Level names, weakest first: ``("easy", "medium", "hard", "master")``."""

DEFAULT_LEVEL = "medium"


def get_level(name: str) -> Level:
    """Look a level up by name (case-insensitive); the error lists the levels."""
    key = name.strip().lower()
    try:
        return LEVEL_SETTINGS[key]
    except KeyError:
        raise ValueError(
            f"{name!r} is not an AI level: choose one of {', '.join(LEVELS)}"
        ) from None


def describe_levels() -> dict[str, str]:
    """Short descriptions by level name, for the ``/tafl play`` choices."""
    return {name: level.description for name, level in LEVEL_SETTINGS.items()}
