"""Build BoardViews from the rules engine's `Game` and the AI's game analysis (the only module
here that knows them).

The caption's words are the caller's: what its status announces is found here as data (a
:data:`Status`) and worded by the :class:`CaptionWords` the caller gives (the bot's composition
gives its own; :data:`DEFAULT_WORDS` are the command line's and the tests')."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from bot.ai.analysis import GameAnalysis, MomentKind
from bot.engine import Game, Move, MoveResult, Outcome, Side, Termination
from bot.render.view import (
    ATTACKER,
    DEFENDER,
    KING,
    Arrow,
    BoardView,
    Caption,
    SideName,
    Square,
)

_SIDE_NAMES: dict[Side, SideName] = {Side.ATTACKERS: "attackers", Side.DEFENDERS: "defenders"}


class Call(Enum):
    """What the caption announces after a move of a game still played: the king's side's
    call, a road the attackers left open, or the king in danger."""

    TUICHI = "tuichi"
    RAICHI = "raichi"
    OPEN_ROAD = "open road"
    OPEN_ROADS = "open roads"
    KING_IN_DANGER = "king in danger"


@dataclass(frozen=True)
class Better:
    """A reviewed move's note: the better move (``e5-e9``) and, when the move was a moment of
    the review, which kind (``None``: only a better move than the one played)."""

    move: str
    kind: MomentKind | None = None


Status = Call | Outcome | Better
"""What a caption's highlighted note says, as data: a call, the rules' result, or a reviewed
move's better move (a game ended off the board is worded by the caller: ``ended``)."""


@dataclass(frozen=True)
class CaptionWords:
    """The words a caption strip draws that are not names or moves, given with the image's
    request: each side's name where no player is named, and a :data:`Status` in words (a
    short note: when space is short, the part after a colon is dropped first)."""

    attackers: str
    defenders: str
    status: Callable[[Status], str]


def result_status(winner: Side | None, ending: str) -> str:
    """A result as the default caption's note says it: ``Attackers win: king escaped``, ``Draw:
    threefold repetition``. The part after the colon, ``ending`` in words, is the detail the
    caption drops first when space is short."""
    verdict = f"{winner.value.capitalize()} win" if winner else "Draw"
    return f"{verdict}: {ending}"


_CAPTION_ENDINGS = {Termination.PERPETUAL_REPETITION: "repetition"}
"""Other words for an ending whose full name would rarely fit beside the players' names (the
winner already says who the repetition was forbidden to)."""
_CALLS = {
    Call.TUICHI: "Tuichi!",
    Call.RAICHI: "Raichi!",
    Call.OPEN_ROAD: "Open road!",
    Call.OPEN_ROADS: "Open roads!",
    Call.KING_IN_DANGER: "King in danger!",
}


def default_status(status: Status) -> str:
    """A caption's note in the default words (English)."""
    if isinstance(status, Outcome):
        ending = status.termination
        return result_status(status.winner, _CAPTION_ENDINGS.get(ending, ending.value))
    if isinstance(status, Better):
        if status.kind is None:
            return f"Better: {status.move}"
        return f"{status.kind.value.capitalize()}: better {status.move}"
    return _CALLS[status]


DEFAULT_WORDS = CaptionWords("Attackers", "Defenders", default_status)
"""The caption's words where the caller gives none: the command line's and the tests'."""


def _status(outcome: Outcome | None, last: MoveResult | None, hints: bool = True) -> Status | None:
    """What the caption's highlighted note says: the result the rules gave, the king's side's
    call, or a king in danger (only the result without ``hints``)."""
    if outcome is not None:
        return outcome
    if not hints:
        return None
    if last is not None and last.tuichi:
        return Call.TUICHI
    if last is not None and last.raichi:
        return Call.RAICHI
    if last is not None and last.routes:
        # The calls are the king's side's; after an attackers' move the road is just open,
        # and it outranks a threat: the defenders move first and can take it.
        return Call.OPEN_ROAD if len(last.routes) == 1 else Call.OPEN_ROADS
    if last is not None and last.king_threatened:
        return Call.KING_IN_DANGER
    return None


def _captured_king_square(game: Game) -> Square | None:
    """Where the king was taken: still on the board, or (should an engine lift him off) where he
    stood before the last move."""
    if game.king_square is not None:
        return game.king_square
    before = game.copy()
    before.undo()
    return before.king_square


def board_view_from_game(
    game: Game,
    *,
    caption: bool = False,
    attackers: str | None = None,
    defenders: str | None = None,
    hints: bool = True,
    ended: str | None = None,
    words: CaptionWords = DEFAULT_WORDS,
) -> BoardView:
    """The current position of `game` with its last move, captures and king markers.

    The king's open routes and the ring round a king in danger are drawn after every move,
    whichever side made it: an attackers' move that leaves a road open matters as much as the
    defenders' move that opened it. With `caption` the strip names the players (`attackers`,
    `defenders`, defaulting to the side names) with the pieces each has lost, shows whose turn
    it is, the last move with its number as the game record writes it (`12.` or `12…`), and the
    announcement or the result. Without `hints` (a puzzle being solved, whose point is to find
    the road or the threat) neither the markers nor the announcement are shown.

    ``ended`` is how the game ended when the board did not end it (its players, its clock or
    its table did, which the board itself cannot know), as the caption's note says it: a result
    (:func:`result_status`: ``Defenders win: resignation``) or what became of the game
    (``Called off``); the caller words it. The rules' own ending, when there is one, is shown
    instead. A finished game's board shows its ending, never whose turn it is, a call, or the
    king's roads and dangers (but for the roads of a Tuichi, which won the game). ``words``
    word the caption (the side names where no player is named, and its note).
    """
    variant = game.variant
    outcome = game.outcome
    over = outcome is not None or ended is not None
    last = game.history[-1] if game.history else None
    last_move: tuple[Square, Square] | None = None
    captured: list[tuple[Square, int]] = []
    routes: tuple[Square, ...] = ()
    threatened = False
    if last is not None:
        last_move = (last.move.origin, last.move.target)
        victim = DEFENDER if last.side is Side.ATTACKERS else ATTACKER
        captured = [(square, victim) for square in last.captures]
        if last.king_captured:
            king = _captured_king_square(game)
            if king is not None:
                captured.append((king, KING))
        # A finished game has nothing left to play for: its roads and dangers are no longer
        # news, unless the roads are what ended it (Tuichi).
        if hints and (
            not over or (outcome is not None and outcome.termination is Termination.TUICHI)
        ):
            routes = last.routes
            threatened = last.king_threatened
    strip = None
    if caption:
        status = _status(outcome, last, hints)
        strip = Caption(
            attackers=attackers or words.attackers,
            defenders=defenders or words.defenders,
            to_move=None if over else _SIDE_NAMES[game.turn],
            move_label=None if last is None else str(game.move_number()),
            # The plain move: the markers show the captures and the king's roads, and the
            # status says the rest in words (OTN's suffixes are for records).
            move_text=None if last is None else last.move.text(game.size),
            status=ended
            if outcome is None and ended is not None
            else None
            if status is None
            else words.status(status),
            attackers_lost=game.lost(Side.ATTACKERS),
            defenders_lost=game.lost(Side.DEFENDERS),
        )
    return BoardView(
        size=game.size,
        cells=tuple(int(piece) for piece in game.cells),
        throne=variant.throne,
        corners=frozenset(variant.corners),
        camps=frozenset(variant.camps),
        last_move=last_move,
        captured=tuple(captured),
        routes=tuple(routes),
        king_threatened=threatened,
        fort=game.exit_fort(),
        caption=strip,
    )


def replay_views(
    game: Game,
    *,
    caption: bool = False,
    attackers: str | None = None,
    defenders: str | None = None,
    ended: str | None = None,
    words: CaptionWords = DEFAULT_WORDS,
) -> list[BoardView]:
    """One view per position of the game, from the start to the current one (for a GIF); the
    last shows ``ended``, how the game ended off the board (see :func:`board_view_from_game`)."""
    replay = game.copy()
    views = [
        board_view_from_game(
            replay,
            caption=caption,
            attackers=attackers,
            defenders=defenders,
            ended=ended,
            words=words,
        )
    ]
    while replay.ply:
        replay.undo()
        views.append(
            board_view_from_game(
                replay, caption=caption, attackers=attackers, defenders=defenders, words=words
            )
        )
    views.reverse()
    return views


def view_before_move(
    game: Game,
    ply: int,
    *,
    better: str | None = None,
    status: str | None = None,
    caption: bool = False,
    attackers: str | None = None,
    defenders: str | None = None,
    words: CaptionWords = DEFAULT_WORDS,
) -> BoardView:
    """The position before the ``ply``-th move of ``game`` (1 is the first move), with that
    move as a solid arrow and ``better`` (``e1-e4``), if given, as a dashed one.

    The position keeps the markers of the move before it (its tint, captures, the king's open
    roads), which is what the player saw when choosing. With ``caption`` the strip shows the
    move with its number and ``status`` (e.g. "Blunder: better d4-d6").
    """
    if not 1 <= ply <= game.ply:
        raise ValueError(f"ply {ply}: the game has moves 1 to {game.ply}")
    played = game.history[ply - 1].move
    before = game.copy()
    while before.ply >= ply:
        before.undo()
    view = board_view_from_game(
        before, caption=caption, attackers=attackers, defenders=defenders, words=words
    )
    arrows = [Arrow(played.origin, played.target, "played")]
    if better is not None:
        move = Move.parse(better, game.size)
        if move != played:
            arrows.append(Arrow(move.origin, move.target, "better"))
    strip = view.caption
    if strip is not None:
        strip = replace(
            strip,
            move_label=str(game.move_number(ply)),
            move_text=played.text(game.size),
            status=status,
            status_first=True,
        )
    return replace(view, arrows=tuple(arrows), caption=strip)


def analysis_view(
    analysis: GameAnalysis,
    ply: int,
    *,
    caption: bool = False,
    attackers: str | None = None,
    defenders: str | None = None,
    words: CaptionWords = DEFAULT_WORDS,
) -> BoardView:
    """The position before the ``ply``-th move of an analysed game, with the move played and
    the better one as arrows: the moment's better move when that move was a decisive moment,
    else the search's choice if it differs. The caption's status names the moment ("Missed win:
    better e5-e9") or just the better move."""
    game = Game(analysis.variant, analysis.start_position, analysis.first_turn)
    for text in analysis.moves:
        game.play(text)
    moment = next((m for m in analysis.moments if m.ply == ply), None)
    if moment is not None:
        better: str | None = moment.better
        note: Better | None = Better(moment.better, moment.kind)
    else:
        better = analysis.evals[ply - 1].best_move
        note = Better(better) if better and better != analysis.moves[ply - 1] else None
    return view_before_move(
        game,
        ply,
        better=better,
        status=None if note is None else words.status(note),
        caption=caption,
        attackers=attackers,
        defenders=defenders,
        words=words,
    )
