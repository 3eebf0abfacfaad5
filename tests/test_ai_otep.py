"""``python -m bot.ai otep`` speaks the OpenTafl Engine Protocol; OTN rules map onto variants."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.ai.otep import Clock
from bot.ai.otn_rules import RulesError, match_rules
from bot.engine import VARIANTS, Game
from bot.engine.types import Side


@pytest.mark.parametrize("name", list(VARIANTS))
def test_our_own_rules_records_map_back_to_the_variant(name: str) -> None:
    match = match_rules(VARIANTS[name].otn_rules())
    assert match.variant.name == name
    assert match.warnings == ()


def test_opentafl_brandub_record_is_played_as_brandubh_with_warnings() -> None:
    match = match_rules("dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    assert match.variant.name == "brandubh"
    assert any(w.startswith("ks:") for w in match.warnings)


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ("dim:9 foo:y start:/9/9/9/9/9/9/9/9/9/", "unknown rules key"),
        ("dim:13 start:/13/13/13/13/13/13/13/13/13/13/13/13/13/", "no variant here plays"),
        ("dim:9 sw:s start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", "shieldwall"),
        ("dim:9 tfr:w start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", "tfr:w"),
        ("esc:e dim:9 start:/9/9/9/9/9/9/9/9/9/", "must start with dim"),
    ],
)
def test_unplayable_rules_are_refused_with_a_reason(record: str, reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        match_rules(record)


def test_otep_engine_plays_a_short_game_as_a_subprocess() -> None:
    engine = subprocess.Popen(
        [sys.executable, "-m", "bot.ai", "otep", "--level", "easy", "--time", "0.2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert engine.stdin is not None and engine.stdout is not None

    def send(line: str) -> None:
        assert engine.stdin is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def expect(prefix: str) -> str:
        assert engine.stdout is not None
        while True:
            line = engine.stdout.readline()
            assert line, f"the engine exited while we waited for {prefix!r}"
            if line.startswith(prefix):
                return line.strip()

    try:
        assert expect("hello") == "hello"
        game = Game("brandubh")
        send("rules " + game.variant.otn_rules())
        send("side defenders")
        for _ in range(3):
            ours = game.legal_moves()[0].text(7)
            game.play(ours)
            send(f"opponent-move {ours} {game.position_otn()}")
            send("play defenders")
            send("clock 60000 60000 0 0 0")
            reply = expect("move ").split()[1]
            game.play(reply)  # raises if the engine's move is illegal
            send(f"move {game.position_otn()}")
        send("analyze 2 0.2")
        assert expect("analysis ").split()[1] in ("1", "2")
        send("rules dim:13 start:/13/13/13/13/13/13/13/13/13/13/13/13/13/")
        assert expect("error -1").startswith("error -1 cannot play these rules")
        send("finish 1")
        send("goodbye")
        assert engine.wait(timeout=10) == 0
    finally:
        if engine.poll() is None:
            engine.kill()


def test_the_clock_sets_the_budget_so_both_engines_get_equal_time() -> None:
    assert Clock().budget(Side.ATTACKERS, 4.0) == 4.0  # no clock: the level's time
    assert Clock().budget(Side.ATTACKERS, 4.0, cap=1.0) == 1.0
    # Five minutes of main time each, then three 10-second periods.
    clock = Clock.parse(["300000", "240000", "10", "3", "3"])
    assert clock.budget(Side.ATTACKERS, 4.0) == pytest.approx(300 / 25 + 8.35)
    assert clock.budget(Side.DEFENDERS, 4.0) == pytest.approx(240 / 25 + 8.35)
    assert clock.budget(Side.DEFENDERS, 4.0, cap=5.0) == 5.0
    # Main time used up: nearly a whole period, with a margin for the answer to travel.
    overtime = Clock.parse(["0*", "1000", "10", "2", "3"])
    assert overtime.budget(Side.ATTACKERS, 4.0) == pytest.approx(8.35)
    # Little main time and no periods: never more than half of what is left.
    short = Clock.parse(["2000", "2000", "0", "0", "0"])
    assert short.budget(Side.ATTACKERS, 4.0) == pytest.approx(2 / 25)
