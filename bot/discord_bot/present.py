"""How games look in Discord: names, announcements, board images and the text fallback."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.ai import LEVELS
from bot.engine import Game, MoveResult, Piece, Side, square_name
from bot.render import (
    DEFAULT_THEME,
    board_view_from_game,
    render_gif,
    render_png,
    replay_views,
)
from bot.storage import FinishedGame, Participant

from .hub import LiveGame, TakenBack
from .limits import fit_embed

SIDE_ICON = {Side.ATTACKERS: "⚫", Side.DEFENDERS: "⚪"}
COLOUR = {Side.ATTACKERS: discord.Colour.dark_grey(), Side.DEFENDERS: discord.Colour.light_grey()}


def level_name(level: int) -> str:
    """The AI level stored as ``level`` (1-based) by name."""
    return LEVELS[level - 1] if 1 <= level <= len(LEVELS) else f"level {level}"


def plain_name(participant: Participant) -> str:
    """A name without a ping (for images, embeds and records)."""
    if participant.is_ai:
        assert participant.ai_level is not None
        return f"Tafl AI ({level_name(participant.ai_level)})"
    return participant.display_name or f"player {participant.user_id}"


def mention(participant: Participant) -> str:
    """A ping for a person, the plain name for the AI."""
    return plain_name(participant) if participant.is_ai else f"<@{participant.user_id}>"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 move``, ``3 moves`` (``nouns`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def announcement(result: MoveResult, size: int) -> str | None:
    """**Raichi!** / **Tuichi!** after a defenders' move that opened one / two or more routes."""
    routes = ", ".join(square_name(sq, size) for sq in result.routes)
    if result.tuichi:
        count = len(result.routes)
        return (
            f"**Tuichi!** The king has {count} open routes ({routes}): one move cannot close all."
        )
    if result.raichi:
        return f"**Raichi!** The king has an open route to {routes}."
    return None


def describe_move(live: LiveGame, result: MoveResult) -> list[str]:
    """Lines saying what a move did."""
    size = live.game.size
    who = mention(live.participant(result.side))
    lines = [f"{SIDE_ICON[result.side]} {who} played `{result.notation}`"]
    if result.captures:
        taken = ", ".join(square_name(sq, size) for sq in result.captures)
        noun = "piece" if len(result.captures) == 1 else "pieces"
        lines[0] += f", capturing {len(result.captures)} {noun} ({taken})"
    called = announcement(result, size)
    if called:
        lines.append(called)
    if result.king_threatened and result.outcome is None:
        lines.append("The king can be captured next move!")
    return lines


def describe_end(live: LiveGame, finished: FinishedGame) -> list[str]:
    """Lines announcing the result and the rating changes."""
    record = finished.record
    reason = record.reason.value if record.reason else "game over"
    if record.result is None or record.result.value == "draw":
        lines = [f"**Draw** ({reason})."]
    else:
        side = Side(record.result.value)
        lines = [f"**{mention(live.participant(side))} wins** with the {side.value} ({reason})."]
    for change in finished.rating_changes:
        delta = change.after.rating - change.before.rating
        lines.append(
            f"{mention(change.participant)}: {change.before.rating:.0f} → "
            f"{change.after.rating:.0f} ({delta:+.0f})"
        )
    if finished.record.rated is False:
        lines.append("This game was unrated.")
    return lines


def whose_turn(live: LiveGame) -> str:
    """The line that pings the player to move, with their deadline."""
    side = live.game.turn
    player = live.participant(side)
    if player.is_ai:
        return f"{SIDE_ICON[side]} {plain_name(player)} is to move."
    line = f"{SIDE_ICON[side]} {mention(player)}, your move with the {side.value}."
    deadline = live.record.move_deadline
    if deadline is not None:
        line += f" Time runs out <t:{int(deadline.timestamp())}:R>."
    return line


def name_moves(live: LiveGame, moves: Sequence[MoveResult]) -> str:
    """A move and the reply to it by who played them: ``@ann's move `d1-d3` and @bo's reply
    `d7-d5```."""
    first = moves[0].side
    return " and ".join(
        f"{mention(live.participant(result.side))}'s "
        f"{'move' if result.side is first else 'reply'} `{result.notation}`"
        for result in moves
    )


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


async def render_board(
    live: LiveGame, *, flip: bool = False, theme: str = DEFAULT_THEME
) -> BoardImage:
    """Render the current position in a worker thread (never on the event loop)."""
    view = board_view_from_game(
        live.game,
        caption=True,
        attackers=plain_name(live.record.attackers),
        defenders=plain_name(live.record.defenders),
    )
    data = await asyncio.to_thread(render_png, view, flip=flip, theme=theme)
    return BoardImage(data, f"tafl-{live.id}-{live.game.ply}.png")


async def render_replay(game: Game, attackers: str, defenders: str) -> bytes:
    """An animated GIF of the whole game, rendered in a worker thread."""
    views = replay_views(game, caption=True, attackers=attackers, defenders=defenders)
    return await asyncio.to_thread(render_gif, views)


def board_embed(live: LiveGame, image: BoardImage | None, lines: list[str]) -> discord.Embed:
    """The embed that carries the board image and the game's headline."""
    game = live.game
    title = f"{game.variant.title} · game #{live.id}"
    if game.ply:
        title += f" · move {game.ply}"
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR[game.turn])
    embed.add_field(name="Attackers ⚫", value=mention(live.record.attackers))
    embed.add_field(name="Defenders ⚪", value=mention(live.record.defenders))
    if image is not None:
        embed.set_image(url=f"attachment://{image.filename}")
    embed.set_footer(text="/tafl move, or the Move button · /tafl rules explains the game")
    return fit_embed(embed)
