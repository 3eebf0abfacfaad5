"""``/tafl analyze`` end to end: the real bot reviews a finished game on the Discord stand-in,
posts the accuracy, the decisive moments, the chart and a board per critical moment, stores
the review (asking again is instant) and writes its verdicts into ``/tafl export``."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pseudo_locale
import pytest
import pytest_asyncio
from e2e_support import (
    WAIT,
    World,
    attachment_is_png,
    game_number,
    open_world,
    printed_log,
    private_text,
    split_log,
)
from fakediscord.interactions import DEFERRED_CHANNEL_MESSAGE

from bot.ai.analysis import GameAnalysis, budget_name
from bot.engine import Game
from bot.render import analysis_view, render_eval_chart, render_png
from bot.storage import Storage

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(180)]

NAMES = ["ann", "ben", "cat", "dag", "eva", "fay", "gus", "hal", "ivy", "jo", "kim"]
KING_RUNS = ["b4-b7", "c4-c6", "a4-a6", "d4-a4", "d2-c2", "a4-a1"]
"""A brandubh game the attackers lose at once: a4-a6 lets the king reach a4 with a road to a1."""
OWN_ANSWER = ["d6-e6", "d5-a5", "e6-a6", "d4-d6", "d7-f7", "d6-e6"]
"""A brandubh game in which 3. d7-f7 allows a forced win that the defenders' d6-e6 begins,
although the search's own answer is another move."""


def quiet_moves(variant: str, count: int) -> list[str]:
    """``count`` moves from the start of ``variant`` that capture nothing and do not end it."""
    game, moves = Game(variant), []
    while len(moves) < count:
        move = next(m for m in game.legal_moves() if not game.captures_of(m))
        game.play(move)
        moves.append(move.text(game.size))
    return moves


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(tmp_path_factory.mktemp("bot_e2e_review"), NAMES) as world:
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


async def test_a_finished_game_is_reviewed_once_with_its_moments_chart_and_boards(
    world: World, bot_log: None, tmp_path: Path
) -> None:
    ann, ben = world.user("ann"), world.user("ben")
    channel = world.channel("review")
    await world.challenge(ann, ben, channel, variant="brandubh", side="attackers")
    boards = await world.play_line(ann, ben, channel, KING_RUNS)
    assert "escaped" in boards[-1].text.lower() or "wins" in boards[-1].text.lower()

    asked = await world.fake.send_slash_command(
        ben, channel, "tafl", subcommand="analyze", options={}
    )
    review = await asked.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
    )
    # "Thinking" first, then at once (before the first position is searched) how far it got.
    assert asked.callback is not None and asked.callback.type == DEFERRED_CHANNEL_MESSAGE
    first = next(response for response in asked.responses if response.kind == "edit")
    assert first.content == "Reviewing game #1: 0 of 7 positions searched…", asked.responses
    [embed] = review.data["embeds"]
    assert embed["title"] == "Review of game #1 (Brandubh, 3 moves)", embed
    assert embed["description"].startswith("ben won with the defenders (king escaped).\n")
    assert "ann (attackers):" in embed["description"] and "% accuracy" in embed["description"]
    moments = embed["fields"][0]
    assert moments["name"] == "The moments that decided it", embed
    # The smaller costs are listed apart (here the opening's pieces lost for nothing).
    assert [field["name"] for field in embed["fields"][1:]] in ([], ["Mistakes"]), embed
    # a4-a6 let the king reach a4 with a road to a1 (after that the game was lost whatever the
    # attackers did): it must be named, with why and a better move.
    assert "**2. a4-a6** ann (attackers), blunder: allows d4-a4" in moments["value"]
    assert "road for the king to a1" in moments["value"] and "better **" in moments["value"]
    message = asked.original_message
    assert message is not None and not message.ephemeral
    names = [attachment.filename for attachment in message.attachments]
    assert names[0] == "review-1.png" and any(n.startswith("review-1-move-") for n in names)
    assert attachment_is_png(message)[0] >= 400  # the chart, readable on a phone
    for attachment in message.attachments:
        assert attachment.data.startswith(b"\x89PNG")
        (tmp_path / attachment.filename).write_bytes(attachment.data)
    if os.environ.get("TAFL_KEEP_REVIEW_IMAGES"):
        print("review images kept in", tmp_path)

    # Again: the stored review, no second search.
    again = await world.command(ann, channel, "analyze", game=1)
    repeat = await again.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT
    )
    assert repeat.data["embeds"][0]["fields"] == embed["fields"]
    reviewed = [entry for entry in split_log(world.bot.log_text()) if "game 1 reviewed" in entry]
    assert len(reviewed) == 1

    # The record carries the verdicts as remarks on the moves.
    exported = await world.command(ann, channel, "export", game=1)
    record = exported.original_message
    assert record is not None
    text = record.attachments[0].data.decode()
    remark = "[Blunder (better b7-b6): a4-a6 allows d4-a4, opening a road"
    assert f"\n2. a4-a6 d4-a4-\n{remark}" in text, text

    # Asked by a defender who likes high contrast and boards turned to their side: the
    # review's boards and chart are drawn that way (a review is public, but the asker's).
    await world.command(ben, channel, "preferences", theme="contrast", flip=True)
    try:
        mine = await world.fake.send_slash_command(
            ben, channel, "tafl", subcommand="analyze", options={"game": 1}
        )
        await mine.wait_response(
            lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT
        )
        assert mine.original_message is not None
        attachments = mine.original_message.attachments
    finally:
        await world.command(ben, channel, "preferences", theme="classic", flip=False)
    storage = await Storage.open(world.bot.env["TAFL_DATABASE"])
    try:
        stored = await storage.analyses.get(1, budget_name("brandubh"))
    finally:
        await storage.close()
    assert stored is not None
    analysis = GameAnalysis.from_json(stored)
    moment = analysis.critical[0]
    view = analysis_view(analysis, moment.ply, caption=True, attackers="ann", defenders="ben")
    board = next(a for a in attachments if a.filename == f"review-1-move-{moment.ply}.png")
    if not pseudo_locale.enabled():  # drawn here with the English words
        assert board.data == render_png(view, theme="contrast", flip=True)
        assert attachments[0].data == render_eval_chart(analysis, theme="contrast")
        assert message.attachments[0].data == render_eval_chart(analysis)  # ben's were classic


async def test_only_finished_games_of_this_server_are_reviewed(world: World, bot_log: None) -> None:
    ann, cat = world.user("ann"), world.user("cat")
    channel = world.channel("not-yet")
    nothing = await world.error_reply(ann, channel, "analyze")
    assert nothing.startswith("No game has finished in this channel yet")
    await world.challenge(cat, ann, channel, variant="brandubh", side="defenders")
    await world.play_line(ann, cat, channel, ["b4-b7"])
    playing = await world.error_reply(ann, channel, "analyze", game=2)
    assert playing == "Game #2 is still being played: it can be reviewed once it ends."
    missing = await world.error_reply(ann, channel, "analyze", game=99)
    assert missing == "There is no game #99 in this server."
    # Discord's app itself refuses a number no game can have (the option's minimum is 1).
    with pytest.raises(ValueError, match="outside"):
        await world.command(ann, channel, "analyze", game=0)


async def test_a_resigned_game_says_who_gave_up_and_lists_its_key_moments(
    world: World, bot_log: None
) -> None:
    ben, cat = world.user("ben"), world.user("cat")
    channel = world.channel("resigned")
    await world.challenge(ben, cat, channel, variant="brandubh", side="defenders")
    # a4-a6 lets the king reach a4 with a road to a1; the defenders resign all the same.
    await world.play_line(cat, ben, channel, KING_RUNS[:3])
    resigned = await world.command(ben, channel, "resign")
    assert resigned.original_message is not None and "resigned" in resigned.original_message.text
    reviewed = await world.fake.send_slash_command(cat, channel, "tafl", subcommand="analyze")
    review = await reviewed.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
    )
    [embed] = review.data["embeds"]
    assert embed["description"].startswith(
        "ben (defenders) resigned, with a forced win on the board (d4-a4 started it).\n"
    ), embed
    assert embed["fields"][0]["name"] == "The key moments", embed


async def test_a_members_reviews_are_made_one_at_a_time_and_the_next_says_so(
    world: World, bot_log: None
) -> None:
    dag, eva = world.user("dag"), world.user("eva")
    channels = [world.channel("one-at-a-time-1"), world.channel("one-at-a-time-2")]
    # One challenge each (a member may challenge once in 20 s); dag attacks in both games.
    sides = ((dag, eva, "attackers"), (eva, dag, "defenders"))
    for (challenger, challenged, side), channel in zip(sides, channels, strict=True):
        await world.challenge(challenger, challenged, channel, variant="brandubh", side=side)
        await world.play_line(dag, eva, channel, KING_RUNS)
    # Both asked at once: one is made while the other waits, saying so; both are posted.
    asks = [
        await world.fake.send_slash_command(dag, channel, "tafl", subcommand="analyze")
        for channel in channels
    ]
    reviews = [
        await ask.wait_response(
            lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
        )
        for ask in asks
    ]
    titles = [review.data["embeds"][0]["title"] for review in reviews]
    assert all(title.startswith("Review of game #") for title in titles), titles
    said = [response.data.get("content") or "" for ask in asks for response in ask.responses]
    waited = [text for text in said if "will be reviewed after" in text]
    assert len(waited) == 1, [ask.responses for ask in asks]
    assert waited[0].startswith("Game #") and "after your other review (each member's" in waited[0]


async def test_a_mistake_is_explained_by_the_answer_the_game_went_on_with(
    world: World, bot_log: None
) -> None:
    """3. d7-f7 lets the defenders win by force. The search's answer is d6-g6 (a road to g7),
    but gus played d6-e6, which wins by force too: the review names d6-e6, the move the
    players saw, not one nobody played."""
    fay, gus = world.user("fay"), world.user("gus")
    channel = world.channel("own-answer")
    await world.challenge(fay, gus, channel, variant="brandubh", side="attackers")
    await world.play_line(fay, gus, channel, OWN_ANSWER)
    await world.command(fay, channel, "resign")
    asked = await world.fake.send_slash_command(gus, channel, "tafl", subcommand="analyze")
    review = await asked.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
    )
    [embed] = review.data["embeds"]
    moments = embed["fields"][0]
    assert moments["name"] == "The key moments", embed
    assert (
        "**3. d7-f7** fay (attackers), blunder: allows a forced win for the defenders, "
        "starting with d6-e6"
    ) in moments["value"], moments
    assert "d6-g6" not in moments["value"], moments


async def test_who_asks_for_a_review_under_way_is_shown_how_far_it_got_at_once(
    world: World, bot_log: None
) -> None:
    hal, ivy = world.user("hal"), world.user("ivy")
    channel = world.channel("both-ask")
    board = await world.challenge(hal, ivy, channel, variant="tablut", side="attackers")
    game = game_number(board)
    await world.play_line(hal, ivy, channel, quiet_moves("tablut", 10))
    await world.command(hal, channel, "resign")
    # 11 tablut positions take the review a second or more; ivy asks once it has begun.
    asks = [await world.fake.send_slash_command(hal, channel, "tafl", subcommand="analyze")]
    begun = await asks[0].wait_response(lambda r: r.kind == "edit", timeout=WAIT)
    assert begun.content == f"Reviewing game #{game}: 0 of 11 positions searched…", begun
    asks.append(await world.fake.send_slash_command(ivy, channel, "tafl", subcommand="analyze"))
    # ivy sees at once where it has got, not a bare "thinking" until the next update.
    joined = await asks[1].wait_response(lambda r: r.kind == "edit", timeout=WAIT)
    assert joined.content == begun.content, asks[1].responses
    for ask in asks:
        review = await ask.wait_response(
            lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
        )
        assert review.data["embeds"][0]["title"].startswith(f"Review of game #{game} ")
    made = [e for e in split_log(world.bot.log_text()) if f"game {game} reviewed:" in e]
    assert len(made) == 1, made  # made once, watched by both


@pytest.mark.catalogue_words
async def test_a_french_servers_review_is_in_french_on_its_card_chart_and_boards(
    world: World, bot_log: None, tmp_path: Path
) -> None:
    """The same game reviewed where the server speaks French (its Discord language): the card,
    the moments, the chart's and the boards' words are French; an English member asking sees
    the channel's French all the same, since a review is posted for everyone."""
    jo, kim = world.user("jo"), world.user("kim")
    channel = world.channel("analyse")
    await world.challenge(jo, kim, channel, variant="brandubh", side="attackers")
    await world.play_line(jo, kim, channel, KING_RUNS)
    world.guild.locale = "fr"
    try:
        asked = await world.fake.send_slash_command(kim, channel, "tafl", subcommand="analyze")
        review = await asked.wait_response(
            lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
        )
        # A refusal is private: in the asker's language, whatever the server's.
        empty = world.channel("rien-ici")
        english = await world.error_reply(jo, empty, "analyze")
        french = await world.fake.send_slash_command(
            jo, empty, "tafl", subcommand="analyze", locale="fr"
        )
        refused = await private_text(french)
    finally:
        world.guild.locale = "en-US"
    first = next(response for response in asked.responses if response.kind == "edit")
    assert first.content is not None and first.content.startswith("Analyse de la partie n° ")
    [embed] = review.data["embeds"]
    game = re.match(r"Analyse de la partie n° (\d+) \(Brandubh, 3 coups\)$", embed["title"])
    assert game, embed
    assert embed["description"].startswith("kim a gagné avec les défenseurs ("), embed
    assert "jo (attaquants) : précision " in embed["description"], embed
    moments = embed["fields"][0]
    assert moments["name"] == "Les moments qui l'ont décidée", embed
    assert (
        "**2. a4-a6** jo (attaquants), gaffe : permet d4-a4, qui ouvre au roi une voie vers a1"
        in (moments["value"])
    ), moments
    assert "mieux valait **" in moments["value"], moments
    assert english.startswith("No game has finished in this channel yet")
    assert refused == (
        "Aucune partie n'est encore terminée dans ce salon : indiquez-en une, par exemple "
        "`/tafl analyser partie:12`."
    )
    message = asked.original_message
    assert message is not None
    for attachment in message.attachments:
        (tmp_path / attachment.filename).write_bytes(attachment.data)
    # Drawn with the French words: not the English chart.
    storage = await Storage.open(world.bot.env["TAFL_DATABASE"])
    try:
        stored = await storage.analyses.get(int(game.group(1)), budget_name("brandubh"))
    finally:
        await storage.close()
    assert stored is not None
    analysis = GameAnalysis.from_json(stored)
    assert message.attachments[0].data != render_eval_chart(analysis)
    if os.environ.get("TAFL_KEEP_REVIEW_IMAGES"):
        print("French review images kept in", tmp_path)
