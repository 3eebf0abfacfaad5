"""Shared helpers for the storage tests (not a test module itself)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import asyncpg

from bot.engine import Game
from bot.storage import (
    PLIES_TO_COUNT,
    FixedRatings,
    GameRecord,
    Participant,
    Storage,
    is_postgres_url,
)

START = 1_800_000_000
"""A fixed epoch second the fake clock starts at."""

ALICE = Participant.user(101, "Alice")
BOB = Participant.user(102, "Bob")
CAROL = Participant.user(103, "Carol")


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def open_storage(
    target: str | Path, clock: FakeClock | None = None, *, ai_ratings: FixedRatings | None = None
) -> Storage:
    """Open a storage (a real file, or a PostgreSQL URL) with a fake clock."""
    return await Storage.open(target, clock=clock or FakeClock(), ai_ratings=ai_ratings)


async def new_game(
    storage: Storage,
    channel_id: int = 1000,
    *,
    attackers: Participant = ALICE,
    defenders: Participant = BOB,
    variant: str = "tablut",
    guild_id: int | None = 1,
    move_seconds: int | None = None,
) -> GameRecord:
    """Create a game with defaults that keep tests short."""
    return await storage.games.create(
        guild_id=guild_id,
        channel_id=channel_id,
        variant=variant,
        attackers=attackers,
        defenders=defenders,
        move_seconds=move_seconds,
    )


async def play_opening(storage: Storage, game: GameRecord, plies: int = PLIES_TO_COUNT) -> None:
    """Commit the first ``plies`` moves of a game from its variant's start (by default one move
    for each side, so that the game counts)."""
    for ply, move in enumerate(random_moves(game.variant, plies, seed=0)):
        await storage.games.append_move(game.id, ply, move)


def random_moves(variant: str, count: int, seed: int) -> list[str]:
    """``count`` legal moves of a game that is still going after them (canonical text)."""
    rng = random.Random(seed)
    while True:
        game = Game(variant)
        moves: list[str] = []
        while len(moves) < count and not game.is_over:
            move = rng.choice(game.legal_moves())
            moves.append(move.text(game.size))
            game.play(move)
        if len(moves) == count and not game.is_over:
            return moves


def moves_to_the_end(variant: str, seed: int) -> list[str]:
    """The legal moves of a random game played until the rules end it."""
    rng = random.Random(seed)
    game = Game(variant)
    moves: list[str] = []
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        moves.append(move.text(game.size))
        game.play(move)
    return moves


async def raw_execute(target: str, sql: str, *parameters: object) -> None:
    """Run one statement on ``target`` past the storage layer, with the backend's own driver
    and placeholders (``?`` for SQLite, ``$1`` for PostgreSQL), raising the driver's errors."""
    if is_postgres_url(target):
        connection = await asyncpg.connect(target)
        try:
            await connection.execute(sql, *parameters)
        finally:
            await connection.close()
        return
    with sqlite3.connect(target) as sqlite_connection:
        sqlite_connection.execute(sql, parameters)
    sqlite_connection.close()
