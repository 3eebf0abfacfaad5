"""The Discord edge: posts made into discord.py's objects as Discord takes them, controls read
back from their custom ids (the private parts of discord.py it relies on are checked with the
pin, in tests/test_bot_discord_release.py)."""

from __future__ import annotations

import re

import discord

from bot.discord_bot.compose.board import GameAction, PieceChoice, TargetChoice, board_card
from bot.discord_bot.compose.post import (
    Button,
    Card,
    Choice,
    Field,
    Menu,
    Option,
    Post,
    Style,
    Tone,
)
from bot.discord_bot.table import (
    CONTENT,
    EMBED_DESCRIPTION,
    NO_PING,
    PING,
    Table,
    choices,
    embed_of,
    mentions_of,
    read,
    text_of,
    view_of,
)


def test_a_card_is_an_embed_in_its_tones_colour_fitted_to_discords_limits() -> None:
    card = Card(
        "Title",
        "x" * (EMBED_DESCRIPTION + 10),
        Tone.ATTACKERS,
        (Field("Attackers ⚫", "<@1>"), Field("Note", "n", inline=False)),
        "footer",
        picture=True,
    )
    embed = embed_of(card, "tafl-7-1.png")
    assert embed.colour == discord.Colour.dark_grey()
    assert embed.description is not None and len(embed.description) == EMBED_DESCRIPTION
    assert embed.description.endswith("…")
    assert [(f.name, f.value, f.inline) for f in embed.fields] == [
        ("Attackers ⚫", "<@1>", True),
        ("Note", "n", False),
    ]
    assert embed.image.url == "attachment://tafl-7-1.png" and embed.footer.text == "footer"
    assert embed_of(card).image.url is None  # no picture attached: none shown
    colours = {tone: embed_of(Card("t", tone=tone)).colour for tone in Tone}
    assert colours == {
        Tone.ATTACKERS: discord.Colour.dark_grey(),
        Tone.DEFENDERS: discord.Colour.light_grey(),
        Tone.NEUTRAL: discord.Colour.blurple(),
        Tone.CALLED_OFF: discord.Colour.light_grey(),
        Tone.EVENT: discord.Colour.gold(),
        Tone.PLAIN: None,
    }


async def test_controls_are_sent_as_components_that_discord_py_keeps_nothing_of() -> None:
    controls = (
        Button(GameAction(3, "move").custom_id, "Move", Style.PRIMARY, "♟️"),
        Menu(
            TargetChoice(3, 0, 5).custom_id,
            "Move a1 to…",
            (Option("x" * 120, "17", "captures " + "y" * 120), Option("Back", "back", emoji="↩️")),
        ),
    )
    view = view_of(controls)
    assert view.is_finished()  # so no message keeps a view of its own in discord.py's store
    [row, menu_row] = view.to_components()
    [button] = row["components"]
    assert (button["custom_id"], button["label"], button["style"]) == ("tafl:g:3:move", "Move", 1)
    [menu] = menu_row["components"]
    assert menu["custom_id"] == "tafl:to:3:0:5" and menu["placeholder"] == "Move a1 to…"
    long, back = menu["options"]
    assert len(long["label"]) == 100 and len(long["description"]) == 100
    assert back["value"] == "back" and back["emoji"]["name"] == "↩️"


def test_a_post_notifies_only_whom_it_says() -> None:
    assert mentions_of(Post(content="<@1>", ping_mentioned=True)) is PING
    assert mentions_of(Post(content="<@1>, <@2>")) is NO_PING
    # As sent: over the bot's own defaults (no roles, never everyone).
    default = discord.AllowedMentions(users=True, roles=False, everyone=False)
    listed = default.merge(mentions_of(Post(content="<@1>, <@2>", pings=(2,)))).to_dict()
    assert listed["parse"] == [] and listed["users"] == [2]


def test_where_images_may_not_be_attached_the_board_comes_as_text_within_the_limit() -> None:
    board = "```\nboard\n```\n*(as text)*"
    post = Post(content="your move", card=Card("t", "a" * 3000), text_board=board)
    text = text_of(post)
    assert len(text) <= CONTENT and text.endswith("\n" + board)
    assert text.startswith("aaa") and "…" in text
    short = Post(content="your move", card=Card("t", "played"), text_board=board)
    assert text_of(short) == f"played\nyour move\n{board}"
    assert text_of(Post(content="your move", card=Card("t"), text_board=board)).startswith("your")


def test_suggestions_fit_discords_autocomplete() -> None:
    many = [Choice("n" * 150, str(i)) for i in range(30)]
    sent = choices(many)
    assert len(sent) == 25 and all(len(choice.name) == 100 for choice in sent)
    assert sent[3].value == "3"


async def test_each_kind_of_control_is_read_back_from_its_custom_id() -> None:
    assert read(PieceChoice, "tafl:pc:3:12") == PieceChoice(3, 12)
    assert read(PieceChoice, "tafl:pc:3:12:1", ["40"]) == PieceChoice(3, 12, 1, ("40",))
    assert read(TargetChoice, "tafl:pc:3:12") is None
    handled: list[object] = []

    async def handler(interaction: discord.Interaction, ident: GameAction) -> None:
        handled.append(ident)

    table = Table(None, None, None)  # type: ignore[arg-type]
    table.on(GameAction, handler)
    [item] = table.controls()
    assert item.__name__ == "GameAction"
    button = discord.ui.Button[discord.ui.View](custom_id="tafl:g:9:resign", label="Resign")
    match = re.fullmatch(GameAction.TEMPLATE, "tafl:g:9:resign")
    assert match is not None
    clicked = await item.from_custom_id(None, button, match)  # type: ignore[arg-type]
    assert clicked.ident == GameAction(9, "resign")  # type: ignore[attr-defined]


def test_the_board_card_is_an_embed_the_players_saw_before() -> None:
    from test_compose_board import moved, state  # the same game as the composition's tests

    embed = embed_of(board_card(state(moved("d1-c1")), ["line"]), "tafl-7-1.png")
    assert embed.to_dict() == {
        "type": "rich",
        "flags": 0,
        "title": "Brandubh · game #7 · 1. d1-c1",
        "description": "line",
        "color": discord.Colour.light_grey().value,
        "fields": [
            {"name": "Attackers ⚫", "value": "<@1> · lost 0 of 8", "inline": True},
            {"name": "Defenders ⚪", "value": "<@2> · lost 0 of 4", "inline": True},
        ],
        "image": {"url": "attachment://tafl-7-1.png"},
        "footer": {"text": "/tafl move, or the Move button · /tafl rules explains the game"},
    }
