"""Shared pieces of the end-to-end tests: the real bot process (``python -m bot``), the fake
Discord world it talks to, and small helpers that act as users and wait for the bot's answers.

Each test module starts one bot process (start-up costs seconds) with :func:`open_world` and
plays each scenario in its own channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pseudo_locale
from fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from PIL import Image
from pseudo_locale import PseudoWatch

ROOT = Path(__file__).resolve().parent.parent
WAIT = 30.0
"""Generous waits: the machine may be loaded, and a wait returns as soon as its event happens."""
STOP_WAIT = 15.0
"""How long the bot gets to stop after SIGINT before :meth:`BotProcess.stop` kills it."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LOG_ENTRY = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
"""The timestamp that starts each entry of the bot's log."""


@dataclass
class BotProcess:
    """The real bot, started with ``python -m bot`` (plus ``args``, e.g. ``cluster``); its stderr
    goes to ``log_path``."""

    env: dict[str, str]
    log_path: Path
    args: tuple[str, ...] = ()
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    interrupted: bool = False
    _log: Any = field(default=None, repr=False)

    cwd: Path = ROOT
    """Where it runs: the project, or a copy of another release of it."""
    entry: tuple[str, ...] = ("-m", "bot")
    """What the interpreter runs: the bot, or a script that watches it run (tests/move_path.py)."""
    own_group: bool = False
    """Run it in a process group of its own, as a terminal does, so that a Ctrl+C can reach
    the bot and its child processes together (:func:`os.killpg`) without reaching the tests."""

    async def launch(self) -> None:
        """Start the bot without waiting for anything."""
        self._log = self.log_path.open("ab")
        self.starts += 1
        self.interrupted = False
        self._log.write(f"\n===== bot start #{self.starts} =====\n".encode())
        self._log.flush()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.entry,
            *self.args,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            start_new_session=self.own_group,
        )

    async def start(self, fake: FakeDiscord, guild: FakeGuild | None) -> None:
        """Start the bot and wait until it is connected and its commands are synced (to
        ``guild``, or globally with ``None``)."""
        await self.launch()
        assert self.process is not None
        waiting = asyncio.ensure_future(fake.wait_until_connected(timeout=WAIT))
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiting.cancel()
            raise AssertionError(f"the bot exited with {exited.result()}:\n{self.log_text()}")
        exited.cancel()
        await waiting
        await fake.wait_for_commands(guild, timeout=WAIT)
        await fake.sync(timeout=WAIT)

    async def kill(self, fake: FakeDiscord) -> None:
        """SIGKILL: no clean shutdown at all, as when a host dies."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await fake.wait_until(lambda: True if not fake.connected else None, timeout=WAIT)

    def interrupt(self) -> None:
        """Send SIGINT (Ctrl+C) without waiting; :meth:`stop` then waits for the exit.

        Only once: a second Ctrl+C makes Python abandon the clean shutdown."""
        assert self.process is not None and self.process.returncode is None
        self.process.send_signal(signal.SIGINT)
        self.interrupted = True

    async def stop(self) -> int | None:
        """SIGINT (Ctrl+C) unless already sent, and wait for a clean exit; SIGKILL if it hangs."""
        if self.process is None:
            return None
        try:
            if self.process.returncode is None and not self.interrupted:
                with contextlib.suppress(ProcessLookupError):
                    self.interrupt()
            try:
                return await asyncio.wait_for(self.process.wait(), STOP_WAIT)
            except TimeoutError:
                self.process.kill()
                return await self.process.wait()
        finally:
            if self._log is not None and not self._log.closed:
                self._log.close()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")


@dataclass
class World:
    """The fake Discord, its one guild and users, and the bot process serving them."""

    fake: FakeDiscord
    guild: FakeGuild
    bot: BotProcess
    users: dict[str, FakeUser]

    def user(self, name: str) -> FakeUser:
        return self.users[name]

    def channel(self, name: str) -> FakeChannel:
        """A new text channel: one game per channel."""
        return self.fake.create_channel(self.guild, name)

    def existing(self, name: str) -> FakeChannel:
        return self.guild.channel(name)

    async def command(
        self, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
    ) -> FakeInteraction:
        """Send ``/tafl subcommand`` and wait for the bot's first response."""
        interaction = await self.fake.send_slash_command(
            user, channel, "tafl", subcommand=subcommand, options=options
        )
        await interaction.wait_callback(timeout=WAIT)
        return interaction

    async def error_reply(
        self, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
    ) -> str:
        """The private reply to a command that must fail."""
        interaction = await self.command(user, channel, subcommand, **options)
        return await private_text(interaction)

    async def play_line(
        self, first: FakeUser, second: FakeUser, channel: FakeChannel, moves: Sequence[str]
    ) -> list[FakeMessage]:
        """``first`` and ``second`` take turns playing ``moves`` with ``/tafl move``; each must
        be answered publicly. Returns the answers (the boards), one per move."""
        boards = []
        for ply, move in enumerate(moves):
            player = first if ply % 2 == 0 else second
            interaction = await self.command(player, channel, "move", move=move)
            assert interaction.callback is not None and not interaction.callback.ephemeral, (
                move,
                interaction.responses,
            )
            assert interaction.original_message is not None, interaction.responses
            boards.append(interaction.original_message)
        return boards

    async def click(self, user: FakeUser, message: FakeMessage, suffix: str) -> FakeInteraction:
        """``user`` clicks the button whose custom id ends with ``suffix``; waits for the
        bot's first response."""
        custom_id = button_id(message, suffix)
        interaction = await self.fake.click_button(user, message, custom_id)
        await interaction.wait_callback(timeout=WAIT)
        return interaction

    async def click_error(self, user: FakeUser, message: FakeMessage, suffix: str) -> str:
        """The private reply to a click that must fail."""
        return await private_text(await self.click(user, message, suffix))

    async def board_after(self, channel: FakeChannel, after: int, text: str) -> FakeMessage:
        """The bot's next public message in ``channel`` containing ``text``."""
        return await self.fake.wait_for_message(
            channel,
            lambda m: text in m.text and not m.ephemeral,
            after=after,
            timeout=WAIT,
        )

    async def first_board(self, channel: FakeChannel, after: int) -> FakeMessage:
        """The first board of a game that has just begun in ``channel``."""
        return await self.fake.wait_for_message(
            channel, lambda m: "begins" in m.text and bool(m.attachments), after=after, timeout=WAIT
        )

    async def offer_challenge(
        self,
        challenger: FakeUser,
        opponent: FakeUser,
        channel: FakeChannel,
        **options: object,
    ) -> FakeMessage:
        """``/tafl challenge`` and return the public challenge message (not yet answered)."""
        asked = await self.command(challenger, channel, "challenge", opponent=opponent, **options)
        assert asked.callback is not None and not asked.callback.ephemeral, asked.responses
        offer = asked.original_message
        assert offer is not None
        return offer

    async def challenge(
        self,
        challenger: FakeUser,
        opponent: FakeUser,
        channel: FakeChannel,
        **options: object,
    ) -> FakeMessage:
        """Challenge, accept with the button, and return the first board message."""
        mark = self.fake.checkpoint()
        offer = await self.offer_challenge(challenger, opponent, channel, **options)
        await self.click(opponent, offer, ":accept")
        return await self.first_board(channel, mark)


def set_deadline(world: World, game_id: int, seconds_from_now: float) -> None:
    """Move a game's move deadline in the bot's SQLite database, as time passing would: the
    clock's next tick reminds or forfeits at once, so a test need not wait out a real time."""
    deadline = int(time.time() + seconds_from_now)
    with sqlite3.connect(world.bot.env["TAFL_DATABASE"], timeout=10) as connection:
        connection.execute("UPDATE games SET move_deadline = ? WHERE id = ?", (deadline, game_id))


def game_number(message: FakeMessage) -> int:
    """The number of the game a board message shows (``game #12``)."""
    found = re.search(r"game #(\d+)", message.text)
    assert found, message
    return int(found.group(1))


def button_id(message: FakeMessage, suffix: str) -> str:
    """The custom id of the button on ``message`` ending with ``suffix``."""
    found = [cid for cid in message.custom_ids if cid.endswith(suffix)]
    assert found, f"no button ending {suffix!r} on {message!r}: {message.custom_ids}"
    return found[0]


async def private_text(interaction: FakeInteraction) -> str:
    """The text of the first private (ephemeral) reply to ``interaction``."""
    response = await interaction.wait_response(
        lambda r: r.ephemeral and bool(r.content), timeout=WAIT
    )
    return response.content or ""


def attachment_is_png(message: FakeMessage) -> tuple[int, int]:
    """The size of the PNG attached to ``message`` (fails if there is none)."""
    assert message.attachments, f"no image on {message!r}"
    data = message.attachments[0].data
    assert data.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.size


def bot_env(
    fake: FakeDiscord,
    guild: FakeGuild | None,
    folder: Path,
    extra: dict[str, str] | None = None,
    *,
    pseudo: bool | None = None,
) -> dict[str, str]:
    """The environment of a bot process serving ``guild`` of ``fake`` (every guild, with
    commands synced globally, when ``None``): this process's own variables without any Discord
    or tafl setting, the stand-in's address and token, a database in ``folder``, INFO logs
    unbuffered, then ``extra``.

    ``pseudo`` (by default: whether the run is ``pytest --pseudo-locale``): the bot writes in
    the pseudo-locale, and ``fake`` checks what it says and gives the tests its English
    (tests/pseudo_locale.py)."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAFL_"))},
        **fake.env(guild),
        "TAFL_DATABASE": str(folder / "tafl.sqlite3"),
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    if pseudo_locale.enabled() if pseudo is None else pseudo:
        drawn = PseudoWatch.on(fake).drawn_file(folder)
        env.update({"TAFL_PSEUDO_LOCALE": "1", "TAFL_PSEUDO_DRAWN": str(drawn)})
    return {**env, **(extra or {})}


@contextlib.asynccontextmanager
async def open_world(
    tmp: Path,
    names: list[str],
    extra_env: Mapping[str, str] | None = None,
    *,
    expected_errors: tuple[str, ...] = (),
    interaction_deadline: float = 3.0,
    env_from_fake: Callable[[FakeDiscord], Mapping[str, str]] | None = None,
    activities: bool = False,
    pseudo: bool | None = None,
) -> AsyncIterator[World]:
    """A fake Discord with one guild and ``names`` as members, and the bot serving it
    (``interaction_deadline``: how soon the stand-in wants an interaction's first response).

    On exit the bot is stopped with SIGINT and must exit 0 without logging an error (other than
    the ones whose logged text contains one of ``expected_errors``, each of which must then have
    been logged), and the fake must have seen no unhandled route. ``env_from_fake``: more of the
    bot's environment, read from the stand-in (e.g. the application's client secret);
    ``activities``: the application has Activities enabled; ``pseudo``: see
    :func:`bot_env`.
    """
    async with FakeDiscord(
        interaction_deadline=interaction_deadline, activities=activities
    ) as fake:
        guild = fake.create_guild("Tafl Club")
        users = {name: fake.create_user(name, guild=guild) for name in names}
        more = {} if env_from_fake is None else env_from_fake(fake)
        env = bot_env(
            fake,
            guild,
            tmp,
            {"TAFL_TIMER_TICK": "0.5", **(extra_env or {}), **more},
            pseudo=pseudo,
        )
        bot = BotProcess(env, tmp / "bot.log")
        await bot.start(fake, guild)
        try:
            yield World(fake, guild, bot, users)
        finally:
            code = await bot.stop()
        log = bot.log_text()
        print(f"---- bot log (exit status {code}) ----\n{log}")
        fake.assert_healthy()
        assert code == 0, "the bot did not stop cleanly on SIGINT"
        for expected in expected_errors:
            assert expected in log, f"the bot did not log the expected error {expected!r}"
        unexpected = [
            entry
            for entry in split_log(log)
            if ("Traceback" in entry or " ERROR " in entry)
            and not any(expected in entry for expected in expected_errors)
        ]
        assert not unexpected, "the bot logged errors:\n" + "\n".join(unexpected)


def split_log(log: str) -> list[str]:
    """The bot's log as entries: a line with a timestamp and the lines that follow it."""
    entries: list[str] = []
    for line in log.splitlines():
        if LOG_ENTRY.match(line) or not entries:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    return entries


@contextlib.contextmanager
def printed_log(world: World) -> Iterator[None]:
    """Print what the bot logged meanwhile (pytest shows it only when the test fails)."""
    path = world.bot.log_path
    start = path.stat().st_size if path.exists() else 0
    try:
        yield
    finally:
        with contextlib.suppress(OSError), path.open("rb") as handle:
            handle.seek(start)
            print("---- bot log ----\n" + handle.read().decode(errors="replace"))
        print("\n".join(world.fake.problems()))
