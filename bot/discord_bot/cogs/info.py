"""Information: rules, variants, game records (OTN), replays (GIF), leaderboards and stats."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import level_ratings
from bot.engine import VARIANTS, Game, get_variant
from bot.render import DEFAULT_WIDTH, board_view_from_game, render_png
from bot.storage import GameRecord, PuzzleRating, Results

from ..app.players import Players
from ..app.records import GameRecords
from ..app.wording import plain_name, plural, rating_with_games, side_record
from ..choices import VARIANT_CHOICES
from ..compose.board import look_of
from ..limits import GameNumber, fit_embed
from ..present import render_replay
from ..rulebook import calls_text, king_wins_text, special_rules, variant_line

if TYPE_CHECKING:
    from ..client import TaflBot

HELP_START = (
    "**1.** Challenge a member: `/tafl challenge opponent:@someone` (they accept with a "
    "button).\n"
    "**2.** Or play the bot's AI: `/tafl play` (choose a `level`: easy, medium, hard, master).\n"
    "**3.** To move, type `/tafl move` and pick a move from the list (like `e1-e4`), or press "
    "**Move** under the board. `/tafl rules` explains the game.\n"
    "**4.** To get better: `/tafl analyze` reviews your last game, and `/tafl puzzle` gives you "
    "a position to win."
)
"""The first lines of /tafl help: enough to start, make a move, and learn."""

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
"""A command under /tafl: a plain one, or a group of subcommands (tournament)."""

HELP_ORDER = (
    "challenge", "play", "move", "board", "draw", "takeback", "resign", "rematch",
    "rules", "variants", "analyze", "puzzle", "history", "replay", "export",
    "stats", "leaderboard", "preferences",
    "seek", "lobby", "block", "unblock", "tournament",
    "settings", "help",
)  # fmt: skip
"""The order /tafl help lists the commands in: a newcomer's path (start a game, play it, learn
and look back), then games with other servers and tournaments, then the server's options. A
command not named here comes last, in the order it was added: none is ever left out."""

PROVISIONAL = "? marks a provisional rating: it moves fast until a few more games settle it."
"""Said under a list with a provisional rating in it: the "?" is not explained anywhere else."""

SCOPE_CHOICES = [
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="Everywhere", value="global"),
]


NOTATION_KEY = (
    "-# `x` captures · `-` the king has an open road · `+` the king can be captured next move · "
    "`--` escaped · `++` captured"
)
"""The OTN suffixes of the move list, in words (the list itself stays a game record)."""


def moves_text(game: Game) -> str:
    """How long a game is, in full moves as its record numbers them: ``18 moves``."""
    return plural(game.full_moves, "move")


class Info(commands.Cog):
    """Commands that explain and look back; none of them changes a game."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.players: Players = bot.players
        self.records: GameRecords = bot.records

    @app_commands.command(name="help", description="How to start a game, and every command")
    async def help(self, interaction: discord.Interaction) -> None:
        """Four lines to get going, then each command with its description (read from the
        commands themselves, so the list cannot fall behind), in :data:`HELP_ORDER`."""
        listed = "\n".join(
            f"`/tafl {command.name}` — {command.description}"
            for command in help_order(self.bot.tafl.commands)
        )
        embed = discord.Embed(
            title="Tafl: how to play", description=f"{HELP_START}\n\n**Commands**\n{listed}"
        )
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @app_commands.command(name="rules", description="How a variant is played, with its start")
    @app_commands.describe(variant="Which rules to explain (Tablut by default)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = "tablut") -> None:
        """The variant explained, with a picture of its start position in the asker's theme
        (deferred: the first picture of a board size or theme takes a moment to draw)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        rules = get_variant(variant)
        view = board_view_from_game(Game(rules))
        look = look_of(await self.players.preferences(interaction.user.id), None)
        image = await asyncio.to_thread(render_png, view, theme=look.theme)
        embed = discord.Embed(
            title=f"{rules.title} ({rules.size}x{rules.size})", description=rules.summary
        )
        embed.add_field(name="Moves first", value=rules.first.value.title())
        embed.add_field(name="King escapes to", value=king_wins_text(rules))
        embed.add_field(name="Calls", value=calls_text(rules), inline=False)
        for name, text in special_rules(rules):
            embed.add_field(name=name, value=text, inline=False)
        ladder = level_ratings(rules.name).items()
        embed.add_field(
            name="The AI's ratings",
            value=" · ".join(f"{level} {rating}" for level, rating in ladder)
            + " (fixed: a rated game against it moves only your rating)",
            inline=False,
        )
        embed.add_field(
            name="Start a game",
            value=(
                f"`/tafl challenge opponent:@someone variant:{rules.title}` to play a member, "
                f"or `/tafl play variant:{rules.title}` to play the AI. Then move with "
                "`/tafl move` or the Move button under the board."
            ),
            inline=False,
        )
        embed.set_footer(text=f"Source: {rules.source}")
        embed.set_image(url="attachment://start.png")
        await interaction.followup.send(
            embed=fit_embed(embed),
            file=discord.File(io.BytesIO(image), "start.png"),
            ephemeral=True,
        )

    @app_commands.command(name="variants", description="The rules this bot plays")
    async def variants(self, interaction: discord.Interaction) -> None:
        """One line per variant."""
        lines = [variant_line(rules) for rules in VARIANTS.values()]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    async def _game(
        self, interaction: discord.Interaction, game_id: int | None
    ) -> tuple[GameRecord, Game]:
        """The requested game (by id) or the channel's current or most recent one."""
        return await self.records.game(interaction.guild_id, interaction.channel_id or 0, game_id)

    @app_commands.command(name="export", description="The game record as an OTN file")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def export(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Attach the OpenTafl Notation record of a game."""
        record, _ = await self._game(interaction, game)
        text, played = await self.records.otn(record)
        await interaction.response.send_message(
            f"Game #{record.id}: {moves_text(played)}.",
            file=discord.File(io.BytesIO(text.encode()), f"tafl-game-{record.id}.otn"),
        )

    @app_commands.command(name="history", description="The moves of a game so far")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def history(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """The numbered move list as text."""
        record, played = await self._game(interaction, game)
        body = "\n".join(played.numbered_moves()) or "No moves yet."
        if len(body) > 1800:
            body = "…\n" + body[-1800:]
        await interaction.response.send_message(
            f"Game #{record.id} ({played.variant.title}), {moves_text(played)}:\n"
            f"```\n{body}\n```\n{NOTATION_KEY}",
            ephemeral=True,
        )

    @app_commands.command(name="replay", description="An animated replay of a game")
    @app_commands.describe(game="Game number (this channel's game by default)")
    async def replay(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        """Render the whole game as a GIF (deferred: a long game takes a moment)."""
        # Find the game first: a wrong number must get a private answer, and after a public
        # "thinking" defer every answer would be public.
        record, played = await self._game(interaction, game)
        await interaction.response.defer(thinking=True)
        rendered = await render_replay(
            played,
            plain_name(record.attackers),
            plain_name(record.defenders),
            outcome=record.outcome,
        )
        if rendered is None:
            await interaction.followup.send(
                f"Game #{record.id} ({moves_text(played)}) is too long for an animated replay "
                "within Discord's 10 MiB file limit. `/tafl export` saves its record, which "
                "any OpenTafl-compatible viewer replays."
            )
            return
        data, width = rendered
        smaller = ""
        if width != DEFAULT_WIDTH:
            smaller = f" (drawn {width} px wide to fit Discord's file limit)"
        await interaction.followup.send(
            f"Game #{record.id}, {moves_text(played)}{smaller}.",
            file=discord.File(io.BytesIO(data), f"tafl-game-{record.id}.gif"),
        )

    @app_commands.command(name="leaderboard", description="The best-rated players")
    @app_commands.describe(
        variant="Which rules (Tablut by default)", scope="This server only, or everywhere"
    )
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str = "tablut", scope: str = "server"
    ) -> None:
        """Top players of a variant in this server or everywhere; an empty list is answered
        privately, with what it takes to appear on it."""
        rules = get_variant(variant)
        board = await self.players.leaderboard(
            rules.name, interaction.guild_id if scope == "server" else None
        )
        entries, guild_id = board.entries, board.guild_id
        where = " in this server" if guild_id else ""
        needed = (
            f"A player appears after {plural(board.gate, 'rated game')} of {rules.title}{where}."
        )
        if not entries:
            await interaction.response.send_message(
                f"Nobody is on the {rules.title} leaderboard{where} yet. {needed}",
                ephemeral=True,
            )
            return
        title = f"{rules.title} leaderboard " + ("(this server)" if guild_id else "(global)")
        text = "\n".join(
            f"**{entry.rank}.** {entry.display_name or entry.user_id} — "
            f"{entry.rating.display} ({plural(entry.games, 'game')})"
            for entry in entries
        )
        embed = discord.Embed(title=title, description=text)
        notes = [needed]
        if any(entry.rating.provisional for entry in entries):
            notes.append(PROVISIONAL)
        embed.set_footer(text="\n".join(notes))
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="stats", description="A player's record")
    @app_commands.describe(
        player="Whose record (yours by default)",
        variant="Add the rating in these rules (all rules are counted by default)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        """Results against people (rated) apart from those against the AI, by side; the current
        streak; and the rating in every variant played (or the one asked for)."""
        user = player or interaction.user
        only = None if variant is None else get_variant(variant)
        record = await self.players.record(user.id, None if only is None else only.name)
        stats, ratings = record.stats, record.ratings
        title = f"{user.display_name}'s record" + ("" if only is None else f" in {only.title}")
        embed = discord.Embed(title=title)
        if stats.streak.kind is not None:
            embed.description = f"Current streak: {plural(stats.streak.length, stats.streak.kind)}"
        # One field per line of the record, stacked (not inline), so it reads on a phone.
        embed.add_field(
            name="Against people (rated)", value=results_text(stats.against_people), inline=False
        )
        embed.add_field(name="Against the AI", value=results_text(stats.against_ai), inline=False)
        rating_lines = [
            f"{variant_title(rated.variant)}: {rating_with_games(rated)}"
            for rated in ratings
            if rated.games  # a variant asked for but never played has only a newcomer's default
        ]
        embed.add_field(
            name="Rating" if only is not None else "Ratings",
            value="\n".join(rating_lines) or "No rated games yet.",
            inline=False,
        )
        provisional = any(rated.games and rated.rating.provisional for rated in ratings)
        if (puzzles := record.puzzles) is not None:  # one across the variants
            embed.add_field(
                name="Puzzles",
                value=puzzle_record(puzzles, yours=user == interaction.user),
                inline=False,
            )
            provisional = provisional or bool(puzzles.attempts and puzzles.rating.provisional)
        if provisional:
            embed.set_footer(text=PROVISIONAL)
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)


def help_order(commands: Sequence[AppCommand]) -> list[AppCommand]:
    """``commands`` in :data:`HELP_ORDER` (those it does not name last, as they came)."""
    rank = {name: index for index, name in enumerate(HELP_ORDER)}
    return sorted(commands, key=lambda command: rank.get(command.name, len(HELP_ORDER)))


def variant_title(name: str) -> str:
    """A stored variant's title (its stored name if this version no longer plays it)."""
    return VARIANTS[name].title if name in VARIANTS else name


def puzzle_record(record: PuzzleRating, *, yours: bool) -> str:
    """A stats field: the puzzle rating and how the rated (first) goes went, or that there
    are none yet (with how to start, when it is your own record)."""
    if not record.attempts:
        return "None rated yet" + (": `/tafl puzzle` gives you one." if yours else ".")
    return (
        f"{record.rating.display} after {plural(record.attempts, 'rated puzzle')}, "
        f"{record.solved} solved at the first try"
    )


def results_text(results: Results) -> str:
    """A stats field: the record with each side, or that there is none."""
    if not results.games:
        return "No games yet."
    return (
        f"As attackers: {side_record(results.as_attackers)}\n"
        f"As defenders: {side_record(results.as_defenders)}"
    )
