"""What players read and see of a game: its boards (card, picture, controls, the text board
where images may not be attached), moves and endings in words, whose turn it is, retired
boards, offers and their answers, takebacks, the turn notices by direct message, the menus to
move by clicking, /tafl move's suggestions, and the custom ids of the game's controls.

Pure functions of the games service's events (:mod:`..app.games`), the venue a post is shown
in and the viewer; they build :class:`~.post.Post` objects and the deliveries that say where
each goes. Nothing here imports Discord or calls back into the service: everything needed is
in the event, so this module is tested on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import ClassVar

from bot.ai import level_named, level_rating
from bot.engine import (
    REPETITION_LIMIT,
    Game,
    Move,
    MoveResult,
    Outcome,
    Piece,
    Side,
    Square,
    TaflError,
    Termination,
    UnknownVariantError,
    Variant,
    get_variant,
    parse_square,
    square_name,
)
from bot.render import (
    DEFAULT_THEME,
    THEMES,
    Better,
    Call,
    CaptionWords,
    Status,
    board_view_from_game,
)
from bot.storage import (
    FinishedGame,
    GameEnding,
    GameOutcome,
    GameRecord,
    GameStatus,
    Participant,
    PlayerPreferences,
    PlayerRating,
    SideRecord,
    TableEnding,
    Venue,
)

from ...i18n.language import CHOICE_NAME, ENGLISH_LANGUAGE, N_, Language
from ..app.ai_turns import AIReply, AIThinking
from ..app.games import (
    AIDeclinesDraws,
    AlreadyOver,
    AskingTheAI,
    Declined,
    Ended,
    GameAdjourned,
    GameOver,
    GameState,
    IllegalMove,
    JustDeclined,
    MoveOvertaken,
    NoGame,
    NoLegalMove,
    NoMoveOfYours,
    NoMoveYet,
    NotAITurn,
    NotPlaying,
    NotYourTurn,
    Offer,
    OfferGone,
    OfferMade,
    OfferOpen,
    OpponentAway,
    OpponentMustAgree,
    OwnOffer,
    PieceStuck,
    Played,
    PlayersAnswer,
    RatedAgainstAI,
    RequestOvertaken,
    ResultUnsaved,
    StaleMenu,
    TakebackOvertaken,
    TakenBack,
)
from .errors import refusal_words, seconds_left
from .post import (
    Answer,
    BoardPost,
    Button,
    Card,
    Changed,
    Choice,
    Control,
    Delivery,
    Direct,
    Edit,
    Field,
    Menu,
    Message,
    Notice,
    OfferPost,
    Option,
    Picture,
    Place,
    Post,
    Retire,
    Style,
    Tone,
    Update,
)

# ---------------------------------------------------------------------------- custom ids
# Each control's custom id says what a click asks, and is read back from it alone (after a
# restart too): TEMPLATE is the pattern the table matches (its named groups are the fields,
# numbers read as such; a menu's chosen values go in ``values``), custom_id writes it. These
# strings never change: buttons posted by an older version keep working.


@dataclass(frozen=True)
class GameAction:
    """A button under a live board: Move, Flip board, Offer draw, Take back or Resign."""

    TEMPLATE: ClassVar[str] = r"tafl:g:(?P<game_id>\d+):(?P<action>move|board|draw|takeback|resign)"
    game_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:g:{self.game_id}:{self.action}"


@dataclass(frozen=True)
class OfferAnswer:
    """The opponent's answer to a draw offer or a takeback request made at ``ply``."""

    TEMPLATE: ClassVar[str] = (
        r"tafl:of:(?P<kind>draw|takeback):(?P<game_id>\d+):(?P<ply>\d+):(?P<answer>yes|no)"
    )
    kind: str
    game_id: int
    ply: int
    answer: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:of:{self.kind}:{self.game_id}:{self.ply}:{self.answer}"

    @property
    def accept(self) -> bool:
        """Whether this is the Accept button."""
        return self.answer == "yes"


@dataclass(frozen=True)
class ConfirmResign:
    """The second click of a resignation made with buttons (one stray click must not lose)."""

    TEMPLATE: ClassVar[str] = r"tafl:rs:(?P<game_id>\d+)"
    game_id: int

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:rs:{self.game_id}"


@dataclass(frozen=True)
class Rematch:
    """Under a finished game: a new game with the sides swapped."""

    TEMPLATE: ClassVar[str] = r"tafl:rm:(?P<game_id>\d+)"
    game_id: int

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:rm:{self.game_id}"


@dataclass(frozen=True)
class Block:
    """Under the final board of a game from the lobby: Block the opponent (``ask``), and the
    second click that confirms it (``yes``, in the private question)."""

    TEMPLATE: ClassVar[str] = r"tafl:bk:(?P<game_id>\d+):(?P<step>ask|yes)"
    game_id: int
    step: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:bk:{self.game_id}:{self.step}"

    @property
    def confirmed(self) -> bool:
        """Whether this is the second click, that blocks."""
        return self.step == "yes"


@dataclass(frozen=True)
class PieceChoice:
    """Step one of click-to-move: one of your pieces that can move. When more pieces can move
    than one menu holds, each menu lists a band of ranks; ``part`` tells the menus of one
    message apart (the first has none in its custom id)."""

    TEMPLATE: ClassVar[str] = r"tafl:pc:(?P<game_id>\d+):(?P<ply>\d+)(?::(?P<part>\d+))?"
    game_id: int
    ply: int
    part: int = 0
    values: tuple[str, ...] = ()

    @property
    def custom_id(self) -> str:
        """The id this menu carries."""
        suffix = f":{self.part}" if self.part else ""
        return f"tafl:pc:{self.game_id}:{self.ply}{suffix}"


@dataclass(frozen=True)
class TargetChoice:
    """Step two: where the piece on ``origin`` goes (or Back, to choose another piece)."""

    TEMPLATE: ClassVar[str] = r"tafl:to:(?P<game_id>\d+):(?P<ply>\d+):(?P<origin>\d+)"
    game_id: int
    ply: int
    origin: int
    values: tuple[str, ...] = ()

    @property
    def custom_id(self) -> str:
        """The id this menu carries."""
        return f"tafl:to:{self.game_id}:{self.ply}:{self.origin}"


CONTROLS = (GameAction, OfferAnswer, ConfirmResign, Rematch, Block, PieceChoice, TargetChoice)
"""Every kind of control of a game's messages."""

BACK = "back"
"""The value of the destination menu's Back option (squares are digits)."""


# ---------------------------------------------------------------------------- the shared vocabulary
# Names and numbers in the players' words, for every feature's composition: players, counts with
# the right plural, records, ratings and how a game ended, so that "Tafl AI (hard)", "1 loss" and
# "1500? after 1 rated game" read the same everywhere.


def side_record(record: SideRecord, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """ "2 wins · 1 loss · 0 draws"."""
    return " · ".join(
        (
            lang.ngettext("{count} win", "{count} wins", record.wins, count=record.wins),
            lang.ngettext("{count} loss", "{count} losses", record.losses, count=record.losses),
            lang.ngettext("{count} draw", "{count} draws", record.draws, count=record.draws),
        )
    )


def rating_with_games(rated: PlayerRating, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """ "1662? after 1 rated game"."""
    return lang.ngettext(
        "{rating} after {count} rated game",
        "{rating} after {count} rated games",
        rated.games,
        rating=rated.rating.display,
        count=rated.games,
    )


def variant_title(variant: str | Variant, lang: Language) -> str:
    """A variant's title in the reader's words (``Hnefatafl de Copenhague``): the name the
    command picker's variant choices show them, so that a sentence and the menu agree. A
    stored name this version no longer plays is shown as stored."""
    if isinstance(variant, str):
        try:
            rules = get_variant(variant)
        except UnknownVariantError:
            return variant
    else:
        rules = variant
    return lang.translated(CHOICE_NAME, rules.title) or rules.title


def duration_words(seconds: int, *, lang: Language) -> str:
    """A time in its largest whole unit: ``90`` → "90 seconds", ``3600`` → "1 hour",
    ``172800`` → "2 days" (as :func:`..app.durations.describe_duration` says it, in ``lang``)."""
    if seconds % 86400 == 0:
        return lang.ngettext("{count} day", "{count} days", seconds // 86400)
    if seconds % 3600 == 0:
        return lang.ngettext("{count} hour", "{count} hours", seconds // 3600)
    if seconds % 60 == 0:
        return lang.ngettext("{count} minute", "{count} minutes", seconds // 60)
    return lang.ngettext("{count} second", "{count} seconds", seconds)


def level_words(level: str, lang: Language = ENGLISH_LANGUAGE) -> str:
    """An AI level's name (``easy``...) in ``lang`` (``medium`` → ``moyen``); the engine's
    names are the English ones."""
    names = {
        "easy": lang.pgettext("AI level", "easy"),
        "medium": lang.pgettext("AI level", "medium"),
        "hard": lang.pgettext("AI level", "hard"),
        "master": lang.pgettext("AI level", "master"),
    }
    return names.get(level, level)


def level_name(level: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The AI level stored as ``level`` (1-based) by name."""
    return level_words(level_named(level), lang)


def ai_strength(variant: str, level: str, *, rated: bool, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The AI's level and its fixed rating, as a new game against it says them: ``medium,
    rated 1500`` in a rated game; in an unrated one the same number as its strength, since
    "rated" would read as if the game counted: ``medium, strength 1500``."""
    rating = level_rating(variant, level)
    words = level_words(level, lang)
    if rated:
        return lang.gettext("{level}, rated {rating}", level=words, rating=rating)
    return lang.gettext("{level}, strength {rating}", level=words, rating=rating)


def plain_name(participant: Participant, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A name without a ping (for images, embeds and records)."""
    if participant.is_ai:
        assert participant.ai_level is not None
        return lang.gettext("Tafl AI ({level})", level=level_name(participant.ai_level, lang=lang))
    if participant.display_name:
        return participant.display_name
    return lang.gettext("player {id}", id=participant.user_id)


SIDE_NAMES = {Side.ATTACKERS: N_("attackers"), Side.DEFENDERS: N_("defenders")}
"""The sides' names in a sentence ("won with the attackers")."""
SIDE_TITLES = {Side.ATTACKERS: N_("Attackers"), Side.DEFENDERS: N_("Defenders")}
"""The sides' names on their own (a card's field, a caption)."""


def side_name(side: Side, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``attackers`` or ``defenders``, as a sentence names the side."""
    words = SIDE_NAMES[side]
    return lang.gettext(words)


def side_title(side: Side, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``Attackers`` or ``Defenders``, as a title names the side."""
    words = SIDE_TITLES[side]
    return lang.gettext(words)


ENDINGS: dict[str, str] = {
    "king escaped": N_("king escaped"),
    "king captured": N_("king captured"),
    "king's group surrounded": N_("king's group surrounded"),
    "tuichi": N_("tuichi"),
    "exit fort": N_("exit fort"),
    "encirclement": N_("encirclement"),
    "no legal move": N_("no legal move"),
    "threefold repetition": N_("threefold repetition"),
    "perpetual repetition": N_("perpetual repetition"),
    "resignation": N_("resignation"),
    "timeout": N_("timeout"),
    "agreed draw": N_("agreed draw"),
    "abandoned": N_("abandoned"),
    "game over": N_("game over"),
    "repetition": N_("repetition"),
    "by agreement": N_("by agreement"),
}
"""How a game ended, in words (the records' values are English)."""


def ending_words(value: str, lang: Language = ENGLISH_LANGUAGE) -> str:
    """An ending's stored name (``king escaped``) in ``lang``."""
    known = ENDINGS.get(value)
    return value if known is None else lang.gettext(known)


def game_over(record: GameRecord, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How a game that is no longer played ended: ``Game #4 is over: bo won with the defenders
    (king escaped).``"""
    if record.status is GameStatus.ABORTED:
        return lang.gettext("Game #{id} was called off.", id=record.id)
    if record.status is GameStatus.UNREPLAYABLE:
        return lang.gettext(
            "Game #{id} was set aside because of a problem on our side.", id=record.id
        )
    reason = ending_words(record.reason.value if record.reason else "game over", lang)
    if record.result is None or record.result.value == "draw":
        if record.reason is TableEnding.AGREED_DRAW:
            return lang.gettext("Game #{id} is over: drawn by agreement.", id=record.id)
        return lang.gettext("Game #{id} is over: drawn ({reason}).", id=record.id, reason=reason)
    winner = record.attackers if record.result.value == "attackers" else record.defenders
    return lang.gettext(
        "Game #{id} is over: {winner} won with the {side} ({reason}).",
        id=record.id,
        winner=plain_name(winner, lang=lang),
        side=side_name(Side(record.result.value), lang),
        reason=reason,
    )


def chosen_square(values: Sequence[str]) -> int | None:
    """The square a menu's click chose (``None``: no choice, or Back)."""
    return int(values[0]) if values and values[0].isdigit() else None


# ---------------------------------------------------------------------------- vocabulary

SIDE_ICON = {Side.ATTACKERS: "⚫", Side.DEFENDERS: "⚪"}
TONE = {Side.ATTACKERS: Tone.ATTACKERS, Side.DEFENDERS: Tone.DEFENDERS}


def timestamp(seconds: float) -> str:
    """A moment as Discord shows it to each reader, relative to now ("in 2 hours")."""
    return f"<t:{int(seconds)}:R>"


def mention(who: Participant, name: str) -> str:
    """A ping for a person, the plain name (``name``) for the AI."""
    return name if who.is_ai else f"<@{who.user_id}>"


def game_thread_name(
    first: Participant, second: Participant, variant: str, *, lang: Language
) -> str:
    """A new game's thread, named after its players and its rules: ``ann vs bo · Tablut`` (the
    table fits it to Discord's limit)."""
    return lang.gettext(
        "{first} vs {second} · {variant}",
        first=plain_name(first, lang=lang),
        second=plain_name(second, lang=lang),
        variant=variant_title(variant, lang),
    )


def named(name: str, guild_name: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A player of another server, as named in the other player's: ``Ann (Tafl Club)``."""
    return lang.gettext("{name} ({server})", name=name, server=guild_name)


def player(game: GameState, side: Side) -> Participant:
    """Who plays ``side``."""
    return game.record.attackers if side is Side.ATTACKERS else game.record.defenders


def name(game: GameState, side: Side, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The name of ``side``'s player, without a ping."""
    return plain_name(player(game, side), lang=lang)


def who(game: GameState, side: Side, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``side``'s player as the chat names them: a ping for a person, the AI by name."""
    return mention(player(game, side), name(game, side, lang=lang))


def side_of(game: GameState, user_id: int) -> Side | None:
    """The side a user plays (the side to move if they play both), or ``None``."""
    sides = [side for side in Side if player(game, side).user_id == user_id]
    if not sides:
        return None
    return game.game.turn if game.game.turn in sides else sides[0]


def venue(game: GameState, side: Side) -> Venue | None:
    """Where ``side``'s player plays a game across servers (``None`` in one channel)."""
    return next((v for v in game.venues if v.side == side.value), None)


def outcome(game: GameState) -> GameOutcome | None:
    """How the game ended: on the board, or (resigned, out of time, agreed drawn) as stored;
    ``None`` while it is played."""
    on_board = game.game.outcome
    return GameOutcome.of(on_board) if on_board is not None else game.record.outcome


def stranger(game: GameState, side: Side, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    theirs = venue(game, side)
    called = name(game, side, lang=lang)
    return called if theirs is None else named(called, theirs.guild_name, lang=lang)


def localize(
    text: str, game: GameState, shown: Venue | None, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """``text`` as shown in the venue ``shown`` of a game across servers: the other server's
    player named in plain text instead of mentioned (``None``: a game in one channel)."""
    if shown is None:
        return text
    other = Side(shown.side).other
    return text.replace(f"<@{player(game, other).user_id}>", stranger(game, other, lang=lang))


def squares_text(squares: Sequence[Square], size: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Square names as a list in words, file by file: ``c9``, ``c3 and g3``, ``a3, c1 and g3``."""
    ordered = sorted(squares, key=lambda square: (square % size, square // size))
    names = [square_name(square, size) for square in ordered]
    if len(names) <= 1:
        return "".join(names)
    # Without the serial comma CLDR's English list has: "a3, c1 and g3".
    return lang.gettext("{first} and {last}", first=", ".join(names[:-1]), last=names[-1])


def roads_text(routes: Sequence[Square], size: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``an open road to c9`` or ``open roads to c3 and g3``."""
    return lang.ngettext(
        "an open road to {squares}",
        "open roads to {squares}",
        len(routes),
        squares=squares_text(routes, size, lang=lang),
    )


# ---------------------------------------------------------------------------- moves in words


def announcement(result: MoveResult, size: int, *, lang: Language = ENGLISH_LANGUAGE) -> str | None:
    """**Raichi!** / **Tuichi!** after a defenders' move that opened one / two or more roads.

    "One move cannot close both" is only said when it is true: when the attackers can capture
    the king next move, that move ends the game whatever roads are open.
    """
    roads = roads_text(result.routes, size, lang=lang)
    if result.tuichi:
        if result.king_threatened:
            return lang.gettext(
                "**Tuichi!** The king has {roads}, but he can be captured next move!",
                roads=roads,
            )
        if result.outcome is None:
            if len(result.routes) == 2:
                return lang.gettext(
                    "**Tuichi!** The king has {roads}: one move cannot close both.", roads=roads
                )
            return lang.gettext(
                "**Tuichi!** The king has {roads}: one move cannot close them all.", roads=roads
            )
        return lang.gettext("**Tuichi!** The king has {roads}.", roads=roads)
    if result.raichi:
        return lang.gettext("**Raichi!** The king has {roads}.", roads=roads)
    return None


def king_news(result: MoveResult, size: int, *, lang: Language = ENGLISH_LANGUAGE) -> list[str]:
    """What a move means for the king, in words (OTN's ``-``, ``+``, ``++`` and ``--`` are for
    records): escaped, captured, an open road, in danger."""
    ended = result.outcome
    ending = None if ended is None else ended.termination
    if ending is Termination.KING_ESCAPED:
        return [
            lang.gettext(
                "The king escaped to {square}!", square=square_name(result.move.target, size)
            )
        ]
    if ending is Termination.GROUP_CAPTURED:
        return [lang.gettext("The king's group is surrounded: the king is captured!")]
    if ending is Termination.EXIT_FORT:
        return [
            lang.gettext("The king built an exit fort on the edge: the attackers cannot break in!")
        ]
    if ending is Termination.ENCIRCLEMENT:
        return [lang.gettext("The attackers have encircled the king and all his defenders!")]
    if result.king_captured:
        return [lang.gettext("The king is captured!")]
    lines = []
    called = announcement(result, size, lang=lang)
    if called:
        lines.append(called)
    elif result.routes and ended is None:
        # After an attackers' move too: the road they left open is the defenders' to take.
        lines.append(
            lang.gettext("The king has {roads}.", roads=roads_text(result.routes, size, lang=lang))
        )
    if result.king_threatened and not result.tuichi:
        # After an attackers' move the defenders move next, so the capture is a threat to parry.
        lines.append(
            lang.gettext("The king can be captured next move!")
            if result.side is Side.DEFENDERS
            else lang.gettext("The attackers threaten to capture the king.")
        )
    return lines


_REPEATED = frozenset({Termination.REPETITION, Termination.PERPETUAL_REPETITION})


def repetition_warning(game: Game, *, lang: Language = ENGLISH_LANGUAGE) -> str | None:
    """A warning when one more occurrence of the current position would end the game (the
    limit is the engine's)."""
    seen = game.repetitions()
    if game.is_over or seen != REPETITION_LIMIT - 1:
        return None
    ending = game.repetition_ending
    # Worded for the engine's limit, three occurrences.
    if ending.winner is None:
        return lang.gettext("This position has occurred twice; a third time is a draw.")
    return lang.gettext(
        "This position has occurred twice; a third time is a win for the {side}.",
        side=side_name(ending.winner, lang),
    )


def repetition_news(
    game: Game, result: MoveResult, *, lang: Language = ENGLISH_LANGUAGE
) -> str | None:
    """What the occurrence of a position that ended the game means: a draw, or (where the rules
    forbid repeating) a loss for the side that may not repeat."""
    ended = result.outcome
    if ended is None or ended.termination not in _REPEATED:
        return None
    if ended.winner is None:
        return lang.gettext("The position occurred a third time: the game is drawn.")
    return lang.gettext(
        "The position occurred a third time: under {rules} rules the {side} lose by repetition.",
        rules=variant_title(game.variant, lang),
        side=side_name(ended.winner.other, lang),
    )


def describe_move(
    game: GameState,
    result: MoveResult,
    after: Game | None = None,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> list[str]:
    """Lines saying what a move did, in words; ``after`` is the game just after it (by default
    the game's own: the move is its last)."""
    position = game.game if after is None else after
    size = position.size
    values = {
        "icon": SIDE_ICON[result.side],
        "player": who(game, result.side, lang=lang),
        "move": result.move.text(size),
        "squares": squares_text(result.captures, size, lang=lang),
    }
    if len(result.captures) == 1:
        line = lang.gettext(
            "{icon} {player} played `{move}`, capturing the piece on {squares}", **values
        )
    elif result.captures:
        line = lang.ngettext(
            "{icon} {player} played `{move}`, capturing {count} piece ({squares})",
            "{icon} {player} played `{move}`, capturing {count} pieces ({squares})",
            len(result.captures),
            count=lang.number(len(result.captures)),
            **values,
        )
    else:
        line = lang.gettext("{icon} {player} played `{move}`", **values)
    lines = [line, *king_news(result, size, lang=lang)]
    # A warning before the last occurrence, the news after it (only one of them can apply).
    news = repetition_warning(position, lang=lang) or repetition_news(position, result, lang=lang)
    if news:
        lines.append(news)
    return lines


def last_board_words(game: GameState, *, lang: Language = ENGLISH_LANGUAGE) -> list[str]:
    """The words of the newest board of a game still being played, for posting it again: what
    its last move did and, when that move was the AI's reply, the move it answered (they came
    on one board)."""
    position = game.game
    if not position.history:
        return []
    last = position.history[-1]
    lines: list[str] = []
    if player(game, last.side).is_ai and position.ply >= 2:
        before = position.copy()
        before.undo()
        answered = before.history[-1]
        if not player(game, answered.side).is_ai:
            lines = describe_move(game, answered, before, lang=lang)
    return lines + describe_move(game, last, lang=lang)


def ending_text(reason: GameEnding | None, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How a game ended, as a record stores it (``king escaped``), in ``lang``."""
    return ending_words(reason.value if reason else "game over", lang)


def result_words(ended: GameOutcome, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A result as a board's title says it: ``Defenders win (resignation)``, ``Draw by
    agreement``."""
    if ended.termination is TableEnding.AGREED_DRAW:
        return lang.gettext("Draw by agreement")
    ending = ending_words(ended.termination.value, lang)
    if ended.winner is Side.ATTACKERS:
        return lang.gettext("Attackers win ({ending})", ending=ending)
    if ended.winner is Side.DEFENDERS:
        return lang.gettext("Defenders win ({ending})", ending=ending)
    return lang.gettext("Draw ({ending})", ending=ending)


def describe_end(
    game: GameState, finished: FinishedGame, *, lang: Language = ENGLISH_LANGUAGE
) -> list[str]:
    """Lines announcing the result, in a sentence that fits how the game ended ("@bo resigned:
    **@al wins** with the attackers."), then the rating changes."""
    record = finished.record
    reason = record.reason
    if record.result is None or record.result.value == "draw":
        if reason is TableEnding.AGREED_DRAW:
            lines = [lang.gettext("**Draw** by agreement.")]
        else:
            lines = [lang.gettext("**Draw** ({ending}).", ending=ending_text(reason, lang=lang))]
    else:
        side = Side(record.result.value)
        values = {
            "winner": who(game, side, lang=lang),
            "side": side_name(side, lang),
            "loser": who(game, side.other, lang=lang),
            "ending": ending_text(reason, lang=lang),
        }
        if reason is TableEnding.RESIGNATION:
            line = lang.gettext("{loser} resigned: **{winner} wins** with the {side}.", **values)
        elif reason is TableEnding.TIMEOUT:
            line = lang.gettext(
                "{loser} ran out of time: **{winner} wins** with the {side}.", **values
            )
        elif reason is TableEnding.ABANDONED:
            line = lang.gettext(
                "{loser} did not continue the adjourned game in time: **{winner} wins** with "
                "the {side}.",
                **values,
            )
        else:
            line = lang.gettext("**{winner} wins** with the {side} ({ending}).", **values)
        lines = [line]
    # The AI's rating is fixed: its side of the change is said beside the person's.
    ai = next((c for c in finished.rating_changes if c.participant.is_ai), None)
    for change in finished.rating_changes:
        if change.participant.is_ai:
            continue
        values = {
            "player": mention(change.participant, plain_name(change.participant, lang=lang)),
            "before": change.before.display,
            "after": change.after.display,
            "delta": f"{change.shown_delta:+d}",
        }
        if ai is None:
            line = lang.gettext("{player}: {before} → {after} ({delta})", **values)
        else:
            line = lang.gettext(
                "{player}: {before} → {after} ({delta}) against {ai}, rated {rating}",
                ai=plain_name(ai.participant, lang=lang),
                rating=ai.before.display,
                **values,
            )
        lines.append(line)
    if finished.ended_before_both_moved:
        lines.append(lang.gettext("This game was not rated: it ended before both sides had moved."))
    elif not finished.record.rated:
        lines.append(lang.gettext("This game was unrated."))
    return lines


def whose_turn(
    game: GameState, shown: Venue | None = None, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """The line that pings the player to move, with their deadline; in the other player's venue
    of a game across servers (``shown``), the line that says who is to move."""
    side = game.game.turn
    icon = SIDE_ICON[side]
    if player(game, side).is_ai:
        return lang.gettext(
            "{icon} {player} is to move.", icon=icon, player=name(game, side, lang=lang)
        )
    if shown is not None and shown.side != side.value:
        line = lang.gettext(
            "{icon} {player} is to move with the {side}.",
            icon=icon,
            player=stranger(game, side, lang=lang),
            side=side_name(side, lang),
        )
    else:
        line = lang.gettext(
            "{icon} {player}, your move with the {side}.",
            icon=icon,
            player=who(game, side, lang=lang),
            side=side_name(side, lang),
        )
    deadline = game.record.move_deadline
    if deadline is not None:
        when = timestamp(deadline.timestamp())
        line += " " + lang.gettext("Time runs out {when}.", when=when)
    return line


def retired_board(
    game: GameState,
    ply: int | None,
    *,
    with_board: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
) -> str | None:
    """What a board message says once a newer board has replaced it: the position it shows,
    addressed to nobody (``After 12. d1-d4``); ``with_board`` adds that position as text, for
    a board that was posted as text. ``ply`` is the position's (``None``: not recorded, and
    the words are left as they are)."""
    position = game.game
    if ply is None:
        return None
    if ply > position.ply:
        return lang.gettext("Game #{id} with a move that was then taken back.", id=game.id)
    if ply == 0:
        line = lang.gettext("Game #{id} at the start.", id=game.id)
    else:
        move = position.history[ply - 1].move.text(position.size)
        line = lang.gettext("After {number} {move}", number=position.move_number(ply), move=move)
    if not with_board:
        return line
    shown = position.copy()
    while shown.ply > ply:
        shown.undo()
    return f"{line}\n{text_board(shown)}"


def name_moves(
    game: GameState, moves: Sequence[MoveResult], *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """A move and the reply to it by who played them: ``@ann's move `d1-d3` and @bo's reply
    `d7-d5```."""
    first, size = moves[0].side, game.game.size
    # The moves as the chat names them when played (no OTN suffixes).
    return lang.join(
        (
            lang.gettext(
                "{player}'s move `{move}`",
                player=who(game, r.side, lang=lang),
                move=r.move.text(size),
            )
            if r.side is first
            else lang.gettext(
                "{player}'s reply `{move}`",
                player=who(game, r.side, lang=lang),
                move=r.move.text(size),
            )
        )
        for r in moves
    )


def takeback_request(
    game: GameState, moves: Sequence[MoveResult], *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """What a takeback request asks, told to the opponent: ``asks to take back their move
    `d1-d3``` (and ``your reply `d7-d5```)."""
    size = game.game.size
    if len(moves) > 1:
        return lang.gettext(
            "asks to take back their move `{move}` and your reply `{reply}`",
            move=moves[0].move.text(size),
            reply=moves[1].move.text(size),
        )
    return lang.gettext("asks to take back their move `{move}`", move=moves[0].move.text(size))


def offer_name(offer: Offer, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``Draw offer`` or ``Takeback request``, as an offer's message names it when it closes."""
    return lang.gettext("Draw offer") if offer.kind == "draw" else lang.gettext("Takeback request")


def overtaken_offer(
    game: GameState, offer: Offer, result: MoveResult, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """What an offer's message says once a move made it pointless: the opponent moved instead
    of answering (``Draw offer closed: @bo played `e1-e4` instead of answering.``), or the one
    who asked played on (a takeback asked for on their own turn)."""
    mover = player(game, result.side)
    values = {
        "offer": offer_name(offer, lang=lang),
        "player": who(game, result.side, lang=lang),
        "move": result.move.text(game.game.size),
    }
    if mover.user_id == offer.user_id:
        return lang.gettext("{offer} withdrawn: {player} played `{move}` instead.", **values)
    return lang.gettext("{offer} closed: {player} played `{move}` instead of answering.", **values)


def describe_takeback(taken: TakenBack, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Which moves a takeback removed: the asker's move and, if there was one, the reply."""
    return lang.ngettext(
        "{moves} was taken back.",
        "{moves} were taken back.",
        len(taken.moves),
        moves=name_moves(taken.game, taken.moves, lang=lang),
    )


TEXT_NOTE = N_("*(I may not attach images here, so here is the board as text.)*")
"""The line under a board sent as text."""


def text_board(game: Game, flip: bool = False) -> str:
    """A monospace board for channels where the bot may not attach images."""
    n = game.size
    symbols = {Piece.EMPTY: "·", Piece.ATTACKER: "●", Piece.DEFENDER: "○", Piece.KING: "♔"}
    special = set(game.variant.corners) | {game.variant.throne} | set(game.variant.camps)
    ranks = range(n) if flip else range(n - 1, -1, -1)
    files = list(range(n - 1, -1, -1) if flip else range(n))
    rows = []
    for rank in ranks:
        cells = []
        for file in files:
            sq = rank * n + file
            piece = game.piece_at(sq)
            cells.append("▫" if piece is Piece.EMPTY and sq in special else symbols[piece])
        rows.append(f"{rank + 1:>2} " + " ".join(cells))
    rows.append("   " + " ".join("abcdefghijklmnopqrs"[f] for f in files))
    return "```\n" + "\n".join(rows) + "\n```"


# ---------------------------------------------------------------------------- board looks

TOP_SIDE = Side.DEFENDERS
"""Boards are drawn with rank 1 at the bottom, as seen from the attackers' side of the table; the
defenders sit at the top, so a player who asks for boards turned to their side
(``/tafl preferences flip``) gets them turned around when they play the defenders."""


@dataclass(frozen=True)
class BoardLook:
    """How a board is drawn: the renderer's theme and whether it is turned around."""

    theme: str
    flip: bool


PLAIN = BoardLook(DEFAULT_THEME, False)
"""The look of a board drawn for nobody in particular."""


def theme_of(preferences: PlayerPreferences) -> str:
    """The renderer's theme a player's boards are drawn in: the one they chose, while the
    renderer has it, else its default."""
    theme = preferences.theme
    return theme if theme is not None and theme in THEMES else DEFAULT_THEME


def look_of(preferences: PlayerPreferences | None, side: Side | None) -> BoardLook:
    """How a person wants boards drawn when they play ``side`` (``None``: not playing), for
    every board drawn for one person: a game's, a puzzle's, a review they asked for."""
    if preferences is None:
        return PLAIN
    return BoardLook(theme_of(preferences), preferences.flip and side is TOP_SIDE)


def board_viewer(game: GameState) -> Participant | None:
    """Whose board options a board posted for the whole channel follows: the player to move
    (the one who must study it), else, when that is the AI, the person playing it."""
    for side in (game.game.turn, game.game.turn.other):
        if not player(game, side).is_ai:
            return player(game, side)
    return None


def look_for(game: GameState, user_id: int | None = None) -> BoardLook:
    """The look of the game's board for ``user_id`` (by default :func:`board_viewer`'s)."""
    if user_id is None:
        viewer = board_viewer(game)
        if viewer is None or viewer.user_id is None:
            return PLAIN
        user_id = viewer.user_id
    mine = next((p for p in game.preferences if p.user_id == user_id), None)
    if mine is None:
        mine = PlayerPreferences(user_id)
    return look_of(mine, side_of(game, user_id))


# The words drawn on a board's image: its caption's side names and its note.

CAPTION_CALLED_OFF = N_("Called off")
"""The caption's note on a game ended without a result of its own."""
_CAPTION_ENDINGS: dict[Termination | TableEnding, str] = {
    TableEnding.AGREED_DRAW: "by agreement",
    # The winner already says who the repetition was forbidden to; the full name would
    # rarely fit beside the players' names.
    Termination.PERPETUAL_REPETITION: "repetition",
}
"""Other words for an ending whose full name would repeat the caption's verdict ("Draw:
agreed draw") or rarely fit (keys of :data:`ENDINGS`)."""
CAPTION_CALLS = {
    Call.TUICHI: N_("Tuichi!"),
    Call.RAICHI: N_("Raichi!"),
    Call.OPEN_ROAD: N_("Open road!"),
    Call.OPEN_ROADS: N_("Open roads!"),
    Call.KING_IN_DANGER: N_("King in danger!"),
}
"""The caption's note after a move: the king's side's calls, a road left open, a threat."""
MISTAKES = {
    "inaccuracy": N_("Inaccuracy"),
    "mistake": N_("Mistake"),
    "blunder": N_("Blunder"),
    "missed win": N_("Missed win"),
    "missed defence": N_("Missed defence"),
}
"""A reviewed move's kind, as a caption names it."""


def caption_result(
    winner: Side | None, ending: Termination | TableEnding, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """A result as a caption's note says it, winner first: ``Defenders win: king escaped``,
    ``Draw: by agreement`` (the detail after the colon goes first when space is short)."""
    detail = ending_words(_CAPTION_ENDINGS.get(ending, ending.value), lang)
    if winner is Side.ATTACKERS:
        return lang.gettext("Attackers win: {ending}", ending=detail)
    if winner is Side.DEFENDERS:
        return lang.gettext("Defenders win: {ending}", ending=detail)
    return lang.gettext("Draw: {ending}", ending=detail)


def caption_better(better: Better, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A reviewed move's note: ``Blunder: better e5-e9``, or ``Better: e5-e9``."""
    if better.kind is None:
        return lang.gettext("Better: {move}", move=better.move)
    kind = better.kind.value
    known = MISTAKES.get(kind)
    return lang.gettext(
        "{kind}: better {move}",
        kind=kind.capitalize() if known is None else lang.gettext(known),
        move=better.move,
    )


def caption_status(status: Status, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What a board's caption announces, in words."""
    if isinstance(status, Outcome):
        return caption_result(status.winner, status.termination, lang)
    if isinstance(status, Better):
        return caption_better(status, lang)
    call = CAPTION_CALLS[status]
    return lang.gettext(call)


def caption_words(lang: Language = ENGLISH_LANGUAGE) -> CaptionWords:
    """The words of every board image's caption in ``lang`` (the side names where no player
    is named)."""
    return CaptionWords(
        lang.pgettext("board caption", "Attackers"),
        lang.pgettext("board caption", "Defenders"),
        lambda status: caption_status(status, lang),
    )


def caption_ending(
    ended: GameOutcome | None, *, called_off: bool = False, lang: Language = ENGLISH_LANGUAGE
) -> str | None:
    """How a game ended away from the board, as its image's caption says it (``Defenders win:
    resignation``, ``Called off``); ``None`` for a game still played or ended by the rules,
    whose board shows that itself."""
    if called_off:
        return lang.gettext(CAPTION_CALLED_OFF)
    if ended is None or not isinstance(ended.termination, TableEnding):
        return None
    return caption_result(ended.winner, ended.termination, lang)


def picture(
    game: GameState, look: BoardLook, flip: bool = False, *, lang: Language = ENGLISH_LANGUAGE
) -> Picture:
    """The current position as an image to render, in ``look`` (``flip`` turns it around from
    that)."""
    view = board_view_from_game(
        game.game,
        caption=True,
        attackers=name(game, Side.ATTACKERS, lang=lang),
        defenders=name(game, Side.DEFENDERS, lang=lang),
        ended=caption_ending(
            outcome(game), called_off=game.record.status is GameStatus.ABORTED, lang=lang
        ),
        words=caption_words(lang),
    )
    return Picture(view, f"tafl-{game.id}-{game.game.ply}.png", look.theme, flip != look.flip)


# ---------------------------------------------------------------------------- the board card


def player_field(
    game: GameState, side: Side, shown: Venue | None = None, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """A player with the pieces their side has lost: ``@alice · lost 2 of 16`` (in a venue of a
    game across servers, the other server's player by name)."""
    position = game.game
    lost = position.lost(side)
    return lang.ngettext(
        "{player} · lost {lost} of {men}",
        "{player} · lost {lost} of {men}",
        lost,
        player=localize(who(game, side, lang=lang), game, shown, lang=lang),
        lost=lang.number(lost),
        men=lang.number(position.men(side) + lost),
    )


def board_card(
    game: GameState,
    lines: Sequence[str],
    shown: Venue | None = None,
    *,
    in_event: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
) -> Card:
    """The card that carries the board image and the game's headline, as shown in ``shown``
    (``None``: the game's one channel); a tournament's game (``in_event``) offers no rematch."""
    position = game.game
    title = lang.gettext(
        "{rules} · game #{id}", rules=variant_title(position.variant, lang), id=game.id
    )
    if position.history:
        # As the image's caption and the game record number it: "12." or "12…".
        title += f" · {position.move_number()} {position.history[-1].move.text(position.size)}"
    ended = outcome(game)
    called_off = game.record.status is GameStatus.ABORTED
    if called_off:  # ended without a result of its own: its words say why
        tone = Tone.CALLED_OFF
        title += " · " + lang.gettext("called off")
    elif ended is None:
        tone = TONE[position.turn]
    else:  # the winner's colour; a draw's is neither side's
        tone = TONE[ended.winner] if ended.winner else Tone.NEUTRAL
        title += f" · {result_words(ended, lang=lang)}"
    fields = [
        Field(
            f"{side_title(Side.ATTACKERS, lang)} ⚫",
            player_field(game, Side.ATTACKERS, shown, lang=lang),
        ),
        Field(
            f"{side_title(Side.DEFENDERS, lang)} ⚪",
            player_field(game, Side.DEFENDERS, shown, lang=lang),
        ),
    ]
    deadline = game.record.move_deadline
    if deadline is not None:  # finished games have none
        stamp = int(deadline.timestamp())
        fields.append(
            Field(
                lang.gettext("{icon} Deadline", icon=SIDE_ICON[position.turn]),
                f"<t:{stamp}:R> (<t:{stamp}:f>)",
            )
        )
    if ended is not None or called_off:
        # A game that ended before both sides moved (or without a result) has nothing to review.
        reviewable = game.record.both_sides_moved and not called_off
        parts = [
            lang.gettext(
                "A tournament game: {pairings} shows the round",
                pairings=lang.command("tafl tournament pairings"),
            )
            if in_event
            else lang.gettext(
                "Rematch: the button or {rematch}", rematch=lang.command("tafl rematch")
            )
        ]
        if reviewable:
            parts.append(
                lang.gettext("{analyze} reviews the game", analyze=lang.command("tafl analyze"))
            )
        parts.append(lang.gettext("{export} saves it", export=lang.command("tafl export")))
        footer = " · ".join(parts)
    else:
        footer = lang.gettext(
            "{move}, or the Move button · {rules} explains the game",
            move=lang.command("tafl move"),
            rules=lang.command("tafl rules"),
        )
    return Card(title, "\n".join(lines), tone, tuple(fields), footer, picture=True)


# ---------------------------------------------------------------------------- controls

GAME_BUTTONS = {
    "move": (N_("Move"), Style.PRIMARY, "♟️"),
    "board": (N_("Flip board"), Style.SECONDARY, "🔄"),
    "draw": (N_("Offer draw"), Style.SECONDARY, None),
    "takeback": (N_("Take back"), Style.SECONDARY, "↩️"),
    "resign": (N_("Resign"), Style.DANGER, None),
}
PEOPLE_ACTIONS = ("move", "board", "draw", "resign")
"""The buttons of a game between two people."""
AI_ACTIONS = ("move", "board", "takeback", "resign")
"""Against the AI in an unrated game: it takes no draw offers but lets a move be taken back."""
RATED_AI_ACTIONS = ("move", "board", "resign")
"""Against the AI in a rated game: neither draws nor takebacks."""


def board_actions(game: GameState) -> tuple[str, ...]:
    """The buttons under a live board: against the AI there is nobody to offer a draw, and an
    unrated game lets a move be taken back at once instead."""
    if not (game.record.attackers.is_ai or game.record.defenders.is_ai):
        return PEOPLE_ACTIONS
    return RATED_AI_ACTIONS if game.record.rated else AI_ACTIONS


def game_controls(
    game_id: int, actions: Sequence[str] = PEOPLE_ACTIONS, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """The buttons under a board of an ongoing game (``actions``, keys of :data:`GAME_BUTTONS`,
    in order)."""
    controls: list[Control] = []
    for action in actions:
        label, style, emoji = GAME_BUTTONS[action]
        controls.append(
            Button(
                GameAction(game_id, action).custom_id,
                lang.gettext(label),
                style,
                emoji,
            )
        )
    return tuple(controls)


def finished_controls(
    game_id: int, *, rematch: bool = True, block: bool = False, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """Under the final board: Rematch (not under a tournament's game: the event pairs the next
    one) and, under a game from the lobby (``block``), Block opponent."""
    controls: list[Control] = []
    if rematch:
        label = lang.gettext("Rematch")
        controls.append(Button(Rematch(game_id).custom_id, label, Style.PRIMARY, "🔁"))
    if block:
        label = lang.gettext("Block opponent")
        controls.append(Button(Block(game_id, "ask").custom_id, label, Style.SECONDARY, "🚫"))
    return tuple(controls)


def offer_controls(
    kind: str, game_id: int, ply: int, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """Accept / Decline under a draw offer or takeback request."""
    return (
        Button(
            OfferAnswer(kind, game_id, ply, "yes").custom_id,
            lang.gettext("Accept"),
            Style.SUCCESS,
        ),
        Button(
            OfferAnswer(kind, game_id, ply, "no").custom_id,
            lang.gettext("Decline"),
            Style.SECONDARY,
        ),
    )


MAX_OPTIONS = 25
"""Discord's limit of options in one select menu."""
MAX_MENUS = 5
"""Discord's limit of rows in one message, each menu taking a row."""
PIECE_PROMPT = N_("Which piece? (Or type `{move}`.)")


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


def _band_placeholder(band: Sequence[int], size: int, lang: Language) -> str:
    first, last = band[0] // size + 1, band[-1] // size + 1
    if first == last:
        return lang.gettext("Choose a piece on rank {rank}", rank=first)
    return lang.gettext("Choose a piece on ranks {first}–{last}", first=first, last=last)


PIECE_NAMES = {
    Piece.ATTACKER: N_("attacker"),
    Piece.DEFENDER: N_("defender"),
    Piece.KING: N_("king"),
}
"""A piece's kind in words."""


def piece_word(piece: Piece, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``attacker``, ``defender`` or ``king``."""
    known = PIECE_NAMES.get(piece)
    return piece.name.lower() if known is None else lang.gettext(known)


def piece_menus(
    game: Game, *, lang: Language = ENGLISH_LANGUAGE
) -> list[tuple[tuple[Option, ...], str]]:
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
            kind = piece_word(game.piece_at(origin), lang)
            options.append(
                Option(
                    label=f"{square_name(origin, size)} ({kind})",
                    value=str(origin),
                    description=lang.ngettext(
                        "{count} move", "{count} moves", count, count=lang.number(count)
                    ),
                )
            )
        placeholder = (
            lang.gettext("Choose a piece to move")
            if len(bands) == 1
            else _band_placeholder(band, size, lang)
        )
        menus.append((tuple(options), placeholder))
    return menus


def target_options(
    game: Game, origin: int, *, mark_captures: bool = True, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Option, ...]:
    """The squares the piece on ``origin`` can reach, those that capture marked (unless
    ``mark_captures`` is off: in a puzzle that would give the answer away), and a last option
    to go back and choose another piece (empty when the piece cannot move)."""
    size = game.size
    moves = game.legal_moves(origin)
    if not moves:
        return ()
    options = []
    for move in moves[: MAX_OPTIONS - 1]:
        captures = game.captures_of(move) if mark_captures else ()
        label = move.text(size)
        description = None
        if captures:
            taken = ", ".join(square_name(sq, size) for sq in captures)
            label += f" ×{taken}"
            description = lang.gettext("captures {squares}", squares=taken)
        options.append(Option(label=label, value=str(move.target), description=description))
    options.append(
        Option(
            label=lang.gettext("Back"),
            value=BACK,
            description=lang.gettext("Choose another piece"),
            emoji="↩️",
        )
    )
    return tuple(options)


def move_to(game: Game, origin: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The destination menu's placeholder, and the words above it: which piece it moves."""
    return lang.gettext("Move {square} to…", square=square_name(origin, game.size))


def piece_controls(
    game_id: int, game: Game, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """Step one of click-to-move in a game (nothing when no piece can move)."""
    return tuple(
        Menu(PieceChoice(game_id, game.ply, part).custom_id, placeholder, options)
        for part, (options, placeholder) in enumerate(piece_menus(game, lang=lang))
    )


def target_controls(
    game_id: int, game: Game, origin: int, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[Control, ...]:
    """Step two of click-to-move in a game (nothing when the piece cannot move)."""
    options = target_options(game, origin, lang=lang)
    if not options:
        return ()
    placeholder = move_to(game, origin, lang=lang)
    return (Menu(TargetChoice(game_id, game.ply, origin).custom_id, placeholder, options),)


# ---------------------------------------------------------------------------- the boards


Lines = Sequence[str] | Callable[[Language], Sequence[str]]
"""A board's words: written already, or written for each venue's language (a game across
servers, whose venues may read different languages)."""


def board_posts(
    game: GameState,
    lines: Lines,
    *,
    over: bool = False,
    flip: bool = False,
    ping: bool = True,
    only: str | None = None,
    reply_in: int | None = None,
    lang: Language = ENGLISH_LANGUAGE,
    mover_lang: Language | None = None,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """The game's new board with ``lines``, then what follows it: one board in the game's
    channel, or across servers one in each venue (only ``only``'s side, when given), each
    drawn for the player whose venue it is and naming the other player without a ping; then
    the other processes told (across servers), and the player to move told by direct message
    (when the games service says they asked, once the board is out).

    ``reply_in``: the channel of the interaction being answered; the board shown there is its
    answer (across servers, posted first: the answer is due within Discord's 3 seconds).
    ``ping`` mentions the player to move with a notification; without it (a board asked for by
    anyone) the mention is only a name. ``over``: the game's final board. ``flip`` turns the
    board around from the look it is drawn in. ``lang``: the language of the channels the board
    is posted in, unless ``venue_langs`` gives a venue's server (by its id) another;
    ``mover_lang``: the one the player to move reads their notice in (by default ``lang``).
    """
    deliveries: list[Delivery] = []
    notice_lang = lang if mover_lang is None else mover_lang
    if not game.venues:
        reply = reply_in is not None
        deliveries.append(_board_in(game, None, lines, over, flip, ping, reply, lang))
        if ping and not over:
            deliveries += turn_notice(game, game.record.channel_id, lang=notice_lang)
        return deliveries
    here = next((v for v in game.venues if v.channel_id == reply_in), None)
    for shown in sorted(game.venues, key=lambda v: v != here):
        if (only is not None and shown.side != only) or shown.gone_at is not None:
            continue
        shown_lang = (venue_langs or {}).get(shown.guild_id, lang)
        deliveries.append(
            _board_in(game, shown, lines, over, flip, ping, shown == here, shown_lang)
        )
    if only is None:
        deliveries.append(Changed(game.id))
    mover = venue(game, game.game.turn)
    if ping and not over and mover is not None:
        deliveries += turn_notice(game, mover.channel_id, lang=notice_lang)
    return deliveries


def _board_in(
    game: GameState,
    shown: Venue | None,
    lines: Lines,
    over: bool,
    flip: bool,
    ping: bool,
    reply: bool,
    lang: Language,
) -> BoardPost:
    """:func:`board_posts` in one place: the game's channel (``shown`` ``None``), or a venue
    of a game across servers."""
    written = lines(lang) if callable(lines) else lines
    words = [localize(line, game, shown, lang=lang) for line in written]
    if not over:
        words.append(whose_turn(game, shown, lang=lang))
    owner = None if shown is None else player(game, Side(shown.side))
    look = look_for(game, None if owner is None else owner.user_id)
    drawn = picture(game, look, flip, lang=lang)
    # A tournament's game ends without a Rematch: the event pairs the next one.
    in_event = over and game.in_event
    controls = (
        finished_controls(game.id, rematch=not in_event, block=bool(game.venues), lang=lang)
        if over
        else game_controls(game.id, board_actions(game), lang=lang)
    )
    card = board_card(game, words[:-1] if not over else words, shown, in_event=in_event, lang=lang)
    # Only the player to move is notified, and only where they play (never across servers).
    mover = player(game, game.game.turn)
    post = Post(
        # The ping goes in the content: mentions inside cards do not notify anyone.
        content=words[-1] if not over else None,
        card=card,
        picture=drawn,
        controls=controls,
        ping_mentioned=ping and not over and (owner is None or owner == mover),
        text_board=f"{text_board(game.game, drawn.flip)}\n{lang.gettext(TEXT_NOTE)}",
    )
    if shown is None:
        place = Place(game.record.channel_id)
        previous, previous_ply = game.record.board_message_id, game.record.board_ply
    else:
        place = Place(shown.channel_id, shown.guild_id)
        previous, previous_ply = shown.board_message_id, shown.board_ply
    retire = None
    if previous is not None:
        retire = Retire(
            previous,
            retired_board(game, previous_ply, lang=lang),
            retired_board(game, previous_ply, with_board=True, lang=lang),
        )
    return BoardPost(game, place, post, game.game.ply, reply, over, retire, shown)


def turn_notice(
    game: GameState, channel_id: int, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The direct message that tells the player to move it is their move (where, against
    whom, by when), for a person; sent if the games service says they asked for it."""
    mover = player(game, game.game.turn)
    if mover.is_ai or mover.user_id is None:
        return []
    values = {
        "id": game.id,
        "rules": variant_title(game.game.variant, lang),
        "opponent": name(game, game.game.turn.other, lang=lang),
        "channel": f"<#{channel_id}>",
    }
    deadline = game.record.move_deadline
    if deadline is None:
        text = lang.gettext(
            "Your move in game #{id} ({rules}) against {opponent}: {channel}", **values
        )
    else:
        text = lang.gettext(
            "Your move in game #{id} ({rules}) against {opponent} (time runs out {when}): "
            "{channel}",
            when=timestamp(deadline.timestamp()),
            **values,
        )
    return [Notice(game.id, game.game.ply, mover.user_id, Post(content=text))]


def reminder(
    game: GameState,
    channel_id: int,
    stamp: int,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    mover_lang: Language | None = None,
) -> list[Delivery]:
    """A player's time runs low (it runs out at ``stamp``, in seconds): a ping in the channel
    where they play (in ``lang``, the channel's), and a direct message if they asked for such
    messages (in ``mover_lang``, theirs; by default ``lang``)."""
    side = game.game.turn
    ping = Post(
        content=lang.gettext(
            "⏰ {player}, your move in game #{id}: time runs out {when}.",
            player=who(game, side, lang=lang),
            id=game.id,
            when=timestamp(stamp),
        ),
        ping_mentioned=True,
    )
    deliveries: list[Delivery] = [
        Message(Place(channel_id, _guild_of(game, channel_id)), ping, quiet=False)
    ]
    mover = player(game, side)
    theirs = next((p for p in game.preferences if p.user_id == mover.user_id), None)
    if not mover.is_ai and mover.user_id is not None and theirs is not None and theirs.notify:
        told = lang if mover_lang is None else mover_lang
        deadline = game.record.move_deadline
        values = {"id": game.id, "channel": f"<#{channel_id}>"}
        if deadline is None:
            text = told.gettext("⏰ Your time is running low in game #{id}: {channel}", **values)
        else:
            text = told.gettext(
                "⏰ Your time is running low in game #{id} (time runs out {when}): {channel}",
                when=timestamp(deadline.timestamp()),
                **values,
            )
        deliveries.append(Direct(mover.user_id, Post(content=text)))
    return deliveries


def _guild_of(game: GameState, channel_id: int) -> int | None:
    """The server of a venue's channel (a game across servers), else ``None``."""
    return next((v.guild_id for v in game.venues if v.channel_id == channel_id), None)


# ---------------------------------------------------------------------------- events


def move_words(played: Played, *, lang: Language = ENGLISH_LANGUAGE) -> list[str]:
    """What a move did, in words, and how the game ended when it did."""
    lines = describe_move(played.game, played.result, lang=lang)
    if played.finished is not None:
        lines += describe_end(played.game, played.finished, lang=lang)
    return lines


def you_played(move: str, *, lang: Language = ENGLISH_LANGUAGE) -> Update:
    """The click-to-move menu, once its move is played."""
    return Update(Post(content=lang.gettext("You played `{move}`.", move=move)))


def offers_after_move(played: Played, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The offers a move changed: closed (the opponent moved instead of answering, or the one
    who asked played on), or carried along with it (a draw offered with one's own move)."""
    game = played.game
    deliveries: list[Delivery] = [
        _close_offer(game, offer, overtaken_offer(game, offer, played.result, lang=lang), lang)
        for offer in played.withdrawn
        if offer.message_id is not None
    ]
    carried = played.carried
    if carried is not None and carried.message_id is not None:
        side = side_of(game, carried.user_id)
        assert side is not None
        text = localize(
            lang.gettext(
                "{opponent}, {player} offers a draw with their move `{move}`.",
                opponent=who(game, side.other, lang=lang),
                player=who(game, side, lang=lang),
                move=played.result.move.text(game.game.size),
            ),
            game,
            venue(game, side.other),
            lang=lang,
        )
        controls = offer_controls(carried.kind, game.id, carried.ply, lang=lang)
        deliveries.append(
            Edit(
                Place(offer_channel(game, carried)),
                carried.message_id,
                Post(content=text, controls=controls),
            )
        )
    return deliveries


def after_move(
    played: Played,
    *,
    reply_in: int | None = None,
    clicked: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
    reader: Language | None = None,
    mover_lang: Language | None = None,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """Everything a move brings when nobody else moves at once: the menu's words (``clicked``:
    the move was chosen in the menus; in ``reader``, the mover's language, by default
    ``lang``), the offers it changed, the new board (the final one when it ended the game) and
    what follows it (``mover_lang``: see :func:`board_posts`). ``reply_in``: the board answers
    the interaction from that channel (a /tafl move)."""
    deliveries: list[Delivery] = []
    if clicked:
        move = played.result.move.text(played.game.game.size)
        deliveries.append(you_played(move, lang=lang if reader is None else reader))
    deliveries += offers_after_move(played, lang=lang)
    over = played.finished is not None
    deliveries += board_posts(
        played.game,
        lambda shown: move_words(played, lang=shown),
        over=over,
        reply_in=reply_in,
        lang=lang,
        mover_lang=mover_lang,
        venue_langs=venue_langs,
    )
    return deliveries


def withdrawn_offers(
    game: GameState, offers: Sequence[Offer], why: str, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """Offers no longer valid, their buttons taken off and their words saying why (``why``:
    one of :data:`GAME_OVER`, :data:`CALLED_OFF`, :data:`TAKEN_BACK`, translated here)."""
    return [
        _close_offer(
            game,
            offer,
            lang.gettext(
                "{offer} withdrawn: {why}.",
                offer=offer_name(offer, lang=lang),
                why=lang.gettext(why),
            ),
            lang,
        )
        for offer in offers
        if offer.message_id is not None
    ]


def _close_offer(game: GameState, offer: Offer, text: str, lang: Language) -> Edit:
    """An offer's buttons taken off, its message saying why, in words for the server it is in
    (a player of another server is named, never mentioned)."""
    side = side_of(game, offer.user_id)
    shown = None if side is None else venue(game, side.other)
    assert offer.message_id is not None
    return Edit(
        Place(offer_channel(game, offer)),
        offer.message_id,
        Post(content=localize(text, game, shown, lang=lang)),
    )


def offer_channel(game: GameState, offer: Offer) -> int:
    """Where an offer's buttons are: the game's channel, or in a game across servers the venue
    of the player who answers it."""
    side = side_of(game, offer.user_id)
    theirs = None if side is None else venue(game, side.other)
    return game.record.channel_id if theirs is None else theirs.channel_id


GAME_OVER = N_("the game is over")
CALLED_OFF = N_("the game was called off")
TAKEN_BACK = N_("a move was taken back")


def after_end(
    ended: Ended,
    *,
    reply_in: int | None = None,
    lines: Sequence[str] | None = None,
    why: str = GAME_OVER,
    lang: Language = ENGLISH_LANGUAGE,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """A game ended by the players, the clock or an organiser: its offers withdrawn (``why``),
    and its final board whose words say how it ended (``lines``: other words than the
    result's, a call-off's)."""
    game = ended.game

    def words(shown: Language) -> Sequence[str]:
        return describe_end(game, ended.finished, lang=shown) if lines is None else lines

    return withdrawn_offers(game, ended.withdrawn, why, lang=lang) + board_posts(
        game, words, over=True, reply_in=reply_in, lang=lang, venue_langs=venue_langs
    )


def after_takeback(
    taken: TakenBack,
    *,
    reply_in: int | None = None,
    ping: bool = True,
    lang: Language = ENGLISH_LANGUAGE,
    mover_lang: Language | None = None,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """Moves taken back: the offers made at a position that is gone withdrawn, and the board."""
    return withdrawn_offers(taken.game, taken.withdrawn, TAKEN_BACK, lang=lang) + board_posts(
        taken.game,
        lambda shown: [describe_takeback(taken, lang=shown)],
        reply_in=reply_in,
        ping=ping,
        lang=lang,
        mover_lang=mover_lang,
        venue_langs=venue_langs,
    )


def offer_posts(
    made: OfferMade,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """A draw offer or takeback request put to the opponent, pinging only them: as the answer
    to the asker (in ``lang``), or across servers in the opponent's own venue (in its server's
    language, from ``venue_langs``; the asker told where it went)."""
    game, offer = made.game, made.offer
    asker = offer.user_id
    side = side_of(game, asker)
    assert side is not None
    opponent = player(game, side.other)
    theirs = venue(game, side.other)
    shown = lang if theirs is None else (venue_langs or {}).get(theirs.guild_id, lang)
    values = {"opponent": who(game, side.other, lang=shown), "player": f"<@{asker}>"}
    if offer.kind == "draw":
        text = shown.gettext("{opponent}, {player} offers a draw.", **values)
    else:
        text = shown.gettext(
            "{opponent}, {player} {request}.",
            request=takeback_request(game, made.moves, lang=shown),
            **values,
        )
    controls = offer_controls(offer.kind, game.id, offer.ply, lang=shown)
    pings = (opponent.user_id or 0,)
    if theirs is None:
        post = Post(content=text, controls=controls, pings=pings)
        return [OfferPost(game.id, offer.kind, offer.ply, post)]
    # Across servers: the buttons go to the other player, in their own server.
    post = Post(content=localize(text, game, theirs, lang=shown), controls=controls, pings=pings)
    where = {"player": f"<@{asker}>", "opponent": stranger(game, side.other, lang=lang)}
    if offer.kind == "draw":
        told = lang.gettext("{player} offers a draw: {opponent} answers in their server.", **where)
    else:
        told = lang.gettext(
            "{player} {request}: {opponent} answers in their server.",
            request=takeback_request(game, made.moves, lang=lang),
            **where,
        )
    return [
        OfferPost(
            game.id,
            offer.kind,
            offer.ply,
            post,
            place=Place(theirs.channel_id, theirs.guild_id),
            missing=OpponentAway(),
        ),
        Answer(Post(content=told)),
        Changed(game.id),
    ]


def declined(
    refusal: Declined,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """An offer declined: the offer's message says so (in ``lang``, its channel's), and across
    servers the asker hears it in their own venue (in its server's language, from
    ``venue_langs``)."""
    game, by = refusal.game, refusal.by

    def said(who_: str, lang: Language) -> str:
        if refusal.kind == "draw":
            return lang.gettext("{player} declined the draw.", player=who_)
        return lang.gettext("{player} refused the takeback.", player=who_)

    deliveries: list[Delivery] = [Update(Post(content=said(f"<@{by}>", lang)))]
    side = side_of(game, by)
    asker = None if side is None else venue(game, side.other)
    if side is not None and asker is not None:
        theirs = (venue_langs or {}).get(asker.guild_id, lang)
        deliveries.append(
            Message(
                Place(asker.channel_id),
                Post(content=said(stranger(game, side, lang=theirs), theirs)),
            )
        )
        deliveries.append(Changed(game.id))
    return deliveries


def agreed(kind: str, *, lang: Language = ENGLISH_LANGUAGE) -> Update:
    """An offer accepted: what its message says."""
    if kind == "draw":
        return Update(Post(content=lang.gettext("Draw agreed.")))
    return Update(Post(content=lang.gettext("Takeback agreed.")))


def resign_question(game_id: int, *, lang: Language = ENGLISH_LANGUAGE) -> Answer:
    """The private question a Resign button asks, with the button that confirms it."""
    button = Button(ConfirmResign(game_id).custom_id, lang.gettext("Yes, resign"), Style.DANGER)
    return Answer(
        Post(
            content=lang.gettext("Resign game #{id}? Your opponent wins.", id=game_id),
            controls=(button,),
            private=True,
        )
    )


def resigned(*, lang: Language = ENGLISH_LANGUAGE) -> Update:
    """The resignation's private question, once answered."""
    return Update(Post(content=lang.gettext("You resigned.")))


def flipped_board(game: GameState, viewer: int, *, lang: Language = ENGLISH_LANGUAGE) -> Answer:
    """The Flip board button: the channel's board turned around, in the clicker's own theme,
    for them alone."""
    shown = look_for(game)
    mine = look_for(game, viewer)
    turned = picture(game, BoardLook(mine.theme, shown.flip), flip=True, lang=lang)
    return Answer(Post(picture=turned, private=True))


def piece_prompt(game: GameState, *, lang: Language = ENGLISH_LANGUAGE) -> Post:
    """Step one of click-to-move: which piece."""
    return Post(
        content=lang.gettext(PIECE_PROMPT, move=lang.command("tafl move")),
        controls=piece_controls(game.id, game.game, lang=lang),
        private=True,
    )


def target_prompt(game: GameState, origin: int, *, lang: Language = ENGLISH_LANGUAGE) -> Post:
    """Step two of click-to-move: where the chosen piece goes."""
    return Post(
        content=move_to(game.game, origin, lang=lang),
        controls=target_controls(game.id, game.game, origin, lang=lang),
    )


AI_FAILED = N_(
    "The AI could not move because of a problem on our side; the game is safe. "
    "Use `{board}` to let it try again."
)


def after_ai(
    reply: AIReply,
    lines: Sequence[str],
    channel_id: int,
    *,
    answer: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
    mover_lang: Language | None = None,
    venue_langs: Mapping[int, Language] | None = None,
) -> list[Delivery]:
    """What the AI's turn brings, with ``lines`` (what led to it, e.g. the player's move): one
    board with its move; or, when it could not move, the board with why (just the words once
    the game is no longer played here); or, when the game ended or moved on meanwhile, the
    words alone. ``answer``: it all answers the interaction from ``channel_id`` (a /tafl move
    or /tafl board), else it goes to that channel."""
    reply_in = channel_id if answer else None
    played = reply.played
    if played is not None:
        over = played.finished is not None
        return offers_after_move(played, lang=lang) + board_posts(
            played.game,
            lambda shown: [*lines, *move_words(played, lang=shown)],
            over=over,
            reply_in=reply_in,
            lang=lang,
            mover_lang=mover_lang,
            venue_langs=venue_langs,
        )
    if reply.failed or reply.refused is not None:
        failed = (
            lang.gettext(AI_FAILED, board=lang.command("tafl board"))
            if reply.refused is None
            else unsaved_words(reply.refused, lang)
        )
        words = [*lines, failed]
        if reply.game is not None:
            return board_posts(
                reply.game,
                words,
                reply_in=reply_in,
                lang=lang,
                mover_lang=mover_lang,
                venue_langs=venue_langs,
            )
    else:
        words = list(lines)
        if not answer or not words:
            return []
    if answer:
        return [Answer(Post(content="\n".join(words), ping_mentioned=True))]
    return [Message(Place(channel_id), Post(content="\n".join(words)))]


def not_recorded(
    unsaved: ResultUnsaved, *, clicked: bool, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """A move that ended the game whose result could not be stored: said to everyone in the
    channel (the answer to a /tafl move; after a click, beside the menu's words)."""
    words = unsaved_words(unsaved, lang)
    if not clicked:
        return [Answer(Post(content=words, ping_mentioned=True))]
    return [
        you_played(unsaved.move, lang=lang),
        Message(Place(unsaved.channel_id), Post(content=words)),
    ]


# ---------------------------------------------------------------------------- refusals
# The games service's refusals (app/games.py, app/ai_turns.py) in words, for the error funnel.


def start_new(lang: Language = ENGLISH_LANGUAGE) -> str:
    """How to start a new game, after a game that is over."""
    return lang.gettext(
        "Start a new one with `{challenge}` or `{play}`.",
        challenge=lang.command("tafl challenge"),
        play=lang.command("tafl play"),
    )


@refusal_words.register
def unsaved_words(refusal: ResultUnsaved, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A move recorded that ended the game, its result not saved (said to everyone)."""
    if refusal.set_aside:
        then = lang.gettext(
            "the game has been set aside with all its moves (game #{id}) and this channel is "
            "free for a new game.",
            id=refusal.game_id,
        )
    else:
        then = lang.gettext("it will be saved as soon as the database answers again.")
    if not refusal.move:
        return lang.gettext(
            "The last move was recorded and ends the game, but the result could not be saved "
            "because of a problem on our side: {then}",
            then=then,
        )
    return lang.gettext(
        "The move `{move}` was recorded and ends the game, but the result could not be saved "
        "because of a problem on our side: {then}",
        move=refusal.move,
        then=then,
    )


@refusal_words.register
def adjourned_words(refusal: GameAdjourned, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a game across servers waits: whose venue was deleted, how they continue the game,
    and by when (or they forfeit it)."""
    values = {
        "id": refusal.game_id,
        "player": plain_name(refusal.player, lang=lang),
        "server": refusal.guild_name,
        "board": lang.command("tafl board"),
    }
    deadline = refusal.deadline
    if deadline is not None:
        values["when"] = f"<t:{int(deadline.timestamp())}:f>"
        if refusal.thread:
            return lang.gettext(
                "Game #{id} is adjourned: {player}'s thread in {server} was deleted. The game "
                "goes on when {player} continues it with `{board}` in a channel of a server by "
                "{when}; otherwise {player} forfeits it.",
                **values,
            )
        return lang.gettext(
            "Game #{id} is adjourned: {player}'s channel in {server} was deleted. The game goes "
            "on when {player} continues it with `{board}` in a channel of a server by {when}; "
            "otherwise {player} forfeits it.",
            **values,
        )
    if refusal.thread:
        return lang.gettext(
            "Game #{id} is adjourned: {player}'s thread in {server} was deleted. The game goes "
            "on when {player} continues it with `{board}` in a channel of a server; otherwise "
            "{player} forfeits it.",
            **values,
        )
    return lang.gettext(
        "Game #{id} is adjourned: {player}'s channel in {server} was deleted. The game goes on "
        "when {player} continues it with `{board}` in a channel of a server; otherwise "
        "{player} forfeits it.",
        **values,
    )


@refusal_words.register
def _(refusal: GameOver, lang: Language = ENGLISH_LANGUAGE) -> str:
    ended = game_over(refusal.record, lang=lang)
    return f"{ended} {start_new(lang)}" if refusal.new_game else ended


@refusal_words.register
def _(refusal: NoGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "There is no game in this channel. Start one with `{challenge}` or `{play}`.",
        challenge=lang.command("tafl challenge"),
        play=lang.command("tafl play"),
    )


@refusal_words.register
def _(refusal: NotPlaying, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You are not playing in this game.")


@refusal_words.register
def _(refusal: NotYourTurn, lang: Language = ENGLISH_LANGUAGE) -> str:
    # A private reply, so a mention shows the name without notifying anyone.
    side, mover = side_name(refusal.side, lang), refusal.mover
    if mover.is_ai:
        whose = lang.gettext(
            "the AI is to move with the {side}; its reply comes with the next board.", side=side
        )
    elif refusal.across:  # the asker may be in the other server: a name, never a mention
        whose = lang.gettext(
            "{player} is to move with the {side}.",
            player=plain_name(mover, lang=lang),
            side=side,
        )
    else:
        whose = lang.gettext(
            "{player} is to move with the {side}.", player=mention(mover, ""), side=side
        )
    if refusal.played is not None:
        return lang.gettext(
            "It is not your turn: your move `{move}` was played, and {whose}",
            move=refusal.played,
            whose=whose,
        )
    return lang.gettext("It is not your turn: {whose}", whose=whose)


@refusal_words.register
def _(refusal: NotAITurn, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("It is not the AI's turn.")


@refusal_words.register
def _(refusal: AlreadyOver, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("This game is already over.")


@refusal_words.register
def _(refusal: IllegalMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    reason = rules_words(refusal.kind, refusal.values, refusal.reason, lang)
    return lang.gettext("Illegal move: {reason}", reason=reason)


RULES_WORDS = {
    "game drawn": N_("{move}: the game is over (drawn by {ending})"),
    "game won": N_("{move}: the game is over (the {side} won: {ending})"),
    "none can reach": N_("{move}: none of the {side}' pieces can move to {square}"),
    "ambiguous": N_(
        "{move}: {count} pieces can move to {square} ({options}); say which, e.g. {example}"
    ),
    "not a move": N_("{move} is not a move: write it like 'e1-e4' (from a square to a square)"),
    "not a square": N_("{square} is not a square: expected a letter and a number like 'e4'"),
    "square off the board": N_("{square} is off the board: squares run from a1 to {last}"),
    "move: not a square": N_(
        "{move}: {square} is not a square: expected a letter and a number like 'e4'"
    ),
    "move: square off the board": N_(
        "{move}: {square} is off the board: squares run from a1 to {last}"
    ),
    "off the board": N_("{move}: that square is off the board"),
    "no piece": N_("{move}: there is no piece on {square}"),
    "not yours": N_("{move}: the piece on {square} belongs to the {other}; it is the {side}' turn"),
    "same square": N_("{move}: the piece must move to another square"),
    "not straight": N_(
        "{move}: pieces move along a rank or a file, like a rook; {origin} and {target} share "
        "neither"
    ),
    "blocked": N_("{move}: {square} blocks the path"),
    "throne barred": N_("{move}: the king may not return to the throne ({square}) in {rules}"),
    "throne stop": N_("{move}: only the king may stop on the throne ({square})"),
    "throne pass": N_("{move}: only the king may pass through the throne ({square})"),
    "corner": N_("{move}: only the king may enter a corner ({square})"),
    "camp for attackers": N_("{move}: {square} is an attackers' camp; defenders never enter camps"),
    "camp left": N_(
        "{move}: {square} is a camp; an attacker that has left its camp may not enter one again"
    ),
    "other camp": N_(
        "{move}: {square} belongs to another camp; no piece may cross from one camp to another"
    ),
    "not legal": N_("{move} is not a legal move here"),
}
"""Why the rules refuse a move, by the engine's kind of error (:func:`bot.engine.because`),
in the players' words: the engine's own messages are its account, in English, for logs and
tools."""


def rules_words(
    kind: str, values: Sequence[tuple[str, str]], reason: str, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """Why the rules refuse a move, in ``lang``: the engine's ``kind`` of error with the
    ``values`` it quotes; its own ``reason`` when the kind has no words here."""
    words = RULES_WORDS.get(kind)
    if words is None:
        return reason
    quoted = dict(values)
    for name in ("side", "other"):
        if name in quoted:
            quoted[name] = side_name(Side(quoted[name]), lang)
    if "ending" in quoted:
        quoted["ending"] = ending_words(quoted["ending"], lang)
    return lang.gettext(words, **quoted)


@refusal_words.register
def _(refusal: MoveOvertaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.look_at_board:
        return lang.gettext(
            "The position changed before your move arrived; look at the board again (`{board}`).",
            board=lang.command("tafl board"),
        )
    return lang.gettext("The position changed before your move arrived; look again.")


@refusal_words.register
def _(refusal: RequestOvertaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The position changed before your request arrived; look again.")


@refusal_words.register
def _(refusal: TakebackOvertaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The position changed; ask again.")


@refusal_words.register
def _(refusal: StaleMenu, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The position has changed; press Move again.")


@refusal_words.register
def _(refusal: NoLegalMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You have no legal move.")


@refusal_words.register
def _(refusal: PieceStuck, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("That piece cannot move now.")


@refusal_words.register
def _(refusal: AIDeclinesDraws, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The AI does not take draw offers; play on or resign.")


@refusal_words.register
def _(refusal: AskingTheAI, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Against the AI, `{takeback}` takes your move back at once.",
        takeback=lang.command("tafl takeback"),
    )


@refusal_words.register
def _(refusal: OpponentAway, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Your opponent's thread is gone; the game waits for them.")


@refusal_words.register
def _(refusal: OpponentMustAgree, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Your opponent must agree: use `{takeback}` to ask.",
        takeback=lang.command("tafl takeback"),
    )


@refusal_words.register
def _(refusal: RatedAgainstAI, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "This game against the AI is rated (this server counts such games), so moves cannot "
        "be taken back; play on or resign."
    )


@refusal_words.register
def _(refusal: NoMoveYet, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("No move has been played yet.")


@refusal_words.register
def _(refusal: NoMoveOfYours, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You have not moved yet, so there is no move of yours to take back.")


@refusal_words.register
def _(refusal: OfferGone, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.kind == "draw":
        return lang.gettext("That draw offer is no longer open.")
    return lang.gettext("That takeback request is no longer open.")


@refusal_words.register
def _(refusal: OfferOpen, lang: Language = ENGLISH_LANGUAGE) -> str:
    by = f"<@{refusal.by}>"
    if refusal.kind == "draw":
        if refusal.mine:
            return lang.gettext(
                "You have already offered a draw; your opponent has not answered yet."
            )
        return lang.gettext(
            "{player} has already offered you a draw: answer it with the buttons on their offer.",
            player=by,
        )
    if refusal.mine:
        return lang.gettext(
            "You have already asked to take back a move; your opponent has not answered yet."
        )
    return lang.gettext(
        "{player} has asked to take back a move: answer them first, with the buttons on their "
        "request.",
        player=by,
    )


@refusal_words.register
def _(refusal: JustDeclined, lang: Language = ENGLISH_LANGUAGE) -> str:
    wait = seconds_left(refusal.seconds, lang)
    if refusal.kind == "draw":
        return lang.gettext(
            "Your opponent has just declined. You can offer a draw again in {wait}, or after "
            "the next move.",
            wait=wait,
        )
    return lang.gettext(
        "Your opponent has just declined. You can ask to take back a move again in {wait}, or "
        "after the next move.",
        wait=wait,
    )


@refusal_words.register
def _(refusal: PlayersAnswer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Only the players of this game can answer.")


@refusal_words.register
def _(refusal: OwnOffer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You made this offer; your opponent answers it.")


@refusal_words.register
def _(refusal: AIThinking, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.takeback:
        return lang.gettext(
            "The AI is thinking about its reply. Once it has moved, a takeback removes your "
            "move and its reply together."
        )
    return lang.gettext("The AI is thinking; its move comes with the next board.")


# ---------------------------------------------------------------------------- /tafl move

MOVE_MAX_LENGTH = 40
"""Longer than any way of writing a move (``e11-e10xe9/d10/f10--``), far shorter than abuse."""
MAX_CHOICES = 25
"""Discord's limit of autocomplete choices."""
WAIT_VALUE = "wait"
"""What a "not your turn" suggestion submits: the move is refused saying whose turn it is (or,
if the turn came round meanwhile, that "wait" is not a move)."""
NO_GAME_VALUE = "none"
"""What the "no game here" suggestion submits: refused with how to start a game."""
_SQUARE = re.compile(r"[a-z][0-9]{1,2}")


def move_label(game: Game, move: Move, *, mark_captures: bool = True) -> str:
    """A move as /tafl move suggests it: ``K`` before a king move, ``×`` and the squares it
    captures after a capture (``Ke5-e7``, ``d1-d4 ×d5``), unless ``mark_captures`` is off."""
    size = game.size
    label = move.text(size)
    if game.piece_at(move.origin) is Piece.KING:
        label = "K" + label
    captures = game.captures_of(move) if mark_captures else ()
    if captures:
        label += " ×" + ",".join(square_name(sq, size) for sq in captures)
    return label


def move_choices(
    game: Game, typed: str, *, mark_captures: bool = True, lang: Language = ENGLISH_LANGUAGE
) -> list[Choice]:
    """The mover's legal moves matching what they typed, as suggestions whose value is the
    plain move. Nothing typed lists captures first; a typed square lists that piece's moves,
    then the moves that end there; a square nothing can move from or to says why in one line.
    Without ``mark_captures`` (a puzzle, where finding them is the point) captures are neither
    marked nor listed first."""
    size = game.size
    moves = game.legal_moves()
    texts = {move: move.text(size) for move in moves}
    cleaned = typed.strip().lower().replace(" ", "").replace("to", "-")
    if cleaned.startswith("k") and _SQUARE.match(cleaned[1:]):
        cleaned = cleaned[1:]  # "Ke5" as the labels write king moves
    if cleaned:
        chosen = [
            m
            for m in moves
            if texts[m].startswith(cleaned) or texts[m].replace("-", "").startswith(cleaned)
        ]
        chosen += [
            m for m in moves if m not in chosen and texts[m].split("-")[1].startswith(cleaned)
        ]
        if not chosen:
            return [nothing_matches(game, cleaned, typed, lang=lang)]
    elif mark_captures:
        captures = {move: bool(game.captures_of(move)) for move in moves}
        chosen = sorted(moves, key=lambda move: not captures[move])
    else:
        chosen = moves
    return [
        Choice(move_label(game, move, mark_captures=mark_captures), texts[move])
        for move in chosen[:MAX_CHOICES]
    ]


def nothing_matches(
    game: Game, cleaned: str, typed: str, *, lang: Language = ENGLISH_LANGUAGE
) -> Choice:
    """One line saying why no legal move matches what was typed; its value, if sent, is refused
    by the engine with the same reason."""
    side = side_name(game.turn, lang)
    square = None
    if _SQUARE.fullmatch(cleaned):
        try:
            square = parse_square(cleaned, game.size)
        except TaflError:
            square = None
    if square is None:
        line = lang.gettext(
            "No legal move of the {side} matches {typed}", side=side, typed=repr(typed.strip())
        )
        value = typed.strip()[:MOVE_MAX_LENGTH] or "-"
        return Choice(line, value)
    where = square_name(square, game.size)
    piece = game.piece_at(square)
    if piece is Piece.EMPTY:
        line = lang.gettext(
            "{square}: no piece there, and none of the {side}' pieces can move there",
            square=where,
            side=side,
        )
    elif piece.side is game.turn:
        line = lang.gettext(
            "{square}: this {piece} has no legal move now (it is blocked)",
            square=where,
            piece=piece_word(piece, lang),
        )
    else:
        line = lang.gettext(
            "{square}: that is a piece of the {other}; you play the {side}",
            square=where,
            other=side_name(game.turn.other, lang),
            side=side,
        )
    return Choice(line, where)


def not_mover_choice(game: GameState, user_id: int, *, lang: Language = ENGLISH_LANGUAGE) -> Choice:
    """The one line /tafl move suggests to anyone but the player to move: whose turn it is."""
    side = game.game.turn
    mover = player(game, side)
    values = {"player": name(game, side, lang=lang), "side": side_name(side, lang)}
    if side_of(game, user_id) is None:
        line = lang.gettext(
            "You are not playing in this game: {player} is to move ({side})", **values
        )
    elif mover.is_ai:
        line = lang.gettext(
            "The AI is to move ({side}); your moves show here once it has replied", **values
        )
    else:
        line = lang.gettext(
            "It is {player}'s turn ({side}); your moves show here on your turn", **values
        )
    return Choice(line, WAIT_VALUE)


def no_game_choice(ended: GameRecord | None, *, lang: Language = ENGLISH_LANGUAGE) -> Choice:
    """The one line /tafl move suggests where no game is played: how the last one ended, or
    how to start one."""
    if ended is not None:
        return Choice(game_over(ended, lang=lang), NO_GAME_VALUE)
    line = lang.gettext(
        "No game in this channel: start one with {challenge} or {play}",
        challenge=lang.command("tafl challenge"),
        play=lang.command("tafl play"),
    )
    return Choice(line, NO_GAME_VALUE)
