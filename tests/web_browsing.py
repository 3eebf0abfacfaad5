"""Acting on the web board in a real browser (Debian's Chromium, driven by Playwright), for
the browser tests: open a page, find a square, play a move by clicks or by a drag, wait for
what the page shows. Every wait is for a condition, never for a length of time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from e2e_support import WAIT, World

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium (.ci/run installs it where missing); Playwright brings no browser here."""
HAVE_CHROMIUM = CHROMIUM.exists()
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


async def open_page(browser: Any, url: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = await browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(url)
    await page.wait_for_selector("svg.board g.piece")
    return page


async def centre(page: Any, square: str) -> tuple[float, float]:
    box = await page.locator(f'rect[data-square="{square}"]').bounding_box()
    assert box is not None, square
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def click_move(page: Any, move: str) -> None:
    """Play ``move`` by clicking its piece, then its square."""
    origin, target = move.split("-")
    await page.mouse.click(*(await centre(page, origin)))
    await page.wait_for_selector("svg.board .choice circle")
    await page.mouse.click(*(await centre(page, target)))


async def drag_move(page: Any, move: str, captures: Sequence[str] = ()) -> None:
    """Play ``move`` by dragging its piece onto its square; with ``captures``, check on the way
    that the target is marked as a capture and that the pieces it would take are crossed out."""
    origin, target = move.split("-")
    x, y = await centre(page, origin)
    tx, ty = await centre(page, target)
    await page.mouse.move(x, y)
    await page.mouse.down()
    if captures:
        await page.wait_for_selector(f'svg.board .capture-target[data-square="{target}"]')
    await page.mouse.move((x + tx) / 2, (y + ty) / 2, steps=4)
    await page.mouse.move(tx, ty, steps=4)
    for square in captures:
        await page.wait_for_selector(f'svg.board .would-take[data-square="{square}"]')
    await page.mouse.up()


async def shows_piece(page: Any, square: str, piece: str) -> None:
    """Wait until the page's board has ``piece`` ("a", "d" or "k") on ``square``."""
    await page.wait_for_selector(
        f'svg.board g.piece[data-square="{square}"][data-piece="{piece}"]', timeout=WAIT * 1000
    )


async def settled(page: Any) -> None:
    """Wait until no piece is sliding to its square (before a screenshot)."""
    await page.locator("svg.board g.sliding").wait_for(state="detached")


async def focused_label(page: Any) -> str:
    """What a screen reader says of the square the keyboard is on."""
    return str(await page.evaluate("document.activeElement.getAttribute('aria-label')"))


async def status(page: Any) -> str:
    return str(await page.locator(".status").inner_text())


async def browser_on_the_south(world: World, url: str) -> None:
    """ben's page in Chromium, served by the process that does not play the game (for
    tests/test_web_cluster.py, after ann's a2-c2): it shows the other process's moves live, and
    a move clicked on it is played there and posted in the game's channel, after which ann's next
    move on the other process counts."""
    if not HAVE_CHROMIUM:
        return
    from playwright.async_api import async_playwright

    ann, ben = world.user("ann"), world.user("ben")
    channel = world.existing("duel")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            page = await open_page(browser, url, DESKTOP)
            await shows_piece(page, "c2", "a")
            await page.wait_for_selector(".status.mine")
            mark = world.fake.checkpoint()
            await click_move(page, "d3-a3")
            await world.fake.wait_for_message(
                channel,
                lambda m: "d3-a3" in m.text and bool(m.attachments),
                after=mark,
                timeout=WAIT,
            )
            await world.play_line(ann, ben, channel, ["c2-c1"])
            await shows_piece(page, "c1", "a")
            assert not page.errors, page.errors
        finally:
            await browser.close()
