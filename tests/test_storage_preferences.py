"""Per-player preferences (migration 3) and the challenge cooldown's time left."""

from __future__ import annotations

import pytest
from storage_helpers import ALICE, BOB

from bot.storage import PlayerPreferences, Storage


async def test_a_player_who_changed_nothing_gets_the_defaults(storage: Storage) -> None:
    assert await storage.preferences.get(555) == PlayerPreferences(555, None, False)


async def test_preferences_are_stored_per_player_and_can_change_again(storage: Storage) -> None:
    assert ALICE.user_id is not None and BOB.user_id is not None
    saved = await storage.preferences.save(
        PlayerPreferences(ALICE.user_id, "contrast", True), "Alice"
    )
    assert saved == PlayerPreferences(ALICE.user_id, "contrast", True)
    assert await storage.preferences.get(BOB.user_id) == PlayerPreferences(BOB.user_id)
    await storage.preferences.save(PlayerPreferences(ALICE.user_id, "classic", True))
    assert await storage.preferences.get(ALICE.user_id) == PlayerPreferences(
        ALICE.user_id, "classic", True
    )


async def test_a_theme_is_stored_as_the_name_chosen_and_must_be_named(
    storage: Storage,
) -> None:
    # Which themes exist is the renderer's business, checked where a player picks one.
    await storage.preferences.save(PlayerPreferences(7, "sepia", True))
    assert await storage.preferences.get(7) == PlayerPreferences(7, "sepia", True)
    with pytest.raises(ValueError, match="with the name of a theme"):
        await storage.preferences.save(PlayerPreferences(7, None, True))
