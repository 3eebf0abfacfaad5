"""The web board in a real browser (Debian's Chromium, driven by Playwright), against the real
bot process on the local Discord stand-in: players open the links the Open the board button
gives them, play by clicking and by dragging, and see each other's moves arrive live; a move
made by slash command appears in the page; a spectator cannot move; a changed or expired link
gets a page saying what to do. The Activity's sign-in runs the client's code with the Embedded
App SDK's mock against the same bot.

One bot process and one browser serve the whole module. Every wait is for a condition (a piece
on a square, a sentence on the page), never for a length of time. Screenshots (desktop 1280x800
and phone 390x844) are written to ``TAFL_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from e2e_support import WAIT, World, game_number, open_world, printed_log
from fakediscord import FakeChannel, FakeMessage, FakeUser
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from pg_server import free_port
from web_browsing import (
    CHROMIUM,
    DESKTOP,
    HAVE_CHROMIUM,
    PHONE,
    centre,
    click_move,
    drag_move,
    focused_label,
    open_page,
    settled,
    shows_piece,
    status,
)
from web_build import installed_once, npm
from web_support import link_url

from bot.discord_bot.web import links as web_links
from bot.engine import Game, Piece, parse_square, square_name

playwright_api = pytest.importorskip("playwright.async_api")

SECRET = "browser-test-links-key"
CLIENT_SECRET = "browser-test-client-secret"
LINE = ["d1-b1", "d3-a3", "b1-c1", "d4-d3", "c1-b1", "d3-g3", "g4-g6", "g3-g5", "b1-c1", "g5-g1"]
"""A short brandubh game (attackers first) that the king wins by escaping to g1, with a Raichi
and a Tuichi on the way (tests/test_bot_e2e.py finds such lines with the engine)."""

PIECES = {Piece.ATTACKER: "a", Piece.DEFENDER: "d", Piece.KING: "k"}
"""A piece as the page's board marks it (``data-piece``, the state's ``board`` letters)."""

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.timeout(180),
    pytest.mark.skipif(
        not HAVE_CHROMIUM,
        reason="no Chromium at /usr/bin/chromium (.ci/run installs Debian's)",
    ),
]


@pytest.fixture(scope="module")
def port() -> int:
    return free_port()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory, port: int) -> AsyncIterator[World]:
    env = {
        "TAFL_HTTP_HOST": "127.0.0.1",
        "TAFL_HTTP_PORT": str(port),
        "TAFL_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "TAFL_WEB_SECRET": SECRET,
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
    }
    names = ["alice", "bo", "carol", "dave", "erin", "fay", "gus", "hal", "ida", "jon", "kim"]
    names += ["lea", "max"]
    # (Each scenario's challenger is new: one challenge every 20 seconds per person.)
    async with open_world(tmp_path_factory.mktemp("web_browser"), names, env) as world:
        world.fake.oauth.client_secret = CLIENT_SECRET
        yield world


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Any]:
    async with playwright_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        await launched.close()


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("TAFL_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- acting as a player --------------------------------------------------------------------------


async def board_link(world: World, user: FakeUser, board: FakeMessage) -> str:
    """The link the Open the board button gives ``user`` (privately)."""
    clicked = await world.click(user, board, ":web")
    response = await clicked.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    return link_url(response.data)


async def start_game(
    world: World, first: FakeUser, second: FakeUser, name: str, **options: object
) -> FakeChannel:
    channel = world.channel(name)
    await world.challenge(first, second, channel, variant="brandubh", side="attackers", **options)
    return channel


async def last_board(world: World, channel: FakeChannel) -> FakeMessage:
    """The channel's newest board with live buttons."""
    boards = [
        m
        for m in world.fake.messages_in(channel)
        if not m.ephemeral and any(":web" in c for c in m.custom_ids)
    ]
    assert boards, "no live board in the channel"
    return boards[-1]


# -- scenarios -----------------------------------------------------------------------------------


async def test_two_players_play_a_whole_game_by_clicking_and_dragging(
    world: World, browser: Any, screenshots: Path, bot_log: None
) -> None:
    alice, bo = world.user("alice"), world.user("bo")
    channel = await start_game(world, alice, bo, "web-duel")
    board = await last_board(world, channel)
    pages = {
        "attackers": await open_page(browser, await board_link(world, alice, board), DESKTOP),
        "defenders": await open_page(browser, await board_link(world, bo, board), PHONE),
    }
    assert "Your move" in await status(pages["attackers"])
    await pages["attackers"].screenshot(path=screenshots / "start-desktop.png")
    game = Game("brandubh")
    for ply, move in enumerate(LINE):
        mover = pages["attackers" if ply % 2 == 0 else "defenders"]
        watcher = pages["defenders" if ply % 2 == 0 else "attackers"]
        result = game.play(move)
        target = move.split("-")[1]
        piece = PIECES[game.piece_at(parse_square(target, game.size))]
        # Both ways of moving, for both players: clicks on even full moves, drags on odd.
        taken = [square_name(square, game.size) for square in result.captures]
        if (ply // 2) % 2 == 0:
            await click_move(mover, move)
        else:
            await drag_move(mover, move, taken)
        await shows_piece(watcher, target, piece)
        await shows_piece(mover, target, piece)
        for square in taken:  # what the move took, crossed out where it stood
            await watcher.wait_for_selector(f'svg.board g.taken[data-square="{square}"]')
        if result.raichi or result.tuichi:
            await watcher.wait_for_selector(".call:not([hidden])")
            if result.tuichi:
                await settled(pages["attackers"])
                await pages["attackers"].screenshot(path=screenshots / "tuichi-desktop.png")
                await pages["defenders"].screenshot(
                    path=screenshots / "tuichi-phone.png", full_page=True
                )
        if ply < len(LINE) - 1:
            # The live region tells a screen reader the opponent's move.
            announced = await watcher.locator("[aria-live]").inner_text()
            assert move in announced, announced
    # The king escaped: each player reads it as theirs, with the rematch and the review.
    for side, said in (("defenders", "You won"), ("attackers", "You lost")):
        page = pages[side]
        await page.wait_for_selector(".status.over")
        assert await status(page) == f"{said} (king escaped).", await status(page)
        steps = await page.locator(".next").inner_text()
        assert "Rematch" in steps and "/tafl analyze" in steps, steps
        assert not page.errors, page.errors
    await settled(pages["attackers"])
    await pages["attackers"].screenshot(path=screenshots / "over-desktop.png")
    await pages["defenders"].screenshot(path=screenshots / "over-phone.png", full_page=True)
    # The channel got every move's board, as if played with /tafl move.
    await world.fake.wait_for_message(
        channel, lambda m: "g5-g1" in m.text and not m.ephemeral, timeout=WAIT
    )
    for page in pages.values():
        await page.close()


async def test_a_slash_command_move_and_the_offers_appear_live(
    world: World, browser: Any, screenshots: Path, bot_log: None
) -> None:
    carol, dave = world.user("carol"), world.user("dave")
    channel = await start_game(world, carol, dave, "web-offers")
    board = await last_board(world, channel)
    # dave wants the high-contrast theme, and the board turned round when he defends.
    await world.command(dave, channel, "preferences", theme="contrast", flip=True)
    theirs = await open_page(browser, await board_link(world, dave, board), PHONE)
    assert await theirs.locator("svg.board > rect").first.get_attribute("fill") == "#000000"
    a1, g7 = await centre(theirs, "a1"), await centre(theirs, "g7")
    assert a1[0] > g7[0] and a1[1] < g7[1], "a1 is at the top right of a flipped board"
    mine = await open_page(browser, await board_link(world, carol, board), DESKTOP)
    # carol moves with /tafl move: dave's page shows it without reloading, and its turn.
    await world.play_line(carol, dave, channel, ["d1-b1"])
    await shows_piece(theirs, "b1", "a")
    await shows_piece(mine, "b1", "a")
    await theirs.wait_for_selector(".status.mine")
    # dave answers with the keyboard alone, as a screen reader's user would.
    await theirs.locator('rect[data-square="d4"]').focus()
    await theirs.keyboard.press("ArrowUp")  # the board is turned round: d3 is above d4
    assert await focused_label(theirs) == "defender on d3"
    await theirs.keyboard.press("Enter")
    for _ in range(3):
        await theirs.keyboard.press("ArrowRight")
    assert await focused_label(theirs) == "a3: a legal move"
    await theirs.keyboard.press("Enter")
    await shows_piece(mine, "a3", "d")
    # dave asks to take it back; carol allows it on her page; both boards go back a move.
    # (The page's button says that the opponent is asked, unlike Discord's shorter one.)
    await theirs.get_by_role("button", name="Ask your opponent for a takeback").click()
    await mine.get_by_role("button", name="Allow takeback").click()
    for page in (mine, theirs):
        await shows_piece(page, "d3", "d")
    await theirs.wait_for_selector(".status.mine")
    await click_move(theirs, "d3-a3")
    await shows_piece(mine, "a3", "d")
    # carol offers a draw on her page; dave's page asks him, and he accepts there.
    await mine.get_by_role("button", name="Offer draw").click()
    await mine.wait_for_selector(".offer p")
    await theirs.get_by_role("button", name="Accept draw").wait_for()
    await theirs.screenshot(path=screenshots / "draw-offered-phone.png", full_page=True)
    await theirs.get_by_role("button", name="Accept draw").click()
    for page in (mine, theirs):
        await page.wait_for_selector(".status.over")
        assert not page.errors, page.errors
    assert "draw" in (await status(mine)).lower()
    for page in (mine, theirs):
        await page.close()


async def test_a_spectator_watches_but_cannot_move_and_sees_a_resignation(
    world: World, browser: Any, screenshots: Path, bot_log: None
) -> None:
    fay, gus, erin = world.user("fay"), world.user("gus"), world.user("erin")
    channel = await start_game(world, fay, gus, "web-watched", time="1d")
    board = await last_board(world, channel)
    watching = await open_page(browser, await board_link(world, erin, board), PHONE)
    assert "watching" in (await watching.locator(".watching").inner_text()).lower()
    # Each clock says whose it is to a screen reader.
    labels = [
        await watching.locator(f".player.{where} .clock").get_attribute("aria-label")
        for where in ("top", "bottom")
    ]
    assert str(labels[0]).startswith("gus, Defenders: time for this move"), labels
    assert str(labels[1]).startswith("fay, Attackers: time for this move"), labels
    # Clicking a piece chooses nothing: a spectator has no moves...
    await watching.mouse.click(*(await centre(watching, "d1")))
    assert await watching.locator("svg.board .choice *").count() == 0
    # ...and the server refuses a move sent by hand from the spectator's page.
    token = watching.url.rsplit("/", 1)[1]
    refused = await watching.evaluate(
        """async (token) => {
            const answer = await fetch(`../api/games/${token}/move`, {
                method: "POST", headers: {"Content-Type": "application/json"},
                body: JSON.stringify({from: "d1", to: "b1", ply: 0})});
            return [answer.status, await answer.json()];
        }""",
        token,
    )
    assert refused[0] == 403 and refused[1]["error"], refused
    await watching.screenshot(path=screenshots / "spectator-phone.png", full_page=True)
    # gus resigns on his page (a second click confirms); the spectator sees the result.
    playing = await open_page(browser, await board_link(world, gus, board), PHONE)
    winning = await open_page(browser, await board_link(world, fay, board), PHONE)
    await playing.get_by_role("button", name="Resign").click()
    await playing.get_by_role("button", name="Yes").click()
    for page in (watching, playing, winning):
        await page.wait_for_selector(".status.over")
    # Each player reads the result as theirs; the spectator the neutral one. What next: a
    # player's rematch, and the review (nothing to review here: only the attackers moved).
    assert await status(watching) == "Attackers win (resignation)"
    assert await status(playing) == "You lost: you resigned."
    assert await status(winning) == "You won: your opponent resigned."
    assert "Rematch" in await winning.locator(".next").inner_text()
    assert await watching.locator(".next li").count() == 0
    shots = (("spectator", watching, erin), ("loser", playing, gus), ("winner", winning, fay))
    for name, page, _ in shots:
        await page.screenshot(path=screenshots / f"over-{name}-phone.png", full_page=True)
    # The same pages for players whose Discord is in French.
    for name, page, user in shots:
        said = await world.fake.send_slash_command(
            user, channel, "tafl", subcommand="rules", locale="fr"
        )
        await said.wait_callback(timeout=WAIT)
        await page.reload()
        await page.wait_for_selector(".status.over")
        await page.screenshot(path=screenshots / f"over-{name}-phone-fr.png", full_page=True)
    assert await status(winning) == "Vous avez gagné : votre adversaire a abandonné."
    for _, page, _ in shots:
        assert not page.errors, page.errors
        await page.close()


async def test_a_page_keeps_its_board_while_the_server_is_away_and_catches_up(
    world: World, browser: Any, bot_log: None
) -> None:
    lea, max_ = world.user("lea"), world.user("max")
    channel = await start_game(world, lea, max_, "web-away")
    board = await last_board(world, channel)
    url = await board_link(world, max_, board)
    # The server goes away after the page opened (a restart behind a proxy): its stream is
    # refused, then its next read of the state gets the proxy's page instead of the game.
    refusing = {"events": 1, "state": 1}
    refused = asyncio.Event()
    reads = 0

    async def away(route: Any) -> None:
        nonlocal reads
        kind = "events" if route.request.url.endswith("/events") else "state"
        reads += kind == "state"
        if refusing[kind] and (kind == "events" or reads > 1):
            refusing[kind] -= 1
            await route.fulfill(status=502, content_type="text/html", body="<h1>Bad gateway</h1>")
            if kind == "state":
                refused.set()
            return
        await route.continue_()

    page = await browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.route("**/api/games/**", away)
    await page.goto(url)
    await asyncio.wait_for(refused.wait(), WAIT)
    # The board stays, saying it is reconnecting...
    await page.wait_for_selector(".connection:not(.live):not([hidden])")
    assert "reconnecting" in (await page.locator(".connection").inner_text()).lower()
    assert await page.locator("svg.board g.piece").count() > 0
    # ...and once the server is back, it shows what was played meanwhile, live again.
    await world.play_line(lea, max_, channel, ["d1-b1"])
    await shows_piece(page, "b1", "a")
    await page.wait_for_selector(".connection.live")
    await page.wait_for_selector(".status.mine")
    assert not errors, errors
    await page.close()


class _SignedLongAgo(TimestampSigner):
    """Signs as the bot does, thirteen hours ago (links last twelve)."""

    def get_timestamp(self) -> int:
        return int(time.time()) - 13 * 3600


async def test_a_changed_or_expired_link_gets_a_page_saying_what_to_do(
    world: World, browser: Any, port: int, screenshots: Path, bot_log: None
) -> None:
    hal, ida = world.user("hal"), world.user("ida")
    channel = await start_game(world, hal, ida, "web-links")
    board = await last_board(world, channel)
    good = await board_link(world, ida, board)
    forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    payload = {"g": game_number(board), "u": ida.id, "r": "p"}
    expired = f"http://127.0.0.1:{port}/play/" + str(
        URLSafeTimedSerializer(SECRET, salt=web_links.SALT, signer=_SignedLongAgo).dumps(payload)
    )
    page = await browser.new_page(viewport=PHONE)
    for url, status_code, words in ((forged, 403, "not valid"), (expired, 410, "expired")):
        answer = await page.goto(url)
        assert answer is not None and answer.status == status_code, (url, answer and answer.status)
        text = await page.locator("body").inner_text()
        assert words in text.lower() and "Open the board" in text, text
        # Styled as the board's pages: its dark colours and system font, not a bare page.
        await page.locator("main.message h1").wait_for()
        looks = await page.evaluate(
            "[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).fontFamily]"
        )
        assert looks[0] == "rgb(52, 32, 20)" and looks[1].startswith("system-ui"), looks
    await page.screenshot(path=screenshots / "expired-phone.png", full_page=True)
    await page.close()
    # A browser in French, with a link that names no one, reads the page in French.
    french = await browser.new_page(viewport=PHONE, locale="fr-FR")
    await french.goto(forged)
    text = await french.locator("main.message").inner_text()
    assert "Ce lien n'est pas valide" in text, text
    # What to do is set apart from why.
    assert "Ouvrir le plateau" in await french.locator("main.message p.next").inner_text()
    await french.screenshot(path=screenshots / "forged-phone-fr.png", full_page=True)
    await french.close()


async def test_the_activity_signs_in_with_the_sdks_mock_and_opens_the_players_game(
    world: World, port: int, tmp_path_factory: pytest.TempPathFactory, bot_log: None
) -> None:
    command = npm()
    if command is None:
        pytest.skip("npm is not installed here: the Activity's client test needs Node")
    web = installed_once(tmp_path_factory.getbasetemp())
    jon, kim = world.user("jon"), world.user("kim")
    channel = await start_game(world, jon, kim, "web-activity")
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/activity?frame_id=f&instance_id=i") as answer:
            shell = await answer.text()
        async with http.get(f"{base}/static/activity.js") as answer:
            assert answer.status == 200 and "javascript" in answer.content_type
    found = re.search(r'data-client-id="(\d+)"', shell)
    assert found, shell
    out = tmp_path_factory.mktemp("activity") / "signed.json"
    env = {
        **os.environ,
        "TAFL_TEST_SERVER": base + "/",
        "TAFL_TEST_CLIENT_ID": found.group(1),
        "TAFL_TEST_CODE": world.fake.oauth.authorize(jon),
        "TAFL_TEST_CHANNEL_ID": str(channel.id),
        "TAFL_TEST_GUILD_ID": str(world.guild.id),
        "TAFL_TEST_OUT": str(out),
    }
    ran = await asyncio.to_thread(
        subprocess.run,
        [command, "test", "--silent"],
        cwd=web,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0 and "# pass 1" in ran.stdout, ran.stdout + ran.stderr
    signed = json.loads(out.read_text())
    assert signed["token"], signed
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{base}/api/games/{signed['token']}/state") as answer,
    ):
        state = await answer.json()
    assert state["you"] == "attackers" and state["players"]["attackers"]["name"] == "jon"
