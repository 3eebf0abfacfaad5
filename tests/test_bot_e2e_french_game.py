"""A game in French on the Discord stand-in, through the real bot process: on a French server,
two French players play a challenge; one makes an illegal move and then resigns. Every message
and board they see is in French."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import WAIT, BotProcess, World, bot_env, private_text
from fakediscord import FakeDiscord, FakeMessage

pytestmark = pytest.mark.catalogue_words

ENGLISH = ("your move", "game #", "played `", "Flip board", "Resign", "Attackers", "wins")


def english_in(text: str) -> list[str]:
    """The English words of a game's messages that appear in ``text``."""
    return [word for word in ENGLISH if word in text]


def labels(message: FakeMessage) -> list[str]:
    """The labels of a message's buttons."""
    return [
        str((message.component(custom_id) or {}).get("label"))
        for custom_id in message.custom_ids
        if (message.component(custom_id) or {}).get("type") == 2
    ]


async def test_a_french_game_from_challenge_to_resignation(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Club de tafl")
        guild.locale = "fr"
        ann = fake.create_user("ann", guild=guild)
        bo = fake.create_user("bo", guild=guild)
        ann.locale = bo.locale = "fr"
        env = bot_env(fake, guild, tmp_path, {"TAFL_TIMER_TICK": "0.5"})
        bot = BotProcess(env, tmp_path / "bot.log")
        await bot.start(fake, guild)
        try:
            world = World(fake, guild, bot, {"ann": ann, "bo": bo})
            channel = world.channel("partie")
            mark = fake.checkpoint()
            offer = await world.offer_challenge(
                ann, bo, channel, variant="brandubh", side="attackers"
            )
            await world.click(bo, offer, ":accept")
            first = await fake.wait_for_message(
                channel, lambda m: bool(m.attachments) and not m.ephemeral, after=mark, timeout=WAIT
            )
            assert "à vous de jouer avec les attaquants" in first.text, first.text
            assert "partie n°" in first.text and not english_in(first.text), first.text
            assert labels(first) == [
                "Jouer",
                "Retourner le plateau",
                "Proposer la nulle",
                "Abandonner",
            ]
            (tmp_path / "first.png").write_bytes(first.attachments[0].data)

            moved = await world.command(ann, channel, "move", move="d1-c1")
            board = moved.original_message
            assert board is not None, moved.responses
            assert "a joué `d1-c1`" in board.text, board.text
            assert f"<@{bo.id}>, à vous de jouer avec les défenseurs" in board.text
            assert not english_in(board.text), board.text
            (tmp_path / "second.png").write_bytes(board.attachments[0].data)

            refused = await world.error_reply(bo, channel, "move", move="a1-a2")
            assert refused == "Coup interdit : `a1-a2` : il n'y a aucune pièce en a1", refused
            wrong_turn = await world.error_reply(ann, channel, "move", move="d2-c2")
            assert wrong_turn.startswith("Ce n'est pas votre tour"), wrong_turn

            asked = await world.click(bo, board, ":resign")
            question = await private_text(asked)
            assert question.startswith("Abandonner la partie n°"), question
            confirm = asked.original_message
            assert confirm is not None, asked.responses
            assert labels(confirm) == ["Oui, abandonner"]
            mark = fake.checkpoint()
            await fake.click_button(bo, confirm, confirm.custom_ids[0])
            final = await fake.wait_for_message(
                channel,
                lambda m: bool(m.attachments) and "abandonne" in m.text,
                after=mark,
                timeout=WAIT,
            )
            assert f"**<@{ann.id}> gagne** avec les attaquants" in final.text, final.text
            assert "Victoire des attaquants (abandon)" in final.text, final.text
            assert labels(final) == ["Revanche"]
            assert not english_in(final.text), final.text
            (tmp_path / "final.png").write_bytes(final.attachments[0].data)
            print(f"boards drawn in {tmp_path}")
        finally:
            assert await bot.stop() == 0, bot.log_text()
