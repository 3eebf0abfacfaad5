"""The web board in a cluster: two bot processes on one PostgreSQL (one shard each), each
serving the web board on its own port, as a proxy or an Ingress spreads pages over them.

A page served by the process that does not play a game hears of the game's moves made on the
other (PostgreSQL's notifications); a move made on that page is played through the same service,
its board posted in the channel, and the process that plays the game catches up with it (the
next ``/tafl move`` there is not refused as overtaken).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pg_server
import pytest
from e2e_support import WAIT, BotProcess, World, attachment_is_png, bot_env, split_log
from fakediscord import FakeDiscord
from web_browsing import browser_on_the_south
from web_support import Events, link_url, token_of

pytestmark = pytest.mark.timeout(240)


async def post(port: int, path: str, body: object) -> tuple[int, dict[str, Any]]:
    timeout = aiohttp.ClientTimeout(total=WAIT)
    async with (
        aiohttp.ClientSession(timeout=timeout) as http,
        http.post(f"http://127.0.0.1:{port}{path}", json=body) as answer,
    ):
        return answer.status, json.loads(await answer.text())


async def test_a_page_on_one_process_follows_and_plays_a_game_of_the_other(
    tmp_path: Path, schema_url: str
) -> None:
    ports = [pg_server.free_port(), pg_server.free_port()]
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        north = fake.create_guild("North", shard=(0, 2))
        ann = fake.create_user("ann", guild=north)
        ben = fake.create_user("ben", guild=north)
        bots = [
            BotProcess(
                bot_env(
                    fake, None, tmp_path,
                    {"TAFL_TIMER_TICK": "0.5", "TAFL_DATABASE": schema_url,
                     "TAFL_SHARD_COUNT": "2", "TAFL_SHARD_IDS": str(shard),
                     "TAFL_HTTP_PORT": str(ports[shard]), "TAFL_HTTP_HOST": "127.0.0.1",
                     "TAFL_PUBLIC_URL": "https://tafl.example.org", "TAFL_AI_WORKERS": "1"},
                ),
                tmp_path / f"bot{shard}.log",
            )
            for shard in (0, 1)
        ]  # fmt: skip
        try:
            for bot in bots:
                await bot.start(fake, None)
            await fake.wait_until_connected(identifies=2, shard_count=2, timeout=WAIT)
            world = World(fake, north, bots[0], {"ann": ann, "ben": ben})
            channel = world.channel("duel")
            board = await world.challenge(ann, ben, channel, variant="brandubh", side="attackers")
            clicked = await world.click(ben, board, ":web")
            answer = await clicked.wait_response(lambda r: r.ephemeral, timeout=WAIT)
            url = link_url(answer.data)
            assert url.startswith("https://tafl.example.org/play/")
            token = token_of(url)
            # The page of the defender (ben), served by the south's process, which does not
            # play the north's games.
            async with Events(token, f"http://127.0.0.1:{ports[1]}") as page:
                assert (await page.until(0))["you"] == "defenders"
                await world.command(ann, channel, "move", move="a4-a2")
                heard = await page.until(1)
                assert heard["last"] == {"from": "a4", "to": "a2", "captures": []}
                assert heard["turn"] == "defenders" and heard["legal"]
                # ben moves on that page: played by the south, posted in the north's channel.
                mark = fake.checkpoint()
                move = {"from": "d5", "to": "f5", "ply": 1}
                status, said = await post(ports[1], f"/api/games/{token}/move", move)
                assert status == 200, said
                assert (await page.until(2))["last"]["to"] == "f5"
            posted = await fake.wait_for_message(
                channel, lambda m: bool(m.attachments), after=mark, timeout=WAIT
            )
            attachment_is_png(posted)
            assert "d5-f5" in posted.text
            # The north, which plays the game, caught up: ann's next move counts.
            [next_board] = await world.play_line(ann, ben, channel, ["a2-c2"])
            assert "a2-c2" in next_board.text
            # The same in a real browser (where the machine has Chromium, as CI does).
            await browser_on_the_south(world, f"http://127.0.0.1:{ports[1]}/play/{token}")
        finally:
            codes = [await bot.stop() for bot in bots]
        logs = [bot.log_text() for bot in bots]
        for log in logs:
            print(log)
        fake.assert_healthy()
        assert codes == [0, 0]
        for log in logs:
            errors = [e for e in split_log(log) if "Traceback" in e or " ERROR " in e]
            assert not errors, errors
