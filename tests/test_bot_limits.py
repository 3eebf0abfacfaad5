"""The one helper that fits text to Discord's limits."""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_bot.table import (
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_FIELD_VALUE,
    EMBED_TOTAL,
    clip,
    fit_embed,
)


@given(text=st.text(), limit=st.integers(min_value=0, max_value=300))
def test_clipped_text_fits_and_keeps_its_beginning(text: str, limit: int) -> None:
    clipped = clip(text, limit)
    assert len(clipped) <= limit
    if len(text) <= limit:
        assert clipped == text
    else:
        kept = clipped.removesuffix("\n```").removesuffix("…")
        assert text.startswith(kept)


@given(
    body=st.text(alphabet="ab`\n", max_size=3000),
    limit=st.integers(min_value=20, max_value=2000),
)
def test_a_code_block_cut_short_is_closed(body: str, limit: int) -> None:
    text = "moves:\n```\n" + body + "\n```"
    clipped = clip(text, limit)
    assert len(clipped) <= limit
    if clipped != text:
        assert clipped.count("```") % 2 == 0


def test_a_long_illegal_move_is_quoted_within_the_content_limit() -> None:
    message = f"Illegal move: {'e1-e4' * 1000!r} is not a move"
    clipped = clip(message, CONTENT)
    assert len(clipped) == CONTENT and clipped.startswith("Illegal move: 'e1-e4")


def test_every_part_of_an_embed_is_fitted() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    embed.add_field(name="n" * 300, value="v" * 2000)
    embed.add_field(name="Defenders", value="Bo")
    embed.set_footer(text="f" * 3000)
    fitted = fit_embed(embed)
    assert len(fitted.title or "") == 256
    assert len(fitted.fields[0].value or "") == EMBED_FIELD_VALUE
    assert fitted.fields[1].value == "Bo"
    assert len(fitted.description or "") <= EMBED_DESCRIPTION
    assert len(fitted) <= EMBED_TOTAL
