"""The tactical suite of late forced losses, mined from the recorded Copenhagen games.

Each case is a position of a recorded game (``tests/data/copenhagen-games.csv``, read by
:mod:`copenhagen_records`) in which the side to move played a move that lost by force within six
plies (an exit fort, an encirclement, the king's capture or escape), although another move did
not. The suite is written to ``tests/data/copenhagen-suite.jsonl``, one case a line; the tests
(``tests/test_ai_suite.py``) ask ``hard`` to avoid every such loss and a review to name the move.

    python tests/copenhagen_suite.py            # mine the suite again (several minutes)
    python tests/copenhagen_suite.py --check    # the proofs of every case, again

How a case is proved, so that no claim rests on the search being mined:

- the move loses: a full-width search (no late-move reductions; every line within its depth is
  read, so every forced result within it is found) of the position after it finds the
  opponent's forced win within five plies, and so does a plain AND-OR search over the rules
  engine's endings alone (:func:`wins_within`, no evaluation and no quiescence);
- another move holds: a full-width search of the position before, six plies deep and leaving
  the move played out, finds one that does not lose within six (a lone other move is searched
  from the position after it; with no other move there was no mistake to make).

Games whose index is even are the held-out half: they were checked only once the work on the
search and the reviews was done (see the note in ``tests/test_ai_suite.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if __name__ == "__main__":  # run as a script: import this checkout's engine, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from copenhagen_records import RecordedGame, load_games

from bot.ai import think
from bot.ai.analysis import (
    HOPELESS,
    PositionEval,
    calibration_for,
    chance_for,
    deepen,
    default_depth,
    evaluate_position,
    review,
)
from bot.ai.player import move_text
from bot.ai.search import Searcher
from bot.engine import Board, Game, Side

SUITE = Path(__file__).resolve().parent / "data" / "copenhagen-suite.jsonl"
ENDINGS = ("exit fort", "encirclement", "king captured")
"""The recorded games mined: those that ended on the board this way (the king's escapes are
the subject of ``COPENHAGEN_LOSSES`` in ``tests/test_ai_tactics.py``)."""
LAST_PLIES = 14
"""How many of each game's last positions are looked at."""
LOSS_PLIES = 6
"""The longest loss a case holds, counted from the position (the losing move is the first ply)."""


@dataclass(frozen=True)
class Case:
    """One position of the suite."""

    game: int
    """The recorded game (its line in the CSV, from 1)."""
    ply: int
    """How many moves had been played: the position is the one before move ``ply + 1``."""
    position: str
    """The position (OTN)."""
    turn: str
    """The side to move: ``attackers`` or ``defenders``."""
    losing: str
    """The move played, which lost by force."""
    plies: int
    """How many plies the loss took, the losing move included."""
    ending: str
    """How the forced line ends (the winner's last move): ``exit fort``, ``encirclement``..."""
    held_out: bool
    """In the held-out half (even game numbers)."""

    @property
    def side(self) -> Side:
        """The side to move, as the engine names it."""
        return Side(self.turn)

    def game_before(self) -> Game:
        """The position as a game (no history: the suite's positions are judged without it)."""
        return Game("copenhagen", self.position, self.side)

    def board(self) -> Board:
        """The position as a search board."""
        game = self.game_before()
        return Board(game.variant, list(game.board.cells), game.board.turn)


def load_suite(path: Path = SUITE) -> list[Case]:
    """Every case of the suite, in file order."""
    with path.open(encoding="utf-8") as handle:
        return [Case(**json.loads(line)) for line in handle if line.strip()]


def _board(game: Game) -> Board:
    return Board(game.variant, list(game.board.cells), game.board.turn)


def full_width(game: Game, depth: int) -> tuple[int | None, list[str]]:
    """A full-width search of ``game``'s position: the plies to its forced result (positive:
    the side to move wins), or ``None``, and its principal variation."""
    result = Searcher(game.variant, reductions=False).search(_board(game), max_depth=depth)
    return result.mate_in, [move_text(move, game.size) for move in result.pv]


def wins_within(board: Board, plies: int) -> bool:
    """Whether the side to move forces a win within ``plies`` plies (its own move the first), by
    the rules engine's endings alone: a move that ends the game, or leaves the other side no
    legal move; no repetition, evaluation or search heuristic."""
    if plies <= 0:
        return False
    moves = board.moves()
    for move in moves:
        ended = board.make(move) is not None or not board.has_moves()
        board.unmake()
        if ended:
            return True
    if plies < 3:
        return False
    for move in moves:
        board.make(move)
        lost = _loses_within(board, plies - 1)
        board.unmake()
        if lost:
            return True
    return False


def _loses_within(board: Board, plies: int) -> bool:
    moves = board.moves()
    if not moves:
        return True
    for move in moves:
        if board.make(move) is not None:
            board.unmake()
            return False
        won = wins_within(board, plies - 1)
        board.unmake()
        if not won:
            return False
    return True


def another_move_holds(game: Game, losing: str) -> bool:
    """Whether the side to move in ``game`` has a move other than ``losing`` that does not lose
    within :data:`LOSS_PLIES` plies, by a full-width search of the others (a lone other move
    is searched from the position after it: a search with one move to choose from reads no
    deeper than one ply)."""
    board = _board(game)
    others = [move for move in board.moves() if move_text(move, game.size) != losing]
    if len(others) == 1:
        after = game.copy()
        after.play(move_text(others[0], game.size))
        if after.outcome is not None:
            return after.outcome.winner is game.turn
        mate, _ = full_width(after, LOSS_PLIES - 1)
        return mate is None or not 0 < mate < LOSS_PLIES
    if not others:
        return False
    excluded = [move for move in board.moves() if move not in others]
    result = Searcher(game.variant, reductions=False).search(
        board, max_depth=LOSS_PLIES, exclude=excluded
    )
    return result.mate_in is None or not -LOSS_PLIES <= result.mate_in < 0


def ending_of(game: Game, line: list[str]) -> str | None:
    """How ``line`` played from ``game`` ends the game, if it does."""
    played = game.copy()
    for text in line:
        played.play(text)
        if played.outcome is not None:
            return played.outcome.termination.value
    return None


def case_at(recorded: RecordedGame, ply: int, game: Game) -> Case | None:
    """The case at ``game`` (the position before the recorded move ``ply + 1``), if it is one."""
    losing = recorded.moves[ply][0]
    after = game.copy()
    after.play(losing)
    if after.outcome is not None:
        return None
    # A cheap look first (the search with its reductions); then the proofs.
    quick = Searcher(game.variant).search(_board(after), max_depth=LOSS_PLIES)
    if quick.mate_in is None or not 0 < quick.mate_in < LOSS_PLIES:
        return None
    mate, line = full_width(after, LOSS_PLIES - 1)
    if mate is None or not 0 < mate < LOSS_PLIES:
        return None
    if not wins_within(_board(after), mate):
        # The search scores any return to a position as the rule's winner's (the attackers in
        # Copenhagen), so a line that only repeats is no forced loss by the rules' endings.
        return None
    if not another_move_holds(game, losing):
        return None  # no other move, or every move loses within six plies: no mistake here
    ending = ending_of(after, line) or "unknown"
    return Case(
        game=recorded.index,
        ply=ply,
        position=game.position_otn(),
        turn=game.turn.value,
        losing=losing,
        plies=mate + 1,
        ending=ending,
        held_out=recorded.index % 2 == 0,
    )


def mine(games: list[RecordedGame], out: Path) -> list[Case]:
    """The cases of ``games`` (those that ended as :data:`ENDINGS` say), printed and appended
    to ``out`` as found."""
    cases = []
    for recorded in games:
        game = Game("copenhagen")
        positions = []
        for move, _ in recorded.moves:
            positions.append(game.copy())
            game.play(move)
            if game.outcome is not None:
                break
        if game.outcome is None or game.outcome.termination.value not in ENDINGS:
            continue
        loser = game.outcome.winner.other if game.outcome.winner else None
        for ply in range(max(0, len(positions) - LAST_PLIES), len(positions)):
            if positions[ply].turn is not loser:
                continue
            started = time.monotonic()
            case = case_at(recorded, ply, positions[ply])
            if case is not None:
                cases.append(case)
                with out.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(asdict(case)) + "\n")
                print(
                    f"game {case.game} ply {case.ply}: {case.losing} loses in {case.plies} "
                    f"({case.ending}), {time.monotonic() - started:.1f} s",
                    flush=True,
                )
    return cases


HARD_GAPS: frozenset[tuple[int, int]] = frozenset()
"""Cases (game, ply) ``hard`` still loses: none since its quiescence reads the attackers'
threats to encircle the defenders and every move of defenders with three moves or fewer. The
last gaps were three encirclements (532/35, 740/39, 859/91) and a king's capture (983/179);
four more (352/67, 364/77, 364/79, 657/95) were no mistakes, the mover having a single legal
move, and left the suite when the check that another move holds learnt to see that."""
REVIEW_GAPS: frozenset[tuple[int, int]] = frozenset()
"""Suite games whose review does not yet blame the loser: none (the last was the
encirclement 532/35)."""
REVIEW_BEFORE = 6
"""How many plies before the losing move a suite game's review starts."""


def reviewed(case: Case) -> bool:
    """Whether the reviews' check covers the case: king captures in two plies are left out (most
    came in games already lost)."""
    return case.ending != "king captured"


def forces_a_win(game: Game) -> bool:
    """Whether the side to move in ``game`` forces a win within five plies: found by a
    full-width search, then proved by the rules engine's endings alone (the search scores any
    return to a position as the attackers' win, which the rules do not at a second
    occurrence)."""
    mate, _ = full_width(game, 5)
    if mate is None or not 0 < mate <= 5:
        return False
    return wins_within(_board(game), mate)


def hard_fails(case: Case) -> str | None:
    """Why ``hard``, at its own limits, walks into the case's loss, or ``None`` when it avoids
    it: after its move the other side cannot force a win within five plies."""
    result = think(case.board(), "hard", seed=1, fresh=True)
    if result.move is None:
        return "hard found no move"
    played = move_text(result.move, 11)
    after = case.game_before()
    after.play(played)
    if after.outcome is not None:
        won = after.outcome.winner is case.side
        return None if won else f"{played} ends the game against hard"
    if forces_a_win(after):
        return f"{played} loses by force (the game played {case.losing})"
    return None


def review_fails(case: Case) -> str | None:
    """Why a review of the case's game (from :data:`REVIEW_BEFORE` plies before the losing
    move) does not name the move that allowed the loss, or one of the same side's moves before
    it, as a decisive moment; ``None`` when it does, or when it holds the game lost already
    before (the loser's chances under :data:`~bot.ai.analysis.HOPELESS`: as lichess, it blames
    nobody then)."""
    [recorded] = [game for game in load_games() if game.index == case.game]
    moves = [move for move, _ in recorded.moves]
    start_ply = max(0, case.ply - REVIEW_BEFORE)
    game = Game("copenhagen")
    for move in moves[:start_ply]:
        game.play(move)
    start, turn = game.position_otn(), game.turn
    tail = []
    for move in moves[start_ply:]:
        game.play(move)
        tail.append(move)
        if game.outcome is not None:
            break

    def evaluate(index: int, depth: int, exclude: str | None = None) -> PositionEval:
        return evaluate_position(
            "copenhagen", start, turn, tail[:index], max_depth=depth, exclude=exclude
        )

    depth = default_depth("copenhagen")  # the reviews' own depth
    evals = [evaluate(index, depth) for index in range(len(tail) + 1)]
    deeper = deepen(evals, depth, tail, turn, "copenhagen", evaluate)
    analysis = review("copenhagen", start, turn, tail, deeper)
    losing_ply = case.ply - start_ply + 1
    before = chance_for(case.side, deeper[losing_ply - 1], calibration_for("copenhagen"))
    if before < HOPELESS:
        return None
    blamed = [
        moment
        for moment in analysis.moments
        if moment.kind.decisive and moment.side is case.side and moment.ply <= losing_ply
    ]
    if blamed:
        return None
    named = [(m.ply, m.move, m.kind.value) for m in analysis.moments]
    return f"{case.losing} (ply {losing_ply}) allowed the loss; the review named {named}"


def main(argv: list[str] | None = None) -> int:
    """Mine the suite (or check it) from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="prove every case again")
    parser.add_argument(
        "--after", type=int, default=0, help="mine only the games after this one (appending)"
    )
    args = parser.parse_args(argv)
    if args.check:
        bad = 0
        for case in load_suite():
            recorded = next(g for g in load_games() if g.index == case.game)
            again = case_at(recorded, case.ply, case.game_before())
            if again != case:
                bad += 1
                print(f"game {case.game} ply {case.ply}: no longer proved ({again})")
        print(f"{bad} of the suite's cases failed their proofs")
        return 1 if bad else 0
    if not args.after:
        SUITE.write_text("", encoding="utf-8")
    cases = mine([game for game in load_games() if game.index > args.after], SUITE)
    held = sum(case.held_out for case in cases)
    print(f"{len(cases)} cases ({held} held out) written to {SUITE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
