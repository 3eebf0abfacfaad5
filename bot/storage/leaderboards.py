"""Leaderboards and per-player statistics (read-only reports over ratings and finished games).

A player has one rating per variant wherever they play; a server's leaderboard ranks the players who
have played enough rated games *in that server*, by that rating. Only people are listed, not the AI.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from .database import Database, Value
from .glicko2 import Rating
from .models import (
    PLIES_TO_COUNT,
    GameResult,
    LeaderboardEntry,
    PlayerStats,
    Results,
    SideRecord,
    Streak,
)

MIN_GAMES_GLOBAL = 10
"""Rated games in a variant before a player appears on the global leaderboard."""
MIN_GAMES_SERVER = 3
"""Rated games in a variant and server before a player appears on that server's leaderboard."""

PersonalResult = Literal["win", "loss", "draw"]

# Ties: the surer rating first, then the earlier player, so the order is always the same.
_ORDER = "ORDER BY r.rating DESC, r.rd ASC, p.id ASC LIMIT ? OFFSET ?"
_VENUE_OF_PLAYER = """
LEFT JOIN game_venues AS v ON v.game_id = g.id
      AND v.side = CASE WHEN g.attackers_id = {player} THEN 'attackers' ELSE 'defenders' END
"""
"""A game across servers counts in the server its player played it from (the venue of their
side); a game in one channel in that channel's server."""


class LeaderboardStore:
    """Leaderboards and statistics."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self,
        variant: str,
        *,
        guild_id: int | None = None,
        min_games: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderboardEntry]:
        """The best-rated people in ``variant``: globally, or in one server with ``guild_id``.

        ``min_games`` defaults to :data:`MIN_GAMES_GLOBAL` or :data:`MIN_GAMES_SERVER`.
        """
        parameters: tuple[Value, ...]
        if guild_id is None:
            gate = MIN_GAMES_GLOBAL if min_games is None else min_games
            sql = f"""
                SELECT p.discord_user_id, p.display_name, r.rating, r.rd, r.volatility,
                       r.games AS counted
                FROM ratings AS r JOIN players AS p ON p.id = r.player_id
                WHERE r.variant = ? AND p.discord_user_id IS NOT NULL AND r.games >= ?
                {_ORDER}
            """
            parameters = (variant, gate, limit, offset)
        else:
            gate = MIN_GAMES_SERVER if min_games is None else min_games
            sql = f"""
                WITH counted AS (
                    SELECT c.player_id, count(*) AS counted
                    FROM rating_changes AS c JOIN games AS g ON g.id = c.game_id
                    {_VENUE_OF_PLAYER.format(player="c.player_id")}
                    WHERE coalesce(v.guild_id, g.guild_id) = ? AND g.variant = ?
                      AND g.status = 'finished'
                    GROUP BY c.player_id
                    HAVING count(*) >= ?
                )
                SELECT p.discord_user_id, p.display_name, r.rating, r.rd, r.volatility, n.counted
                FROM counted AS n
                JOIN players AS p ON p.id = n.player_id
                JOIN ratings AS r ON r.player_id = n.player_id AND r.variant = ?
                WHERE p.discord_user_id IS NOT NULL
                {_ORDER}
            """
            parameters = (guild_id, variant, gate, variant, limit, offset)
        async with self._db.read() as connection:
            rows = await connection.fetch(sql, parameters)
        return [
            LeaderboardEntry(
                rank=offset + index,
                user_id=row["discord_user_id"],
                display_name=row["display_name"],
                rating=Rating(row["rating"], row["rd"], row["volatility"]),
                games=row["counted"],
            )
            for index, row in enumerate(rows, start=1)
        ]

    async def player_stats(
        self, user_id: int, *, variant: str | None = None, guild_id: int | None = None
    ) -> PlayerStats:
        """Wins, losses and draws by side against people (rated games) and against the AI, and
        the current streak over both. Games that ended before each side had moved (not rated, see
        :data:`~.models.PLIES_TO_COUNT`) and games against oneself are left out."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                """
                SELECT CASE WHEN g.attackers_id = p.id THEN 'attackers' ELSE 'defenders' END,
                       g.result, o.ai_level IS NOT NULL
                FROM players AS p
                JOIN games AS g ON g.attackers_id = p.id OR g.defenders_id = p.id
                JOIN players AS o
                  ON o.id = CASE WHEN g.attackers_id = p.id THEN g.defenders_id
                                 ELSE g.attackers_id END
                """
                + _VENUE_OF_PLAYER.format(player="p.id")
                + """
                WHERE p.discord_user_id = :user AND g.status = 'finished'
                  AND g.attackers_id <> g.defenders_id
                  AND CASE WHEN o.ai_level IS NULL THEN g.rated = 1 ELSE g.ply >= :counted END
                  AND (CAST(:variant AS TEXT) IS NULL OR g.variant = :variant)
                  AND (CAST(:guild AS BIGINT) IS NULL OR coalesce(v.guild_id, g.guild_id) = :guild)
                ORDER BY g.ended_at DESC, g.id DESC
                """,
                {
                    "user": user_id,
                    "variant": variant,
                    "guild": guild_id,
                    "counted": PLIES_TO_COUNT,
                },
            )
        tallies: dict[tuple[bool, str], Counter[PersonalResult]] = {
            (ai, side): Counter() for ai in (False, True) for side in ("attackers", "defenders")
        }
        streak_kind: PersonalResult | None = None
        streak_length = 0
        streak_open = True
        for row in rows:
            side, result, against_ai = row[0], row[1], row[2]
            outcome: PersonalResult = (
                "draw" if result == GameResult.DRAW else "win" if result == side else "loss"
            )
            tallies[bool(against_ai), side][outcome] += 1
            # Rows come newest first: the streak is the run at the head of the list.
            if streak_open and streak_kind in (None, outcome):
                streak_kind = outcome
                streak_length += 1
            else:
                streak_open = False
        return PlayerStats(
            user_id=user_id,
            against_people=_results(tallies, against_ai=False),
            against_ai=_results(tallies, against_ai=True),
            streak=Streak(streak_kind, streak_length),
        )


def _results(
    tallies: dict[tuple[bool, str], Counter[PersonalResult]], *, against_ai: bool
) -> Results:
    return Results(
        as_attackers=_side_record(tallies[against_ai, "attackers"]),
        as_defenders=_side_record(tallies[against_ai, "defenders"]),
    )


def _side_record(tally: Counter[PersonalResult]) -> SideRecord:
    return SideRecord(wins=tally["win"], losses=tally["loss"], draws=tally["draw"])
