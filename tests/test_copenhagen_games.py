"""Replay the 1,752 recorded Copenhagen Hnefatafl games (tests/data/copenhagen-games.csv).

Every recorded move must be legal under the ``copenhagen`` rules of RULES.md, must capture exactly
the recorded pieces (the king's capture is not recorded, nor reported in ``captures``), and no game
may end before its last recorded move except the ones in :data:`EARLY_ENDINGS`.
"""

from __future__ import annotations

from copenhagen_records import load_games, replay

EARLY_ENDINGS: dict[int, tuple[int, str]] = {
    # game (CSV line): (ply of the ending move, termination)
}
"""The games the engine ends before their last recorded move, each checked against RULES.md."""


def test_recorded_games_replay() -> None:
    games = load_games()
    assert len(games) == 1752
    reports = [replay(game) for game in games]
    problems = [line for report in reports for line in report.problems()]
    shown = "\n".join(problems[:20])
    assert not problems, f"{len(problems)} problems, the first 20:\n{shown}"
    early = {r.index: (r.early.ply, r.early.termination) for r in reports if r.early}
    assert early == EARLY_ENDINGS
