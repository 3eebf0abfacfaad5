"""The lobby's and the tournaments' words in French: their main posts composed in French read
French (numbers, plurals and the crosstable image's words included), and the French
catalogue holds every string of both modules."""

from __future__ import annotations

import re
from dataclasses import replace

from crosstable_samples import eight_player_swiss
from test_bot_tournament_sheet import swiss

from bot.discord_bot.app.lobby import (
    NO_THREAD,
    AcrossStarted,
    LobbyElsewhere,
    LobbyList,
    SeekOutOfReach,
)
from bot.discord_bot.app.tournaments import (
    EventCancelled,
    Finished,
    Line,
    PairingShown,
    RoundPaired,
    TooFewToStart,
)
from bot.discord_bot.compose import catalogs, lobby, tournaments
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.compose.post import Answer, Button, Message
from bot.i18n.language import ENGLISH_LANGUAGE, LOCALES_DIR, Languages, unmarked
from bot.render.crosstable import draw_crosstable
from bot.storage import Participant
from bot.storage.lobby import Seek, Waiting
from bot.storage.tournaments import StoredPairing, Tournament
from bot.storage.venues import Venue

FR = Languages().language("fr")
OLGA = Participant.user(9, "olga")
ANN, BO = Participant.user(1, "ann"), Participant.user(2, "bo")
MODULES = ("compose/lobby.py", "compose/tournaments.py")


def event(**changes: object) -> Tournament:
    fields: dict[str, object] = {
        "id": 3, "spec": swiss(), "announcement_id": 44, "status": "signup", "round": 0,
        "round_deadline": None, "ends_at": None, "organiser": OLGA, "created_at": 0,
        "ended_at": None,
    }  # fmt: skip
    fields.update(changes)
    return Tournament(**fields)  # type: ignore[arg-type]


def seek(**changes: object) -> Seek:
    fields: dict[str, object] = {
        "id": 7, "player": ANN, "guild_id": 1, "channel_id": 10, "variant": "copenhagen",
        "move_seconds": 86400, "rated": True, "rating": 1500.0, "reach_set": None,
        "status": "open", "created_at": 0, "expires_at": 1000,
    }  # fmt: skip
    fields.update(changes)
    return Seek(**fields)  # type: ignore[arg-type]


def test_a_tournaments_announcement_and_round_read_french() -> None:
    card = tournaments.announcement_card(event(), 1, lang=FR)
    assert [f.name for f in card.fields] == ["Début", "Joueurs", "Organisateur"]
    assert card.description == (
        "Brandubh système suisse · 3 rondes · une partie par appariement · "
        "1 heure par coup · classée"
    )
    assert card.footer is not None and card.footer.startswith("Inscrivez-vous avec le bouton")
    labels = [c.label for c in tournaments.event_controls(3, lang=FR) if isinstance(c, Button)]
    assert labels == ["S'inscrire", "Se retirer"]
    pairing = StoredPairing(1, 1, ANN, BO, None, None, None, None, None, None)
    bye = StoredPairing(1, 2, OLGA, None, None, None, 1.0, None, None, None)
    running = event(status="running", round=1)
    news = RoundPaired(running, 1, (PairingShown(pairing, 55), PairingShown(bye, None)))
    [message] = tournaments.round_paired(news, lang=FR)
    assert isinstance(message, Message)
    assert message.post.content == (
        "**Test Swiss** : les appariements de la ronde 1 sont faits.\n"
        "Table 1 : <@1> (attaque) – <@2> · <#55>\n"
        "Exempt : <@9> (1)"
    )
    # The same post in English is as it was.
    [english] = tournaments.round_paired(news)
    assert isinstance(english, Message)
    assert english.post.content.startswith("**Test Swiss**: round 1 is paired.\nBoard 1:")


def test_the_standings_and_their_crosstable_read_french() -> None:
    over = event(status="finished", round=3)
    table = [
        Line(1, ANN, 2.0, (("BH", 3.0), ("SB", 4.25)), False),
        Line(2, BO, 1.5, (("BH", 2.5), ("SB", 0.75)), True, ""),
    ]
    text = tournaments.standings_text(over, table, 3, lang=FR)
    assert "classement final" in text and "joueur" in text
    assert "bo (retiré)" in text and "Départages, dans l'ordre : BH Buchholz" in text
    words = tournaments.crosstable_words(FR)
    assert tournaments.crosstable_words(FR) is words  # made once per language
    assert tournaments.crosstable_words(ENGLISH_LANGUAGE) is tournaments.CROSSTABLE_WORDS
    assert words.round.format(2) == "R2" and words.page.format(1, 20, 40) == (
        "lignes 1 à 20 sur 40"
    )
    drawn = draw_crosstable(replace(eight_player_swiss(), words=words))
    texts = [p.text for p in drawn.texts]
    assert "Joueur" in texts and "Player" not in texts
    assert "exempt" in texts and "bye" not in texts
    assert any("forfait" in t for t in texts) and not any("forfeit" in t for t in texts)


def test_the_lobby_reads_french() -> None:
    [answer] = lobby.waiting(Waiting(seek(), 2), lang=FR)
    assert isinstance(answer, Answer)
    text = answer.post.content or ""
    assert text.startswith(
        "Recherche d'une partie de **Hnefatafl de Copenhague** sur tous les serveurs : "
        "1 jour par coup, classée, contre des joueurs à ±"
    )
    assert "2 autres joueurs que vous pouvez affronter la cherchent" in text
    assert "`/tafl lobby` les affiche" in text
    assert [c.label for c in answer.post.controls if isinstance(c, Button)] == [
        "Annuler la recherche"
    ]
    found = LobbyList(seeks=(seek(),), counts=(("copenhagen", 1),), own=None, refusal=None)
    [listing] = lobby.lobby_list(found, in_server=True, lang=FR)
    assert isinstance(listing, Answer) and listing.post.card is not None
    card = listing.post.card
    assert card.title == "Le lobby : les joueurs qui cherchent une partie, sur tous les serveurs"
    assert card.fields[0].value == "1 jour par coup · classée · classement 1500"
    assert [c.label for c in listing.post.controls if isinstance(c, Button)] == ["Jouer le n° 1"]
    assert lobby.time_words(None, lang=FR) == "sans limite de temps"
    assert lobby.time_words(120, lang=FR) == "2 minutes par coup"


def test_refusals_of_both_read_french() -> None:
    assert refusal_words(LobbyElsewhere((100,)), FR) == (
        "Sur ce serveur, le lobby est dans <#100> : lancez votre recherche de là."
    )
    reach = refusal_words(SeekOutOfReach(seek(reach_set=100), 100, 1800.0), FR)
    assert reach.startswith("Cette recherche est ouverte aux joueurs classés de 1400 à 1600")
    too_few = refusal_words(TooFewToStart(event(spec=swiss(min_entrants=4)), 1), FR)
    assert too_few.startswith("**Test Swiss** a besoin de 4 joueurs pour commencer et en compte 1")


def test_every_string_of_the_lobby_and_the_tournaments_is_in_french() -> None:
    template = catalogs.read(catalogs.TEMPLATE)
    (report,) = [r for r in catalogs.check(template) if r.code == "fr"]
    assert report.errors == []
    catalogue = catalogs.read(LOCALES_DIR / "fr.po", "fr")
    ours = [m for m in template if m.id and any(path.endswith(MODULES) for path, _ in m.locations)]
    assert len(ours) > 200
    missing = []
    for message in ours:
        found = catalogue.get(message.id, context=message.context)
        strings = () if found is None else found.string
        forms = (strings,) if isinstance(strings, str) else tuple(strings)
        whole = bool(forms) and all(forms)
        if found is None or found.fuzzy or not whole:
            missing.append(message.id)
    assert missing == []


def test_an_event_cancelled_or_over_early_says_why_in_french() -> None:
    cup = event(spec=swiss(min_entrants=4))
    [message] = tournaments.cancelled_for_too_few(cup, 1, lang=FR)
    assert isinstance(message, Message)
    assert message.post.content == (
        "**Test Swiss** est annulé : il fallait 4 joueurs ; inscrits : 1."
    )
    [english] = tournaments.cancelled_for_too_few(cup, 2)
    assert isinstance(english, Message)
    assert english.post.content == "**Test Swiss** is cancelled: it needed 4 players and 2 joined."
    over = event(status="finished", round=1)
    early = Finished(over, (), 2, True)
    [said] = tournaments.finished(early, lang=FR)
    assert isinstance(said, Message)
    assert said.post.content == (
        "**Test Swiss** s'est terminé plus tôt que prévu : la ronde 2 ne peut pas être appariée "
        "(il ne reste pas assez de joueurs). Classement final :"
    )
    [english_early] = tournaments.finished(early)
    assert isinstance(english_early, Message)
    assert english_early.post.content == (
        "**Test Swiss** is over early: no round 2 can be paired (too few players are left). "
        "Final standings:"
    )


def test_in_the_pseudo_locale_only_names_and_numbers_escape_translation() -> None:
    """Every word of the main posts comes from the catalogue: what the pseudo-locale leaves
    unmarked is only the values the posts were given (names, variants' titles, channels,
    numbers and the separators between them)."""
    pseudo = Languages(pseudo=True).language("en")
    values = re.compile(r"(\*\*Test Swiss\*\*|Brandubh|Copenhagen Hnefatafl|<#\d+>|[·#`\s\d])+")
    pairing = StoredPairing(1, 1, ANN, BO, None, None, None, None, None, None)
    bye = StoredPairing(1, 2, OLGA, None, None, None, 1.0, None, None, None)
    news = RoundPaired(
        event(status="running", round=1), 1, (PairingShown(pairing, 55), PairingShown(bye, None))
    )
    card = tournaments.announcement_card(event(), 1, lang=pseudo)
    [paired] = tournaments.round_paired(news, lang=pseudo)
    [waiting] = lobby.waiting(Waiting(seek(), 2), lang=pseudo)
    found = LobbyList(seeks=(seek(),), counts=(("copenhagen", 1),), own=None, refusal=None)
    [listing] = lobby.lobby_list(found, in_server=True, lang=pseudo)
    assert listing.post.card is not None
    texts = [
        card.description,
        card.footer,
        *(field.name for field in card.fields),
        paired.post.content,
        waiting.post.content,
        listing.post.card.title,
        listing.post.card.description,
        *(field.value for field in listing.post.card.fields),
        tournaments.called_off(event(), 4, EventCancelled("storm"), lang=pseudo),
        *(words for words in vars(tournaments.crosstable_words(pseudo)).values()),
    ]
    escaped = [
        part for text in texts for part in unmarked(text or "") if not values.fullmatch(part)
    ]
    assert escaped == []


def test_why_a_lobby_game_is_played_in_its_channel_is_said_in_that_servers_language() -> None:
    french = Venue(5, "attackers", 1, "Club", 10, NO_THREAD, None, None, False, True)
    english = replace(french, side="defenders", guild_id=2, channel_id=20)
    started = AcrossStarted(None, (french, english), None)  # type: ignore[arg-type]
    said = lobby.notes(started, {1: FR})
    texts = [(d.place.channel_id, d.post.content) for d in said if isinstance(d, Message)]
    assert texts == [
        (10, "*(Je n'ai pas le droit d'ouvrir des fils dans ce salon (il me faut la permission "
         "« Créer des fils publics »), donc cette partie se joue ici.)*"),
        (20, NO_THREAD),
    ]  # fmt: skip


def test_an_organisers_result_says_how_in_french() -> None:
    assert tournaments.decided_words("forfeit", "absent", lang=FR) == "forfait : absent"
    assert tournaments.decided_words("adjudicated", "Adjudicated by olga", lang=FR) == (
        "Adjudicated by olga"  # the organiser's own words, kept
    )
    assert tournaments.decided_words("forfeit", "no-show") == "forfeit: no-show"
