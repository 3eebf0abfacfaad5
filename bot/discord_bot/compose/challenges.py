"""What players read of starting games: challenges with their Accept / Decline / Cancel buttons
and what becomes of them, games against the AI, rematches, the threads new games get, and the
words of the challenges service's refusals (and of times per move, which challenges take).

Pure functions of the challenges service's results (:mod:`..app.challenges`); they build
:class:`~.post.Post` objects and the deliveries that say where each goes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from bot.ai import describe_levels
from bot.engine import get_variant
from bot.storage import Challenge, Participant

from ...i18n.language import ENGLISH_LANGUAGE, Language
from ..app.challenges import (
    AIGameStarted,
    AlreadyOffered,
    AnswerNotAllowed,
    BusyHere,
    ChallengeABot,
    ChallengedTooOften,
    ChallengeNotOpen,
    ChallengePosted,
    ChallengeTooSoon,
    ChallengeYourself,
    MayNotOpenThreads,
    NewThread,
    NotASide,
    NothingToRematch,
    NoThreadHere,
    NoTournamentRematch,
    NotYourRematch,
    OfferWaiting,
    RematchOffered,
    RematchStarted,
)
from ..app.durations import NotATime, TimeOutOfRange
from .board import (
    ai_strength,
    duration_words,
    game_thread_name,
    level_words,
    plain_name,
    variant_title,
)
from .board import mention as board_mention
from .errors import refusal_words
from .inputs import time_examples, typed_words
from .post import Answer, Button, Choice, Control, Edit, Place, Post, Style, Update

# ---------------------------------------------------------------------------- controls


@dataclass(frozen=True)
class ChallengeAnswer:
    """Under a challenge (or a rematch offer): Accept or Decline (the person challenged),
    Cancel (the challenger)."""

    TEMPLATE: ClassVar[str] = r"tafl:ch:(?P<challenge_id>\d+):(?P<action>accept|decline|cancel)"
    challenge_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:ch:{self.challenge_id}:{self.action}"


def challenge_controls(challenge_id: int, *, lang: Language) -> tuple[Control, ...]:
    """Accept / Decline / Cancel under a challenge."""
    answers = (
        ("accept", lang.pgettext("button", "Accept"), Style.SUCCESS),
        ("decline", lang.pgettext("button", "Decline"), Style.SECONDARY),
        ("cancel", lang.pgettext("button", "Cancel"), Style.DANGER),
    )
    return tuple(
        Button(ChallengeAnswer(challenge_id, action).custom_id, label, style)
        for action, label, style in answers
    )


# ---------------------------------------------------------------------------- options

SIDES = (
    Choice("Random", "random"),
    # Names that hold in every variant (Tablut's Muscovites and Swedes are not Copenhagen's).
    Choice("Attackers (dark)", "attackers"),
    Choice("Defenders and the king (light)", "defenders"),
)
"""The side options of /tafl challenge and /tafl play."""
LEVELS = tuple(
    Choice(f"{level.title()} ({description})"[:100], level)
    for level, description in describe_levels().items()
)
"""The AI's levels, as /tafl play offers them."""
TIME_OPTION = "Time per move, like 10m, 24h or 3d; 'none' for no limit (else the server's default)"
"""What /tafl challenge's time option asks for."""

# ---------------------------------------------------------------------------- words


def wait_words(seconds: float, *, lang: Language) -> str:
    """A wait in whole seconds, rounded up so it never says "0 s" while time is left."""
    return lang.gettext("{seconds} s", seconds=lang.number(max(1, math.ceil(seconds))))


def mention(participant: Participant, *, lang: Language) -> str:
    """A ping for a person, the plain name for the AI (in ``lang``)."""
    return board_mention(participant, plain_name(participant, lang=lang))


def whose_challenge(challenge: Challenge, *, lang: Language, to: bool = True) -> str:
    """``@ann's Brandubh challenge to @bo``: whose challenge it was and which variant (for edits
    of the challenge message, where mentions show names without notifying anyone again)."""
    title = variant_title(get_variant(challenge.variant), lang=lang)
    if to and challenge.challenged is not None:
        return lang.gettext(
            "{challenger}'s **{variant}** challenge to {challenged}",
            challenger=mention(challenge.challenger, lang=lang),
            variant=title,
            challenged=mention(challenge.challenged, lang=lang),
        )
    return lang.gettext(
        "{challenger}'s **{variant}** challenge",
        challenger=mention(challenge.challenger, lang=lang),
        variant=title,
    )


def thread_name(new: NewThread, *, lang: Language) -> str:
    """A new game's thread, named after its players and its rules (the table fits it to
    Discord's limit)."""
    return game_thread_name(new.first, new.second, new.variant, lang=lang)


# ---------------------------------------------------------------------------- challenges


def challenge_posted(posted: ChallengePosted, *, lang: Language) -> list[Answer]:
    """The challenge, with its buttons, notifying the person challenged only (in the channel's
    language)."""
    challenge = posted.challenge
    opponent = challenge.challenged
    assert opponent is not None  # a challenge to a member
    title = variant_title(get_variant(challenge.variant), lang=lang)
    move_seconds = challenge.move_seconds
    clock = ""
    if move_seconds:
        clock = lang.gettext(", {time} per move", time=duration_words(move_seconds, lang=lang))
    elif posted.server_default_seconds:
        clock = lang.gettext(", no time limit")  # unlike the server's other challenges: say so
    chosen = challenge.challenger_side
    if chosen == "attackers":
        side_text = lang.gettext("taking the attackers")
    elif chosen == "defenders":
        side_text = lang.gettext("taking the defenders")
    else:
        side_text = lang.gettext("taking a random side")
    expires = _time(challenge.expires_at)
    values = {
        "opponent": mention(opponent, lang=lang),
        "challenger": mention(challenge.challenger, lang=lang),
        "variant": title,
        "clock": clock,
        "side": side_text,
        "expires": expires,
    }
    if posted.in_thread:
        content = lang.gettext(
            "{opponent}, {challenger} challenges you to **{variant}**{clock}, {side}. The game "
            "will have its own thread. The challenge expires {expires}.",
            **values,
        )
    else:
        content = lang.gettext(
            "{opponent}, {challenger} challenges you to **{variant}**{clock}, {side}. The "
            "challenge expires {expires}.",
            **values,
        )
    post = Post(
        content, controls=challenge_controls(challenge.id, lang=lang), pings=_pings(opponent)
    )
    return [Answer(post)]


def declined(challenge: Challenge, by: int, *, lang: Language) -> list[Update]:
    """The challenge's message once the person challenged said no."""
    text = lang.gettext(
        "{who} declined {challenge}.",
        who=_ping(by),
        challenge=whose_challenge(challenge, to=False, lang=lang),
    )
    return [Update(Post(text))]


def cancelled(challenge: Challenge, *, lang: Language) -> list[Update]:
    """The challenge's message once the challenger took it back."""
    text = lang.gettext(
        "{challenge} was cancelled.", challenge=whose_challenge(challenge, lang=lang)
    )
    return [Update(Post(text))]


def accepted(by: int, game_id: int, thread_id: int | None, *, lang: Language) -> list[Update]:
    """The challenge's message once accepted: where its game begins."""
    if thread_id is None:
        text = lang.gettext("{who} accepted! Game #{game} begins.", who=_ping(by), game=game_id)
    else:
        text = lang.gettext(
            "{who} accepted! Game #{game} begins in {thread}.",
            who=_ping(by),
            game=game_id,
            thread=_channel(thread_id),
        )
    return [Update(Post(text))]


def game_begins(variant: str, *, lang: Language) -> list[str]:
    """The first board's words of a game from a challenge."""
    return [
        lang.gettext(
            "**{variant}** begins.", variant=variant_title(get_variant(variant), lang=lang)
        )
    ]


def expired(challenge: Challenge, *, lang: Language) -> list[Edit]:
    """A challenge past its expiry, its message's buttons taken off (as an answered one's)."""
    assert challenge.message_id is not None  # only those shown expire in a message
    text = lang.gettext(
        "{challenge} expired unanswered. Ask again with `{command}`.",
        challenge=whose_challenge(challenge, lang=lang),
        command=lang.command("tafl challenge"),
    )
    return [Edit(Place(challenge.channel_id), challenge.message_id, Post(text))]


# ---------------------------------------------------------------------------- the AI


def ai_game_begins(started: AIGameStarted, *, lang: Language) -> list[str]:
    """The first board's words of a game against the AI."""
    record = started.live.record
    rules = get_variant(record.variant)
    # ai_strength: lang= once compose.board's shared vocabulary takes it.
    strength = ai_strength(rules.name, started.level, rated=record.rated, lang=lang)
    title = variant_title(rules, lang=lang)
    if record.rated:
        text = lang.gettext(
            "**{variant}** against the AI ({strength}).", variant=title, strength=strength
        )
    else:
        text = lang.gettext(
            "**{variant}** against the AI ({strength}), unrated.", variant=title, strength=strength
        )
    return [text]


def ai_game_elsewhere(started: AIGameStarted, player: int, *, lang: Language) -> list[Answer]:
    """The answer to /tafl play when its game went to a thread of its own."""
    text = lang.gettext(
        "{player}, your game against the AI ({level}) is in {thread}.",
        player=_ping(player),
        level=level_words(started.level, lang),
        thread=_channel(started.thread_id),
    )
    return [Answer(Post(text))]


# ---------------------------------------------------------------------------- rematches


def rematch_sides(rematch: RematchStarted | RematchOffered, *, lang: Language) -> str:
    """Who takes which side in a rematch (and why they did not swap, when they did not)."""
    values = {
        "attacker": mention(rematch.attackers, lang=lang),
        "defender": mention(rematch.defenders, lang=lang),
    }
    if rematch.winner_defends_again:
        # The players expect a swap: say why there is none.
        return lang.gettext(
            "{attacker} attacks, {defender} defends again: in {variant} the winner takes the "
            "defenders (Linnaeus's law 12)",
            variant=variant_title(get_variant(rematch.old.variant), lang=lang),
            **values,
        )
    return lang.gettext("{attacker} attacks, {defender} defends", **values)


def rematch_begins(started: RematchStarted, *, lang: Language) -> list[str]:
    """The first board's words of a rematch against the AI."""
    return [
        lang.gettext(
            "Rematch of game #{game}: {sides}.",
            game=started.old.id,
            sides=rematch_sides(started, lang=lang),
        )
    ]


def rematch_offered(offered: RematchOffered, asker: int, *, lang: Language) -> list[Answer]:
    """The rematch offered to the other player, as a challenge with the sides fixed."""
    old, challenge, opponent = offered.old, offered.challenge, offered.opponent
    content = lang.gettext(
        "{opponent}, {asker} asks for a rematch of game #{game} ({variant}): {sides}. "
        "The offer expires {expires}.",
        opponent=mention(opponent, lang=lang),
        asker=_ping(asker),
        game=old.id,
        variant=variant_title(get_variant(old.variant), lang=lang),
        sides=rematch_sides(offered, lang=lang),
        expires=_time(challenge.expires_at),
    )
    post = Post(
        content, controls=challenge_controls(challenge.id, lang=lang), pings=_pings(opponent)
    )
    return [Answer(post)]


def _ping(user_id: int | None) -> str:
    """A mention of a member, for a placeholder."""
    return "<@" + str(user_id) + ">"


def _channel(channel_id: int | None) -> str:
    """A link to a channel or thread, for a placeholder."""
    return "<#" + str(channel_id) + ">"


def _time(when: datetime) -> str:
    """A moment as Discord shows it to each reader, relative to now ("in 3 hours")."""
    return "<t:" + str(int(when.timestamp())) + ":R>"


def _pings(person: Participant) -> tuple[int, ...]:
    return (person.user_id or 0,)


# ---------------------------------------------------------------------------- refusals


def closed_words(status: str, *, lang: Language) -> str:
    """Why a challenge's buttons no longer work."""
    if status == "accepted":
        return lang.gettext("This challenge was already accepted.")
    if status == "declined":
        return lang.gettext("This challenge was declined.")
    if status == "cancelled":
        return lang.gettext("This challenge was cancelled.")
    if status == "expired":
        return lang.gettext(
            "This challenge expired. Ask for a new one with `{command}`.",
            command=lang.command("tafl challenge"),
        )
    return lang.gettext("This challenge is no longer open.")


@refusal_words.register
def _(refusal: ChallengeYourself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "You cannot challenge yourself. Try `{play}` against the AI.",
        play=lang.command("tafl play"),
    )


@refusal_words.register
def _(refusal: ChallengeABot, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Bots cannot accept challenges. Use `{play}` to play the AI.",
        play=lang.command("tafl play"),
    )


@refusal_words.register
def _(refusal: ChallengeTooSoon, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.ngettext(
        "Slow down: you can challenge again in {wait} (one challenge every {count} second).",
        "Slow down: you can challenge again in {wait} (one challenge every {count} seconds).",
        refusal.every,
        wait=wait_words(refusal.wait, lang=lang),
    )


@refusal_words.register
def _(refusal: ChallengedTooOften, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.ngettext(
        "You have challenged {opponent} {times} times in the last {count} minute; you can "
        "challenge them again in {wait}.",
        "You have challenged {opponent} {times} times in the last {count} minutes; you can "
        "challenge them again in {wait}.",
        refusal.window // 60,
        opponent=refusal.opponent.display_name,
        times=lang.number(refusal.times),
        wait=wait_words(refusal.wait, lang=lang),
    )


@refusal_words.register
def _(refusal: NotASide, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{text} is not a side: choose attackers, defenders or random.", text=repr(refusal.text)
    )


@refusal_words.register
def _(refusal: ChallengeNotOpen, lang: Language = ENGLISH_LANGUAGE) -> str:
    return closed_words(refusal.status, lang=lang)


def not_allowed_words(reason: str, *, lang: Language) -> str:
    """Storage's reason for refusing an answer to a challenge (its words, in lower case), as a
    sentence in ``lang``; a reason this list does not know is shown as storage says it."""
    known = {
        "you cannot challenge yourself": lang.gettext("You cannot challenge yourself."),
        "you cannot accept your own challenge": lang.gettext(
            "You cannot accept your own challenge."
        ),
        "this challenge is for someone else": lang.gettext("This challenge is for someone else."),
        "only the challenger can cancel a challenge": lang.gettext(
            "Only the challenger can cancel a challenge."
        ),
        "only the person challenged can decline a challenge": lang.gettext(
            "Only the person challenged can decline a challenge."
        ),
    }
    return known.get(reason) or f"{reason[:1].upper()}{reason[1:]}."


@refusal_words.register
def _(refusal: AnswerNotAllowed, lang: Language = ENGLISH_LANGUAGE) -> str:
    return not_allowed_words(refusal.reason, lang=lang)


@refusal_words.register
def _(refusal: BusyHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    # The words depend on the kind of place: a thread, a text channel the bot may or may not
    # open threads in, a direct conversation.
    game_id, where = refusal.game_id, refusal.where
    if where.kind == "thread":
        return lang.gettext(
            "This thread already has a game (#{game}). Finish it, or start yours in the "
            "channel: the bot opens a thread for it.",
            game=game_id,
        )
    if where.kind == "direct" or where.guild_id is None:
        return lang.gettext(
            "This conversation already has a game (#{game}): finish it first.", game=game_id
        )
    if where.threads:
        return lang.gettext(
            "This channel already has a game (#{game}). Finish it, or start yours with "
            "`{challenge}` or `{play}`: the bot opens a thread for it.",
            game=game_id,
            challenge=lang.command("tafl challenge"),
            play=lang.command("tafl play"),
        )
    return lang.gettext(
        "This channel already has a game (#{game}), and I may not open a thread here for "
        "yours (I need the Create Public Threads permission). Play in another channel, or ask "
        "a moderator to let me open threads.",
        game=game_id,
    )


@refusal_words.register
def _(refusal: NothingToRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("No finished game in this channel to rematch.")


@refusal_words.register
def _(refusal: NotYourRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Only the players of that game can ask for a rematch.")


@refusal_words.register
def _(refusal: NoTournamentRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Tournament games have no rematch: the event pairs your next game (`{pairings}`).",
        pairings=lang.command("tafl-tournament pairings"),
    )


@refusal_words.register
def _(refusal: AlreadyOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("You have already offered a game here; wait for the answer.")


@refusal_words.register
def _(refusal: OfferWaiting, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{opponent} has already asked you for a game here: accept it with the button on "
        "their offer.",
        opponent=_ping(refusal.opponent.user_id),
    )


@refusal_words.register
def _(refusal: NoThreadHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Games get their own thread only in text channels.")


@refusal_words.register
def _(refusal: MayNotOpenThreads, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "I may not open a thread here (I need the Create Public Threads permission)."
    )


@refusal_words.register
def _(refusal: NotATime, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{text} is not a time: write it like `{seconds}`, `{minutes}`, `{hours}` or `{days}`, or "
        "`{none}` for no limit.",
        text=repr(refusal.text),
        **time_examples(lang),
    )


@refusal_words.register
def _(refusal: TimeOutOfRange, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Time per move must be between {shortest} seconds and {longest} "
        "(or `{none}` for no limit).",
        none=typed_words(lang)["none"],
        shortest=lang.number(refusal.shortest),
        longest=duration_words(refusal.longest, lang=lang),
    )
