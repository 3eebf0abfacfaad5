"""The web board's client (``web/``): the bundle the package ships is the build of the sources
beside it, byte for byte, and it draws with the images' geometry.

The digest check always runs; the rebuild (``npm ci && npm run build`` in a copy of ``web/``)
and the client's own tests (the Activity's sign-in with the Embedded App SDK's mock) run where
this machine has npm, as CI does.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_build import BUILT, HEADER, STATIC, WEB, installed_once, npm, source_digest

from bot.discord_bot.compose import web as web_words
from bot.render import sprites


def test_each_built_file_names_the_sources_it_was_built_from() -> None:
    expected = HEADER.format(digest=source_digest())
    for name in BUILT:
        first = (STATIC / name).read_text(encoding="utf-8").split("\n", 1)[0]
        assert first == expected, (
            f"static/{name} was built from other sources than web/ holds now: "
            "run `npm ci && npm run build` in web/ and commit the result"
        )


def test_the_digest_changes_with_any_source(tmp_path: Path) -> None:
    # The check above can fail: any edit of a source changes the digest.
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("node_modules"))
    before = source_digest(copy)
    board = copy / "src" / "board.ts"
    board.write_text(board.read_text(encoding="utf-8") + "\n// an edit\n", encoding="utf-8")
    assert source_digest(copy) != before


def test_the_page_draws_pieces_with_the_images_proportions() -> None:
    geometry = (WEB / "src" / "geometry.ts").read_text(encoding="utf-8")
    named = dict(re.findall(r"export const (\w+) = ([0-9.]+);", geometry))
    assert float(named["PIECE_RADIUS"]) == sprites.PIECE_RADIUS
    assert float(named["KING_RADIUS"]) == sprites.KING_RADIUS


def test_every_word_the_page_reads_is_one_the_server_sends() -> None:
    source = (WEB / "src" / "words.ts").read_text(encoding="utf-8")
    listed = re.search(r"export const KEYS = \[(.*?)\] as const;", source, re.S)
    assert listed, "web/src/words.ts lists the keys it reads in KEYS"
    read = set(re.findall(r'"(\w+)"', listed.group(1)))
    # page_words adds the game's title and the naming of its squares to WORDS; the state, the
    # call of the move that opened the king's roads.
    sent = set(web_words.WORDS) | {"title", "coordinates", "call_raichi", "call_tuichi"}
    assert read and read <= sent, f"the page reads words the server never sends: {read - sent}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of web/ with its packages installed from the lockfile (skips without npm)."""
    if npm() is None:
        pytest.skip("npm is not installed here: the bundle is checked by its digest only")
    yield installed_once(tmp_path_factory.getbasetemp())


def test_npm_rebuilds_the_shipped_bundle_byte_for_byte(installed: Path) -> None:
    command = npm()
    assert command is not None
    subprocess.run([command, "run", "build", "--silent"], cwd=installed, check=True, timeout=300)
    built = installed.parent / "bot" / "discord_bot" / "web" / "static"
    for name in BUILT:
        assert (built / name).read_bytes() == (STATIC / name).read_bytes(), (
            f"npm run build gives another static/{name} than the one committed"
        )


def test_the_typescript_sources_type_check(installed: Path) -> None:
    command = npm()
    assert command is not None
    checked = subprocess.run(
        [command, "run", "check", "--silent"],
        cwd=installed,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
