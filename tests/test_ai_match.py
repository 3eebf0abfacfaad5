"""The OTEP match runner: real engine processes, refereed by our rules."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from bot.ai.lab.match import EngineSpec, main, play_engine_game, run_engine_match
from bot.ai.otn_rules import RepetitionReading
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


def _scripted(tmp_path: Path, name: str, moves: list[str], *, dies_after: int = -1) -> EngineSpec:
    """An engine that plays ``moves`` in turn (and exits after ``dies_after`` of them), and
    writes every line it receives to ``<name>.heard``."""
    heard = tmp_path / f"{name}.heard"
    return _script(
        tmp_path,
        name,
        "import sys\n"
        f"moves = {moves!r}\n"
        f"heard = open({str(heard)!r}, 'a')\n"
        "print('hello', flush=True)\n"
        "for line in sys.stdin:\n"
        "    heard.write(line)\n"
        "    heard.flush()\n"
        "    if line.startswith('play'):\n"
        f"        if len(moves) == {len(moves)} - {dies_after}:\n"
        "            sys.exit(3)\n"
        "        print('move ' + moves.pop(0), flush=True)\n"
        "    if line.startswith('goodbye'):\n"
        "        break\n",
    )


def test_an_illegal_move_voids_the_game_as_a_rules_disagreement(tmp_path: Path) -> None:
    # d4-d5: the king's throne move onto a defender. Our rules refuse it: the engines do not
    # play the same game, so it is no result for either.
    cheat = _scripted(tmp_path, "cheat", ["d4-d5"])
    record = play_engine_game("brandubh", EngineSpec(OURS, "easy"), cheat, opening=[], seconds=0.05)
    assert record.winner is None
    assert record.void == (
        "rules disagreement: our rules refuse cheat's move 'd4-d5' ('d4-d5': d5 blocks the path)"
    ), record.void
    assert record.ending.startswith("void (rules disagreement")


def test_an_engine_that_dies_voids_the_game(tmp_path: Path) -> None:
    quitter = _script(tmp_path, "quitter", "print('hello', flush=True)\nimport sys\nsys.exit(3)\n")
    record = play_engine_game(
        "brandubh", quitter, EngineSpec(OURS, "easy"), opening=[], seconds=0.05
    )
    assert record.winner is None
    assert record.void == "engine failure: quitter exited (status 3)"


def test_the_clock_follows_each_play(tmp_path: Path) -> None:
    one = _scripted(tmp_path, "one", ["d2-c2", "c2-d2"])
    two = _scripted(tmp_path, "two", ["e4-e3", "e3-e4"])
    play_engine_game("brandubh", one, two, opening=[], seconds=0.05, max_plies=4, clock=True)
    heard = (tmp_path / "one.heard").read_text().splitlines()
    commands = [line.split()[0] for line in heard if line.split()[0] in ("play", "clock")]
    assert commands == ["play", "clock", "play", "clock"], heard


# Copenhagen: an attackers' piece and a defender shuttle. After 1. d1-c1 f4-e4 2. c1-b1 e4-f4
# 3. b1-c1 the position after 1. d1-c1 is back a second time; 5. b1-c1 makes it a third, by
# the attackers' move: our rules give the attackers the win, the record sent to the engines
# (tfr:w, read as OpenTafl reads it) the defenders.
SHUTTLE_ATTACKERS = ["d1-c1", "c1-b1", "b1-c1", "c1-b1", "b1-c1"]
SHUTTLE_DEFENDERS = ["f4-e4", "e4-f4", "f4-e4", "e4-f4"]


def test_a_repetition_the_engines_rules_record_scores_otherwise_voids_the_game(
    tmp_path: Path,
) -> None:
    attackers = _scripted(tmp_path, "att", SHUTTLE_ATTACKERS)
    defenders = _scripted(tmp_path, "def", SHUTTLE_DEFENDERS)
    record = play_engine_game("copenhagen", attackers, defenders, opening=[], seconds=0.05)
    assert record.winner is None and len(record.moves) == 9
    assert record.void == (
        "rules disagreement: the attackers' move repeated the position a third time, a win "
        "for the attackers by our rules but a win for the defenders by the rules record sent"
    )
    # Refereed as OpenTafl reads the record, the game counts: a win for the defenders.
    attackers = _scripted(tmp_path, "att3", SHUTTLE_ATTACKERS)
    defenders = _scripted(tmp_path, "def3", SHUTTLE_DEFENDERS)
    record = play_engine_game(
        "copenhagen", attackers, defenders, opening=[], seconds=0.05, opentafl_repetition=True
    )
    assert record.void is None and record.winner is Side.DEFENDERS
    # Engines that read the record by our rules (ours with --repetition project) agree with
    # the referee: the attackers' repetition is their win, and the game counts.
    attackers = _scripted(tmp_path, "att4", SHUTTLE_ATTACKERS)
    defenders = _scripted(tmp_path, "def4", SHUTTLE_DEFENDERS)
    record = play_engine_game(
        "copenhagen",
        attackers,
        defenders,
        opening=[],
        seconds=0.05,
        engines_repetition=RepetitionReading.PROJECT,
    )
    assert record.void is None and record.winner is Side.ATTACKERS
    assert record.ending == "perpetual repetition"
    # The defenders repeating: both readings give the attackers the game, which counts.
    attackers = _scripted(tmp_path, "att2", ["d1-c1", "c1-d1"] * 2)
    defenders = _scripted(tmp_path, "def2", ["f4-e4", "e4-f4"] * 2)
    record = play_engine_game("copenhagen", attackers, defenders, opening=[], seconds=0.05)
    assert record.void is None and record.winner is Side.ATTACKERS
    assert record.ending == "perpetual repetition"


def test_a_void_game_is_replayed_and_only_a_played_one_counts(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # The first attempt's engine dies after two moves; each replay starts a fresh process,
    # which here dies again: the game is reported void twice, then left unscored.
    flaky = _scripted(tmp_path, "flaky", ["d2-c2", "c2-d2", "d2-c2"], dies_after=2)
    score = run_engine_match(
        "brandubh", flaky, EngineSpec(OURS, "easy"), 1, seconds=0.05, opening_plies=0,
        replays=2, records=tmp_path / "games.jsonl",
    )  # fmt: skip
    out = capsys.readouterr().out
    assert out.count("VOID") == 3 and "played again" in out and "left unscored" in out
    assert score.games == 0 and score.void == 1
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [g["replay"] for g in games] == [0, 1, 2] and all(g["void"] for g in games)
    # An engine that plays to the end is scored on its first attempt.
    score = run_engine_match(
        "brandubh", EngineSpec(OURS, "a"), EngineSpec(OURS, "b"), 1, seconds=0.05,
        max_plies=6, echo=False,
    )  # fmt: skip
    assert score.games == 1 and score.void == 0


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


def test_a_tablut_challenge_player_plays_through_the_bridge(tmp_path: Path) -> None:
    # A player of the challenge's protocol: it connects to the white port, sends its name,
    # answers each state that is its turn with a move (a defender shuttling c5-c4-c5) and
    # keeps the states it was sent.
    seen = tmp_path / "states.jsonl"
    player = tmp_path / "player.py"
    player.write_text(
        "import json, socket, struct, sys\n"
        "sock = socket.create_connection(('127.0.0.1', 5800 if sys.argv[1] == 'white' else 5801))\n"
        "def send(text):\n"
        "    data = text.encode(); sock.sendall(struct.pack('>i', len(data)) + data)\n"
        "def receive():\n"
        "    def exactly(n):\n"
        "        data = b''\n"
        "        while len(data) < n:\n"
        "            chunk = sock.recv(n - len(data))\n"
        "            if not chunk: sys.exit(0)\n"
        "            data += chunk\n"
        "        return data\n"
        "    return exactly(struct.unpack('>i', exactly(4))[0]).decode()\n"
        "send('\"SHUTTLE\"')\n"
        "moves = [('c5', 'c4'), ('c4', 'c5')]\n"
        f"log = open({str(seen)!r}, 'a')\n"
        "while True:\n"
        "    state = json.loads(receive())\n"
        "    log.write(json.dumps(state) + '\\n'); log.flush()\n"
        "    if state['turn'] != 'WHITE': continue\n"
        "    origin, target = moves[0]; moves.reverse()\n"
        "    send(json.dumps({'from': origin, 'to': target, 'turn': 'WHITE'}))\n"
    )
    bridge = EngineSpec(
        f"{shlex.quote(sys.executable)} -m bot.ai.lab.champion --dir {shlex.quote(str(tmp_path))} "
        f"--command '{shlex.quote(sys.executable)} player.py {{color}} {{timeout}}' --timeout 1",
        "shuttle",
    )
    record = play_engine_game(
        "tablut-ashton", EngineSpec(OURS, "easy"), bridge, opening=[], seconds=0.5, max_plies=2
    )
    assert record.void is None and record.moves[0] == "c5-c4", (record.void, record.moves)
    states = [json.loads(line) for line in seen.read_text().splitlines()]
    first = states[0]
    assert first["turn"] == "WHITE" and first["board"][4][4] == "KING"  # e5, the king's throne
    assert first["board"][0][3] == "BLACK" and first["board"][4][2] == "WHITE"  # d1, c5
    last = states[-1]  # told the game is over (a draw after two plies), as the server tells it
    assert last["turn"] == "DRAW" and last["board"][3][2] == "WHITE"  # c4
