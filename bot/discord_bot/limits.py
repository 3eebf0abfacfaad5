"""Discord's length limits, and the one helper that makes any text fit them.

Discord rejects a whole message (and the player sees "This interaction failed") when one field is
a character too long, so every text that can hold a person's input or a long list goes through
:func:`clip` (or :func:`fit_embed`) before it is sent.
"""

from __future__ import annotations

import discord
from discord import app_commands

CONTENT = 2000
ATTACHMENT = 10 * 1024 * 1024
"""Bytes in one uploaded file (Discord's default limit)."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
SELECT_LABEL = 100
SELECT_DESCRIPTION = 100
CHOICE_NAME = 100
MAX_CHOICES = 25
"""Discord's limit of autocomplete choices."""

ELLIPSIS = "…"

GameNumber = app_commands.Range[int, 1, 2**53]
"""A game number option: Discord's app refuses 0, negative numbers and integers beyond what
its own integer options can carry, before the command is sent."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with "…" when something was cut.

    An unclosed code block (a board or a move list cut short) is closed again so the rest of the
    message does not turn into code.
    """
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS) + 4:
        return text[:limit]
    fence = "\n```"
    cut = text[: limit - len(ELLIPSIS)] + ELLIPSIS
    if cut.count("```") % 2 == 1:
        cut = text[: limit - len(ELLIPSIS) - len(fence)] + ELLIPSIS + fence
    return cut


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every text of ``embed`` to its own limit, then the description to the total limit."""
    if embed.title:
        embed.title = clip(embed.title, EMBED_TITLE)
    for index, field in enumerate(embed.fields):
        embed.set_field_at(
            index,
            name=clip(field.name or "\u200b", EMBED_FIELD_NAME),
            value=clip(field.value or "\u200b", EMBED_FIELD_VALUE),
            inline=bool(field.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(
            name=clip(embed.author.name, EMBED_AUTHOR),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    if embed.description:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
        room = EMBED_TOTAL - (len(embed) - len(embed.description))
        embed.description = clip(embed.description, max(room, 0))
    return embed
