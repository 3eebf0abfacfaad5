"""Playing levels: how long each thinks, how deep, and how much it misjudges.

Weak levels are not random movers: they search shallowly with evaluation noise keyed by the
position and a seed, so their mistakes look like a person's (a misread position, a missed quiet
threat) and a seed makes every game reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Level:
    """One playing strength."""

    name: str
    description: str
    time_limit: float
    """Seconds per move the search may use."""
    max_depth: int
    """Deepest iteration (plies before quiescence)."""
    noise: int
    """Evaluation noise amplitude in hundredths of an attacker (0: none)."""
    quiescence: bool = True
    """Whether quiet escape threats (king moves that open routes) are followed at the horizon."""

    def with_time(self, seconds: float) -> Level:
        """The same level with another time budget."""
        return replace(self, time_limit=seconds)


LEVEL_SETTINGS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "Beginner: looks one move ahead and often misjudges quiet positions.",
            time_limit=0.3,
            max_depth=1,
            noise=200,
            quiescence=False,
        ),
        Level(
            "medium",
            "Club player: reads three moves ahead and sees every direct king threat.",
            time_limit=0.6,
            max_depth=3,
            noise=30,
        ),
        Level(
            "hard",
            "Strong: full search for about 1.5 seconds a move.",
            time_limit=1.5,
            max_depth=64,
            noise=0,
        ),
        Level(
            "master",
            "Strongest: full search for about 4 seconds a move.",
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
