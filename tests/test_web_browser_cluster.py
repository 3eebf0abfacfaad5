"""The web board in a real browser on a cluster: two bot processes on one PostgreSQL (one shard
each), each serving pages on its own port, as a proxy spreads them. The page of a game that the
other process plays follows its moves live (PostgreSQL's notifications) and plays in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pg_server
import pytest
from e2e_support import WAIT, BotProcess, World, bot_env, split_log
from fakediscord import FakeDiscord
from test_web_browser import CHROMIUM, DESKTOP, click_move, open_page, shows_piece
from web_support import link_url

playwright_api = pytest.importorskip("playwright.async_api")

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="no Chromium at /usr/bin/chromium (.ci/run installs Debian's)",
    ),
]


async def test_a_page_served_by_the_other_process_follows_and_plays_the_game(
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
            path = "/play/" + link_url(answer.data).rsplit("/", 1)[1]
            async with playwright_api.async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM))
                try:
                    await play_on_the_south(world, browser, f"http://127.0.0.1:{ports[1]}{path}")
                finally:
                    await browser.close()
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


async def play_on_the_south(world: World, browser: Any, url: str) -> None:
    """ben's page, served by the south's process, which does not play the north's games."""
    ann, ben = world.user("ann"), world.user("ben")
    channel = world.existing("duel")
    page = await open_page(browser, url, DESKTOP)
    # ann moves with /tafl move on the north: the south's page shows it live.
    await world.play_line(ann, ben, channel, ["d1-b1"])
    await shows_piece(page, "b1", "a")
    await page.wait_for_selector(".status.mine")
    # ben answers on the page: played by the south, its board posted in the north's channel.
    mark = world.fake.checkpoint()
    await click_move(page, "d3-a3")
    posted = await world.fake.wait_for_message(
        channel, lambda m: "d3-a3" in m.text and bool(m.attachments), after=mark, timeout=WAIT
    )
    assert not posted.ephemeral
    # The north caught up: ann's next move there counts, and the page shows it.
    await world.play_line(ann, ben, channel, ["b1-c1"])
    await shows_piece(page, "c1", "a")
    assert not page.errors, page.errors
    await page.close()
