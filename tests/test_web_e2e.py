"""End-to-end: the web board of the real bot process (``TAFL_PUBLIC_URL``), asked over real
HTTP while players use the local Discord stand-in.

* The Open the board button answers privately with a link signed for the person who clicked:
  a player's link moves, a spectator's (anyone else's) only watches.
* A move made with ``/tafl move`` reaches a page watching the game as a Server-Sent Event; a
  move made on the page goes through the same service and the channel gets its board.
* Offers and resignations on the page are told in the channel as the buttons tell them.
* Forged and expired links get a clear page; the page carries its security headers.
* The Activity signs in by Discord's OAuth2 code exchange (on the stand-in); ``/tafl live``
  launches the Activity where the app has one, and answers with a link where it has not.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pg_server
import pseudo_locale
import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, game_number, open_world, printed_log
from fakediscord import FakeDiscord, FakeMessage
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from web_support import Events, token_of

from bot.discord_bot.web.links import SALT, derived_key
from bot.i18n.language import unpseudo

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(240)]

PORT = pg_server.free_port()
BASE = f"http://127.0.0.1:{PORT}"
TIMEOUT = aiohttp.ClientTimeout(total=WAIT)
NAMES = ["ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee", "mo"]
"""Each test's players challenge once (the bot allows one challenge every 20 s each)."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    folder = tmp_path_factory.mktemp("web_e2e")
    extra = {
        "TAFL_HTTP_PORT": str(PORT),
        "TAFL_HTTP_HOST": "127.0.0.1",
        "TAFL_PUBLIC_URL": BASE,
        "TAFL_AI_WORKERS": "1",
    }
    async with open_world(folder, NAMES, extra, env_from_fake=secret, activities=True) as w:
        yield w


def secret(fake: FakeDiscord) -> dict[str, str]:
    """The application's client secret, as the operator copies it from the portal."""
    return {"DISCORD_CLIENT_SECRET": fake.oauth.client_secret}


@pytest.fixture(autouse=True)
def bot_log(world: World) -> Iterator[None]:
    with printed_log(world):
        yield


async def link_for(world: World, user: str, board: FakeMessage) -> str:
    """What ``user`` gets clicking Open the board: the link button's address."""
    clicked = await world.click(world.user(user), board, ":web")
    answer = await clicked.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    # How long the link lasts, as the links are made (twelve hours).
    assert "The link works for 12 hours." in str(answer.data.get("content")), answer.data
    buttons = [c for row in answer.data.get("components", []) for c in row.get("components", [])]
    urls = [c["url"] for c in buttons if c.get("style") == 5]
    assert len(urls) == 1, answer.data
    return str(urls[0])


async def request(
    method: str, path: str, body: object | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    async with (
        aiohttp.ClientSession(timeout=TIMEOUT) as http,
        http.request(method, BASE + path, json=body, headers=headers) as answer,
    ):
        # A pseudo-locale run's pages are in the pseudo-locale: compare their English.
        return answer.status, dict(answer.headers), unpseudo(await answer.text())


async def state(token: str) -> dict[str, Any]:
    status, _, text = await request("GET", f"/api/games/{token}/state")
    assert status == 200, text
    found: dict[str, Any] = json.loads(text)
    return found


async def game(world: World, name: str, first: str, second: str) -> tuple[FakeMessage, Any]:
    """A new game between ``first`` (who challenges) and ``second`` in a channel of its own."""
    channel = world.channel(name)
    board = await world.challenge(world.user(first), world.user(second), channel)
    return board, channel


def mover_and_waiter(first: dict[str, Any], second: dict[str, Any]) -> tuple[str, str]:
    return ("a", "b") if first["you"] == first["turn"] else ("b", "a")


async def test_open_the_board_gives_each_person_their_own_link(world: World) -> None:
    board, _ = await game(world, "web-links", "ann", "ben")
    ann, ben, cy = [await link_for(world, name, board) for name in ("ann", "ben", "cy")]
    assert len({ann, ben, cy}) == 3
    assert ann.startswith(BASE + "/play/")
    ann_state, ben_state, cy_state = [await state(token_of(u)) for u in (ann, ben, cy)]
    assert {ann_state["you"], ben_state["you"]} == {"attackers", "defenders"}
    assert cy_state["you"] is None and cy_state["legal"] == {}
    mover = ann_state if ann_state["you"] == ann_state["turn"] else ben_state
    assert mover["legal"], "the player to move is shown their legal moves"
    assert cy_state["game"] == game_number(board)
    assert len(cy_state["board"]) == cy_state["size"] == len(cy_state["board"][0])
    # The page: the shell, its headers, and its client's files.
    status, headers, text = await request("GET", "/play/" + token_of(ann))
    assert status == 200 and '<div id="app"' in text
    assert "frame-ancestors https://discord.com" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"
    # A spectator's link cannot move, whatever it asks.
    origin = next(iter(mover["legal"]))
    move = {"from": origin, "to": mover["legal"][origin][0]["to"], "ply": 0}
    status, _, text = await request("POST", f"/api/games/{token_of(cy)}/move", move)
    assert status == 403 and json.loads(text)["kind"] == "spectator"
    status, _, text = await request(
        "POST", f"/api/games/{token_of(cy)}/action", {"action": "resign", "ply": 0}
    )
    assert status == 403


async def test_a_slash_command_move_reaches_the_page_and_a_page_move_the_channel(
    world: World,
) -> None:
    board, channel = await game(world, "web-live", "cy", "dee")
    links = {name: token_of(await link_for(world, name, board)) for name in ("cy", "dee")}
    states = {name: await state(token) for name, token in links.items()}
    mover = next(name for name, s in states.items() if s["you"] == s["turn"])
    waiter = "dee" if mover == "cy" else "cy"
    async with Events(links[waiter], BASE) as watching:
        first = await watching.until(0)
        assert first["ply"] == 0 and first["you"] == states[waiter]["you"]
        assert watching.headers["Content-Type"].startswith("text/event-stream")
        # A move by slash command: the waiting player's page hears of it.
        legal = states[mover]["legal"]
        origin = next(iter(legal))
        target = legal[origin][0]["to"]
        await world.command(world.user(mover), channel, "move", move=f"{origin}-{target}")
        heard = await watching.until(1)
        assert heard["last"]["from"] == origin and heard["last"]["to"] == target
        assert heard["turn"] == states[waiter]["you"] and heard["legal"]
    # A move on the page: answered with the new state; the channel gets its board image.
    legal = heard["legal"]
    origin = next(iter(legal))
    target = legal[origin][0]["to"]
    mark = world.fake.checkpoint()
    async with Events(links[mover], BASE) as watching:
        await watching.until(1)
        move = {"from": origin, "to": target, "ply": 1}
        status, _, text = await request("POST", f"/api/games/{links[waiter]}/move", move)
        assert status == 200, text
        assert json.loads(text)["state"]["ply"] == 2
        assert (await watching.until(2))["last"]["to"] == target
    posted = await world.fake.wait_for_message(
        channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark, timeout=WAIT
    )
    attachment_is_png(posted)
    assert f"{origin}-{target}" in posted.text
    # The same click again (a double click): refused, the position has moved on.
    status, _, text = await request("POST", f"/api/games/{links[waiter]}/move", move)
    assert status == 409 and json.loads(text)["kind"] == "MoveOvertaken", text
    assert json.loads(text)["error"]
    # Out of turn: refused in words.
    status, _, text = await request("POST", f"/api/games/{links[waiter]}/move", {**move, "ply": 2})
    assert status == 409 and json.loads(text)["kind"] == "NotYourTurn", text


async def test_offers_and_resigning_on_the_page_are_told_in_the_channel(world: World) -> None:
    board, channel = await game(world, "web-offers", "eve", "fay")
    links = {name: token_of(await link_for(world, name, board)) for name in ("eve", "fay")}
    mark = world.fake.checkpoint()
    status, _, text = await request(
        "POST", f"/api/games/{links['eve']}/action", {"action": "offer_draw", "ply": 0}
    )
    assert status == 200, text
    assert json.loads(text)["state"]["offers"]["draw"] is not None
    offer = await world.fake.wait_for_message(
        channel, lambda m: "offers a draw" in m.text, after=mark, timeout=WAIT
    )
    assert any(cid.endswith(":no") for cid in offer.custom_ids)
    status, _, text = await request(
        "POST", f"/api/games/{links['fay']}/action", {"action": "decline_draw", "ply": 0}
    )
    assert status == 200, text
    await world.fake.wait_until(
        lambda: True if "declined" in offer.text and not offer.custom_ids else None, timeout=WAIT
    )
    mark = world.fake.checkpoint()
    status, _, text = await request(
        "POST", f"/api/games/{links['fay']}/action", {"action": "resign", "ply": 0}
    )
    assert status == 200, text
    assert json.loads(text)["state"]["status"] == "over"
    final = await world.fake.wait_for_message(
        channel, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    assert "resign" in final.text.lower()


async def test_forged_and_expired_links_get_a_clear_page(world: World) -> None:
    board, _ = await game(world, "web-forged", "gus", "hal")
    token = token_of(await link_for(world, "gus", board))
    forged = ("A" if token[0] != "A" else "B") + token[1:]
    status, headers, text = await request("GET", "/play/" + forged)
    assert status == 403 and "Open the board" in text
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")
    if not pseudo_locale.enabled():  # there every reader gets the pseudo-locale
        status, _, text = await request(
            "GET", "/play/" + forged, headers={"Accept-Language": "fr-FR,fr;q=0.9"}
        )
        assert status == 403 and 'lang="fr"' in text
    # A link the bot signed (its key derived from its token) thirteen hours ago.
    key = derived_key(world.fake.world.token)

    class Past(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 13 * 3600

    old = URLSafeTimedSerializer(key, salt=SALT, signer=Past).dumps(
        {"g": game_number(board), "u": world.user("gus").id, "r": "p"}
    )
    status, _, text = await request("GET", "/play/" + old)
    assert status == 410 and "expired" in text
    status, _, text = await request("GET", f"/api/games/{old}/state")
    assert status == 410 and json.loads(text)["kind"] == "expired"
    # Made for ann in one game, it cannot be turned into another game's.
    other = URLSafeTimedSerializer("not the key", salt=SALT).dumps({"g": 1, "u": 1, "r": "p"})
    status, _, _ = await request("GET", f"/api/games/{other}/state")
    assert status == 403


async def test_the_activity_signs_in_with_discords_code_exchange(world: World) -> None:
    _, channel = await game(world, "web-activity", "ivy", "jon")
    status, _, text = await request("GET", "/activity")
    assert status == 200 and 'data-mode="activity"' in text
    assert f'data-client-id="{world.fake.world.application_id}"' in text
    # Discord opens the Activity at its URL mapping's root, with its launch parameters.
    status, _, text = await request("GET", "/?instance_id=i-1&frame_id=f-1&platform=desktop")
    assert status == 200 and 'data-mode="activity"' in text and 'data-base="."' in text
    status, _, text = await request("GET", "/")
    assert status == 200 and "Open the board" in text and "<script" not in text
    code = world.fake.oauth.authorize(world.user("ivy"))
    body = {"code": code, "channel_id": str(channel.id), "guild_id": str(world.guild.id)}
    status, _, text = await request("POST", "/api/activity/token", body)
    assert status == 200, text
    signed = json.loads(text)
    assert signed["access_token"] and signed["you"] is True
    assert (await state(signed["token"]))["you"] in ("attackers", "defenders")
    # A code is good once.
    status, _, text = await request("POST", "/api/activity/token", body)
    assert status == 401 and json.loads(text)["error"]
    # Someone else in the channel watches.
    code = world.fake.oauth.authorize(world.user("kim"))
    status, _, text = await request("POST", "/api/activity/token", {**body, "code": code})
    watched = json.loads(text)
    assert status == 200 and watched["you"] is False
    assert (await state(watched["token"]))["you"] is None
    # A channel without a game: no token, and a sentence saying so.
    code = world.fake.oauth.authorize(world.user("kim"))
    empty = world.channel("web-empty")
    status, _, text = await request(
        "POST", "/api/activity/token", {**body, "code": code, "channel_id": str(empty.id)}
    )
    assert status == 200 and json.loads(text)["token"] is None and json.loads(text)["error"]
    exchanged = world.fake.oauth.exchanges[0]
    assert exchanged["grant_type"] == "authorization_code"
    assert exchanged["client_id"] == str(world.fake.world.application_id)


async def test_play_inside_discord_launches_the_activity_or_gives_the_link(world: World) -> None:
    board, _ = await game(world, "web-launch", "lee", "mo")
    clicked = await world.click(world.user("lee"), board, ":web")
    answer = await clicked.wait_response(lambda r: r.ephemeral, timeout=WAIT)
    inside = [
        c["custom_id"]
        for row in answer.data.get("components", [])
        for c in row.get("components", [])
        if "custom_id" in c
    ]
    assert inside == [f"tafl:g:{game_number(board)}:activity"], answer.data
    assert answer.message is not None
    launched = await world.fake.click_button(world.user("lee"), answer.message, inside[0])
    await launched.wait_callback(timeout=WAIT)
    assert launched.callback is not None and launched.callback.type == 12
    # Where Discord will not open it, the link again.
    world.fake.activities = False
    try:
        again = await world.fake.click_button(world.user("lee"), answer.message, inside[0])
        reply = await again.wait_response(lambda r: r.ephemeral, timeout=WAIT)
        assert "/play/" in json.dumps(reply.data)
        assert reply.data["content"].startswith("Discord cannot open the board inside"), reply.data
    finally:
        world.fake.activities = True
