"""The Discord layer's game hub against a real SQLite file: turns, errors, races, restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers import refusal_words, refused
from storage_helpers import FakeClock

from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.games import (
    OFFER_COOLDOWN_SECONDS,
    Declined,
    GameHub,
    ResultNotRecorded,
    TakenBack,
)
from bot.storage import Participant, Place, Storage, Venue
from bot.storage.lobby import Pairing, SeekRequest

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")
CHANNEL = 100


async def new_hub(path: Path | str) -> tuple[Storage, GameHub]:
    storage = await Storage.open(path)
    hub = GameHub(storage)
    await hub.load()
    return storage, hub


async def start(hub: GameHub, variant: str = "brandubh") -> None:
    await start_in(hub, CHANNEL, variant)


async def start_in(hub: GameHub, channel: int, variant: str = "brandubh") -> None:
    record = await hub.storage.games.create(
        guild_id=1, channel_id=channel, variant=variant, attackers=ANN, defenders=BO
    )
    hub.adopt(record)


async def test_moves_are_checked_committed_and_survive_a_restart(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.play(CHANNEL, BO, "d3-c3")
    position = (await hub.require(CHANNEL)).game.position_otn()
    await storage.close()

    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    live = await hub.require(CHANNEL)
    assert live.game.position_otn() == position and live.game.ply == 2
    await storage.close()


async def test_turn_and_membership_errors_are_specific(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    with refused("not your turn: <@1> is to move with the attackers"):
        await hub.play(CHANNEL, BO, "d3-c3")
    with refused("not playing in this game"):
        await hub.play(CHANNEL, Participant.user(3, "Cy"), "d1-c1")
    with refused("Illegal move: `d1-d3`: d2 blocks the path"):
        await hub.play(CHANNEL, ANN, "d1-d3")
    with refused("no game in this channel"):
        await hub.play(CHANNEL + 1, ANN, "d1-c1")
    assert await storage.games.moves((await hub.require(CHANNEL)).id) == []
    await storage.close()


async def test_a_move_sent_again_is_told_that_it_counted(tmp_path: Path) -> None:
    # Its answer was slow, so the player sends it again: not a bare "not your turn".
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    with refused() as again:
        await hub.play(CHANNEL, ANN, "d1-c1")
    assert refusal_words(again.value.refusal) == (
        "It is not your turn: your move `d1-c1` was played, and <@2> is to move with the defenders."
    )
    await storage.close()


async def test_racing_submissions_apply_exactly_one(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    results = await asyncio.gather(
        hub.play(CHANNEL, ANN, "d1-c1", expected_ply=0),
        hub.play(CHANNEL, ANN, "d1-e1", expected_ply=0),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Refused)]
    assert len(errors) == 1 and "position changed" in refusal_words(errors[0].refusal)
    live = await hub.require(CHANNEL)
    assert live.game.ply == 1
    assert len(await storage.games.moves(live.id)) == 1
    await storage.close()


async def test_a_winning_move_finishes_the_game_in_the_database(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    record = await storage.games.create(
        guild_id=1,
        channel_id=CHANNEL,
        variant="brandubh",
        attackers=ANN,
        defenders=BO,
        start_position="/7/K6/7/7/7/5t1/7/",
        first_turn="defenders",
    )
    hub.adopt(record)
    played = await hub.play(CHANNEL, BO, "a2-a1")
    assert played.result.outcome is not None
    assert played.finished is not None
    assert played.finished.record.result is not None
    assert played.finished.record.result.value == "defenders"
    assert hub.get(CHANNEL) is None
    await storage.close()


async def test_resign_draw_and_takeback(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    live = await hub.require(CHANNEL)
    await hub.offer_takeback(CHANNEL, ANN.user_id or 0)
    with refused("your opponent answers"):
        await hub.answer_takeback(live.id, ANN.user_id or 0, 1, True)
    taken = await hub.answer_takeback(live.id, BO.user_id or 0, 1, True)
    assert isinstance(taken, TakenBack) and taken.game.game is live.game and taken.asker == ANN
    assert [result.notation for result in taken.moves] == ["d1-c1"]
    assert live.game.ply == 0 and await storage.games.moves(live.id) == []

    await hub.offer_draw(CHANNEL, BO.user_id or 0)
    assert isinstance(await hub.answer_draw(live.id, ANN.user_id or 0, 0, accept=False), Declined)
    with refused("no longer open"):
        await hub.answer_draw(live.id, ANN.user_id or 0, 0, accept=True)

    ended = await hub.resign(CHANNEL, ANN.user_id or 0)
    assert ended.finished.record.result is not None
    assert ended.finished.record.result.value == "defenders"
    assert ended.finished.record.reason is not None
    assert ended.finished.record.reason.value == "resignation"
    await storage.close()


async def test_offers_survive_a_restart_and_are_answered_once(database_target: str) -> None:
    storage, hub = await new_hub(database_target)
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.play(CHANNEL, BO, "d3-c3")
    live = await hub.require(CHANNEL)
    made = await hub.offer_draw(CHANNEL, ANN.user_id or 0)
    assert live.draw_offer is not None and made.offer == live.draw_offer
    await hub.offer_posted(live.id, "draw", live.draw_offer.ply, 4242)
    await hub.offer_takeback(CHANNEL, BO.user_id or 0)
    await storage.close()

    storage, hub = await new_hub(database_target)
    live = await hub.require(CHANNEL)
    assert live.draw_offer is not None and live.takeback_offer is not None
    assert (live.draw_offer.user_id, live.draw_offer.ply) == (ANN.user_id, 2)
    assert live.draw_offer.message_id == 4242
    taken = await hub.answer_takeback(live.id, ANN.user_id or 0, 2, accept=True)
    assert isinstance(taken, TakenBack) and [r.notation for r in taken.moves] == ["d3-c3"]
    # The takeback withdrew the draw offer, in memory and in the database.
    assert [offer.kind for offer in taken.withdrawn] == ["draw"]
    assert await storage.offers.open_offers() == []
    await storage.close()

    storage, hub = await new_hub(database_target)
    live = await hub.require(CHANNEL)
    assert live.draw_offer is None and live.takeback_offer is None
    with refused("no longer open"):
        await hub.answer_draw(live.id, BO.user_id or 0, 2, accept=True)
    await storage.close()


async def test_a_draw_offer_made_on_your_turn_goes_along_with_your_move(
    database_target: str,
) -> None:
    """As on lichess: offered by the player to move, it stands after their move until the
    opponent answers or moves; offered while waiting, the opponent's move withdraws it."""
    storage, hub = await new_hub(database_target)
    await start(hub)
    ann, bo = ANN.user_id or 0, BO.user_id or 0
    live = await hub.require(CHANNEL)
    await hub.offer_draw(CHANNEL, ann)  # Ann is to move
    assert live.draw_offer is not None
    await hub.offer_posted(live.id, "draw", live.draw_offer.ply, 77)
    played = await hub.play(CHANNEL, ANN, "d1-c1")
    assert played.withdrawn == ()
    assert played.carried is not None and (played.carried.ply, played.carried.message_id) == (1, 77)
    assert live.draw_offer == played.carried
    await storage.close()

    storage, hub = await new_hub(database_target)  # it stands in the database too
    live = await hub.require(CHANNEL)
    assert live.draw_offer is not None
    assert (live.draw_offer.user_id, live.draw_offer.ply, live.draw_offer.message_id) == (
        ann,
        1,
        77,
    )
    # Bo moves instead of answering: the offer is gone.
    played = await hub.play(CHANNEL, BO, "d3-c3")
    assert [offer.user_id for offer in played.withdrawn] == [ann] and played.carried is None
    assert await storage.offers.open_offers() == []

    # Offered while the opponent is to move: withdrawn by the opponent's move, not carried.
    await hub.offer_draw(CHANNEL, bo)  # Ann to move at ply 2
    played = await hub.play(CHANNEL, ANN, "c1-d1")
    assert [offer.user_id for offer in played.withdrawn] == [bo] and played.carried is None

    # Carried, then accepted at the new ply: the game is drawn.
    await hub.offer_draw(CHANNEL, bo)  # Bo to move at ply 3
    played = await hub.play(CHANNEL, BO, "c3-d3")
    assert played.carried is not None and played.carried.ply == 4
    with refused("no longer open"):  # the old ply's buttons
        await hub.answer_draw(live.id, ann, 3, accept=True)
    ended = await hub.answer_draw(live.id, ann, 4, accept=True)
    assert not isinstance(ended, Declined) and ended.finished.record.result is not None
    assert ended.finished.record.result.value == "draw"
    await storage.close()


async def test_an_open_offer_is_not_asked_twice_by_either_player(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    ann, bo = ANN.user_id or 0, BO.user_id or 0
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.offer_draw(CHANNEL, ann)
    with refused("You have already offered a draw; your opponent has"):
        await hub.offer_draw(CHANNEL, ann)
    with refused("<@1> has already offered you a draw: answer it"):
        await hub.offer_draw(CHANNEL, bo)
    await hub.offer_takeback(CHANNEL, ann)
    with refused("You have already asked to take back a move"):
        await hub.offer_takeback(CHANNEL, ann)
    await storage.close()


async def test_a_move_committed_whose_answer_was_lost_is_caught_up_not_repeated(
    database_target: str,
) -> None:
    storage, hub = await new_hub(database_target)
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    live = await hub.require(CHANNEL)
    # Bo's move reaches the database, but (a connection lost at commit) the hub never learns.
    await storage.games.append_move(live.id, 1, "d3-c3")
    with refused("position changed"):
        await hub.play(CHANNEL, BO, "d3-c3", expected_ply=1)
    assert live.game.ply == 2 and not live.unsure
    await hub.play(CHANNEL, ANN, "c1-c2")
    assert await storage.games.moves(live.id) == ["d1-c1", "d3-c3", "c1-c2"]
    # After a failure that leaves the commit open, the next move starts from the database.
    await storage.games.append_move(live.id, 3, "c3-b3")
    live.unsure = True
    await hub.play(CHANNEL, ANN, "a4-a3")
    assert await storage.games.moves(live.id) == ["d1-c1", "d3-c3", "c1-c2", "c3-b3", "a4-a3"]
    await storage.close()


async def test_a_takeback_before_ones_first_move_is_refused(tmp_path: Path) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await start(hub)
    await hub.play(CHANNEL, ANN, "d1-c1")
    with refused("not moved yet"):
        await hub.offer_takeback(CHANNEL, BO.user_id or 0)
    await storage.close()


def refuse_to_finish(game_id: int, *statuses: str) -> str:
    """A trigger making the database refuse to end one game: a real failure, not a mock."""
    wanted = ", ".join(f"'{status}'" for status in statuses)
    return f"""
        CREATE TRIGGER refuse_{game_id} BEFORE UPDATE OF status ON games
        WHEN OLD.id = {game_id} AND NEW.status IN ({wanted})
        BEGIN SELECT RAISE(ABORT, 'the disk is full'); END
    """


async def won_but_not_recorded(storage: Storage, channel: int) -> int:
    """A brandubh game whose winning move is committed but whose result is not stored."""
    record = await storage.games.create(
        guild_id=1,
        channel_id=channel,
        variant="brandubh",
        attackers=ANN,
        defenders=BO,
        start_position="/7/K6/7/7/7/5t1/7/",
        first_turn="defenders",
    )
    await storage.games.append_move(record.id, 0, "a2-a1")
    return record.id


async def test_a_game_whose_result_cannot_be_stored_is_set_aside_at_start_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    broken = await won_but_not_recorded(storage, CHANNEL)
    settled_elsewhere = await won_but_not_recorded(storage, CHANNEL + 1)
    await start_in(hub, CHANNEL + 2)
    async with storage.db.transaction() as connection:
        await connection.execute(refuse_to_finish(broken, "finished"))
    await storage.close()

    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    assert [live.record.channel_id for live in hub.active()] == [CHANNEL + 2]
    assert f"game {broken} (channel {CHANNEL})" in caplog.text and "the disk is full" in caplog.text
    record = await storage.games.get(broken)
    assert record.status.value == "unreplayable" and "the disk is full" in (record.problem or "")
    assert await storage.games.moves(broken) == ["a2-a1"]
    assert (await storage.games.get(settled_elsewhere)).status.value == "finished"
    await storage.close()


async def test_a_winning_move_whose_result_cannot_be_stored_frees_the_channel(
    tmp_path: Path,
) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    record = await storage.games.create(
        guild_id=1,
        channel_id=CHANNEL,
        variant="brandubh",
        attackers=ANN,
        defenders=BO,
        start_position="/7/K6/7/7/7/5t1/7/",
        first_turn="defenders",
    )
    hub.adopt(record)
    async with storage.db.transaction() as connection:
        await connection.execute(refuse_to_finish(record.id, "finished"))
    with refused(f"set aside with all its moves .game #{record.id}") as unsaved:
        await hub.play(CHANNEL, BO, "a2-a1")
    assert isinstance(unsaved.value, ResultNotRecorded)
    assert hub.get(CHANNEL) is None
    assert await storage.games.moves(record.id) == ["a2-a1"]  # the move is never lost
    assert (await storage.games.get(record.id)).status.value == "unreplayable"
    await storage.close()


async def test_a_result_that_cannot_be_stored_yet_is_stored_on_a_later_try(
    tmp_path: Path,
) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    game_id = await won_but_not_recorded(storage, CHANNEL)
    async with storage.db.transaction() as connection:
        await connection.execute(refuse_to_finish(game_id, "finished", "unreplayable"))
    await storage.close()

    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    live = await hub.require(CHANNEL)  # neither finished nor set aside: kept to try again
    assert live.game.is_over and await hub.settle() == []
    async with storage.db.transaction() as connection:
        await connection.execute(f"DROP TRIGGER refuse_{game_id}")
    [played] = await hub.settle()
    assert played.finished is not None and played.finished.record.result is not None
    assert played.finished.record.result.value == "defenders"
    assert hub.get(CHANNEL) is None and await hub.settle() == []
    await storage.close()


# -- a declined offer is not asked again at once ---------------------------------------------------


async def test_a_declined_draw_offer_waits_for_the_cooldown_or_the_next_move(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    clock = FakeClock()
    hub = GameHub(storage, clock=clock)
    await start(hub)
    ann, bo = ANN.user_id or 0, BO.user_id or 0
    live = await hub.require(CHANNEL)
    await hub.offer_draw(CHANNEL, ann)
    assert isinstance(await hub.answer_draw(live.id, bo, 0, accept=False), Declined)

    with refused(r"offer a draw again in 60 s, or after the next move"):
        await hub.offer_draw(CHANNEL, ann)
    clock.advance(15.2)
    with refused(r"again in 45 s,"):  # rounded up: never "0 s"
        await hub.offer_draw(CHANNEL, ann)
    # Only the one who was refused waits, and only for that kind of offer.
    await hub.offer_draw(CHANNEL, bo)
    await hub.play(CHANNEL, ANN, "d1-c1")
    # A move makes it a new question at once.
    await hub.offer_draw(CHANNEL, ann)
    assert isinstance(await hub.answer_draw(live.id, bo, 1, accept=False), Declined)
    with refused("again in 60 s"):
        await hub.offer_draw(CHANNEL, ann)
    clock.advance(OFFER_COOLDOWN_SECONDS)
    assert (await hub.offer_draw(CHANNEL, ann)).offer == live.draw_offer
    await storage.close()


async def test_a_refused_takeback_waits_for_the_cooldown_or_the_next_move(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    clock = FakeClock()
    hub = GameHub(storage, clock=clock)
    await start(hub)
    ann, bo = ANN.user_id or 0, BO.user_id or 0
    await hub.play(CHANNEL, ANN, "d1-c1")
    live = await hub.require(CHANNEL)
    await hub.offer_takeback(CHANNEL, ann)
    assert isinstance(await hub.answer_takeback(live.id, bo, 1, accept=False), Declined)
    with refused(r"ask to take back a move again in 60 s, or after"):
        await hub.offer_takeback(CHANNEL, ann)
    await hub.offer_draw(CHANNEL, ann)  # a draw is another question
    clock.advance(OFFER_COOLDOWN_SECONDS - 1)
    with refused("again in 1 s"):
        await hub.offer_takeback(CHANNEL, ann)
    await hub.play(CHANNEL, BO, "d3-c3")
    assert (await hub.offer_takeback(CHANNEL, ann)).offer == live.takeback_offer
    await storage.close()


async def test_against_the_ai_a_takeback_removes_the_move_and_the_reply_in_unrated_games_only(
    tmp_path: Path,
) -> None:
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    ai = Participant.ai(2)
    record = await storage.games.create(
        guild_id=1, channel_id=CHANNEL, variant="brandubh", attackers=ANN, defenders=ai
    )
    assert not record.rated  # the server has not asked for rated games against the AI
    hub.adopt(record)
    with refused("No move has been played"):
        await hub.take_back_against_ai(CHANNEL, ANN.user_id or 0)
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.play(CHANNEL, ai, "d3-e3")
    with refused("takes your move back at once"):
        await hub.offer_takeback(CHANNEL, ANN.user_id or 0)
    with refused("not playing"):
        await hub.take_back_against_ai(CHANNEL, BO.user_id or 0)

    taken = await hub.take_back_against_ai(CHANNEL, ANN.user_id or 0)
    assert [(r.side.value, r.notation) for r in taken.moves] == [
        ("attackers", "d1-c1"),
        ("defenders", "d3-e3"),
    ]
    live = await hub.require(CHANNEL)
    assert live.game.ply == 0 and await storage.games.moves(live.id) == []

    # The AI failed to reply: only the player's move goes.
    await hub.play(CHANNEL, ANN, "d1-c1")
    taken = await hub.take_back_against_ai(CHANNEL, ANN.user_id or 0)
    assert [r.notation for r in taken.moves] == ["d1-c1"] and live.game.ply == 0
    await hub.resign(CHANNEL, ANN.user_id or 0)

    await storage.settings.set_rated_ai_games(1, True)
    rated = await storage.games.create(
        guild_id=1, channel_id=CHANNEL, variant="brandubh", attackers=ANN, defenders=ai
    )
    assert rated.rated
    hub.adopt(rated)
    await hub.play(CHANNEL, ANN, "d1-c1")
    await hub.play(CHANNEL, ai, "d3-e3")
    with refused("is rated"):
        await hub.take_back_against_ai(CHANNEL, ANN.user_id or 0)
    assert (await hub.require(CHANNEL)).game.ply == 2
    await storage.close()


async def test_a_game_across_servers_stays_in_its_channels_while_it_is_rebuilt(
    tmp_path: Path,
) -> None:
    """Rebuilding a game across servers from the database (after a write whose commit is in
    doubt) reads its venues again; a move in either of its channels meanwhile must find the
    game and wait for it, not be told the channel has no game."""
    storage, hub = await new_hub(tmp_path / "t.sqlite3")
    await storage.lobby.seek(SeekRequest(ANN, 1, 100, "brandubh", 86400, True, None))
    pairing = await storage.lobby.seek(SeekRequest(BO, 2, 200, "brandubh", 86400, True, None))
    assert isinstance(pairing, Pairing)
    first = pairing.attackers
    record, venues = await storage.games.create_across(
        attackers=first.player,
        defenders=pairing.defenders.player,
        variant=first.variant,
        move_seconds=first.move_seconds,
        rated=first.rated,
        places={
            "attackers": Place(first.guild_id, "North", 9001),
            "defenders": Place(pairing.defenders.guild_id, "South", 9002),
        },
        pairing=pairing,
    )
    live = hub.adopt(record, venues)
    mover = live.to_move
    # The venues are read while the game is rebuilt: hold that read open to look inside.
    reading, release = asyncio.Event(), asyncio.Event()
    read_venues = storage.games.venues

    async def held_venues(game_id: int) -> list[Venue]:
        reading.set()
        await release.wait()
        return list(await read_venues(game_id))

    storage.games.venues = held_venues  # type: ignore[method-assign]
    live.unsure = True
    playing = asyncio.create_task(hub.play(9001, mover, "d1-c1"))
    await reading.wait()
    assert hub.get(9001) is live and hub.get(9002) is live
    release.set()
    played = await playing
    assert played.game.game is live.game and live.game.ply == 1
    assert hub.get(9001) is live and hub.get(9002) is live
    await storage.close()
