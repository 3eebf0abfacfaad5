"""Fixtures shared by the storage tests: a fake clock and a fresh database on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from storage_helpers import FakeClock, open_storage

from bot.storage import Storage


@pytest.fixture
def clock() -> FakeClock:
    """A clock the test moves by hand."""
    return FakeClock()


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """A new database in the test's folder, on the fake clock."""
    storage = await open_storage(tmp_path / "tafl.sqlite3", clock)
    yield storage
    await storage.close()
