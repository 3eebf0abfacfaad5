"""The players' service on real SQLite storage, without Discord: who may change a server's
settings and what each option does, preferences kept only when changed, a player's record and
the leaderboards."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from refusals import refused, words_of
from storage_helpers import FakeClock, open_storage, play_opening
from without_discord import run_without_discord

from bot.discord_bot.app.players import SERVER_LANGUAGE, Players, SettingsChange
from bot.storage import (
    MIN_GAMES_GLOBAL,
    MIN_GAMES_SERVER,
    Participant,
    ServerSettings,
    Storage,
    TableEnding,
)

GUILD = 1
ANN = Participant.user(1, "ann")
BO = Participant.user(2, "bo")


def players_on(storage: Storage) -> Players:
    return Players(
        storage.preferences,
        storage.settings,
        storage.leaderboards,
        storage.ratings,
        storage.puzzles,
    )


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()


@pytest.fixture
def players(storage: Storage) -> Players:
    return players_on(storage)


async def settings_and_who_may_change_them(path: str) -> None:
    """Shown to anyone; changed only by members who may manage the server, each option as
    ``/tafl settings`` documents it (run here and, without Discord, in a fresh process)."""
    storage = await open_storage(path, FakeClock())
    try:
        players = players_on(storage)
        shown = await players.change_settings(GUILD, SettingsChange(), may_manage=False)
        assert (shown.settings, shown.may_change, shown.changed) == (
            ServerSettings(GUILD),
            False,
            False,
        )
        with refused(r"^Only members with the Manage Server permission"):
            await players.change_settings(GUILD, SettingsChange(threads=True), may_manage=False)
        assert await players.server_settings(GUILD) == ServerSettings(GUILD)
        # Even an option that would change nothing is a change a member may not ask for.
        with refused("Manage Server"):
            await players.change_settings(
                GUILD, SettingsChange(lobby_anywhere=False), may_manage=False
            )
        change = SettingsChange(threads=True, time="24h", rated_ai=True, lobby_channel=70)
        shown = await players.change_settings(GUILD, change, may_manage=True)
        expected = ServerSettings(
            GUILD,
            rated_ai_games=True,
            game_threads=True,
            default_move_seconds=86400,
            lobby_channels=frozenset({70}),
        )
        assert (shown.settings, shown.may_change, shown.changed) == (expected, True, True)
        assert await players.server_settings(GUILD) == expected
        again = await players.change_settings(GUILD, SettingsChange(threads=True), may_manage=True)
        assert (again.settings, again.changed) == (expected, False)
    finally:
        await storage.close()


async def test_settings_are_shown_to_anyone_and_changed_by_managers(tmp_path: Path) -> None:
    await settings_and_who_may_change_them(str(tmp_path / "tafl.sqlite3"))


def test_the_service_runs_without_discord(tmp_path: Path) -> None:
    run_without_discord(
        "test_app_players", "settings_and_who_may_change_them", str(tmp_path / "t.sqlite3")
    )


async def test_naming_a_channel_or_role_again_takes_it_off(players: Players) -> None:
    async def change(**options: object) -> ServerSettings:
        shown = await players.change_settings(
            GUILD,
            SettingsChange(**options),  # type: ignore[arg-type]
            may_manage=True,
        )
        return shown.settings

    assert (await change(lobby_channel=70)).lobby_channels == {70}
    assert (await change(lobby_channel=71)).lobby_channels == {70, 71}
    assert (await change(lobby_channel=70)).lobby_channels == {71}
    assert (await change(lobby_anywhere=True)).lobby_channels == frozenset()
    assert (await change(organisers=5)).tournament_role == 5
    assert (await change(organisers=6)).tournament_role == 6
    assert (await change(organisers=6)).tournament_role is None
    assert not (await change(lobby=False)).lobby
    assert (await change(time="none")).default_move_seconds is None


async def test_the_lobby_takes_known_variants_and_the_times_it_offers(players: Players) -> None:
    async def change(**options: str) -> ServerSettings:
        shown = await players.change_settings(GUILD, SettingsChange(**options), may_manage=True)
        return shown.settings

    settings = await change(lobby_variants="Brandubh, tablut", lobby_times="1d 3d")
    assert settings.lobby_variants == {"brandubh", "tablut"}
    assert settings.lobby_times == {86400, 3 * 86400}
    with refused(r"^'hnefa' is not a variant: write names from tablut, "):
        await change(lobby_variants="brandubh hnefa")
    with refused() as refusal:
        await change(lobby_times="1d 5m")
    assert words_of(refusal) == (
        "The lobby offers 2 minutes, 10 minutes, 1 hour, 1 day, 3 days per move; '5m' is not "
        "one of them."
    )
    settings = await change(lobby_variants="all", lobby_times="all")
    assert (settings.lobby_variants, settings.lobby_times) == (frozenset(), frozenset())
    # A refused change leaves everything as it was.
    assert await players.server_settings(GUILD) == settings


async def test_preferences_are_kept_only_when_they_change(players: Players) -> None:
    before = await players.preferences(ANN.user_id or 0)
    assert (before.theme, before.flip, before.notify) == (None, False, False)
    # Unchanged: nothing is stored (a theme must be named to be stored, and this has none).
    assert await players.save_preferences(before, before, "ann") is before
    after = replace(before, theme="classic", flip=True)
    kept = await players.save_preferences(before, after, "ann")
    assert kept == after == await players.preferences(ANN.user_id or 0)


async def rated_game(storage: Storage, variant: str, winner: str) -> None:
    """A rated game of ann (attackers) against bo that counts, won by ``winner``."""
    game = await storage.games.create(
        guild_id=GUILD, channel_id=50, variant=variant, attackers=ANN, defenders=BO
    )
    await play_opening(storage, game)
    await storage.games.finish(game.id, winner, TableEnding.RESIGNATION)


async def test_a_record_in_every_variant_or_in_one(storage: Storage, players: Players) -> None:
    await rated_game(storage, "brandubh", "attackers")
    await rated_game(storage, "tablut", "defenders")
    record = await players.record(ANN.user_id or 0)
    assert record.stats.against_people.games == 2
    assert [rating.variant for rating in record.ratings] == ["brandubh", "tablut"]
    assert record.puzzles is not None and record.puzzles.attempts == 0
    only = await players.record(ANN.user_id or 0, "brandubh")
    assert only.stats.against_people.games == 1
    assert [(r.variant, r.games) for r in only.ratings] == [("brandubh", 1)]
    assert only.puzzles is None  # one puzzle rating for every variant: not a variant's record
    never = await players.record(ANN.user_id or 0, "copenhagen")
    assert [(r.variant, r.games) for r in never.ratings] == [("copenhagen", 0)]


async def test_a_leaderboard_names_what_it_takes_to_appear(
    storage: Storage, players: Players
) -> None:
    for _ in range(MIN_GAMES_SERVER):
        await rated_game(storage, "brandubh", "attackers")
    server = await players.leaderboard("brandubh", GUILD)
    assert (server.variant, server.guild_id, server.gate) == ("brandubh", GUILD, MIN_GAMES_SERVER)
    assert [entry.user_id for entry in server.entries] == [1, 2]
    everywhere = await players.leaderboard("brandubh")
    assert (everywhere.guild_id, everywhere.gate, everywhere.entries) == (
        None,
        MIN_GAMES_GLOBAL,
        (),
    )


async def test_a_server_chooses_its_language_among_those_the_bot_speaks(
    storage: Storage,
) -> None:
    players = Players(
        storage.preferences,
        storage.settings,
        storage.leaderboards,
        storage.ratings,
        storage.puzzles,
        languages=["de", "es", "fr", "sv"],
    )
    assert await players.server_language(GUILD) is None
    with refused("Manage Server"):
        await players.set_server_language(GUILD, "fr", may_manage=False)
    with refused("not a language") as refusal:
        await players.set_server_language(GUILD, "klingon", may_manage=True)
    assert words_of(refusal) == (
        "'klingon' is not a language the bot speaks: choose English, Deutsch, español, "
        "français, svenska."
    )
    assert (await players.set_server_language(GUILD, "fr", may_manage=True)).language == "fr"
    assert await players.server_language(GUILD) == "fr"
    assert (await players.set_server_language(GUILD, None, may_manage=True)).language is None
    # The same through /tafl settings, with its other options.
    with refused("not a language"):
        await players.change_settings(GUILD, SettingsChange(language="tlh"), may_manage=True)
    shown = await players.change_settings(
        GUILD, SettingsChange(language="sv", threads=True), may_manage=True
    )
    assert (shown.settings.language, shown.settings.game_threads, shown.changed) == (
        "sv",
        True,
        True,
    )
    shown = await players.change_settings(
        GUILD, SettingsChange(language=SERVER_LANGUAGE), may_manage=True
    )
    assert shown.settings.language is None


async def test_a_players_locale_is_remembered_for_notices_sent_later(storage: Storage) -> None:
    players = players_on(storage)
    assert await players.last_locale(7) is None
    await players.note_locale(7, "sv-SE")
    await players.note_locale(7, "sv-SE")  # unchanged: nothing written
    assert await players.last_locale(7) == "sv-SE"
    # Another process (a fresh service on the same database) reads it back.
    assert await players_on(storage).last_locale(7) == "sv-SE"
    await players.note_locale(7, "fr")
    assert await players_on(storage).last_locale(7) == "fr"
