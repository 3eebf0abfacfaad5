"""Tournaments end to end on the Discord stand-in, from the announcement to the podium: an
8-player Swiss of 3 rounds with one-game pairings (a withdrawal, so a bye; a loss on time; the
bot restarted mid-round), and a 5-player round robin of two-game matches (a bye every round)."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from e2e_support import WAIT, BotProcess, attachment_is_png, bot_env, private_text, split_log
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser, Permission

from bot.storage import Storage

PAIRED = re.compile(r"<@(\d+)> attacks, <@(\d+)> defends")


class Event:
    """One tournament as its players see it: the channel, its game threads, its players."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild, channel: FakeChannel) -> None:
        self.fake = fake
        self.guild = guild
        self.channel = channel
        self.people: dict[int, FakeUser] = {}

    async def command(
        self, user: FakeUser, channel: FakeChannel, subcommand: str, **options: object
    ) -> str:
        interaction = await self.fake.send_slash_command(
            user, channel, "tafl-tournament", subcommand=subcommand, options=options
        )
        await interaction.wait_callback(timeout=WAIT)

        def answered() -> str | None:
            text = "\n".join(m.text for m in interaction.messages)
            return text or None

        return str(await self.fake.wait_until(answered, timeout=WAIT))

    def threads(self, round_number: int) -> list[FakeChannel]:
        return [
            c
            for c in self.fake.world.channels.values()
            if c.parent_id == self.channel.id and f"· R{round_number} ·" in c.name
        ]

    async def games(self, round_number: int, count: int) -> list[tuple[FakeChannel, int, int]]:
        """The round's game threads (waiting until ``count`` have a first board), each with its
        attacker and defender."""
        found: list[tuple[FakeChannel, int, int]] = []

        def ready() -> bool | None:
            found.clear()
            for thread in self.threads(round_number):
                for message in self.fake.bot_messages(thread):
                    match = PAIRED.search(message.text)
                    if match:
                        found.append((thread, int(match[1]), int(match[2])))
                        break
            return True if len(found) >= count else None

        await self.fake.wait_until(ready, timeout=WAIT)
        return list(found)

    async def resign(self, thread: FakeChannel, loser: int) -> None:
        interaction = await self.fake.send_slash_command(
            self.people[loser], thread, "tafl", subcommand="resign", options={}
        )
        await interaction.wait_callback(timeout=WAIT)
        await self.fake.wait_for_message(thread, lambda m: "resigned" in m.text, timeout=WAIT)

    async def said(self, text: str, after: int = 0) -> FakeMessage:
        return await self.fake.wait_for_message(
            self.channel, lambda m: text in m.text, after=after, timeout=WAIT
        )


@dataclass(frozen=True)
class Served:
    """A bot process serving the stand-in, and its environment (its database is in it)."""

    bot: BotProcess
    env: dict[str, str]


@contextlib.asynccontextmanager
async def serving(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Served]:
    """The bot serving ``fake`` on SQLite in ``tmp_path`` (its clock ticking twice a second),
    stopped afterwards; it must have logged no error and left the stand-in healthy."""
    env = bot_env(fake, None, tmp_path, {"TAFL_TIMER_TICK": "0.5"})
    bot = BotProcess(env, tmp_path / "bot.log")
    await bot.start(fake, None)
    try:
        yield Served(bot, env)
    finally:
        await bot.stop()
    fake.assert_healthy()
    problems = [e for e in split_log(bot.log_text()) if "Traceback" in e or " ERROR " in e]
    assert not problems, "\n".join(problems)


def club(fake: FakeDiscord, names: list[str]) -> tuple[FakeGuild, FakeUser, list[FakeUser]]:
    guild = fake.create_guild("Tafl Club")
    olga = fake.create_user("olga", guild=guild)
    managers = fake.create_role(guild, "managers", Permission.MANAGE_GUILD)
    fake.give_role(guild, olga, managers)
    return guild, olga, [fake.create_user(name, guild=guild) for name in names]


def set_deadline(env: dict[str, str], game_id: int, seconds_from_now: float) -> None:
    with sqlite3.connect(env["TAFL_DATABASE"], timeout=10) as connection:
        connection.execute(
            "UPDATE games SET move_deadline = ? WHERE id = ?",
            (int(time.time() + seconds_from_now), game_id),
        )


def game_id_in(fake: FakeDiscord, thread: FakeChannel) -> int:
    for message in fake.bot_messages(thread):
        found = re.search(r"game #(\d+)", message.text)
        if found:
            return int(found[1])
    raise AssertionError(f"no game in {thread!r}")


async def test_an_eight_player_swiss_with_a_withdrawal_a_timeout_and_a_restart(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, [f"p{k}" for k in range(8)])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path) as served:
            refused = await event.command(players[0], event.channel, "create", name="Nope")
            assert "Only members who may manage the server" in refused
            created = await event.command(
                olga, event.channel, "create", name="Autumn Swiss", variant="brandubh",
                format="swiss", rounds=3, starts_in="1h",
            )  # fmt: skip
            assert "Autumn Swiss" in created and "3 rounds" in created, created
            announcement = await event.said("Autumn Swiss (#1)")
            for player in players:
                join = next(c for c in announcement.custom_ids if c.endswith(":join"))
                clicked = await fake.click_button(player, announcement, join)
                await clicked.wait_callback(timeout=WAIT)
                assert "You are in **Autumn Swiss**" in await private_text(clicked)
            again = await event.command(players[0], event.channel, "join")
            assert "already in" in again
            started = await event.command(olga, event.channel, "start", event=1)
            assert "has begun" in started, started

            # Round 1: the attackers win every game; board 4's defender runs out of time.
            games = await event.games(1, 4)
            for thread, _, defender in games[:3]:
                await event.resign(thread, defender)
            rematch = await fake.send_slash_command(
                event.people[games[0][1]], games[0][0], "tafl", subcommand="rematch", options={}
            )
            await rematch.wait_callback(timeout=WAIT)
            assert "Tournament games have no rematch" in await private_text(rematch)
            # Board 1's defender, whose game is over, withdraws during round 1 (the game
            # stands): seven players from round 2, so one has a bye.
            leaver = event.people[games[0][2]]
            withdrawn = await event.command(leaver, event.channel, "leave")
            assert "withdrawn" in withdrawn
            last_thread, _, _ = games[3]
            set_deadline(served.env, game_id_in(fake, last_thread), -1)
            await fake.wait_for_message(
                last_thread, lambda m: "ran out of time" in m.text, timeout=WAIT
            )
            await event.said("after round 1")  # the standings after each round
            await event.said("round 2 is paired")
            games = await event.games(2, 3)
            bye = re.search(r"Bye: <@(\d+)>", (await event.said("Bye:")).text)
            assert bye is not None
            # The player with the bye leaves the server: not paired again.
            gone = event.people[int(bye[1])]
            fake.remove_member(guild, gone)
            # A restart mid-round loses nothing.
            await served.bot.stop()
            await served.bot.start(fake, None)
            for thread, attacker, _ in games:
                await event.resign(thread, attacker)
            await event.said("round 3 is paired")
            games = await event.games(3, 3)  # six players left: no bye
            for thread, _, defender in games:
                await event.resign(thread, defender)
            final = await event.said("is over. Final standings")
            assert "🥇" in final.text and "🥉" in final.text
            standings = await event.said("Brandubh Swiss · final")
            assert "Buchholz" in standings.text, standings.text
            width, _ = attachment_is_png(standings)  # the crosstable
            assert width >= 360
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:  # to look at, as a player would
                (Path(shots) / "swiss-final.png").write_bytes(standings.attachments[0].data)
            listed = await event.command(players[1], event.channel, "pairings", event=1, round=2)
            assert "bye:" in listed
    storage = await Storage.open(served.env["TAFL_DATABASE"])
    try:
        pairings = await storage.tournaments.pairings(1)
        met = [
            frozenset((p.first.user_id, p.second.user_id)) for p in pairings if p.second is not None
        ]
        assert len(met) == len(set(met)) == 4 + 3 + 3  # nobody met twice
        assert all(p.decided is not None for p in pairings)
        byes = [p for p in pairings if p.second is None]
        assert [b.round for b in byes] == [2] and byes[0].first.user_id == gone.id
        left = {e.player.user_id: e.left_reason for e in await storage.tournaments.entrants(1)}
        assert left[leaver.id] == "withdrew" and left[gone.id] == "left the server"
        assert gone.id not in {
            u
            for p in pairings
            if p.round == 3
            for u in (p.first.user_id, p.second and p.second.user_id)
        }
        history = [h.action for h in await storage.tournaments.history(1)]
        assert history[:1] == ["created"] and "finished" in history and "left" in history
    finally:
        await storage.close()


async def test_a_five_player_round_robin_of_two_game_matches(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy", "di", "ed"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path) as served:
            await event.command(
                olga, event.channel, "create", name="Club Round Robin", variant="brandubh",
                format="round_robin", matches=True,
            )  # fmt: skip
            for player in players:
                joined = await event.command(player, event.channel, "join", event=1)
                assert "You are in" in joined
            await event.command(olga, event.channel, "start", event=1)
            for number in range(1, 6):
                await event.said(f"round {number} is paired")
                # Two boards a round (one player has a bye); each match: game 1 won by its
                # attacker, game 2 (sides swapped, same thread) by its defender.
                games = await event.games(number, 2)
                for thread, _, defender in games:
                    await event.resign(thread, defender)
                for thread, first_attacker, _ in games:
                    second = await fake.wait_for_message(
                        thread, lambda m: "game 2 of 2" in m.text, timeout=WAIT
                    )
                    assert f"<@{first_attacker}> defends" in second.text  # sides swapped
                    await event.resign(thread, first_attacker)
            final = await event.said("is over. Final standings")
            assert "🥇" in final.text
            standings = await event.said("Brandubh round robin · final")
            assert "GP game points" in standings.text, standings.text
            attachment_is_png(standings)
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "round-robin-final.png").write_bytes(standings.attachments[0].data)
    storage = await Storage.open(served.env["TAFL_DATABASE"])
    try:
        pairings = await storage.tournaments.pairings(1)
        met = [
            frozenset((p.first.user_id, p.second.user_id)) for p in pairings if p.second is not None
        ]
        assert len(met) == len(set(met)) == 10  # everyone met everyone once
        assert sum(1 for p in pairings if p.second is None) == 5  # one bye each
        assert all(len(p.games) == 2 for p in pairings if p.second is not None)
    finally:
        await storage.close()


async def test_an_arena_pairs_players_again_as_soon_as_their_games_end(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy", "di"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path) as served:
            await event.command(
                olga, event.channel, "create", name="Friday Arena", variant="brandubh",
                format="arena", minutes=30, time="10m",
            )  # fmt: skip
            for player in players:
                await event.command(player, event.channel, "join")
            too_few = await event.command(players[0], event.channel, "start", event=1)
            assert "Only members who may manage the server" in too_few
            await event.command(olga, event.channel, "start", event=1)
            first = await event.games(1, 2)
            for thread, _, defender in first:
                await event.resign(thread, defender)
            # Paired again at once, never against the last opponent.
            again = await event.games(1, 4)
            fresh = [g for g in again if g[0] not in {t for t, _, _ in first}]
            assert len(fresh) == 2
            before = {frozenset((a, d)) for _, a, d in first}
            assert not {frozenset((a, d)) for _, a, d in fresh} & before
            with sqlite3.connect(served.env["TAFL_DATABASE"], timeout=10) as connection:
                connection.execute("UPDATE tournaments SET ends_at = 0")
            for thread, attacker, _ in fresh:
                await event.resign(thread, attacker)
            final = await event.said("is over. Final standings")
            assert "🥇" in final.text
            standings = await event.said("Friday Arena** · Brandubh arena")
            assert "games played" in standings.text, standings.text


async def test_an_event_without_thread_permission_pauses_until_resumed(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        fake.set_permissions(event.channel, fake.bot_user, deny=Permission.CREATE_PUBLIC_THREADS)
        async with serving(fake, tmp_path) as served:
            await event.command(
                olga, event.channel, "create", name="Small Swiss", variant="brandubh",
                rounds=1, min_players=3,
            )  # fmt: skip
            for player in players[:2]:
                await event.command(player, event.channel, "join")
            early = await event.command(olga, event.channel, "start", event=1)
            assert "needs 3 players to start and has 2; it stays open" in early
            # At its time, still too few: cancelled, and the channel is told.
            with sqlite3.connect(served.env["TAFL_DATABASE"], timeout=10) as connection:
                connection.execute("UPDATE tournaments SET starts_at = 0 WHERE id = 1")
            await event.said("**Small Swiss** is cancelled: it needed 3 players and 2 joined")
            await event.command(
                olga, event.channel, "create", name="Second Try", variant="brandubh",
                rounds=1, min_players=3,
            )  # fmt: skip
            for player in players:
                await event.command(player, event.channel, "join", event=2)
            await event.command(olga, event.channel, "start", event=2)
            paused = await event.said("is paused: I may not open threads")
            assert "Create Public Threads" in paused.text
            fake.set_permissions(event.channel, fake.bot_user, deny=0)
            resumed = await event.command(olga, event.channel, "resume", event=2)
            assert "goes on" in resumed
            [(thread, _, defender)] = await event.games(1, 1)
            await event.resign(thread, defender)
            await event.said("**Second Try** is over")


async def test_a_round_that_ends_during_a_pause_gets_its_standings_and_waits(
    tmp_path: Path,
) -> None:
    """Paused mid-round: the games go on and count; the round's end is announced with its
    standings at once, once; the next round is paired only on resume; the last round's end
    finishes the event even while it is paused."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy", "di"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            await event.command(
                olga, event.channel, "create", name="Tuesday Swiss", variant="brandubh", rounds=2,
            )  # fmt: skip
            for player in players:
                await event.command(player, event.channel, "join", event=1)
            await event.command(olga, event.channel, "start", event=1)
            games = await event.games(1, 2)
            paused = await event.command(olga, event.channel, "pause", event=1)
            assert "is paused" in paused
            for thread, _, defender in games:
                await event.resign(thread, defender)
            over = await event.said("round 1 is over. The tournament is paused")
            assert "round 2 is paired when an organiser resumes it" in over.text
            standings = await event.said("Brandubh Swiss · after round 1 of 2", after=over.sequence)
            attachment_is_png(standings)
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "paused-round.png").write_bytes(standings.attachments[0].data)
                (Path(shots) / "paused-round.txt").write_text(over.text + "\n" + standings.text)
            assert not event.threads(2)  # nothing paired while paused
            await event.command(olga, event.channel, "resume", event=1)
            await event.said("round 2 is paired")
            second = await event.games(2, 2)
            # The round's standings were posted once, during the pause.
            said = [m.text for m in fake.bot_messages(event.channel)]
            assert sum("after round 1 of 2" in text for text in said) == 1
            await event.command(olga, event.channel, "pause", event=1)
            for thread, _, defender in second:
                await event.resign(thread, defender)
            final = await event.said("**Tuesday Swiss** is over. Final standings")
            assert "🥇" in final.text


async def test_the_organisers_tools(tmp_path: Path) -> None:
    """A role named in the settings runs events; a result set by the organiser calls off the
    game under way; a removed player is not paired again; the event's record exports; a cancel
    ends it. Each is in the event's history."""
    async with FakeDiscord() as fake:
        guild, admin, players = club(fake, ["ana", "bo", "cy", "di", "tom"])
        tom = players.pop()  # runs the event through the organisers' role
        role = fake.create_role(guild, "arbiters")
        fake.give_role(guild, tom, role)
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            refused = await event.command(tom, event.channel, "create", name="Club Night")
            assert "organisers' role" in refused
            named = await fake.send_slash_command(
                admin, event.channel, "tafl", subcommand="settings", options={"organisers": role}
            )
            await named.wait_callback(timeout=WAIT)
            shown = await fake.wait_until(
                lambda: next((m.text for m in named.messages if m.text), None), timeout=WAIT
            )
            assert f"<@&{role.id}>" in shown, shown
            await event.command(
                tom, event.channel, "create", name="Club Night", variant="brandubh", rounds=2,
            )  # fmt: skip
            for player in players:
                await event.command(player, event.channel, "join")
            await event.command(tom, event.channel, "start", event=1)
            games = await event.games(1, 2)
            boards = {
                game[0].id: next(
                    int(m["board"])
                    for m in (
                        re.search(r"board (?P<board>\d+)", message.text)
                        for message in fake.bot_messages(game[0])
                    )
                    if m
                )
                for game in games
            }
            (first, _, _), (second, _, d2) = sorted(games, key=lambda g: boards[g[0].id])
            set_result = await event.command(
                tom, event.channel, "result", event=1, round=1, board=1, result="1-0",
                reason="forfeit: the defender never moved",
            )  # fmt: skip
            assert "(forfeit: the defender never moved)" in set_result
            await fake.wait_for_message(first, lambda m: "was called off" in m.text, timeout=WAIT)
            late_move = await fake.send_slash_command(
                players[0], first, "tafl", subcommand="move", options={"move": "a4-a3"}
            )
            await late_move.wait_callback(timeout=WAIT)
            assert "was called off" in await private_text(late_move)
            removed = await event.command(
                tom, event.channel, "remove", event=1, player=event.people[d2], reason="abuse"
            )
            assert "removed from **Club Night** (abuse)" in removed
            assert "Their game under way is lost by forfeit." in removed
            await fake.wait_for_message(second, lambda m: "was called off" in m.text, timeout=WAIT)
            await event.said("round 2 is paired")
            round_two = await event.games(2, 1)
            assert all(d2 not in (a, d) for _, a, d in round_two)
            await event.said("Bye:")
            exported = await fake.send_slash_command(
                ana := players[0], event.channel, "tafl-tournament", subcommand="export",
                options={"event": 1},
            )  # fmt: skip
            await exported.wait_callback(timeout=WAIT)
            record = await fake.wait_until(
                lambda: next((m for m in exported.messages if m.attachments), None), timeout=WAIT
            )
            text = record.attachments[0].data.decode()
            assert "Club Night" in text and text.count("[attackers:") == 3, text[:500]
            cancelled = await event.command(
                tom, event.channel, "cancel", event=1, reason="the club closes early"
            )
            assert "is cancelled: the club closes early" in cancelled
            info = await event.command(ana, event.channel, "info", event=1)
            for line in (
                "round 1, board 1: 1-0 (forfeit: the defender never moved) (tom)",
                "bo was removed: abuse (tom)",
                "cancelled: the club closes early (tom)",
            ):
                assert line in info, info


async def test_a_swiss_that_runs_out_of_new_pairings_ends_early_and_says_why(
    tmp_path: Path,
) -> None:
    """Three players, five rounds asked for: after three rounds everyone has met everyone and
    had a bye, so round 4 cannot be paired; the event ends there, saying so."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            await event.command(
                olga, event.channel, "create", name="Tiny Swiss", variant="brandubh",
                rounds=5, min_players=3,
            )  # fmt: skip
            for player in players:
                await event.command(player, event.channel, "join")
            await event.command(olga, event.channel, "start", event=1)
            for number in (1, 2, 3):
                await event.said(f"round {number} is paired")
                [(thread, _, defender)] = await event.games(number, 1)
                await event.resign(thread, defender)
            final = await event.said("is over early")
            assert "no round 4 can be paired without a repeat pairing" in final.text, final.text


async def organised(
    event: Event, organiser: FakeUser, players: list[FakeUser], name: str, **options: object
) -> str:
    """An event created by ``organiser`` with ``options``, joined by ``players``; the
    announcement's words."""
    created = await event.command(
        organiser, event.channel, "create", name=name, variant="brandubh", **options
    )
    for player in players:
        await event.command(player, event.channel, "join")
    return created


async def exported_text(event: Event, user: FakeUser, number: int | None = None) -> str:
    """``/tafl-tournament export``'s file (of event ``number``, else the newest), as text."""
    options = {} if number is None else {"event": number}
    exported = await event.fake.send_slash_command(
        user, event.channel, "tafl-tournament", subcommand="export", options=options
    )
    await exported.wait_callback(timeout=WAIT)
    record = await event.fake.wait_until(
        lambda: next((m for m in exported.messages if m.attachments), None), timeout=WAIT
    )
    return str(record.attachments[0].data.decode())


async def test_without_a_number_the_commands_find_the_newest_event_even_once_it_is_over(
    tmp_path: Path,
) -> None:
    """``start`` takes the newest event waiting to start; once it is over, ``standings``,
    ``info`` and ``export`` without a number still find it (\"this server's newest\")."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            await organised(event, olga, players, "Quick One", rounds=1, min_players=2)
            started = await event.command(olga, event.channel, "start")
            assert "**Quick One** has begun" in started, started
            [(thread, _, defender)] = await event.games(1, 1)
            await event.resign(thread, defender)
            await event.said("**Quick One** is over")
            standings = await event.command(players[0], event.channel, "standings")
            assert "Quick One** · Brandubh Swiss · final" in standings, standings
            info = await event.command(players[1], event.channel, "info")
            assert "Quick One (#1)" in info and "finished" in info, info
            text = await exported_text(event, players[0])
            assert "Quick One" in text and "[termination:resignation]" in text, text[:300]


async def test_a_game_called_off_for_the_organisers_result_gets_a_final_board_and_a_record(
    tmp_path: Path,
) -> None:
    """The organiser sets a result while the pairing's game is under way: the old board stops
    calling on the player to move, a final board says the organiser's result and reason (no
    ping, no clock, no buttons), and the export gives that game its result and termination."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ada", "bo"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            await organised(event, olga, players, "Called Off", rounds=1, min_players=2)
            await event.command(olga, event.channel, "start", event=1)
            [(thread, attacker, _)] = await event.games(1, 1)
            first_board = next(m for m in fake.bot_messages(thread) if m.attachments)
            assert "your move" in first_board.text and "Time runs out" in first_board.text
            set_result = await event.command(
                olga, event.channel, "result", event=1, round=1, board=1, result="1-0",
                reason="adjudicated: a won position",
            )  # fmt: skip
            name = event.people[attacker].username
            assert f"{name} 1–0" in set_result and "(adjudicated: a won position)" in set_result
            final = await fake.wait_for_message(
                thread, lambda m: "was called off" in m.text and bool(m.attachments), timeout=WAIT
            )
            assert "the result is" in final.text and f"{name} 1–0" in final.text, final.text
            assert "your move" not in final.text and "Time runs out" not in final.text
            assert "Deadline" not in final.text and "called off" in final.embeds[0]["title"]
            assert not final.custom_ids and not final.content  # no ping: the words are below
            assert "your move" not in first_board.text and not first_board.custom_ids
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "called-off.png").write_bytes(final.attachments[0].data)
            text = await exported_text(event, players[0], 1)
            record = text.split("Round 1, board 1:")[1]
            assert "the organiser set the result" in record, record
            assert "[result:1]" in record and "[termination:adjudicated]" in record, record


async def test_leaving_mid_game_asks_first_then_resigns_the_game(tmp_path: Path) -> None:
    """A player leaves the event in the middle of a game: they are told that it resigns the
    game and asked to confirm; confirmed, the game is resigned as with /tafl resign, and the
    opponent gets the final board at once (not a day later, when the clock would run out).
    It was the first game of a two-game match: the second is never started, and counts as
    lost by the player who left."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path) as served:
            await organised(event, olga, players, "Walkout", rounds=2, min_players=2, matches=True)
            await event.command(olga, event.channel, "start", event=1)
            [(thread, attacker, defender)] = await event.games(1, 1)
            asked = await fake.send_slash_command(
                event.people[defender], event.channel, "tafl-tournament",
                subcommand="leave", options={},
            )  # fmt: skip
            await asked.wait_callback(timeout=WAIT)
            question = await private_text(asked)
            opponent = event.people[attacker].username
            assert f"Leaving now resigns your game against {opponent} in round 1" in question
            [dialog] = asked.messages
            assert dialog.ephemeral
            confirm = next(cid for cid in dialog.custom_ids if cid.startswith("tafl:tl:"))
            left = await fake.click_button(event.people[defender], dialog, confirm)
            await left.wait_callback(timeout=WAIT)
            await fake.wait_for_message(
                event.channel,
                lambda m: "You have withdrawn from **Walkout**" in m.text and "resigned" in m.text,
                timeout=WAIT,
            )
            ended = await fake.wait_for_message(
                thread, lambda m: "resigned" in m.text and bool(m.attachments), timeout=WAIT
            )
            assert f"<@{attacker}> wins" in ended.text, ended.text
            await event.said("is over early")  # one player left: no round 2
            assert not any("game 2 of 2" in m.text for m in fake.bot_messages(thread))
            storage = await Storage.open(served.env["TAFL_DATABASE"])
            try:
                [pairing] = await storage.tournaments.pairings(1)
                assert (pairing.first_points, pairing.second_points) == (2.0, 0.0)
                assert pairing.decided == "played" and len(pairing.games) == 1
            finally:
                await storage.close()


async def test_a_player_who_left_keeps_their_place_in_the_standings(tmp_path: Path) -> None:
    """A four-player Swiss of two rounds: a winner of round 1 loses in round 2 and then leaves
    while the last game is still played, which is drawn. The podium and the standings rank
    the player who left by their point, above the two still playing with a half, marked; the
    Sonneborn-Berger quarters of the draw read as in the image; one round is "1 round"."""
    async with FakeDiscord() as fake:
        guild, olga, players = club(fake, ["ana", "bo", "cy", "di"])
        event = Event(fake, guild, guild.channel("general"))
        event.people = {p.id: p for p in players}
        async with serving(fake, tmp_path):
            created = await organised(event, olga, players, "Two Rounds", rounds=2)
            assert "Brandubh Swiss · 2 rounds" in created, created
            await event.command(olga, event.channel, "start", event=1)
            for thread, _, defender in await event.games(1, 2):
                await event.resign(thread, defender)
            await event.said("round 2 is paired")
            games = await event.games(2, 2)
            winners = {attacker for _, attacker, _ in await event.games(1, 2)}
            top = next(g for g in games if set(g[1:]) == winners)
            (drawn, loser_a, loser_d) = next(g for g in games if g is not top)
            thread, champion, leaver = top
            await event.resign(thread, leaver)
            out = await event.command(event.people[leaver], event.channel, "leave")
            assert "You have withdrawn from **Two Rounds**" in out, out
            offered = await fake.send_slash_command(
                event.people[loser_a], drawn, "tafl", subcommand="draw", options={}
            )
            await offered.wait_callback(timeout=WAIT)
            offer = await fake.wait_for_message(
                drawn, lambda m: "offers a draw" in m.text and bool(m.custom_ids), timeout=WAIT
            )
            accept = next(cid for cid in offer.custom_ids if cid.endswith(":yes"))
            accepted = await fake.click_button(event.people[loser_d], offer, accept)
            await accepted.wait_callback(timeout=WAIT)

            podium = await event.said("is over. Final standings")
            lines = podium.text.splitlines()
            assert lines[1:3] == [f"🥇 <@{champion}> 2", f"🥈 <@{leaver}> 1 (withdrew)"], lines
            table = await event.said("Two Rounds** · Brandubh Swiss · final")
            rows = [row.split() for row in table.text.split("```")[1].strip().splitlines()[1:]]
            assert [row[:2] for row in rows] == [
                ["1", event.people[champion].username],
                ["2", event.people[leaver].username],
                ["3", rows[2][1]],
                ["4", rows[3][1]],
            ], table.text
            assert rows[1][2:4] == ["(out)", "1"], table.text
            # Sonneborn-Berger of each drawn player: half of the other's half, a quarter.
            assert rows[2][-3] == rows[3][-3] == "¼", table.text
            assert "(out): no longer paired" in table.text
            shots = os.environ.get("TAFL_TEST_SHOTS")
            if shots:
                (Path(shots) / "withdrawn-in-place.png").write_bytes(table.attachments[0].data)
                (Path(shots) / "withdrawn-in-place.txt").write_text(table.text)
            export = await exported_text(event, olga, 1)
            assert "(out)" in export and "¼" in export, export[:600]
            one = await event.command(
                olga, event.channel, "create", name="One Round", variant="brandubh", rounds=1,
            )  # fmt: skip
            assert "Brandubh Swiss · 1 round · " in one, one
