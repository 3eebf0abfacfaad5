"""The OTEP match runner: real engine processes, refereed by our rules."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from bot.ai.lab.match import EngineSpec, main, play_engine_game, run_engine_match
from bot.engine import Game
from bot.engine.types import Side

OURS = f"{shlex.quote(sys.executable)} -m bot.ai otep --level easy --time 0.05"


def _script(tmp_path: Path, name: str, body: str) -> EngineSpec:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return EngineSpec(f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}", name)


def test_two_engines_play_a_refereed_game() -> None:
    ours = EngineSpec(OURS, "easy")
    opening = ["d2-c2", "e4-e2"]
    record = play_engine_game("brandubh", ours, ours, opening=opening, seconds=0.05, max_plies=16)
    game = Game("brandubh")
    for text in record.opening + record.moves:
        game.play(text)  # every move the runner accepted is legal under our rules
    assert record.opening == opening
    assert len(record.opening) + len(record.moves) <= 16
    if game.outcome is None:
        assert record.winner is None and "no result after 16 plies" in record.ending
    else:
        assert record.winner is game.outcome.winner
        assert record.ending == game.outcome.termination.value
    assert record.think_times[Side.ATTACKERS]


def test_an_illegal_move_loses_and_is_quoted(tmp_path: Path) -> None:
    cheat = _script(
        tmp_path,
        "cheat",
        "import sys\nprint('hello', flush=True)\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('play'):\n"
        "        print('move d4-d5', flush=True)\n"  # the king's throne move onto a defender
        "    if line.startswith('goodbye'):\n"
        "        break\n",
    )
    record = play_engine_game("brandubh", EngineSpec(OURS, "easy"), cheat, opening=[], seconds=0.05)
    assert record.winner is Side.ATTACKERS
    assert "cheat lost by the illegal move 'd4-d5'" in record.ending


def test_an_engine_that_dies_loses_on_the_spot(tmp_path: Path) -> None:
    quitter = _script(tmp_path, "quitter", "print('hello', flush=True)\nimport sys\nsys.exit(3)\n")
    record = play_engine_game(
        "brandubh", quitter, EngineSpec(OURS, "easy"), opening=[], seconds=0.05
    )
    assert record.winner is Side.DEFENDERS
    assert "quitter lost: quitter exited (status 3)" in record.ending


def test_a_match_reports_each_game_and_writes_records(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    records = tmp_path / "games.jsonl"
    status = main(
        [
            "--variant", "brandubh", "--games", "2", "--seconds", "0.05", "--max-plies", "12",
            "--a", "python -m bot.ai otep --level easy --time 0.05", "--a-name", "one",
            "--b", OURS, "--b-name", "two", "--records", str(records),
            "--logs", str(tmp_path / "logs"),
        ]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "game 1: one as attackers" in out and "game 2: one as defenders" in out
    assert "RESULT brandubh one vs two:" in out
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert [g["attackers"] for g in sorted(games, key=lambda g: g["game"])] == ["one", "two"]
    assert games[0]["opening"] == games[1]["opening"] and len(games[0]["opening"]) == 4
    assert "<< rules dim:7" in (tmp_path / "logs" / "game-1.log").read_text()
    score = run_engine_match(
        "brandubh", EngineSpec(OURS, "a"), EngineSpec(OURS, "b"), 2, seconds=0.05,
        max_plies=8, jobs=2, echo=False,
    )  # fmt: skip
    assert score.games == 2
