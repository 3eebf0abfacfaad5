"""How games look in Discord: names, announcements, board images and the text fallback."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.engine import (
    REPETITION_LIMIT,
    Game,
    MoveResult,
    Piece,
    Side,
    Square,
    Termination,
    get_variant,
    square_name,
)
from bot.render import (
    DEFAULT_THEME,
    DEFAULT_WIDTH,
    board_view_from_game,
    render_gif,
    render_png,
    replay_views,
    result_status,
)
from bot.storage import (
    Challenge,
    FinishedGame,
    GameEnding,
    GameOutcome,
    GameStatus,
    Participant,
    TableEnding,
    Venue,
)

from .app.games import LiveGame, Offer, TakenBack
from .app.wording import plain_name
from .limits import ATTACHMENT, fit_embed

SIDE_ICON = {Side.ATTACKERS: "⚫", Side.DEFENDERS: "⚪"}
COLOUR = {Side.ATTACKERS: discord.Colour.dark_grey(), Side.DEFENDERS: discord.Colour.light_grey()}


def mention(participant: Participant) -> str:
    """A ping for a person, the plain name for the AI."""
    return plain_name(participant) if participant.is_ai else f"<@{participant.user_id}>"


def stranger(live: LiveGame, side: Side) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    venue = live.venue(side)
    player = live.participant(side)
    return plain_name(player) if venue is None else f"{plain_name(player)} ({venue.guild_name})"


def localize(text: str, live: LiveGame, venue: Venue | None) -> str:
    """``text`` as shown in ``venue`` of a game across servers: the other server's player named
    in plain text instead of mentioned (``None``: a game in one channel, unchanged)."""
    if venue is None:
        return text
    other = Side(venue.side).other
    player = live.participant(other)
    return text.replace(f"<@{player.user_id}>", stranger(live, other))


def local_player(live: LiveGame, venue: Venue | None) -> Participant | None:
    """The player a venue belongs to (``None``: a game in one channel, both are there)."""
    return None if venue is None else live.participant(Side(venue.side))


def squares_text(squares: Sequence[Square], size: int) -> str:
    """Square names as a list in words, file by file: ``c9``, ``c3 and g3``, ``a3, c1 and g3``."""
    ordered = sorted(squares, key=lambda square: (square % size, square // size))
    names = [square_name(square, size) for square in ordered]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def roads_text(routes: Sequence[Square], size: int) -> str:
    """``an open road to c9`` or ``open roads to c3 and g3``."""
    noun = "an open road" if len(routes) == 1 else "open roads"
    return f"{noun} to {squares_text(routes, size)}"


def announcement(result: MoveResult, size: int) -> str | None:
    """**Raichi!** / **Tuichi!** after a defenders' move that opened one / two or more roads.

    "One move cannot close both" is only said when it is true: when the attackers can capture
    the king next move, that move ends the game whatever roads are open.
    """
    roads = roads_text(result.routes, size)
    if result.tuichi:
        line = f"**Tuichi!** The king has {roads}"
        if result.king_threatened:
            return line + ", but he can be captured next move!"
        if result.outcome is None:
            all_of_them = "both" if len(result.routes) == 2 else "them all"
            return line + f": one move cannot close {all_of_them}."
        return line + "."
    if result.raichi:
        return f"**Raichi!** The king has {roads}."
    return None


def king_news(result: MoveResult, size: int) -> list[str]:
    """What a move means for the king, in words (OTN's ``-``, ``+``, ``++`` and ``--`` are for
    records): escaped, captured, an open road, in danger."""
    outcome = result.outcome
    ending = None if outcome is None else outcome.termination
    if ending is Termination.KING_ESCAPED:
        return [f"The king escaped to {square_name(result.move.target, size)}!"]
    if ending is Termination.GROUP_CAPTURED:
        return ["The king's group is surrounded: the king is captured!"]
    if ending is Termination.EXIT_FORT:
        return ["The king built an exit fort on the edge: the attackers cannot break in!"]
    if ending is Termination.ENCIRCLEMENT:
        return ["The attackers have encircled the king and all his defenders!"]
    if result.king_captured:
        return ["The king is captured!"]
    lines = []
    called = announcement(result, size)
    if called:
        lines.append(called)
    elif result.routes and outcome is None:
        # After an attackers' move too: the road they left open is the defenders' to take.
        lines.append(f"The king has {roads_text(result.routes, size)}.")
    if result.king_threatened and not result.tuichi:
        # After an attackers' move the defenders move next, so the capture is a threat to parry.
        lines.append(
            "The king can be captured next move!"
            if result.side is Side.DEFENDERS
            else "The attackers threaten to capture the king."
        )
    return lines


_TIMES = {1: "once", 2: "twice"}
_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_REPEATED = frozenset({Termination.REPETITION, Termination.PERPETUAL_REPETITION})


def repetition_warning(game: Game) -> str | None:
    """A warning when one more occurrence of the current position would end the game (the
    limit is the engine's)."""
    seen = game.repetitions()
    if game.is_over or seen != REPETITION_LIMIT - 1:
        return None
    times = _TIMES.get(seen, f"{seen} times")
    nth = _ORDINALS.get(REPETITION_LIMIT, f"{REPETITION_LIMIT}th")
    ending = game.repetition_ending
    ending_text = (
        "is a draw" if ending.winner is None else f"is a win for the {ending.winner.value}"
    )
    return f"This position has occurred {times}; a {nth} time {ending_text}."


def repetition_news(game: Game, result: MoveResult) -> str | None:
    """What the occurrence of a position that ended the game means: a draw, or (where the rules
    forbid repeating) a loss for the side that may not repeat."""
    outcome = result.outcome
    if outcome is None or outcome.termination not in _REPEATED:
        return None
    nth = _ORDINALS.get(REPETITION_LIMIT, f"{REPETITION_LIMIT}th")
    if outcome.winner is None:
        return f"The position occurred a {nth} time: the game is drawn."
    loser = outcome.winner.other.value
    return (
        f"The position occurred a {nth} time: under {game.variant.title} rules the {loser} "
        "lose by repetition."
    )


def whose_challenge(challenge: Challenge, *, to: bool = True) -> str:
    """``@ann's Brandubh challenge to @bo``: whose challenge it was and which variant (for edits
    of the challenge message, where mentions show names without notifying anyone again)."""
    title = get_variant(challenge.variant).title
    text = f"{mention(challenge.challenger)}'s **{title}** challenge"
    if to and challenge.challenged is not None:
        text += f" to {mention(challenge.challenged)}"
    return text


def describe_move(live: LiveGame, result: MoveResult, game: Game | None = None) -> list[str]:
    """Lines saying what a move did, in words; ``game`` is the game just after it (by default
    the live game: the move is its last)."""
    game = live.game if game is None else game
    size = game.size
    who = mention(live.participant(result.side))
    line = f"{SIDE_ICON[result.side]} {who} played `{result.move.text(size)}`"
    if len(result.captures) == 1:
        line += f", capturing the piece on {squares_text(result.captures, size)}"
    elif result.captures:
        line += f", capturing {len(result.captures)} pieces ({squares_text(result.captures, size)})"
    lines = [line, *king_news(result, size)]
    # A warning before the last occurrence, the news after it (only one of them can apply).
    news = repetition_warning(game) or repetition_news(game, result)
    if news:
        lines.append(news)
    return lines


def ending_text(reason: GameEnding | None) -> str:
    """How a game ended, as a record stores it (``king escaped``)."""
    return reason.value if reason else "game over"


def result_words(outcome: GameOutcome) -> str:
    """A result as a board's title says it: ``Defenders win (resignation)``, ``Draw by
    agreement``."""
    if outcome.termination is TableEnding.AGREED_DRAW:
        return "Draw by agreement"
    verdict = f"{outcome.winner.value.capitalize()} win" if outcome.winner else "Draw"
    return f"{verdict} ({outcome.termination.value})"


def last_board_words(live: LiveGame) -> list[str]:
    """The words of the newest board of a game still being played, for posting it again: what
    its last move did and, when that move was the AI's reply, the move it answered (they came
    on one board)."""
    game = live.game
    if not game.history:
        return []
    last = game.history[-1]
    lines: list[str] = []
    if live.participant(last.side).is_ai and game.ply >= 2:
        before = game.copy()
        before.undo()
        answered = before.history[-1]
        if not live.participant(answered.side).is_ai:
            lines = describe_move(live, answered, before)
    return lines + describe_move(live, last)


def describe_end(live: LiveGame, finished: FinishedGame) -> list[str]:
    """Lines announcing the result, in a sentence that fits how the game ended ("@bo resigned:
    **@al wins** with the attackers."), then the rating changes."""
    record = finished.record
    reason = record.reason
    if record.result is None or record.result.value == "draw":
        agreed = reason is TableEnding.AGREED_DRAW
        lines = ["**Draw** by agreement." if agreed else f"**Draw** ({ending_text(reason)})."]
    else:
        side = Side(record.result.value)
        wins = f"**{mention(live.participant(side))} wins** with the {side.value}"
        loser = mention(live.participant(side.other))
        if reason is TableEnding.RESIGNATION:
            lines = [f"{loser} resigned: {wins}."]
        elif reason is TableEnding.TIMEOUT:
            lines = [f"{loser} ran out of time: {wins}."]
        elif reason is TableEnding.ABANDONED:
            lines = [f"{loser} did not continue the adjourned game in time: {wins}."]
        else:
            lines = [f"{wins} ({ending_text(reason)})."]
    # The AI's rating is fixed: its side of the change is said beside the person's.
    ai = next((c for c in finished.rating_changes if c.participant.is_ai), None)
    against = ""
    if ai is not None:
        against = f" against {plain_name(ai.participant)}, rated {ai.before.display}"
    for change in finished.rating_changes:
        if change.participant.is_ai:
            continue
        lines.append(
            f"{mention(change.participant)}: {change.before.display} → {change.after.display} "
            f"({change.shown_delta:+d}){against}"
        )
    if finished.ended_before_both_moved:
        lines.append("This game was not rated: it ended before both sides had moved.")
    elif not finished.record.rated:
        lines.append("This game was unrated.")
    return lines


def whose_turn(live: LiveGame, venue: Venue | None = None) -> str:
    """The line that pings the player to move, with their deadline; in the other player's venue
    of a game across servers, the line that says who is to move."""
    side = live.game.turn
    player = live.participant(side)
    if player.is_ai:
        return f"{SIDE_ICON[side]} {plain_name(player)} is to move."
    if venue is not None and venue.side != side.value:
        line = f"{SIDE_ICON[side]} {stranger(live, side)} is to move with the {side.value}."
    else:
        line = f"{SIDE_ICON[side]} {mention(player)}, your move with the {side.value}."
    deadline = live.record.move_deadline
    if deadline is not None:
        line += f" Time runs out <t:{int(deadline.timestamp())}:R>."
    return line


def retired_board(live: LiveGame, ply: int | None, *, with_board: bool = False) -> str | None:
    """What a board message says once a newer board has replaced it: the position it shows,
    addressed to nobody (``After 12. d1-d4``); ``with_board`` adds that position as text, for
    a board that was posted as text. ``ply`` is the position's (``None``: not recorded, and
    the words are left as they are)."""
    game = live.game
    if ply is None:
        return None
    if ply > game.ply:
        return f"Game #{live.id} with a move that was then taken back."
    if ply == 0:
        line = f"Game #{live.id} at the start."
    else:
        line = f"After {game.move_number(ply)} {game.history[ply - 1].move.text(game.size)}"
    if not with_board:
        return line
    position = game.copy()
    while position.ply > ply:
        position.undo()
    return f"{line}\n{text_board(position)}"


def name_moves(live: LiveGame, moves: Sequence[MoveResult]) -> str:
    """A move and the reply to it by who played them: ``@ann's move `d1-d3` and @bo's reply
    `d7-d5```."""
    first, size = moves[0].side, live.game.size
    # The moves as the chat names them when played (no OTN suffixes).
    return " and ".join(
        f"{mention(live.participant(result.side))}'s "
        f"{'move' if result.side is first else 'reply'} `{result.move.text(size)}`"
        for result in moves
    )


def takeback_request(live: LiveGame, moves: Sequence[MoveResult]) -> str:
    """What a takeback request asks, told to the opponent: ``asks to take back their move
    `d1-d3``` (and ``your reply `d7-d5```)."""
    size = live.game.size
    words = [f"their move `{moves[0].move.text(size)}`"]
    words += [f"your reply `{reply.move.text(size)}`" for reply in moves[1:]]
    return "asks to take back " + " and ".join(words)


def offer_name(offer: Offer) -> str:
    """``Draw offer`` or ``Takeback request``, as an offer's message names it when it closes."""
    return "Draw offer" if offer.kind == "draw" else "Takeback request"


def overtaken_offer(live: LiveGame, offer: Offer, result: MoveResult) -> str:
    """What an offer's message says once a move made it pointless: the opponent moved instead
    of answering (``Draw offer closed: @bo played `e1-e4` instead of answering.``), or the one
    who asked played on (a takeback asked for on their own turn)."""
    mover = live.participant(result.side)
    played = f"{mention(mover)} played `{result.move.text(live.game.size)}`"
    if mover.user_id == offer.user_id:
        return f"{offer_name(offer)} withdrawn: {played} instead."
    return f"{offer_name(offer)} closed: {played} instead of answering."


def describe_takeback(taken: TakenBack) -> str:
    """Which moves a takeback removed: the asker's move and, if there was one, the reply."""
    verb = "was" if len(taken.moves) == 1 else "were"
    return f"{name_moves(taken.live, taken.moves)} {verb} taken back."


def text_board(game: Game, flip: bool = False) -> str:
    """A monospace board for channels where the bot may not attach images."""
    n = game.size
    symbols = {Piece.EMPTY: "·", Piece.ATTACKER: "●", Piece.DEFENDER: "○", Piece.KING: "♔"}
    special = set(game.variant.corners) | {game.variant.throne} | set(game.variant.camps)
    ranks = range(n) if flip else range(n - 1, -1, -1)
    files = list(range(n - 1, -1, -1) if flip else range(n))
    rows = []
    for rank in ranks:
        cells = []
        for file in files:
            sq = rank * n + file
            piece = game.piece_at(sq)
            cells.append("▫" if piece is Piece.EMPTY and sq in special else symbols[piece])
        rows.append(f"{rank + 1:>2} " + " ".join(cells))
    rows.append("   " + " ".join("abcdefghijklmnopqrs"[f] for f in files))
    return "```\n" + "\n".join(rows) + "\n```"


@dataclass(frozen=True)
class BoardImage:
    """A rendered board ready to attach."""

    data: bytes
    filename: str = "board.png"

    def file(self) -> discord.File:
        """A fresh ``discord.File`` (each send consumes one)."""
        return discord.File(io.BytesIO(self.data), filename=self.filename)


CALLED_OFF = "Called off"
"""The caption's note on a game ended without a result of its own."""
_CAPTION_ENDINGS = {TableEnding.AGREED_DRAW: "by agreement"}
"""Other words for an ending at the table whose full name would repeat the caption's verdict
("Draw: agreed draw")."""


def caption_ending(outcome: GameOutcome | None, *, called_off: bool = False) -> str | None:
    """How a game ended away from the board, as its image's caption says it (``Defenders win:
    resignation``, ``Called off``); ``None`` for a game still played or ended by the rules,
    whose board shows that itself."""
    if called_off:
        return CALLED_OFF
    if outcome is None or not isinstance(outcome.termination, TableEnding):
        return None
    ending = outcome.termination
    return result_status(outcome.winner, _CAPTION_ENDINGS.get(ending, ending.value))


async def render_board(
    live: LiveGame, *, flip: bool = False, theme: str = DEFAULT_THEME
) -> BoardImage:
    """Render the current position in a worker thread (never on the event loop)."""
    view = board_view_from_game(
        live.game,
        caption=True,
        attackers=plain_name(live.record.attackers),
        defenders=plain_name(live.record.defenders),
        ended=caption_ending(live.outcome, called_off=live.record.status is GameStatus.ABORTED),
    )
    data = await asyncio.to_thread(render_png, view, flip=flip, theme=theme)
    return BoardImage(data, f"tafl-{live.id}-{live.game.ply}.png")


REPLAY_WIDTHS = (DEFAULT_WIDTH, 480, 360)
"""Widths a replay is drawn at, largest first, until it fits in one upload."""


async def render_replay(
    game: Game,
    attackers: str,
    defenders: str,
    limit: int = ATTACHMENT,
    *,
    outcome: GameOutcome | None = None,
) -> tuple[bytes, int] | None:
    """An animated GIF of the whole game and its width, rendered in a worker thread: drawn
    smaller when a long game would not fit in ``limit`` bytes, ``None`` if it never does. The
    last frame shows ``outcome``, the stored result of a game ended off the board."""
    views = replay_views(
        game,
        caption=True,
        attackers=attackers,
        defenders=defenders,
        ended=caption_ending(outcome),
    )
    for width in REPLAY_WIDTHS:
        data = await asyncio.to_thread(render_gif, views, width=width)
        if len(data) <= limit:
            return data, width
    return None


def player_field(live: LiveGame, side: Side, venue: Venue | None = None) -> str:
    """A player with the pieces their side has lost: ``@alice · lost 2 of 16`` (in a venue of a
    game across servers, the other server's player by name)."""
    game = live.game
    lost = game.lost(side)
    who = localize(mention(live.participant(side)), live, venue)
    return f"{who} · lost {lost} of {game.men(side) + lost}"


def board_embed(
    live: LiveGame,
    image: BoardImage | None,
    lines: list[str],
    venue: Venue | None = None,
    *,
    in_event: bool = False,
) -> discord.Embed:
    """The embed that carries the board image and the game's headline, as shown in ``venue``
    (``None``: the game's one channel); a tournament's game (``in_event``) offers no rematch."""
    game = live.game
    title = f"{game.variant.title} · game #{live.id}"
    if game.history:
        # As the image's caption and the game record number it: "12." or "12…".
        title += f" · {game.move_number()} {game.history[-1].move.text(game.size)}"
    outcome = live.outcome
    called_off = live.record.status is GameStatus.ABORTED
    if called_off:  # ended without a result of its own: its words say why
        colour = discord.Colour.light_grey()
        title += " · called off"
    elif outcome is None:
        colour = COLOUR[game.turn]
    else:  # the winner's colour; a draw's is neither side's
        colour = COLOUR[outcome.winner] if outcome.winner else discord.Colour.blurple()
        title += f" · {result_words(outcome)}"
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    embed.add_field(name="Attackers ⚫", value=player_field(live, Side.ATTACKERS, venue))
    embed.add_field(name="Defenders ⚪", value=player_field(live, Side.DEFENDERS, venue))
    deadline = live.record.move_deadline
    if deadline is not None:  # finished games have none
        stamp = int(deadline.timestamp())
        embed.add_field(
            name=f"{SIDE_ICON[game.turn]} Deadline", value=f"<t:{stamp}:R> (<t:{stamp}:f>)"
        )
    if image is not None:
        embed.set_image(url=f"attachment://{image.filename}")
    if outcome is not None or called_off:
        # A game that ended before both sides moved (or without a result) has nothing to review.
        reviewable = live.record.both_sides_moved and not called_off
        review = " · /tafl analyze reviews the game" if reviewable else ""
        first = (
            "A tournament game: /tafl tournament pairings shows the round"
            if in_event
            else "Rematch: the button or /tafl rematch"
        )
        embed.set_footer(text=f"{first}{review} · /tafl export saves it")
    else:
        embed.set_footer(text="/tafl move, or the Move button · /tafl rules explains the game")
    return fit_embed(embed)
