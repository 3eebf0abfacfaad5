"""The line-based referee (``python -m bot.engine referee``)."""

from __future__ import annotations

import subprocess
import sys

from bot.engine.referee import Referee


def test_referee_session_over_stdin() -> None:
    script = "\n".join(
        [
            "legal",
            "new brandubh",
            "move d1-d3",
            "move a4 a3",
            "legal",
            "position",
            "undo",
            "position",
            "frobnicate",
            "setpos tablut /9/9/9/9/4K4/9/9/9/9/ defenders",
            "move e5-e1",
            "move e1-e2",
            "quit",
            "legal",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-m", "bot.engine", "referee"],
        input=script + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    assert out[0].startswith("error no game yet")
    assert out[1] == "ok"
    assert out[2] == "illegal 'd1-d3': d2 blocks the path"
    assert out[3] == "ok ongoing captures=- turn=defenders routes=-"
    assert out[4].startswith("moves 23 c4-c1 c4-c2")
    assert out[5] == "position /3t3/3t3/t2T3/1tTKTtt/3T3/3t3/3t3/ defenders"
    assert out[6] == "ok"
    assert out[7] == "position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ attackers"
    assert out[8].startswith("error unknown command 'frobnicate'")
    assert out[9] == "ok"
    assert out[10] == "ok defenders captures=- turn=attackers routes=-"
    assert out[11].startswith("illegal 'e1-e2': the game is over")
    assert len(out) == 12  # nothing after quit


def test_referee_reports_captures_and_routes() -> None:
    referee = Referee()
    assert referee.answer("setpos tablut /9/9/1tT3t2/9/4K4/9/9/9/9/ attackers") == "ok"
    # Routes are the king's open routes in the position after the move, whoever moved.
    assert referee.answer("move g3-d3") == (
        "ok ongoing captures=c3 turn=defenders routes=a5,e1,e9,i5"
    )
    assert referee.answer("move e5-e4") == (
        "ok ongoing captures=- turn=attackers routes=a4,e1,e9,i4"
    )
    assert referee.answer("move d3-d4") == "ok ongoing captures=- turn=defenders routes=e1,e9,i4"


def test_referee_answers_malformed_input_and_keeps_running() -> None:
    referee = Referee()
    assert referee.answer("").startswith("error empty command")
    assert referee.answer("new chess").startswith("error 'chess' is not a variant")
    assert referee.answer("setpos tablut /9/ attackers").startswith("error")
    assert referee.answer("setpos tablut /9/9/9/9/4K4/9/9/9/9/ nobody").startswith("error")
    assert referee.answer("new tablut") == "ok"
    assert referee.answer("move").startswith("error usage")
    assert referee.answer("move banana").startswith("illegal 'banana' is not a move")
    assert referee.answer("undo").startswith("error there is no move to take back")
    assert referee.answer("legal now").startswith("error legal takes no arguments")
    assert referee.answer("quit") is None
