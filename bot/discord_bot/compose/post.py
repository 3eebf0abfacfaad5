"""A message as the composition builds it: plain data that the table turns into Discord's
objects (an embed, buttons and menus, an attachment, allowed mentions) and sends.

Nothing here imports Discord: a post can be composed, compared and tested without it. The
table applies Discord's length limits when it sends; the composition keeps texts sensible.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.ai.analysis import GameAnalysis
from bot.render import BoardView, CrosstableView
from bot.render.chart import ChartWords
from bot.storage import OfferKind, Venue

from ..app.errors import Refusal
from ..app.games import GameState


class Tone(Enum):
    """The colour of a card's edge: the side to move or the winner, or neither."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"
    NEUTRAL = "neutral"
    """A draw: neither side's colour."""
    CALLED_OFF = "called off"
    """A game called off, without a result of its own."""
    EVENT = "event"
    """A tournament's announcement and standings."""
    PLAIN = "plain"
    """No colour of its own: a card about no side (help, statistics, a review)."""


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
    tone: Tone = Tone.PLAIN
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    picture: bool = False


@dataclass(frozen=True)
class Picture:
    """An image to render and attach: a board view drawn in a theme, turned or not, or a
    tournament's crosstable. ``description``: the attachment's words for screen readers;
    ``optional``: left out where images may not be attached (the post's words say it all)."""

    view: BoardView | CrosstableView
    filename: str
    theme: str
    flip: bool = False
    description: str | None = None
    optional: bool = False


@dataclass(frozen=True)
class Chart:
    """A reviewed game's evaluation chart to render and attach, in a theme, with its words."""

    analysis: GameAnalysis
    filename: str
    theme: str
    words: ChartWords


Image = Picture | Chart
"""An image the table renders (in a thread) and attaches."""


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


@dataclass(frozen=True)
class Link:
    """A button that opens a web address (Discord's link button: no click reaches the bot)."""

    url: str
    label: str
    emoji: str | None = None


Control = Button | Menu | Link


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
    ping_mentioned: bool = False
    """Whoever the content mentions is notified (a board's call to the player to move, the one
    person it mentions); without it and ``pings``, nobody is."""
    private: bool = False
    text_board: str | None = None
    files: tuple[Attachment, ...] = ()
    pictures: tuple[Image, ...] = ()
    """More images, attached after ``picture`` (the card shows the first of them when there
    is no ``picture``): a review's chart and boards."""


@dataclass(frozen=True)
class Choice:
    """One suggestion of a command option's autocomplete: what it shows, what it submits."""

    name: str
    value: str


# ---------------------------------------------------------------------------- deliveries
# What the table does with posts: each names where a post goes (the answer to the interaction
# being handled, a channel, a message to edit, a person) and what is recorded once it is sent.


@dataclass(frozen=True)
class Place:
    """A channel or thread; ``guild_id`` when it may be in a server another process serves (a
    venue of a game across servers): the table then reaches it without caching the server."""

    channel_id: int
    guild_id: int | None = None


@dataclass(frozen=True)
class Answer:
    """The post as the interaction's answer: its response, or a follow-up once it was
    acknowledged (a deferral, the bot "thinking")."""

    post: Post


@dataclass(frozen=True)
class Update:
    """The message clicked on, edited: its content (``None``: kept) and its controls replaced
    (none: taken off). A failure never stops what follows it: the click's work is done."""

    post: Post


@dataclass(frozen=True)
class Revise:
    """The interaction's answer (its "thinking" placeholder or its first message) rewritten:
    its words (``None``: none), and the card and images when the post has them. ``quiet``: a
    failure is only logged (a progress line, a courtesy)."""

    post: Post
    quiet: bool = False


@dataclass(frozen=True)
class Message:
    """A new message in ``place``. ``quiet``: a failure to deliver it is only logged.
    ``missing``: when the channel cannot be found, the person who acted is refused so (else
    nothing is sent)."""

    place: Place
    post: Post
    quiet: bool = True
    missing: Refusal | None = None


@dataclass(frozen=True)
class Edit:
    """A message sent before, edited: its content (``None``: kept) and its controls replaced
    (none: taken off); a message gone or not editable is only logged."""

    place: Place
    message_id: int
    post: Post


@dataclass(frozen=True)
class Direct:
    """A direct message to a person; closed direct messages are only logged."""

    user_id: int
    post: Post


@dataclass(frozen=True)
class Notice:
    """A direct message telling the player to move (``user_id``) that it is their move, at
    ``ply`` of the game: sent only when the games service says so (they asked for such
    messages, and the move's notice has not gone yet, whichever process posts its board)."""

    game_id: int
    ply: int
    user_id: int
    post: Post


@dataclass(frozen=True)
class Retire:
    """The board a new board replaces: its message, and the words it says from then on (about
    the position it shows, addressed to nobody), without and with that position as text (for a
    board that was posted as text). ``None`` words leave its words as they are."""

    message_id: int
    words: str | None
    words_with_board: str | None


@dataclass(frozen=True)
class BoardPost:
    """A game's new board, in ``place`` or (``reply``) as the interaction's answer, falling
    back to ``place`` when Discord no longer takes the answer. Once sent it is recorded
    through the games service (the ply it shows, whether it is the final board), which says
    what it replaced: that board loses its controls and says which position it shows
    (``retire``'s words when it is the board they were composed for, else words composed then
    from ``game``); a game's first board in a channel takes them off the channel's last final
    board.

    ``venue``: one venue of a game across servers (``None``: the game's one channel); a venue
    found gone is handed to the venues' keeper instead of failing the others."""

    game: GameState
    place: Place
    post: Post
    ply: int
    """The position it shows (the game's may have moved on by the time it is sent)."""
    reply: bool = False
    end: bool = False
    retire: Retire | None = None
    venue: Venue | None = None


@dataclass(frozen=True)
class OfferPost:
    """A draw offer or takeback request with its answer buttons: as the interaction's answer
    (``place`` ``None``) or in the other player's venue (``missing``: why the asker is
    refused when it is gone); its message is recorded through the games service."""

    game_id: int
    kind: OfferKind
    ply: int
    post: Post
    place: Place | None = None
    missing: Refusal | None = None


@dataclass(frozen=True)
class Animation:
    """An animated replay to render (its frames as board views) and attach, drawn at the first
    of ``widths`` (pixels, largest first) whose file fits in one upload."""

    views: tuple[BoardView, ...]
    filename: str
    widths: tuple[int, ...]


@dataclass(frozen=True)
class Replay:
    """An animation as the interaction's answer: ``fitted[i]`` is sent with it when it was
    drawn at ``animation.widths[i]``; ``too_long`` when it fits in one upload at no width."""

    animation: Animation
    fitted: tuple[Post, ...]
    too_long: Post


@dataclass(frozen=True)
class Changed:
    """Tell the other processes that a game across servers changed (after its boards)."""

    game_id: int


Delivery = (
    Answer
    | Update
    | Revise
    | Message
    | Edit
    | Direct
    | Notice
    | BoardPost
    | OfferPost
    | Changed
    | Replay
)
