"""Whose language the table speaks: a person's own for what only they read, the server's
choice (else the server's Discord language) for its channels, the last-used one for what is
sent later; and the funnel's refusals in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import discord

from bot.discord_bot.app.errors import Refusal, Refused
from bot.discord_bot.compose.errors import refusal_words
from bot.discord_bot.table import Table, friendly_message
from bot.i18n.language import ENGLISH_LANGUAGE, Language, Languages
from bot.storage import DatabaseUnavailable


class _Client:
    def __init__(self, guilds: dict[int, str]) -> None:
        self.guilds = guilds

    def get_guild(self, guild_id: int) -> object | None:
        locale = self.guilds.get(guild_id)
        return None if locale is None else SimpleNamespace(preferred_locale=discord.Locale(locale))


def _table(chosen: dict[int, str], last: dict[int, str], guilds: dict[int, str]) -> Table:
    async def server_language(guild_id: int) -> str | None:
        if guild_id == 666:
            raise DatabaseUnavailable("test", "down")
        return chosen.get(guild_id)

    async def last_locale(user_id: int) -> str | None:
        return last.get(user_id)

    return Table(
        _Client(guilds),  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        languages=Languages(),
        server_language=server_language,
        last_locale=last_locale,
    )


async def test_a_channel_reads_the_servers_choice_else_its_discord_language() -> None:
    table = _table({1: "sv-SE"}, {}, {1: "fr", 2: "de", 666: "es-ES"})
    assert (await table.channel_language(1)).catalogue == "sv"  # chosen beats Discord's
    assert (await table.channel_language(2)).catalogue == "de"  # the cached server's
    assert (await table.channel_language(3, "es-419")).catalogue == "es"  # as reported
    assert (await table.channel_language(3)).catalogue == "en"  # unknown: English
    assert (await table.channel_language(None)).catalogue == "en"  # a direct message
    # The database down: the server's Discord language, not a failed answer.
    assert (await table.channel_language(666)).catalogue == "es"


async def test_what_is_sent_later_is_in_the_language_last_used() -> None:
    table = _table({}, {7: "fr"}, {})
    assert (await table.player_language(7)).catalogue == "fr"
    assert (await table.player_language(8)).catalogue == "en"


def test_a_reader_gets_their_clients_language() -> None:
    table = _table({}, {}, {})
    interaction = SimpleNamespace(locale=discord.Locale("es-419"))
    language = table.reader(interaction)  # type: ignore[arg-type]
    assert (language.locale, language.catalogue) == ("es-419", "es")


@dataclass(frozen=True)
class _Wait(Refusal):
    seconds: int


@refusal_words.register
def _(refusal: _Wait, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.ngettext(
        "Wait {n} second.", "Wait {n} seconds.", refusal.seconds, n=refusal.seconds
    )


def test_the_funnel_words_a_refusal_in_the_readers_language() -> None:
    pseudo = Languages(pseudo=True).language("fr")
    assert friendly_message(Refused(_Wait(2))) == "Wait 2 seconds."
    # The pseudo-locale marks only what its template holds: these words are not in it.
    assert friendly_message(Refused(_Wait(2)), pseudo) == "Wait 2 seconds."
    assert pseudo.is_pseudo
