"""What the bot relies on in discord.py beyond its documented interface, checked on the release
installed: the reason ``pyproject.toml`` pins discord.py to the releases tested. Each check
fails on a release that lacks what the bot reaches for, before any player meets the failure."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import discord
from discord.gateway import DiscordWebSocket, KeepAliveHandler
from packaging.requirements import Requirement

from bot.discord_bot.table import RESPONSE_SLOT

ROOT = Path(__file__).resolve().parent.parent


def _pin() -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [Requirement(text) for text in project["project"]["dependencies"]]
    (pin,) = (requirement for requirement in found if requirement.name == "discord.py")
    return pin


def test_the_installed_discord_py_is_a_release_the_pin_admits() -> None:
    pin = _pin()
    assert pin.specifier.contains(discord.__version__), (pin, discord.__version__)
    # A pin, not an open range: the next minor release may change the private parts used here.
    major, minor = (int(part) for part in discord.__version__.split(".")[:2])
    assert not pin.specifier.contains(f"{major}.{minor + 1}.0"), pin


def test_the_interaction_gate_finds_the_connection_states_parser() -> None:
    """``TaflBot._gate_interactions`` (client.py) replaces the ``INTERACTION_CREATE`` parser
    of the state discord.py builds at construction (the one it keeps: only the constructor
    builds it), which the gateway then dispatches through."""
    for client in (
        discord.Client(intents=discord.Intents.none()),
        discord.AutoShardedClient(intents=discord.Intents.none(), shard_ids=[0], shard_count=1),
    ):
        assert callable(client._connection.parsers.get("INTERACTION_CREATE")), client
    assert "self._connection" in inspect.getsource(discord.Client.__init__)
    assert "self._connection = " not in inspect.getsource(discord.Client).replace(
        inspect.getsource(discord.Client.__init__), ""
    )
    # The gateway reads its parsers from that state's dictionary, not from a copy.
    assert "client._connection.parsers" in inspect.getsource(DiscordWebSocket.from_client)
    assert "self._discord_parsers[event]" in inspect.getsource(DiscordWebSocket.received_message)


def test_the_heartbeat_timing_finds_what_it_mends() -> None:
    """``runtime/heartbeat.py`` notes each heartbeat's time of sending on the keep-alive
    handler, on releases that do not do so themselves."""
    if hasattr(KeepAliveHandler, "_send_heartbeat"):
        return  # the release's own fix: nothing is mended
    assert inspect.iscoroutinefunction(DiscordWebSocket.send_heartbeat)
    assert "self._last_send" in inspect.getsource(KeepAliveHandler)
    assert "self._keep_alive" in inspect.getsource(DiscordWebSocket)


def test_the_watchdog_finds_the_interactions_state() -> None:
    """The table's watchdog gives each watched interaction its own response by replacing
    discord.py's cached one (a slot of discord.Interaction), while features answer through
    ``interaction.response``; it answers for a late handler with a follow-up that stands for
    the callback's response, built from the interaction's connection state."""
    assert RESPONSE_SLOT in discord.Interaction.__slots__
    response = discord.Interaction.__dict__["response"]
    assert getattr(response, "name", None) == RESPONSE_SLOT  # the slot .response caches itself in
    assert "_state" in discord.Interaction.__slots__
    parameters = inspect.signature(discord.InteractionCallbackResponse).parameters
    assert {"data", "parent", "state", "type"} <= set(parameters)
