"""A message as the composition builds it: plain data that the table turns into Discord's
objects (an embed, buttons and menus, an attachment, allowed mentions) and sends.

Nothing here imports Discord: a post can be composed, compared and tested without it. The
table applies Discord's length limits when it sends; the composition keeps texts sensible.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.render import BoardView


class Tone(Enum):
    """The colour of a card's edge: the side to move or the winner, or neither."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"
    NEUTRAL = "neutral"
    """A draw, a game called off, or a card about no side."""
    EVENT = "event"
    """A tournament's announcement and standings."""


class Style(Enum):
    """How a button looks (Discord's button styles)."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class Field:
    """A named field of a card."""

    name: str
    value: str
    inline: bool = True


@dataclass(frozen=True)
class Card:
    """An embed: a title, words, fields, a footer; ``picture`` shows the post's picture in it."""

    title: str
    description: str = ""
    tone: Tone = Tone.NEUTRAL
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    picture: bool = False


@dataclass(frozen=True)
class Picture:
    """An image to render and attach: a board view drawn in a theme, turned or not."""

    view: BoardView
    filename: str
    theme: str
    flip: bool = False


@dataclass(frozen=True)
class Button:
    """A button; ``custom_id`` says what a click asks (see the id formats of the features)."""

    custom_id: str
    label: str
    style: Style = Style.SECONDARY
    emoji: str | None = None
    row: int | None = None


@dataclass(frozen=True)
class Option:
    """One choice of a menu."""

    label: str
    value: str
    description: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class Menu:
    """A select menu of options."""

    custom_id: str
    placeholder: str
    options: tuple[Option, ...]
    row: int | None = None


Control = Button | Menu


@dataclass(frozen=True)
class Attachment:
    """A file already made (a game record, a GIF, a chart), attached as it is."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Post:
    """One message: its content, an optional card and picture, its controls, who it notifies,
    and whether only the person who acted sees it.

    ``text_board`` is the position as text, for a channel where the bot may not attach images:
    the table then sends the content, the card's words and this instead of the card.
    """

    content: str | None = None
    card: Card | None = None
    picture: Picture | None = None
    controls: tuple[Control, ...] = ()
    pings: tuple[int, ...] = ()
    """The people the message notifies (their mentions in the content); nobody else."""
    private: bool = False
    text_board: str | None = None
    files: tuple[Attachment, ...] = ()
