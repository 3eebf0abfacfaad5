"""Matches between OTEP engines, refereed by this project's rules engine.

    python -m bot.ai.lab.match --variant tablut --games 30 --seconds 2 \\
        --a "python -m bot.ai otep --level master" --b "/path/to/another-engine"

Each game starts both engines afresh as OpenTafl Engine Protocol (OTEP) engines, plays a short
random opening shared by a pair of games with the sides swapped, then asks each engine for its
moves in turn and checks every move with our rules. The engines get the same fixed time per
move (``--seconds``; ours through ``--time`` in its command line, another through its own
settings), and the runner reports how long each really took, so the time is seen to be equal.
Without ``--clock`` no clock is sent, because OpenTafl's engine reads a clock as a whole game's
time control rather than a time per move; with it, the clock follows each ``play``, as
OpenTafl's own host sends it.

Only games both engines played to the end under the same rules are scored. A game is void, said
so with its reason and played again from the same opening (``--replays`` times at most), when an
engine crashes, stops answering or gives up (``error -1``), when it plays a move our rules
refuse (its rules and ours disagree), or when it ends by a repetition that the rules record the
engines were given scores otherwise (OTN's ``tfr`` value, read as OpenTafl reads it, against our
rules: in Copenhagen ``tfr:w`` gives the third occurrence to the side that did not repeat, ours
to the attackers). Engines told to read the record by our rules (ours with ``--repetition
project``, or builds of it older than that option) are declared with ``--engines-repetition
project``: their repetitions are then scored by our rules, never voided. Before each ``play``
the runner waits for the engine to fall silent, so that an engine still printing about its last
search is not asked for the next one mid-stream.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.types import Side, Termination
from bot.engine.variants import get_variant, with_first_repetition, with_opentafl_repetition

from ..otn_rules import RepetitionReading, parse_rules
from .arena import MatchScore, random_opening


class EngineFailure(Exception):
    """An engine broke the protocol, stopped answering or exited; the message says how."""


@dataclass(frozen=True)
class EngineSpec:
    """How to start one OTEP engine: a command line, run in ``directory``."""

    command: str
    name: str
    directory: str | None = None


class EngineProcess:
    """One running OTEP engine, read line by line by a thread so that waits can time out."""

    def __init__(self, spec: EngineSpec, log: IO[str] | None = None) -> None:
        self.spec = spec
        self.log = log
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.statuses: list[str] = []
        self.process = subprocess.Popen(
            shlex.split(spec.command),
            cwd=spec.directory,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            text=True,
            errors="replace",
            bufsize=1,
            # Its own process group: an engine started through a wrapper script is stopped
            # with everything the script started.
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, name=f"otep-{spec.name}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        for raw in stdout:
            self.lines.put(raw.strip())
        self.lines.put(None)

    def _note(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def send(self, line: str) -> None:
        """Send one command (an engine that already exited is reported when next read)."""
        self._note(f"{self.spec.name} << {line}")
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def expect(self, command: str, timeout: float) -> str:
        """The next line that starts with ``command``; other lines are logged and kept."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineFailure(f"{self.spec.name} sent no '{command}' within {timeout:g} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                try:
                    code: int | None = self.process.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    code = None
                raise EngineFailure(f"{self.spec.name} exited (status {code})")
            self._note(f"{self.spec.name} >> {line}")
            word = line.split()[0] if line.split() else ""
            if word == command:
                return line
            if word == "status":
                self.statuses.append(line[7:])
            elif word == "error" and line.split()[1:2] == ["-1"]:
                raise EngineFailure(f"{self.spec.name} gave up: {line}")

    def settle(self, quiet: float = 0.2, most: float = 5.0) -> None:
        """Wait until the engine has said nothing for ``quiet`` seconds (``most`` at most),
        keeping what it said: an engine still printing about its last search must not be
        asked for the next one mid-stream (OpenTafl's engine can crash so)."""
        deadline = time.monotonic() + most
        while True:
            wait = min(quiet, deadline - time.monotonic())
            if wait <= 0:
                return
            try:
                line = self.lines.get(timeout=wait)
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)  # the exit is reported when next read
                return
            self._note(f"{self.spec.name} >> {line}")
            words = line.split()
            if words[:1] == ["status"]:
                self.statuses.append(line[7:])
            elif words[:2] == ["error", "-1"]:
                raise EngineFailure(f"{self.spec.name} gave up: {line}")

    def close(self) -> None:
        """Say goodbye and make sure the process is gone."""
        self.send("goodbye")
        stdin = self.process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            self.process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@dataclass
class EngineGame:
    """One refereed game: its moves, how it ended and how long each side thought."""

    opening: list[str]
    moves: list[str] = field(default_factory=list)
    winner: Side | None = None
    ending: str = "unfinished"
    void: str | None = None
    """Why the game cannot be scored (an engine failed, or the rules were read differently)."""
    think_times: dict[Side, list[float]] = field(
        default_factory=lambda: {Side.ATTACKERS: [], Side.DEFENDERS: []}
    )

    def mean_time(self, side: Side) -> float:
        """Mean seconds per move of ``side`` (0 when it made none)."""
        times = self.think_times[side]
        return sum(times) / len(times) if times else 0.0


_FINISH = {None: 1, Side.ATTACKERS: 2, Side.DEFENDERS: 3}


def otn_repetition_winner(record: str, mover: Side) -> Side | str | None:
    """Who wins by a third occurrence of a position under an OTN rules record, as OpenTafl
    reads its ``tfr`` value, when ``mover``'s move made it: ``w`` gives it to the side to move
    next (OpenTafl's ``GameState`` checks the new position's side), ``l`` to the mover, ``d``
    is a draw (``None``); ``"none"`` when the record ignores repetitions (``i``)."""
    value = parse_rules(record).get("tfr", "d").lower()
    if value == "w":
        return mover.other
    if value == "l":
        return mover
    if value == "i":
        return "none"
    return None


def _disputed(game: Game, record: str, reading: RepetitionReading) -> str | None:
    """Why a game our rules ended by repetition would end otherwise under the rules record
    the engines were given, read the engines' way (``None`` when both read it the same)."""
    outcome = game.outcome
    if outcome is None or outcome.termination not in (
        Termination.REPETITION,
        Termination.PERPETUAL_REPETITION,
    ):
        return None
    mover = game.history[-1].side
    if reading is RepetitionReading.PROJECT and game.variant.rules.repetition_winner is not None:
        theirs: Side | str | None = game.variant.rules.repetition_winner
    else:
        theirs = otn_repetition_winner(record, mover)
    if theirs == outcome.winner:
        return None
    if isinstance(theirs, Side):
        read = f"a win for the {theirs.value}"
    else:
        read = "a draw" if theirs is None else "no ending"
    ours = "a draw" if outcome.winner is None else f"a win for the {outcome.winner.value}"
    return (
        f"rules disagreement: the {mover.value}' move repeated the position a third time, "
        f"{ours} by our rules but {read} by the rules record sent"
    )


def play_engine_game(
    variant_name: str,
    attackers: EngineSpec,
    defenders: EngineSpec,
    *,
    opening: list[str],
    seconds: float,
    max_plies: int = 200,
    clock: bool = False,
    first_repetition: bool = False,
    opentafl_repetition: bool = False,
    engines_repetition: RepetitionReading = RepetitionReading.OPENTAFL,
    log: IO[str] | None = None,
) -> EngineGame:
    """Play one game between two OTEP engines from ``opening`` and referee it; a game that
    cannot be scored comes back with :attr:`EngineGame.void` saying why.

    ``engines_repetition`` is how both engines read the rules record's repetition: a game our
    rules end by a repetition they read otherwise is void.
    """
    variant = get_variant(variant_name)
    rules = variant.otn_rules()
    if first_repetition:
        variant = with_first_repetition(variant)
    if opentafl_repetition:
        variant = with_opentafl_repetition(variant)
    game = Game(variant)
    record = EngineGame(list(opening))
    for text in opening:
        game.play(text)
    played = list(opening)
    specs = {Side.ATTACKERS: attackers, Side.DEFENDERS: defenders}
    engines: dict[Side, EngineProcess] = {}
    told = {Side.ATTACKERS: 0, Side.DEFENDERS: 0}
    # An engine may run late now and then on a loaded machine; far beyond it has failed.
    patience = seconds * 3 + 10
    for side, spec in specs.items():
        engines[side] = EngineProcess(spec, log)
    try:
        for engine in engines.values():
            # An engine that cannot even start is set up wrongly: the match stops.
            engine.expect("hello", 30)
    except EngineFailure:
        for engine in engines.values():
            engine.close()
        raise
    try:
        for engine in engines.values():
            engine.send(f"rules {rules}")
        while game.outcome is None and game.ply < max_plies:
            side = game.turn
            engine = engines[side]
            name = specs[side].name
            engine.settle()
            unseen = played[told[side] :]
            if unseen:
                engine.send(f"opponent-move {'|'.join(unseen)} {game.position_otn()}")
            started = time.monotonic()
            engine.send(f"play {side.value}")
            if clock:
                millis = int(seconds * 1000)
                engine.send(f"clock {millis * 40} {millis * 40} {seconds:g} 3 3")
            line = engine.expect("move", patience)
            record.think_times[side].append(time.monotonic() - started)
            words = line.split()
            text = words[1] if len(words) > 1 else ""
            try:
                game.play(text)
            except (TaflError, ValueError) as error:
                record.void = (
                    f"rules disagreement: our rules refuse {name}'s move {text!r} ({error})"
                )
                break
            played.append(text)
            record.moves.append(text)
            told[side] = len(played)
            engine.send(f"move {game.position_otn()}")
        if record.void is None:
            record.void = _disputed(game, rules, engines_repetition)
        if record.void is None:
            if game.outcome is not None:
                record.winner = game.outcome.winner
                record.ending = game.outcome.termination.value
            else:
                record.ending = f"no result after {max_plies} plies (a draw)"
        for engine in engines.values():
            engine.send(f"finish {_FINISH[record.winner]}")
    except EngineFailure as failure:
        record.void = f"engine failure: {failure}"
    finally:
        for engine in engines.values():
            engine.close()
    if record.void is not None:
        record.winner = None
        record.ending = f"void ({record.void})"
    return record


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: which engine attacks, from which opening."""

    index: int
    a_attacks: bool
    opening: tuple[str, ...]


def run_engine_match(
    variant: str,
    a: EngineSpec,
    b: EngineSpec,
    games: int,
    *,
    seconds: float,
    seed: int = 1,
    opening_plies: int = 4,
    max_plies: int = 200,
    jobs: int = 1,
    clock: bool = False,
    first_repetition: bool = False,
    opentafl_repetition: bool = False,
    engines_repetition: RepetitionReading = RepetitionReading.OPENTAFL,
    replays: int = 2,
    records: Path | None = None,
    logs: Path | None = None,
    echo: bool = True,
) -> MatchScore:
    """Play ``games`` games between engines A and B (pairs share an opening); A's score.

    A void game is reported and played again from its opening, ``replays`` times at most; one
    still void then is left unscored (see :attr:`MatchScore.void`)."""
    rng = random.Random(seed)
    plan = []
    opening: list[str] = []
    for index in range(games):
        if index % 2 == 0:
            opening = random_opening(variant, opening_plies, rng)
        plan.append(MatchGame(index, index % 2 == 0, tuple(opening)))
    score = MatchScore()
    lock = threading.Lock()
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)

    def attempt(item: MatchGame, number: int) -> tuple[EngineGame, float]:
        attackers, defenders = (a, b) if item.a_attacks else (b, a)
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            log = None
            if logs is not None:
                name = f"game-{item.index + 1}" + (f"-replay-{number}" if number else "")
                log = stack.enter_context(open(logs / f"{name}.log", "w"))
            result = play_engine_game(
                variant,
                attackers,
                defenders,
                opening=list(item.opening),
                seconds=seconds,
                max_plies=max_plies,
                clock=clock,
                first_repetition=first_repetition,
                opentafl_repetition=opentafl_repetition,
                engines_repetition=engines_repetition,
                log=log,
            )
        return result, time.monotonic() - started

    def write(item: MatchGame, result: EngineGame, number: int) -> None:
        if records is None:
            return
        with records.open("a") as out:
            out.write(
                json.dumps(
                    {
                        "game": item.index + 1,
                        "replay": number,
                        "variant": variant,
                        "attackers": (a if item.a_attacks else b).name,
                        "defenders": (b if item.a_attacks else a).name,
                        "opening": result.opening,
                        "moves": result.moves,
                        "winner": result.winner.value if result.winner else None,
                        "ending": result.ending,
                        "void": result.void,
                    }
                )
                + "\n"
            )

    def play(item: MatchGame) -> None:
        a_side = Side.ATTACKERS if item.a_attacks else Side.DEFENDERS
        for number in range(replays + 1):
            result, elapsed = attempt(item, number)
            plies = len(result.opening) + len(result.moves)
            label = f"game {item.index + 1}" + (f" (replay {number})" if number else "")
            head = f"{label}: {a.name} as {a_side.value}, opening {' '.join(item.opening)}"
            if result.void is not None:
                with lock:
                    write(item, result, number)
                    again = "played again" if number < replays else "left unscored"
                    if number == replays:
                        score.void += 1
                    if echo:
                        print(
                            f"{head}: VOID after {plies} plies, {again}: {result.void}",
                            flush=True,
                        )
                continue
            if result.winner is None:
                points, verdict = 0.5, "draw"
            elif result.winner is a_side:
                points, verdict = 1.0, f"{a.name} wins"
            else:
                points, verdict = 0.0, f"{b.name} wins"
            with lock:
                score.add(points, item.a_attacks)
                write(item, result, number)
                if echo:
                    a_time = result.mean_time(a_side)
                    b_time = result.mean_time(a_side.other)
                    print(
                        f"{head}: {verdict} ({result.ending}) after {plies} plies, "
                        f"{elapsed:.0f} s; {a.name} {a_time:.2f} s/move, {b.name} "
                        f"{b_time:.2f} s/move | running {score.summary()}",
                        flush=True,
                    )
            return

    if jobs > 1:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play, item) for item in plan]
            try:
                for future in as_completed(futures):
                    future.result()
            except BaseException:
                # An engine that cannot start stops the match now, not after the rest.
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    else:
        for item in plan:
            play(item)
    return score


def _spec(text: str, name: str, directory: str | None) -> EngineSpec:
    words = shlex.split(text)
    if words and words[0] == "python":
        # The interpreter running the match, so that ``python -m bot.ai otep`` needs no venv path.
        words[0] = sys.executable
    return EngineSpec(shlex.join(words), name, directory)


def main(argv: list[str] | None = None) -> int:
    """Run a match from the command line and print the score."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.lab.match",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant", default="tablut")
    parser.add_argument("--a", required=True, help="command line of engine A")
    parser.add_argument("--b", required=True, help="command line of engine B")
    parser.add_argument("--a-name", default="A", help="what to call engine A")
    parser.add_argument("--b-name", default="B", help="what to call engine B")
    parser.add_argument("--a-dir", help="directory engine A runs in")
    parser.add_argument("--b-dir", help="directory engine B runs in")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds per move both engines are set to (for the report "
                        "and the time-out; each engine's own command sets its time)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="games at once")
    parser.add_argument(
        "--clock",
        action="store_true",
        help="also send a clock after each play: 40 moves' time, 3 periods",
    )
    parser.add_argument("--first-repetition", action="store_true",
                        help="referee a repetition as the Tablut Challenge's server does: the "
                        "first return to a position is a draw")  # fmt: skip
    parser.add_argument("--opentafl-repetition", action="store_true",
                        help="referee a repetition as OpenTafl reads the record's tfr:w: the "
                        "side whose move makes the third occurrence loses")  # fmt: skip
    parser.add_argument("--engines-repetition",
                        choices=[reading.value for reading in RepetitionReading],
                        default=RepetitionReading.OPENTAFL.value,
                        help="how both engines read the rules record's repetition (tfr:w): "
                        "'opentafl' (default: the side whose move makes the third occurrence "
                        "loses) or 'project' (ours: the attackers win it; our engine with "
                        "--repetition project). A repetition they read otherwise than the "
                        "referee voids the game")  # fmt: skip
    parser.add_argument("--replays", type=int, default=2,
                        help="how often a void game is played again before it is left "
                        "unscored")  # fmt: skip
    parser.add_argument("--records", type=Path, help="append each game as a JSON line here")
    parser.add_argument("--logs", type=Path, help="write each game's protocol log here")
    args = parser.parse_args(argv)
    a = _spec(args.a, args.a_name, args.a_dir)
    b = _spec(args.b, args.b_name, args.b_dir)
    print(
        f"{args.variant}: {a.name} ({a.command}) vs {b.name} ({b.command}), "
        f"{args.games} games at {args.seconds:g} s a move",
        flush=True,
    )
    try:
        score = run_engine_match(
            args.variant,
            a,
            b,
            args.games,
            seconds=args.seconds,
            seed=args.seed,
            opening_plies=args.opening_plies,
            max_plies=args.max_plies,
            jobs=args.jobs,
            clock=args.clock,
            first_repetition=args.first_repetition,
            opentafl_repetition=args.opentafl_repetition,
            engines_repetition=RepetitionReading(args.engines_repetition),
            replays=args.replays,
            records=args.records,
            logs=args.logs,
        )
    except EngineFailure as failure:
        print(f"match stopped: {failure}", file=sys.stderr)
        return 1
    print(f"RESULT {args.variant} {a.name} vs {b.name}: {score.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
