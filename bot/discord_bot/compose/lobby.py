"""The lobby's words and messages: seeks, the lobby's list, blocks, and the games across
servers (their first boards' words, rematches, adjournment), composed from the lobby service's
results (:mod:`..app.lobby`) as posts. Pure: nothing here imports Discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from bot.engine import Side
from bot.storage import GameRecord, Participant, Venue

from ...i18n.language import ENGLISH_LANGUAGE, N_, Language
from ..app.durations import LOBBY_MOVE_SECONDS
from ..app.games import LiveGame, adjournment
from ..app.lobby import (
    DEFAULT_REACH,
    NO_THREAD,
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
from .board import (
    adjourned_words,
    duration_words,
    game_over,
    named,
    plain_name,
    side_name,
    variant_title,
)
from .errors import refusal_words
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
CAUGHT_UP = N_("*(The board as it stands: the last one could not be shown here in time.)*")
SEEK_STATES: dict[SeekState, str] = {
    "matched": N_("That seek is already paired: your game has begun."),
    "expired": N_("That seek is over: it expired."),
    "withdrawn": N_("That seek is over: you started another game."),
    "already cancelled": N_("That seek is already cancelled."),
    "replaced": N_(
        "That seek is replaced by your newer seek (its own message has a Cancel button)."
    ),
    "closed": N_("That seek is no longer open."),
}
"""What became of a seek its player tried to cancel (translated where it is shown)."""


def time_words(seconds: int | None, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``1 day per move``."""
    if seconds is None:
        return lang.gettext("no time limit")
    return lang.gettext("{duration} per move", duration=duration_words(seconds, lang=lang))


LOBBY_TIMES = {time_words(seconds): seconds for seconds in LOBBY_MOVE_SECONDS}
"""The times per move the lobby offers (:data:`~..app.durations.LOBBY_MOVE_SECONDS`), by name
("2 minutes per move" to "3 days per move")."""


def rated_word(rated: bool, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``rated`` or ``unrated`` (a game)."""
    return lang.pgettext("a game", "rated") if rated else lang.pgettext("a game", "unrated")


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


def stranger(live: LiveGame, side: Side, *, lang: Language) -> str:
    """How the player of ``side`` of a game across servers is named in the other player's
    server: their name and their server's, in plain text (mentions never cross servers)."""
    record = live.record
    name = plain_name(record.attackers if side is Side.ATTACKERS else record.defenders, lang=lang)
    venue = next((v for v in live.venues if v.side == side.value), None)
    return name if venue is None else named(name, venue.guild_name, lang=lang)


def thread_reason(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why the thread was opened (the server's audit log)."""
    return lang.gettext("a game from the tafl lobby")


# ---------------------------------------------------------------------------- seeking


def describe_seek(
    seek: Seek,
    others: int | None = None,
    replaced: Seek | None = None,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> str:
    """A player's own open seek, in their words (and the earlier seek it replaced)."""
    rating = str(round(seek.rating))
    if seek.reach_set is not None:
        reach = lang.gettext(
            "within ±{reach} of your rating ({rating})",
            reach=str(seek.reach_set),
            rating=rating,
        )
    else:
        reach = lang.gettext(
            "within ±{reach} of your rating ({rating}), widening as you wait (up to ±{widest})",
            reach=str(DEFAULT_REACH),
            rating=rating,
            widest=str(WIDEST_REACH),
        )
    lines = [
        lang.gettext(
            "Seeking a **{variant}** game from any server: {time}, {rated}, against players "
            "{reach}.",
            variant=variant_title(seek.variant, lang),
            time=time_words(seek.move_seconds, lang=lang),
            rated=rated_word(seek.rated, lang=lang),
            reach=reach,
        )
    ]
    if replaced is not None:
        lines.append(
            lang.gettext(
                "It replaces your earlier {variant} seek: one seek at a time.",
                variant=variant_title(replaced.variant, lang),
            )
        )
    if others is not None:
        # Only the players this one may play (see LobbyStore.playable): /tafl lobby lists them.
        lines.append(
            lang.gettext("Nobody you can play is seeking this variant right now.")
            if others == 0
            else lang.ngettext(
                "{count} other player you can play is seeking it now: `{lobby}` lists them.",
                "{count} other players you can play are seeking it now: `{lobby}` lists them.",
                others,
                lobby=lang.command("tafl lobby"),
            )
        )
    lines.append(
        lang.gettext(
            "Your seek waits until <t:{expires}:t> (<t:{expires}:R>), and ends if you start "
            "another game. When someone is found, your game opens in a thread here and you are "
            "pinged.",
            expires=seek.expires_at,
        )
    )
    return "\n".join(lines)


def waiting(outcome: Waiting, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The seek waits in the lobby: its player is told, privately, with a Cancel button."""
    cancel = Button(SeekAction(outcome.seek.id, "cancel").custom_id, lang.gettext("Cancel seek"))
    text = describe_seek(outcome.seek, outcome.others, outcome.replaced, lang=lang)
    return [Answer(Post(content=text, controls=(cancel,), private=True))]


def paired(
    live: LiveGame | None, user_id: int, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The seek was paired: where its player's game is (or that it could not be opened)."""
    if live is None:
        text = lang.gettext(
            "An opponent was found, but the game could not be opened in both servers; "
            "seek again with `{seek}`.",
            seek=lang.command("tafl seek"),
        )
    else:
        record = live.record
        mine = next(v for v in live.venues if record.player(v.side).user_id == user_id)
        text = lang.gettext(
            "Found: {opponent}. You play the {side}; your game is in <#{channel}>.",
            opponent=stranger(live, Side(mine.side).other, lang=lang),
            side=side_name(Side(mine.side), lang),
            channel=mine.channel_id,
        )
    return [Answer(Post(content=text, private=True))]


def seek_cancelled(state: SeekState, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """What became of the seek its player cancelled, in place of its message."""
    if state == "cancelled":
        text = lang.gettext("Seek cancelled: you are out of the lobby.")
    else:
        became = SEEK_STATES[state]
        text = lang.gettext(became)
    return [Update(Post(content=text))]


def lobby_list(
    found: LobbyList, *, in_server: bool, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The open seeks a member may play (variant, time, rating; no names until paired), with a
    button to play each (from a server's channel), privately."""
    own = found.own
    summary = []
    if found.counts:
        summary.append(
            lang.gettext(
                "Seeking now, that you can play: {counts}",
                counts=" · ".join(
                    f"{variant_title(name, lang)} {lang.number(count)}"
                    for name, count in found.counts
                ),
            )
        )
    if own is not None:
        summary.append(
            lang.gettext(
                "Your own {variant} seek waits too; it is not listed.",
                variant=variant_title(own.variant, lang),
            )
        )
    listed = found.seeks
    fields = []
    if found.refusal is not None:
        fields.append(
            Field(lang.gettext("Not from here"), refusal_words(found.refusal, lang), inline=False)
        )
    elif not listed and own is not None:
        fields.append(
            Field(
                lang.gettext("Nobody else to play right now"),
                lang.gettext(
                    "Your seek waits: you will be paired as soon as someone compatible seeks."
                ),
                inline=False,
            )
        )
    elif not listed:
        fields.append(
            Field(
                lang.gettext("Nobody to play right now"),
                lang.gettext(
                    "Seek a game yourself with `{seek}`: you will be paired as soon as "
                    "someone compatible seeks too.",
                    seek=lang.command("tafl seek"),
                ),
                inline=False,
            )
        )
    for number, seek in enumerate(listed, start=1):
        fields.append(
            Field(
                f"#{number} · {variant_title(seek.variant, lang)}",
                lang.gettext(
                    "{time} · {rated} · rating {rating}",
                    time=time_words(seek.move_seconds, lang=lang),
                    rated=rated_word(seek.rated, lang=lang),
                    rating=str(round(seek.rating)),
                ),
                inline=False,
            )
        )
    card = Card(
        title=lang.gettext("The lobby: players seeking a game in any server"),
        description="\n".join(summary),
        fields=tuple(fields),
        footer=lang.gettext("Names stay hidden until a game is paired. Only moves cross servers."),
    )
    controls = (
        tuple(
            Button(
                SeekAction(seek.id, "take").custom_id,
                lang.gettext("Play #{number}", number=number),
                Style.SUCCESS,
            )
            for number, seek in enumerate(listed[:MAX_BUTTONS], start=1)
        )
        if in_server
        else ()
    )
    return [Answer(Post(card=card, controls=controls, private=True))]


# ---------------------------------------------------------------------------- blocks


def blocked(
    other: Participant, added: bool, *, clicked: bool = False, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """A block set (or already there), told privately (``clicked``: in place of the
    question)."""
    unblock = lang.command("tafl unblock")
    text = (
        lang.gettext(
            "{player} is now blocked: the lobby will never pair you together. "
            "`{unblock}` lifts it.",
            player=plain_name(other, lang=lang),
            unblock=unblock,
        )
        if added
        else lang.gettext(
            "{player} was already blocked: the lobby will never pair you together. "
            "`{unblock}` lifts it.",
            player=plain_name(other, lang=lang),
            unblock=unblock,
        )
    )
    post = Post(content=text, private=True)
    return [Update(post) if clicked else Answer(post)]


def block_question(
    other: Participant, confirm: str, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """Block opponent, under a lobby game's final board: asked privately first (``confirm``:
    the custom id of the button that blocks)."""
    text = lang.gettext(
        "Block {player}? The lobby will never pair you together again (`{unblock}` lifts it).",
        player=plain_name(other, lang=lang),
        unblock=lang.command("tafl unblock"),
    )
    button = Button(confirm, lang.gettext("Yes, block"), Style.DANGER)
    return [Answer(Post(content=text, controls=(button,), private=True))]


def unblocked(chosen: Participant, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """A block lifted."""
    text = lang.gettext("{player} is no longer blocked.", player=plain_name(chosen, lang=lang))
    return [Answer(Post(content=text, private=True))]


def block_choices(blocked: Iterable[Participant], typed: str) -> list[Choice]:
    """The player's blocks, most recent first, those whose name holds what is typed."""
    wanted = typed.strip().casefold()
    return [
        Choice(plain_name(other), str(other.user_id))
        for other in blocked
        if other.user_id is not None and wanted in plain_name(other).casefold()
    ]


# ---------------------------------------------------------------------------- games across servers


def opening_line(live: LiveGame, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The first board's words: who plays which side from where, the time and the rating."""
    record = live.record
    # Each venue's board names the other server's player in plain text (see board_posts).
    return lang.gettext(
        "**{variant}** from the lobby begins: <@{attacker}> attacks, <@{defender}> defends; "
        "{time}, {rated}.",
        variant=variant_title(live.game.variant, lang),
        attacker=record.attackers.user_id,
        defender=record.defenders.user_id,
        time=time_words(record.move_seconds, lang=lang),
        rated=rated_word(record.rated, lang=lang),
    )


def rematch_line(started: AcrossStarted, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The first board's words of a rematch across servers."""
    return lang.gettext(
        "Rematch of game #{game}. {opening}",
        game=started.rematch_of,
        opening=opening_line(started.live, lang=lang),
    )


def notes(
    started: AcrossStarted, languages: Mapping[int, Language] | None = None
) -> list[Delivery]:
    """Said first in each venue played in its channel: why there is no thread (in its
    server's language, from ``languages`` by server; English for a server not given)."""
    deliveries: list[Delivery] = []
    for venue in started.noted:
        lang = (languages or {}).get(venue.guild_id, ENGLISH_LANGUAGE)
        # The note is stored in English (NO_THREAD): said in the server's language.
        text = (
            lang.gettext(
                "*(I may not open threads in this channel (I need the Create Public Threads "
                "permission), so this game is played here.)*"
            )
            if venue.note == NO_THREAD
            else venue.note or ""
        )
        deliveries.append(Message(Place(venue.channel_id), Post(content=text)))
    return deliveries


def call(started: AcrossStarted, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The board pings the player to move; the other player was promised a ping too, in their
    own thread, saying who moves first (``lang``: their server's)."""
    called = started.call
    if called is None:
        return []
    player = called.player.user_id or 0
    text = lang.gettext(
        "<@{player}>, your game from the lobby has begun here: you play the {side}; "
        "{opponent} moves first.",
        player=called.player.user_id,
        side=side_name(called.side, lang),
        opponent=stranger(started.live, called.mover, lang=lang),
    )
    place = Place(called.venue.channel_id, called.venue.guild_id)
    return [Message(place, Post(content=text, pings=(player,)))]


def rematch_asked(
    asked: RematchAsked,
    asker_mention: str,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    theirs_lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """The question goes to the other player, in their own venue (in ``theirs_lang``, their
    server's; gone: the asker is told); the asker is told where it went (in ``lang``)."""
    old, theirs, opponent = asked.old, asked.opponent_venue, asked.opponent
    asker = named(plain_name(asked.asker, lang=lang), asked.asker_venue.guild_name, lang=lang)
    swap = (
        theirs_lang.gettext("the winner defending again (Linnaeus's law 12)")
        if asked.winner_defends
        else theirs_lang.gettext("with the sides swapped")
    )
    buttons = (
        Button(
            AcrossRematch(old.id, "yes").custom_id, theirs_lang.gettext("Accept"), Style.SUCCESS
        ),
        Button(
            AcrossRematch(old.id, "no").custom_id, theirs_lang.gettext("Decline"), Style.SECONDARY
        ),
    )
    question = Post(
        content=theirs_lang.gettext(
            "<@{player}>, {asker} asks for a rematch of game #{game}, {swap}.",
            player=opponent.user_id,
            asker=asker,
            game=old.id,
            swap=swap,
        ),
        controls=buttons,
        pings=(opponent.user_id or 0,),
    )
    told = lang.gettext(
        "{asker} asks for a rematch: {opponent} answers in their server.",
        asker=asker_mention,
        opponent=named(plain_name(opponent, lang=lang), theirs.guild_name, lang=lang),
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


def rematch_answered(
    answer: RematchAnswer,
    answerer_mention: str,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    asker_lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """The answer, in place of the question (in ``lang``); a decline is told in the asker's
    venue too (in ``asker_lang``, their server's)."""
    if answer.accept:
        return [Update(Post(content=lang.gettext("Rematch accepted.")))]
    told = asker_lang.gettext(
        "{player} declined the rematch.",
        player=named(
            plain_name(answer.answerer, lang=lang), answer.answerer_venue.guild_name, lang=lang
        ),
    )
    return [
        Update(
            Post(content=lang.gettext("{player} declined the rematch.", player=answerer_mention))
        ),
        Message(Place(answer.asker_venue.channel_id), Post(content=told)),
    ]


def adjourned(
    news: Adjourned,
    *,
    lang: Language = ENGLISH_LANGUAGE,
    absent_lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """The other player is told in their venue (in ``lang``, its server's), the absent one by
    direct message (in ``absent_lang``, the one they last used)."""
    live, venue = news.live, news.gone
    deliveries: list[Delivery] = []
    if news.other is not None and news.present is not None:
        present = news.present
        words = adjourned_words(adjournment(live), lang)
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
        variables = {
            "game": live.id,
            "variant": variant_title(live.game.variant, lang),
            "server": venue.guild_name,
            "board": absent_lang.command("tafl board"),
            "until": news.until,
        }
        text = (
            absent_lang.gettext(
                "Your game #{game} ({variant}) was played in a thread of {server} that was "
                "deleted. Continue it with `{board}` in a channel of any server I am in, by "
                "<t:{until}:f>; otherwise you forfeit it.",
                **variables,
            )
            if venue.note is None
            else absent_lang.gettext(
                "Your game #{game} ({variant}) was played in a channel of {server} that was "
                "deleted. Continue it with `{board}` in a channel of any server I am in, by "
                "<t:{until}:f>; otherwise you forfeit it.",
                **variables,
            )
        )
        deliveries.append(Direct(absent.user_id, Post(content=text)))
    return deliveries


def resumed_line(news: Resumed, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The board's words where an adjourned game goes on."""
    return lang.gettext(
        "{player} continues game #{game} from {server}: it goes on.",
        player=plain_name(news.player, lang=lang),
        game=news.live.id,
        server=news.place.guild_name,
    )


def resumed(news: Resumed, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """Its player is told where the game goes on, privately."""
    text = lang.gettext(
        "Game #{game} goes on in <#{channel}>.", game=news.live.id, channel=news.place.channel_id
    )
    return [Answer(Post(content=text, private=True))]


def end_again(record: GameRecord, venue: Venue, *, lang: Language) -> list[Delivery]:
    """How a game ended, in a venue that had not shown it (in its server's language)."""
    return [Message(Place(venue.channel_id), Post(content=game_over(record, lang=lang)))]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: OtherVenueGone, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "The other player's thread is gone: seek a new game with `{seek}`.",
        seek=lang.command("tafl seek"),
    )


@refusal_words.register
def _(refusal: TimeNotListed, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Choose one of the lobby's times per move from the list.")


@refusal_words.register
def _(refusal: LobbyOff, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "This server has turned the lobby off, so games with other servers cannot be sought "
        "here (a moderator can turn it on with `{settings} lobby:True`).",
        settings=lang.command("tafl settings"),
    )


@refusal_words.register
def _(refusal: LobbyElsewhere, lang: Language = ENGLISH_LANGUAGE) -> str:
    where = ", ".join(f"<#{channel}>" for channel in refusal.channels)
    return lang.gettext(
        "On this server the lobby is in {channels}: seek from there.", channels=where
    )


@refusal_words.register
def _(refusal: VariantsOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    names = lang.join(variant_title(name, lang) for name in refusal.variants)
    return lang.gettext("This server offers only {variants} in the lobby.", variants=names)


@refusal_words.register
def _(refusal: TimesOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    times = lang.join(time_words(value, lang=lang) for value in refusal.times)
    return lang.gettext("This server offers only {times} in the lobby.", times=times)


@refusal_words.register
def _(refusal: StillPlaying, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "You are playing game #{game} (<#{channel}>): finish it before seeking another. Games "
        "of a day or more per move are no bar.",
        game=refusal.game_id,
        channel=refusal.channel_id,
    )


@refusal_words.register
def _(refusal: OwnSeekTaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("That is your own seek.")


@refusal_words.register
def _(refusal: BlockedEitherWay, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You cannot play this player (one of you has blocked the other).")


@refusal_words.register
def _(refusal: SeekOutOfReach, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a player may not play a seek listed earlier: their rating is outside its reach."""
    seek = refusal.seek
    low, high = seek.rating - refusal.reach, seek.rating + refusal.reach
    variables = {
        "low": str(round(max(0, low))),
        "high": str(round(high)),
        "variant": variant_title(seek.variant, lang),
        "rating": str(round(refusal.rating)),
        "seek": lang.command("tafl seek"),
    }
    if seek.reach_set is None and refusal.reach < WIDEST_REACH:
        return lang.gettext(
            "That seek is for players rated {low} to {high}, and your {variant} rating is "
            "{rating}, so you cannot play it. Its range widens as it waits (up to ±{widest}): "
            "try again later, or seek a game yourself with `{seek}`.",
            widest=str(WIDEST_REACH),
            **variables,
        )
    return lang.gettext(
        "That seek is for players rated {low} to {high}, and your {variant} rating is "
        "{rating}, so you cannot play it. Seek a game yourself with `{seek}`.",
        **variables,
    )


@refusal_words.register
def _(refusal: SeekNotOpen, lang: Language = ENGLISH_LANGUAGE) -> str:
    lobby = lang.command("tafl lobby")
    if refusal.listed:
        return lang.gettext("That seek is no longer open: look at `{lobby}` again.", lobby=lobby)
    return lang.gettext(
        "That seek is no longer open (paired, cancelled or expired): look at `{lobby}` again.",
        lobby=lobby,
    )


@refusal_words.register
def _(refusal: NotInAServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Play a seek from a server channel.")


@refusal_words.register
def _(refusal: NameWhomToBlock, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Name the player to block, or the number of a game you played against them "
        "(`{block} game:12`).",
        block=lang.command("tafl block"),
    )


@refusal_words.register
def _(refusal: BlockingOneself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You cannot block yourself.")


@refusal_words.register
def _(refusal: BotsNeverSeek, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Bots never play in the lobby.")


@refusal_words.register
def _(refusal: NoSuchGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("There is no game #{game}.", game=refusal.game_id)


@refusal_words.register
def _(refusal: NotYourGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You did not play game #{game}.", game=refusal.game_id)


@refusal_words.register
def _(refusal: AIOpponent, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("The AI never plays in the lobby: there is nobody to block.")


@refusal_words.register
def _(refusal: PlayedOneself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You played yourself in that game: there is nobody to block.")


@refusal_words.register
def _(refusal: NobodyBlocked, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You have not blocked anyone.")


@refusal_words.register
def _(refusal: NotBlocked, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.ngettext(
        "You have not blocked {typed}: choose from the list as you type (you have blocked "
        "{count} player).",
        "You have not blocked {typed}: choose from the list as you type (you have blocked "
        "{count} players).",
        refusal.blocked,
        typed=repr(refusal.typed),
    )


@refusal_words.register
def _(refusal: NotAPlayer, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.answering:
        return lang.gettext("Only the players of that game can answer.")
    return lang.gettext("Only the players of that game can ask for a rematch.")


@refusal_words.register
def _(refusal: LobbyOffThere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{server} has turned games with other servers off: no rematch across servers (seek a "
        "new game with `{seek}`).",
        server=refusal.guild_name,
        seek=lang.command("tafl seek"),
    )


@refusal_words.register
def _(refusal: VenueTaken, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "A new game has begun in one of the two threads meanwhile: seek another with `{seek}`.",
        seek=lang.command("tafl seek"),
    )


@refusal_words.register
def _(refusal: ResumeFromServer, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Continue game #{game} from a channel of a server, not a direct message.",
        game=refusal.game_id,
    )


@refusal_words.register
def _(refusal: LobbyOffHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "This server has turned games with other servers off: continue the game in another server."
    )


@refusal_words.register
def _(refusal: NoVenueHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("I cannot open the game here: try another channel.")


@refusal_words.register
def _(refusal: ChannelHasGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("This channel has a game of its own: continue in another one.")
