"""What the board message says: words from the engine's facts, numbering as the record's, the
players' losses, the deadline, the repetition warning and Copenhagen's endings (composed in
``compose.board``, the card as the table sends it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import discord
import pytest
from helpers import game

from bot.discord_bot.app.games import GameState, LiveGame
from bot.discord_bot.compose.board import (
    board_card,
    caption_ending,
    describe_end,
    describe_move,
    last_board_words,
    retired_board,
    text_board,
)
from bot.discord_bot.table import embed_of
from bot.engine import Game, Side, Termination
from bot.storage import (
    FinishedGame,
    GameEnding,
    GameOutcome,
    GameRecord,
    GameResult,
    GameStatus,
    Participant,
    Rating,
    RatingChange,
    TableEnding,
)

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def live(played: Game, deadline: datetime | None = None) -> LiveGame:
    """A live game around ``played`` (Ann attacks, Bo defends), as the hub would hold it."""
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=1,
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
        move_seconds=3600 if deadline else None,
        move_deadline=deadline,
        reminder_sent=False,
        board_message_id=None,
        problem=None,
        created_at=NOW,
        updated_at=NOW,
        ended_at=None,
    )
    return LiveGame(record, played)


def shown(game: LiveGame) -> GameState:
    """The game as its words are composed from (the hub's snapshot of it)."""
    return GameState(game.id, game.record, game.game, game.venues)


def board_embed(game: LiveGame, lines: list[str]) -> discord.Embed:
    """The board's card, as the table sends it."""
    return embed_of(board_card(shown(game), lines))


def said(played: Game, move: str) -> str:
    """The lines the bot posts after ``move``."""
    result = played.play(move)
    return "\n".join(describe_move(shown(live(played)), result))


def test_a_move_is_told_without_otn_suffixes_and_captures_in_words() -> None:
    played = game("tablut", "K:e5 T:c4,f4 t:b4,d1,g1,i9 T:h8")
    text = said(played, "d1-d4")
    assert played.history[-1].notation == "d1-d4xc4-"
    assert "played `d1-d4`, capturing the piece on c4\n" in text
    played = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders")
    text = said(played, "h8-h7")
    assert played.history[-1].notation == "h8-h7-"  # the record keeps OTN's suffix...
    assert "`h8-h7`" in text and "h8-h7-" not in text  # ...the chat says it in words
    assert "**Raichi!** The king has an open road to i4." in text


def test_tuichi_says_one_move_cannot_close_both_only_when_that_is_true() -> None:
    calm = said(game("tablut", "K:c4 t:c6,b4 T:h8", "defenders"), "h8-h7")
    assert "**Tuichi!** The king has open roads to c1 and i4: one move cannot close both." in calm
    # The same two roads, but an attacker on b4 and one that can reach d4 can take the king.
    danger = said(game("tablut", "K:c4 t:c6,b4,d9 T:h8", "defenders"), "h8-h7")
    assert "**Tuichi!** The king has open roads to c1 and i4" in danger
    assert "cannot close" not in danger
    assert "he can be captured next move" in danger


def test_the_king_in_words_after_an_attackers_move() -> None:
    text = said(game("tablut", "K:c7 t:b7,d1,i1 T:h2"), "i1-i3")
    assert "Raichi" not in text and "Tuichi" not in text  # the calls are the king's side's
    assert "The king has open roads to c1, c9 and i7." in text
    assert "The attackers threaten to capture the king." in text


def test_the_end_of_the_king_in_words() -> None:
    assert "The king escaped to c1!" in said(game("tablut", "K:c3 t:i9", "defenders"), "c3-c1")
    threatened = said(game("tablut", "K:c3 t:b3,d8,c1,c9,i3 T:h8", "defenders"), "h8-h7")
    assert "The king can be captured next move!" in threatened
    captured = said(game("tablut", "K:c3 t:b3,d7 T:h8"), "d7-d3")
    assert "The king is captured!" in captured and "`d7-d3`" in captured


def test_a_second_occurrence_warns_that_a_third_is_a_draw() -> None:
    played = Game("tablut")
    shuffle = ("a4-a3", "e3-d3", "a3-a4", "d3-e3")
    lines = [said(played, move) for move in shuffle]
    warning = "This position has occurred twice; a third time is a draw."
    assert [warning in text for text in lines] == [False, False, False, True]
    lines = [said(played, move) for move in shuffle[:3]]
    assert all(warning in text for text in lines)  # each of these positions is back a 2nd time
    assert warning not in said(played, shuffle[3])  # the third occurrence ends the game


def test_embed_title_numbers_the_move_as_the_record_does() -> None:
    played = Game("tablut")  # attackers first
    played.play("d1-d3")
    assert board_embed(live(played), []).title == "Tablut · game #7 · 1. d1-d3"
    played.play("e3-f3")
    assert board_embed(live(played), []).title == "Tablut · game #7 · 1… e3-f3"
    ashton = Game("tablut-ashton")  # defenders first: their move opens the full move
    move = ashton.legal_moves()[0]
    ashton.play(move)
    title = board_embed(live(ashton), []).title or ""
    assert title.endswith(f"· 1. {move.text(9)}")
    assert ashton.history[0].side is Side.DEFENDERS


def test_embed_shows_each_sides_losses_and_the_deadline() -> None:
    played = game("tablut", "K:e5 T:c4,f4 t:b4,d1,g1,i9 T:h8")
    played.play("d1-d4")
    deadline = NOW + timedelta(hours=1)
    embed = board_embed(live(played, deadline), [])
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Attackers ⚫"] == "<@1> · lost 0 of 4"
    assert fields["Defenders ⚪"] == "<@2> · lost 1 of 3"
    stamp = int(deadline.timestamp())
    assert fields["⚪ Deadline"] == f"<t:{stamp}:R> (<t:{stamp}:f>)"
    assert "⚪ Deadline" not in {f.name for f in board_embed(live(played), []).fields}


def test_a_resigned_games_final_embed_says_who_won_and_how_in_their_colour() -> None:
    played = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders")
    played.play("h8-h7")  # Raichi, then the attackers resign
    resigned = live(played)
    resigned.record = replace(
        resigned.record,
        status=GameStatus.FINISHED,
        result=GameResult.DEFENDERS,
        reason=TableEnding.RESIGNATION,
        ended_at=NOW,
    )
    embed = board_embed(resigned, ["<@1> resigned."])
    assert embed.title == "Tablut · game #7 · 1… h8-h7 · Defenders win (resignation)"
    assert embed.colour == discord.Colour.light_grey()
    assert "Rematch" in (embed.footer.text or "")
    drawn = live(played)
    drawn.record = replace(
        drawn.record,
        status=GameStatus.FINISHED,
        result=GameResult.DRAW,
        reason=TableEnding.AGREED_DRAW,
        ended_at=NOW,
    )
    assert (board_embed(drawn, []).title or "").endswith("· Draw by agreement")
    # While it is played the title has no result and the colour is the side to move's.
    going = board_embed(live(played), [])
    assert going.title == "Tablut · game #7 · 1… h8-h7"
    assert going.colour == discord.Colour.dark_grey()


@pytest.mark.parametrize(
    ("result", "reason", "said"),
    [
        (GameResult.DEFENDERS, TableEnding.RESIGNATION,
         "<@1> resigned: **<@2> wins** with the defenders."),
        (GameResult.ATTACKERS, TableEnding.TIMEOUT,
         "<@2> ran out of time: **<@1> wins** with the attackers."),
        (GameResult.DRAW, TableEnding.AGREED_DRAW, "**Draw** by agreement."),
        (GameResult.DRAW, Termination.REPETITION, "**Draw** (threefold repetition)."),
        (GameResult.DEFENDERS, Termination.KING_ESCAPED,
         "**<@2> wins** with the defenders (king escaped)."),
    ],
)  # fmt: skip
def test_the_end_is_told_once_in_a_sentence_that_fits_how_it_came(
    result: GameResult, reason: GameEnding, said: str
) -> None:
    played = Game("brandubh")
    played.play("d2-c2")
    played.play("d3-e3")
    ended = live(played)
    ended.record = replace(
        ended.record, status=GameStatus.FINISHED, result=result, reason=reason, ended_at=NOW
    )
    assert describe_end(shown(ended), FinishedGame(ended.record, ())) == [said]


def test_against_the_ai_only_the_persons_rating_change_is_told_with_the_ais_rating() -> None:
    played = Game("brandubh")
    ended = live(played)
    ai = Participant.ai(1)
    ended.record = replace(
        ended.record,
        defenders=ai,
        status=GameStatus.FINISHED,
        result=GameResult.DEFENDERS,
        reason=TableEnding.RESIGNATION,
        ended_at=NOW,
    )
    changes = (
        RatingChange(ANN, Rating(), Rating(1286.4, 260)),
        RatingChange(ai, Rating.fixed(1430), Rating.fixed(1430)),
    )
    assert describe_end(shown(ended), FinishedGame(ended.record, changes)) == [
        "<@1> resigned: **Tafl AI (easy) wins** with the defenders.",
        "<@1>: 1500? → 1286? (-214) against Tafl AI (easy), rated 1430",
    ]


def test_a_retired_board_says_which_position_it_shows_and_calls_on_nobody() -> None:
    played = Game("brandubh")
    game_live = live(played)
    assert retired_board(shown(game_live), 0) == "Game #7 at the start."
    played.play("d2-c2")
    played.play("d3-e3")
    assert retired_board(shown(game_live), 1) == "After 1. d2-c2"
    assert retired_board(shown(game_live), 2) == "After 1… d3-e3"
    assert retired_board(shown(game_live), 3) == "Game #7 with a move that was then taken back."
    assert (
        retired_board(shown(game_live), None) is None
    )  # a board from before boards knew their ply
    # A board posted as text keeps its position, without the line addressed to the mover.
    position = Game("brandubh")
    position.play("d2-c2")
    words = retired_board(shown(game_live), 1, with_board=True)
    assert words == f"After 1. d2-c2\n{text_board(position)}"


def test_a_board_posted_again_repeats_the_words_of_the_last_one() -> None:
    played = Game("brandubh")
    ai_game = live(played)
    ai_game.record = replace(ai_game.record, defenders=Participant.ai(2))
    played.play("d2-c2")
    mine = describe_move(shown(ai_game), played.history[-1])
    played.play("d3-e3")  # the AI's reply came on the same board as the move it answered
    words = last_board_words(shown(ai_game))
    assert words == [*mine, *describe_move(shown(ai_game), played.history[-1])]
    assert words[0].startswith("⚫ <@1> played `d2-c2`")
    assert words[-1].startswith("⚪ Tafl AI (medium) played `d3-e3`")
    people = live(played)
    assert last_board_words(shown(people)) == describe_move(shown(people), played.history[-1])
    assert last_board_words(shown(live(Game("brandubh")))) == []


# -- Copenhagen's own endings, in words ------------------------------------------------------------


def test_an_exit_fort_and_an_encirclement_are_told_in_words() -> None:
    fort = game("copenhagen", "K:f2 T:e1,g1,e2,g2,e3,f3 t:a6,k6,f11", "defenders")
    text = said(fort, "f2-f1")
    assert "The king built an exit fort on the edge: the attackers cannot break in!" in text
    ring = game("copenhagen", "K:f6 T:f7 t:e6,g6,f5,e7,g7,f9,a2")
    text = said(ring, "f9-f8")
    assert "The attackers have encircled the king and all his defenders!" in text
    assert "The king is captured" not in text


def test_a_shieldwall_capture_names_every_piece_of_the_row() -> None:
    wall = game("copenhagen", "K:f6 T:b1,c1,d1,g6 t:b2,c2,d2,e4,k7")
    text = said(wall, "e4-e1")  # the corner a1 closes the other end of the row
    assert text.endswith("played `e4-e1`, capturing 3 pieces (b1, c1 and d1)")


def test_in_copenhagen_a_repetition_is_a_win_for_the_attackers_and_is_told_so() -> None:
    played = Game("copenhagen")
    shuffle = ("d1-d2", "f4-e4", "d2-d1", "e4-f4")
    lines = [said(played, move) for move in shuffle]
    warning = "This position has occurred twice; a third time is a win for the attackers."
    assert warning in lines[-1] and "draw" not in lines[-1]
    lines = [said(played, move) for move in shuffle]
    assert played.outcome is not None and played.outcome.winner is Side.ATTACKERS
    assert lines[-1].endswith(
        "The position occurred a third time: under Copenhagen Hnefatafl rules the defenders "
        "lose by repetition."
    ), lines[-1]


def test_a_threefold_repetition_elsewhere_is_told_as_a_draw() -> None:
    played = Game("tablut")
    shuffle = ("a4-a3", "e3-d3", "a3-a4", "d3-e3")
    lines = [said(played, move) for move in shuffle * 2]
    assert lines[-1].endswith("The position occurred a third time: the game is drawn.")
    assert not any("occurred a third time" in text for text in lines[:-1])


@pytest.mark.parametrize(
    ("outcome", "called_off", "caption"),
    [
        (GameOutcome(Side.DEFENDERS, TableEnding.RESIGNATION), False, "Defenders win: resignation"),
        (GameOutcome(Side.ATTACKERS, TableEnding.TIMEOUT), False, "Attackers win: timeout"),
        (GameOutcome(None, TableEnding.AGREED_DRAW), False, "Draw: by agreement"),
        (GameOutcome(Side.ATTACKERS, TableEnding.ABANDONED), False, "Attackers win: abandoned"),
        (None, True, "Called off"),
        # The rules' endings and a game still played: the board shows them itself.
        (GameOutcome(Side.DEFENDERS, Termination.KING_ESCAPED), False, None),
        (None, False, None),
    ],
)
def test_an_ending_at_the_table_is_worded_for_the_boards_caption(
    outcome: GameOutcome | None, called_off: bool, caption: str | None
) -> None:
    assert caption_ending(outcome, called_off=called_off) == caption
