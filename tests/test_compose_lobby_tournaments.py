"""The lobby's and the tournaments' compositions: their controls keep the custom ids players'
old messages carry, every word of the crosstable image is the composition's, and their posts
are plain data (the table turns them into Discord's)."""

from __future__ import annotations

from dataclasses import replace

from crosstable_samples import eight_player_swiss
from test_bot_tournament_sheet import swiss

from bot.discord_bot.app.lobby import LobbyElsewhere, LobbyList
from bot.discord_bot.app.tournaments import AnnouncementChanged, EntryBarred
from bot.discord_bot.compose import lobby, tournaments
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.compose.post import Answer, Button, Edit, Update
from bot.discord_bot.table import read
from bot.i18n.language import Languages
from bot.render.crosstable import draw_crosstable
from bot.storage import Participant
from bot.storage.tournaments import LogEntry, Tournament


def test_the_controls_keep_their_custom_ids() -> None:
    assert tournaments.EventButton(5, "join").custom_id == "tafl:tn:5:join"
    assert tournaments.ConfirmLeave(5, 9).custom_id == "tafl:tl:5:9"
    assert lobby.SeekAction(3, "take").custom_id == "tafl:sk:3:take"
    assert lobby.AcrossRematch(4, "no").custom_id == "tafl:xr:4:no"
    # Read back from the ids that older messages carry.
    assert read(tournaments.EventButton, "tafl:tn:12:leave") == tournaments.EventButton(12, "leave")
    assert read(tournaments.ConfirmLeave, "tafl:tl:1:2") == tournaments.ConfirmLeave(1, 2)
    assert read(lobby.SeekAction, "tafl:sk:7:cancel") == lobby.SeekAction(7, "cancel")
    rematch = read(lobby.AcrossRematch, "tafl:xr:8:yes")
    assert rematch is not None and rematch.accept
    assert read(lobby.SeekAction, "tafl:sk:7:drop") is None


def test_every_word_on_the_crosstable_image_is_the_compositions() -> None:
    view = eight_player_swiss()
    assert view.words is tournaments.CROSSTABLE_WORDS
    shouting = replace(
        tournaments.CROSSTABLE_WORDS,
        player="PLAYER",
        bye="BYE",
        round="ROUND {}",
        forfeit="FORFEIT",
        withdrawn="GONE",
    )
    texts = [p.text for p in draw_crosstable(replace(view, words=shouting)).texts]
    assert "PLAYER" in texts and "Player" not in texts
    assert texts.count("BYE") == 2 and "bye" not in texts
    assert "ROUND 1" in texts and "R1" not in texts
    assert any("FORFEIT" in t for t in texts) and not any("forfeit" in t for t in texts)


def test_the_lobby_list_says_why_no_seek_may_be_played_here() -> None:
    found = LobbyList(seeks=(), counts=(), own=None, refusal=LobbyElsewhere((100, 200)))
    [answer] = lobby.lobby_list(found, in_server=True)
    assert isinstance(answer, Answer) and answer.post.private
    card = answer.post.card
    assert card is not None and card.fields[0].name == "Not from here"
    assert card.fields[0].value == refusal_words(LobbyElsewhere((100, 200)))
    assert "<#100>, <#200>" in card.fields[0].value and answer.post.controls == ()


def test_a_cancelled_seek_replaces_its_message_without_buttons() -> None:
    [update] = lobby.seek_cancelled("expired")
    assert isinstance(update, Update)
    assert update.post.content == "That seek is over: it expired." and update.post.controls == ()


def test_the_announcement_of_an_event_over_has_no_buttons() -> None:
    running = Tournament(
        id=3, spec=swiss(), announcement_id=44, status="running", round=2,
        round_deadline=None, ends_at=None, organiser=Participant.user(9, "olga"), created_at=0,
        ended_at=None,
    )  # fmt: skip
    post = tournaments.announcement(running, 6)
    assert [c.custom_id for c in post.controls if isinstance(c, Button)] == [
        f"tafl:tn:{running.id}:join",
        f"tafl:tn:{running.id}:leave",
    ]
    assert post.card is not None and post.card.fields[0].value == "round 2 under way"
    over = tournaments.announcement(replace(running, status="finished"), 6)
    assert over.controls == () and over.card is not None
    assert over.card.footer == "This event is over."
    [edit] = tournaments.announcement_changed(
        AnnouncementChanged(replace(running, status="cancelled"), 6)
    )
    assert isinstance(edit, Edit) and edit.message_id == 44 and edit.post.controls == ()


def test_an_entry_refused_by_storage_is_worded_from_its_rule() -> None:
    event = Tournament(
        id=3, spec=swiss(rating_floor=1600), announcement_id=None, status="running", round=5,
        round_deadline=None, ends_at=None, organiser=Participant.user(9, "olga"), created_at=0,
        ended_at=None,
    )  # fmt: skip
    assert refusal_words(EntryBarred(event, "left", 1500.0, "removed")) == (
        f"You left **{event.name}** (removed) and cannot join again."
    )
    assert refusal_words(EntryBarred(event, "below floor", 1512.4)) == (
        f"**{event.name}** is for players rated 1600 or more; you are 1512."
    )


def test_an_events_history_is_worded_in_the_readers_language_from_the_values_logged() -> None:
    """The history keeps values (a rating, a round, a result) and words them for each reader;
    what a person wrote (an organiser's reason) and the sentences of older versions are shown
    as they are."""
    french = Languages().language("fr")
    olga = Participant.user(7, "olga")
    joined = LogEntry(60, olga, "joined", "", {"rating": 1500})
    result = LogEntry(
        60,
        None,
        "result",
        "",
        {
            "round": 1,
            "board": 2,
            "first": 1.0,
            "second": 0.0,
            "how": "forfeit",
            "reason": "no-show",
        },
    )
    left = LogEntry(60, None, "left", "", {"name": "bo", "reason": "left the server"})
    assert tournaments.history_words(joined) == "joined (rated 1,500)"
    assert tournaments.history_words(result) == "round 1, board 2: 1-0 (forfeit: no-show)"
    assert tournaments.history_words(left) == "bo left the server"
    assert tournaments.history_words(joined, lang=french) == "inscrit (classement 1\u202f500)"
    assert tournaments.history_words(left, lang=french) == "bo a quitté le serveur"
    assert "ronde 1, table 2 : 1-0" in tournaments.history_words(result, lang=french)
    older = LogEntry(60, None, "round", "round 3 paired")
    assert tournaments.history_words(older, lang=french) == "round: round 3 paired"
