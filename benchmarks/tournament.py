"""Swiss pairing speed: one round of a 500-player event.

Run: ``.venv/bin/python benchmarks/tournament.py``. Simulates rounds 1 to 4 of a 500-player
one-game Swiss with seeded random results (ratings 1000-2400, the stronger player more likely to
win, a tenth of games drawn), then times pairing round 5 and checks it: every present player
once, no repeat pairing, at most one bye. Target: round 5 paired in 2 s or less on a 2-core
machine (the pairing runs in the bot's process between rounds). ``--players N`` and
``--rounds R`` change the event; ``--smoke`` pairs round 5 of 40 players, judging no speed.
Exits with status 1 if a pairing is wrong.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from bot.tournament import Entrant, Game, PlayedPairing, PlayedRound, Round, pair_swiss

TARGET_SECONDS = 2.0


def play(r: Round, rating: dict[int, float], rng: random.Random) -> PlayedRound:
    """The round's games with results drawn by rating (Elo expectation, 10% draws)."""
    played = []
    for p in r.pairings:
        expected = 1 / (1 + 10 ** ((rating[p.defender] - rating[p.attacker]) / 400))
        x = rng.random()
        result = 0.5 if x < 0.1 else 1.0 if x < 0.1 + 0.9 * expected else 0.0
        played.append(PlayedPairing(p, (Game(p.attacker, p.defender, result),)))
    return PlayedRound(r.number, tuple(played), r.byes)


def check(r: Round, players: list[Entrant], met: set[frozenset[int]]) -> list[str]:
    """What is wrong with the round (nothing, one hopes)."""
    named = [x for p in r.pairings for x in p.players] + [b.player for b in r.byes]
    problems = []
    if sorted(named) != sorted(e.id for e in players):
        problems.append(f"round {r.number}: not every present player exactly once")
    if len(r.byes) != len(players) % 2:
        problems.append(f"round {r.number}: {len(r.byes)} byes")
    repeats = [p.players for p in r.pairings if frozenset(p.players) in met]
    if repeats:
        problems.append(f"round {r.number}: repeat pairings {repeats[:3]}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5, help="the round timed")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--smoke", action="store_true", help="40 players, no speed judged")
    args = parser.parse_args()
    count = 40 if args.smoke else args.players
    rng = random.Random(args.seed)
    players = [Entrant(i, float(rng.randint(1000, 2400))) for i in range(1, count + 1)]
    rating = {e.id: e.rating for e in players}
    history: list[PlayedRound] = []
    met: set[frozenset[int]] = set()
    problems: list[str] = []
    timings = []
    for number in range(1, args.rounds + 1):
        start = time.perf_counter()
        r = pair_swiss(players, history, number)
        timings.append(time.perf_counter() - start)
        problems += check(r, players, met)
        met.update(frozenset(p.players) for p in r.pairings)
        history.append(play(r, rating, rng))
    last = timings[-1]
    print(f"{count} players, rounds 1-{args.rounds - 1} simulated (seed {args.seed})")
    print("earlier rounds paired in " + ", ".join(f"{t:.3f}" for t in timings[:-1]) + " s")
    verdict = "" if args.smoke else f"  [target <= {TARGET_SECONDS:.1f} s: " + (
        "ok]" if last <= TARGET_SECONDS else "MISSED]")  # fmt: skip
    print(f"round {args.rounds} paired in {last:.3f} s: {len(history[-1].pairings)} boards, "
          f"{len(history[-1].byes)} bye{verdict}")  # fmt: skip
    for problem in problems:
        print("WRONG:", problem)
    if not problems:
        print("every present player paired once, no repeat pairing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
