"""Where puzzles come from: positions of games, filtered by the AI's search, proven exactly.

Candidates are positions of self-play games between the AI's weaker levels (their mistakes
leave forced wins on the board) or of recorded games (a CSV of Copenhagen games as
aagenielsen.dk recorded them). A short search (:class:`~bot.ai.search.Searcher`, depth-limited
so it is reproducible) keeps the positions where it sees a forced win within the puzzle
length; :func:`~bot.ai.puzzles.puzzle.examine` then proves or rejects each. Everything is
deterministic for a seed: the games, the searches and the proofs depend on nothing else.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.engine.board import Board
from bot.engine.errors import TaflError
from bot.engine.game import Game
from bot.engine.types import Side
from bot.engine.variants import Variant

from ..levels import get_level
from ..player import move_text, think
from ..search import Searcher
from .proof import Prover
from .puzzle import MAX_LENGTH, Puzzle, Rejection, examine, puzzle_id

SELF_PLAY_LEVELS = ("easy", "easy", "medium", "medium", "hard")
"""The levels a self-play side is drawn from: mostly weak ones, whose slips leave wins."""
MOVE_SECONDS = 60.0
"""The self-play levels' clock: far beyond what their depth limit needs, so that a loaded
machine cannot cut a search short and change a game."""
PROOF_BUDGET = 3_000_000
"""Positions one proof may visit before its position is given up as too costly."""
REFRESH_NODES = 20_000_000
"""Positions a prover may visit (all its proofs together) before it is replaced by a fresh one,
so that its tables do not grow without end. Part of what a generation run's output depends
on: the budget cuts proofs by positions visited, and the tables spare visits."""


@dataclass(frozen=True)
class Candidate:
    """A position worth proving and where it comes from."""

    variant: Variant
    position: str
    to_move: Side
    source: str


@dataclass
class Tally:
    """What a generation run tried and why positions were turned down."""

    games: int = 0
    positions: int = 0
    candidates: int = 0
    duplicates: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    puzzles: int = 0

    def summary(self) -> str:
        """One line: ``games 12, positions 840, candidates 31, ... rejected: ...``."""
        reasons = ", ".join(f"{reason} {count}" for reason, count in self.rejected.most_common())
        return (
            f"games {self.games}, positions {self.positions}, candidates {self.candidates}, "
            f"duplicates {self.duplicates}, puzzles {self.puzzles}; "
            f"rejected {sum(self.rejected.values())}" + (f" ({reasons})" if reasons else "")
        )


def forced_win_seen(searcher: Searcher, board: Board, depth: int, max_length: int) -> bool:
    """Whether a search of ``depth`` plies sees the side to move force a win within
    ``max_length`` of its moves (its quiescence follows the king's threats further)."""
    result = searcher.search(board, max_depth=depth)
    plies = result.mate_in
    return plies is not None and 0 < plies <= 2 * max_length - 1


def self_play_games(
    variant: Variant, seed: int, tally: Tally, *, max_plies: int = 160
) -> Iterator[tuple[Game, str]]:
    """Endless self-play games, each from a short random opening, with its description.

    Game ``i`` draws its levels and opening from ``Random(seed, i)``, so a game is the same
    whatever ran before it.
    """
    index = 0
    while True:
        index += 1
        rng = random.Random(f"{variant.name}:{seed}:{index}")
        levels = (rng.choice(SELF_PLAY_LEVELS), rng.choice(SELF_PLAY_LEVELS))
        game = Game(variant)
        for _ in range(rng.randint(2, 6)):
            moves = game.legal_moves()
            if not moves or game.is_over:
                break
            game.play(rng.choice(moves))
        hashes = [game.board.hash]
        while not game.is_over and game.ply < max_plies:
            level = get_level(levels[0] if game.turn is Side.ATTACKERS else levels[1])
            board = Board(game.variant, list(game.board.cells), game.board.turn)
            result = think(
                board,
                level,
                seed=rng.randrange(1 << 30),
                history=hashes[:-1],
                time_limit=MOVE_SECONDS,
                fresh=True,
            )
            assert result.move is not None
            game.play(move_text(result.move, game.size))
            hashes.append(game.board.hash)
        tally.games += 1
        players = f"{levels[0]} vs {levels[1]}"
        yield game, f"self-play {variant.name} seed {seed} game {index} ({players})"


_RECORDED_MOVE = re.compile(r"([a-s]\d{1,2})-([a-s]\d{1,2})(?:x[a-s]\d{1,2})*")


def recorded_games(
    path: Path, variant: Variant, seed: int, tally: Tally, *, skip: int = 0
) -> Iterator[tuple[Game, str]]:
    """The games of a CSV of records (``moves,<captures>,<captures>,<result>``, moves like
    ``a8-b8xb7``, as ``tests/data/README.md`` describes), in an order shuffled by ``seed``,
    leaving out the first ``skip`` of that order (for runs over separate parts of the games).

    Each is replayed with the engine up to its end or its first move the engine refuses.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    order = list(range(len(lines)))
    random.Random(f"{path.name}:{seed}").shuffle(order)
    for index in order[skip:]:
        words = lines[index].split(",")[0].split()
        game = Game(variant)
        for word in words:
            match = _RECORDED_MOVE.fullmatch(word)
            if match is None or game.is_over:
                break
            try:
                game.play(f"{match.group(1)}-{match.group(2)}")
            except TaflError:
                break
        tally.games += 1
        yield game, f"{path.name} game {index + 1}"


def candidates(
    games: Iterable[tuple[Game, str]],
    tally: Tally,
    *,
    search_depth: int = 2,
    max_length: int = MAX_LENGTH,
    last_plies: int | None = None,
    skip_plies: int = 4,
) -> Iterator[Candidate]:
    """The positions of ``games`` where the search sees a forced win for the side to move.

    ``last_plies`` looks only at that many positions before each game's end (recorded games
    are long and their decisive moments come late); the first ``skip_plies`` positions are
    never looked at (the openings are random or well known).
    """
    seen: set[int] = set()
    for game, description in games:
        variant = game.variant
        start = Game(variant, game.start_position, game.start_turn)
        searcher = Searcher(variant)
        first = skip_plies
        if last_plies is not None:
            first = max(first, game.ply - last_plies)
        moves = [result.move for result in game.history]
        for ply, move in enumerate(moves):
            if ply >= first and not start.is_over:
                tally.positions += 1
                board = start.board
                key = board.hash
                if key in seen:
                    tally.duplicates += 1
                else:
                    seen.add(key)
                    probe = Board(variant, list(board.cells), board.turn)
                    # A fresh table for each position, so no verdict leans on another game's;
                    # the move-ordering memory the searcher keeps within a game is the same
                    # in every run, because a game's positions always come in the same order.
                    searcher.tt.clear()
                    if forced_win_seen(searcher, probe, search_depth, max_length):
                        tally.candidates += 1
                        yield Candidate(
                            variant,
                            start.position_otn(),
                            start.turn,
                            f"{description} ply {ply}",
                        )
            start.play(move)


def generate(
    found: Iterable[Candidate],
    count: int,
    tally: Tally,
    *,
    max_length: int = MAX_LENGTH,
    per_length: dict[int, int] | None = None,
    on_puzzle: Callable[[Puzzle], None] | None = None,
    on_rejection: Callable[[Candidate, Rejection], None] | None = None,
    exclude: Iterable[str] = (),
) -> list[Puzzle]:
    """Prove candidates until ``count`` puzzles are found (or the candidates run out).

    ``per_length`` caps how many puzzles of each length are kept (for a spread of lengths);
    a puzzle beyond its cap counts as rejected (``length N full``). A candidate whose puzzle
    id is in ``exclude`` (puzzles shipped already) counts as a duplicate, unproven.
    """
    puzzles: list[Puzzle] = []
    lengths: Counter[int] = Counter()
    provers: dict[str, Prover] = {}
    ids: set[str] = set(exclude)
    for candidate in found:
        if ids:
            start = Game(candidate.variant, candidate.position, candidate.to_move)
            if puzzle_id(candidate.variant.name, start.start_position, start.turn) in ids:
                tally.duplicates += 1
                continue
        prover = provers.get(candidate.variant.name)
        if prover is None or prover.nodes > REFRESH_NODES:
            # A fresh prover now and then keeps its tables from growing without end.
            prover = provers[candidate.variant.name] = Prover(candidate.variant)
        result = examine(
            candidate.variant,
            candidate.position,
            candidate.to_move,
            max_length,
            source=candidate.source,
            prover=prover,
            budget=PROOF_BUDGET,
        )
        if isinstance(result, Rejection):
            tally.rejected[result.reason] += 1
            if on_rejection is not None:
                on_rejection(candidate, result)
            continue
        if result.id in ids:
            tally.duplicates += 1
            continue
        cap = (per_length or {}).get(result.length)
        if cap is not None and lengths[result.length] >= cap:
            tally.rejected[f"length {result.length} full"] += 1
            continue
        ids.add(result.id)
        lengths[result.length] += 1
        puzzles.append(result)
        tally.puzzles += 1
        if on_puzzle is not None:
            on_puzzle(result)
        if len(puzzles) >= count:
            break
    return puzzles


def mine(
    games: Iterable[tuple[Game, str]],
    tally: Tally,
    count: int,
    *,
    search_depth: int = 2,
    max_length: int = MAX_LENGTH,
    last_plies: int | None = None,
    per_length: dict[int, int] | None = None,
    max_games: int | None = None,
    exclude: Iterable[str] = (),
    verbose: bool = False,
    say: Callable[[str], None] = lambda line: print(line, flush=True),
    on_puzzle: Callable[[Puzzle], None] | None = None,
) -> list[Puzzle]:
    """:func:`candidates` of ``games`` through :func:`generate`, saying each puzzle found (and
    with ``verbose`` each rejection) and a summary, as the command-line tools show them.
    ``max_games`` stops after that many games; puzzles with ids in ``exclude`` are skipped;
    ``on_puzzle`` is given each puzzle as it is found."""
    started = time.perf_counter()
    lengths: Counter[int] = Counter()

    def found(puzzle: Puzzle) -> None:
        lengths[puzzle.length] += 1
        say(
            f"[{time.perf_counter() - started:6.0f}s] {tally.puzzles:3}/{count} "
            f"{puzzle.id} {puzzle.to_move.value} win in {puzzle.length} ({puzzle.goal.value}), "
            f"rating {puzzle.rating}, tree {puzzle.solution.size()}: {puzzle.source}"
        )
        if tally.puzzles % 10 == 0:
            say(f"         {tally.summary()}")
        if on_puzzle is not None:
            on_puzzle(puzzle)

    def rejected(candidate: Candidate, rejection: Rejection) -> None:
        if verbose:
            say(f"         rejected ({rejection.reason}): {candidate.source}")

    stream = candidates(
        games, tally, search_depth=search_depth, max_length=max_length, last_plies=last_plies
    )
    if max_games is not None:
        stream = _until(stream, lambda: tally.games > max_games)
    puzzles = generate(
        stream,
        count,
        tally,
        max_length=max_length,
        per_length=per_length,
        on_puzzle=found,
        on_rejection=rejected,
        exclude=exclude,
    )
    spread = ", ".join(f"length {n}: {lengths[n]}" for n in sorted(lengths))
    say(tally.summary())
    say(
        f"found {len(puzzles)} puzzles{f' ({spread})' if spread else ''} in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return puzzles


def _until(stream: Iterator[Candidate], stop: Callable[[], bool]) -> Iterator[Candidate]:
    """``stream`` until ``stop()`` says so (asked before each candidate)."""
    for item in stream:
        if stop():
            return
        yield item
