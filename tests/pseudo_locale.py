"""The end-to-end tests in the pseudo-locale: the bot process writes every translated string
marked and lengthened (``⟦Ŷöûŕ ɱöṽé···⟧``), and the stand-in, on receiving each text a player
would see, (a) records every word that came from outside the catalogue, an escape, and
(b) gives the tests the English it was made from, so their assertions hold unchanged.

Turned on for a whole run with ``pytest --pseudo-locale`` (or ``TAFL_E2E_PSEUDO=1``), or for
one world with ``open_world(..., pseudo=True)``. Every bot process gets its environment from
``e2e_support.bot_env``, which turns it on there.

What counts as an escape: a word of ASCII letters anywhere in a text (the pseudo-locale's
letters are all accented, so a plain one came from outside the catalogue: a string never
marked, or a value filled in that was English), unless it is what players gave (their names,
the servers' and channels' names, what they typed into commands and forms), a coordinate or
a move (``e5``, ``d1-d3``, a single letter), a number, inside code or a link, a mention, or a
name every language keeps (:data:`KEPT_WORDS`). The words drawn on images are checked the
same way: the bot process writes each string it draws to a file (``TAFL_PSEUDO_DRAWN``) which
is read as the image arrives.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, ReceivedFile

from bot.i18n.language import unpseudo

ENV = "TAFL_E2E_PSEUDO"
"""``1``: every end-to-end test's bot runs in the pseudo-locale (``pytest --pseudo-locale``)."""
KEPT_WORDS = frozenset(
    word.lower()
    for word in (
        # Linnaeus's calls, kept in every language (their explanation is translated).
        "Raichi",
        "Tuichi",
        # The games' own names, the same in every language.
        "Tablut",
        "Brandubh",
        "Hnefatafl",
        "Tawlbwrdd",
        "Fetlar",
        "Ard",
        "Ri",
        "Alea",
        "Evangelii",
        # The bot's own name.
        "TaflBot",
    )
)
"""Words that are no language's: proper names every catalogue keeps as they are."""
VISIBLE_KEYS = frozenset(
    {"content", "title", "description", "text", "name", "value", "label", "placeholder"}
)
"""The keys of the JSON the bot sends whose strings a player reads (message content, embeds'
parts, buttons, menus and their options, forms, autocomplete choices, threads' names, images'
alt texts), except where :func:`_visible` says otherwise."""
_NOT_WORDS = re.compile(
    r"`[^`\n]*`|<[^<>\s]*>|https?://\S+|\[[^\]]*\]\(https?://[^)]*\)|\b[a-z_]+-[0-9a-f]{8}\b"
)
"""Code, mentions (users, channels, commands, custom emoji, timestamps), links and puzzles'
names (``copenhagen-f505529d``, typed to ask for one)."""
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def enabled() -> bool:
    """Whether this run puts every end-to-end test in the pseudo-locale."""
    return os.environ.get(ENV, "").strip() in ("1", "true", "yes")


@dataclass(frozen=True)
class Escape:
    """A text a player would see with words that escaped translation."""

    test: str
    where: str
    text: str
    words: tuple[str, ...]


@dataclass
class Record:
    """What a run checked and found, across every world of the session."""

    checked: int = 0
    drawn: int = 0
    escapes: list[Escape] = field(default_factory=list)

    def summary(self) -> list[str]:
        """The report's lines: the counts, then each distinct escape once, with its tests."""
        lines = [
            f"pseudo-locale: {self.checked} texts checked ({self.drawn} drawn on images), "
            f"{len(self.escapes)} escapes"
        ]
        grouped: dict[tuple[str, str], list[Escape]] = {}
        for escape in self.escapes:
            grouped.setdefault((escape.where, " ".join(escape.words)), []).append(escape)
        for (where, words), found in sorted(grouped.items()):
            first = found[0]
            at = max(0, first.text.find(first.words[0]) - 150)
            lines.append(
                f"  [{where}] {words!r} x{len(found)} (first in {first.test}): "
                f"{'…' if at else ''}{first.text[at : at + 300]!r}"
            )
        return lines

    def dump(self) -> dict[str, Any]:
        """The record as plain values, for a worker of a spread run (``-n 2``) to hand to the
        run's controller, which prints the report."""
        return {
            "checked": self.checked,
            "drawn": self.drawn,
            "escapes": [
                [escape.test, escape.where, escape.text, list(escape.words)]
                for escape in self.escapes
            ],
        }

    def add(self, dumped: dict[str, Any]) -> None:
        """Count in what a worker's record checked and found (see :meth:`dump`)."""
        self.checked += int(dumped["checked"])
        self.drawn += int(dumped["drawn"])
        self.escapes.extend(
            Escape(test, where, text, tuple(words))
            for test, where, text, words in dumped["escapes"]
        )


RECORD = Record()
"""The session's record, printed at the end of a pseudo-locale run (tests/conftest.py)."""


def current_test() -> str:
    """The test running now, as pytest names it."""
    return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]


class PseudoWatch:
    """Installed on a :class:`FakeDiscord`: checks and turns back to English every text the
    bot sends it, and the words its bot processes drew on images (:meth:`drawn_file`)."""

    def __init__(self, fake: FakeDiscord, record: Record = RECORD) -> None:
        self.fake = fake
        self.record = record
        self.escapes: list[Escape] = []
        """This world's escapes (the record has every world's)."""
        self._drawn: dict[Path, int] = {}
        self._given: tuple[tuple[int, ...], frozenset[str]] = ((), frozenset())

    @classmethod
    def on(cls, fake: FakeDiscord) -> PseudoWatch:
        """The watch of ``fake``, installed the first time."""
        for known in fake.payload_filters:
            if isinstance(known, PseudoWatch):
                return known
        watch = cls(fake)
        fake.payload_filters.append(watch)
        return watch

    def drawn_file(self, folder: Path) -> Path:
        """Where a bot process working in ``folder`` writes the strings it draws."""
        path = folder / "pseudo-drawn.jsonl"
        self._drawn.setdefault(path, 0)
        return path

    def __call__(
        self, path: str, payload: dict[str, Any], files: tuple[ReceivedFile, ...]
    ) -> tuple[dict[str, Any], tuple[ReceivedFile, ...]]:
        allowed = self._given_words()
        self._read_drawn(allowed)
        return self._walk(payload, (), allowed), tuple(_english_file(file) for file in files)

    # -- texts

    def _walk(self, node: Any, where: tuple[str, ...], allowed: frozenset[str]) -> Any:
        if isinstance(node, dict):
            return {key: self._walk(value, (*where, key), allowed) for key, value in node.items()}
        if isinstance(node, list):
            return [self._walk(item, where, allowed) for item in node]
        if isinstance(node, str):
            if _visible(where):
                self.check(".".join(where), node, allowed)
            return unpseudo(node)
        return node

    def check(self, where: str, text: str, allowed: frozenset[str]) -> None:
        """Count ``text`` and record its escaped words, if any."""
        if where == "image":
            self.record.drawn += 1
        self.record.checked += 1
        words = escaped_words(text, allowed)
        if words:
            escape = Escape(current_test(), where, text, words)
            self.escapes.append(escape)
            self.record.escapes.append(escape)

    def _read_drawn(self, allowed: frozenset[str]) -> None:
        for path, offset in list(self._drawn.items()):
            try:
                with path.open("rb") as file:
                    file.seek(offset)
                    data = file.read()
            except FileNotFoundError:
                continue
            complete = data[: data.rfind(b"\n") + 1]
            self._drawn[path] = offset + len(complete)
            for line in complete.decode().splitlines():
                self.check("image", json.loads(line), allowed)

    def finish(self) -> None:
        """Check what was drawn since the last message (call before reading the escapes)."""
        self._read_drawn(self._given_words())

    # -- what players gave

    def _given_words(self) -> frozenset[str]:
        world = self.fake.world
        size = (len(world.users), len(world.channels), len(world.messages), len(world.interactions))
        if size != self._given[0]:
            words = frozenset(
                token.lower() for text in self._given_texts() for token in _TOKEN.findall(text)
            )
            self._given = (size, words)
        return self._given[1]

    def _given_texts(self) -> Iterator[str]:
        world = self.fake.world
        for user in world.users.values():
            yield user.username
            yield user.global_name or ""
        for guild in world.guilds.values():
            yield guild.name
            for member in guild.members.values():
                yield member.nick or ""
            for role in guild.roles.values():
                yield role.name
            for channel in guild.channels.values():
                if channel.owner_id != world.bot_user.id:
                    yield channel.name
        for message in world.messages.values():
            if message.author is not world.bot_user:
                yield message.content
        # A choice's value is an id: the player picked its name, which the bot translates.
        choices = frozenset(
            choice["value"]
            for scope in (None, *world.guilds)
            for command in world.commands.synced(scope)
            for choice in _choices(command)
        )
        for interaction in world.interactions.values():
            yield from (
                value for value in _typed(interaction.payload.get("data")) if value not in choices
            )


def _english_file(file: ReceivedFile) -> ReceivedFile:
    """A text file (a record, a tournament's export) with its English; not checked, since
    game records' tags are no language's (their words shown in messages are)."""
    if file.data.startswith(b"\x89PNG") or "⟦".encode() not in file.data:
        return file
    try:
        text = file.data.decode()
    except UnicodeDecodeError:
        return file
    return replace(file, data=unpseudo(text).encode())


def _choices(node: Any) -> Iterator[dict[str, Any]]:
    """The choices of a registered command's options, at any depth."""
    if isinstance(node, dict):
        yield from node.get("choices") or ()
        for option in node.get("options") or ():
            yield from _choices(option)


def _typed(node: Any) -> Iterator[str]:
    """What a user typed or chose in an interaction: the options' and the form's values."""
    if isinstance(node, dict):
        value = node.get("value")
        if isinstance(value, str):
            yield value
        for key, item in node.items():
            if key != "value":
                yield from _typed(item)
    elif isinstance(node, list):
        for item in node:
            yield from _typed(item)


def _visible(where: tuple[str, ...]) -> bool:
    if not where or where[-1] not in VISIBLE_KEYS:
        return False
    if "emoji" in where or "message_reference" in where or "allowed_mentions" in where:
        return False
    parent = where[-2] if len(where) > 1 else ""
    if where[-1] == "value" and parent in ("options", "choices"):
        return False  # a menu's option's and an autocomplete choice's value: ids
    return not (parent == "attachments" and where[-1] != "description")


def escaped_words(text: str, allowed: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The words of ``text`` that escaped the pseudo-locale: runs of two or more ASCII letters
    (without digits: ``e5``, ``d1`` and ``12`` are coordinates and numbers) outside code,
    mentions and links, other than ``allowed`` (lowercase) and :data:`KEPT_WORDS`."""
    bare = _NOT_WORDS.sub(" ", text)
    found = []
    for token in _TOKEN.findall(bare):
        if len(token) < 2 or not token.isalpha():
            continue
        if token.lower() in allowed or token.lower() in KEPT_WORDS:
            continue
        found.append(token)
    return tuple(dict.fromkeys(found))
