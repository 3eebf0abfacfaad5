"""One move from the Move menu to the posted board, followed through the real bot process: the
Discord layer's path stays short and straight (adapter, service, composition, table)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from e2e_support import ROOT, WAIT, BotProcess, World, bot_env
from fakediscord import FakeDiscord
from move_path import summary

MOST_MODULES = 4
MOST_TURNS_BACK = 8


@pytest.mark.xfail(strict=True, reason="issue 34: the path is being straightened")
async def test_a_move_from_the_menu_to_its_board_takes_a_straight_path(tmp_path: Path) -> None:
    out = tmp_path / "path.json"
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Tafl Club")
        ann, bo = fake.create_user("ann", guild=guild), fake.create_user("bo", guild=guild)
        env = bot_env(fake, guild, tmp_path, {"TAFL_MOVE_PATH_OUT": str(out)})
        bot = BotProcess(env, tmp_path / "bot.log", entry=(str(ROOT / "tests" / "move_path.py"),))
        await bot.start(fake, guild)
        try:
            world = World(fake, guild, bot, {"ann": ann, "bo": bo})
            channel = world.channel("path")
            board = await world.challenge(ann, bo, channel, variant="brandubh", side="attackers")
            click = await world.click(ann, board, ":move")
            menu = click.original_message
            assert menu is not None, click.responses
            pieces = menu.custom_ids[0]
            piece = (menu.component(pieces) or {})["options"][0]["value"]
            choice = await fake.choose_select(ann, menu, pieces, [piece])
            await choice.wait_callback(timeout=WAIT)
            mark = fake.checkpoint()
            targets = menu.custom_ids[0]
            target = (menu.component(targets) or {})["options"][0]["value"]
            await fake.choose_select(ann, menu, targets, [target])
            await world.board_after(channel, mark, "played `")
        finally:
            assert await bot.stop() == 0, bot.log_text()
    paths = json.loads(out.read_text())
    assert len(paths) == 1, paths
    modules, between, turns = summary(paths[0])
    crossing = [call for call in paths[0] if call[0] != call[1]]
    print(f"{len(modules)} modules {modules}, {between} calls between them, {turns} turns back")
    print("\n".join(map(str, crossing)), file=sys.stderr)
    assert len(modules) <= MOST_MODULES and turns <= MOST_TURNS_BACK, (modules, turns, crossing)
