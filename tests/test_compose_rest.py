"""What starting games, the help, the rules and a player's and a server's pages say and carry,
composed from the services' results alone (compose/challenges, help, players, records): the
challenge's words, buttons and pings, its custom ids, a replay drawn at the width that fits, the
refusals' words; no Discord involved."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from PIL import Image

from bot.discord_bot.app.challenges import (
    BusyHere,
    ChallengePosted,
    ChallengeTooSoon,
    NewThread,
    Where,
)
from bot.discord_bot.app.durations import TimeOutOfRange
from bot.discord_bot.app.players import Leaderboard, NotALobbyTime, SettingsShown
from bot.discord_bot.compose import challenges, help, players, records
from bot.discord_bot.compose.challenges import ChallengeAnswer
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.compose.post import Answer, Button, Edit, Place, Post, Replay, Style, Update
from bot.discord_bot.table import animate, read
from bot.engine import Game
from bot.i18n.language import ENGLISH_LANGUAGE as EN
from bot.storage import (
    Challenge,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    LeaderboardEntry,
    Participant,
    PlayerPreferences,
    Rating,
    ServerSettings,
)

ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")
EXPIRES = datetime(2026, 1, 1, tzinfo=UTC)


def challenge(**changes: object) -> Challenge:
    made = Challenge(
        id=7,
        guild_id=10,
        channel_id=20,
        challenger=ANN,
        challenged=BO,
        variant="brandubh",
        challenger_side="attackers",
        move_seconds=None,
        rated=True,
        status=ChallengeStatus.PENDING,
        message_id=30,
        game_id=None,
        created_at=EXPIRES - timedelta(hours=1),
        expires_at=EXPIRES,
        resolved_at=None,
    )
    return made if not changes else Challenge(**{**made.__dict__, **changes})  # type: ignore[arg-type]


def test_a_challenge_notifies_only_the_person_challenged_and_carries_its_three_buttons() -> None:
    [answer] = challenges.challenge_posted(ChallengePosted(challenge(), False, 86400), lang=EN)
    assert isinstance(answer, Answer)
    post = answer.post
    stamp = int(EXPIRES.timestamp())
    assert post.content == (
        "<@2>, <@1> challenges you to **Brandubh**, no time limit, taking the attackers. "
        f"The challenge expires <t:{stamp}:R>."
    )
    assert post.pings == (2,) and not post.ping_mentioned and not post.private
    assert post.controls == (
        Button("tafl:ch:7:accept", "Accept", Style.SUCCESS),
        Button("tafl:ch:7:decline", "Decline", Style.SECONDARY),
        Button("tafl:ch:7:cancel", "Cancel", Style.DANGER),
    )
    # The same strings as before the composition: old buttons keep working.
    assert read(ChallengeAnswer, "tafl:ch:7:decline") == ChallengeAnswer(7, "decline")
    assert read(ChallengeAnswer, "tafl:ch:7:resign") is None


def test_what_becomes_of_a_challenge_is_told_on_its_message_without_its_buttons() -> None:
    made = challenge()
    assert challenges.declined(made, 2, lang=EN) == [
        Update(Post("<@2> declined <@1>'s **Brandubh** challenge."))
    ]
    assert challenges.cancelled(made, lang=EN) == [
        Update(Post("<@1>'s **Brandubh** challenge to <@2> was cancelled."))
    ]
    assert challenges.accepted(2, 5, 99, lang=EN) == [
        Update(Post("<@2> accepted! Game #5 begins in <#99>."))
    ]
    assert challenges.expired(made, lang=EN) == [
        Edit(
            Place(20),
            30,
            Post(
                "<@1>'s **Brandubh** challenge to <@2> expired unanswered. Ask again with "
                "`/tafl challenge`."
            ),
        )
    ]


def test_a_new_games_thread_is_named_after_its_players_and_rules() -> None:
    new = NewThread(ANN, Participant.ai(3), "tablut")
    assert challenges.thread_name(new, lang=EN) == "ann vs Tafl AI (hard) · Tablut"


def test_refusals_are_worded_for_the_place_and_the_wait() -> None:
    thread = Where(1, 10, "thread", threads=False)
    assert refusal_words(BusyHere(4, thread)).startswith("This thread already has a game (#4).")
    no_threads = Where(1, 10, "channel", threads=False)
    assert "Create Public Threads" in refusal_words(BusyHere(4, no_threads))
    assert refusal_words(ChallengeTooSoon(3.2, 20)) == (
        "Slow down: you can challenge again in 4 s (one challenge every 20 seconds)."
    )
    assert refusal_words(TimeOutOfRange(10, 14 * 86400)) == (
        "Time per move must be between 10 seconds and 14 days (or `none` for no limit)."
    )
    assert refusal_words(NotALobbyTime("5m", (3600, 86400))) == (
        "The lobby offers 1 hour, 1 day per move; '5m' is not one of them."
    )


def test_help_lists_every_command_in_a_newcomers_order() -> None:
    [answer] = help.help_answer(
        [
            ("tafl zeta", "Last"),
            ("tafl help", "This"),
            ("tafl-tournament", "Events"),
            ("tafl challenge", "First"),
        ],
        lang=EN,
    )
    card = answer.post.card
    assert card is not None and answer.post.private
    listed = card.description.split("**Commands**\n")[1].splitlines()
    assert listed == [
        "`/tafl challenge` — First",
        "`/tafl-tournament` — Events",
        "`/tafl help` — This",
        "`/tafl zeta` — Last",
    ]


def test_the_rules_show_the_start_in_the_readers_theme() -> None:
    preferences = PlayerPreferences(1, theme="contrast")
    [answer] = help.rules_answer("brandubh", preferences, lang=EN)
    post = answer.post
    assert post.private and post.picture is not None and post.card is not None
    assert post.picture.filename == "start.png" and post.picture.theme == "contrast"
    assert post.card.picture and post.card.title == "Brandubh (7x7)"


def test_an_empty_leaderboard_is_private_and_says_what_it_takes() -> None:
    [empty] = players.leaderboard_answer(Leaderboard("tablut", 10, (), 5), lang=EN)
    assert empty.post.private and empty.post.content == (
        "Nobody is on the Tablut leaderboard in this server yet. A player appears after 5 rated "
        "games of Tablut in this server."
    )
    entry = LeaderboardEntry(1, 1, "ann", Rating(1600.0, 300.0, 0.06), 3)
    [listed] = players.leaderboard_answer(Leaderboard("tablut", None, (entry,), 1), lang=EN)
    assert not listed.post.private and listed.post.card is not None
    assert listed.post.card.title == "Tablut leaderboard (global)"
    assert listed.post.card.footer is not None and "provisional" in listed.post.card.footer


def test_the_settings_say_who_may_change_them() -> None:
    shown = SettingsShown(ServerSettings(10), may_change=False, changed=False)
    [answer] = players.settings_answer(shown, lang=EN)
    card = answer.post.card
    assert answer.post.private and card is not None
    assert card.footer == "Members with the Manage Server permission can change these."
    assert card.fields[0].name == "Where games are played"
    assert (card.fields[-1].name, card.fields[-1].value) == (
        "Language",
        "the server's own (its Discord language)",
    )
    [chosen] = players.settings_answer(
        SettingsShown(ServerSettings(10, language="fr"), may_change=True, changed=True), lang=EN
    )
    assert chosen.post.card is not None and chosen.post.card.fields[-1].value == "français"
    assert [choice.value for choice in players.LANGUAGES_OFFERED] == [
        "server",
        "en",
        "de",
        "es",
        "fr",
        "sv",
    ]


async def test_a_replay_too_big_for_one_upload_is_drawn_smaller_or_refused() -> None:
    played = Game("brandubh")
    for move in ("d2-c2", "e4-e2", "d6-e6", "c4-c5"):
        played.play(move)
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=70,
        variant=played.variant.name,
        start_position=played.start_position,
        first_turn=played.start_turn.value,
        attackers=ANN,
        defenders=BO,
        rated=True,
        status=GameStatus.ACTIVE,
        result=None,
        reason=None,
        ply=played.ply,
        move_seconds=None,
        move_deadline=None,
        reminder_sent=False,
        board_message_id=None,
        problem=None,
        created_at=EXPIRES,
        updated_at=EXPIRES,
        ended_at=None,
    )
    [replay] = records.replay_answer(record, played, lang=EN)
    assert isinstance(replay, Replay)
    animation = replay.animation
    assert animation.filename == f"tafl-game-{record.id}.gif"
    full = await animate(animation)
    assert full is not None and full[1] == 0
    assert replay.fitted[0].content == f"Game #{record.id}, 2 moves."
    # A limit the full-size replay passes but a smaller one meets: drawn at a smaller width,
    # and its words say so.
    fitted = await animate(animation, limit=len(full[0]) - 1)
    assert fitted is not None and fitted[1] > 0
    width = animation.widths[fitted[1]]
    assert Image.open(io.BytesIO(fitted[0])).width == width
    assert f"drawn {width} px wide" in (replay.fitted[fitted[1]].content or "")
    # Nothing fits: the reader is told, instead of Discord refusing the upload.
    assert await animate(animation, limit=100) is None
    assert "too long for an animated replay" in (replay.too_long.content or "")


def test_these_compositions_never_load_discord() -> None:
    modules = ", ".join(
        f"bot.discord_bot.compose.{name}" for name in ("challenges", "help", "players", "records")
    )
    probe = (
        f"import sys, {modules}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
