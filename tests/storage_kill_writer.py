"""Helper process for ``test_storage_kill``: plays random games into a database, one commit at a
time, printing one acknowledgement line after each commit, until it is killed.

Usage: ``python tests/storage_kill_writer.py DATABASE SEED FIRST_CHANNEL``

Lines: ``game <id>``, ``move <id> <ply> <move>``, ``takeback <id> <ply>``, ``finish <id>``.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import sys

from bot.engine import Game
from bot.storage import Participant, Storage

VARIANTS = ("brandubh", "tablut", "fidchell")


def acknowledge(line: str) -> None:
    # Flushed at once: a line the test has read is a commit the writer has finished.
    print(line, flush=True)


async def main(path: str, seed: int, first_channel: int) -> None:
    storage = await Storage.open(path)
    rng = random.Random(seed)
    for channel in itertools.count(first_channel):
        record = await storage.games.create(
            guild_id=1,
            channel_id=channel,
            variant=rng.choice(VARIANTS),
            attackers=Participant.user(1),
            defenders=Participant.user(2),
        )
        acknowledge(f"game {record.id}")
        game = Game(record.variant)
        while not game.is_over:
            if game.ply >= 2 and rng.random() < 0.1:
                await storage.games.take_back(record.id, game.ply)
                game.undo()
                acknowledge(f"takeback {record.id} {game.ply}")
                continue
            # The bot's order: the engine accepts the move, storage commits it, then it is told.
            move = rng.choice(game.legal_moves()).text(game.size)
            game.play(move)
            await storage.games.append_move(record.id, game.ply - 1, move)
            acknowledge(f"move {record.id} {game.ply} {move}")
        assert game.outcome is not None
        await storage.games.finish(
            record.id, game.outcome.result_text, game.outcome.termination.value
        )
        acknowledge(f"finish {record.id}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
