"""The web board's parts on their own: its links (signed, expiring, one person and one game),
its flood limit, the state a page draws (plain data, the same geometry as the images), the
words it reads, and what a web action sends to the channel instead of answering a click."""

from __future__ import annotations

import gzip
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp.web
import pytest
from aiohttp.test_utils import TestClient, TestServer, make_mocked_request
from itsdangerous import URLSafeTimedSerializer
from test_compose_board import ANN, BO, moved, record, state

from bot.discord_bot.app.games import Offer
from bot.discord_bot.app.watch import Shown
from bot.discord_bot.compose import board, web
from bot.discord_bot.compose.board import GameAction
from bot.discord_bot.compose.post import (
    Answer,
    BoardPost,
    Button,
    Edit,
    LinkButton,
    Message,
    OfferPost,
    Place,
    Post,
    Update,
)
from bot.discord_bot.web.links import SALT, Link, LinkRefused, Links, derived_key
from bot.discord_bot.web.page import StaticFiles, shell
from bot.discord_bot.web.routes import RateLimit, WebFront, base_of, client_address
from bot.engine import Game, Side, square_name
from bot.i18n.language import Languages
from bot.storage import GameResult, GameStatus, PlayerPreferences, TableEnding

KEY = derived_key("the bot's token")
GZIP = {"Accept-Encoding": "gzip"}


def test_a_link_opens_its_game_for_its_person_only() -> None:
    links = Links(KEY, "https://tafl.example.org/")
    url = links.url(12, 1001, "p")
    assert url.startswith("https://tafl.example.org/play/")
    found = links.read(url.rsplit("/", 1)[1])
    assert (found.game_id, found.user_id, found.player) == (12, 1001, True)
    watching = links.read(links.token(12, 1002, "s"))
    assert not watching.player
    # Changed by a character, or signed with another key: forged.
    token = links.token(12, 1001, "p")
    for forged in (
        ("A" if token[0] != "A" else "B") + token[1:],  # (a signature's last character
        token[:-5] + ("A" if token[-5] != "A" else "B") + token[-4:],  # has spare bits)
        URLSafeTimedSerializer("another key", salt=SALT).dumps({"g": 12, "u": 1001, "r": "p"}),
        URLSafeTimedSerializer(KEY, salt=SALT).dumps({"g": "12", "u": 1001, "r": "p"}),
        URLSafeTimedSerializer(KEY, salt=SALT).dumps([12, 1001]),
    ):
        with pytest.raises(LinkRefused) as refused:
            links.read(forged)
        assert refused.value.kind == "forged"


def test_a_link_expires() -> None:
    token = Links(KEY, "https://x").token(3, 4, "p")
    with pytest.raises(LinkRefused) as refused:
        Links(KEY, "https://x", max_age=-1).read(token)
    assert refused.value.kind == "expired"
    # Still the bot's own: it says whose it was (their page is in their language).
    assert refused.value.link == Link(3, 4, "p")


def test_the_derived_key_is_the_same_everywhere_and_is_not_the_token() -> None:
    assert derived_key("t") == derived_key("t") != derived_key("u")
    assert derived_key("t") != "t" and len(derived_key("t")) == 64


def test_the_flood_limit_lets_a_burst_through_then_refills() -> None:
    now = [0.0]
    limit = RateLimit(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limit.wait("ann") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.wait("ann") == pytest.approx(0.5)
    assert limit.wait("bo") == 0.0  # each person their own
    now[0] = 0.5
    assert limit.wait("ann") == 0.0


def shown(played: Game, **more: object) -> Shown:
    return Shown(state(played, **more), None, None, None)  # type: ignore[arg-type]


def test_the_state_is_the_board_as_the_images_draw_it() -> None:
    played = moved("d1-c1")
    found = web.state(shown(played), you=Side.DEFENDERS, now_ms=0)
    assert found["size"] == 7 and found["variant"] == "brandubh"
    rows = found["board"]
    assert isinstance(rows, list) and len(rows) == 7
    # The top row is rank 7; files a.. left to right; the move d1-c1 put an attacker on c1.
    assert rows[-1][2] == "a" and rows[-1][3] == "."
    assert rows[3][3] == "k"  # the king on his throne, d4
    assert found["squares"] == {
        "throne": ["d4"],
        "corners": ["a1", "g1", "a7", "g7"],
        "restricted": [],
    }
    assert found["turn"] == "defenders" and found["you"] == "defenders"
    assert found["last"] == {"from": "d1", "to": "c1", "captures": []}
    legal = found["legal"]
    assert isinstance(legal, dict) and legal
    targets = {move["to"] for moves in legal.values() for move in moves}
    assert all(len(square) == 2 for square in targets)
    # The other side, and a spectator, see no moves to make.
    for you in (Side.ATTACKERS, None):
        assert web.state(shown(played), you=you, now_ms=0)["legal"] == {}
    assert found["players"] == {
        "attackers": {"name": "Ann", "ai": False},
        "defenders": {"name": "Bo", "ai": False},
    }


def test_the_state_marks_captures_roads_offers_and_the_clock() -> None:
    played = Game("brandubh")
    for move in ("d2-f2", "e4-e7", "d1-d2"):
        played.play(move)
    # Defenders to move; a capturing move is listed with what it takes.
    found = web.state(shown(played), you=Side.DEFENDERS, now_ms=0)
    legal = found["legal"]
    assert isinstance(legal, dict)
    for origin, moves in legal.items():
        for move in moves:  # what each move would capture: what playing it captures
            result = played.copy().play(f"{origin}-{move['to']}")
            size = played.size
            assert move["captures"] == [square_name(sq, size) for sq in sorted(result.captures)]
    assert any(move["captures"] for moves in legal.values() for move in moves)
    deadline = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=90)
    rec = replace(record(played), move_seconds=120, move_deadline=deadline)
    now = int(datetime(2026, 1, 1, tzinfo=UTC).timestamp() * 1000)
    offered = Shown(state(played, rec), Offer("draw", ANN.user_id or 0, played.ply), None, None)
    clocked = web.state(offered, you=None, now_ms=now)
    assert clocked["clocks"] == {
        "defenders": 90_000,
        "attackers": 120_000,
        "running": "defenders",
        "at": now,
    }
    assert clocked["offers"] == {"draw": "attackers", "takeback": None}


def test_the_state_follows_the_viewers_look_and_language() -> None:
    played = moved("d1-c1")
    preferences = PlayerPreferences(BO.user_id or 0, theme="contrast", flip=True)
    seen = Shown(state(played), None, None, preferences)
    found = web.state(seen, you=Side.DEFENDERS, now_ms=0, lang=Languages().language("fr"))
    theme = found["theme"]
    assert isinstance(theme, dict) and theme["name"] == "contrast"
    assert all(value.startswith("#") for key, value in theme.items() if key != "name")
    assert found["flip"] is True  # the defenders at the bottom: turned, as the images are
    assert found["lang"] == "fr"
    words = found["words"]
    assert isinstance(words, dict) and set(web.WORDS) <= set(words)
    assert words["resign"] == "Abandonner"
    assert "{square}" in words["square_label"]  # left for the page to fill


def test_raichi_and_tuichi_say_which_roads_the_king_has_to_which_squares() -> None:
    played = Game("brandubh")
    for move in ("d1-b1", "d3-a3", "b1-c1", "d4-d3", "c1-b1", "d3-g3"):
        played.play(move)
    # Brandubh's king escapes to a corner: the call names the corner, as the channel does.
    found = web.state(shown(played), you=Side.ATTACKERS, now_ms=0)
    words = found["words"]
    assert isinstance(words, dict) and found["call"] == "raichi"
    assert words["call_raichi"] == "Raichi! The king has an open road to g1."
    for move in ("g4-g6", "g3-g5"):
        played.play(move)
    fr = Languages().language("fr")
    words = web.state(shown(played), you=Side.ATTACKERS, now_ms=0, lang=fr)["words"]
    assert isinstance(words, dict)
    assert words["call_tuichi"].startswith("Tuichi !") and "g1 et g7" in words["call_tuichi"]


def test_an_over_game_says_how_it_ended() -> None:
    played = moved("d1-c1", "c4-c2")  # both sides moved: the game can be reviewed
    rec = record(played)
    ended = replace(
        rec, status=GameStatus.FINISHED, result=GameResult.DEFENDERS, reason=TableEnding.RESIGNATION
    )
    found = web.state(Shown(state(played, ended), None, None, None), you=Side.ATTACKERS, now_ms=0)
    assert found["status"] == "over" and found["legal"] == {}
    rematch = "Play again with the Rematch button under the game's board in Discord, or with "
    review = "Go over the game move by move with /tafl analyze in Discord."
    assert found["result"] == {
        "winner": "defenders",
        "text": "You lost: you resigned.",
        "next": [rematch + "/tafl rematch.", review],
    }

    def said(result: GameResult, reason: TableEnding, you: Side | None, **more: object) -> object:
        rec = replace(record(played), status=GameStatus.FINISHED, result=result, reason=reason)
        game = Shown(state(played, rec, **more), None, None, None)
        return web.state(game, you=you, now_ms=0)["result"]

    # Each player reads their own result; a spectator the board's neutral one, and no rematch.
    won = said(GameResult.DEFENDERS, TableEnding.RESIGNATION, Side.DEFENDERS)
    assert won["text"] == "You won: your opponent resigned."  # type: ignore[index]
    assert said(GameResult.ATTACKERS, TableEnding.TIMEOUT, Side.DEFENDERS) == {
        "winner": "attackers",
        "text": "You lost on time.",
        "next": [rematch + "/tafl rematch.", review],
    }
    assert said(GameResult.ATTACKERS, TableEnding.TIMEOUT, None) == {
        "winner": "attackers",
        "text": "Attackers win (timeout)",
        "next": [review],
    }
    draw = said(GameResult.DRAW, TableEnding.AGREED_DRAW, Side.ATTACKERS)
    assert draw["text"] == "Draw by agreement"  # type: ignore[index]
    # A tournament's game: the event pairs the next one, so no rematch.
    event = said(GameResult.DRAW, TableEnding.AGREED_DRAW, Side.ATTACKERS, in_event=True)
    assert "Rematch" not in str(event) and "tafl-tournament" in str(event)


def test_boards_offer_the_web_board_only_where_the_bot_serves_one() -> None:
    played = moved("d1-c1")
    for web_on, actions in ((False, ["move", "board", "draw", "resign"]), (True, [*"mbdr", "w"])):
        [post, *_] = board.board_posts(state(played, web=web_on), [])
        assert isinstance(post, BoardPost)
        ids = [c.custom_id.rsplit(":", 1)[1] for c in post.post.controls if isinstance(c, Button)]
        assert [i[0] for i in ids] == [a[0] for a in actions]
    assert GameAction(7, "web").custom_id == "tafl:g:7:web"


def test_the_private_link_and_the_button_that_opens_it_inside_discord() -> None:
    answer = web.open_board("https://x/play/t", True, 7, hours=12, activity=True)
    assert "The link works for 12 hours." in (answer.post.content or "")
    once = web.open_board("https://x/play/t", False, 7, hours=1, activity=False)
    assert (once.post.content or "").endswith("The link works for 1 hour.")
    assert isinstance(answer, Answer) and answer.post.private
    link, inside = answer.post.controls
    assert isinstance(link, LinkButton) and link.url == "https://x/play/t"
    assert isinstance(inside, Button) and inside.custom_id == "tafl:g:7:activity"
    [only] = web.open_board("https://x/play/t", False, 7, hours=12, activity=False).post.controls
    assert isinstance(only, LinkButton)
    # Where Discord would not open the board inside it: the link, and why it comes instead.
    again = web.open_board(
        "https://x/play/t", True, 7, hours=12, activity=False, launch_refused=True
    )
    assert (again.post.content or "").startswith("Discord cannot open the board inside Discord")
    assert "yours alone" in (again.post.content or "")


def test_what_a_click_would_answer_goes_to_the_channel_for_a_web_action() -> None:
    place = Place(70)
    offer = OfferPost(7, "draw", 3, Post(content="Bo offers a draw"))
    deliveries = [
        Update(Post(content="Draw declined")),
        Answer(Post(content="only you see this", private=True)),
        Answer(Post(content="everyone sees this")),
        offer,
    ]
    found = web.in_channel(deliveries, place, clicked=555)
    assert found == [
        Edit(place, 555, Post(content="Draw declined")),
        Message(place, Post(content="everyone sees this")),
        replace(offer, place=place),
    ]
    [posted] = web.in_channel(deliveries[:1], place)
    assert posted == Message(place, Post(content="Draw declined"))


def test_sentences_for_discord_read_plainly_on_the_page() -> None:
    played = moved("d1-c1")
    said = web.plain("**Not your turn**: <@2> is to move, try `/tafl board`.", state(played))
    assert said == "Not your turn: Bo is to move, try /tafl board."
    assert ANN.display_name == "Ann"


async def test_the_clients_files_are_served_gzipped_and_cached_by_their_digest(
    tmp_path: Path,
) -> None:
    (tmp_path / "board.js").write_text("console.log('board');\n" * 50)
    (tmp_path / "activity.js").write_text("export const signIn = 1;\n")
    (tmp_path / "secret.txt").write_text("not served")
    static = StaticFiles(tmp_path)
    app = aiohttp.web.Application()
    app.router.add_get("/static/{name}", static.serve)
    async with TestClient(TestServer(app), auto_decompress=False) as client:
        version = static.version("board.js")
        answer = await client.get(f"/static/board.js?v={version}", headers=GZIP)
        assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(await answer.read()).startswith(b"console.log")
        assert "immutable" in answer.headers["Cache-Control"]
        assert answer.headers["Content-Type"].startswith("text/javascript")
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        again = await client.get(
            "/static/board.js", headers={"If-None-Match": answer.headers["ETag"]}
        )
        assert again.status == 304
        # Loaded by its plain name (the Activity's file): checked with the server each time.
        plain = await client.get("/static/activity.js")
        assert plain.status == 200 and plain.headers["Cache-Control"] == "no-cache"
        for missing in ("secret.txt", "board.css", "..%2Fsecret.txt"):
            assert (await client.get(f"/static/{missing}")).status == 404
    page = shell(static, base="..", lang="fr", title="Tablut <1>")
    assert f'src="../static/board.js?v={version}"' in page and 'lang="fr"' in page
    assert "Tablut &lt;1&gt;" in page and 'data-base=".."' in page


async def test_while_the_bot_starts_its_pages_say_so_in_the_boards_style(tmp_path: Path) -> None:
    (tmp_path / "board.css").write_text(".message { color: gold; }\n")
    static = StaticFiles(tmp_path)
    front = WebFront(static)  # no board yet: the bot is still opening its games
    app = aiohttp.web.Application()
    front.add_to(app)
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    async with TestClient(TestServer(app)) as client:
        answer = await client.get("/play/some-token", headers=french)
        page = await answer.text()
        assert answer.status == 503 and answer.headers["Retry-After"] == "5"
        assert 'lang="fr"' in page and '<main class="message">' in page
        # Styled as the board, from the board's own file, found from the page's address.
        assert f'href="../static/board.css?v={static.version("board.css")}"' in page
        assert '<meta http-equiv="refresh" content="5">' in page  # it comes back by itself
        assert "<h1>Le plateau démarre</h1>" in page, page
        # The client's files are served already; the page's own requests get a sentence.
        assert (await client.get("/static/board.css")).status == 200
        answer = await client.get("/api/games/some-token/state", headers=french)
        said = await answer.json()
        assert answer.status == 503 and said["kind"] == "unavailable" and "démarr" in said["error"]
    assert base_of("/") == "." and base_of("/play/abc") == ".." and base_of("/activity") == "."


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("93.184.216.34", "", "93.184.216.34"),  # no proxy
        ("93.184.216.34", "10.0.0.1", "93.184.216.34"),  # a browser's own header is not believed
        ("10.1.2.3", "198.51.100.9", "198.51.100.9"),  # behind Caddy or an Ingress
        ("127.0.0.1", "1.2.3.4, 198.51.100.9", "198.51.100.9"),  # the proxy's entry is last
        ("10.1.2.3", "", "10.1.2.3"),
    ],
)
def test_the_sign_in_limit_counts_the_browsers_address(
    peer: str, forwarded: str, expected: str
) -> None:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    request = make_mocked_request("POST", "/api/activity/token", headers=headers)
    request = request.clone(remote=peer)
    assert client_address(request) == expected
