"""``/tafl analyze``: the computer's review of a finished game.

Every position is searched at a fixed depth (the same budget gives the same review, so a stored
review is reused as it is) in the AI's worker processes, one position per request, so AI games in
other channels are never kept waiting for more than one position. A progress line is edited while
it works; the review is then stored, and asking again is instant.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.analysis import (
    Deepening,
    GameAnalysis,
    Moment,
    MomentKind,
    budget_name,
    default_depth,
    review,
)
from bot.ai.search import MATE_BOUND
from bot.engine import Game, Side, Termination, get_variant
from bot.render import render_png
from bot.render.adapter import analysis_view
from bot.render.chart import render_eval_chart
from bot.storage import GameRecord, GameResult, GameStatus, NotFound
from bot.storage.replay import replay_game

from ..app.errors import UserError
from ..app.wording import plain_name, plural
from ..limits import EMBED_FIELD_VALUE, GameNumber, clip, fit_embed
from ..table import PLAIN, BoardLook, look_for

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

MOMENTS_LISTED = 8
"""At most this many moments in the review's text (the rest are in the exported record)."""
PROGRESS_EVERY = 2.0
"""Seconds between edits of the progress line (Discord limits edits; players need only a pulse)."""


def progress_text(game_id: int, done: int, total: int, elapsed: float) -> str:
    """The progress line: positions searched, and roughly how long the rest will take at the
    pace so far (positions differ, so it is rounded to what a player needs)."""
    left = elapsed / done * (total - done)
    if left < 60:
        remaining = f"about {max(5, round(left / 5) * 5)} s left"
    else:
        remaining = f"about {round(left / 60)} min left"
    return f"Reviewing game #{game_id}: {done} of {total} positions searched, {remaining}…"


def waiting_text(game_id: int, ahead: int) -> str:
    """What a member sees while their earlier reviews are made first."""
    others = "your other review" if ahead == 1 else f"your {ahead} other reviews"
    return (
        f"Game #{game_id} will be reviewed after {others} (each member's reviews are made one "
        "at a time, so that games against the AI keep their pace)…"
    )


def side_name(side: Side) -> str:
    """``attackers`` / ``defenders``, as players read them."""
    return side.value


def player_and_side(names: dict[Side, str], side: Side) -> str:
    """``ann (attackers)``; a name that already ends in brackets takes the side inside them:
    ``Tafl AI (easy, defenders)``, not ``Tafl AI (easy) (defenders)``."""
    name = names[side]
    if name.endswith(")"):
        return f"{name[:-1]}, {side_name(side)})"
    return f"{name} ({side_name(side)})"


def moment_line(analysis: GameAnalysis, moment: Moment, names: dict[Side, str]) -> str:
    """One moment in a player's words: ``23… d4-d8 Bob (defenders), blunder: lets the king
    reach c9; better d4-d6.``"""
    who = player_and_side(names, moment.side)
    # An explanation that already names the better move ("d8-f8 would have closed it") needs
    # no second mention.
    better = "" if moment.better in moment.explanation else f"; better **{moment.better}**"
    # The line starts with the move in bold: the explanation need not say it again.
    why = moment.explanation.removeprefix(f"{moment.move} ")
    return (
        f"**{analysis.move_label(moment.ply)} {moment.move}** {who}, "
        f"{moment.kind.value}: {why}{better}."
    )


def listed_moments(
    analysis: GameAnalysis,
    names: dict[Side, str],
    room: int = EMBED_FIELD_VALUE,
    moments: Sequence[Moment] | None = None,
) -> tuple[list[str], int]:
    """The lines of ``moments`` (by default all of the analysis's) that fit in ``room``
    characters, in the order of the game, and how many were left out. The boards' (critical)
    moments come first, then the costliest, so the text always covers the boards and the worst
    mistakes, and no line is cut."""
    given = analysis.moments if moments is None else moments
    ranked = sorted(given, key=lambda m: (not m.critical, -m.loss, m.ply))
    chosen: list[Moment] = []
    used = 0
    for moment in ranked:
        if len(chosen) == MOMENTS_LISTED:
            break
        size = len(moment_line(analysis, moment, names)) + 1  # and its line break
        if used + size > room:
            continue
        chosen.append(moment)
        used += size
    chosen.sort(key=lambda m: m.ply)
    return [moment_line(analysis, m, names) for m in chosen], len(given) - len(chosen)


def inaccuracies_text(analysis: GameAnalysis, names: dict[Side, str]) -> str:
    """The inaccuracies, side by side, each as its move and what it cost: ``Ann (attackers):
    12. a4-a5 (−11%), 15. c3-c5 (−12%)``."""
    lines = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        mine = [m for m in analysis.moments if m.kind is MomentKind.INACCURACY and m.side is side]
        if mine:
            moves = ", ".join(
                f"{analysis.move_label(m.ply)} {m.move} (−{m.loss:.0%})" for m in mine
            )
            lines.append(f"{player_and_side(names, side)}: {moves}")
    return clip("\n".join(lines), EMBED_FIELD_VALUE)


def result_line(analysis: GameAnalysis, record: GameRecord, names: dict[Side, str]) -> str:
    """How the game ended, in words; a game given up in a position the engine liked for the side
    that gave it up says so (a resignation with a forced win on the board is worth knowing)."""
    reason = record.reason
    if record.result is None or record.result is GameResult.DRAW:
        return f"Drawn ({reason.value if reason else 'game over'})."
    winner = Side(record.result.value)
    loser = winner.other
    if reason not in (Termination.RESIGNATION, Termination.TIMEOUT, Termination.ABANDONED):
        how = reason.value if reason else "game over"
        return f"{names[winner]} won with the {winner.value} ({how})."
    gave_up = {
        Termination.RESIGNATION: "resigned",
        Termination.TIMEOUT: "ran out of time",
        Termination.ABANDONED: "left the game",
    }[reason]
    line = f"{player_and_side(names, loser)} {gave_up}"
    final = analysis.evals[-1]
    chance = analysis.win_chances()[-1]
    chance = chance if loser is Side.ATTACKERS else 1.0 - chance
    if final.for_side(loser) > MATE_BOUND:
        return f"{line}, with a forced win on the board ({final.best_move} started it)."
    if chance >= 0.5:
        return f"{line} where the engine gave them {chance:.0%} winning chances."
    return f"{line}."


def accuracy_line(analysis: GameAnalysis, names: dict[Side, str]) -> str:
    """Both sides' accuracy, or that a side made no move."""
    parts = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        accuracy = analysis.accuracy(side)
        figure = "no moves" if accuracy is None else f"{accuracy:.0f}% accuracy"
        parts.append(f"{player_and_side(names, side)}: {figure}")
    return " · ".join(parts)


def present(
    analysis: GameAnalysis,
    record: GameRecord,
    names: dict[Side, str],
    length: str,
    look: BoardLook = PLAIN,
) -> tuple[discord.Embed, list[discord.File]]:
    """The review as an embed (accuracy, the decisive moments) with the evaluation chart, and
    a board with arrows for each critical moment, drawn as the asker likes (``look``).
    ``length`` says how long the game was ("18 moves", counted as its record numbers them).
    Pure drawing: run it in a thread."""
    variant = get_variant(analysis.variant)
    embed = discord.Embed(
        title=f"Review of game #{record.id} ({variant.title}, {length})",
        description=f"{result_line(analysis, record, names)}\n{accuracy_line(analysis, names)}",
    )
    decisive = [m for m in analysis.moments if m.kind.decisive]
    mistakes = [m for m in analysis.moments if m.kind is MomentKind.MISTAKE]
    left_out = 0
    if decisive:
        lines, left = listed_moments(analysis, names, moments=decisive)
        left_out += left
        # Only a game won on the board was decided by its moments; a draw, a resignation or
        # a timeout had them all the same.
        decided = (
            record.result not in (None, GameResult.DRAW)
            and record.reason is not None
            and record.reason.on_board
        )
        heading = "The moments that decided it" if decided else "The key moments"
        embed.add_field(name=heading, value="\n".join(lines), inline=False)
    if mistakes:
        lines, left = listed_moments(analysis, names, moments=mistakes)
        left_out += left
        heading = "Mistakes" if decisive else "Mistakes (no single move decided the game)"
        embed.add_field(name=heading, value="\n".join(lines), inline=False)
    if any(m.kind is MomentKind.INACCURACY for m in analysis.moments):
        embed.add_field(name="Inaccuracies", value=inaccuracies_text(analysis, names), inline=False)
    if left_out:
        more = plural(left_out, "more moment")
        embed.set_footer(text=f"{more} in the game record: /tafl export game:{record.id}")
    if not analysis.moments:
        embed.add_field(
            name="No decisive mistake",
            value="Neither side threw away a clear advantage: the result grew move by move.",
            inline=False,
        )
    chart = render_eval_chart(analysis, theme=look.theme)
    files = [discord.File(io.BytesIO(chart), f"review-{record.id}.png")]
    embed.set_image(url=f"attachment://review-{record.id}.png")
    attackers, defenders = names[Side.ATTACKERS], names[Side.DEFENDERS]
    for moment in analysis.critical:
        view = analysis_view(
            analysis, moment.ply, caption=True, attackers=attackers, defenders=defenders
        )
        files.append(
            discord.File(
                io.BytesIO(render_png(view, theme=look.theme, flip=look.flip)),
                f"review-{record.id}-move-{moment.ply}.png",
            )
        )
    return fit_embed(embed), files


class Review(commands.Cog):
    """Post-game analysis."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self._working: dict[tuple[int, str], asyncio.Task[GameAnalysis]] = {}
        """Reviews being made: a second ask for the same game waits for the first."""
        self._watching: dict[tuple[int, str], list[discord.Interaction]] = {}
        """Who is waiting for each review being made: each of them sees its progress."""
        self._turns: dict[int, asyncio.Lock] = {}
        """Each member's reviews are made one at a time, in the order asked (the lock is
        fair), so one member cannot fill the AI's workers with reviews."""
        self._asked: dict[int, int] = {}
        """How many reviews each member has asked for that are not ready yet."""

    @app_commands.command(name="analyze", description="A computer review of a finished game")
    @app_commands.describe(game="Game number (this channel's last finished game by default)")
    async def analyze(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Review a finished game: accuracy, the decisive moments, a chart and boards."""
        record = await self._finished(interaction, game)
        played = replay_game(record, await self.bot.storage.games.moves(record.id))
        # Found and finished: from here every answer is public, with a "thinking" pulse.
        await interaction.response.defer(thinking=True)
        analysis = await self.analysis(record, played, interaction)
        names = {Side.ATTACKERS: plain_name(record.attackers),
                 Side.DEFENDERS: plain_name(record.defenders)}  # fmt: skip
        length = plural(played.full_moves, "move")
        # Drawn for the one who asked, as their own boards are: public, but theirs.
        side = record.side_of(interaction.user.id)
        look = await look_for(self.bot, interaction.user.id, None if side is None else Side(side))
        embed, files = await asyncio.to_thread(present, analysis, record, names, length, look)
        await interaction.edit_original_response(content=None, embed=embed, attachments=files)

    async def analysis(
        self, record: GameRecord, played: Game, interaction: discord.Interaction | None = None
    ) -> GameAnalysis:
        """The stored review of a game, or a new one (stored before it is returned).

        A member who asks for a review while another of theirs is being made waits for it
        (told how many are ahead); asking for one being made already just watches it."""
        budget = budget_name(record.variant)
        stored = await self.bot.storage.analyses.get(record.id, budget)
        if stored is not None:
            return GameAnalysis.from_json(stored)
        key = (record.id, budget)
        if interaction is None or key in self._working:
            return await self._review(record, played, key, interaction)
        member = interaction.user.id
        turn = self._turns.setdefault(member, asyncio.Lock())
        ahead = self._asked.get(member, 0)
        self._asked[member] = ahead + 1
        try:
            if turn.locked():
                await interaction.edit_original_response(content=waiting_text(record.id, ahead))
            async with turn:
                stored = await self.bot.storage.analyses.get(record.id, budget)
                if stored is not None:  # made meanwhile, for someone else
                    return GameAnalysis.from_json(stored)
                return await self._review(record, played, key, interaction)
        finally:
            self._asked[member] -= 1
            if not self._asked[member]:
                del self._asked[member], self._turns[member]

    async def _review(
        self,
        record: GameRecord,
        played: Game,
        key: tuple[int, str],
        interaction: discord.Interaction | None,
    ) -> GameAnalysis:
        """Make the review (or watch the one being made), showing its progress to the asker."""
        watching = self._watching.setdefault(key, [])
        if interaction is not None:
            watching.append(interaction)
        task = self._working.get(key)
        if task is None:
            task = asyncio.create_task(self._make(record, played, watching))
            self._working[key] = task

            def finished(_: object) -> None:
                self._working.pop(key, None)
                self._watching.pop(key, None)

            task.add_done_callback(finished)
        return await asyncio.shield(task)

    async def _make(
        self, record: GameRecord, played: Game, watching: list[discord.Interaction]
    ) -> GameAnalysis:
        moves = [result.move.text(played.size) for result in played.history]
        depth = default_depth(record.variant)
        total = len(moves) + 1
        started = time.monotonic()
        shown = started
        evals = []
        for ply in range(total):
            evals.append(
                await self.bot.ai.evaluate(
                    variant=record.variant,
                    start_position=record.start_position,
                    start_turn=Side(record.first_turn),
                    moves=moves[:ply],
                    max_depth=depth,
                    key=f"review-{record.id}",
                )
            )
            now = time.monotonic()
            if watching and now - shown >= PROGRESS_EVERY and ply + 1 < total:
                shown = now
                text = progress_text(record.id, ply + 1, total, now - started)
                for interaction in list(watching):
                    try:
                        await interaction.edit_original_response(content=text)
                    except discord.HTTPException as error:  # the pulse is a courtesy only
                        log.info("could not update the review progress: %s", error)
        # Where a forced result or a collapse of chances began, look deeper for the move that
        # allowed it.
        deepening = Deepening(evals, depth, moves, Side(record.first_turn), record.variant)
        while (ask := deepening.next()) is not None:
            if deepening.searched == 0:
                for interaction in list(watching):
                    with contextlib.suppress(discord.HTTPException):  # a courtesy only
                        await interaction.edit_original_response(
                            content=f"Reviewing game #{record.id}: every position searched; "
                            "looking deeper where the game was decided…"
                        )
            deepening.accept(
                ask.position,
                await self.bot.ai.evaluate(
                    variant=record.variant,
                    start_position=record.start_position,
                    start_turn=Side(record.first_turn),
                    moves=moves[: ask.position],
                    max_depth=ask.depth,
                    key=f"review-{record.id}",
                    exclude=ask.exclude,
                ),
            )
        analysis = await asyncio.to_thread(
            review,
            record.variant,
            record.start_position,
            Side(record.first_turn),
            moves,
            deepening.evals,
        )
        await self.bot.storage.analyses.save(
            record.id, budget_name(record.variant), analysis.to_json()
        )
        log.info(
            "game %d reviewed: %d positions in %.1f s (%d searched again, deeper), %d moments",
            record.id, total, time.monotonic() - started, deepening.searched,
            len(analysis.moments),
        )  # fmt: skip
        return analysis

    async def _finished(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        """The game asked for, which must have ended with a result in this server."""
        storage = self.bot.storage
        if game_id is None:
            game_id = await storage.games.last_finished_in_channel(interaction.channel_id or 0)
            if game_id is None:
                raise UserError(
                    "No game has finished in this channel yet: name one, e.g. "
                    "`/tafl analyze game:12`."
                )
        try:
            record = await storage.games.get(game_id)
        except NotFound:
            record = None
        # Looked up only within the server it was played in: ids are guessable.
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError(f"There is no game #{game_id} in this server.")
        if record.status is not GameStatus.FINISHED:
            if record.status is GameStatus.ACTIVE:
                raise UserError(
                    f"Game #{record.id} is still being played: it can be reviewed once it ends."
                )
            raise UserError(
                f"Game #{record.id} ended without a result, so there is nothing to review."
            )
        return record
