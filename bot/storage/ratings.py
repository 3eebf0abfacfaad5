"""Glicko-2 ratings per player and variant: updated when a rated game finishes, read for display.

Each finished rated game is a rating period of its own (see :mod:`bot.storage.glicko2`). Both
players are rated from their ratings before the game, in the same transaction that records the
result, so a result and its rating change are never seen apart.
"""

from __future__ import annotations

import aiosqlite

from .database import Database
from .glicko2 import Rating, rate_game
from .models import GameResult, Participant, PlayerRating, RatingChange
from .players import participant_columns, participant_from_row

_SCORES = {
    GameResult.ATTACKERS: 1.0,
    GameResult.DEFENDERS: 0.0,
    GameResult.DRAW: 0.5,
}


async def _current(connection: aiosqlite.Connection, player: int, variant: str) -> Rating:
    rows = list(
        await connection.execute_fetchall(
            "SELECT rating, rd, volatility FROM ratings WHERE player_id = ? AND variant = ?",
            (player, variant),
        )
    )
    if not rows:
        return Rating()
    return Rating(rows[0]["rating"], rows[0]["rd"], rows[0]["volatility"])


async def _store(
    connection: aiosqlite.Connection,
    now: int,
    game_id: int,
    player: int,
    variant: str,
    before: Rating,
    after: Rating,
    score: float,
) -> None:
    win, loss, draw = int(score == 1.0), int(score == 0.0), int(score == 0.5)
    await connection.execute(
        """
        INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, wins, losses, draws,
                             updated_at)
        VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
        ON CONFLICT (player_id, variant) DO UPDATE SET
            rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
            games = games + 1, wins = wins + excluded.wins, losses = losses + excluded.losses,
            draws = draws + excluded.draws, updated_at = excluded.updated_at
        """,
        (player, variant, after.rating, after.rd, after.volatility, win, loss, draw, now),
    )
    await connection.execute(
        """
        INSERT INTO rating_changes (game_id, player_id, rating_before, rd_before, volatility_before,
                                    rating_after, rd_after, volatility_after)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        (
            game_id,
            player,
            before.rating,
            before.rd,
            before.volatility,
            after.rating,
            after.rd,
            after.volatility,
        ),
    )


async def rate_finished_game(
    connection: aiosqlite.Connection,
    now: int,
    game_id: int,
    variant: str,
    attackers: tuple[int, Participant],
    defenders: tuple[int, Participant],
    result: GameResult,
) -> tuple[RatingChange, RatingChange]:
    """Update both players' ratings for a finished rated game, inside the caller's transaction."""
    attackers_before = await _current(connection, attackers[0], variant)
    defenders_before = await _current(connection, defenders[0], variant)
    score = _SCORES[result]
    attackers_after, defenders_after = rate_game(attackers_before, defenders_before, score)
    await _store(
        connection, now, game_id, attackers[0], variant, attackers_before, attackers_after, score
    )
    await _store(
        connection,
        now,
        game_id,
        defenders[0],
        variant,
        defenders_before,
        defenders_after,
        1.0 - score,
    )
    return (
        RatingChange(attackers[1], attackers_before, attackers_after),
        RatingChange(defenders[1], defenders_before, defenders_after),
    )


class RatingStore:
    """Reads ratings and the rating changes of games."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, participant: Participant, variant: str) -> PlayerRating:
        """A participant's rating in a variant (a newcomer's default when they have none)."""
        rows = await self._select(participant, variant)
        return rows[0] if rows else PlayerRating(participant, variant, Rating(), 0, 0, 0, 0)

    async def every_variant(self, participant: Participant) -> list[PlayerRating]:
        """A participant's rating in each variant they have played rated games in, most played
        first (ties by variant name)."""
        return await self._select(participant, None)

    async def _select(self, participant: Participant, variant: str | None) -> list[PlayerRating]:
        column, value = (
            ("discord_user_id", participant.user_id)
            if participant.user_id is not None
            else ("ai_level", participant.ai_level)
        )
        async with self._db.read() as connection:
            rows = await connection.execute_fetchall(
                f"""
                SELECT r.variant, r.rating, r.rd, r.volatility, r.games, r.wins, r.losses, r.draws
                FROM players AS p JOIN ratings AS r ON r.player_id = p.id
                WHERE p.{column} = :value AND (:variant IS NULL OR r.variant = :variant)
                ORDER BY r.games DESC, r.variant
                """,
                {"value": value, "variant": variant},
            )
        return [
            PlayerRating(
                participant,
                row["variant"],
                Rating(row["rating"], row["rd"], row["volatility"]),
                row["games"],
                row["wins"],
                row["losses"],
                row["draws"],
            )
            for row in rows
        ]

    async def changes_for_game(self, game_id: int) -> tuple[RatingChange, ...]:
        """The rating changes a finished game caused (empty for an unrated game)."""
        async with self._db.read() as connection:
            rows = await connection.execute_fetchall(
                f"""
                SELECT c.*, {participant_columns("p", "p_")}
                FROM rating_changes AS c
                JOIN games AS g ON g.id = c.game_id
                JOIN players AS p ON p.id = c.player_id
                WHERE c.game_id = ?
                ORDER BY c.player_id = g.defenders_id
                """,
                (game_id,),
            )
        return tuple(
            RatingChange(
                participant_from_row(row, "p_"),
                Rating(row["rating_before"], row["rd_before"], row["volatility_before"]),
                Rating(row["rating_after"], row["rd_after"], row["volatility_after"]),
            )
            for row in rows
        )
