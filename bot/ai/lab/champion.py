"""A Tablut Challenge player as an OTEP engine: the bridge that lets ``bot.ai.lab.match`` play the
champions of the yearly competition on Ashton's rules (``tablut-ashton``).

    python -m bot.ai.lab.champion --dir /path/to/player \\
        --command "python main.py {color} {timeout} 127.0.0.1" --timeout 3

A player of the competition is a client of its server (``AGalassi/TablutCompetition``): it
connects to port 5800 as white (the defenders, who move first) or 5801 as black, sends its name,
then reads the game's state after each move and answers a move when it is its turn. This bridge
plays the server's part for one player: at the first ``play`` it learns the player's side,
listens on that side's port, starts the player (``{color}`` becomes ``white`` or ``black``,
``{timeout}`` the seconds per move it is given on its command line) and from then on sends it
the position each time it is to move, in the server's JSON, and passes its answer on as an OTEP
``move``. Every message either way is the server's: a 4-byte big-endian length, then UTF-8
JSON. The match runner referees with our rules; ``--first-repetition`` there makes it call a
draw where the challenge's server does.

The players' own time control is a fixed time per move on their command line (most think a
second or two less than it, to be safe); give ours the time they really use. The ports are
fixed, so one game at a time (``--jobs 1``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import socket
import struct
import subprocess
import sys
from typing import IO

from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.otn import parse_position
from bot.engine.tables import ATTACKER, DEFENDER, KING
from bot.engine.types import Side

from ..otn_rules import RulesError, match_rules

PORTS = {Side.DEFENDERS: 5800, Side.ATTACKERS: 5801}
"""The server's ports: white (the defenders) and black (the attackers)."""
COLORS = {Side.DEFENDERS: "white", Side.ATTACKERS: "black"}
TURNS = {Side.DEFENDERS: "WHITE", Side.ATTACKERS: "BLACK"}
_CELLS = {ATTACKER: "BLACK", DEFENDER: "WHITE", KING: "KING"}


def state_json(game: Game, turn: str) -> str:
    """The position as the server sends it: ``board[row][column]``, row 0 our rank 1 (the
    server names squares so: ``e4`` is column ``e``, row 4), the empty throne ``THRONE``."""
    n = game.size
    cells = parse_position(game.position_otn(), n)
    throne = game.variant.throne
    board = [
        [
            _CELLS.get(cells[rank * n + file], "THRONE" if rank * n + file == throne else "EMPTY")
            for file in range(n)
        ]
        for rank in range(n)
    ]
    return json.dumps({"board": board, "turn": turn})


def send(connection: socket.socket, text: str) -> None:
    """One message of the server's: its length, then the UTF-8 text."""
    data = text.encode()
    connection.sendall(struct.pack(">i", len(data)) + data)


def receive(connection: socket.socket) -> str:
    """One message of the server's (raises ``ConnectionError`` when the player has gone)."""

    def exactly(count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = connection.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the player closed its connection")
            data += chunk
        return data

    (length,) = struct.unpack(">i", exactly(4))
    return exactly(length).decode()


class Bridge:
    """One OTEP session for one Tablut Challenge player."""

    def __init__(self, command: str, directory: str | None, timeout: float, out: IO[str]) -> None:
        self.command = command
        self.directory = directory
        self.timeout = timeout
        self.out = out
        self.game: Game | None = None
        self.pending: str | None = None
        self.side: Side | None = None
        self.player: subprocess.Popen[bytes] | None = None
        self.connection: socket.socket | None = None
        self.name = "player"

    def say(self, line: str) -> None:
        """Write one protocol line."""
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Answer one host command; ``False`` when the session is over."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "goodbye":
            return False
        try:
            if command == "rules":
                self._rules(" ".join(args))
            elif command == "opponent-move" and args:
                self._played(args[0].split("|"))
            elif command == "move" and self.pending is not None:
                self._played([self.pending])
                self.pending = None
            elif command == "play" and args:
                self._play(Side.parse(args[0]))
            elif command == "finish":
                self._finish(args[0] if args else "0")
        except (TaflError, ValueError, OSError, ConnectionError) as error:
            self.say(f"error -1 {self.name}: {' '.join(str(error).split())}")
            return False
        return True

    def _rules(self, record: str) -> None:
        try:
            match = match_rules(record)
        except RulesError as error:
            raise ValueError(f"cannot play these rules: {error}") from None
        if match.variant.name != "tablut-ashton":
            raise ValueError(f"a Tablut Challenge player plays tablut-ashton, not {match.variant}")
        self.game = Game(match.variant, match.start_position, match.first)

    def _played(self, moves: list[str]) -> None:
        assert self.game is not None
        for text in moves:
            self.game.play(text)

    def _start(self, side: Side) -> None:
        """Listen on the side's port, start the player and read its name."""
        self.side = side
        with socket.create_server(("127.0.0.1", PORTS[side]), reuse_port=False) as server:
            server.settimeout(60)
            words = shlex.split(
                self.command.format(color=COLORS[side], timeout=f"{self.timeout:g}")
            )
            self.player = subprocess.Popen(
                words,
                cwd=self.directory,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=sys.stderr,
                start_new_session=True,
            )
            self.connection, _ = server.accept()
        self.connection.settimeout(self.timeout * 3 + 30)
        # The name comes as a JSON string from the Java players, bare from others.
        self.name = receive(self.connection).strip().strip('"') or "player"
        self.say(f"status {self.name} plays {COLORS[side]}")

    def _play(self, side: Side) -> None:
        assert self.game is not None
        if self.connection is None:
            self._start(side)
        assert self.connection is not None
        send(self.connection, state_json(self.game, TURNS[side]))
        action = json.loads(receive(self.connection))
        text = f"{action['from'].lower()}-{action['to'].lower()}"
        self.pending = text
        self.say(f"move {text}")

    def _finish(self, result: str) -> None:
        """Tell the player the game is over, as the server does, and let it go."""
        if self.connection is not None and self.game is not None:
            turn = {"1": "DRAW", "2": "BLACKWIN", "3": "WHITEWIN"}.get(result, "DRAW")
            with contextlib.suppress(OSError):
                send(self.connection, state_json(self.game, turn))
        self.close()

    def close(self) -> None:
        """Close the connection and stop the player."""
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.close()
            self.connection = None
        if self.player is not None:
            try:  # a player leaves once its server has gone; one that does not is stopped
                self.player.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.player.terminate()
                try:
                    self.player.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    self.player.kill()
                    self.player.wait()
            self.player = None


def main(argv: list[str] | None = None) -> int:
    """Serve one OTEP session on stdin/stdout for the player given on the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.lab.champion",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--command",
        required=True,
        help="the player's command line; {color} and {timeout} are filled in",
    )
    parser.add_argument("--dir", help="the directory it runs in")
    parser.add_argument("--timeout", type=float, default=3.0,
                        help="the seconds per move given to the player")  # fmt: skip
    args = parser.parse_args(argv)
    bridge = Bridge(args.command, args.dir, args.timeout, sys.stdout)
    bridge.say("hello")
    try:
        for raw in sys.stdin:
            if not bridge.handle(raw.strip()):
                break
    finally:
        bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
