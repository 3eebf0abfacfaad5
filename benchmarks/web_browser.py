"""A move on the web board, from the click to the other player's browser:
`.venv/bin/python benchmarks/web_browser.py [--smoke]`.

Starts the local Discord stand-in and the real bot (as ``benchmarks/web.py`` does), opens both
players' links in Debian's Chromium (``/usr/bin/chromium``, driven by Playwright), and plays
a Copenhagen game by clicks: for each move, the time from the click on the target square
(the browser's pointer event, in the mover's page) to the moved piece drawn on the other
player's page (a MutationObserver there), both read on the browser's clock. Target: median
under 100 ms on loopback. Status 1: the target was missed; 2: something did not work.
``--smoke`` plays a few moves and prints the same figures without judging them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests
sys.path.insert(0, str(ROOT / "benchmarks"))

from fakediscord import FakeDiscord  # noqa: E402

from web import PACE, WAIT, Bench, BenchFailure, free_port, web_bot  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
TARGET_MS = 100.0
FULL_MOVES = 40
SMOKE_MOVES = 4

WATCH = """(square) => {
    // Note when the piece arrives on `square`, on the browser's clock.
    delete document.body.dataset.arrived;
    const board = document.querySelector("svg.board");
    const seen = () => board.querySelector(`g.piece[data-square="${square}"]`);
    const observer = new MutationObserver(() => {
        if (seen()) {
            document.body.dataset.arrived = String(performance.timeOrigin + performance.now());
            observer.disconnect();
        }
    });
    observer.observe(board, {childList: true, subtree: true});
}"""
CLICKED = """() => {
    // Note when the next press on the board happens, on the browser's clock.
    delete document.body.dataset.clicked;
    document.querySelector("svg.board").addEventListener("pointerdown", () => {
        document.body.dataset.clicked = String(performance.timeOrigin + performance.now());
    }, {once: true, capture: true});
}"""


async def press(page: Any, square: str) -> None:
    box = await page.locator(f'rect[data-square="{square}"]').bounding_box()
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


async def stamp(page: Any, name: str) -> float:
    await page.wait_for_selector(f"body[data-{name}]", timeout=WAIT * 1000)
    return float(await page.locator("body").get_attribute(f"data-{name}"))


async def play(bench: Bench, browser: Any, moves: int) -> list[float]:
    """``moves`` moves of a new game, each clicked on its player's page; the milliseconds
    from each target's click to the piece drawn on the other page."""
    _, links, _ = await bench.new_game()
    pages = []
    for token in links.values():
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await page.goto(f"{bench.base}/play/{token}")
        await page.wait_for_selector("svg.board g.piece")
        pages.append((token, page))
    times = []
    for _ in range(moves):
        states = [await bench.state(token) for token, _ in pages]
        if states[0]["status"] != "playing":
            break
        # The challenger's side was drawn at random: the mover is whoever's turn it is.
        mine = 0 if states[0]["you"] == states[0]["turn"] else 1
        mover, watcher = pages[mine][1], pages[1 - mine][1]
        await mover.wait_for_selector(".status.mine")
        origin, target = bench.pick(states[mine])
        await watcher.evaluate(WATCH, target)
        await press(mover, origin)
        await mover.evaluate(CLICKED)
        await press(mover, target)
        times.append(await stamp(watcher, "arrived") - await stamp(mover, "clicked"))
        # Players' pace, not timed: the bot allows a person 2 moves a second after a burst.
        await asyncio.sleep(PACE)
    for _, page in pages:
        await page.close()
    return times


async def run(moves: int, smoke: bool) -> int:
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import async_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            guild = fake.create_guild("Bench")
            users = [fake.create_user(f"p{i}", guild=guild) for i in range(2)]
            bot = web_bot(fake, guild, Path(folder), port)
            await bot.start(fake, guild)
            try:
                async with aiohttp.ClientSession() as http, async_playwright() as playwright:
                    browser = await playwright.chromium.launch(executable_path=str(CHROMIUM))
                    try:
                        times = await play(Bench(fake, guild, base, http, users), browser, moves)
                    except PlaywrightError as error:
                        raise BenchFailure(f"the browser: {error}") from None
                    finally:
                        await browser.close()
            finally:
                code = await bot.stop()
            if code != 0:
                print(bot.log_text(), file=sys.stderr)
                raise BenchFailure(f"the bot exited with {code}")
    if not times:
        raise BenchFailure("no move was timed")
    median = statistics.median(times)
    p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
    verdict = "ok" if median < TARGET_MS else "MISSED"
    print(
        f"click to the other browser, over {len(times)} moves: median {median:.1f} ms, "
        f"p95 {p95:.1f} ms [target < {TARGET_MS:g} ms: {verdict}]"
    )
    return 0 if smoke or verdict == "ok" else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a short run that checks it works")
    args = parser.parse_args()
    moves = SMOKE_MOVES if args.smoke else FULL_MOVES
    if not CHROMIUM.exists():
        print(
            "failed: no Chromium at /usr/bin/chromium (apt-get install chromium)", file=sys.stderr
        )
        return 2
    try:
        return asyncio.run(asyncio.wait_for(run(moves, args.smoke), 600))
    except (BenchFailure, TimeoutError) as failure:
        print(f"failed: {failure!r}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
