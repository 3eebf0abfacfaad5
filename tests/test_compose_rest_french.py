"""Challenges, help and rules, a player's and a server's pages and game records composed in
French (compose/challenges, help, players, records): real French words come out, the commands
are named as a French picker names them, and none of these modules' strings is left in English
in the French catalogue."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.discord_bot.app.challenges import (
    AnswerNotAllowed,
    BusyHere,
    ChallengePosted,
    ChallengeTooSoon,
    Where,
)
from bot.discord_bot.app.players import Leaderboard, PlayerRecord, SettingsShown
from bot.discord_bot.app.records import NoSuchGame
from bot.discord_bot.compose import catalogs, challenges, help, players, records
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.compose.post import Button
from bot.engine import VARIANTS, Game
from bot.i18n.language import LOCALES_DIR, Language, Languages
from bot.storage import (
    Challenge,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    LeaderboardEntry,
    Participant,
    PlayerPreferences,
    PlayerStats,
    Rating,
    Results,
    ServerSettings,
    SideRecord,
    Streak,
)
from bot.storage import challenges as storage_challenges

EXPIRES = datetime(2026, 1, 1, tzinfo=UTC)
MODULES = ("challenges.py", "help.py", "players.py", "records.py", "engine/variants.py")


@pytest.fixture(scope="module")
def fr() -> Language:
    return Languages().language("fr")


def made_challenge(**changes: object) -> Challenge:
    made = Challenge(
        id=7,
        guild_id=10,
        channel_id=20,
        challenger=Participant.user(1, "ann"),
        challenged=Participant.user(2, "bo"),
        variant="copenhagen",
        challenger_side="defenders",
        move_seconds=86400,
        rated=True,
        status=ChallengeStatus.PENDING,
        message_id=30,
        game_id=None,
        created_at=EXPIRES - timedelta(hours=1),
        expires_at=EXPIRES,
        resolved_at=None,
    )
    return made if not changes else Challenge(**{**made.__dict__, **changes})  # type: ignore[arg-type]


def test_a_challenge_is_posted_and_answered_in_french(fr: Language) -> None:
    [answer] = challenges.challenge_posted(ChallengePosted(made_challenge(), True, None), lang=fr)
    stamp = int(EXPIRES.timestamp())
    assert answer.post.content == (
        "<@2>, <@1> vous défie au **Hnefatafl de Copenhague**, 1 jour par coup, en prenant "
        "les défenseurs. La partie aura son propre fil. "
        f"Le défi expire <t:{stamp}:R>."
    )
    labels = [c.label for c in answer.post.controls if isinstance(c, Button)]
    assert labels == ["Accepter", "Refuser", "Annuler"]
    # The custom ids are the same in every language: old buttons keep working.
    assert [c.custom_id for c in answer.post.controls if isinstance(c, Button)] == [
        "tafl:ch:7:accept",
        "tafl:ch:7:decline",
        "tafl:ch:7:cancel",
    ]
    [update] = challenges.accepted(2, 5, 99, lang=fr)
    assert update.post.content == "<@2> accepte ! La partie n° 5 commence dans <#99>."
    [edit] = challenges.expired(made_challenge(), lang=fr)
    assert edit.post.content == (
        "Sans réponse, le défi de **Hnefatafl de Copenhague** lancé par <@1> à <@2> a expiré. "
        "Relancez-le avec `/tafl défier`."
    )


def test_help_in_french_names_the_commands_as_the_french_picker_does(fr: Language) -> None:
    commands = [
        ("tafl help", "How to start a game, and every command"),
        ("tafl-tournament", "Tournaments in this server: Swiss, round robin, arena"),
        ("tafl challenge", "Unknown"),
    ]
    [answer] = help.help_answer(commands, lang=fr)
    card = answer.post.card
    assert card is not None and card.title == "Tafl : comment jouer"
    assert card.description.startswith("**1.** Défiez un membre : `/tafl défier adversaire:@")
    listed = card.description.split("**Les commandes**\n")[1].splitlines()
    # A description the catalogue lacks stays as the command has it.
    assert listed == [
        "`/tafl défier` — Unknown",
        "`/tafl-tournoi` — Les tournois de ce serveur : système suisse, toutes rondes, arène",
        "`/tafl aide` — Comment lancer une partie, et toutes les commandes",
    ]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variants_rules_read_in_french(fr: Language, name: str) -> None:
    [answer] = help.rules_answer(name, PlayerPreferences(1), lang=fr)
    card = answer.post.card
    variant = VARIANTS[name]
    assert card is not None
    assert card.description != variant.summary and card.description  # the engine's, translated
    assert card.footer is not None and card.footer.startswith("Source : ")
    assert variant.source not in card.footer or variant.source == "Ludoteka (ludoteka.com)"
    names = [field.name for field in card.fields]
    assert names[:3] == ["Qui commence", "Le roi s'échappe par", "Les annonces"]
    assert "Lancer une partie" in names
    text = " ".join(field.value for field in card.fields)
    assert "`/tafl jouer variante:" in text and "moyen 1500" in text
    for english in ("the king", "attackers", "defenders", "Start a game"):
        assert english not in text + card.description, english


def test_copenhagen_says_its_own_rules_in_the_clubs_words(fr: Language) -> None:
    [answer] = help.rules_answer("copenhagen", PlayerPreferences(1), lang=fr)
    assert answer.post.card is not None
    fields = {field.name: field.value for field in answer.post.card.fields}
    assert fields["Mur de boucliers"].startswith("Deux pions ou plus alignés")
    assert fields["Fort"].startswith("Les défenseurs gagnent aussi quand le roi")
    assert fields["Répétition"].startswith("Les défenseurs n'ont pas le droit de répéter")
    [line] = [
        line
        for line in (help.variants_answer(lang=fr)[0].post.content or "").splitlines()
        if "copenhagen" in line
    ]
    assert line == (
        "**Hnefatafl de Copenhague** (`copenhagen`) : 11×11, les attaquants commencent, le roi "
        "s'échappe par un coin ou bâtit un fort ; prise par mur de boucliers, encerclement."
    )


def test_a_players_pages_read_in_french(fr: Language) -> None:
    stats = PlayerStats(1, Results(SideRecord(2, 1, 0)), Results(), Streak("win", 2))
    [answer] = players.stats_answer(PlayerRecord(stats, (), None), "ann", None, yours=True, lang=fr)
    card = answer.post.card
    assert card is not None and card.title == "Le bilan de ann"
    assert card.description == "Série en cours : 2 victoires"
    assert [field.name for field in card.fields] == [
        "Contre des joueurs (parties classées)",
        "Contre l'IA",
        "Classements",
    ]
    assert card.fields[1].value == "Aucune partie pour l'instant."
    [empty] = players.leaderboard_answer(Leaderboard("tablut", 10, (), 1), lang=fr)
    assert empty.post.content == (
        "Personne ne figure encore au classement de Tablut de ce serveur. Un joueur y figure "
        "après 1 partie classée de Tablut sur ce serveur."
    )
    entry = LeaderboardEntry(1, 1, "ann", Rating(1600.0, 300.0, 0.06), 3)
    [listed] = players.leaderboard_answer(Leaderboard("tablut", None, (entry,), 2), lang=fr)
    assert listed.post.card is not None
    assert listed.post.card.title == "Classement de Tablut (tous serveurs)"
    assert "(3 parties)" in listed.post.card.description
    assert "classement provisoire" in (listed.post.card.footer or "")
    [mine] = players.preferences_answer(PlayerPreferences(1, flip=True), lang=fr)
    assert mine.post.card is not None and mine.post.card.title == "Vos préférences"
    assert mine.post.card.fields[1].value.startswith("activé : quand vous jouez les défenseurs")


def test_a_servers_settings_read_in_french(fr: Language) -> None:
    settings = ServerSettings(10, default_move_seconds=3 * 86400, lobby_times=frozenset({3600}))
    [answer] = players.settings_answer(SettingsShown(settings, True, False), lang=fr)
    card = answer.post.card
    assert card is not None and card.title == "Les réglages de tafl de ce serveur"
    values = {field.name: field.value for field in card.fields}
    assert values["Temps par coup par défaut"] == "3 jours (quand le défi n'en fixe pas)"
    assert values["Parties contre l'IA"] == "non classées"
    assert values["Le lobby (parties avec d'autres serveurs)"] == (
        "activé : `/tafl chercher` dans n'importe quel salon ; toutes les variantes ; 1 heure "
        "par coup"
    )
    assert card.footer == (
        "Donnez une option à /tafl paramètres pour changer un réglage (il vaudra pour les "
        "parties commencées ensuite)."
    )


def test_game_records_read_in_french(fr: Language) -> None:
    played = Game("brandubh")
    for move in ("d2-c2", "e4-e2", "d6-e6"):
        played.play(move)
    record = GameRecord(
        id=7,
        guild_id=1,
        channel_id=70,
        variant=played.variant.name,
        start_position=played.start_position,
        first_turn=played.start_turn.value,
        attackers=Participant.user(1, "ann"),
        defenders=Participant.user(2, "bo"),
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
    [history] = records.history_answer(record, played, lang=fr)
    assert (history.post.content or "").startswith("Partie n° 7 (Brandubh), 2 coups :\n```\n1.")
    assert "`x` prise" in (history.post.content or "")
    [export] = records.export_answer(record, played, "[Event]", lang=fr)
    assert export.post.content == "Partie n° 7 : 2 coups."
    [replay] = records.replay_answer(record, played, lang=fr)
    assert replay.fitted[1].content == (
        "Partie n° 7, 2 coups (dessinée sur 480 px de large pour tenir dans la limite de "
        "taille des fichiers de Discord)."
    )


def test_the_rules_read_in_spanish_too() -> None:
    es = Languages().language("es-419")
    [answer] = help.rules_answer("tablut", PlayerPreferences(1), lang=es)
    card = answer.post.card
    assert card is not None and card.description.startswith("El Tablut de Linneo de 1732")
    assert [field.name for field in card.fields][:2] == ["Empiezan", "El rey huye a"]


def test_refusals_read_in_french(fr: Language) -> None:
    assert refusal_words(ChallengeTooSoon(3.2, 20), fr) == (
        "Doucement : vous pourrez lancer un défi dans 4 s (un défi toutes les 20 secondes)."
    )
    busy = refusal_words(BusyHere(4, Where(1, 10, "channel", threads=True)), fr)
    assert busy == (
        "Ce salon a déjà une partie (n° 4). Terminez-la, ou lancez la vôtre avec "
        "`/tafl défier` ou `/tafl jouer` : le bot lui ouvre un fil."
    )
    assert refusal_words(NoSuchGame(9), fr) == "Il n'y a pas de partie n° 9 sur ce serveur."


@pytest.mark.parametrize("code", ["fr", "es", "de", "sv"])
def test_none_of_these_modules_strings_is_left_in_english(code: str) -> None:
    template = catalogs.read(catalogs.TEMPLATE)
    french = catalogs.read(LOCALES_DIR / f"{code}.po", code)
    left = []
    for message in template:
        if not message.id or not any(p.endswith(MODULES) for p, _ in message.locations):
            continue
        found = french.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(_forms(found.string)):
            left.append(message.id)
    assert left == []
    # The engine's words about each variant are in the template, for /tafl rules to translate.
    ids = {message.id for message in template}
    for variant in VARIANTS.values():
        assert variant.summary in ids and variant.source in ids, variant.name


def _forms(string: object) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, tuple | list) else (str(string),)


def test_every_reason_storage_gives_for_refusing_an_answer_is_worded_in_french(
    fr: Language,
) -> None:
    source = Path(storage_challenges.__file__).read_text(encoding="utf-8")
    reasons = [
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "NotAllowed"
        and isinstance(node.args[0], ast.Constant)
    ]
    assert len(reasons) >= 5
    for reason in reasons:
        english = refusal_words(AnswerNotAllowed(reason))
        assert english == f"{reason[:1].upper()}{reason[1:]}."  # as it always read
        worded = refusal_words(AnswerNotAllowed(reason), fr)
        assert worded != english, reason  # known, so translated
    assert refusal_words(AnswerNotAllowed("only the challenger can cancel a challenge"), fr) == (
        "Seul l'auteur d'un défi peut l'annuler."
    )
