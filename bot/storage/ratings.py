"""Glicko-2 ratings per player and variant: updated when a rated game finishes, read for display.

Each finished rated game is a rating period of its own (see :mod:`bot.storage.glicko2`). Both
players are rated from their ratings before the game, in the same transaction that records the
result, so a result and its rating change are never seen apart.
"""

from __future__ import annotations

from collections.abc import Callable

from .database import Connection, Database
from .glicko2 import Rating, rate_game
from .models import GameResult, Participant, PlayerRating, RatingChange
from .players import participant_columns, participant_from_row

_SCORES = {
    GameResult.ATTACKERS: 1.0,
    GameResult.DEFENDERS: 0.0,
    GameResult.DRAW: 0.5,
}


async def _lock_ratings(
    connection: Connection, now: int, players: list[int], variant: str
) -> dict[int, Rating]:
    """The current ratings of ``players``, their rows locked until the transaction ends.

    A newcomer's row is created first (a newcomer's rating, no games), so that there is a row to
    lock: two rated games of one player finishing at once, on two processes, then take turns
    instead of both reading the same rating and the second overwriting the first. Rows are taken
    in id order so that two such transactions cannot deadlock.
    """
    newcomer = Rating()
    ordered = sorted(set(players))
    for player in ordered:
        await connection.execute(
            """
            INSERT INTO ratings (player_id, variant, rating, rd, volatility, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (player_id, variant) DO NOTHING
            """,
            (player, variant, newcomer.rating, newcomer.rd, newcomer.volatility, now),
        )
    rows = await connection.fetch(
        f"""
        SELECT player_id, rating, rd, volatility FROM ratings
        WHERE variant = ? AND player_id IN ({", ".join("?" for _ in ordered)})
        ORDER BY player_id{connection.for_update}
        """,
        (variant, *ordered),
    )
    return {row["player_id"]: Rating(row["rating"], row["rd"], row["volatility"]) for row in rows}


async def _store(
    connection: Connection,
    now: int,
    game_id: int,
    player: int,
    variant: str,
    before: Rating,
    after: Rating,
    score: float,
) -> None:
    # The counters are added to in the statement, never written from a value read earlier.
    await connection.execute(
        """
        UPDATE ratings SET rating = ?, rd = ?, volatility = ?, games = games + 1,
                           wins = wins + ?, losses = losses + ?, draws = draws + ?, updated_at = ?
        WHERE player_id = ? AND variant = ?
        """,
        (
            after.rating,
            after.rd,
            after.volatility,
            int(score == 1.0),
            int(score == 0.0),
            int(score == 0.5),
            now,
            player,
            variant,
        ),
    )
    await _record_change(connection, game_id, player, before, after)


async def _record_change(
    connection: Connection, game_id: int, player: int, before: Rating, after: Rating
) -> None:
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


FixedRatings = Callable[[str, int], float]
"""The fixed rating of the AI at a level (1-based) in a variant: games never change it. The AI
layer defines it; storage is handed it (see :class:`~.storage.Storage`)."""


async def rate_finished_game(
    connection: Connection,
    now: int,
    game_id: int,
    variant: str,
    attackers: tuple[int, Participant],
    defenders: tuple[int, Participant],
    result: GameResult,
    fixed: FixedRatings | None = None,
) -> tuple[RatingChange, RatingChange]:
    """Update both players' ratings for a finished rated game, inside the caller's transaction.

    With ``fixed``, the AI plays at its level's fixed rating, which the game leaves as it was:
    only the person's rating moves (their change still records the AI's side, unchanged).
    """
    sides = (attackers, defenders)
    held = {
        player: Rating.fixed(fixed(variant, who.ai_level))
        for player, who in sides
        if fixed is not None and who.ai_level is not None
    }
    people = [player for player, _ in sides if player not in held]
    current = {**await _lock_ratings(connection, now, people, variant), **held} if people else held
    attackers_before = current[attackers[0]]
    defenders_before = current[defenders[0]]
    score = _SCORES[result]
    attackers_after, defenders_after = rate_game(attackers_before, defenders_before, score)
    if attackers[0] in held:
        attackers_after = attackers_before
    if defenders[0] in held:
        defenders_after = defenders_before
    for (player, _), before, after, points in (
        (attackers, attackers_before, attackers_after, score),
        (defenders, defenders_before, defenders_after, 1.0 - score),
    ):
        if player in held:  # the change is kept, the fixed rating is not touched
            await _record_change(connection, game_id, player, before, after)
        else:
            await _store(connection, now, game_id, player, variant, before, after, points)
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
            rows = await connection.fetch(
                f"""
                SELECT r.variant, r.rating, r.rd, r.volatility, r.games, r.wins, r.losses, r.draws
                FROM players AS p JOIN ratings AS r ON r.player_id = p.id
                WHERE p.{column} = :value
                  AND (CAST(:variant AS TEXT) IS NULL OR r.variant = :variant)
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
            rows = await connection.fetch(
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
