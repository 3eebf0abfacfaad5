"""The fast core (C) plays exactly as the Python engine and search it mirrors, and the bot runs
without it.

- The board: perft of every variant (``test_engine_perft.py``), and every position of random
  games of every variant and of the 1,752 recorded Copenhagen games: legal moves in order,
  routes, king captures, exit forts, and each move's captures and ending.
- The search: fixed-depth searches of every variant, of puzzle positions and of the levels'
  settings find the same moves, scores, node counts, principal variations and root scores;
  so do searches in a row on one searcher, and searches stopped halfway.
- In CI (``CI=true``) the fast core must be built and in use; a copy of the package without it
  runs the pure Python and says so, and a build older than its sources is ignored.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import weakref
import zipfile
from pathlib import Path

import pytest
from copenhagen_records import load_games
from copenhagen_suite import load_suite
from helpers import game

from bot import native
from bot.ai import fast
from bot.ai.agreement import SearchCase, compare_search, random_position
from bot.ai.search import Searcher
from bot.engine import VARIANTS, Board, Game, Side, TaflError, core, get_variant
from bot.engine.agreement import Agreement, random_games, replayed_games, tree
from bot.engine.tables import MOVE_SHIFT
from bot.engine.variants import with_opentafl_repetition

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI") == "true"

needs_board = pytest.mark.skipif(
    core.extension() is None, reason=f"the fast core's board is not in use ({core.state()})"
)
needs_search = pytest.mark.skipif(
    fast.extension() is None, reason=f"the fast core's search is not in use ({fast.state()})"
)


def test_the_fast_core_is_in_use_in_ci() -> None:
    if not IN_CI:
        if not native.compiled():
            pytest.skip(f"the fast core is not built here: {native.describe()}")
        # Built here: it must also load (a build that cannot be used is a broken build).
        assert native.in_use() or native.states()["engine"] == "off", native.describe()
        return
    assert native.states() == {"engine": "fast", "search": "fast"}, native.describe()
    assert native.describe() == "fast core (C): rules engine and search"
    assert native.main(["status", "--strict"]) == 0


@pytest.mark.parametrize("module", ["bot.engine._core", "bot.ai._core"])
def test_the_fast_cores_type_stubs_describe_the_built_modules(module: str) -> None:
    """``_core.pyi`` beside each extension is what ``mypy --strict`` checks its callers
    against: mypy's stubtest compares it with the built module (every name, and each one's
    kind: class, method, property, constant). Run wherever the core is built, so in CI."""
    built = {"bot.engine._core": core.extension(), "bot.ai._core": fast.extension()}[module]
    if built is None:
        if IN_CI:
            pytest.fail(f"CI must build the fast core: {native.describe()}")
        pytest.skip(f"the fast core is not in use here: {native.describe()}")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_fast_cores_type_stubs_are_shipped_with_the_package(tmp_path: Path) -> None:
    """An installed copy keeps the stubs beside the extensions, so that its users type-check
    against them too: the wheel has them, and so has the source distribution."""
    copy = _copy(tmp_path, with_core=False)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, copy)
    environment = {**os.environ, "TAFL_NO_NATIVE": "1"}  # the stubs, not the compiler, matter
    for command in (
        ["-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation", "-q", "-w", "dist"],
        ["setup.py", "-q", "sdist", "-d", "dist"],
    ):
        done = subprocess.run(
            [sys.executable, *command],
            cwd=copy,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (copy / "dist").glob("*.whl")
    (sdist,) = (copy / "dist").glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as packed:
        shipped = set(packed.namelist())
    assert {"bot/engine/_core.pyi", "bot/ai/_core.pyi"} <= shipped
    with tarfile.open(sdist) as packed:
        sources = {name.partition("/")[2] for name in packed.getnames()}
    assert {"bot/engine/_core.pyi", "bot/ai/_core.pyi"} <= sources
    # So are the translations' catalogues, read at run time (nothing to build at install).
    locales = "bot/i18n/locales/"
    catalogues = {locales + name for name in ("tafl.pot", "fr.po", "es.po", "sv.po", "de.po")}
    assert catalogues <= shipped and catalogues <= sources


# ------------------------------------------------------------------ the board


@needs_board
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_boards_agree_over_random_games(variant: str) -> None:
    report = random_games(VARIANTS[variant], 2_000, seed=7)
    assert report.differences == []
    assert report.positions >= 2_000 and report.captures > 0 and report.endings


@needs_board
def test_the_boards_agree_over_the_recorded_copenhagen_games() -> None:
    games = []
    for recorded in load_games():
        game = Game("copenhagen")
        moves = []
        try:
            for text, _ in recorded.moves:
                move = game.parse_move(text)
                moves.append(move.origin << MOVE_SHIFT | move.target)
                game.play(move)
        except TaflError:
            pass  # compared up to the move the engine refuses (the records' own tests say why)
        games.append(moves)
    report = replayed_games(get_variant("copenhagen"), games, "record")
    assert report.differences == []
    # The rules that random games seldom reach are all in the records.
    assert report.shieldwalls > 0
    assert {"exit fort", "encirclement", "king captured", "king escaped"} <= set(report.endings)


def long_game(variant: str, plies: int, seed: int) -> list[str]:
    """A random game of ``variant`` that goes on for ``plies`` moves where it can: a move that
    would end it early is passed over while another is left (so the replay runs past the C
    board's own undo depth)."""
    rng = random.Random(seed)
    game = Game(variant)
    texts: list[str] = []
    while len(texts) < plies and not game.is_over:
        moves = game.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            game.play(move)
            if not game.is_over or move is moves[-1]:
                texts.append(move.text(game.size))
                break
            game.undo()
    return texts


def assert_same_game(replayed: Game, played: Game) -> None:
    """Everything the bot reads of a game, and every takeback back to the start, agree."""
    assert replayed.history == played.history
    assert replayed.outcome == played.outcome
    assert replayed.position_otn() == played.position_otn()
    assert replayed.turn is played.turn
    assert replayed.legal_moves() == played.legal_moves()
    assert replayed.board.hash == played.board.hash
    assert replayed.board.stack == played.board.stack
    while played.history:
        assert replayed.repetitions() == played.repetitions()
        assert replayed.undo() == played.undo()
        assert replayed.position_otn() == played.position_otn()
        assert replayed.outcome == played.outcome
    assert replayed.board.hash == played.board.hash and replayed.board.status is None


@needs_board
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_game_replayed_on_the_fast_core_is_the_game_played_move_by_move(variant: str) -> None:
    for seed in range(6):
        texts = long_game(variant, 300 if seed < 2 else 80, seed)
        played = Game(variant)
        for text in texts:
            played.play(text)
        replayed = Game(variant)
        replayed.play_all(texts)
        assert_same_game(replayed, played)


@needs_board
def test_the_recorded_copenhagen_games_replay_alike_up_to_the_move_refused() -> None:
    refused = 0
    for recorded in load_games()[:400]:
        played, texts = Game("copenhagen"), []
        error: str | None = None
        for text, _ in recorded.moves:
            try:
                move = played.parse_move(text)
            except TaflError as problem:
                texts.append(text)  # as written: the engine refuses it, and says why
                error = str(problem)
                break
            texts.append(move.text(played.size))
            played.play(move)
        replayed = Game("copenhagen")
        if error is None:
            replayed.play_all(texts)
        else:
            refused += 1
            with pytest.raises(TaflError) as caught:
                replayed.play_all(texts)
            assert str(caught.value) == error
        assert_same_game(replayed, played)
    assert refused > 0


def test_a_replay_stops_at_a_move_it_cannot_play_with_the_moves_before_it_played() -> None:
    texts = long_game("tablut", 30, seed=4)
    played = Game("tablut")
    for text in texts[:20]:
        played.play(text)
    replayed = Game("tablut")
    with pytest.raises(TaflError) as caught:
        replayed.play_all([*texts[:20], texts[20 - 1], *texts[20:]])  # a move played twice
    with pytest.raises(TaflError) as expected:
        played.play(texts[20 - 1])
    assert str(caught.value) == str(expected.value)
    assert_same_game(replayed, played)
    # Written as people write it rather than as stored: the same game.
    loose = Game("tablut")
    loose.play_all([text.upper().replace("-", " ") for text in texts])
    reference = Game("tablut")
    for text in texts:
        reference.play(text)
    assert_same_game(loose, reference)


RULE_POSITIONS = [
    # (variant, pieces as tests/helpers.py writes them, side to move, depth of the full tree)
    ("tablut-unarmed", "K:c3 T:d3 t:b3,c2,c4,d4,d2,e8", "attackers", 3),  # group capture
    ("tablut-unarmed", "K:c3 T:d3,g8 t:b3,c2,c4,e3,d2,d4,h8", "attackers", 3),
    ("brandubh", "K:a2 T:b2 t:b3,c2,b1,a6", "attackers", 3),
    ("tablut", "K:e5 T:e6 t:d5,f5,e4,e8", "attackers", 3),  # Linnaeus's capture by the throne
    ("tablut-ashton", "K:e5 T:c4,g6 t:b4,h6,d2,f8", "defenders", 3),  # camps
    ("fidchell", "K:c3 T:e5 t:a6,f2,b5,e2,c6", "defenders", 3),  # Tuichi
    ("copenhagen", "K:f1 T:d1,e2,f2,g5 t:j9", "defenders", 2),  # exit fort
    ("copenhagen", "K:f1 T:d1,d2,d3,e3,f2,g5 t:j9", "defenders", 2),
    ("copenhagen", "K:c3 T:d4 t:b3,b4,c2,d2,c5,d5,e3,h4", "attackers", 2),  # encirclement
    ("copenhagen", "K:c3 T:d4,j9 t:b3,b4,c2,d2,c5,d5,e3,e4,h8,j10", "attackers", 2),
    ("copenhagen", "T:c1,d1,e1 t:b1,c2,d2,e2,h1 K:f6", "attackers", 2),  # shieldwall
    ("copenhagen", "t:b1,c1,d1 T:b2,c2,d2,e2,f1 K:f6", "defenders", 2),
]


@needs_board
@pytest.mark.parametrize(
    ("variant", "pieces", "turn", "depth"), RULE_POSITIONS, ids=lambda value: str(value)
)
def test_the_boards_agree_on_every_line_near_each_rule(
    variant: str, pieces: str, turn: str, depth: int
) -> None:
    board = game(variant, pieces, turn).board
    report = tree(board, depth, f"{variant} {pieces}")
    assert report.differences == []
    assert report.positions > 50


@needs_board
def test_a_difference_is_reported() -> None:
    # The comparison bites: a board that is not the C board's twin is caught at once.
    report = Agreement()
    variant = get_variant("brandubh")
    from bot.engine.agreement import _Pair

    pair = _Pair(Board(variant), report, "probe")
    pair.board.make(pair.board.moves()[0])  # the Python board moves alone
    assert not pair.check_position()
    assert any("cells" in text for text in report.differences)


# ------------------------------------------------------------------ the search


def _played(
    variant: str, moves: list[str], turn: Side | None = None, position: str | None = None
) -> Board:
    game = Game(variant, position, turn)
    for text in moves:
        game.play(text)
    return Board(game.variant, list(game.board.cells), game.board.turn)


def _puzzles(variant: str, count: int) -> list[Board]:
    path = ROOT / "assets" / "puzzles" / f"{variant}.jsonl"
    boards = []
    for line in path.read_text(encoding="utf-8").splitlines()[:count]:
        puzzle = json.loads(line)
        boards.append(_played(variant, [], Side.parse(puzzle["to_move"]), puzzle["position"]))
    return boards


def _recorded(index: int, plies: int) -> Board:
    """The position after the first ``plies`` moves of recorded Copenhagen game ``index``."""
    [recorded] = [game for game in load_games() if game.index == index]
    return _played("copenhagen", [move for move, _ in recorded.moves[:plies]])


def _cases() -> list[SearchCase]:
    cases = [
        SearchCase("tablut start", _played("tablut", []), 4),
        SearchCase("tablut opening", _played("tablut", ["e2-c2", "c5-c3", "a4-b4", "e3-h3"]), 4),
        SearchCase(
            "brandubh opening", _played("brandubh", ["d2-c2", "e4-e2", "d6-e6", "c4-c5"]), 5
        ),
        SearchCase(
            "a review's even reductions",
            _played("brandubh", ["d2-c2", "e4-e2", "d6-e6", "c4-c5"]),
            5,
            even_reductions=True,
        ),
        SearchCase(
            "copenhagen opening", _played("copenhagen", ["d1-d3", "e5-e2", "g1-g3", "f4-c4"]), 3
        ),
    ]
    for number, variant in enumerate(VARIANTS):
        depth = 2 if variant == "copenhagen" else 3
        for plies in (12, 31):
            board, history = random_position(variant, plies, seed=number * 100 + plies)
            cases.append(
                SearchCase(f"{variant} after {plies} random plies", board, depth, history=history)
            )
        for index, board in enumerate(_puzzles(variant, 2)):
            cases.append(SearchCase(f"{variant} puzzle {index + 1}", board, 3))
    board, history = random_position("tablut", 20, seed=5)
    cases += [
        # The levels' settings: easy (blind to threats, noisy), medium (noisy), master
        # (contempt, which changes the repetitions' scores), on positions with a history.
        SearchCase(
            "easy",
            board,
            2,
            history=history,
            noise=200,
            seed=3,
            quiescence=False,
            reads_threats=False,
        ),
        SearchCase(
            "easy with quiescence",
            board,
            2,
            history=history,
            noise=200,
            seed=4,
            reads_threats=False,
        ),
        SearchCase("medium", board, 2, history=history, noise=60, seed=9),
        SearchCase("master's contempt", board, 3, history=history, contempt=50),
        # Three searches in a row on one searcher: its table, history and killers carry over.
        SearchCase("searches in a row", board, 3, history=history, searches=3),
        # Stopped after 5 checks (about 5,000 nodes) of a search to depth 8: both cores stop
        # at the same node, in the same iteration, with the same partial answer.
        SearchCase("stopped halfway", _played("tablut", ["e2-c2", "c5-c3"]), 8, stop_after=5),
        SearchCase("copenhagen stopped", _played("copenhagen", []), 6, stop_after=3),
        # Six plies deep the levels' late moves are read one to three plies shallower.
        SearchCase(
            "late moves read ever shallower",
            _played("tablut", ["e2-c2", "c5-c3", "i4-g4", "e3-f3"]),
            6,
        ),
        # master's pruning: shallow nodes cut short by the static evaluation, late quiet
        # moves skipped, unguided nodes read a ply shallower.
        SearchCase(
            "shallow nodes pruned",
            _played("tablut", ["e2-c2", "c5-c3", "i4-g4", "e3-f3"]),
            6,
            pruning=True,
        ),
        SearchCase(
            "pruned, the defenders to move",
            _played("tablut", ["e2-c2", "c5-c3", "i4-g4"]),
            6,
            pruning=True,
        ),
        SearchCase("copenhagen pruned", _recorded(171, 47), 4, pruning=True),
        SearchCase("brandubh pruned", _played("brandubh", ["d6-f6"]), 7, pruning=True),
        SearchCase("fidchell pruned three plies out", _played("fidchell", []), 7, pruning=True),
        # Late Copenhagen positions whose lines build exit forts (the quiescence reads the
        # defenders' threats to build one); a full-width search; a root move left out.
        SearchCase("copenhagen exit fort threats", _recorded(171, 47), 3),
        SearchCase("copenhagen exit forts stopped", _recorded(489, 43), 3),
        SearchCase("copenhagen exit fort by a king's move", _recorded(1145, 58), 3),
        SearchCase("copenhagen full width", _recorded(1373, 55), 3, reductions=False),
    ]
    board = _recorded(1380, 55)
    cases.append(SearchCase("a root move left out", board, 3, exclude=(board.moves()[5],)))
    # The attackers' threats to encircle the defenders (the suite's games 532 and 740, full
    # width and not), defenders with one move left (983), a king shut in with defenders
    # outside (894).
    suite = {(case.game, case.ply): case.board() for case in load_suite()}
    cases += [
        SearchCase("copenhagen encirclement threats", suite[532, 35], 3, reductions=False),
        SearchCase("copenhagen encirclement reduced", suite[740, 39], 3),
        SearchCase("copenhagen defenders nearly shut in", suite[983, 179], 4),
        SearchCase("copenhagen king shut in", _recorded(894, 61), 3),
    ]
    return cases


@needs_search
@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.label)
def test_the_searches_agree_node_for_node(case: SearchCase) -> None:
    assert compare_search(case) == []


@needs_search
def test_copenhagen_repetitions_score_alike_on_both_cores() -> None:
    # The shuffle of test_ai_search.py, searched by both cores with the game's history.
    game = Game(
        "copenhagen",
        "/3ttttt3/5t5/2t5t2/t9t/t9t/tt2TKT2tt/t9t/8t2/2t2T5/5t5/3tt1tt3/",
        Side.DEFENDERS,
    )
    hashes = [game.board.hash]
    for text in ("f9-f8", "i8-g8", "f8-f9", "g8-i8", "f9-f8", "i8-g8"):
        game.play(text)
        hashes.append(game.board.hash)
    board = Board(game.variant, list(game.board.cells), game.board.turn)
    assert compare_search(SearchCase("shuffle", board, 3, history=tuple(hashes[:-1]))) == []
    # The same, with the repetition read as OpenTafl reads tfr:w (the mover into it loses).
    opentafl = Board(with_opentafl_repetition(game.variant), list(board.cells), board.turn)
    case = SearchCase("shuffle, OpenTafl's repetition", opentafl, 3, history=tuple(hashes[:-1]))
    assert compare_search(case) == []


# ------------------------------------------------------------------ without the fast core


def _copy(tmp_path: Path, with_core: bool) -> Path:
    copy = tmp_path / "project"
    ignore = ["__pycache__"] + ([] if with_core else ["*.so", "*.pyd"])
    shutil.copytree(ROOT / "bot", copy / "bot", ignore=shutil.ignore_patterns(*ignore))
    shutil.copytree(ROOT / "assets", copy / "assets")
    return copy


_PROBE = """
from bot import native
from bot.ai import think
from bot.engine import Board, get_variant
from bot.engine.perft import perft
print(native.describe())
print(native.states())
print(perft(Board(get_variant("brandubh")), 3, captures=True))
board = Board(get_variant("tablut"))
result = think(board, "hard", max_depth=2, time_limit=300.0, fresh=True)
print(result.move in board.moves(), result.depth)
"""


def _probe(copy: Path, **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_searcher_is_freed_once_dropped() -> None:
    # The C search keeps the stop check it is given; a bound method of the searcher made a
    # cycle the garbage collector cannot see through, so every searcher and its tables stayed
    # in memory (a puzzle generator's self-play games grew to 22 GB in four minutes).
    searcher = Searcher(get_variant("tablut"))
    searcher.search(_played("tablut", []), max_depth=2)
    dropped = weakref.ref(searcher)
    del searcher
    assert dropped() is None


def test_the_bot_runs_without_the_fast_core(tmp_path: Path) -> None:
    copy = _copy(tmp_path, with_core=False)
    assert native.compiled(copy) == []
    describe, states, counted, searched = _probe(copy, **{core.PURE_PYTHON_VARIABLE: ""})
    assert describe.startswith("pure Python") and "pip install -e ." in describe
    assert states == str({"engine": "missing", "search": "missing"})
    assert counted == "PerftResult(leaves=39512, captures=568, divide=())"
    assert searched == "True 2"


@needs_search
def test_a_fast_core_older_than_its_sources_is_not_used(tmp_path: Path) -> None:
    copy = _copy(tmp_path, with_core=True)
    source = copy / "bot" / "ai" / "csrc" / "search.c"
    source.write_text(source.read_text() + "\n/* edited */\n")
    describe, states, counted, searched = _probe(copy)
    assert states == str({"engine": "fast", "search": "stale"})
    assert "older than its C sources (search)" in describe
    assert counted.startswith("PerftResult(leaves=39512") and searched == "True 2"
    assert native.main(["status"]) == 0  # this checkout's own core is fresh


def test_the_install_goes_on_without_a_c_compiler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # setup.py's extensions are optional: a compiler that fails leaves a working install.
    copy = _copy(tmp_path, with_core=False)
    shutil.copy(ROOT / "setup.py", copy)
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=copy,
        env={**os.environ, "CC": "/bin/false", "LDSHARED": "/bin/false"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert native.compiled(copy) == []
    monkeypatch.setenv("CC", "/bin/false")
    monkeypatch.setenv("LDSHARED", "/bin/false")
    with pytest.raises(RuntimeError, match="did not build"):
        native.build(copy, quiet=True)
