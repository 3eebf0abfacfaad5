"""Made-up tournaments for the crosstable tests, computed like a real event would be: points,
Buchholz, Sonneborn-Berger and performance from the games, rows in standing order.

``python tests/crosstable_samples.py [DIR]`` writes every sample as a PNG (both themes) and the
text form, into /tmp/crosstable-examples by default.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bot.discord_bot.compose.tournaments import CROSSTABLE_WORDS
from bot.render.crosstable import (
    Cell,
    CrosstableView,
    PlayerRow,
    SidePlayed,
    Tiebreak,
    crosstable_text,
    render_crosstable,
)

# A round's entries: ("game", a, b, points of a, side of a or None for a match),
# ("bye", a, points), ("forfeit", a, b, a won), ("pending", a, b, side of a), ("absent", a).
Entry = tuple[object, ...]


@dataclass
class _Player:
    name: str
    rating: int
    points: float = 0.0
    cells: list[tuple[str, int | None, SidePlayed | None, float | None]] = field(
        default_factory=list
    )
    withdrawn: str = ""


def _side_of_b(side: SidePlayed | None) -> SidePlayed | None:
    if side is None:
        return None
    return "defenders" if side == "attackers" else "attackers"


def swiss(
    title: str,
    subtitle: str,
    players: list[tuple[str, int]],
    rounds: list[list[Entry]],
    *,
    games: int = 1,
    withdrawn: dict[int, str] | None = None,
    page: int = 1,
    rows_per_page: int | None = None,
) -> CrosstableView:
    """A Swiss crosstable from players (name, rating) and the rounds' entries (by index)."""
    people = [_Player(name, rating) for name, rating in players]
    for entries in rounds:
        for entry in entries:
            kind = entry[0]
            if kind == "game":
                _, a, b, pts, side = entry
                assert isinstance(a, int) and isinstance(b, int) and isinstance(pts, float | int)
                people[a].cells.append(("played", b, side, float(pts)))  # type: ignore[arg-type]
                people[b].cells.append(("played", a, _side_of_b(side), games - float(pts)))  # type: ignore[arg-type]
            elif kind == "pending":
                _, a, b, side = entry
                assert isinstance(a, int) and isinstance(b, int)
                people[a].cells.append(("pending", b, side, None))  # type: ignore[arg-type]
                people[b].cells.append(("pending", a, _side_of_b(side), None))  # type: ignore[arg-type]
            elif kind == "forfeit":
                _, a, b, a_won = entry
                assert isinstance(a, int) and isinstance(b, int)
                people[a].cells.append(("forfeit", b, None, float(games if a_won else 0)))
                people[b].cells.append(("forfeit", a, None, float(0 if a_won else games)))
            elif kind == "bye":
                _, a, pts = entry
                assert isinstance(a, int) and isinstance(pts, float | int)
                people[a].cells.append(("bye", None, None, float(pts)))
            else:
                _, a = entry
                assert isinstance(a, int)
                people[a].cells.append(("absent", None, None, None))
    for index, note in (withdrawn or {}).items():
        people[index].withdrawn = note
    for person in people:
        person.points = sum(p for _, _, _, p in person.cells if p is not None)

    def opponents(person: _Player) -> list[tuple[int, float]]:
        return [
            (o, p)
            for kind, o, _, p in person.cells
            if kind == "played" and o is not None and p is not None
        ]

    buchholz = [sum(people[o].points for o, _ in opponents(p)) for p in people]
    berger = [sum(people[o].points * pts / games for o, pts in opponents(p)) for p in people]
    performance: list[int | None] = []
    for person in people:
        played = opponents(person)
        if not played:
            performance.append(None)
            continue
        average = sum(people[o].rating for o, _ in played) / len(played)
        share = sum(pts for _, pts in played) / (games * len(played))
        performance.append(round(average + max(-800.0, min(800.0, 800 * (share - 0.5)))))
    order = sorted(
        range(len(people)),
        key=lambda i: (people[i].withdrawn != "", -people[i].points, -buchholz[i], -berger[i], i),
    )
    row_of = {index: position + 1 for position, index in enumerate(order)}
    # Ties: equal points and Buchholz (the event's first tiebreak).
    key = [(people[i].points, buchholz[i]) for i in order]
    rows = []
    for position, index in enumerate(order):
        person = people[index]
        tied = [
            p + 1
            for p, k in enumerate(key)
            if k == key[position] and not people[order[p]].withdrawn
        ]
        rank, rank_to = (tied[0], tied[-1]) if len(tied) > 1 else (position + 1, None)
        cells = []
        for kind, opponent, side, pts in person.cells:
            other = None if opponent is None else row_of[opponent]
            cells.append(Cell(kind, pts, other, side))  # type: ignore[arg-type]
        rows.append(
            PlayerRow(
                rank,
                person.name,
                person.points,
                person.rating,
                tuple(cells),
                rank_to=rank_to,
                withdrawn=bool(person.withdrawn),
                note=person.withdrawn,
            )
        )
    tiebreaks = (
        Tiebreak("BH", tuple(buchholz[i] for i in order), "Buchholz"),
        Tiebreak("SB", tuple(berger[i] for i in order), "Sonneborn-Berger"),
        Tiebreak("Perf", tuple(performance[i] for i in order), "performance"),
    )
    return CrosstableView(
        title,
        subtitle,
        "swiss",
        tuple(rows),
        tiebreaks,
        games_per_pairing=games,
        page=page,
        rows_per_page=rows_per_page,
        words=CROSSTABLE_WORDS,
    )


EIGHT = [
    ("Ragnar Lodbrok", 1912),
    ("Linnaeus", 1844),
    ("Þórdís Ægisdóttir", 1790),
    ("Ελένη Παπαδοπούλου", 1755),
    ("Владимир Кузнецов", 1702),
    ("Aleksandra Wiśniewska-Kowalczyk", 1650),
    ("Ida", 1580),
    ("Bjørn", 1490),
]


def eight_player_swiss() -> CrosstableView:
    """8 players, 3 rounds of one game each; Bjørn withdraws after round 1 (so round 2 has a
    bye), a game lost by forfeit in round 3; a tie for 3rd place."""
    rounds: list[list[Entry]] = [
        [
            ("game", 0, 4, 1, "attackers"),
            ("game", 5, 1, 0, "attackers"),
            ("game", 2, 6, 1, "defenders"),
            ("game", 7, 3, 0.5, "attackers"),
        ],
        [
            ("game", 1, 0, 0.5, "defenders"),
            ("game", 2, 3, 1, "attackers"),
            ("game", 4, 5, 0, "defenders"),
            ("bye", 6, 1),
            ("absent", 7),
        ],
        [
            ("game", 0, 2, 1, "defenders"),
            ("game", 3, 1, 0.5, "attackers"),
            ("forfeit", 5, 6, True),
            ("game", 4, 7, 1, "attackers") if False else ("bye", 4, 1),
            ("absent", 7),
        ],
    ]
    return swiss(
        "Monthly Copenhagen Swiss",
        "after round 3 of 5",
        EIGHT,
        rounds,
        withdrawn={7: "withdrew after round 1"},
    )


def big_swiss(page: int = 2, rows_per_page: int | None = 20) -> CrosstableView:
    """64 players, 6 rounds paired within score groups, seeded: the rows of one page."""
    rng = random.Random(64)
    first = ["Ragnar", "Astrid", "Sigrid", "Ivar", "Freydís", "Halfdan", "Gunnhild", "Ulf"]
    last = ["Hansen", "Jónsdóttir", "Berg", "Nakamura", "Okafor", "Müller", "Silva", "Novák"]
    players = [
        (f"{first[i % 8]} {last[(i // 8 + i) % 8]}", 2100 - i * 11 - rng.randrange(10))
        for i in range(64)
    ]
    points = [0.0] * 64
    met: set[tuple[int, int]] = set()
    rounds: list[list[Entry]] = []
    for _ in range(6):
        order = sorted(range(64), key=lambda i: (-points[i], i))
        entries: list[Entry] = []
        free = list(order)
        while free:
            a = free.pop(0)
            b = next((x for x in free if (min(a, x), max(a, x)) not in met), free[0])
            free.remove(b)
            met.add((min(a, b), max(a, b)))
            score = rng.choice((0.0, 0.5, 1.0, 1.0, 0.0))
            entries.append(("game", a, b, score, rng.choice(("attackers", "defenders"))))
            points[a] += score
            points[b] += 1 - score
        rounds.append(entries)
    return swiss(
        "Nordic Open Swiss",
        "final standings",
        players,
        rounds,
        page=page,
        rows_per_page=rows_per_page,
    )


def double_round_robin() -> CrosstableView:
    """5 players, each pair meets in a two-game match (sides swapped): game points per cell."""
    names = [
        ("Sigrid", 1880),
        ("Halfdan the Black", 1810),
        ("Astrid", 1795),
        ("Ulf", 1700),
        ("Gunnhild", 1650),
    ]
    # Game points of the row player against the column player (out of 2).
    results = {
        (0, 1): 1.5,
        (0, 2): 1.0,
        (0, 3): 2.0,
        (0, 4): 1.5,
        (1, 2): 1.0,
        (1, 3): 1.5,
        (1, 4): 2.0,
        (2, 3): 0.5,
        (2, 4): 2.0,
        (3, 4): 1.0,
    }

    def score(a: int, b: int) -> float:
        return results[(a, b)] if (a, b) in results else 2 - results[(b, a)]

    totals = [sum(score(a, b) for b in range(5) if b != a) for a in range(5)]
    berger = [sum(score(a, b) * totals[b] for b in range(5) if b != a) for a in range(5)]
    wins = [sum(1 for b in range(5) if b != a and score(a, b) > 1) for a in range(5)]
    order = sorted(range(5), key=lambda i: (-totals[i], -berger[i], i))
    rows = []
    for position, a in enumerate(order):
        cells = tuple(None if b == a else Cell.game(score(a, b)) for b in order)
        rows.append(PlayerRow(position + 1, names[a][0], totals[a], names[a][1], cells))
    return CrosstableView(
        "Brandubh Club Championship",
        "double round robin · two-game matches · final",
        "round_robin",
        tuple(rows),
        (
            Tiebreak("SB", tuple(berger[i] for i in order), "Sonneborn-Berger"),
            Tiebreak("MW", tuple(wins[i] for i in order), "matches won"),
        ),
        games_per_pairing=2,
        words=CROSSTABLE_WORDS,
    )


def arena() -> CrosstableView:
    """An arena: game scores in order played, doubled on a streak."""
    rng = random.Random(7)
    names = ["Freydís", "Ivar the Boneless", "Astrid", "Tove", "Sven Forkbeard", "Harald", "Ása"]
    rows = []
    for position, name in enumerate(names):
        cells = []
        streak = 0
        for _ in range(rng.randrange(4, 18)):
            outcome = rng.choice((0, 1, 2, 2))
            streak = streak + 1 if outcome == 2 else 0
            doubled = streak >= 3
            cells.append(Cell.game(outcome * (2 if doubled else 1), streak=doubled))
        total = sum(c.points or 0 for c in cells)
        rows.append(PlayerRow(position + 1, name, total, 1500 + rng.randrange(400), tuple(cells)))
    rows.sort(key=lambda r: -r.points)
    rows = [PlayerRow(i + 1, r.name, r.points, r.rating, r.cells) for i, r in enumerate(rows)]
    return CrosstableView(
        "Friday Arena · Brandubh",
        "40 minutes · 23 minutes left",
        "arena",
        tuple(rows),
        words=CROSSTABLE_WORDS,
    )


SAMPLES = {
    "swiss-8": eight_player_swiss,
    "round-robin-5": double_round_robin,
    "swiss-64-page2": big_swiss,
    "swiss-64-all": lambda: big_swiss(1, None),
    "arena": arena,
}


def main(directory: str = "/tmp/crosstable-examples") -> None:
    from PIL import Image

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SAMPLES.items():
        view = make()
        for theme in ("classic", "contrast"):
            data = render_crosstable(view, theme=theme)
            path = out / f"{name}-{theme}.png"
            path.write_bytes(data)
            image = Image.open(path)
            small = image.resize(
                (380, round(image.height * 380 / image.width)), Image.Resampling.LANCZOS
            )
            small.save(out / f"{name}-{theme}-380.png")
            print(f"{path}: {image.size[0]}x{image.size[1]}, {len(data)} bytes")
        (out / f"{name}.txt").write_text(crosstable_text(view), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
