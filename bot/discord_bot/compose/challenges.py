"""What players read of starting games: challenges with their Accept / Decline / Cancel buttons
and what becomes of them, games against the AI, rematches, the threads new games get, and the
words of the challenges service's refusals (and of times per move, which challenges take).

Pure functions of the challenges service's results (:mod:`..app.challenges`); they build
:class:`~.post.Post` objects and the deliveries that say where each goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.ai import describe_levels
from bot.engine import get_variant
from bot.storage import Challenge, Participant

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
from ..app.durations import NO_LIMIT_HINT, NotATime, TimeOutOfRange, describe_duration
from .board import ai_strength, plain_name
from .board import mention as board_mention
from .errors import refusal_words, seconds_left
from .language import ENGLISH_LANGUAGE, Language
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


ANSWERS = (("accept", "Accept", Style.SUCCESS), ("decline", "Decline", Style.SECONDARY))
CANCEL = ("cancel", "Cancel", Style.DANGER)


def challenge_controls(challenge_id: int) -> tuple[Control, ...]:
    """Accept / Decline / Cancel under a challenge."""
    return tuple(
        Button(ChallengeAnswer(challenge_id, action).custom_id, label, style)
        for action, label, style in (*ANSWERS, CANCEL)
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
TIME_OPTION = f"Time per move, like 10m, 24h or 3d; {NO_LIMIT_HINT} (else the server's default)"
"""What /tafl challenge's time option asks for."""

# ---------------------------------------------------------------------------- names


def mention(participant: Participant) -> str:
    """A ping for a person, the plain name for the AI."""
    return board_mention(participant, plain_name(participant))


def whose_challenge(challenge: Challenge, *, to: bool = True) -> str:
    """``@ann's Brandubh challenge to @bo``: whose challenge it was and which variant (for edits
    of the challenge message, where mentions show names without notifying anyone again)."""
    title = get_variant(challenge.variant).title
    text = f"{mention(challenge.challenger)}'s **{title}** challenge"
    if to and challenge.challenged is not None:
        text += f" to {mention(challenge.challenged)}"
    return text


def thread_name(new: NewThread) -> str:
    """A new game's thread, named after its players and its rules (the table fits it to
    Discord's limit)."""
    title = get_variant(new.variant).title
    return f"{plain_name(new.first)} vs {plain_name(new.second)} · {title}"


# ---------------------------------------------------------------------------- challenges


def challenge_posted(posted: ChallengePosted) -> list[Answer]:
    """The challenge, with its buttons, notifying the person challenged only."""
    challenge = posted.challenge
    opponent = challenge.challenged
    assert opponent is not None  # a challenge to a member
    title = get_variant(challenge.variant).title
    move_seconds = challenge.move_seconds
    clock = f", {describe_duration(move_seconds)} per move" if move_seconds else ""
    if not move_seconds and posted.server_default_seconds:
        clock = ", no time limit"  # unlike the server's other challenges: say so
    chosen = challenge.challenger_side
    side_text = "a random side" if chosen == "random" else f"the {chosen}"
    expires = int(challenge.expires_at.timestamp())
    where = " The game will have its own thread." if posted.in_thread else ""
    content = (
        f"{mention(opponent)}, {mention(challenge.challenger)} challenges you to **{title}**"
        f"{clock}, taking {side_text}.{where} The challenge expires <t:{expires}:R>."
    )
    post = Post(content, controls=challenge_controls(challenge.id), pings=_pings(opponent))
    return [Answer(post)]


def declined(challenge: Challenge, by: int) -> list[Update]:
    """The challenge's message once the person challenged said no."""
    return [Update(Post(f"<@{by}> declined {whose_challenge(challenge, to=False)}."))]


def cancelled(challenge: Challenge) -> list[Update]:
    """The challenge's message once the challenger took it back."""
    return [Update(Post(f"{whose_challenge(challenge)} was cancelled."))]


def accepted(by: int, game_id: int, thread_id: int | None) -> list[Update]:
    """The challenge's message once accepted: where its game begins."""
    where = "" if thread_id is None else f" in <#{thread_id}>"
    return [Update(Post(f"<@{by}> accepted! Game #{game_id} begins{where}."))]


def game_begins(variant: str) -> list[str]:
    """The first board's words of a game from a challenge."""
    return [f"**{get_variant(variant).title}** begins."]


def expired(challenge: Challenge) -> list[Edit]:
    """A challenge past its expiry, its message's buttons taken off (as an answered one's)."""
    assert challenge.message_id is not None  # only those shown expire in a message
    text = f"{whose_challenge(challenge)} expired unanswered. Ask again with `/tafl challenge`."
    return [Edit(Place(challenge.channel_id), challenge.message_id, Post(text))]


# ---------------------------------------------------------------------------- the AI


def ai_game_begins(started: AIGameStarted) -> list[str]:
    """The first board's words of a game against the AI."""
    record = started.live.record
    rules = get_variant(record.variant)
    strength = ai_strength(rules.name, started.level, rated=record.rated)
    unrated = "" if record.rated else ", unrated"
    return [f"**{rules.title}** against the AI ({strength}){unrated}."]


def ai_game_elsewhere(started: AIGameStarted, player: int) -> list[Answer]:
    """The answer to /tafl play when its game went to a thread of its own."""
    return [
        Answer(
            Post(
                f"<@{player}>, your game against the AI ({started.level}) is in "
                f"<#{started.thread_id}>."
            )
        )
    ]


# ---------------------------------------------------------------------------- rematches


def rematch_sides(rematch: RematchStarted | RematchOffered) -> str:
    """Who takes which side in a rematch (and why they did not swap, when they did not)."""
    sides = f"{mention(rematch.attackers)} attacks, {mention(rematch.defenders)} defends"
    if rematch.winner_defends_again:
        # The players expect a swap: say why there is none.
        title = get_variant(rematch.old.variant).title
        sides += f" again: in {title} the winner takes the defenders (Linnaeus's law 12)"
    return sides


def rematch_begins(started: RematchStarted) -> list[str]:
    """The first board's words of a rematch against the AI."""
    return [f"Rematch of game #{started.old.id}: {rematch_sides(started)}."]


def rematch_offered(offered: RematchOffered, asker: int) -> list[Answer]:
    """The rematch offered to the other player, as a challenge with the sides fixed."""
    old, challenge, opponent = offered.old, offered.challenge, offered.opponent
    expires = int(challenge.expires_at.timestamp())
    content = (
        f"{mention(opponent)}, <@{asker}> asks for a rematch of game #{old.id} "
        f"({get_variant(old.variant).title}): {rematch_sides(offered)}. "
        f"The offer expires <t:{expires}:R>."
    )
    post = Post(content, controls=challenge_controls(challenge.id), pings=_pings(opponent))
    return [Answer(post)]


def _pings(person: Participant) -> tuple[int, ...]:
    return (person.user_id or 0,)


# ---------------------------------------------------------------------------- refusals

CLOSED = {
    "accepted": "This challenge was already accepted.",
    "declined": "This challenge was declined.",
    "cancelled": "This challenge was cancelled.",
    "expired": "This challenge expired. Ask for a new one with `/tafl challenge`.",
}


@refusal_words.register
def _(refusal: ChallengeYourself, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You cannot challenge yourself. Try `/tafl play` against the AI."


@refusal_words.register
def _(refusal: ChallengeABot, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Bots cannot accept challenges. Use `/tafl play` to play the AI."


@refusal_words.register
def _(refusal: ChallengeTooSoon, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"Slow down: you can challenge again in {seconds_left(refusal.wait)} "
        f"(one challenge every {refusal.every} seconds)."
    )


@refusal_words.register
def _(refusal: ChallengedTooOften, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"You have challenged {refusal.opponent.display_name} {refusal.times} times in the "
        f"last {refusal.window // 60} minutes; you can challenge them again in "
        f"{seconds_left(refusal.wait)}."
    )


@refusal_words.register
def _(refusal: NotASide, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"{refusal.text!r} is not a side: choose attackers, defenders or random."


@refusal_words.register
def _(refusal: ChallengeNotOpen, lang: Language = ENGLISH_LANGUAGE) -> str:
    return CLOSED.get(refusal.status, "This challenge is no longer open.")


@refusal_words.register
def _(refusal: AnswerNotAllowed, lang: Language = ENGLISH_LANGUAGE) -> str:
    text = refusal.reason
    return f"{text[:1].upper()}{text[1:]}."


@refusal_words.register
def _(refusal: BusyHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    # The words depend on the kind of place: a thread, a text channel the bot may or may not
    # open threads in, a direct conversation.
    game_id, where = refusal.game_id, refusal.where
    if where.kind == "thread":
        return (
            f"This thread already has a game (#{game_id}). Finish it, or start yours in the "
            "channel: the bot opens a thread for it."
        )
    if where.kind == "direct" or where.guild_id is None:
        return f"This conversation already has a game (#{game_id}): finish it first."
    if where.threads:
        return (
            f"This channel already has a game (#{game_id}). Finish it, or start yours with "
            "`/tafl challenge` or `/tafl play`: the bot opens a thread for it."
        )
    return (
        f"This channel already has a game (#{game_id}), and I may not open a thread here for "
        "yours (I need the Create Public Threads permission). Play in another channel, or ask "
        "a moderator to let me open threads."
    )


@refusal_words.register
def _(refusal: NothingToRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "No finished game in this channel to rematch."


@refusal_words.register
def _(refusal: NotYourRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Only the players of that game can ask for a rematch."


@refusal_words.register
def _(refusal: NoTournamentRematch, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "Tournament games have no rematch: the event pairs your next game "
        "(`/tafl tournament pairings`)."
    )


@refusal_words.register
def _(refusal: AlreadyOffered, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "You have already offered a game here; wait for the answer."


@refusal_words.register
def _(refusal: OfferWaiting, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"<@{refusal.opponent.user_id}> has already asked you for a game here: accept it with "
        "the button on their offer."
    )


@refusal_words.register
def _(refusal: NoThreadHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Games get their own thread only in text channels."


@refusal_words.register
def _(refusal: MayNotOpenThreads, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "I may not open a thread here (I need the Create Public Threads permission)."


@refusal_words.register
def _(refusal: NotATime, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"{refusal.text!r} is not a time: write it like `30s`, `10m`, `24h` or `3d`, or `none` "
        "for no limit."
    )


@refusal_words.register
def _(refusal: TimeOutOfRange, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"Time per move must be between {refusal.shortest} seconds and "
        f"{describe_duration(refusal.longest)} (or `none` for no limit)."
    )
