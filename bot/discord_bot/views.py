"""Persistent buttons and menus of the features not yet composing their messages as data
(puzzles). Each custom id carries what its handler needs, so clicks keep working after a
restart; handlers live in the cogs, and clicks reach them through the table
(:meth:`.table.Table.register`). A game's controls are composed in :mod:`.compose.board` and
read back by the table."""

from __future__ import annotations

import re
from typing import Any, Self, cast

import discord

from bot.engine import Game

from .compose.board import (
    BACK,
    MAX_MENUS,
    chosen_square,
    move_to,
    piece_menus,
    target_options,
)
from .table import Table, select_option

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
Item = discord.ui.DynamicItem[Any]


async def _dispatch(interaction: discord.Interaction, item: Item) -> None:
    table = getattr(interaction.client, "clicks", None)
    if not isinstance(table, Table):
        raise TypeError("the client has no Table in its 'clicks' attribute")
    await table.dispatch(interaction, item)


class Routed:
    """What every button and menu here does: its click goes to the handler the cogs registered
    for its class (:meth:`.table.Table.register`), and after a restart it is rebuilt from its
    custom id alone (:meth:`from_match`, each class's own reading of its template)."""

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The item a custom id matching the class's template stands for."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.from_match(match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, cast(Item, self))


class SquareMenu:
    """What a click-to-move menu's click says: a square (its options' values are square
    numbers), or Back."""

    item: Select

    @property
    def choice(self) -> int | None:
        """The square chosen (``None`` if the click carried no choice, or Back)."""
        return chosen_square(self.item.values)

    @property
    def back(self) -> bool:
        """Whether the player chose to go back to the choice of a piece."""
        return list(self.item.values) == [BACK]


def square_select(
    custom_id: str, placeholder: str, options: list[discord.SelectOption] | None
) -> Select:
    """A click-to-move menu; a menu rebuilt from its custom id alone (a click after a restart)
    gets a placeholder option, as Discord requires one."""
    return discord.ui.Select(
        placeholder=placeholder,
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="-")],
    )


PUZZLE_ID = r"[a-z0-9-]{1,60}"
"""How a puzzle's id is written in a custom id (``tablut-2cae849b``)."""


class PuzzlePieceSelect(
    Routed,
    SquareMenu,
    discord.ui.DynamicItem[Select],
    template=rf"tafl:zp:(?P<puzzle>{PUZZLE_ID}):(?P<step>\d+)(?::(?P<part>\d+))?",
):
    """Click-to-move in a puzzle, step one: a piece. ``step`` is the number of moves played in
    the go when the menu was shown, so a menu left on an older board is recognised."""

    def __init__(
        self,
        puzzle_id: str,
        step: int,
        options: list[discord.SelectOption] | None = None,
        *,
        part: int = 0,
        placeholder: str = "Choose a piece to move",
    ) -> None:
        suffix = f":{part}" if part else ""
        super().__init__(square_select(f"tafl:zp:{puzzle_id}:{step}{suffix}", placeholder, options))
        self.puzzle_id = puzzle_id
        self.step = step
        self.part = part

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PuzzlePieceSelect:
        return cls(match["puzzle"], int(match["step"]), part=int(match["part"] or 0))


class PuzzleTargetSelect(
    Routed,
    SquareMenu,
    discord.ui.DynamicItem[Select],
    template=rf"tafl:zt:(?P<puzzle>{PUZZLE_ID}):(?P<step>\d+):(?P<origin>\d+)",
):
    """Click-to-move in a puzzle, step two: where the chosen piece goes (or Back)."""

    def __init__(
        self,
        puzzle_id: str,
        step: int,
        origin: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "Choose the destination",
    ) -> None:
        super().__init__(
            square_select(f"tafl:zt:{puzzle_id}:{step}:{origin}", placeholder, options)
        )
        self.puzzle_id = puzzle_id
        self.step = step
        self.origin = origin

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PuzzleTargetSelect:
        return cls(match["puzzle"], int(match["step"]), int(match["origin"]))


class NextPuzzleButton(
    Routed, discord.ui.DynamicItem[Button], template=r"tafl:zn:(?P<variant>[a-z0-9-]{1,40})"
):
    """Another puzzle of the same variant: "Next puzzle" under a solved one, "Another
    puzzle" (skipping this one) under one in progress."""

    def __init__(self, variant: str, *, skip: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="Another puzzle" if skip else "Next puzzle",
                style=discord.ButtonStyle.secondary if skip else discord.ButtonStyle.primary,
                emoji="🧩",
                custom_id=f"tafl:zn:{variant}",
            )
        )
        self.variant = variant

    @classmethod
    def from_match(cls, match: re.Match[str]) -> NextPuzzleButton:
        return cls(match["variant"])


DYNAMIC_ITEMS = (
    PuzzlePieceSelect,
    PuzzleTargetSelect,
    NextPuzzleButton,
)


def puzzle_piece_view(puzzle_id: str, step: int, game: Game) -> discord.ui.View:
    """Under a puzzle's board: click-to-move's choice of a piece (``step``: the moves played
    in the go so far) and a button to leave it for another puzzle of its variant."""
    view = discord.ui.View(timeout=None)
    for part, (options, placeholder) in enumerate(piece_menus(game)[: MAX_MENUS - 1]):
        choices = [select_option(option) for option in options]
        view.add_item(
            PuzzlePieceSelect(puzzle_id, step, choices, part=part, placeholder=placeholder)
        )
    view.add_item(NextPuzzleButton(game.variant.name, skip=True))
    return view


def puzzle_target_view(
    puzzle_id: str, step: int, game: Game, origin: int
) -> discord.ui.View | None:
    """Step two of click-to-move in a puzzle (``None`` if the piece cannot move); captures
    are not marked, since finding them is the puzzle."""
    options = [select_option(o) for o in target_options(game, origin, mark_captures=False)]
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        PuzzleTargetSelect(
            puzzle_id,
            step,
            origin,
            options,
            placeholder=move_to(game, origin),
        )
    )
    return view


def next_puzzle_view(variant: str) -> discord.ui.View:
    """Under a solved puzzle: the next one of ``variant``."""
    view = discord.ui.View(timeout=None)
    view.add_item(NextPuzzleButton(variant))
    return view
