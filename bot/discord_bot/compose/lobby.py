"""The lobby's words and messages: seeks, the lobby's list, blocks, and the games across
servers (their first boards' words, rematches, adjournment), composed from the lobby service's
results (:mod:`..app.lobby`) as posts. Pure: nothing here imports Discord.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from bot.engine import Side, get_variant
from bot.storage import GameRecord, Participant, Venue

from ..app.durations import LOBBY_MOVE_SECONDS, describe_duration
from ..app.games import LiveGame, adjournment
from ..app.lobby import (
    DEFAULT_REACH,
    WIDEST_REACH,
    AcrossStarted,
    Adjourned,
    AIOpponent,
    BlockedEitherWay,
    BlockingOneself,
    BotsNeverSeek,
    ChannelHasGame,
    LobbyElsewhere,
    LobbyList,
    LobbyOff,
    LobbyOffHere,
    LobbyOffThere,
    NameWhomToBlock,
    NobodyBlocked,
    NoSuchGame,
    NotAPlayer,
    NotBlocked,
    NotInAServer,
    NotYourGame,
    NoVenueHere,
    OtherVenueGone,
    OwnSeekTaken,
    PlayedOneself,
    RematchAnswer,
    RematchAsked,
    Resumed,
    ResumeFromServer,
    Seek,
    SeekNotOpen,
    SeekOutOfReach,
    SeekState,
    StillPlaying,
    TimeNotListed,
    TimesOffered,
    VariantsOffered,
    VenueTaken,
    Waiting,
)
from .board import adjourned_words, game_over, named, plain_name, plural
from .errors import refusal_words
from .language import ENGLISH_LANGUAGE, Language
from .post import (
    Answer,
    Button,
    Card,
    Choice,
    Delivery,
    Direct,
    Field,
    Message,
    Place,
    Post,
    Style,
    Update,
)

MAX_BUTTONS = 25
"""Discord's limit of buttons under a message."""
CAUGHT_UP = "*(The board as it stands: the last one could not be shown here in time.)*"
SEEK_STATES: dict[SeekState, str] = {
    "matched": "already paired: your game has begun",
    "expired": "over: it expired",
    "withdrawn": "over: you started another game",
    "already cancelled": "already cancelled",
    "replaced": "replaced by your newer seek (its own message has a Cancel button)",
    "closed": "no longer open",
}


def time_words(seconds: int | None) -> str:
    """``1 day per move``."""
    return "no time limit" if seconds is None else f"{describe_duration(seconds)} per move"


LOBBY_TIMES = {time_words(seconds): seconds for seconds in LOBBY_MOVE_SECONDS}
"""The times per move the lobby offers (:data:`~..app.durations.LOBBY_MOVE_SECONDS`), by name
("2 minutes per move" to "3 days per move")."""


def words_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------------------- controls


@dataclass(frozen=True)
class SeekAction:
    """Under a seek: Cancel (its player, privately), or Play (anyone else, from the lobby's
    list: a game with that seek's player)."""

    TEMPLATE: ClassVar[str] = r"tafl:sk:(?P<seek_id>\d+):(?P<action>cancel|take)"
    seek_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:sk:{self.seek_id}:{self.action}"


@dataclass(frozen=True)
class AcrossRematch:
    """The answer to a rematch asked from another server: Accept or Decline, for the other
    player."""

    TEMPLATE: ClassVar[str] = r"tafl:xr:(?P<game_id>\d+):(?P<answer>yes|no)"
    game_id: int
    answer: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:xr:{self.game_id}:{self.answer}"

    @property
    def accept(self) -> bool:
        """Whether the rematch is accepted."""
        return self.answer == "yes"


# ---------------------------------------------------------------------------- names


def stranger(live: LiveGame, side: Side) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    record = live.record
    name = plain_name(record.attackers if side is Side.ATTACKERS else record.defenders)
    venue = next((v for v in live.venues if v.side == side.value), None)
    return name if venue is None else named(name, venue.guild_name)


def thread_name(player: Participant, opponent: Participant, variant: str) -> str:
    """A game's thread, named after the players and the variant."""
    return f"{plain_name(player)} vs {plain_name(opponent)} · {get_variant(variant).title}"


THREAD_REASON = "a game from the tafl lobby"
"""Why the thread was opened (the server's audit log)."""


# ---------------------------------------------------------------------------- seeking


def describe_seek(seek: Seek, others: int | None = None, replaced: Seek | None = None) -> str:
    """A player's own open seek, in their words (and the earlier seek it replaced)."""
    reach = (
        f"within ±{seek.reach_set} of your rating ({seek.rating:.0f})"
        if seek.reach_set is not None
        else f"within ±{DEFAULT_REACH} of your rating ({seek.rating:.0f}), widening as you wait"
        f" (up to ±{WIDEST_REACH})"
    )
    rated = "rated" if seek.rated else "unrated"
    lines = [
        f"Seeking a **{get_variant(seek.variant).title}** game from any server: "
        f"{time_words(seek.move_seconds)}, {rated}, against players {reach}.",
    ]
    if replaced is not None:
        lines.append(
            f"It replaces your earlier {get_variant(replaced.variant).title} seek: one seek at a "
            "time."
        )
    if others is not None:
        # Only the players this one may play (see LobbyStore.playable): /tafl lobby lists them.
        lines.append(
            "Nobody you can play is seeking this variant right now."
            if others == 0
            else f"{plural(others, 'other player')} you can play "
            f"{'is' if others == 1 else 'are'} seeking it now: `/tafl lobby` lists them."
        )
    lines.append(
        f"Your seek waits until <t:{seek.expires_at}:t> (<t:{seek.expires_at}:R>), and ends if "
        "you start another game. When someone is found, your game opens in a thread here and "
        "you are pinged."
    )
    return "\n".join(lines)


def waiting(outcome: Waiting) -> list[Delivery]:
    """The seek waits in the lobby: its player is told, privately, with a Cancel button."""
    cancel = Button(SeekAction(outcome.seek.id, "cancel").custom_id, "Cancel seek")
    text = describe_seek(outcome.seek, outcome.others, outcome.replaced)
    return [Answer(Post(content=text, controls=(cancel,), private=True))]


def paired(live: LiveGame | None, user_id: int) -> list[Delivery]:
    """The seek was paired: where its player's game is (or that it could not be opened)."""
    if live is None:
        text = (
            "An opponent was found, but the game could not be opened in both servers; "
            "seek again with `/tafl seek`."
        )
    else:
        record = live.record
        mine = next(v for v in live.venues if record.player(v.side).user_id == user_id)
        text = (
            f"Found: {stranger(live, Side(mine.side).other)}. You play the {mine.side}; your "
            f"game is in <#{mine.channel_id}>."
        )
    return [Answer(Post(content=text, private=True))]


def seek_cancelled(state: SeekState) -> list[Delivery]:
    """What became of the seek its player cancelled, in place of its message."""
    text = (
        "Seek cancelled: you are out of the lobby."
        if state == "cancelled"
        else f"That seek is {SEEK_STATES[state]}."
    )
    return [Update(Post(content=text))]


def lobby_list(found: LobbyList, *, in_server: bool) -> list[Delivery]:
    """The open seeks a member may play (variant, time, rating; no names until paired), with a
    button to play each (from a server's channel), privately."""
    own = found.own
    summary = []
    if found.counts:
        summary.append(
            "Seeking now, that you can play: "
            + " · ".join(f"{get_variant(name).title} {count}" for name, count in found.counts)
        )
    if own is not None:
        summary.append(
            f"Your own {get_variant(own.variant).title} seek waits too; it is not listed."
        )
    listed = found.seeks
    fields = []
    if found.refusal is not None:
        fields.append(Field("Not from here", refusal_words(found.refusal), inline=False))
    elif not listed and own is not None:
        fields.append(
            Field(
                "Nobody else to play right now",
                "Your seek waits: you will be paired as soon as someone compatible seeks.",
                inline=False,
            )
        )
    elif not listed:
        fields.append(
            Field(
                "Nobody to play right now",
                "Seek a game yourself with `/tafl seek`: you will be paired as soon as "
                "someone compatible seeks too.",
                inline=False,
            )
        )
    for number, seek in enumerate(listed, start=1):
        rated = "rated" if seek.rated else "unrated"
        fields.append(
            Field(
                f"#{number} · {get_variant(seek.variant).title}",
                f"{time_words(seek.move_seconds)} · {rated} · rating {seek.rating:.0f}",
                inline=False,
            )
        )
    card = Card(
        title="The lobby: players seeking a game in any server",
        description="\n".join(summary),
        fields=tuple(fields),
        footer="Names stay hidden until a game is paired. Only moves cross servers.",
    )
    controls = (
        tuple(
            Button(SeekAction(seek.id, "take").custom_id, f"Play #{number}", Style.SUCCESS)
            for number, seek in enumerate(listed[:MAX_BUTTONS], start=1)
        )
        if in_server
        else ()
    )
    return [Answer(Post(card=card, controls=controls, private=True))]


# ---------------------------------------------------------------------------- blocks


def blocked(other: Participant, added: bool, *, clicked: bool = False) -> list[Delivery]:
    """A block set (or already there), told privately (``clicked``: in place of the
    question)."""
    words = "is now blocked" if added else "was already blocked"
    text = (
        f"{plain_name(other)} {words}: the lobby will never pair you together. "
        "`/tafl unblock` lifts it."
    )
    post = Post(content=text, private=True)
    return [Update(post) if clicked else Answer(post)]


def block_question(other: Participant, confirm: str) -> list[Delivery]:
    """Block opponent, under a lobby game's final board: asked privately first (``confirm``:
    the custom id of the button that blocks)."""
    text = (
        f"Block {plain_name(other)}? The lobby will never pair you together again "
        "(`/tafl unblock` lifts it)."
    )
    button = Button(confirm, "Yes, block", Style.DANGER)
    return [Answer(Post(content=text, controls=(button,), private=True))]


def unblocked(chosen: Participant) -> list[Delivery]:
    """A block lifted."""
    return [Answer(Post(content=f"{plain_name(chosen)} is no longer blocked.", private=True))]


def block_choices(blocked: Iterable[Participant], typed: str) -> list[Choice]:
    """The player's blocks, most recent first, those whose name holds what is typed."""
    wanted = typed.strip().casefold()
    return [
        Choice(plain_name(other), str(other.user_id))
        for other in blocked
        if other.user_id is not None and wanted in plain_name(other).casefold()
    ]


# ---------------------------------------------------------------------------- games across servers


def opening_line(live: LiveGame) -> str:
    """The first board's words: who plays which side from where, the time and the rating."""
    record = live.record
    parts = []
    # Each venue's board names the other server's player in plain text (see board_posts).
    for side in ("attackers", "defenders"):
        player = record.attackers if side == "attackers" else record.defenders
        verb = "attacks" if side == "attackers" else "defends"
        parts.append(f"<@{player.user_id}> {verb}")
    rated = "rated" if record.rated else "unrated"
    text = (
        f"**{live.game.variant.title}** from the lobby begins: {', '.join(parts)}; "
        f"{time_words(record.move_seconds)}, {rated}."
    )
    return text


def rematch_line(started: AcrossStarted) -> str:
    """The first board's words of a rematch across servers."""
    return f"Rematch of game #{started.rematch_of}. " + opening_line(started.live)


def notes(started: AcrossStarted) -> list[Delivery]:
    """Said first in each venue played in its channel: why there is no thread."""
    return [
        Message(Place(venue.channel_id), Post(content=venue.note or "")) for venue in started.noted
    ]


def call(started: AcrossStarted) -> list[Delivery]:
    """The board pings the player to move; the other player was promised a ping too, in their
    own thread, saying who moves first."""
    called = started.call
    if called is None:
        return []
    player = called.player.user_id or 0
    text = (
        f"<@{called.player.user_id}>, your game from the lobby has begun here: you play "
        f"the {called.side.value}; {stranger(started.live, called.mover)} moves first."
    )
    place = Place(called.venue.channel_id, called.venue.guild_id)
    return [Message(place, Post(content=text, pings=(player,)))]


def rematch_asked(asked: RematchAsked, asker_mention: str) -> list[Delivery]:
    """The question goes to the other player, in their own venue (gone: the asker is told);
    the asker is told where it went."""
    old, theirs, opponent = asked.old, asked.opponent_venue, asked.opponent
    asker = f"{plain_name(asked.asker)} ({asked.asker_venue.guild_name})"
    swap = (
        "the winner defending again (Linnaeus's law 12)"
        if asked.winner_defends
        else "with the sides swapped"
    )
    buttons = (
        Button(AcrossRematch(old.id, "yes").custom_id, "Accept", Style.SUCCESS),
        Button(AcrossRematch(old.id, "no").custom_id, "Decline", Style.SECONDARY),
    )
    question = Post(
        content=f"<@{opponent.user_id}>, {asker} asks for a rematch of game #{old.id}, {swap}.",
        controls=buttons,
        pings=(opponent.user_id or 0,),
    )
    told = (
        f"{asker_mention} asks for a rematch: {plain_name(opponent)} ({theirs.guild_name}) "
        "answers in their server."
    )
    return [
        Message(
            Place(theirs.channel_id, theirs.guild_id),
            question,
            quiet=False,
            missing=OtherVenueGone(),
        ),
        Answer(Post(content=told)),
    ]


def rematch_answered(answer: RematchAnswer, answerer_mention: str) -> list[Delivery]:
    """The answer, in place of the question; a decline is told in the asker's venue too."""
    if answer.accept:
        return [Update(Post(content="Rematch accepted."))]
    told = (
        f"{plain_name(answer.answerer)} ({answer.answerer_venue.guild_name}) declined the rematch."
    )
    return [
        Update(Post(content=f"{answerer_mention} declined the rematch.")),
        Message(Place(answer.asker_venue.channel_id), Post(content=told)),
    ]


def adjourned(news: Adjourned) -> list[Delivery]:
    """The other player is told in their venue, the absent one by direct message."""
    live, venue = news.live, news.gone
    words = adjourned_words(adjournment(live))
    deliveries: list[Delivery] = []
    if news.other is not None and news.present is not None:
        present = news.present
        deliveries.append(
            Message(
                Place(news.other.channel_id, news.other.guild_id),
                Post(
                    content=f"<@{present.user_id}>, {words[0].lower()}{words[1:]}",
                    pings=(present.user_id or 0,),
                ),
            )
        )
    absent = news.absent
    if absent.user_id is not None:
        text = (
            f"Your game #{live.id} ({live.game.variant.title}) was played in a "
            f"{'thread' if venue.note is None else 'channel'} of {venue.guild_name} that "
            f"was deleted. Continue it with `/tafl board` in a channel of any server I am "
            f"in, by <t:{news.until}:f>; otherwise you forfeit it."
        )
        deliveries.append(Direct(absent.user_id, Post(content=text)))
    return deliveries


def resumed_line(news: Resumed) -> str:
    """The board's words where an adjourned game goes on."""
    live, place = news.live, news.place
    return (
        f"{plain_name(news.player)} continues game #{live.id} from {place.guild_name}: it goes on."
    )


def resumed(news: Resumed) -> list[Delivery]:
    """Its player is told where the game goes on, privately."""
    live, place = news.live, news.place
    return [
        Answer(Post(content=f"Game #{live.id} goes on in <#{place.channel_id}>.", private=True))
    ]


def end_again(record: GameRecord, venue: Venue) -> list[Delivery]:
    """How a game ended, in a venue that had not shown it."""
    return [Message(Place(venue.channel_id), Post(content=game_over(record)))]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: OtherVenueGone, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "The other player's thread is gone: seek a new game with `/tafl seek`."


@refusal_words.register
def _(refusal: TimeNotListed, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Choose one of the lobby's times per move from the list."


@refusal_words.register
def _(refusal: LobbyOff, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "This server has turned the lobby off, so games with other servers cannot be sought "
        "here (a moderator can turn it on with `/tafl settings lobby:True`)."
    )


@refusal_words.register
def _(refusal: LobbyElsewhere, lang: Language = ENGLISH_LANGUAGE) -> str:
    where = ", ".join(f"<#{channel}>" for channel in refusal.channels)
    return f"On this server the lobby is in {where}: seek from there."


@refusal_words.register
def _(refusal: VariantsOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    names = words_list([get_variant(name).title for name in refusal.variants])
    return f"This server offers only {names} in the lobby."


@refusal_words.register
def _(refusal: TimesOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    times = words_list([time_words(value) for value in refusal.times])
    return f"This server offers only {times} in the lobby."


@refusal_words.register
def _(refusal: StillPlaying, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"You are playing game #{refusal.game_id} (<#{refusal.channel_id}>): finish it "
        "before seeking another. Games of a day or more per move are no bar."
    )


@refusal_words.register
def _(refusal: OwnSeekTaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "That is your own seek."


@refusal_words.register
def _(refusal: BlockedEitherWay, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You cannot play this player (one of you has blocked the other)."


@refusal_words.register
def _(refusal: SeekOutOfReach, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a player may not play a seek listed earlier: their rating is outside its reach."""
    seek = refusal.seek
    low, high = seek.rating - refusal.reach, seek.rating + refusal.reach
    widening = (
        f" Its range widens as it waits (up to ±{WIDEST_REACH}): try again later, or seek"
        if seek.reach_set is None and refusal.reach < WIDEST_REACH
        else " Seek"
    )
    return (
        f"That seek is for players rated {max(0, low):.0f} to {high:.0f}, and your "
        f"{get_variant(seek.variant).title} rating is {refusal.rating:.0f}, so you cannot play "
        f"it.{widening} a game yourself with `/tafl seek`."
    )


@refusal_words.register
def _(refusal: SeekNotOpen, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.listed:
        return "That seek is no longer open: look at `/tafl lobby` again."
    return (
        "That seek is no longer open (paired, cancelled or expired): look at `/tafl lobby` again."
    )


@refusal_words.register
def _(refusal: NotInAServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Play a seek from a server channel."


@refusal_words.register
def _(refusal: NameWhomToBlock, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "Name the player to block, or the number of a game you played against them "
        "(`/tafl block game:12`)."
    )


@refusal_words.register
def _(refusal: BlockingOneself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You cannot block yourself."


@refusal_words.register
def _(refusal: BotsNeverSeek, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Bots never play in the lobby."


@refusal_words.register
def _(refusal: NoSuchGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"There is no game #{refusal.game_id}."


@refusal_words.register
def _(refusal: NotYourGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"You did not play game #{refusal.game_id}."


@refusal_words.register
def _(refusal: AIOpponent, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "The AI never plays in the lobby: there is nobody to block."


@refusal_words.register
def _(refusal: PlayedOneself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You played yourself in that game: there is nobody to block."


@refusal_words.register
def _(refusal: NobodyBlocked, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You have not blocked anyone."


@refusal_words.register
def _(refusal: NotBlocked, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"You have not blocked {refusal.typed!r}: choose from the list as you type "
        f"(you have blocked {plural(refusal.blocked, 'player')})."
    )


@refusal_words.register
def _(refusal: NotAPlayer, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.answering:
        return "Only the players of that game can answer."
    return "Only the players of that game can ask for a rematch."


@refusal_words.register
def _(refusal: LobbyOffThere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"{refusal.guild_name} has turned games with other servers off: no rematch "
        "across servers (seek a new game with `/tafl seek`)."
    )


@refusal_words.register
def _(refusal: VenueTaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "A new game has begun in one of the two threads meanwhile: seek another with `/tafl seek`."
    )


@refusal_words.register
def _(refusal: ResumeFromServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"Continue game #{refusal.game_id} from a channel of a server, not a direct message."


@refusal_words.register
def _(refusal: LobbyOffHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "This server has turned games with other servers off: continue the game in another server."
    )


@refusal_words.register
def _(refusal: NoVenueHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "I cannot open the game here: try another channel."


@refusal_words.register
def _(refusal: ChannelHasGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "This channel has a game of its own: continue in another one."
