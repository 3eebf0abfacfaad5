"""The recorded Copenhagen Hnefatafl games of ``tests/data/copenhagen-games.csv``, and their replay.

:func:`load_games` reads the records (format in ``tests/data/README.md``); :func:`replay` plays one
of them with ``bot.engine.Game("copenhagen")`` and reports whether every move was legal, whether
every move captured exactly the recorded pieces and whether the engine ended the game before its
last recorded move. Run ``python tests/copenhagen_records.py`` for a summary of all games, or
``python tests/copenhagen_records.py 17 230`` for the problems of games 17 and 230 with boards.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # run as a script: import this checkout's engine, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game, GameOverError, Piece, TaflError, square_name

DATA = Path(__file__).resolve().parent / "data" / "copenhagen-games.csv"
VARIANT = "copenhagen"
SIZE = 11
RESULTS = frozenset({"White", "Black", "Draw", "Ongoing"})

RecordedMove = tuple[str, frozenset[str]]
"""A recorded move: its ``from-to`` text and the names of the squares it captured."""


@dataclass(frozen=True)
class RecordedGame:
    """One line of the CSV: a game as aagenielsen.dk recorded it."""

    index: int
    """The line number in the CSV, from 1."""
    moves: list[RecordedMove]
    """The moves in order (attackers first), each with the squares it captured (never the king)."""
    result: str
    """``White`` (defenders won), ``Black`` (attackers won), ``Draw`` or ``Ongoing``."""
    timeout: bool = False
    """The record ends with ``timeout``: the side to move after the last move ran out of time."""


@dataclass(frozen=True)
class IllegalMove:
    """A recorded move the engine refused."""

    ply: int
    move: str
    error: str
    position: str
    """The position (OTN) the move was tried in."""


@dataclass(frozen=True)
class CaptureMismatch:
    """A move whose recorded captures differ from the engine's."""

    ply: int
    move: str
    recorded: frozenset[str]
    engine: frozenset[str]
    position: str
    """The position (OTN) before the move."""

    @property
    def missing(self) -> frozenset[str]:
        """Captures the record has and the engine did not make."""
        return self.recorded - self.engine

    @property
    def extra(self) -> frozenset[str]:
        """Captures the engine made and the record does not have."""
        return self.engine - self.recorded


@dataclass(frozen=True)
class EarlyEnding:
    """The engine ended the game on a recorded move that is not the last one."""

    ply: int
    termination: str
    winner: str
    """``attackers``, ``defenders`` or ``draw``."""
    position: str
    """The position (OTN) after the ending move."""


@dataclass
class ReplayReport:
    """What replaying one recorded game showed."""

    index: int
    recorded_plies: int
    played: int = 0
    """How many recorded moves the engine played."""
    captures_checked: int = 0
    """How many recorded captures (squares) were compared with the engine's."""
    illegal: IllegalMove | None = None
    mismatches: list[CaptureMismatch] = field(default_factory=list)
    """Every move whose captures differ (the replay goes on, on the engine's board)."""
    early: EarlyEnding | None = None
    final_termination: str | None = None
    """How the engine ended the game, if it did (on the last recorded move or earlier)."""

    @property
    def legal(self) -> bool:
        """Whether every move the engine was asked to play was legal."""
        return self.illegal is None

    @property
    def first_mismatch(self) -> CaptureMismatch | None:
        """The first move whose captures differ, if any."""
        return self.mismatches[0] if self.mismatches else None

    @property
    def ok(self) -> bool:
        """No illegal move and no capture mismatch (an early ending is judged by the caller)."""
        return self.illegal is None and not self.mismatches

    def problems(self) -> list[str]:
        """One line per illegal move or capture mismatch."""
        lines = [
            f"game {self.index} ply {m.ply} {m.move}: captures recorded {_names(m.recorded)}, "
            f"engine {_names(m.engine)}"
            for m in self.mismatches
        ]
        if self.illegal is not None:
            lines.append(
                f"game {self.index} ply {self.illegal.ply} {self.illegal.move}: illegal: "
                f"{self.illegal.error}"
            )
        return lines


def _names(squares: Iterable[str]) -> str:
    return "{" + ", ".join(sorted(squares)) + "}"


_MOVE_RE = re.compile(r"([a-k](?:1[01]|[1-9]))-([a-k](?:1[01]|[1-9]))((?:x[a-k](?:1[01]|[1-9]))*)")


def parse_move(text: str) -> RecordedMove:
    """Split ``a8-b8xb7xc7`` into ``("a8-b8", frozenset({"b7", "c7"}))``.

    A capture marked twice (``e7-k7xk6xk6``: 240 moves, see tests/data/README.md) counts once.
    """
    match = _MOVE_RE.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a recorded move")
    origin, target, captures = match.groups()
    return f"{origin}-{target}", frozenset(captures.split("x")[1:])


def parse_line(line: str, index: int) -> RecordedGame:
    """Read one CSV line (``moves,<attackers' captures>,<defenders' captures>,<result>``)."""
    fields = line.rstrip("\r\n").split(",")
    if len(fields) != 4:
        raise ValueError(f"line {index}: expected 4 comma-separated fields, got {len(fields)}")
    text, attackers, defenders, result = fields
    if result not in RESULTS:
        raise ValueError(f"line {index}: unknown result {result!r}")
    words = text.split()
    timeout = bool(words) and words[-1] == "timeout"
    if timeout:
        words.pop()
    moves = [parse_move(word) for word in words]
    counted = (  # the counts include the doubled marks
        sum(word.count("x") for word in words[0::2]),
        sum(word.count("x") for word in words[1::2]),
    )
    if counted != (int(attackers), int(defenders)):
        raise ValueError(
            f"line {index}: capture counts {attackers},{defenders} but the moves mark {counted}"
        )
    return RecordedGame(index=index, moves=moves, result=result, timeout=timeout)


def load_games(path: Path = DATA) -> list[RecordedGame]:
    """Every game of the CSV, in file order."""
    with path.open(encoding="utf-8") as handle:
        return [parse_line(line, index) for index, line in enumerate(handle, 1) if line.strip()]


def replay(recorded: RecordedGame) -> ReplayReport:
    """Play ``recorded`` with the engine and say where it disagrees with the record.

    Stops at an illegal move or when the engine ends the game (the rest is not played); after a
    capture mismatch it goes on, on the engine's board.
    """
    report = ReplayReport(index=recorded.index, recorded_plies=len(recorded.moves))
    game = Game(VARIANT)
    last = len(recorded.moves)
    for ply, (move, recorded_captures) in enumerate(recorded.moves, 1):
        if game.outcome is not None:  # cannot happen: an ending stops the loop below
            raise GameOverError(f"game {recorded.index} ply {ply}: the game is already over")
        try:
            result = game.play(move)
        except TaflError as error:
            report.illegal = IllegalMove(ply, move, str(error), game.position_otn())
            return report
        report.played = ply
        report.captures_checked += len(recorded_captures)
        engine = frozenset(square_name(sq, SIZE) for sq in result.captures)
        if engine != recorded_captures:
            game.undo()
            before = game.position_otn()
            game.play(move)
            report.mismatches.append(CaptureMismatch(ply, move, recorded_captures, engine, before))
        if result.outcome is not None:
            report.final_termination = result.outcome.termination.value
            if ply < last:
                report.early = EarlyEnding(
                    ply,
                    result.outcome.termination.value,
                    result.outcome.result_text,
                    game.position_otn(),
                )
            return report
    return report


def replay_all(games: Sequence[RecordedGame] | None = None) -> list[ReplayReport]:
    """Replay every game (all of the CSV unless ``games`` is given)."""
    return [replay(game) for game in (load_games() if games is None else games)]


_MARKS = {Piece.EMPTY: ".", Piece.ATTACKER: "t", Piece.DEFENDER: "T", Piece.KING: "K"}


def board_text(position: str, marks: Iterable[str] = ()) -> str:
    """An ASCII board of an OTN position, rank 11 on top; squares in ``marks`` show ``*``
    when empty and in brackets otherwise."""
    cells = Game(VARIANT, position).cells
    marked = set(marks)
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        row = []
        for file in range(SIZE):
            square = rank * SIZE + file
            mark = _MARKS[cells[square]]
            if square_name(square, SIZE) in marked:
                mark = "*" if mark == "." else f"({mark})"
            row.append(f"{mark:>3}")
        lines.append(f"{rank + 1:>2} " + "".join(row))
    lines.append("   " + "".join(f"{chr(ord('a') + file):>3}" for file in range(SIZE)))
    return "\n".join(lines)


@dataclass(frozen=True)
class Summary:
    """The counts over a set of replays."""

    games: int
    moves: int
    """Recorded moves the engine played (an illegal move and the moves after an ending excluded)."""
    captures_checked: int
    illegal_moves: int
    capture_mismatches: int
    early_endings: Counter[str]
    final_endings: Counter[str]
    """Every engine ending (early or on the last recorded move), by termination."""
    seconds: float


def summarize(reports: Sequence[ReplayReport], seconds: float = 0.0) -> Summary:
    """Count what the replays showed."""
    return Summary(
        games=len(reports),
        moves=sum(r.played for r in reports),
        captures_checked=sum(r.captures_checked for r in reports),
        illegal_moves=sum(r.illegal is not None for r in reports),
        capture_mismatches=sum(len(r.mismatches) for r in reports),
        early_endings=Counter(r.early.termination for r in reports if r.early),
        final_endings=Counter(r.final_termination for r in reports if r.final_termination),
        seconds=seconds,
    )


def print_summary(reports: Sequence[ReplayReport], seconds: float = 0.0) -> None:
    """Print the counts and the first problems."""
    s = summarize(reports, seconds)
    recorded = sum(r.recorded_plies for r in reports)
    print(f"games: {s.games}")
    print(f"moves played: {s.moves} of {recorded} recorded")
    print(f"captures checked: {s.captures_checked}")
    print(f"illegal moves: {s.illegal_moves}")
    print(
        f"capture mismatches: {s.capture_mismatches} "
        f"(in {sum(bool(r.mismatches) for r in reports)} games)"
    )
    print(f"early endings: {sum(s.early_endings.values())}")
    for termination, count in s.early_endings.most_common():
        print(f"  {termination}: {count}")
    print("engine endings (early or on the last move):")
    for termination, count in s.final_endings.most_common():
        print(f"  {termination}: {count}")
    if seconds:
        print(f"replay time: {seconds:.2f} s")
    problems = [line for r in reports for line in r.problems()]
    for line in problems[:20]:
        print(line)
    if len(problems) > 20:
        print(f"... {len(problems) - 20} more")
    for r in reports:
        if r.early:
            print(
                f"early: game {r.index} ply {r.early.ply} of {r.recorded_plies}: "
                f"{r.early.termination} ({r.early.winner})"
            )


def print_details(report: ReplayReport) -> None:
    """Print one game's problems with the boards before the moves."""
    for m in report.mismatches:
        print(
            f"game {report.index} ply {m.ply} {m.move}: recorded {_names(m.recorded)}, "
            f"engine {_names(m.engine)}\n{m.position}"
        )
        print(board_text(m.position, {*m.move.split("-"), *m.recorded, *m.engine}))
    if report.illegal:
        i = report.illegal
        print(f"game {report.index} ply {i.ply} {i.move}: {i.error}\n{i.position}")
        print(board_text(i.position, i.move.split("-")))
    if report.early:
        e = report.early
        print(
            f"game {report.index} ends at ply {e.ply} of {report.recorded_plies}: "
            f"{e.termination} ({e.winner})\n{e.position}"
        )
        print(board_text(e.position))


def main(argv: Sequence[str]) -> None:
    """Summary of every game, or the details of the games numbered in ``argv``."""
    games = load_games()
    if argv:
        for number in argv:
            print_details(replay(games[int(number) - 1]))
        return
    start = time.perf_counter()
    reports = replay_all(games)
    print_summary(reports, time.perf_counter() - start)


if __name__ == "__main__":
    main(sys.argv[1:])
