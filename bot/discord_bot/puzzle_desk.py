"""Puzzles on Discord: a go's private boards and the words that answer each move (the sessions
behind them are :mod:`.app.puzzles`). Both ``/tafl puzzle`` and ``/tafl move`` (for someone not
playing the channel's game) answer through here."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.ai.puzzles import Puzzle, Verdict
from bot.engine import Game, Piece, Side, get_variant
from bot.render import ATTACKER, DEFENDER, Arrow, board_view_from_game, render_png
from bot.storage import PuzzleAttempt, RatedGo

from .app.puzzles import Session, position_of
from .app.wording import plural
from .compose.board import PLAIN, BoardLook, look_of
from .limits import CONTENT, clip
from .views import next_puzzle_view, puzzle_piece_view

if TYPE_CHECKING:
    from .client import TaflBot

IN_PROGRESS = "\n-# In progress. **Another puzzle** leaves it for a new one."
PRACTICE = "\n-# Practice: you have tried it before, so it is not rated."


def rating_change(rated: RatedGo) -> str:
    """``puzzle rating 1500 → 1532 (+32, provisional)``: words rather than the "?" of the
    tables, which a sentence would leave unexplained."""
    before, after = rated.player_before, rated.player_after
    delta = f"{round(after.rating) - round(before.rating):+d}".replace("-", "−")
    provisional = ", provisional" if after.provisional else ""
    return f"puzzle rating {round(before.rating)} → {round(after.rating)} ({delta}{provisional})"


def capturing(verdict: Verdict, puzzle: Puzzle) -> str:
    """``, capturing the attacker on h4`` after a right move that captured (the piece is gone
    from the next board, which shows the reply), else nothing."""
    if not verdict.captures:
        return ""
    pieces = "defender" if puzzle.to_move is Side.ATTACKERS else "attacker"
    if len(verdict.captures) == 1:
        return f", capturing the {pieces} on {verdict.captures[0]}"
    squares = ", ".join(verdict.captures[:-1]) + f" and {verdict.captures[-1]}"
    return f", capturing the {pieces}s on {squares}"


def board_png(
    game: Game, tried: str | None = None, look: BoardLook = PLAIN, *, answered: bool = False
) -> bytes:
    """The puzzle's board as the player sees it now (run in a thread), drawn as they like
    (``look``); ``tried``, a wrong move just refused, is drawn as a line ending in a cross, so
    the player sees which move the words are about. ``answered``: the last move is the reply to
    the player's right move, whose captures stay marked too (the board shows the reply, and the
    pieces would vanish unseen). The king's roads and threats are left for the player to find
    until the puzzle is over."""
    view = board_view_from_game(game, caption=True, hints=game.is_over)
    if answered and game.ply >= 2:
        mine = game.history[-2]
        victim = DEFENDER if mine.side is Side.ATTACKERS else ATTACKER
        kept = [(sq, victim) for sq in mine.captures if game.piece_at(sq) is Piece.EMPTY]
        view = replace(view, captured=(*view.captured, *kept))
    if tried is not None:
        move = game.parse_move(tried)
        view = replace(view, arrows=(Arrow(move.origin, move.target, "refused"),))
    return render_png(view, theme=look.theme, flip=look.flip)


class PuzzleDesk:
    """Shows goes and answers moves, privately, with the menus to move by clicking."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.sessions = bot.puzzles
        self.players = bot.players

    async def show(self, interaction: discord.Interaction, session: Session) -> None:
        """A go's board, with its task and how it came to be shown."""
        stored, puzzle, attempt = session.stored, session.puzzle, session.attempt
        note = IN_PROGRESS if session.resumed else PRACTICE if session.practice else ""
        if session.left is not None:
            # Said, so a puzzle never disappears unseen (an older board's button, or a puzzle
            # of another variant, replaces the one in progress).
            note += f"\n-# You left puzzle {session.left} unsolved."
        solvers = ""
        if session.solvers is not None:
            solvers = (
                f"\nSolved today by {plural(len(session.solvers), 'player')}: "
                + ", ".join(f"<@{s.user_id}>" for s in session.solvers[:20])
                if session.solvers
                else "\nNobody has solved it yet today."
            )
        game = position_of(puzzle, attempt.line)
        look = look_of(await self.players.preferences(interaction.user.id), puzzle.to_move)
        png = await asyncio.to_thread(board_png, game, None, look)
        live = await self.bot.play.live_game(interaction.channel_id or 0)
        typing = (
            "`/tafl move` here plays in your game, so use the menus, or type the move in "
            "another channel."
            if live is not None and live.side_of(interaction.user.id) is not None
            else "or type it with `/tafl move`."
        )
        text = (
            f"**Puzzle {stored.id}** ({get_variant(stored.variant).title}, difficulty "
            f"{round(stored.rating.rating)}): {puzzle.prompt} Choose your move below, "
            f"{typing}{solvers}{note}"
        )
        await interaction.response.send_message(
            clip(text, CONTENT),
            file=discord.File(io.BytesIO(png), f"puzzle-{stored.id}.png"),
            view=puzzle_piece_view(puzzle.id, len(attempt.line), game),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def move(
        self,
        interaction: discord.Interaction,
        attempt: PuzzleAttempt,
        text: str,
        *,
        in_place: bool = False,
    ) -> None:
        """Judge a move of a go: the reply, the win, or a hint and another try. Answered with
        a new private board, or (``in_place``, for a click) by updating the clicked one."""
        sessions = self.sessions
        puzzle = await sessions.load(attempt.puzzle_id)
        judged = await sessions.judge(interaction.user.id, attempt, text)
        verdict, rated = judged.verdict, judged.rated
        if verdict.correct and verdict.solved:
            words = f"**{verdict.move}** wins: solved!"
            if rated is not None:
                words += f"\nYour {rating_change(rated)}."
            elif attempt.rated == "loss":
                words += "\nYour puzzle rating had already counted this puzzle as missed."
            elif attempt.rated == "win":
                words += "\nPractice: you had solved it before, so your rating stays."
            await self._answer(interaction, puzzle, judged.line, words, solved=True,
                               in_place=in_place)  # fmt: skip
            return
        if verdict.correct:
            words = (
                f"**{verdict.move}** is right{capturing(verdict, puzzle)}. The "
                f"{puzzle.to_move.other.value} reply **{verdict.reply}**: your move."
            )
            await self._answer(interaction, puzzle, judged.line, words, in_place=in_place)
            return
        why = f": {verdict.refutation}" if verdict.refutation else ""
        words = f"**{verdict.move}** is not it{why}. Hint: {verdict.hint} Try again."
        if rated is not None:
            words += f"\nThis puzzle counts as missed: your {rating_change(rated)}."
        await self._answer(
            interaction, puzzle, judged.line, words, tried=verdict.move, in_place=in_place
        )

    async def _answer(
        self,
        interaction: discord.Interaction,
        puzzle: Puzzle,
        line: tuple[str, ...],
        words: str,
        *,
        solved: bool = False,
        tried: str | None = None,
        in_place: bool = False,
    ) -> None:
        game = position_of(puzzle, line)
        look = look_of(await self.players.preferences(interaction.user.id), puzzle.to_move)
        answered = not solved and tried is None
        png = await asyncio.to_thread(board_png, game, tried, look, answered=answered)
        image = discord.File(io.BytesIO(png), f"puzzle-{puzzle.id}.png")
        view = (
            next_puzzle_view(puzzle.variant)
            if solved
            else puzzle_piece_view(puzzle.id, len(line), game)
        )
        # Said on every board, since a click replaces the words that set the task.
        footer = "" if solved else f"\n-# Puzzle {puzzle.id}: {puzzle.prompt}"
        content = clip(words, CONTENT - len(footer)) + footer
        if in_place:
            await interaction.response.edit_message(content=content, attachments=[image], view=view)
        else:
            await interaction.response.send_message(content, file=image, view=view, ephemeral=True)
