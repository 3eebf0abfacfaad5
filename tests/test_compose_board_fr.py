"""A game's messages in French: the boards, moves, endings, offers, menus, captions, refusals
and the error funnel's own words come out in a French tafl club's words, and every string of
the games' modules has its French translation."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import game
from test_compose_board import AI, ANN, BO, moved, record, state, venue

from bot.discord_bot.app.errors import Refused
from bot.discord_bot.app.games import Declined, IllegalMove, NotYourTurn, Offer, OfferMade
from bot.discord_bot.compose import board, catalogs
from bot.discord_bot.compose.errors import refusal_words, slow_down, storage_words
from bot.discord_bot.compose.post import (
    BoardPost,
    Button,
    Message,
    Notice,
    OfferPost,
    Place,
    Post,
    Update,
)
from bot.discord_bot.table import friendly_message
from bot.engine import Game, Outcome, Side, TaflError, Termination
from bot.i18n.language import LOCALES_DIR, Languages
from bot.render import Call
from bot.storage import (
    DatabaseUnavailable,
    FinishedGame,
    GameOutcome,
    GameResult,
    GameStatus,
    PlayerPreferences,
    TableEnding,
)

FR = Languages().language("fr")
GAMES_MODULES = ("compose/board.py", "compose/errors.py")


def test_a_board_in_french() -> None:
    played = moved("d1-c1")
    post, notice = board.board_posts(state(played), ["⚫ <@1> played `d1-c1`"], lang=FR)
    assert isinstance(post, BoardPost)
    shown = post.post
    assert shown.content == "⚪ <@2>, à vous de jouer avec les défenseurs."
    card = shown.card
    assert card is not None
    assert card.title == "Brandubh · partie n°7 · 1. d1-c1"
    assert [(f.name, f.value) for f in card.fields] == [
        ("Attaquants ⚫", "<@1> · 0 pion perdu sur 8"),
        ("Défenseurs ⚪", "<@2> · 0 pion perdu sur 4"),
    ]
    assert card.footer == "/tafl coup, ou le bouton Jouer · /tafl règles explique le jeu"
    assert [c.label for c in shown.controls if isinstance(c, Button)] == [
        "Jouer",
        "Retourner le plateau",
        "Proposer la nulle",
        "Abandonner",
    ]
    assert shown.text_board is not None and "voici le plateau en texte" in shown.text_board
    caption = shown.picture.view.caption if shown.picture is not None else None
    assert caption is not None and (caption.attackers, caption.defenders) == ("Ann", "Bo")
    assert isinstance(notice, Notice)
    assert notice.post.content == (
        "À vous de jouer dans la partie n°7 (Brandubh) contre Ann : <#70>"
    )


def test_moves_and_endings_in_french() -> None:
    played = moved("d1-c1", "d3-c3")
    lines = board.describe_move(state(played), played.history[-1], lang=FR)
    assert lines == ["⚪ <@2> a joué `d3-c3`"]
    rec = replace(
        record(played),
        status=GameStatus.FINISHED,
        result=GameResult.DEFENDERS,
        reason=TableEnding.RESIGNATION,
    )
    ended = state(played, rec)
    words = board.describe_end(ended, FinishedGame(rec, ()), lang=FR)
    assert words == ["<@1> abandonne : **<@2> gagne** avec les défenseurs."]
    [post] = board.board_posts(ended, words, over=True, lang=FR)
    assert isinstance(post, BoardPost) and post.post.card is not None
    assert post.post.card.title.endswith("· Victoire des défenseurs (abandon)")
    assert [c.label for c in post.post.controls if isinstance(c, Button)] == ["Revanche"]
    assert post.post.picture is not None
    caption = post.post.picture.view.caption
    assert caption is not None and caption.status == "Victoire des défenseurs : abandon"
    assert board.game_over(rec, lang=FR) == (
        "La partie n°7 est terminée : Bo a gagné avec les défenseurs (abandon)."
    )


def test_the_captions_words_in_french() -> None:
    words = board.caption_words(FR)
    assert (words.attackers, words.defenders) == ("Attaquants", "Défenseurs")
    assert words.status(Call.RAICHI) == "Raichi !"
    assert words.status(Call.KING_IN_DANGER) == "Roi en danger !"
    assert words.status(Outcome(Side.ATTACKERS, Termination.KING_CAPTURED)) == (
        "Victoire des attaquants : roi pris"
    )
    agreed = GameOutcome(None, TableEnding.AGREED_DRAW)
    assert board.caption_ending(agreed, lang=FR) == "Nulle : par accord"


def test_offers_menus_and_reminders_in_french() -> None:
    played = moved("d1-c1", "d3-c3")
    made = OfferMade(state(played), Offer("draw", 1, 2))
    [offer] = board.offer_posts(made, lang=FR)
    assert isinstance(offer, OfferPost)
    assert offer.post.content == "<@2>, <@1> vous propose la nulle."
    assert [c.label for c in offer.post.controls if isinstance(c, Button)] == [
        "Accepter",
        "Refuser",
    ]
    prompt = board.piece_prompt(state(played), lang=FR)
    assert prompt.content == "Quelle pièce ? (Ou tapez `/tafl coup`.)"
    bo = PlayerPreferences(2, notify=True)
    ping, direct = board.reminder(
        state(moved("d1-c1"), preferences=(bo,)), 70, 1234, lang=FR, mover_lang=FR
    )
    assert "à vous de jouer dans la partie n°7" in (ping.post.content or "")  # type: ignore[attr-defined]
    assert "Il vous reste peu de temps" in (direct.post.content or "")  # type: ignore[attr-defined]
    assert board.resign_question(7, lang=FR).post.content == (
        "Abandonner la partie n°7 ? Votre adversaire gagne."
    )
    assert board.plain_name(AI, lang=FR) == "IA Tafl (facile)"


def test_refusals_and_the_funnels_words_in_french() -> None:
    turn = NotYourTurn(BO, Side.DEFENDERS, across=False)
    assert refusal_words(turn, FR) == (
        "Ce n'est pas votre tour : c'est à <@2> de jouer avec les défenseurs."
    )
    assert refusal_words(IllegalMove("e1-e9"), FR).startswith("Coup interdit : ")
    assert friendly_message(Refused(turn), FR) == refusal_words(turn, FR)
    assert friendly_message(DatabaseUnavailable("games", "down"), FR) == storage_words(
        DatabaseUnavailable("games", "down"), FR
    )
    assert storage_words(DatabaseUnavailable("games", "down"), FR).startswith("Le bot ne peut pas")
    assert slow_down(2.2, FR) == "Doucement : vous pourrez le refaire dans 3 s."
    assert ANN.display_name == "Ann"


@pytest.mark.parametrize("code", ["fr", "es", "de", "sv"])
def test_every_string_of_the_games_is_translated(code: str) -> None:
    template = catalogs.read(catalogs.TEMPLATE)
    catalogue = catalogs.read(LOCALES_DIR / f"{code}.po", code)
    mine = [
        message
        for message in template
        if message.id
        and any(module in path for path, _ in message.locations for module in GAMES_MODULES)
    ]
    assert len(mine) > 150
    missing = []
    for message in mine:
        translated = catalogue.get(message.id, context=message.context)
        strings = () if translated is None else translated.string
        forms = (strings,) if isinstance(strings, str) else tuple(strings)
        if translated is None or translated.fuzzy or not all(forms):
            missing.append(message.id)
    assert missing == []


ILLEGAL = {
    "brandubh": ("a1-a2", "d1-e2", "d1-d1", "d4-d5", "zz", "e9", "d7-a7", "b4", "d2-d1", "c4-c5"),
    "tablut": ("e2-e3", "e3-e4"),
}
"""Moves the rules refuse for every kind of reason, from the start of these variants."""


def test_the_rules_reasons_read_as_the_engine_says_them_in_english_and_in_french() -> None:
    seen = set()
    for variant, moves in ILLEGAL.items():
        for move in moves:
            position = Game(variant)
            try:
                position.parse_move(move)
            except TaflError as error:
                refusal = IllegalMove(str(error), error.kind, error.values)
            else:
                raise AssertionError(f"{move} is legal in {variant}")
            seen.add(refusal.kind)
            assert refusal.kind in board.RULES_WORDS, refusal
            english = refusal_words(refusal)
            # The engine's words, what the player typed shown as code rather than in Python's quotes
            typed = dict(refusal.values)
            expected = refusal.reason
            for name in ("move", "square"):
                if name in typed and repr(typed[name]) in expected:
                    expected = expected.replace(repr(typed[name]), f"`{typed[name]}`")
            assert english == f"Illegal move: {expected}"
            assert all(
                repr(typed[name]) not in english for name in ("move", "square") if name in typed
            )
            french = refusal_words(refusal, FR)
            assert french.startswith("Coup interdit : ") and "there is" not in french, french
    assert len(seen) >= 8, seen
    over = game("brandubh", "K:b1 t:d7 T:e5", "defenders")
    over.play("b1-a1")  # the king escapes: the defenders have won
    gone = None
    try:
        over.parse_move("d7-d6")
    except TaflError as error:
        gone = IllegalMove(str(error), error.kind, error.values)
    assert gone is not None
    assert refusal_words(gone) == "Illegal move: `d7-d6`: " + gone.reason.split(": ", 1)[1]
    assert "la partie est terminée (les défenseurs ont gagné : fuite du roi)" in refusal_words(
        gone, FR
    )


def test_across_servers_each_venue_reads_the_game_in_its_servers_language() -> None:
    played = moved("d1-c1")  # Bo is to move
    venues = (venue("attackers", 11, "Nord", 110), venue("defenders", 22, "South", 220))
    game = state(played, venues=venues)
    english = Languages().language("en")
    north, south, _, notice = board.board_posts(
        game,
        lambda lang: board.describe_move(game, played.history[-1], lang=lang),
        lang=english,
        venue_langs={11: FR, 22: english},
        mover_lang=english,
    )
    assert isinstance(north, BoardPost) and isinstance(south, BoardPost)
    assert north.post.content == "⚪ C'est à Bo (South) de jouer, avec les défenseurs."
    assert north.post.card is not None and north.post.card.description == ("⚫ <@1> a joué `d1-c1`")
    assert next(c.label for c in north.post.controls if isinstance(c, Button)) == "Jouer"
    assert south.post.content == "⚪ <@2>, your move with the defenders."
    assert south.post.card is not None and south.post.card.description == (
        "⚫ Ann (Nord) played `d1-c1`"
    )
    assert isinstance(notice, Notice) and notice.post.content is not None
    assert notice.post.content.startswith("Your move in game #7")
    made = OfferMade(game, Offer("draw", 2, 1))
    offer, told, _ = board.offer_posts(made, lang=english, venue_langs={11: FR})
    assert isinstance(offer, OfferPost) and offer.post.content == (
        "<@1>, Bo (South) vous propose la nulle."
    )
    assert told.post.content == "<@2> offers a draw: Ann (Nord) answers in their server."  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("code", "turn", "resigned"),
    [
        (
            "es",
            "⚪ <@2>, te toca con los defensores.",
            "<@1> abandonó: **<@2> gana** con los defensores.",
        ),
        (
            "de",
            "⚪ <@2>, du bist als Verteidiger am Zug.",
            "<@1> hat aufgegeben: **<@2> gewinnt** als Verteidiger.",
        ),
        (
            "sv",
            "⚪ <@2>, det är ditt drag med försvararna.",
            "<@1> gav upp: **<@2> vinner** med försvararna.",
        ),
    ],
)
def test_a_board_and_its_ending_in_the_other_languages(code: str, turn: str, resigned: str) -> None:
    lang = Languages().language(code)
    played = moved("d1-c1")
    post, _ = board.board_posts(state(played), [], lang=lang)
    assert isinstance(post, BoardPost) and post.post.content == turn
    rec = replace(
        record(played),
        status=GameStatus.FINISHED,
        result=GameResult.DEFENDERS,
        reason=TableEnding.RESIGNATION,
    )
    assert board.describe_end(state(played, rec), FinishedGame(rec, ()), lang=lang)[0] == resigned


def test_an_offer_declined_across_servers_is_told_in_each_servers_language() -> None:
    venues = (venue("attackers", 11, "Nord", 110), venue("defenders", 22, "South", 220))
    game = state(moved("d1-c1"), venues=venues)
    english = Languages().language("en")
    answer, told, _ = board.declined(
        Declined(game, "draw", 2), lang=english, venue_langs={11: FR, 22: english}
    )
    assert answer == Update(Post(content="<@2> declined the draw."))
    assert told == Message(Place(110), Post(content="Bo (South) a refusé la nulle."))
