"""Playing levels: how deep each reads, how long it thinks, and how much it misjudges.

Weak levels are not random movers: they search shallowly with evaluation noise keyed by the
position and a seed, so their mistakes look like a person's (a misread position, a missed quiet
threat) and a seed makes every game reproducible. ``easy`` also reads the king's routes only as
far as its one ply goes, so it misses forks a beginner misses. ``easy``, ``medium`` and ``hard``
are limited by depth, not time (their clock is only a safety net), so they play the same on a
loaded machine; ``master`` searches for its whole time budget.

This module keeps the latest figure of each measurement; ``docs/AI-MEASUREMENTS.md`` keeps
them all, oldest first, with every change tried and not kept.

The ladder (:data:`LADDER`, from which the levels' ratings come), measured with ``python -m
bot.ai.lab.arena --variant V --a A --b B --games N --seed S --max-plies P --jobs 2`` (games in
pairs sharing a random two-ply opening with the sides swapped; ``master`` with
``--time-scale 0.25``, 1 s a move, where the others play by depth; the rows of 20 games were
played with ``--jobs 1``, which changes nothing for the levels that play by depth). The score
of A with its 95% interval, then A's score when attacking and when defending:

==============  ============  ===================  =====================  ===========  =======
variant         pairing       games, +W =D -L      score [95% CI]         att / def    seed, P
==============  ============  ===================  =====================  ===========  =======
tablut          medium-easy   20, +15 =4 -1        85.0% [72.8, 97.2]     90% / 80%    1, 160
tablut          hard-medium   20, +19 =0 -1        95.0% [85.4, 100.0]    90% / 100%   3, 200
tablut          master-hard   20, +20 =0 -0 (a)    100.0%                 100% / 100%  1, 160
tablut-ashton   medium-easy   100, +97 =0 -3       97.0% [93.7, 100.0]    100% / 94%   11, 200
tablut-ashton   hard-medium   100, +83 =3 -14      84.5% [77.6, 91.4]     100% / 69%   13, 200
tablut-ashton   master-hard   40, +39 =0 -1        97.5% [92.7, 100.0]    100% / 95%   1, 200
tablut-corner   medium-easy   100, +79 =8 -13      83.0% [76.2, 89.8]     66% / 100%   11, 200
tablut-corner   hard-medium   100, +58 =32 -10     74.0% [67.4, 80.6]     51% / 97%    13, 200
tablut-corner   master-hard   40, +35 =4 -1        92.5% [86.0, 99.0]     90% / 95%    1, 200
tablut-unarmed  medium-easy   20, +20 =0 -0        100.0%                 100% / 100%  1, 160
tablut-unarmed  hard-medium   20, +16 =4 -0        90.0% [81.2, 98.8]     90% / 90%    3, 200
tablut-unarmed  master-hard   40, +36 =3 -1        93.8% [87.6, 99.9]     100% / 88%   1, 200
brandubh        medium-easy   100, +53 =12 -35     59.0% [50.0, 68.0]     20% / 98%    11, 200
brandubh        hard-medium   100, +45 =39 -16     64.5% [57.4, 71.6]     39% / 90%    13, 200
brandubh        master-hard   40, +20 =3 -17       53.8% [38.9, 68.6]     8% / 100%    1, 200
fidchell        medium-easy   100, +93 =2 -5       94.0% [89.6, 98.4]     100% / 88%   11, 200
fidchell        hard-medium   100, +62 =1 -37      62.5% [53.1, 71.9]     100% / 25%   13, 200
fidchell        master-hard   40, +22 =0 -18       55.0% [39.6, 70.4]     100% / 10%   1, 200
copenhagen      medium-easy   20, +17 =2 -1        90.0% [78.8, 100.0]    80% / 100%   1, 200
copenhagen      hard-medium   20, +17 =2 -1        90.0% [78.8, 100.0]    80% / 100%   3, 200
copenhagen      master-hard   20, +19 =1 -0 (a)    97.5% [92.7, 100.0]    95% / 100%   1-2, 200
==============  ============  ===================  =====================  ===========  =======

(a) Before ``master``'s pruning; with it, Copenhagen ten games with ``--max-plies 500``,
+10 =0 -0, every attacking game won on the board.

On the two 7x7 boards the rules favour one side so much that a level's score comes from its
games on the other side only, and the upper rungs stay below 70% (on brandubh every rung):

- ``brandubh`` (the king taken on four sides, group capture): the defenders win. ``master``
  scores 100% defending against ``hard`` and 8% attacking: its attackers lost 17 of 20 to the
  king's escape. A deeper attacker does not help (``hard`` at seven plies attacking ``medium`` at
  three won less than at five), nor do the evaluation's weights (none of 26 changes, each
  over 200 games at depth 4, moved the score off 50%), nor ``master`` without its contempt,
  pruning or reductions (57.5% to 62.5% over 40 games each). ``master``'s whole lead over
  ``easy`` is 87.5% (40 games, +32 =6 -2: +338 rating points), less than three rungs of 70%
  would add up to (+441): no placing of ``medium`` and ``hard`` between them could give each
  rung 70%.
- ``fidchell`` (two attackers take the king away from the throne and the squares beside it,
  any edge square an escape): the attackers force a win from the start within six of their
  moves (``python -m bot.ai.puzzles prove fidchell --max-length 6``, an exhaustive proof over
  27.0 million positions), and take 94% of the points of ``medium`` against itself (``--a
  medium --b medium --games 100 --seed 11``; brandubh's defenders 89%). ``hard``'s score comes
  from its defending games, 25% against ``medium``.

Against other engines (``python -m bot.ai.lab.match``, refereed by our rules; see
``bot/ai/lab/README.md``), ``master`` at the seconds given:

================================  ==============  ======  ===================  ==================
opponent                          variant         s/move  games, +W =D -L      score (att / def)
================================  ==============  ======  ===================  ==================
GabibBot (Tablut Challenge        tablut-ashton   1       20, +20 =0 -0 (b)    100% (100% / 100%)
2022-2023 winner)
GabibBot, before the mend (c)     tablut-ashton   1       20, +18 =1 -1 (b)    92.5% (95% / 90%)
Becchi (2021 winner)              tablut-ashton   1       2, +2 =0 -0          100%
OpenTafl's AI (v0.4.8)            tablut          1       10, +10 =0 -0        100% (100% / 100%)
OpenTafl's AI, the rules record   copenhagen      2       10, +9 =1 -0         95.0% (90% / 100%)
read alike
``master`` as of commit 1820ead   tablut          1       20, +15 =2 -3        80.0% (75% / 85%)
``master`` as of commit 1820ead   copenhagen      1       20, +15 =1 -4        77.5% (55% / 100%)
================================  ==============  ======  ===================  ==================

(b) With the challenge's repetition rule (``--first-repetition``), seed 21; GabibBot thinks its
timeout (3 s) less two seconds and was reported at 1.0 to 1.2 s a move, ``master`` at 0.5 to
0.9 s (it stops early on a forced result). With the mend: ten king captures and ten escapes in
17 to 44 plies. (c) Before the king's distance from the throne was mended (below): in the draw
``master`` attacked, found its search at -1,900 and a repetition at -50, a rescue; the loss was
a defending game, its king captured after 62 plies.

On Copenhagen against OpenTafl four of the five attacking games were won on the board (two
encirclements, two by leaving the defenders no legal move), none by repetition.

Where the king may not return to the throne (``fidchell``, ``tablut-ashton``), his distance to
an escape read 99 moves while he stood on it, until 2026-11-29: every level took his first step
off it for a gain of some 1,700. With that mended, each level with the mended table against the
same level with the old one (the arena's pairs): fidchell ``medium`` 81.0% and ``hard`` 69.5%
(100 games each), ``master`` 55.0% (20; whoever attacks wins); tablut-ashton ``medium`` 79.0%,
``hard`` 65.5%, ``master`` 72.5% (20 games, +13 =3 -4).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Level:
    """One playing strength."""

    name: str
    description: str
    """A short lower-case phrase for menus, e.g. "strong; searches 1.5 seconds a move"."""
    time_limit: float
    """Seconds per move the search may use: ``master``'s budget, and for the levels limited by
    depth only a safety net (:data:`SAFETY_NET`)."""
    max_depth: int
    """Deepest iteration (plies before quiescence)."""
    noise: int
    """Evaluation noise amplitude in hundredths of an attacker (0: none)."""
    quiescence: bool = True
    """Whether quiet escape threats (king moves that open routes) are followed at the horizon."""
    reads_threats: bool = True
    """Whether route threats are read beyond the depth (forks, free blocks, king captures);
    without it only routes already open on the board are seen."""
    reductions: bool = True
    """Whether late quiet moves are searched shallower first (deeper in the same time); without
    them every move is read to the full depth, so no forced result within it is missed."""
    pruning: bool = False
    """Whether shallow nodes off the principal variation are cut short where the static
    evaluation puts the window out of reach (:class:`bot.ai.search.Pruning`): deeper in the
    same time, at the cost of a quiet move the margins misjudge."""
    contempt: int = 0
    """How much less than the evaluation's draw value a repetition is worth to this level, in
    hundredths of an attacker: above 0 it plays on from a balanced position instead."""
    advantage_contempt: float = 0.0
    """The share of its advantage (its last search's score, see
    :attr:`bot.ai.search.Searcher.advantage_contempt`) added to its contempt: a level clearly
    better in the game does not walk into a repetition."""
    side_weights: bool = False
    """Whether it searches with the weights measured better for the side it plays, where a
    variant has them (:func:`bot.ai.evaluation.side_weights`)."""

    def with_time(self, seconds: float) -> Level:
        """The same level with another time budget."""
        return replace(self, time_limit=seconds)


SAFETY_NET = 60.0
"""The clock of the levels limited by depth: far beyond what their depth costs, so that it never
decides their move. The fast core reads ``hard``'s four plies of an 11x11 endgame in a tenth of
a second, the pure Python in two to five seconds (some 150,000 positions); at 5 s, the pure
Python's ``hard`` was cut short on a loaded machine and played its three-ply move instead
(``tests/test_ai_levels.py``). A search that still runs out of it has hung: the service
replaces its worker."""

LEVEL_SETTINGS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "beginner; looks one move ahead, misses forks, misjudges quiet positions",
            time_limit=SAFETY_NET,
            max_depth=1,
            noise=200,
            quiescence=False,
            reads_threats=False,
        ),
        Level(
            "medium",
            "club player; reads two moves ahead and every direct king threat",
            time_limit=SAFETY_NET,
            max_depth=2,
            noise=60,
        ),
        Level(
            "hard",
            "strong; reads four moves ahead and every king tactic",
            time_limit=SAFETY_NET,
            max_depth=4,
            noise=0,
            reductions=False,
        ),
        Level(
            "master",
            "strongest; searches 4 seconds a move",
            time_limit=4.0,
            max_depth=64,
            noise=0,
            pruning=True,
            contempt=50,
            advantage_contempt=1.0,
            side_weights=True,
        ),
    )
}
"""Every level by name, weakest first."""

LEVELS: tuple[str, ...] = tuple(LEVEL_SETTINGS)
"""Level names, weakest first: ``("easy", "medium", "hard", "master")``."""

DEFAULT_LEVEL = "medium"


def level_named(stored: int) -> str:
    """The level stored as its number (1-based, weakest first) by name; ``level N`` for a
    number this build does not know (a search asked for it fails as for any unknown level)."""
    return LEVELS[stored - 1] if 1 <= stored <= len(LEVELS) else f"level {stored}"


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


LADDER: dict[str, dict[tuple[str, str], tuple[int, int, int]]] = {
    "tablut": {("medium", "easy"): (15, 4, 1), ("hard", "medium"): (19, 0, 1),
               ("master", "hard"): (20, 0, 0)},
    "tablut-ashton": {("medium", "easy"): (97, 0, 3), ("hard", "medium"): (83, 3, 14),
                      ("master", "hard"): (39, 0, 1)},
    "tablut-corner": {("medium", "easy"): (79, 8, 13), ("hard", "medium"): (58, 32, 10),
                      ("master", "hard"): (35, 4, 1)},
    "tablut-unarmed": {("medium", "easy"): (20, 0, 0), ("hard", "medium"): (16, 4, 0),
                       ("master", "hard"): (36, 3, 1)},
    "brandubh": {("medium", "easy"): (53, 12, 35), ("hard", "medium"): (45, 39, 16),
                 ("master", "hard"): (20, 3, 17)},
    "fidchell": {("medium", "easy"): (93, 2, 5), ("hard", "medium"): (62, 1, 37),
                 ("master", "hard"): (22, 0, 18)},
    "copenhagen": {("medium", "easy"): (17, 2, 1), ("hard", "medium"): (17, 2, 1),
                   ("master", "hard"): (19, 1, 0)},
}  # fmt: skip
"""The ladder of the module's table: for each variant and pairing of neighbouring levels
(stronger, weaker), the stronger level's wins, draws and losses in its latest measurement. The
levels' ratings are derived from it (:func:`level_ratings`), so a new measurement changes them
in one place."""

ANCHOR_LEVEL = "medium"
ANCHOR_RATING = 1500
"""``medium``, the level a newcomer meets by default, is rated as a newcomer starts (Glicko-2's
1500): a player who beats it as often as they lose to it keeps their rating."""


def rating_gap(wins: int, draws: int, losses: int) -> float:
    """The rating difference that predicts a score (Elo's logistic curve, the scale Glicko-2
    keeps), with half a win and half a loss added so that a clean sweep gives a finite gap."""
    games = wins + draws + losses
    score = (wins + draws / 2 + 0.5) / (games + 1)
    return 400 * math.log10(score / (1 - score))


def _gap(variant: str, stronger: str, weaker: str) -> float:
    """The gap between two neighbouring levels in ``variant``; a pairing not measured there
    takes the median of that pairing's gaps where it was. A level is never rated below the
    one beneath it."""
    measured = LADDER.get(variant, {}).get((stronger, weaker))
    if measured is not None:
        return max(0.0, rating_gap(*measured))
    elsewhere = [rating_gap(*games[stronger, weaker]) for games in LADDER.values()
                 if (stronger, weaker) in games]  # fmt: skip
    return max(0.0, statistics.median(elsewhere))


def level_ratings(variant: str) -> dict[str, int]:
    """Each level's fixed rating in ``variant`` (to the nearest 10), weakest first: anchored
    at :data:`ANCHOR_RATING` for :data:`ANCHOR_LEVEL` and spaced by the measured ladder.

    The ratings are published, never provisional and never changed by games: a rated game
    against the AI moves only the player's rating.
    """
    anchor = LEVELS.index(ANCHOR_LEVEL)
    ratings = {ANCHOR_LEVEL: float(ANCHOR_RATING)}
    for index in range(anchor + 1, len(LEVELS)):
        weaker, stronger = LEVELS[index - 1], LEVELS[index]
        ratings[stronger] = ratings[weaker] + _gap(variant, stronger, weaker)
    for index in range(anchor - 1, -1, -1):
        weaker, stronger = LEVELS[index], LEVELS[index + 1]
        ratings[weaker] = ratings[stronger] - _gap(variant, stronger, weaker)
    return {name: int(round(ratings[name] / 10) * 10) for name in LEVELS}


def level_rating(variant: str, level: str) -> int:
    """The fixed rating of ``level`` (a name, see :data:`LEVELS`) in ``variant``."""
    return level_ratings(variant)[get_level(level).name]
