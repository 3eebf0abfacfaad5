"""End to end on the Discord stand-in, in French: a French server (its Discord language) where a
French member asks for help and the rules, and challenges another member. Private answers are in
the reader's language, the challenge (posted in the channel) in the channel's."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from e2e_support import WAIT, World, attachment_is_png, button_id, open_world, printed_log
from fakediscord import FakeChannel, FakeInteraction, FakeMessage, FakeUser, Permission

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.catalogue_words]

NAMES = ["amelie", "bastien", "cole"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async with open_world(tmp_path_factory.mktemp("bot_e2e_french"), NAMES) as world:
        world.guild.locale = "fr"  # the server's language in Discord: French
        yield world


@pytest.fixture
def bot_log(world: World) -> Iterator[None]:
    """Print what the bot logged during the test (pytest shows it only when the test fails)."""
    with printed_log(world):
        yield


async def ask(
    world: World, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
) -> FakeInteraction:
    """``/tafl subcommand`` sent from a French Discord client."""
    interaction = await world.fake.send_slash_command(
        user, channel, "tafl", subcommand=subcommand, options=options, locale="fr"
    )
    await interaction.wait_callback(timeout=WAIT)
    return interaction


async def private_reply(interaction: FakeInteraction) -> FakeMessage:
    response = await interaction.wait_response(
        lambda r: r.ephemeral and r.message is not None and not r.message.loading, timeout=WAIT
    )
    assert response.message is not None, interaction.responses
    return response.message


async def test_help_names_the_commands_as_a_french_picker_does(world: World, bot_log: None) -> None:
    amelie = world.users["amelie"]
    channel = world.channel("aide")
    [embed] = (await private_reply(await ask(world, amelie, channel, "help"))).embeds
    assert embed["title"] == "Tafl : comment jouer"
    text = embed["description"]
    assert "`/tafl défier adversaire:@quelqu'un`" in text, text
    assert "**Les commandes**" in text
    assert "`/tafl règles` — " in text and "`/tafl challenge`" not in text, text
    # Someone whose Discord speaks English reads the same answer in English, even here.
    english = await world.command(world.users["cole"], channel, "help")
    [embed] = (await private_reply(english)).embeds
    assert embed["title"] == "Tafl: how to play"


async def test_the_rules_are_explained_in_french_with_the_start_drawn(
    world: World, bot_log: None
) -> None:
    amelie = world.users["amelie"]
    channel = world.channel("regles")
    answer = await private_reply(await ask(world, amelie, channel, "rules", variant="copenhagen"))
    [embed] = answer.embeds
    assert embed["title"] == "Hnefatafl de Copenhague (11×11)"
    assert embed["description"].startswith("Le tafl sur 11×11 le plus joué aujourd'hui.")
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Qui commence"] == "Les attaquants"
    assert fields["Mur de boucliers"].startswith("Deux pions ou plus alignés")
    assert "**Raichi !**" in fields["Les annonces"]
    assert embed["footer"]["text"].startswith("Source : Règles du Hnefatafl de Copenhague")
    assert attachment_is_png(answer)


async def test_a_challenge_in_a_french_server_is_posted_and_answered_in_french(
    world: World, bot_log: None
) -> None:
    amelie, bastien = world.users["amelie"], world.users["bastien"]
    channel = world.channel("defis")
    asked = await ask(world, amelie, channel, "challenge", opponent=bastien, variant="brandubh")
    offer = asked.original_message
    assert offer is not None and not offer.ephemeral, asked.responses
    assert f"<@{bastien.id}>, <@{amelie.id}> vous défie au **Brandubh**" in offer.text
    assert "Le défi expire <t:" in offer.text, offer.text
    labels = [button["label"] for button in offer.buttons]
    assert labels == ["Accepter", "Refuser", "Annuler"], labels
    # Bastien's client speaks English; the challenge's message is the channel's: French.
    clicked = await world.fake.click_button(bastien, offer, button_id(offer, ":accept"))
    await clicked.wait_callback(timeout=WAIT)
    assert offer.text.startswith(f"<@{bastien.id}> accepte ! La partie n° "), offer.text
    await world.command(bastien, channel, "resign")


async def test_a_server_that_chooses_french_gets_its_channels_posts_in_french(
    world: World, bot_log: None
) -> None:
    """A server whose Discord language is English chooses French with /tafl settings: its
    channels' posts are French from then on; each member's private answers stay in their own
    client's language."""
    cole, amelie = world.users["cole"], world.users["amelie"]
    world.guild.locale = "en-US"
    channel = world.channel("choix")
    managers = world.fake.create_role(world.guild, "gérants", Permission.MANAGE_GUILD)
    world.fake.give_role(world.guild, cole, managers)
    try:
        chosen = await private_reply(await world.command(cole, channel, "settings", language="fr"))
        [embed] = chosen.embeds  # Cole's client speaks English: his answer is English
        assert embed["title"] == "Tafl settings for this server"
        assert embed["footer"]["text"] == "Changes apply to games started from now on."
        shown = await private_reply(await ask(world, amelie, channel, "settings"))
        [embed] = shown.embeds  # Amélie's speaks French
        assert embed["title"] == "Les réglages de tafl de ce serveur"
        assert embed["fields"][-1] == {"name": "Langue", "value": "français", "inline": False}
        asked = await world.command(cole, channel, "challenge", opponent=amelie, variant="tablut")
        offer = asked.original_message
        assert offer is not None
        assert f"<@{amelie.id}>, <@{cole.id}> vous défie au **Tablut**" in offer.text, offer.text
        clicked = await world.fake.click_button(cole, offer, button_id(offer, ":cancel"))
        await clicked.wait_callback(timeout=WAIT)
        assert offer.text.startswith("Annulé : le défi de **Tablut** lancé par"), offer.text
    finally:
        await world.command(cole, channel, "settings", language="server")
        world.guild.locale = "fr"


async def test_a_server_that_changes_its_language_mid_game_reads_the_next_board_in_it(
    world: World, bot_log: None
) -> None:
    """The boards of a game in progress follow the server's choice of language from the next
    move on: chosen French between two moves, the next board is French; chosen back, English."""
    cole, bastien = world.users["cole"], world.users["bastien"]
    world.guild.locale = "en-US"
    channel = world.channel("en-cours")
    managers = world.fake.create_role(world.guild, "arbitres", Permission.MANAGE_GUILD)
    world.fake.give_role(world.guild, cole, managers)
    try:
        await world.challenge(cole, bastien, channel, variant="brandubh", side="attackers")
        mark = world.fake.checkpoint()
        await world.command(cole, channel, "move", move="d1-c1")
        await world.board_after(channel, mark, "played `d1-c1`")
        await private_reply(await world.command(cole, channel, "settings", language="fr"))
        mark = world.fake.checkpoint()
        await world.command(bastien, channel, "move", move="d3-c3")
        french = await world.board_after(channel, mark, "a joué `d3-c3`")
        attachment_is_png(french)  # its board drawn too
        await private_reply(await world.command(cole, channel, "settings", language="server"))
        mark = world.fake.checkpoint()
        await world.command(cole, channel, "move", move="c1-b1")
        await world.board_after(channel, mark, "played `c1-b1`")
    finally:
        await world.command(bastien, channel, "resign")
        await world.command(cole, channel, "settings", language="server")
        world.guild.locale = "fr"
