"""The tactical suite of late forced losses, every case: `.venv/bin/python benchmarks/ai_suite.py`.

The suite (``tests/copenhagen_suite.py``, ``tests/data/copenhagen-suite.jsonl``) holds positions
of the recorded Copenhagen games where a player walked into a loss of six plies or fewer (an exit
fort, an encirclement, the king's capture) although another move held. For each case it asks
``hard``, at its own limits, to avoid the loss (proved as the test suite proves it: a full-width
search, then the rules engine's endings alone), and a review of the game to name the move that
allowed it; it prints the score by ending and by half (the held-out half: even game numbers),
and every failure. ``tests/test_ai_suite.py`` checks a sample of the same cases in the suite.

Exit status 1 when a case outside the known gaps (``HARD_GAPS``, ``REVIEW_GAPS``) fails, or a
known gap now passes (take it off the list); 2 without the fast core (proving 11x11 positions
five plies deep in pure Python would take hours). ``--smoke`` checks two cases and never judges.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout, uninstalled
sys.path.insert(0, str(ROOT / "tests"))  # the suite's reader and proofs live with the tests

from copenhagen_suite import (  # noqa: E402
    HARD_GAPS,
    REVIEW_GAPS,
    Case,
    hard_fails,
    load_suite,
    review_fails,
    reviewed,
)

from bot.ai import fast  # noqa: E402
from bot.engine import get_variant  # noqa: E402


def check(
    title: str,
    cases: list[Case],
    fails: Callable[[Case], str | None],
    gaps: frozenset[tuple[int, int]],
) -> tuple[int, int]:
    """Run ``fails`` on every case; print the score by half and ending, and each failure.
    Returns (unexpected failures, known gaps that now pass)."""
    passed: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    unexpected = healed = 0
    started = time.perf_counter()
    for case in cases:
        half = "held-out" if case.held_out else "dev"
        why = fails(case)
        total[half, case.ending] += 1
        known = (case.game, case.ply) in gaps
        if why is None:
            passed[half, case.ending] += 1
            if known:
                healed += 1
                print(f"  known gap now passes: game {case.game} ply {case.ply}")
        else:
            unexpected += not known
            mark = "known gap" if known else "FAILED"
            print(f"  {mark}: game {case.game} ply {case.ply} ({case.ending}): {why}")
    seconds = time.perf_counter() - started
    print(f"{title}: {sum(passed.values())} of {sum(total.values())} in {seconds:.1f} s")
    for key in sorted(total):
        print(f"  {key[0]:<9} {key[1]:<14} {passed[key]:>3} of {total[key]}")
    return unexpected, healed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="two cases, to check it works")
    args = parser.parse_args(argv)
    if not fast.supports(get_variant("copenhagen")):
        print(f"the fast core is not in use ({fast.state()}): nothing measured")
        return 0 if args.smoke else 2
    suite = load_suite()
    if args.smoke:
        suite = [case for case in suite if case.ending == "exit fort"][:2]
    bad_hard, healed_hard = check("hard avoids the loss", suite, hard_fails, HARD_GAPS)
    bad_review, healed_review = check(
        "the review blames the loser",
        [case for case in suite if reviewed(case)],
        review_fails,
        REVIEW_GAPS,
    )
    if args.smoke:
        return 0
    return 1 if bad_hard or bad_review or healed_hard or healed_review else 0


if __name__ == "__main__":
    sys.exit(main())
