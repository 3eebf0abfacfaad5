"""Languages in storage (migration 11): a server's language for its channels and the locale a
player last used, on both databases."""

from __future__ import annotations

import pytest
from storage_helpers import ALICE

from bot.storage import ServerSettings, Storage


async def test_a_server_reads_its_preferred_locale_until_it_chooses_a_language(
    storage: Storage,
) -> None:
    assert (await storage.settings.get(1)).language is None
    chosen = await storage.settings.set_language(1, "fr")
    assert chosen == ServerSettings(guild_id=1, language="fr")
    # Other settings saved later keep it; another server is untouched.
    await storage.settings.set_rated_ai_games(1, True)
    assert (await storage.settings.get(1)).language == "fr"
    assert (await storage.settings.get(2)).language is None
    assert (await storage.settings.set_language(1, None)).language is None


async def test_a_players_last_locale_is_kept_and_written_only_when_it_changes(
    storage: Storage,
) -> None:
    assert ALICE.user_id is not None
    assert await storage.preferences.locale(ALICE.user_id) is None
    assert await storage.preferences.note_locale(ALICE.user_id, "sv-SE", "Alice")
    assert not await storage.preferences.note_locale(ALICE.user_id, "sv-SE")
    assert await storage.preferences.locale(ALICE.user_id) == "sv-SE"
    assert await storage.preferences.note_locale(ALICE.user_id, "es-419")
    assert await storage.preferences.locale(ALICE.user_id) == "es-419"
    with pytest.raises(ValueError, match="not a locale"):
        await storage.preferences.note_locale(ALICE.user_id, "x")
