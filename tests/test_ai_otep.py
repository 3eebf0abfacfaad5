"""``python -m bot.ai otep`` speaks the OpenTafl Engine Protocol; OTN rules map onto variants,
OpenTafl's own Copenhagen record onto ``copenhagen``."""

from __future__ import annotations

import io
import queue
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.ai.levels import get_level
from bot.ai.otep import Clock, OtepEngine
from bot.ai.otn_rules import RepetitionReading, RulesError, match_rules, parse_rules
from bot.engine import VARIANTS, Game
from bot.engine.types import Outcome, Side, Termination

_ELEVEN = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
_NINE = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"

# OpenTafl's own Copenhagen record, exactly as its host sends it to an engine (``rules `` +
# RulesSerializer.getRulesRecord(Copenhagen.newCopenhagen11(), false)). The literal is in
# jslater89/OpenTafl src/com/manywords/softworks/tafl/network/server/DummyTestServer.java
# (prodStartGame); the rules are src/com/manywords/softworks/tafl/rules/copenhagen/Copenhagen.java
# and the writer src/com/manywords/softworks/tafl/notation/RulesSerializer.java, which leaves out
# every default (esc:c surf:y ka:y ks:s swf:y and the throne and corner lists).
OPENTAFL_COPENHAGEN = f"dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:{_ELEVEN}"
# Copenhagen.newCopenhagen11RelaxedShieldwall(): any move closing a shieldwall captures.
OPENTAFL_COPENHAGEN_RELAXED = (
    f"dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y start:{_ELEVEN}"
)
# Fetlar.newFetlar11() as RulesSerializer writes it: Copenhagen's board without shieldwalls,
# edge forts or repetition losses.
OPENTAFL_FETLAR = f"dim:11 name:Fetlar atkf:y nj:n cj:n start:{_ELEVEN}"

# Every other variant's record as it was before copenhagen's record gained its own keys.
_RECORDS_BEFORE_COPENHAGEN = {
    "tablut": "dim:9 name:Tablut esc:e atkf:y tfr:d ka:y ks:c surf:n linc:y cor: cenhe:tTK "
    f"cenh: cenp:K cens:K afor: start:{_NINE}",
    "tablut-ashton": "dim:9 name:Tablut_(Ashton_camps) esc:e atkf:n tfr:d ka:y ks:c surf:n "
    "linc:n cor: cenhe:tTK cenh:TK cenp: cens: "
    f"afor:d1,e1,f1,e2,a4,i4,a5,b5,h5,i5,a6,i6,e8,d9,e9,f9 start:{_NINE}",
    "tablut-corner": "dim:9 name:Tablut_(corner_escape) esc:c atkf:n tfr:d ka:y ks:s surf:n "
    f"linc:n cor:a1,i1,a9,i9 cenhe: cenh: cenp:tTK cens:K afor: start:{_NINE}",
    "tablut-unarmed": "dim:9 name:Tablut_(unarmed_king) esc:c atkf:y tfr:d ka:n ks:s surf:y "
    f"linc:n cor:a1,i1,a9,i9 cenhe: cenh: cenp:tTK cens:K afor: start:{_NINE}",
    "brandubh": "dim:7 name:Brandubh esc:c atkf:y tfr:d ka:y ks:s surf:y linc:n "
    "cor:a1,g1,a7,g7 cenhe:tTK cenh: cenp:tTK cens:K afor: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "fidchell": "dim:7 name:Fidchell esc:e atkf:y tfr:d ka:y ks:c surf:n linc:n cor: "
    "cenhe:tTK cenh: cenp: cens: afor: start:/2ttt2/3t3/t1TTT1t/ttTKTtt/t1TTT1t/3t3/2ttt2/",
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_our_own_rules_records_map_back_to_the_variant(name: str) -> None:
    match = match_rules(VARIANTS[name].otn_rules())
    assert match.variant.name == name
    assert match.warnings == ()


@pytest.mark.parametrize("name", list(_RECORDS_BEFORE_COPENHAGEN))
def test_other_variants_records_are_unchanged_byte_for_byte(name: str) -> None:
    assert VARIANTS[name].otn_rules() == _RECORDS_BEFORE_COPENHAGEN[name]


def test_copenhagen_record_carries_opentafl_copenhagen_keys() -> None:
    record = VARIANTS["copenhagen"].otn_rules()
    entries = parse_rules(record)
    # Everything OpenTafl writes for its Copenhagen, with the same values.
    opentafl = parse_rules(OPENTAFL_COPENHAGEN)
    assert {k: entries[k] for k in opentafl if k != "name"} == {
        k: v for k, v in opentafl.items() if k != "name"
    }
    # And OpenTafl's defaults for it, written out: strong king (never captured on the edge),
    # armed, corner escape, encirclement, shieldwalls closed by a bracketing move.
    written = {key: entries[key] for key in ("ks", "ka", "esc", "surf", "swf")}
    assert written == {"ks": "s", "ka": "y", "esc": "c", "surf": "y", "swf": "y"}
    assert record.startswith("dim:11 ") and record.endswith(f" start:{_ELEVEN}")


def test_opentafl_copenhagen_record_is_played_as_copenhagen_without_warnings() -> None:
    match = match_rules(OPENTAFL_COPENHAGEN)
    assert match.variant.name == "copenhagen"
    assert match.first is Side.ATTACKERS
    assert match.start_position == _ELEVEN
    assert match.warnings == ()
    # Its tfr:w is read as OpenTafl reads it: the side that makes the third occurrence loses.
    assert match.variant.repetition_mover_loses
    # A host refereeing by our rules has it read as ours: the copenhagen variant itself.
    ours = match_rules(OPENTAFL_COPENHAGEN, RepetitionReading.PROJECT)
    assert ours.variant is VARIANTS["copenhagen"]
    assert ours.warnings == ()


def test_opentafl_copenhagen_variants_are_played_as_copenhagen_with_their_differences() -> None:
    relaxed = match_rules(OPENTAFL_COPENHAGEN_RELAXED)
    assert relaxed.variant.name == "copenhagen"
    assert relaxed.warnings == ("swf:n (we play swf:y)",)
    fetlar = match_rules(OPENTAFL_FETLAR)
    assert fetlar.variant.name == "copenhagen"
    assert fetlar.warnings == (
        "efe:n (we play efe:y)",
        "sw:n (we play sw:s)",
        "tfr:d (we play tfr:w)",
    )
    # A middleweight king (captured against the edge) is not Copenhagen's.
    edge_king = match_rules(OPENTAFL_COPENHAGEN.replace(" tfr:w", " ks:m tfr:w"))
    assert edge_king.warnings == ("ks:m (we play ks:s)",)


def test_opentafl_brandub_record_is_played_as_brandubh_with_warnings() -> None:
    match = match_rules("dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    assert match.variant.name == "brandubh"
    assert any(w.startswith("ks:") for w in match.warnings)


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ("dim:9 foo:y start:/9/9/9/9/9/9/9/9/9/", "unknown rules key"),
        ("dim:13 start:/13/13/13/13/13/13/13/13/13/13/13/13/13/", "no variant here plays"),
        (f"dim:9 sw:s start:{_NINE}", r"shieldwall captures, .* 9x9 board \(only in copenhagen"),
        (f"dim:9 esc:e efe:y start:{_NINE}", "edge-fort escapes"),
        (f"dim:9 tfr:w start:{_NINE}", "tfr:w"),
        ("dim:7 sw:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "shieldwall"),
        (f"dim:11 ber:c sw:s efe:y start:{_ELEVEN}", "berserk"),
        ("esc:e dim:9 start:/9/9/9/9/9/9/9/9/9/", "must start with dim"),
    ],
)
def test_unplayable_rules_are_refused_with_a_reason(record: str, reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        match_rules(record)


class _Engine:
    """``python -m bot.ai otep`` as a subprocess, with the lines it has written so far."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: list[str] = []

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, prefix: str) -> str:
        """The next line starting with ``prefix`` (the lines before it are kept, not checked)."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            assert line, f"the engine exited while we waited for {prefix!r}"
            self.lines.append(line.strip())
            if line.startswith(prefix):
                return line.strip()


@contextmanager
def _otep_engine(*options: str) -> Iterator[_Engine]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.ai", "otep", "--level", "easy", "--time", "0.2", *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        engine = _Engine(process)
        assert engine.expect("hello") == "hello"
        yield engine
        engine.send("finish 1")
        engine.send("goodbye")
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_otep_engine_plays_a_short_game_as_a_subprocess() -> None:
    with _otep_engine() as engine:
        game = Game("brandubh")
        engine.send("rules " + game.variant.otn_rules())
        engine.send("side defenders")
        for _ in range(3):
            ours = game.legal_moves()[0].text(7)
            game.play(ours)
            engine.send(f"opponent-move {ours} {game.position_otn()}")
            engine.send("play defenders")
            engine.send("clock 60000 60000 0 0 0")
            reply = engine.expect("move ").split()[1]
            game.play(reply)  # raises if the engine's move is illegal
            engine.send(f"move {game.position_otn()}")
        engine.send("analyze 2 0.2")
        assert engine.expect("analysis ").split()[1] in ("1", "2")
        engine.send("rules dim:13 start:/13/13/13/13/13/13/13/13/13/13/13/13/13/")
        assert engine.expect("error -1").startswith("error -1 cannot play these rules")


def test_otep_engine_plays_copenhagen_from_opentafl_record_as_a_subprocess() -> None:
    with _otep_engine() as engine:
        engine.send("rules " + OPENTAFL_COPENHAGEN)
        game = Game("copenhagen")
        for _ in range(3):
            # The engine has the attackers, who move first in Copenhagen.
            engine.send("play attackers")
            engine.send("clock 60000 60000 0 0 0")
            reply = engine.expect("move ").split()[1]
            game.play(reply)  # raises if the engine's move is illegal
            engine.send(f"move {game.position_otn()}")
            ours = game.legal_moves()[0].text(11)
            game.play(ours)
            engine.send(f"opponent-move {ours} {game.position_otn()}")
        # OpenTafl's record needed no note about differences, and no move was refused.
        assert not [line for line in engine.lines if line.startswith(("status playing", "error"))]
        engine.send(f"rules dim:9 sw:s start:{_NINE}")
        assert "shieldwall captures" in engine.expect("error -1 cannot play these rules")


@pytest.mark.parametrize(
    ("options", "repeats"),
    [((), False), (("--repetition", "opentafl"), False), (("--repetition", "project"), True)],
)
def test_the_host_says_how_copenhagens_repetition_is_read(
    options: tuple[str, ...], repeats: bool
) -> None:
    # The engine has the attackers; both sides have shuttled a piece twice, so the attackers'
    # b1-c1 makes the third occurrence of the position after their first move. By OpenTafl's
    # reading of tfr:w (the default) that loses them the game; by our rules it wins it.
    game = Game("copenhagen")
    with _otep_engine(*options) as engine:
        engine.send("rules " + OPENTAFL_COPENHAGEN)
        game.play("d1-c1")
        engine.send(f"opponent-move d1-c1 {game.position_otn()}")
        shuttle = ["f4-f3", "c1-b1", "f3-f4", "b1-c1", "f4-f3", "c1-b1", "f3-f4"]
        for text in shuttle:
            game.play(text)
        assert game.outcome is None
        engine.send(f"opponent-move {'|'.join(shuttle)} {game.position_otn()}")
        engine.send("play attackers")
        reply = engine.expect("move ").split()[1]
    assert (reply == "b1-c1") is repeats
    game.play(reply)
    # Our rules, refereeing, give the repetition to the attackers whoever makes it.
    assert game.outcome == (
        Outcome(Side.ATTACKERS, Termination.PERPETUAL_REPETITION) if repeats else None
    )


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


def test_an_untimed_game_waits_for_a_clock_after_its_first_play_only() -> None:
    # OpenTafl sends ``clock`` just after ``play`` in a timed game, so the engine waits a
    # moment for it; a game that has shown it has no clock is not kept waiting every move.
    # Whether the engine waited shows in the queue: a clock waiting there is taken before
    # the move when it waits, and left for after the move when it does not.
    lines: queue.Queue[str | None] = queue.Queue()
    out = io.StringIO()
    engine = OtepEngine(out, get_level("easy"), lines=lines)
    game = Game("brandubh")

    def play() -> None:
        engine.handle("play attackers")
        reply = out.getvalue().split()[-1]
        game.play(reply)
        engine.handle(f"move {game.position_otn()}")
        ours = game.legal_moves()[0].text(7)
        game.play(ours)
        engine.handle(f"opponent-move {ours} {game.position_otn()}")

    engine.handle("rules " + game.variant.otn_rules())
    play()  # no clock follows: the game is untimed
    lines.put("clock 60000 60000 0 0 0")
    play()
    assert lines.qsize() == 1  # not waited for
    assert engine.clock.main == (None, None)
    engine.handle(lines.get())  # a clock after all: the game is timed
    lines.put("clock 50000 60000 0 0 0")
    play()
    assert lines.empty()  # taken while the engine waited, before its move
    assert engine.clock.main == (50.0, 60.0)
    engine.handle("rules " + game.variant.otn_rules())  # a new game: it waits again
    game = Game("brandubh")
    lines.put("clock 40000 60000 0 0 0")
    play()
    assert lines.empty()
    assert engine.clock.main == (40.0, 60.0)
