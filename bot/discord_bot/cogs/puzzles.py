"""``/tafl puzzle``: positions with one forced win, solved by moving, rated as lichess rates them.

A go is private (the board and the answers are ephemeral) and is played with ``/tafl move``,
which comes here when the person is not playing the channel's game. Each person has one go open
at a time, stored, so a restart loses nothing. A server's daily puzzle is the same for everyone
that day, and asking for it lists who has solved it.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.puzzles import Puzzle, Verdict, load_starter_set
from bot.engine import Game, Piece, Side, TaflError, get_variant, square_name
from bot.render import ATTACKER, DEFENDER, Arrow, board_view_from_game, render_png
from bot.storage import AttemptChanged, PuzzleAttempt, RatedGo, StoredPuzzle

from ..app.errors import UserError
from ..app.wording import plural
from ..limits import CONTENT, clip
from ..table import PLAIN, BoardLook, look_for
from ..views import (
    NextPuzzleButton,
    PuzzlePieceSelect,
    PuzzleTargetSelect,
    next_puzzle_view,
    puzzle_piece_view,
    puzzle_target_view,
)
from .challenges import VARIANT_CHOICES
from .play import Play, participant_of

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)


STALE = (
    "That board is out of date: your puzzle has moved on since. Use its newest board, or "
    "`/tafl puzzle` to show it again."
)

IN_PROGRESS = "\n-# In progress. **Another puzzle** leaves it for a new one."
PRACTICE = "\n-# Practice: you have tried it before, so it is not rated."


def today() -> str:
    """The day a daily puzzle belongs to (UTC, so it is the same day on every process)."""
    return datetime.now(UTC).strftime("%Y-%m-%d")


def daily_order(guild_id: int, day: str, puzzle_ids: list[str]) -> list[str]:
    """The puzzles in the order a server's daily puzzle is chosen from on ``day``: a shuffle
    fixed by the server and the day, so every process picks the same."""
    return sorted(
        puzzle_ids,
        key=lambda pid: hashlib.sha256(f"{guild_id}:{day}:{pid}".encode()).hexdigest(),
    )


def rating_change(rated: RatedGo) -> str:
    """``puzzle rating 1500 → 1532 (+32, provisional)``: words rather than the "?" of the
    tables, which a sentence would leave unexplained."""
    before, after = rated.player_before, rated.player_after
    delta = f"{round(after.rating) - round(before.rating):+d}".replace("-", "−")
    provisional = ", provisional" if after.provisional else ""
    return f"puzzle rating {round(before.rating)} → {round(after.rating)} ({delta}{provisional})"


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


def position_of(puzzle: Puzzle, line: tuple[str, ...]) -> Game:
    """The puzzle's game after the moves of a go."""
    game = puzzle.game()
    for move in line:
        game.play(move)
    return game


class Puzzles(commands.Cog):
    """Puzzles: a personal one near your puzzle rating, or the server's puzzle of the day."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self._puzzles: dict[str, Puzzle] = {}
        bot.clicks.register(PuzzlePieceSelect, self.on_piece_chosen)
        bot.clicks.register(PuzzleTargetSelect, self.on_target_chosen)
        bot.clicks.register(NextPuzzleButton, self.on_next)

    async def cog_load(self) -> None:
        """Add the shipped set to the database (puzzles stored before keep their ratings)."""
        shipped = await asyncio.to_thread(load_starter_set)
        added = await self.bot.storage.puzzles.add(
            (p.id, p.variant, p.to_text(), float(p.rating)) for p in shipped
        )
        log.info("puzzles: %d shipped, %d new in the database", len(shipped), added)

    @app_commands.command(name="puzzle", description="Solve a puzzle: one forced win to find")
    @app_commands.describe(
        variant="Which rules (any by default)",
        daily="Today's puzzle of this server, the same for everyone",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def puzzle(
        self, interaction: discord.Interaction, variant: str | None = None, daily: bool = False
    ) -> None:
        """Show the puzzle in progress (of ``variant``, if given), or start the next one, or
        the server's puzzle of the day; privately, with menus to move by clicking."""
        await self._show(interaction, variant and get_variant(variant).name, daily=daily)

    async def on_next(self, interaction: discord.Interaction, button: NextPuzzleButton) -> None:
        """Next puzzle / Another puzzle: a new puzzle of the same variant."""
        await self._show(interaction, button.variant, daily=False, fresh=True)

    async def _show(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        *,
        daily: bool,
        fresh: bool = False,
    ) -> None:
        storage = self.bot.storage.puzzles
        person = participant_of(interaction.user)
        guild_id = interaction.guild_id
        day = None
        solvers_line = ""
        open_go = await storage.open_attempt(interaction.user.id)
        open_puzzle = None if open_go is None else await storage.get(open_go.puzzle_id)
        if (
            not (daily or fresh)
            and open_puzzle is not None
            and variant in (None, open_puzzle.variant)
        ):
            assert open_go is not None
            # Back to the go in progress (its private board may have been dismissed).
            attempt, stored = open_go, open_puzzle
            note = IN_PROGRESS
        else:
            if daily:
                if guild_id is None:
                    raise UserError(
                        "The daily puzzle belongs to a server: ask in a server channel."
                    )
                day = today()
                chosen = await storage.daily(
                    guild_id, day, daily_order(guild_id, day, await self._ids())
                )
                stored = await storage.get(chosen)
                solvers = await storage.daily_solvers(guild_id, day)
                solvers_line = (
                    f"\nSolved today by {plural(len(solvers), 'player')}: "
                    + ", ".join(f"<@{s.user_id}>" for s in solvers[:20])
                    if solvers
                    else "\nNobody has solved it yet today."
                )
            else:
                found = await storage.pick(person.user_id or 0, variant)
                if found is None:
                    raise UserError(
                        "You have tried every puzzle"
                        + (f" of {get_variant(variant).title}" if variant else "")
                        + ". Try `/tafl puzzle daily:True`, or another variant."
                    )
                stored = found
            if open_go is not None and open_go.puzzle_id == stored.id:
                attempt, note = open_go, IN_PROGRESS  # the daily puzzle, already under way
            else:
                attempt = await storage.start(
                    person, stored.id, guild_id=guild_id, daily_day=day
                )
                note = PRACTICE if attempt.rated else ""
                if open_go is not None:
                    # Said, so a puzzle never disappears unseen (an older board's button, or
                    # a puzzle of another variant, replaces the one in progress).
                    note += f"\n-# You left puzzle {open_go.puzzle_id} unsolved."
        puzzle = self._puzzle(stored)
        game = position_of(puzzle, attempt.line)
        look = await look_for(self.bot, interaction.user.id, puzzle.to_move)
        png = await asyncio.to_thread(board_png, game, None, look)
        live = await self.bot.cog(Play).live_game(interaction.channel_id or 0)
        typing = (
            "`/tafl move` here plays in your game, so use the menus, or type the move in "
            "another channel."
            if live is not None and live.side_of(interaction.user.id) is not None
            else "or type it with `/tafl move`."
        )
        text = (
            f"**Puzzle {stored.id}** ({get_variant(stored.variant).title}, difficulty "
            f"{round(stored.rating.rating)}): {puzzle.prompt} Choose your move below, "
            f"{typing}{solvers_line}{note}"
        )
        await interaction.response.send_message(
            clip(text, CONTENT),
            file=discord.File(io.BytesIO(png), f"puzzle-{stored.id}.png"),
            view=puzzle_piece_view(puzzle.id, len(attempt.line), game),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def open_go(self, user_id: int) -> PuzzleAttempt | None:
        """The person's puzzle in progress (``/tafl move`` asks before routing a move here)."""
        return await self.bot.storage.puzzles.open_attempt(user_id)

    async def legal_moves(self, attempt: PuzzleAttempt) -> Game:
        """The puzzle's position now, for ``/tafl move``'s list of legal moves."""
        return position_of(await self._load(attempt.puzzle_id), attempt.line)

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
        storage = self.bot.storage.puzzles
        puzzle = await self._load(attempt.puzzle_id)
        user_id = interaction.user.id
        try:
            verdict = await asyncio.to_thread(
                puzzle.answer, attempt.line, text, attempt=attempt.mistakes + 1
            )
        except TaflError as error:
            raise UserError(f"Illegal move: {error}") from None
        try:
            if verdict.correct and verdict.solved:
                line = (*attempt.line, verdict.move)
                _, rated = await storage.solve(user_id, puzzle.id, attempt.line, line)
                words = f"**{verdict.move}** wins: solved!"
                if rated is not None:
                    words += f"\nYour {rating_change(rated)}."
                elif attempt.rated == "loss":
                    words += "\nYour puzzle rating had already counted this puzzle as missed."
                elif attempt.rated == "win":
                    words += "\nPractice: you had solved it before, so your rating stays."
                await self._answer(interaction, puzzle, line, words, solved=True, in_place=in_place)
                return
            if verdict.correct:
                assert verdict.reply is not None
                line = (*attempt.line, verdict.move, verdict.reply)
                await storage.advance(user_id, puzzle.id, attempt.line, line)
                words = (
                    f"**{verdict.move}** is right{capturing(verdict, puzzle)}. The "
                    f"{puzzle.to_move.other.value} reply **{verdict.reply}**: your move."
                )
                await self._answer(interaction, puzzle, line, words, in_place=in_place)
                return
            _, rated = await storage.mistake(user_id, puzzle.id, attempt.line)
        except AttemptChanged:
            raise UserError(STALE) from None
        why = f": {verdict.refutation}" if verdict.refutation else ""
        words = f"**{verdict.move}** is not it{why}. Hint: {verdict.hint} Try again."
        if rated is not None:
            words += f"\nThis puzzle counts as missed: your {rating_change(rated)}."
        await self._answer(
            interaction, puzzle, attempt.line, words, tried=verdict.move, in_place=in_place
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
        look = await look_for(self.bot, interaction.user.id, puzzle.to_move)
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

    # ------------------------------------------------------------------ click-to-move

    async def on_piece_chosen(
        self, interaction: discord.Interaction, menu: PuzzlePieceSelect
    ) -> None:
        """Click-to-move, step one: show where the chosen piece can go (the board and its
        words stay)."""
        attempt, game = await self._current(interaction, menu.puzzle_id, menu.step)
        origin = menu.choice
        view = (
            None
            if origin is None
            else puzzle_target_view(attempt.puzzle_id, menu.step, game, origin)
        )
        if view is None:
            raise UserError("That piece cannot move now; choose another.")
        await interaction.response.edit_message(view=view)

    async def on_target_chosen(
        self, interaction: discord.Interaction, menu: PuzzleTargetSelect
    ) -> None:
        """Click-to-move, step two: judge the move, or with Back choose another piece."""
        attempt, game = await self._current(interaction, menu.puzzle_id, menu.step)
        if menu.back or menu.choice is None:
            await interaction.response.edit_message(
                view=puzzle_piece_view(attempt.puzzle_id, menu.step, game)
            )
            return
        size = game.size
        text = f"{square_name(menu.origin, size)}-{square_name(menu.choice, size)}"
        await self.move(interaction, attempt, text, in_place=True)

    async def _current(
        self, interaction: discord.Interaction, puzzle_id: str, step: int
    ) -> tuple[PuzzleAttempt, Game]:
        """The go a menu belongs to and its position, or why the menu no longer counts."""
        attempt = await self.open_go(interaction.user.id)
        if attempt is None or attempt.puzzle_id != puzzle_id:
            raise UserError(
                f"Puzzle {puzzle_id} is no longer open. `/tafl puzzle` shows the one you are on,"
                " or a new one."
            )
        if len(attempt.line) != step:
            raise UserError(STALE)
        return attempt, await self.legal_moves(attempt)

    async def _ids(self) -> list[str]:
        return await self.bot.storage.puzzles.ids()

    async def _load(self, puzzle_id: str) -> Puzzle:
        if puzzle_id not in self._puzzles:
            self._puzzle(await self.bot.storage.puzzles.get(puzzle_id))
        return self._puzzles[puzzle_id]

    def _puzzle(self, stored: StoredPuzzle) -> Puzzle:
        puzzle = self._puzzles.get(stored.id)
        if puzzle is None:
            puzzle = self._puzzles[stored.id] = Puzzle.from_json(stored.data)
        return puzzle
