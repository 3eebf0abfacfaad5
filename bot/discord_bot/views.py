"""Persistent buttons and menus. Each custom id carries what its handler needs (game, ply, ...),
so clicks keep working after a restart; handlers live in the cogs, never in the views."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from itertools import groupby
from typing import Any, ClassVar, Self, TypeVar, cast

import discord

from bot.engine import Game, square_name

from .errors import report
from .limits import SELECT_DESCRIPTION, SELECT_LABEL, clip

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
Item = discord.ui.DynamicItem[Any]
ItemT = TypeVar("ItemT", bound=Item)

GAME_ACTIONS = {
    "move": ("Move", discord.ButtonStyle.primary, "♟️"),
    "board": ("Flip board", discord.ButtonStyle.secondary, "🔄"),
    "draw": ("Offer draw", discord.ButtonStyle.secondary, None),
    "takeback": ("Take back", discord.ButtonStyle.secondary, "↩️"),
    "resign": ("Resign", discord.ButtonStyle.danger, None),
}

Handler = Callable[[discord.Interaction, ItemT], Awaitable[None]]


class ClickRouter:
    """Which cog method answers each kind of button and menu (the cogs own every rule; the
    items below only carry what a click needs in their custom ids)."""

    def __init__(
        self, on_click: Callable[[discord.Interaction], None] = lambda interaction: None
    ) -> None:
        # Keyed by the item's class; register() ties each class to a handler taking exactly it.
        self._handlers: dict[type[Item], Callable[[discord.Interaction, Any], Awaitable[None]]] = {}
        self._on_click = on_click

    def register(self, kind: type[ItemT], handler: Handler[ItemT]) -> None:
        """Let ``handler`` answer clicks on items of class ``kind``."""
        self._handlers[kind] = handler

    async def dispatch(self, interaction: discord.Interaction, item: Item) -> None:
        """Run the handler of ``item``'s class; any error becomes a private reply (and a logged
        traceback for bugs), exactly as for slash commands."""
        self._on_click(interaction)  # a shutdown lets this click finish first
        name = type(item).__name__
        try:
            handler = self._handlers.get(type(item))
            if handler is None:
                raise RuntimeError(f"no handler is registered for {name}")
            await handler(interaction, item)
        except Exception as error:
            await report(interaction, error, f"a click on {name}")


async def _dispatch(interaction: discord.Interaction, item: Item) -> None:
    router = getattr(interaction.client, "clicks", None)
    if not isinstance(router, ClickRouter):
        raise TypeError("the client has no ClickRouter in its 'clicks' attribute")
    await router.dispatch(interaction, item)


class Routed:
    """What every button and menu here does: its click goes to the handler the cogs registered
    for its class (:class:`ClickRouter`), and after a restart it is rebuilt from its custom id
    alone (:meth:`from_match`, each class's own reading of its template)."""

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


class GameButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:g:(?P<game>\d+):(?P<action>move|board|draw|takeback|resign)",
):
    """Move / flip / offer draw / take back / resign under a board message."""

    def __init__(self, game_id: int, action: str) -> None:
        label, style, emoji = GAME_ACTIONS[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=f"tafl:g:{game_id}:{action}",
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    def from_match(cls, match: re.Match[str]) -> GameButton:
        return cls(int(match["game"]), match["action"])


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


class OfferButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:of:(?P<kind>draw|takeback):(?P<game>\d+):(?P<ply>\d+):(?P<answer>yes|no)",
):
    """The opponent's answer to a draw offer or a takeback request."""

    def __init__(self, kind: str, game_id: int, ply: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(
            discord.ui.Button(
                label=("Accept" if yes else "Decline"),
                style=discord.ButtonStyle.success if yes else discord.ButtonStyle.secondary,
                custom_id=f"tafl:of:{kind}:{game_id}:{ply}:{answer}",
            )
        )
        self.kind = kind
        self.game_id = game_id
        self.ply = ply
        self.answer = answer

    @property
    def accept(self) -> bool:
        """Whether this is the Accept button."""
        return self.answer == "yes"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> OfferButton:
        return cls(match["kind"], int(match["game"]), int(match["ply"]), match["answer"])


class ConfirmResignButton(
    Routed, discord.ui.DynamicItem[Button], template=r"tafl:rs:(?P<game>\d+)"
):
    """The second click of a resignation made with buttons (one stray click must not lose)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"tafl:rs:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ConfirmResignButton:
        return cls(int(match["game"]))


class RematchButton(Routed, discord.ui.DynamicItem[Button], template=r"tafl:rm:(?P<game>\d+)"):
    """Offered under a finished game: a new game with the sides swapped."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                style=discord.ButtonStyle.primary,
                emoji="🔁",
                custom_id=f"tafl:rm:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))


class BlockButton(
    Routed,
    discord.ui.DynamicItem[Button],
    template=r"tafl:bk:(?P<game>\d+):(?P<step>ask|yes)",
):
    """Under the final board of a game from the lobby: Block the opponent (``ask``), and the
    second click that confirms it (``yes``, in the private question)."""

    def __init__(self, game_id: int, step: str) -> None:
        ask = step == "ask"
        super().__init__(
            discord.ui.Button(
                label="Block opponent" if ask else "Yes, block",
                style=discord.ButtonStyle.secondary if ask else discord.ButtonStyle.danger,
                emoji="🚫" if ask else None,
                custom_id=f"tafl:bk:{game_id}:{step}",
            )
        )
        self.game_id = game_id
        self.confirmed = not ask

    @classmethod
    def from_match(cls, match: re.Match[str]) -> BlockButton:
        return cls(int(match["game"]), match["step"])


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
        values = self.item.values
        return int(values[0]) if values and values[0].isdigit() else None

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


class PieceSelect(
    Routed,
    SquareMenu,
    discord.ui.DynamicItem[Select],
    template=r"tafl:pc:(?P<game>\d+):(?P<ply>\d+)(?::(?P<part>\d+))?",
):
    """Step one of the click-to-move flow: choose one of your pieces that can move.

    When more pieces can move than one menu holds, each menu lists a band of ranks; ``part``
    tells the menus of one message apart (the first has none in its custom id, as before).
    """

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: list[discord.SelectOption] | None = None,
        *,
        part: int = 0,
        placeholder: str = "Choose a piece to move",
    ) -> None:
        suffix = f":{part}" if part else ""
        super().__init__(square_select(f"tafl:pc:{game_id}:{ply}{suffix}", placeholder, options))
        self.game_id = game_id
        self.ply = ply
        self.part = part

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PieceSelect:
        return cls(int(match["game"]), int(match["ply"]), part=int(match["part"] or 0))


class TargetSelect(
    Routed,
    SquareMenu,
    discord.ui.DynamicItem[Select],
    template=r"tafl:to:(?P<game>\d+):(?P<ply>\d+):(?P<origin>\d+)",
):
    """Step two: choose where the chosen piece goes."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        origin: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "Choose the destination",
    ) -> None:
        super().__init__(square_select(f"tafl:to:{game_id}:{ply}:{origin}", placeholder, options))
        self.game_id = game_id
        self.ply = ply
        self.origin = origin

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TargetSelect:
        return cls(int(match["game"]), int(match["ply"]), int(match["origin"]))


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
    GameButton,
    ChallengeButton,
    OfferButton,
    ConfirmResignButton,
    RematchButton,
    BlockButton,
    SeekButton,
    AcrossRematchButton,
    TournamentButton,
    LeaveButton,
    PieceSelect,
    TargetSelect,
    PuzzlePieceSelect,
    PuzzleTargetSelect,
    NextPuzzleButton,
)


PEOPLE_ACTIONS = ("move", "board", "draw", "resign")
"""The buttons of a game between two people."""
AI_ACTIONS = ("move", "board", "takeback", "resign")
"""Against the AI in an unrated game: it takes no draw offers but lets a move be taken back."""
RATED_AI_ACTIONS = ("move", "board", "resign")
"""Against the AI in a rated game: neither draws nor takebacks."""


def game_view(game_id: int, actions: Sequence[str] = PEOPLE_ACTIONS) -> discord.ui.View:
    """The buttons under a board message of an ongoing game (``actions``, keys of
    :data:`GAME_ACTIONS`, in order)."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(GameButton(game_id, action))
    return view


def confirm_resign_view(game_id: int) -> discord.ui.View:
    """The button that confirms a resignation."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResignButton(game_id))
    return view


def finished_view(game_id: int, *, rematch: bool = True, block: bool = False) -> discord.ui.View:
    """Under the final board: Rematch (not under a tournament's game: the event pairs the next
    one) and, under a game from the lobby (``block``), Block opponent."""
    view = discord.ui.View(timeout=None)
    if rematch:
        view.add_item(RematchButton(game_id))
    if block:
        view.add_item(BlockButton(game_id, "ask"))
    return view


def confirm_block_view(game_id: int) -> discord.ui.View:
    """The button that confirms blocking the opponent of a game."""
    view = discord.ui.View(timeout=None)
    view.add_item(BlockButton(game_id, "yes"))
    return view


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


def offer_view(kind: str, game_id: int, ply: int) -> discord.ui.View:
    """Accept / Decline under a draw offer or takeback request."""
    view = discord.ui.View(timeout=None)
    view.add_item(OfferButton(kind, game_id, ply, "yes"))
    view.add_item(OfferButton(kind, game_id, ply, "no"))
    return view


MAX_OPTIONS = 25
"""Discord's limit of options in one select menu."""
BACK = "back"
"""The value of the destination menu's Back option (squares are digits)."""


MAX_MENUS = 5
"""Discord's limit of rows in one message, each menu taking a row."""


def rank_bands(origins: Sequence[int], size: int) -> list[list[int]]:
    """``origins`` (ascending squares) split into bands of whole ranks, each at most
    :data:`MAX_OPTIONS` squares, so that every piece fits in a menu (a rank never holds more
    than 19 squares). One band when they all fit."""
    bands: list[list[int]] = []
    for _, squares in groupby(origins, key=lambda square: square // size):
        rank = list(squares)
        if not bands or len(bands[-1]) + len(rank) > MAX_OPTIONS:
            bands.append([])
        bands[-1].extend(rank)
    return bands


def _band_placeholder(band: Sequence[int], size: int) -> str:
    first, last = band[0] // size + 1, band[-1] // size + 1
    ranks = f"rank {first}" if first == last else f"ranks {first}–{last}"
    return f"Choose a piece on {ranks}"


def piece_menus(game: Game) -> list[tuple[list[discord.SelectOption], str]]:
    """The options and placeholder of each menu of the side to move's pieces that can move:
    one menu, or one per band of ranks when more pieces can move than a menu holds (none when
    no piece can move)."""
    size = game.size
    origins = sorted({move.origin for move in game.legal_moves()})
    bands = rank_bands(origins, size) if origins else []
    menus = []
    for band in bands[:MAX_MENUS]:
        options = []
        for origin in band:
            count = len(game.legal_moves(origin))
            kind = game.piece_at(origin).name.lower()
            options.append(
                discord.SelectOption(
                    label=clip(f"{square_name(origin, size)} ({kind})", SELECT_LABEL),
                    value=str(origin),
                    description=clip(
                        f"{count} move{'s' if count != 1 else ''}", SELECT_DESCRIPTION
                    ),
                )
            )
        placeholder = "Choose a piece to move" if len(bands) == 1 else _band_placeholder(band, size)
        menus.append((options, placeholder))
    return menus


def target_options(
    game: Game, origin: int, *, mark_captures: bool = True
) -> list[discord.SelectOption]:
    """The squares the piece on ``origin`` can reach, those that capture marked (unless
    ``mark_captures`` is off: in a puzzle that would give the answer away), and a last option
    to go back and choose another piece (empty when the piece cannot move)."""
    size = game.size
    moves = game.legal_moves(origin)
    if not moves:
        return []
    options = []
    for move in moves[: MAX_OPTIONS - 1]:
        captures = game.captures_of(move) if mark_captures else ()
        label = move.text(size)
        description = None
        if captures:
            taken = ", ".join(square_name(sq, size) for sq in captures)
            label += f" ×{taken}"
            description = f"captures {taken}"
        options.append(
            discord.SelectOption(
                label=clip(label, SELECT_LABEL),
                value=str(move.target),
                description=None if description is None else clip(description, SELECT_DESCRIPTION),
            )
        )
    options.append(
        discord.SelectOption(
            label="Back", value=BACK, emoji="↩️", description="Choose another piece"
        )
    )
    return options


def move_to(game: Game, origin: int) -> str:
    """The destination menu's placeholder: which piece it moves."""
    return f"Move {square_name(origin, game.size)} to…"


def piece_view(game_id: int, game: Game) -> discord.ui.View | None:
    """Step one of click-to-move in a game (``None`` if no piece can move)."""
    menus = piece_menus(game)
    if not menus:
        return None
    view = discord.ui.View(timeout=None)
    for part, (options, placeholder) in enumerate(menus):
        view.add_item(PieceSelect(game_id, game.ply, options, part=part, placeholder=placeholder))
    return view


def target_view(game_id: int, game: Game, origin: int) -> discord.ui.View | None:
    """Step two of click-to-move in a game (``None`` if the piece cannot move)."""
    options = target_options(game, origin)
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        TargetSelect(game_id, game.ply, origin, options, placeholder=move_to(game, origin))
    )
    return view


def puzzle_piece_view(puzzle_id: str, step: int, game: Game) -> discord.ui.View:
    """Under a puzzle's board: click-to-move's choice of a piece (``step``: the moves played
    in the go so far) and a button to leave it for another puzzle of its variant."""
    view = discord.ui.View(timeout=None)
    for part, (options, placeholder) in enumerate(piece_menus(game)[: MAX_MENUS - 1]):
        view.add_item(
            PuzzlePieceSelect(puzzle_id, step, options, part=part, placeholder=placeholder)
        )
    view.add_item(NextPuzzleButton(game.variant.name, skip=True))
    return view


def puzzle_target_view(
    puzzle_id: str, step: int, game: Game, origin: int
) -> discord.ui.View | None:
    """Step two of click-to-move in a puzzle (``None`` if the piece cannot move); captures
    are not marked, since finding them is the puzzle."""
    options = target_options(game, origin, mark_captures=False)
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
