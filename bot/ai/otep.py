"""The engine side of the OpenTafl Engine Protocol (OTEP), over stdin/stdout.

Run it as ``python -m bot.ai otep``. A reader thread queues the host's lines so that a
``finish`` or ``goodbye`` arriving mid-search stops the search at once, and so that the
``clock`` line OpenTafl sends right after ``play`` can still set this move's budget.

A Copenhagen record's threefold repetition (``tfr:w``) is read as OpenTafl reads it, unless the
host says it referees by this project's rules (``--repetition project``: see
:class:`~bot.ai.otn_rules.RepetitionReading`).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import TextIO

from bot.engine.board import Board
from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.otn import format_position, parse_position
from bot.engine.types import Side
from bot.engine.variants import Variant

from .levels import Level, get_level
from .otn_rules import RepetitionReading, RulesError, match_rules
from .player import move_text, think
from .search import MATE_BOUND

_STOPPING = ("finish", "goodbye", "rules", "quit")


@dataclass
class Clock:
    """Time left as the last ``clock`` command gave it (seconds; ``None`` when untimed)."""

    main: tuple[float | None, float | None] = (None, None)
    overtime: tuple[bool, bool] = (False, False)
    period: float = 0.0
    periods: tuple[int, int] = (0, 0)

    def budget(self, side: Side, default: float, cap: float | None = None) -> float:
        """Seconds to spend on this move for ``side``.

        Without a clock the answer is ``default``. With one, the host's time control decides,
        so that at equal time the engine uses what its opponent may: a share of the main time
        (a game lasts a few dozen moves each) plus most of one overtime period, never more than
        ``cap`` when one is given.
        """
        index = 0 if side is Side.ATTACKERS else 1
        left = self.main[index]
        if left is None:
            return default if cap is None else min(default, cap)
        period = max(0.0, self.period * 0.85 - 0.15) if self.periods[index] > 0 else 0.0
        if self.overtime[index] or left <= 0:
            seconds = period if period else 0.5
        else:
            seconds = min(left / 25 + period, left * 0.5 + period)
        if cap is not None:
            seconds = min(seconds, cap)
        return max(0.05, seconds)

    @classmethod
    def parse(cls, words: list[str]) -> Clock:
        """The clock of a ``clock <att-ms>[*] <def-ms>[*] <overtime-s> <att-n> <def-n>`` line."""

        def millis(word: str) -> tuple[float | None, bool]:
            value = float(word.rstrip("*"))
            return (None if value < 0 else value / 1000.0), word.endswith("*")

        att, att_over = millis(words[0])
        dfn, dfn_over = millis(words[1])
        period = float(words[2]) if len(words) > 2 else 0.0
        periods = (
            int(words[3]) if len(words) > 3 else 0,
            int(words[4]) if len(words) > 4 else 0,
        )
        return cls((att, dfn), (att_over, dfn_over), period, periods)


class OtepEngine:
    """One engine session: holds the rules, the game and the clock, answers commands."""

    def __init__(
        self,
        out: TextIO,
        level: Level,
        *,
        lines: queue.Queue[str | None] | None = None,
        time_cap: float | None = None,
        repetition: RepetitionReading = RepetitionReading.OPENTAFL,
    ) -> None:
        self.out = out
        self.repetition = repetition
        """How the rules records' threefold repetition is read (the host's referee's way)."""
        self.level = level
        self.time_cap = time_cap
        """Most seconds a move may take whatever the clock allows (``--time``)."""
        self.lines = lines
        self.variant: Variant | None = None
        self.game: Game | None = None
        self.hashes: list[int] = []
        self.clock = Clock()
        self.untimed = False
        """Whether this game has shown it has no clock: a ``play`` came with none after it,
        and no ``clock`` since."""
        self.pending: str | None = None
        self.abort = threading.Event()

    # ------------------------------------------------------------------ output

    def send(self, line: str) -> None:
        """Write one protocol line."""
        self.out.write(line + "\n")
        self.out.flush()

    # ------------------------------------------------------------------ commands

    def handle(self, line: str) -> bool:
        """Answer one host command; returns ``False`` when the engine should exit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        try:
            if command == "goodbye":
                return False
            if command == "rules":
                self._rules(" ".join(args))
            elif command == "position" and args:
                self._position(args[0], None)
            elif command == "side" and args:
                self._position(None, Side.parse(args[0]))
            elif command == "clock" and len(args) >= 2:
                self.clock = Clock.parse(args)
                self.untimed = False
            elif command == "play" and args:
                self._play(Side.parse(args[0]))
            elif command == "opponent-move" and args:
                self._opponent_move(args[0].split("|"), args[1] if len(args) > 1 else None)
            elif command == "move" and args:
                self._accepted(args[0])
            elif command == "error":
                self.pending = None
                self.send(f"status move refused by the host (error {' '.join(args)})")
            elif command == "analyze" and len(args) >= 2:
                self._analyze(int(args[0]), float(args[1]))
            elif command == "finish":
                self.game = None
                self.pending = None
            # hello, start, simple-moves and anything newer need no answer.
        except (TaflError, ValueError) as error:
            self.send(f"error 0 {command}: {' '.join(str(error).split())}")
        return True

    def _rules(self, record: str) -> None:
        try:
            match = match_rules(record, self.repetition)
        except RulesError as error:
            self.variant = None
            self.game = None
            self.send(f"error -1 cannot play these rules: {error}")
            return
        self.variant = match.variant
        self.game = Game(match.variant, match.start_position, match.first)
        self.untimed = False
        self.hashes = [self.game.board.hash]
        if match.warnings:
            self.send(
                f"status playing {match.variant.name}; differences: {'; '.join(match.warnings)}"
            )

    def _require_game(self) -> Game:
        if self.game is None:
            if self.variant is None:
                raise ValueError("no rules yet: send 'rules <OTN rules>' first")
            self.game = Game(self.variant)
            self.hashes = [self.game.board.hash]
        return self.game

    def _position(self, position: str | None, turn: Side | None) -> None:
        game = self._require_game()
        cells = parse_position(position, game.size) if position else list(game.board.cells)
        side = turn if turn is not None else game.turn
        if position is None and side is game.turn:
            return
        self.game = Game(game.variant, format_position(cells, game.size), side)
        self.hashes = [self.game.board.hash]

    def _sync(self, position: str | None, turn: Side) -> None:
        """Trust the host: if our game disagrees with its position, restart from it."""
        game = self._require_game()
        if position is not None and game.position_otn() != format_position(
            parse_position(position, game.size), game.size
        ):
            self._position(position, turn)
        elif game.turn is not turn or game.is_over:
            self._position(game.position_otn(), turn)

    def _opponent_move(self, moves: list[str], position: str | None) -> None:
        game = self._require_game()
        mover = game.turn
        for text in moves:
            try:
                game.play(text)
                self.hashes.append(game.board.hash)
            except TaflError:
                break
        self._sync(position, mover.other)

    def _accepted(self, position: str) -> None:
        game = self._require_game()
        mover = game.turn
        if self.pending is not None:
            try:
                game.play(self.pending)
                self.hashes.append(game.board.hash)
            except TaflError:
                pass
        self.pending = None
        self._sync(position, mover.other)

    def _wait_for_clock(self) -> None:
        """OpenTafl sends ``clock`` just after ``play`` in a timed game: take it if it comes
        promptly. Once a game has shown it is untimed (a ``play`` with no clock after it, and
        none since) it is not waited for: an untimed game loses the wait on its first move
        only."""
        if self.lines is None or self.untimed:
            return
        deadline = time.monotonic() + 0.2
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.untimed = True
                return
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                self.untimed = True
                return
            if line is None:
                self.lines.put(None)
                return
            words = line.split()
            if words and words[0].lower() == "clock" and len(words) >= 3:
                self.clock = Clock.parse(words[1:])
                return
            # Anything else is handled after the move, in order.
            self._requeue_front(line)
            return

    def _requeue_front(self, line: str) -> None:
        assert self.lines is not None
        rest: list[str | None] = [line]
        while True:
            try:
                rest.append(self.lines.get_nowait())
            except queue.Empty:
                break
        for item in rest:
            self.lines.put(item)

    def _play(self, side: Side) -> None:
        game = self._require_game()
        if game.turn is not side or game.is_over:
            self._position(game.position_otn(), side)
            game = self._require_game()
        self._wait_for_clock()
        self.abort.clear()
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        result = think(
            board,
            self.level,
            history=self.hashes[:-1],
            time_limit=self.clock.budget(side, self.level.time_limit, self.time_cap),
            stop=self.abort.is_set,
        )
        if result.move is None:
            self.send("status no legal move")
            return
        text = move_text(result.move, game.size)
        self.pending = text
        self.send(f"status depth {result.depth} score {result.score} nodes {result.nodes}")
        self.send(f"move {text}")

    def _analyze(self, count: int, seconds: float) -> None:
        game = self._require_game()
        board = Board(game.variant, list(game.board.cells), game.board.turn)
        self.abort.clear()
        result = think(
            board, self.level, history=self.hashes[:-1], time_limit=seconds, stop=self.abort.is_set
        )
        if result.move is None:
            self.send("analysis 0")
            return
        size = game.size
        entries = ["|".join(move_text(m, size) for m in result.pv), _score_text(result.score)]
        others = sorted(
            ((score, move) for move, score in result.root_scores.items() if move != result.move),
            reverse=True,
        )
        for score, move in others[: max(0, count - 1)]:
            entries += [move_text(move, size), _score_text(score)]
        self.send(f"analysis {len(entries) // 2} {' '.join(entries)}")


def _score_text(score: int) -> str:
    if abs(score) > MATE_BOUND:
        return "win" if score > 0 else "loss"
    return str(score)


def run(
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    level: Level | str = "master",
    time_cap: float | None = None,
    repetition: RepetitionReading = RepetitionReading.OPENTAFL,
) -> None:
    """Serve one OTEP session on these streams until ``goodbye`` or end of input.

    Without a ``clock`` from the host each move takes the level's time; with one, the clock
    sets the budget (at most ``time_cap`` seconds when given). ``repetition`` is how the
    rules records' threefold repetition is read: as the host referees it.
    """
    chosen = get_level(level) if isinstance(level, str) else level
    if time_cap is not None:
        chosen = chosen.with_time(time_cap)
    lines: queue.Queue[str | None] = queue.Queue()
    engine = OtepEngine(stdout, chosen, lines=lines, time_cap=time_cap, repetition=repetition)

    def read() -> None:
        for raw in stdin:
            line = raw.strip()
            if line.split()[:1] and line.split()[0].lower() in _STOPPING:
                engine.abort.set()  # stop a running search: its answer is no longer wanted
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="otep-reader", daemon=True).start()
    engine.send("hello")
    while True:
        line = lines.get()
        if line is None or not engine.handle(line):
            break
