"""What a game's messages say and carry, composed from the games service's events alone: the
boards (in one channel and across servers), the words of moves and endings, offers, the menus,
the controls' custom ids, the turn notices; no Discord involved."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields, replace
from datetime import UTC, datetime

import pytest
from helpers import game

from bot.ai.analysis import MomentKind
from bot.discord_bot.app.ai_turns import AIReply
from bot.discord_bot.app.games import (
    Declined,
    GameState,
    Offer,
    OfferMade,
    Played,
    ResultUnsaved,
    TakenBack,
)
from bot.discord_bot.compose import board
from bot.discord_bot.compose.board import (
    AI_FAILED,
    CONTROLS,
    TEXT_NOTE,
    Block,
    ConfirmResign,
    GameAction,
    OfferAnswer,
    PieceChoice,
    Rematch,
    TargetChoice,
)
from bot.discord_bot.compose.post import (
    Answer,
    BoardPost,
    Button,
    Changed,
    Direct,
    Edit,
    Message,
    Notice,
    OfferPost,
    Place,
    Post,
    Retire,
    Tone,
    Update,
)
from bot.engine import Game, Outcome, Side, Termination
from bot.render import DEFAULT_THEME, Better, Call
from bot.storage import (
    FinishedGame,
    GameOutcome,
    GameRecord,
    GameResult,
    GameStatus,
    Participant,
    PlayerPreferences,
    TableEnding,
    Venue,
)

ANN = Participant.user(1, "Ann")
BO = Participant.user(2, "Bo")
AI = Participant.ai(1)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def record(played: Game, attackers: Participant = ANN, defenders: Participant = BO) -> GameRecord:
    return GameRecord(
        id=7,
        guild_id=1,
        channel_id=70,
        variant=played.variant.name,
        start_position=played.start_position,
        first_turn=played.start_turn.value,
        attackers=attackers,
        defenders=defenders,
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
        created_at=NOW,
        updated_at=NOW,
        ended_at=None,
    )


def state(
    played: Game, rec: GameRecord | None = None, venues: tuple[Venue, ...] = (), **more: object
) -> GameState:
    rec = rec or record(played)
    return GameState(rec.id, rec, played, venues, **more)  # type: ignore[arg-type]


def moved(*moves: str) -> Game:
    played = Game("brandubh")
    for move in moves:
        played.play(move)
    return played


def venue(side: str, guild: int, name: str, channel: int, **more: object) -> Venue:
    return Venue(7, side, guild, name, channel, None, None, None, False, True, **more)  # type: ignore[arg-type]


# -- the board in one channel --------------------------------------------------------------------


def test_a_board_in_one_channel_calls_on_the_player_to_move() -> None:
    played = moved("d1-c1")
    post, _ = board.board_posts(state(played), ["⚫ <@1> played `d1-c1`"])  # then Bo's notice
    assert isinstance(post, BoardPost)
    assert (post.game.id, post.place, post.ply, post.reply, post.end) == (
        7,
        Place(70),
        1,
        False,
        False,
    )
    assert post.retire is None and post.venue is None  # the game's first board
    shown = post.post
    assert shown.content == "⚪ <@2>, your move with the defenders."
    assert shown.ping_mentioned and not shown.pings  # Bo, the one mention, is notified
    card = shown.card
    assert card is not None and card.picture
    assert card.title == "Brandubh · game #7 · 1. d1-c1"
    assert card.description == "⚫ <@1> played `d1-c1`"
    assert card.tone is Tone.DEFENDERS  # the side to move's colour
    assert [(f.name, f.value) for f in card.fields] == [
        ("Attackers ⚫", "<@1> · lost 0 of 8"),
        ("Defenders ⚪", "<@2> · lost 0 of 4"),
    ]
    assert card.footer == "/tafl move, or the Move button · /tafl rules explains the game"
    assert shown.picture is not None
    assert (shown.picture.filename, shown.picture.theme, shown.picture.flip) == (
        "tafl-7-1.png",
        DEFAULT_THEME,
        False,
    )
    assert shown.text_board == f"{board.text_board(played)}\n{TEXT_NOTE}"
    assert [(c.label, c.custom_id) for c in shown.controls if isinstance(c, Button)] == [
        ("Move", "tafl:g:7:move"),
        ("Flip board", "tafl:g:7:board"),
        ("Offer draw", "tafl:g:7:draw"),
        ("Resign", "tafl:g:7:resign"),
    ]


def test_a_new_board_retires_the_last_and_answers_the_interaction_when_asked() -> None:
    played = moved("d1-c1", "d3-c3")
    rec = replace(record(played), board_message_id=55, board_ply=1)
    post, _ = board.board_posts(state(played, rec), [], reply_in=70)
    assert isinstance(post, BoardPost) and post.reply
    assert post.retire == Retire(
        55,
        "After 1. d1-c1",
        f"After 1. d1-c1\n{board.text_board(moved('d1-c1'))}",
    )


def test_the_player_to_move_is_told_by_direct_message_after_the_board() -> None:
    played = moved("d1-c1")
    told = board.board_posts(state(played), [])
    assert told[1:] == [
        Notice(7, 1, 2, Post(content="Your move in game #7 (Brandubh) against Ann: <#70>"))
    ]
    quiet = board.board_posts(state(played), [], ping=False)  # a board asked for: no call
    assert len(quiet) == 1
    assert isinstance(quiet[0], BoardPost) and not quiet[0].post.ping_mentioned
    against_ai = board.board_posts(state(played, record(played, AI, AI)), [])
    assert len(against_ai) == 1  # the AI reads no direct messages


def test_boards_are_drawn_as_the_person_they_are_for_likes_them() -> None:
    played = moved("d1-c1")  # Bo (the defenders, at the top of the board) is to move
    bo = PlayerPreferences(2, theme="contrast", flip=True)
    post, _ = board.board_posts(state(played, preferences=(bo,)), [])
    assert isinstance(post, BoardPost) and post.post.picture is not None
    assert (post.post.picture.theme, post.post.picture.flip) == ("contrast", True)
    assert post.post.text_board == f"{board.text_board(played, True)}\n{TEXT_NOTE}"
    turned, _ = board.board_posts(state(played, preferences=(bo,)), [], flip=True)
    assert isinstance(turned, BoardPost) and turned.post.picture is not None
    assert not turned.post.picture.flip  # turned around from his own look
    gone = replace(bo, theme="retired theme")
    plain, _ = board.board_posts(state(played, preferences=(gone,)), [])
    assert isinstance(plain, BoardPost) and plain.post.picture is not None
    assert plain.post.picture.theme == DEFAULT_THEME
    # The Flip button: the channel's board turned around, in the clicker's own theme.
    mine = PlayerPreferences(9, theme="contrast")
    flipped = board.flipped_board(state(played, preferences=(gone, mine)), 9)
    assert flipped.post.private and flipped.post.picture is not None
    assert (flipped.post.picture.theme, flipped.post.picture.flip) == ("contrast", False)


def test_against_the_ai_the_buttons_follow_whether_the_game_is_rated() -> None:
    played = moved("d1-c1")
    rated = record(played, ANN, AI)
    unrated = replace(rated, rated=False)
    for rec, actions in (
        (rated, ["move", "board", "resign"]),
        (unrated, ["move", "board", "takeback", "resign"]),
    ):
        [post] = board.board_posts(state(played, rec), [])
        assert isinstance(post, BoardPost)
        assert [c.custom_id.rsplit(":", 1)[1] for c in post.post.controls] == actions
        assert post.post.content == "⚪ Tafl AI (easy) is to move."


def test_a_final_board_says_how_the_game_ended_and_offers_a_rematch() -> None:
    played = moved("d1-c1", "d3-c3")
    rec = replace(
        record(played),
        status=GameStatus.FINISHED,
        result=GameResult.DEFENDERS,
        reason=TableEnding.RESIGNATION,
    )
    ended = state(played, rec)
    words = board.describe_end(ended, FinishedGame(rec, ()))
    assert words == ["<@1> resigned: **<@2> wins** with the defenders."]
    [post] = board.board_posts(ended, words, over=True)
    assert isinstance(post, BoardPost) and post.end
    assert post.post.content is None and not post.post.ping_mentioned
    assert post.post.card is not None and post.post.card.tone is Tone.DEFENDERS
    assert post.post.card.title.endswith("· Defenders win (resignation)")
    assert [c.custom_id for c in post.post.controls] == ["tafl:rm:7"]
    # A tournament's game: its event pairs the next one.
    [event] = board.board_posts(replace(ended, in_event=True), words, over=True)
    assert isinstance(event, BoardPost) and event.post.controls == ()
    assert event.post.card is not None and (event.post.card.footer or "").startswith(
        "A tournament game"
    )
    # Called off: neither side's colour, and nothing to review.
    off = replace(rec, status=GameStatus.ABORTED, result=None, reason=None)
    [called] = board.board_posts(state(played, off), ["Called off."], over=True)
    assert isinstance(called, BoardPost) and called.post.card is not None
    assert called.post.card.tone is Tone.CALLED_OFF and called.post.card.title.endswith("off")
    assert "analyze" not in (called.post.card.footer or "")


# -- across servers ------------------------------------------------------------------------------


def test_across_servers_each_venue_gets_its_board_naming_the_other_player_without_a_ping() -> None:
    played = moved("d1-c1")  # Bo is to move
    venues = (venue("attackers", 11, "North", 110), venue("defenders", 22, "South", 220))
    game = state(played, venues=venues)
    lines = ["⚫ <@1> played `d1-c1`"]
    north, south, changed, notice = board.board_posts(game, lines)
    assert isinstance(north, BoardPost) and isinstance(south, BoardPost)
    assert (north.place, south.place) == (Place(110, 11), Place(220, 22))
    assert north.post.content == "⚪ Bo (South) is to move with the defenders."
    assert not north.post.ping_mentioned and "<@2>" not in str(north.post)
    assert south.post.content == "⚪ <@2>, your move with the defenders."
    assert (
        south.post.card is not None
        and south.post.card.description == "⚫ Ann (North) played `d1-c1`"
    )
    assert south.post.ping_mentioned
    assert north.post.controls[0].custom_id == "tafl:g:7:move"
    assert changed == Changed(7)
    assert notice == Notice(
        7, 1, 2, Post(content="Your move in game #7 (Brandubh) against Ann: <#220>")
    )
    # The interaction's venue first (its answer is due at once); one venue when asked.
    first, *_ = board.board_posts(game, lines, reply_in=220)
    assert isinstance(first, BoardPost) and first.reply and first.place.channel_id == 220
    only = board.board_posts(game, lines, only="attackers", ping=False)
    assert [p.place.channel_id for p in only if isinstance(p, BoardPost)] == [110]
    assert not any(isinstance(p, Changed) for p in only)
    # A venue whose channel was deleted waits for its player: no board there.
    gone = (venues[0], replace(venues[1], gone_at=1))
    posts = board.board_posts(replace(game, venues=gone), lines, ping=False)
    assert [p.place.channel_id for p in posts if isinstance(p, BoardPost)] == [110]
    # Its final board offers to block the opponent met in the lobby.
    over = board.board_posts(game, ["**Draw** by agreement."], over=True)
    assert isinstance(over[0], BoardPost)
    assert [c.custom_id for c in over[0].post.controls] == ["tafl:rm:7", "tafl:bk:7:ask"]


# -- events --------------------------------------------------------------------------------------


def test_a_move_chosen_in_the_menus_closes_and_carries_offers_then_posts_its_board() -> None:
    played = moved("d1-c1")
    asked = Offer("takeback", 2, 0, 900)
    carried = Offer("draw", 1, 1, 901)
    event = Played(state(played), played.history[-1], None, (asked,), carried)
    update, closed, kept, posted, notice = board.after_move(event, clicked=True)
    assert update == Update(Post(content="You played `d1-c1`."))
    assert closed == Edit(
        Place(70),
        900,
        Post(content="Takeback request closed: <@1> played `d1-c1` instead of answering."),
    )
    assert isinstance(kept, Edit) and kept.message_id == 901
    assert kept.post.content == "<@2>, <@1> offers a draw with their move `d1-c1`."
    assert [c.custom_id for c in kept.post.controls] == [
        "tafl:of:draw:7:1:yes",
        "tafl:of:draw:7:1:no",
    ]
    assert isinstance(posted, BoardPost) and not posted.reply
    assert posted.post.card is not None and "played `d1-c1`" in posted.post.card.description
    assert isinstance(notice, Notice) and (notice.user_id, notice.ply) == (2, 1)


def test_offers_go_to_the_opponent_and_their_answers_are_told() -> None:
    played = moved("d1-c1")
    game = state(played)
    [offer] = board.offer_posts(OfferMade(game, Offer("draw", 1, 1)))
    assert offer == OfferPost(
        7,
        "draw",
        1,
        Post(
            content="<@2>, <@1> offers a draw.",
            controls=board.offer_controls("draw", 7, 1),
            pings=(2,),
        ),
    )
    [request] = board.offer_posts(OfferMade(game, Offer("takeback", 1, 1), (played.history[0],)))
    assert isinstance(request, OfferPost)
    assert request.post.content == "<@2>, <@1> asks to take back their move `d1-c1`."
    assert board.declined(Declined(game, "draw", 2)) == [
        Update(Post(content="<@2> declined the draw."))
    ]
    # Across servers the question goes to the other venue, and the answer comes back.
    venues = (venue("attackers", 11, "North", 110), venue("defenders", 22, "South", 220))
    across = state(played, venues=venues)
    sent, answer, changed = board.offer_posts(OfferMade(across, Offer("draw", 1, 1)))
    assert isinstance(sent, OfferPost) and sent.place == Place(220, 22) and sent.missing
    assert sent.post.content == "<@2>, Ann (North) offers a draw."
    assert answer == Answer(Post(content="<@1> offers a draw: Bo (South) answers in their server."))
    assert changed == Changed(7)
    assert board.declined(Declined(across, "takeback", 2))[1:] == [
        Message(Place(110), Post(content="Bo (South) refused the takeback.")),
        Changed(7),
    ]


def test_a_takeback_withdraws_older_offers_and_names_the_moves() -> None:
    played = moved("d1-c1", "d3-c3")
    undone = (played.history[0], played.history[1])
    played.undo()
    played.undo()
    taken = TakenBack(state(played), ANN, undone, (Offer("draw", 2, 1, 44),))
    withdrawn, posted = board.after_takeback(taken, ping=False)  # asked for: no call, no notice
    assert withdrawn == Edit(
        Place(70), 44, Post(content="Draw offer withdrawn: a move was taken back.")
    )
    assert isinstance(posted, BoardPost) and posted.post.card is not None
    assert posted.post.card.description == (
        "<@1>'s move `d1-c1` and <@2>'s reply `d3-c3` were taken back."
    )


def test_the_ais_turn_brings_its_board_or_says_why_not() -> None:
    played = moved("d1-c1")
    game = state(played, record(played, ANN, AI))
    mine = ["⚫ <@1> played `d1-c1`"]
    failed = board.after_ai(AIReply(failed=True, game=game), mine, 70)
    assert isinstance(failed[0], BoardPost) and failed[0].post.card is not None
    assert failed[0].post.card.description == f"{mine[0]}\n{AI_FAILED.format(board='/tafl board')}"
    # The game no longer played here: the words alone, to the interaction or the channel.
    assert board.after_ai(AIReply(failed=True), mine, 70, answer=True) == [
        Answer(
            Post(content=f"{mine[0]}\n{AI_FAILED.format(board='/tafl board')}", ping_mentioned=True)
        )
    ]
    unsaved = ResultUnsaved(7, "c1-c7", set_aside=False, channel_id=70)
    words = (
        "The move `c1-c7` was recorded and ends the game, but the result could not be saved "
        "because of a problem on our side: it will be saved as soon as the database answers again."
    )
    assert board.after_ai(AIReply(refused=unsaved), mine, 70) == [
        Message(Place(70), Post(content=f"{mine[0]}\n{words}"))
    ]
    # The game moved on while it thought: what led to it, if anyone waits for an answer.
    assert board.after_ai(AIReply(), mine, 70) == []
    assert board.after_ai(AIReply(), mine, 70, answer=True) == [
        Answer(Post(content=mine[0], ping_mentioned=True))
    ]


def test_a_reminder_pings_where_the_player_plays_and_writes_if_they_asked() -> None:
    played = moved("d1-c1")
    bo = PlayerPreferences(2, notify=True)
    ping, notice = board.reminder(state(played, preferences=(bo,)), 70, 1234)
    assert ping == Message(
        Place(70),
        Post(
            content="⏰ <@2>, your move in game #7: time runs out <t:1234:R>.", ping_mentioned=True
        ),
        quiet=False,
    )
    assert notice == Direct(2, Post(content="⏰ Your time is running low in game #7: <#70>"))
    assert len(board.reminder(state(played), 70, 1234)) == 1


# -- menus and ids -------------------------------------------------------------------------------


def test_the_menus_to_move_by_clicking() -> None:
    played = Game("brandubh")
    prompt = board.piece_prompt(state(played))
    assert prompt.private and prompt.content == "Which piece? (Or type `/tafl move`.)"
    [pieces] = prompt.controls
    assert pieces.custom_id == "tafl:pc:7:0"
    targets = board.target_prompt(state(played), 3)  # the attacker on d1
    assert targets.content == "Move d1 to…"
    [menu] = targets.controls
    assert menu.custom_id == "tafl:to:7:0:3"
    stuck = board.target_prompt(state(played), 24)  # the king, shut in at the start
    assert stuck.controls == ()
    assert board.chosen_square(("17",)) == 17 and board.chosen_square((board.BACK,)) is None


def test_every_controls_id_keeps_its_format_and_reads_back_as_it_was_written() -> None:
    written = {
        GameAction(5, "move"): "tafl:g:5:move",
        OfferAnswer("takeback", 5, 12, "no"): "tafl:of:takeback:5:12:no",
        ConfirmResign(5): "tafl:rs:5",
        Rematch(5): "tafl:rm:5",
        Block(5, "yes"): "tafl:bk:5:yes",
        PieceChoice(5, 12): "tafl:pc:5:12",
        PieceChoice(5, 12, 2): "tafl:pc:5:12:2",
        TargetChoice(5, 12, 30): "tafl:to:5:12:30",
    }
    assert {type(kind) for kind in written} == set(CONTROLS)
    for kind, custom_id in written.items():
        assert kind.custom_id == custom_id
        match = re.fullmatch(type(kind).TEMPLATE, custom_id)
        assert match is not None, custom_id
        read = {name: value for name, value in match.groupdict().items() if value is not None}
        expected = {f.name: str(getattr(kind, f.name)) for f in fields(kind) if f.name in read}
        assert read == expected, custom_id
    assert OfferAnswer("draw", 1, 1, "yes").accept and Block(1, "yes").confirmed


def test_the_composition_never_loads_discord() -> None:
    probe = (
        "import sys, bot.discord_bot.compose.board, bot.discord_bot.compose.errors; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


# -- the words drawn on a board's image ------------------------------------------------------------


def test_the_words_drawn_on_a_boards_image_are_the_compositions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = game("tablut", "K:c4 t:c6,c2,b4 T:h8", "defenders")
    played.play("h8-h7")  # Raichi: the king has a road to i4
    shown = board.picture(state(played), board.PLAIN).view.caption
    assert shown is not None
    assert (shown.attackers, shown.defenders, shown.status) == ("Ann", "Bo", "Raichi!")
    # The renderer draws what it is given: other words for the call reach the image as they are.
    monkeypatch.setitem(board.CAPTION_CALLS, Call.RAICHI, "Raichi (called)")
    again = board.picture(state(played), board.PLAIN).view.caption
    assert again is not None and again.status == "Raichi (called)"


def test_a_captions_result_is_worded_winner_first_with_short_endings() -> None:
    assert board.caption_status(Outcome(Side.ATTACKERS, Termination.KING_CAPTURED)) == (
        "Attackers win: king captured"
    )
    assert board.caption_status(Outcome(Side.DEFENDERS, Termination.PERPETUAL_REPETITION)) == (
        "Defenders win: repetition"
    )
    resigned = GameOutcome(Side.DEFENDERS, TableEnding.RESIGNATION)
    assert board.caption_ending(resigned) == "Defenders win: resignation"
    agreed = GameOutcome(None, TableEnding.AGREED_DRAW)
    assert board.caption_ending(agreed) == "Draw: by agreement"
    assert board.caption_ending(None, called_off=True) == "Called off"
    assert board.caption_status(Better("e5-e9", MomentKind.MISSED_WIN)) == (
        "Missed win: better e5-e9"
    )
    assert board.caption_status(Better("e5-e9")) == "Better: e5-e9"
