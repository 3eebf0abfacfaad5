"""Ratings on finishing, AI games and server settings, leaderboards and their gates, statistics."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest
from storage_helpers import ALICE, BOB, CAROL, open_storage, play_opening

from bot.engine import Termination
from bot.storage import (
    PLIES_TO_COUNT,
    GameEnding,
    GameRecord,
    GameResult,
    Participant,
    Rating,
    ServerSettings,
    Storage,
    Streak,
    TableEnding,
)
from bot.storage.glicko2 import rate_game

DAVE = Participant.user(104, "Dave")
EVE = Participant.user(105, "Eve")
_channels = itertools.count(10_000)


@pytest.fixture
async def storage(database_target: str) -> AsyncIterator[Storage]:
    storage = await open_storage(database_target)
    yield storage
    await storage.close()


async def play(
    storage: Storage,
    attackers: Participant,
    defenders: Participant,
    result: str,
    *,
    guild_id: int | None = 1,
    variant: str = "tablut",
    rated: bool = True,
    plies: int = PLIES_TO_COUNT,
) -> GameRecord:
    """A game that ends with ``result`` (by resignation, or an agreed draw) after ``plies`` moves
    (by default one by each side, the fewest that count)."""
    game = await storage.games.create(
        guild_id=guild_id,
        channel_id=next(_channels),
        variant=variant,
        attackers=attackers,
        defenders=defenders,
        rated=rated,
    )
    await play_opening(storage, game, plies)
    reason = "agreed draw" if result == "draw" else "resignation"
    return (await storage.games.finish(game.id, result, reason)).record


async def test_a_rated_game_updates_both_ratings_in_its_variant(storage: Storage) -> None:
    game = await play(storage, ALICE, BOB, "attackers")
    expected_alice, expected_bob = rate_game(Rating(), Rating(), 1.0)
    alice = await storage.ratings.get(ALICE, "tablut")
    bob = await storage.ratings.get(BOB, "tablut")
    assert alice.rating == expected_alice and bob.rating == expected_bob
    assert (alice.games, alice.wins, bob.losses) == (1, 1, 1)
    assert alice.provisional
    changes = await storage.ratings.changes_for_game(game.id)
    assert [c.participant for c in changes] == [ALICE, BOB]
    assert changes[0].delta == pytest.approx(expected_alice.rating - 1500)
    assert (await storage.ratings.get(ALICE, "brandubh")).games == 0


async def test_a_casual_game_and_a_game_against_oneself_are_unrated(storage: Storage) -> None:
    casual = await play(storage, ALICE, BOB, "attackers", rated=False)
    practice = await play(storage, ALICE, ALICE, "defenders")
    assert not casual.rated and not practice.rated
    assert (await storage.ratings.get(ALICE, "tablut")).games == 0


async def test_games_against_the_ai_are_rated_only_where_the_server_says_so(
    storage: Storage,
) -> None:
    ai = Participant.ai(2)
    assert not (await play(storage, ALICE, ai, "attackers", guild_id=1)).rated
    settings = await storage.settings.set_rated_ai_games(1, True)
    assert settings.rated_ai_games and (await storage.settings.get(1)).rated_ai_games
    assert not (await storage.settings.get(2)).rated_ai_games
    assert (await play(storage, ALICE, ai, "attackers", guild_id=1)).rated
    assert not (await play(storage, ALICE, ai, "attackers", guild_id=2)).rated
    assert not (await play(storage, ALICE, ai, "attackers", guild_id=None)).rated
    assert (await storage.ratings.get(ai, "tablut")).games == 1
    assert (await storage.ratings.get(ALICE, "tablut")).games == 1
    await storage.settings.set_rated_ai_games(1, False)
    assert not (await play(storage, ALICE, ai, "attackers", guild_id=1)).rated


async def test_the_ai_plays_at_its_fixed_rating_and_only_the_person_is_rated(
    database_target: str,
) -> None:
    fixed = {1: 1200.0, 4: 2300.0}
    storage = await open_storage(database_target, ai_ratings=lambda _, level: fixed[level])
    try:
        await storage.settings.set_rated_ai_games(1, True)
        master = Participant.ai(4)
        game = await play(storage, master, ALICE, "attackers")  # Alice loses to master
        changes = await storage.ratings.changes_for_game(game.id)
        ai_change, alice_change = changes
        assert ai_change.before == ai_change.after == Rating.fixed(2300.0)
        assert not ai_change.before.provisional and ai_change.before.display == "2300"
        expected, _ = rate_game(Rating(), Rating.fixed(2300.0), 0.0)
        assert alice_change.after == expected
        # Losing to a settled 2300 costs a newcomer far less than to a provisional 1500 did.
        assert -100 < alice_change.delta < 0
        # The AI's own rating row never moves and counts no games.
        assert (await storage.ratings.get(master, "tablut")).games == 0
        await play(storage, ALICE, Participant.ai(1), "defenders")  # and loses to easy
        assert (await storage.ratings.get(ALICE, "tablut")).games == 2
        assert (await storage.ratings.get(Participant.ai(1), "tablut")).games == 0
    finally:
        await storage.close()


async def test_global_leaderboard_orders_by_rating_and_applies_the_gate(storage: Storage) -> None:
    # Alice beats everyone, Dave loses to everyone, Bob and Carol draw: 9 games each.
    for _ in range(3):
        await play(storage, ALICE, BOB, "attackers")
        await play(storage, CAROL, ALICE, "defenders")
        await play(storage, ALICE, DAVE, "attackers")
        await play(storage, BOB, DAVE, "attackers")
        await play(storage, DAVE, CAROL, "defenders")
        await play(storage, BOB, CAROL, "draw")
    # Eve beats Alice twice: the best rating of all, but too few games for the board.
    for _ in range(2):
        await play(storage, EVE, ALICE, "attackers")
    board = await storage.leaderboards.leaderboard("tablut", min_games=9)
    assert [entry.user_id for entry in board] == [101, 102, 103, 104]
    assert [entry.rank for entry in board] == [1, 2, 3, 4]
    assert board[0].display_name == "Alice" and board[0].games == 11
    ratings = [entry.rating.rating for entry in board]
    assert ratings == sorted(ratings, reverse=True)
    assert (await storage.ratings.get(EVE, "tablut")).rating.rating > ratings[0]
    everyone = await storage.leaderboards.leaderboard("tablut", min_games=1)
    assert [entry.user_id for entry in everyone] == [105, 101, 102, 103, 104]
    page = await storage.leaderboards.leaderboard("tablut", min_games=9, limit=2, offset=2)
    assert [(entry.rank, entry.user_id) for entry in page] == [(3, 103), (4, 104)]
    default_gate = await storage.leaderboards.leaderboard("tablut")  # 10 rated games
    assert [entry.user_id for entry in default_gate] == [101]
    assert await storage.leaderboards.leaderboard("brandubh", min_games=0) == []


async def test_equal_ratings_rank_the_surer_one_first(storage: Storage) -> None:
    # Alice and Bob draw twice (RD falls); Carol and Dave draw once: all stay at 1500.
    for _ in range(2):
        await play(storage, ALICE, BOB, "draw")
    await play(storage, CAROL, DAVE, "draw")
    board = await storage.leaderboards.leaderboard("tablut", min_games=1)
    assert [entry.user_id for entry in board] == [101, 102, 103, 104]
    assert board[0].rating.rd < board[2].rating.rd


async def test_server_leaderboard_counts_only_that_servers_games(storage: Storage) -> None:
    for _ in range(3):
        await play(storage, ALICE, BOB, "attackers", guild_id=1)
    await play(storage, CAROL, ALICE, "attackers", guild_id=2)
    await play(storage, CAROL, DAVE, "attackers", guild_id=2)
    first = await storage.leaderboards.leaderboard("tablut", guild_id=1)
    assert [(e.user_id, e.games) for e in first] == [(101, 3), (102, 3)]
    # Alice's rating there is her global one, which includes her loss in server 2.
    assert first[0].rating == (await storage.ratings.get(ALICE, "tablut")).rating
    second = await storage.leaderboards.leaderboard("tablut", guild_id=2, min_games=1)
    assert [e.user_id for e in second] == [103, 101, 104]
    assert await storage.leaderboards.leaderboard("tablut", guild_id=2) == []


async def test_the_ai_never_appears_on_a_leaderboard(storage: Storage) -> None:
    await storage.settings.set_rated_ai_games(1, True)
    await play(storage, Participant.ai(5), ALICE, "attackers")
    board = await storage.leaderboards.leaderboard("tablut", min_games=1)
    assert [entry.user_id for entry in board] == [101]


async def test_player_statistics_by_side_with_streak_and_filters(storage: Storage) -> None:
    await play(storage, ALICE, BOB, "attackers")  # Alice wins as attackers
    await play(storage, BOB, ALICE, "attackers")  # loses as defenders
    await play(storage, BOB, ALICE, "draw", variant="brandubh")  # draws as defenders
    await play(storage, ALICE, Participant.ai(1), "defenders")  # loses as attackers (AI)
    await play(storage, Participant.ai(3), ALICE, "defenders")  # beats the AI, defending
    await play(storage, ALICE, BOB, "attackers", guild_id=2)  # wins as attackers
    await play(storage, BOB, ALICE, "defenders", guild_id=2)  # wins as defenders
    await play(storage, ALICE, ALICE, "attackers")  # against herself: ignored
    await play(storage, ALICE, BOB, "defenders", plies=1)  # too short: ignored
    await play(storage, Participant.ai(2), ALICE, "attackers", plies=0)  # too short: ignored
    await play(storage, ALICE, CAROL, "attackers", rated=False)  # unrated person: ignored
    aborted = await storage.games.create(
        guild_id=1, channel_id=1, variant="tablut", attackers=ALICE, defenders=BOB
    )
    await storage.games.abort(aborted.id)  # no result: ignored

    stats = await storage.leaderboards.player_stats(101)
    people, ai = stats.against_people, stats.against_ai
    assert (people.wins, people.losses, people.draws, people.games) == (3, 1, 1, 5)
    assert (people.as_attackers.wins, people.as_attackers.losses) == (2, 0)
    assert (people.as_defenders.wins, people.as_defenders.losses, people.as_defenders.draws) == (
        1,
        1,
        1,
    )
    assert (ai.as_attackers.losses, ai.as_defenders.wins, ai.games) == (1, 1, 2)
    assert stats.games == 7 and stats.streak == Streak("win", 3)
    in_first_server = await storage.leaderboards.player_stats(101, guild_id=1)
    assert in_first_server.games == 5 and in_first_server.streak == Streak("win", 1)
    assert in_first_server.against_people.games == 3
    brandubh = await storage.leaderboards.player_stats(101, variant="brandubh")
    assert brandubh.against_people.draws == 1 and brandubh.streak == Streak("draw", 1)
    assert brandubh.against_ai.games == 0
    nobody = await storage.leaderboards.player_stats(999)
    assert nobody.games == 0 and nobody.streak == Streak(None, 0)


async def test_a_players_ratings_in_every_variant_they_played(storage: Storage) -> None:
    for _ in range(2):
        await play(storage, ALICE, BOB, "attackers", variant="brandubh")
    await play(storage, ALICE, BOB, "defenders")
    await play(storage, ALICE, CAROL, "defenders", variant="fidchell", plies=1)  # not rated
    ratings = await storage.ratings.every_variant(ALICE)
    assert [(r.variant, r.games, r.wins, r.losses) for r in ratings] == [
        ("brandubh", 2, 2, 0),
        ("tablut", 1, 0, 1),
    ]
    assert ratings[0].rating == (await storage.ratings.get(ALICE, "brandubh")).rating
    assert await storage.ratings.every_variant(CAROL) == []


async def test_provisional_mark_clears_after_enough_games(storage: Storage) -> None:
    # Against newcomers each one-game rating period teaches little: about 22 games are needed.
    opponents = [Participant.user(200 + n) for n in range(25)]
    marks = []
    for opponent in opponents:
        await play(storage, ALICE, opponent, "draw")
        marks.append((await storage.ratings.get(ALICE, "tablut")).provisional)
    assert marks[0] and not marks[-1]


async def test_server_settings_are_kept_together(storage: Storage) -> None:
    assert await storage.settings.get(7) == ServerSettings(guild_id=7)
    saved = await storage.settings.save(
        ServerSettings(guild_id=7, game_threads=True, default_move_seconds=3600)
    )
    assert (saved.game_threads, saved.default_move_seconds, saved.rated_ai_games) == (
        True,
        3600,
        False,
    )
    again = await storage.settings.set_rated_ai_games(7, True)
    assert (again.game_threads, again.default_move_seconds, again.rated_ai_games) == (
        True,
        3600,
        True,
    )
    with pytest.raises(ValueError):
        await storage.settings.save(ServerSettings(guild_id=7, default_move_seconds=0))


# -- the rule that a game must see a move by each side to count ---------------------------------


@pytest.mark.parametrize("plies", [0, 1])
@pytest.mark.parametrize("ending", [*Termination, *TableEnding])
async def test_a_game_that_ends_before_both_sides_moved_is_not_rated(
    storage: Storage, ending: GameEnding, plies: int
) -> None:
    """Every ending, by people, the clock or the board, goes through ``finish``: none escapes."""
    result = "draw" if ending.is_draw else "defenders"
    game = await storage.games.create(
        guild_id=1, channel_id=next(_channels), variant="tablut", attackers=ALICE, defenders=BOB
    )
    await play_opening(storage, game, plies)
    finished = await storage.games.finish(game.id, result, ending)
    assert finished.ended_before_both_moved and finished.rating_changes == ()
    record = finished.record
    assert not record.rated and (record.result, record.reason) == (GameResult(result), ending)
    assert not (await storage.games.get(game.id)).rated  # the stored flag tells the truth
    assert await storage.ratings.changes_for_game(game.id) == ()
    assert (await storage.ratings.get(ALICE, "tablut")).games == 0
    assert await storage.leaderboards.leaderboard("tablut", min_games=0) == []
    assert await storage.leaderboards.leaderboard("tablut", guild_id=1, min_games=0) == []
    assert (await storage.leaderboards.player_stats(101)).games == 0


async def test_the_game_counts_from_the_reply_and_a_takeback_can_undo_that(
    storage: Storage,
) -> None:
    counted = await play(storage, ALICE, BOB, "attackers", plies=PLIES_TO_COUNT)
    assert counted.rated and len(await storage.ratings.changes_for_game(counted.id)) == 2

    # Both sides moved, then the reply was taken back: one move in effect, so it does not count.
    game = await storage.games.create(
        guild_id=1, channel_id=next(_channels), variant="tablut", attackers=ALICE, defenders=BOB
    )
    await play_opening(storage, game)
    await storage.games.take_back(game.id, PLIES_TO_COUNT, plies=1)
    finished = await storage.games.finish(game.id, "attackers", "resignation")
    assert finished.ended_before_both_moved and not finished.record.rated
    assert (await storage.ratings.get(ALICE, "tablut")).games == 1


async def test_an_unrated_game_that_ends_early_is_not_said_to_have_lost_its_rating(
    storage: Storage,
) -> None:
    """Only a game that would have been rated reports that it ended too soon."""
    against_ai = await storage.games.create(
        guild_id=1,
        channel_id=next(_channels),
        variant="tablut",
        attackers=ALICE,
        defenders=Participant.ai(2),
    )
    finished = await storage.games.finish(against_ai.id, "defenders", "resignation")
    assert not finished.record.rated and not finished.ended_before_both_moved


async def test_an_aborted_game_is_stored_as_unrated(storage: Storage) -> None:
    game = await storage.games.create(
        guild_id=1, channel_id=next(_channels), variant="tablut", attackers=ALICE, defenders=BOB
    )
    assert game.rated
    aborted = await storage.games.abort(game.id)
    assert not aborted.rated and not (await storage.games.get(game.id)).rated
