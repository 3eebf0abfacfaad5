"""Persistent buttons and menus of the features not yet composing their messages as data
(challenges, the lobby, tournaments). Each custom id carries what its handler needs, so
clicks keep working after a restart; handlers live in the cogs, and clicks reach them through
the table (:meth:`.table.Table.register`). A game's controls are composed in
:mod:`.compose.board` and read back by the table."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Self, cast

import discord

from .compose.board import (
    BACK,
    MAX_OPTIONS,
    Block,
    chosen_square,
)
from .compose.post import Button as ButtonData
from .compose.post import Style
from .table import Table, view_of

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


class ChallengeButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:ch:(?P<id>\d+):(?P<action>accept|decline|cancel)",
):
    """Accept / decline (the person challenged) or cancel (the challenger)."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.secondary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
    }

    def __init__(self, challenge_id: int, action: str) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"tafl:ch:{challenge_id}:{action}",
            )
        )
        self.challenge_id = challenge_id
        self.action = action

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ChallengeButton:
        return cls(int(match["id"]), match["action"])


class SeekButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:sk:(?P<seek>\d+):(?P<action>cancel|take)",
):
    """Under a seek: Cancel (its player, privately), or Play (anyone else, from the lobby's
    list: a game with that seek's player)."""

    def __init__(self, seek_id: int, action: str, label: str | None = None) -> None:
        cancel = action == "cancel"
        super().__init__(
            discord.ui.Button(
                label=label or ("Cancel seek" if cancel else "Play"),
                style=discord.ButtonStyle.secondary if cancel else discord.ButtonStyle.success,
                custom_id=f"tafl:sk:{seek_id}:{action}",
            )
        )
        self.seek_id = seek_id
        self.action = action

    @classmethod
    def from_match(cls, match: re.Match[str]) -> SeekButton:
        return cls(int(match["seek"]), match["action"])


class TournamentButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:tn:(?P<event>\d+):(?P<action>join|leave)",
):
    """Under a tournament's announcement: Join or Leave."""

    def __init__(self, event_id: int, action: str) -> None:
        join = action == "join"
        super().__init__(
            discord.ui.Button(
                label="Join" if join else "Leave",
                style=discord.ButtonStyle.success if join else discord.ButtonStyle.secondary,
                custom_id=f"tafl:tn:{event_id}:{action}",
            )
        )
        self.event_id = event_id
        self.action = action

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TournamentButton:
        return cls(int(match["event"]), match["action"])


class LeaveButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:tl:(?P<event>\d+):(?P<game>\d+)",
):
    """The second click of leaving a tournament in the middle of a game: it withdraws the
    player and resigns that game."""

    def __init__(self, event_id: int, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, leave and resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"tafl:tl:{event_id}:{game_id}",
            )
        )
        self.event_id = event_id
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> LeaveButton:
        return cls(int(match["event"]), int(match["game"]))


class AcrossRematchButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:xr:(?P<game>\d+):(?P<action>yes|no)",
):
    """The answer to a rematch asked across servers: Accept or Decline, for the other player."""

    def __init__(self, game_id: int, action: str) -> None:
        yes = action == "yes"
        super().__init__(
            discord.ui.Button(
                label="Accept" if yes else "Decline",
                style=discord.ButtonStyle.success if yes else discord.ButtonStyle.secondary,
                custom_id=f"tafl:xr:{game_id}:{action}",
            )
        )
        self.game_id = game_id
        self.accept = yes

    @classmethod
    def from_match(cls, match: re.Match[str]) -> AcrossRematchButton:
        return cls(int(match["game"]), match["action"])


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


DYNAMIC_ITEMS = (
    ChallengeButton,
    SeekButton,
    AcrossRematchButton,
    TournamentButton,
    LeaveButton,
)


def confirm_block_view(game_id: int) -> discord.ui.View:
    """The button that confirms blocking the opponent of a game (a click read back by the
    table, as the Block opponent button under the game's final board)."""
    return view_of((ButtonData(Block(game_id, "yes").custom_id, "Yes, block", Style.DANGER),))


def challenge_view(challenge_id: int) -> discord.ui.View:
    """Accept / Decline / Cancel under a challenge."""
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(challenge_id, action))
    return view


def seek_view(seek_id: int) -> discord.ui.View:
    """Cancel, under a player's own seek."""
    view = discord.ui.View(timeout=None)
    view.add_item(SeekButton(seek_id, "cancel"))
    return view


def tournament_view(event_id: int) -> discord.ui.View:
    """Join and Leave, under a tournament's announcement."""
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton(event_id, "join"))
    view.add_item(TournamentButton(event_id, "leave"))
    return view


def confirm_leave_view(event_id: int, game_id: int) -> discord.ui.View:
    """The button that confirms leaving a tournament mid-game (resigning game ``game_id``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(event_id, game_id))
    return view


def lobby_view(seek_ids: Sequence[int]) -> discord.ui.View | None:
    """A Play button for each listed seek, numbered as in the list (at most 25)."""
    if not seek_ids:
        return None
    view = discord.ui.View(timeout=None)
    for number, seek_id in enumerate(seek_ids[:MAX_OPTIONS], start=1):
        view.add_item(SeekButton(seek_id, "take", f"Play #{number}"))
    return view


def across_rematch_view(game_id: int) -> discord.ui.View:
    """Accept / Decline under a rematch asked from another server."""
    view = discord.ui.View(timeout=None)
    view.add_item(AcrossRematchButton(game_id, "yes"))
    view.add_item(AcrossRematchButton(game_id, "no"))
    return view
