"""The lobby and the tournaments in other languages, end to end on the Discord stand-in: a
French server's tournament (announcement, sign-up, pairing, the final standings and their
crosstable image) reads French, a German one's round German; a game across a French and an English
server, or a Swedish and a French one, speaks each server's language in that server's thread."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from e2e_support import WAIT, BotProcess, attachment_is_png, bot_env, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, Permission

pytestmark = pytest.mark.catalogue_words

PAIRED_FR = re.compile(r"<@(\d+)> attaque, <@(\d+)> défend")


async def command(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    subcommand: str,
    *,
    root: str = "tafl",
    locale: str = "fr",
    **options: object,
) -> str:
    """``/root subcommand`` (``/tafl`` by default) as a French client sends it; what it
    answered (public or private)."""
    interaction = await fake.send_slash_command(
        user, channel, root, subcommand=subcommand, options=options, locale=locale
    )
    await interaction.wait_callback(timeout=WAIT)

    def answered() -> str | None:
        return "\n".join(m.text for m in interaction.messages) or None

    return str(await fake.wait_until(answered, timeout=WAIT))


async def said(fake: FakeDiscord, channel: FakeChannel, text: str) -> FakeMessage:
    return await fake.wait_for_message(channel, lambda m: text in m.text, timeout=WAIT)


def check_log(bot: BotProcess) -> None:
    problems = [e for e in split_log(bot.log_text()) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


async def test_a_french_servers_tournament_round_reads_french(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Club de tafl")
        guild.locale = "fr"
        olga = fake.create_user("olga", guild=guild)
        fake.give_role(guild, olga, fake.create_role(guild, "orgas", Permission.MANAGE_GUILD))
        players = [fake.create_user(name, guild=guild) for name in ("ana", "bo", "cy", "di")]
        people = {p.id: p for p in players}
        channel = guild.channel("general")
        bot = BotProcess(
            bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"}), tmp_path / "bot.log"
        )
        await bot.start(fake, None)
        try:
            await command(
                fake, olga, channel, "create", root="tafl-tournament", name="Coupe d'hiver",
                variant="brandubh", format="swiss", rounds=1, time="2 jours",
            )  # fmt: skip
            announcement = await fake.wait_for_message(
                channel, lambda m: bool(m.embeds) and "Coupe d'hiver" in m.text, timeout=WAIT
            )
            assert "Brandubh en système suisse · 1 ronde" in announcement.text, announcement.text
            # The time was typed in French ("jours"), as the option's French description says.
            assert "2 jours par coup" in announcement.text, announcement.text
            assert "Inscrivez-vous avec le bouton" in announcement.text
            for player in players:
                joined = await command(
                    fake, player, channel, "join", root="tafl-tournament", event=1
                )
                assert joined.startswith("Vous êtes inscrit à **Coupe d'hiver** (n° 1)."), joined
            # One member's client is English: his private answer is English, the channel French.
            listed = await command(fake, players[0], channel, "list", root="tafl-tournament")
            assert "inscriptions ouvertes" in listed
            english = await command(
                fake, players[1], channel, "info", root="tafl-tournament", locale="en-US", event=1
            )
            assert "open for sign-up" in english, english
            await command(fake, olga, channel, "start", root="tafl-tournament", event=1)
            paired = await said(fake, channel, "Coupe d'hiver** : les appariements de la ronde 1")
            assert "Table 1 : <@" in paired.text and "(attaque)" in paired.text, paired.text
            threads: dict[int, tuple[FakeChannel, int]] = {}

            def begun() -> bool | None:
                for thread in fake.world.channels.values():
                    if thread.parent_id != channel.id or "· R1 ·" not in thread.name:
                        continue
                    for message in fake.bot_messages(thread):
                        found = PAIRED_FR.search(message.text)
                        if found:
                            threads[thread.id] = (thread, int(found[2]))
                return True if len(threads) == 2 else None

            await fake.wait_until(begun, timeout=WAIT)
            for thread, defender in threads.values():
                assert " contre " in thread.name, thread.name
                resign = await fake.send_slash_command(
                    people[defender], thread, "tafl", subcommand="resign", options={},
                    locale="fr",
                )  # fmt: skip
                await resign.wait_callback(timeout=WAIT)
            final = await said(fake, channel, "est terminé. Classement final :")
            assert "🥇" in final.text
            standings = await said(fake, channel, "Brandubh en système suisse · classement final")
            assert "Départages, dans l'ordre :" in standings.text, standings.text
            attachment_is_png(standings)
            assert standings.attachments[0].description is not None
            assert standings.attachments[0].description.startswith("Classement de Coupe d'hiver")
            # The event's history reads in each reader's language.
            history = await command(fake, olga, channel, "info", root="tafl-tournament", event=1)
            assert "commencé avec 4 joueurs (olga)" in history, history
            assert "ronde 1 appariée" in history and "terminé" in history, history
            english = await command(
                fake, players[1], channel, "info", root="tafl-tournament", locale="en-US", event=1
            )
            assert "started with 4 players (olga)" in english, english
            assert "round 1 paired" in english, english
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "tournament-fr.png").write_bytes(standings.attachments[0].data)
        finally:
            await bot.stop()
        fake.assert_healthy()
        check_log(bot)


async def test_a_lobby_game_across_a_french_and_an_english_server_speaks_each_ones(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        north = fake.create_guild("Club du Nord")
        north.locale = "fr"
        south = fake.create_guild("South Club")
        ann = fake.create_user("ann", guild=north)
        ben = fake.create_user("ben", guild=south)
        north_lobby, south_lobby = north.channel("general"), south.channel("general")
        bot = BotProcess(
            bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"}), tmp_path / "bot.log"
        )
        await bot.start(fake, None)
        try:
            waiting = await command(fake, ann, north_lobby, "seek", variant="brandubh")
            assert waiting.startswith(
                "Recherche d'une partie de **Brandubh** sur tous les serveurs : 1 jour par coup"
            ), waiting
            listed = await command(fake, ann, north_lobby, "lobby")
            assert "Le lobby : les joueurs qui cherchent une partie" in listed, listed
            found = await command(
                fake, ben, south_lobby, "seek", locale="en-US", variant="brandubh"
            )
            assert found.startswith("Found: ann (Club du Nord)."), found
            north_thread = next(
                c for c in fake.world.channels.values() if c.parent_id == north_lobby.id
            )
            south_thread = next(
                c for c in fake.world.channels.values() if c.parent_id == south_lobby.id
            )
            assert north_thread.name == "ann contre ben · Brandubh", north_thread.name
            assert south_thread.name == "ben vs ann · Brandubh", south_thread.name
            french = await said(fake, north_thread, "du lobby commence")
            assert "Une partie de **Brandubh** du lobby commence" in french.text, french.text
            assert "1 jour par coup, classée." in french.text
            english = await said(fake, south_thread, "from the lobby begins")
            assert "1 day per move, rated." in english.text, english.text
            # The player who moves second is called in their own thread, in their server's
            # language.
            if "You play the defenders" in found:
                called = await said(fake, south_thread, "your game from the lobby has begun")
                assert "you play the defenders" in called.text
            else:
                called = await said(fake, north_thread, "votre partie du lobby a commencé ici")
                assert "vous jouez les défenseurs" in called.text, called.text
        finally:
            await bot.stop()
        fake.assert_healthy()
        check_log(bot)


async def test_a_german_servers_tournament_round_reads_german(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Tafl-Verein")
        guild.locale = "de"
        olga = fake.create_user("olga", guild=guild)
        fake.give_role(guild, olga, fake.create_role(guild, "leitung", Permission.MANAGE_GUILD))
        players = [fake.create_user(name, guild=guild) for name in ("ana", "bo")]
        channel = guild.channel("general")
        bot = BotProcess(
            bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"}), tmp_path / "bot.log"
        )
        await bot.start(fake, None)
        try:
            await command(
                fake, olga, channel, "create", root="tafl-tournament", locale="de",
                name="Herbstpokal", variant="brandubh", format="swiss", rounds=1, min_players=2,
                time="3std",
            )  # fmt: skip
            announcement = await fake.wait_for_message(
                channel, lambda m: bool(m.embeds) and "Herbstpokal" in m.text, timeout=WAIT
            )
            assert "Brandubh, Schweizer System · 1 Runde" in announcement.text, announcement.text
            assert "3 Stunden pro Zug" in announcement.text, announcement.text
            for player in players:
                joined = await command(
                    fake, player, channel, "join", root="tafl-tournament", locale="de", event=1
                )
                assert joined.startswith("Du bist bei **Herbstpokal** (Nr. 1) dabei."), joined
            await command(
                fake, olga, channel, "start", root="tafl-tournament", locale="de", event=1
            )
            paired = await said(fake, channel, "Herbstpokal**: Runde 1 ist ausgelost.")
            assert "Brett 1: <@" in paired.text and "(greift an)" in paired.text, paired.text
            begun = await fake.wait_until(
                lambda: next(
                    (
                        (thread, message)
                        for thread in fake.world.channels.values()
                        if thread.parent_id == channel.id
                        for message in fake.bot_messages(thread)
                        if "greift an" in message.text
                    ),
                    None,
                ),
                timeout=WAIT,
            )
            thread, first = begun
            assert " gegen " in thread.name, thread.name
            defender = int(re.findall(r"<@(\d+)> verteidigt", first.text)[0])
            loser = next(p for p in players if p.id == defender)
            resign = await fake.send_slash_command(
                loser, thread, "tafl", subcommand="resign", options={}, locale="de"
            )
            await resign.wait_callback(timeout=WAIT)
            await said(fake, channel, "ist vorbei. Endstand:")
            standings = await said(fake, channel, "Brandubh, Schweizer System · Endstand")
            assert "Feinwertungen, der Reihe nach:" in standings.text, standings.text
            attachment_is_png(standings)
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "tournament-de.png").write_bytes(standings.attachments[0].data)
        finally:
            await bot.stop()
        fake.assert_healthy()
        check_log(bot)


async def test_a_lobby_game_across_a_swedish_and_a_french_server_speaks_each_ones(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        north = fake.create_guild("Tafelklubben")
        north.locale = "sv-SE"
        south = fake.create_guild("Club du Sud")
        south.locale = "fr"
        ann = fake.create_user("ann", guild=north)
        ben = fake.create_user("ben", guild=south)
        north_lobby, south_lobby = north.channel("general"), south.channel("general")
        bot = BotProcess(
            bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"}), tmp_path / "bot.log"
        )
        await bot.start(fake, None)
        try:
            waiting = await command(
                fake, ann, north_lobby, "seek", locale="sv-SE", variant="brandubh"
            )
            assert waiting.startswith("Söker ett parti **Brandubh** på alla servrar"), waiting
            found = await command(fake, ben, south_lobby, "seek", variant="brandubh")
            assert found.startswith("Adversaire trouvé : ann (Tafelklubben)."), found
            north_thread = next(
                c for c in fake.world.channels.values() if c.parent_id == north_lobby.id
            )
            south_thread = next(
                c for c in fake.world.channels.values() if c.parent_id == south_lobby.id
            )
            assert north_thread.name == "ann mot ben · Brandubh", north_thread.name
            assert south_thread.name == "ben contre ann · Brandubh", south_thread.name
            swedish = await said(fake, north_thread, "från lobbyn börjar")
            assert "1 dag per drag, rankat." in swedish.text, swedish.text
            french = await said(fake, south_thread, "du lobby commence")
            assert "1 jour par coup, classée." in french.text, french.text
        finally:
            await bot.stop()
        fake.assert_healthy()
        check_log(bot)


async def test_a_swedish_player_types_times_in_swedish(tmp_path: Path) -> None:
    """A time typed as a Swedish player writes it (``2t``: two hours) is taken; a word that is
    no time is refused with the Swedish words that work."""
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Tafelklubben")
        guild.locale = "sv-SE"
        ann, bo = fake.create_user("ann", guild=guild), fake.create_user("bo", guild=guild)
        channel = guild.channel("general")
        bot = BotProcess(bot_env(fake, None, tmp_path), tmp_path / "bot.log")
        await bot.start(fake, None)
        try:
            refused = await command(
                fake, ann, channel, "challenge", locale="sv-SE", opponent=bo, time="snart"
            )
            assert refused == (
                "'snart' är ingen tid: skriv den som `30s`, `10m`, `24t` eller `3d`, eller "
                "`ingen` för ingen gräns."
            ), refused
            await command(fake, ann, channel, "challenge", locale="sv-SE", opponent=bo, time="2t")
            challenge = await said(fake, channel, "2 timmar per drag")
            assert bo.mention in challenge.text, challenge.text
        finally:
            await bot.stop()
        fake.assert_healthy()
        check_log(bot)
