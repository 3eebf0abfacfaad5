"""A line-based referee: other programs (tests, tools, other engines) ask it about the rules.

Each command line gets exactly one answer line; see :func:`answer` for the commands.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .errors import IllegalMoveError, MoveParseError, TaflError
from .game import Game
from .types import Side, square_name

USAGE = (
    "commands: new VARIANT | setpos VARIANT OTN_POSITION attackers|defenders | move MOVE | "
    "legal | position | undo | quit"
)


class Referee:
    """Holds one game and answers one line per command."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def answer(self, line: str) -> str | None:
        """The answer to one command line (``None`` for ``quit``)."""
        words = line.split()
        if not words:
            return f"error empty command; {USAGE}"
        command, args = words[0].lower(), words[1:]
        try:
            if command == "quit":
                return None
            if command == "new":
                if len(args) != 1:
                    return "error usage: new VARIANT"
                self.game = Game(args[0])
                return "ok"
            if command == "setpos":
                if len(args) != 3:
                    return "error usage: setpos VARIANT OTN_POSITION attackers|defenders"
                try:
                    side = Side.parse(args[2])
                except ValueError as error:
                    return f"error {error}"
                self.game = Game(args[0], args[1], side)
                return "ok"
            if command not in ("move", "legal", "position", "undo"):
                return f"error unknown command {command!r}; {USAGE}"
            game = self.game
            if game is None:
                return "error no game yet: send 'new VARIANT' or 'setpos ...' first"
            if command == "move":
                if not args:
                    return "error usage: move MOVE"
                return self._move(game, " ".join(args))
            if args:
                return f"error {command} takes no arguments"
            if command == "legal":
                texts = sorted(move.text(game.size) for move in game.legal_moves())
                return " ".join(["moves", str(len(texts)), *texts])
            if command == "position":
                return f"position {game.position_otn()} {game.turn.value}"
            game.undo()
            return "ok"
        except TaflError as error:
            return f"error {_one_line(str(error))}"

    @staticmethod
    def _move(game: Game, text: str) -> str:
        try:
            result = game.play(text)
        except (IllegalMoveError, MoveParseError) as error:
            return f"illegal {_one_line(str(error))}"
        status = result.outcome.result_text if result.outcome else "ongoing"
        captures = _squares(result.captures, game.size)
        routes = _squares(result.routes, game.size)
        return f"ok {status} captures={captures} turn={game.turn.value} routes={routes}"


def _squares(squares: tuple[int, ...], size: int) -> str:
    """Square names sorted as text, comma-separated, or ``-`` for none."""
    return ",".join(sorted(square_name(sq, size) for sq in squares)) or "-"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def run(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Answer commands from ``stdin`` until ``quit`` or end of input."""
    referee = Referee()
    for line in stdin:
        reply = referee.answer(line)
        if reply is None:
            break
        stdout.write(reply + "\n")
        stdout.flush()
