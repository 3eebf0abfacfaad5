"""``/tafl analyze``: the computer's review of a finished game, as players read it.

The review is made (or found stored) by :mod:`..app.reviews`; a progress line is edited while it
works, and the review is shown with its chart and boards.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.analysis import GameAnalysis, Moment, MomentKind
from bot.ai.search import MATE_BOUND
from bot.engine import Side, get_variant
from bot.render import render_png
from bot.render.adapter import analysis_view
from bot.render.chart import render_eval_chart
from bot.storage import GameRecord, GameResult, TableEnding

from ..app.players import Players
from ..app.reviews import ReviewNews, ReviewProgress, ReviewService
from ..app.wording import plain_name, plural
from ..compose.board import PLAIN, BoardLook, look_of
from ..limits import EMBED_FIELD_VALUE, GameNumber, clip, fit_embed

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)

MOMENTS_LISTED = 8
"""At most this many moments in the review's text (the rest are in the exported record)."""


def progress_text(game_id: int, done: int, total: int, elapsed: float) -> str:
    """The progress line: positions searched, and roughly how long the rest will take at the
    pace so far (positions differ, so it is rounded to what a player needs; before the first
    there is no pace to tell)."""
    if not done:
        return f"Reviewing game #{game_id}: 0 of {total} positions searched…"
    left = elapsed / done * (total - done)
    if left < 60:
        remaining = f"about {max(5, round(left / 5) * 5)} s left"
    else:
        remaining = f"about {round(left / 60)} min left"
    return f"Reviewing game #{game_id}: {done} of {total} positions searched, {remaining}…"


def news_text(news: ReviewNews) -> str:
    """A review's news as the line shown while it is made."""
    if not isinstance(news, ReviewProgress):
        return waiting_text(news.game_id, news.ahead)
    if news.deeper:
        return (
            f"Reviewing game #{news.game_id}: every position searched; looking deeper "
            "where the game was decided…"
        )
    return progress_text(news.game_id, news.done, news.total, news.elapsed)


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


_GAVE_UP = {
    TableEnding.RESIGNATION: "resigned",
    TableEnding.TIMEOUT: "ran out of time",
    TableEnding.ABANDONED: "left the game",
}
"""What the loser of a game ended at the table did."""


def result_line(analysis: GameAnalysis, record: GameRecord, names: dict[Side, str]) -> str:
    """How the game ended, in words; a game given up in a position the engine liked for the side
    that gave it up says so (a resignation with a forced win on the board is worth knowing)."""
    reason = record.reason
    if record.result is None or record.result is GameResult.DRAW:
        return f"Drawn ({reason.value if reason else 'game over'})."
    winner = Side(record.result.value)
    loser = winner.other
    gave_up = _GAVE_UP.get(reason) if isinstance(reason, TableEnding) else None
    if gave_up is None:
        how = reason.value if reason else "game over"
        return f"{names[winner]} won with the {winner.value} ({how})."
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
            and record.outcome is not None
            and record.outcome.on_board
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


async def edit_progress(text: str, watching: Sequence[discord.Interaction]) -> None:
    """Put a progress line in the replies of those ``watching`` (a courtesy: a reply that
    cannot be edited is only logged)."""
    for interaction in list(watching):
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException as error:
            log.info("could not update the review progress: %s", error)


class Review(commands.Cog):
    """Post-game analysis."""

    def __init__(self, bot: TaflBot) -> None:
        self.reviews: ReviewService = bot.reviews
        self.players: Players = bot.players

    @app_commands.command(name="analyze", description="A computer review of a finished game")
    @app_commands.describe(game="Game number (this channel's last finished game by default)")
    async def analyze(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Review a finished game: accuracy, the decisive moments, a chart and boards."""
        record, played = await self.reviews.finished(
            interaction.guild_id, interaction.channel_id or 0, game
        )
        # Found and finished: from here every answer is public, with a "thinking" pulse.
        await interaction.response.defer(thinking=True)

        async def watch(news: ReviewNews) -> None:
            await edit_progress(news_text(news), [interaction])

        analysis = await self.reviews.analysis(record, played, interaction.user.id, watch)
        names = {Side.ATTACKERS: plain_name(record.attackers),
                 Side.DEFENDERS: plain_name(record.defenders)}  # fmt: skip
        length = plural(played.full_moves, "move")
        # Drawn for the one who asked, as their own boards are: public, but theirs.
        side = record.side_of(interaction.user.id)
        preferences = await self.players.preferences(interaction.user.id)
        look = look_of(preferences, None if side is None else Side(side))
        embed, files = await asyncio.to_thread(present, analysis, record, names, length, look)
        await interaction.edit_original_response(content=None, embed=embed, attachments=files)
