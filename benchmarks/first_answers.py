"""How soon slow commands answer: `.venv/bin/python benchmarks/first_answers.py [--smoke]`.

Starts the local Discord stand-in (tests/fakediscord) and the real bot process (`python -m bot`),
then measures, from the moment an interaction reaches the bot:

1. `/tafl rules` of each variant, asked for the first time (the renderer draws that board size
   for the first time, in the asker's theme) and then again: the time to the bot's first
   response (Discord shows "This interaction failed" after 3 s) and to the answer with its
   picture;
2. `/tafl analyze` of short finished games (6 moves, then a resignation) in tablut, copenhagen
   and brandubh, none reviewed before: the time to the first response, to the first progress
   line ("Reviewing game #N: …") that replaces Discord's "thinking…", and to the review.

Targets: every first response within 0.5 s; every first progress line within 1 s.

Every wait for the bot is bounded (30 s), and so is the whole run (180 s); status 2 means it
could not measure, 1 that it missed a target. ``--smoke`` is a short run of the same steps (two
variants, one game; about 10 s) that checks the benchmark works: it prints the same figures but
never judges them. ``--keep FOLDER`` keeps the bot's log and database.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the stand-in lives with the tests

from e2e_support import BotProcess, bot_env, button_id  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeUser  # noqa: E402
from fakediscord.interactions import DEFERRED_CHANNEL_MESSAGE  # noqa: E402

from bot.engine import Game  # noqa: E402

WAIT = 30.0
"""The longest wait for any one answer of the bot."""
LIMIT = 180.0
"""Seconds the whole run may take."""
FIRST_RESPONSE_TARGET = 0.5
PROGRESS_TARGET = 1.0
PROGRESS = "Reviewing game #"


@dataclass(frozen=True)
class Plan:
    """What to measure."""

    rules: tuple[str, ...]
    """The variants whose rules are asked for, each twice."""
    reviews: tuple[str, ...]
    """The variants of the games reviewed."""


FULL = Plan(
    rules=("tablut", "brandubh", "copenhagen", "tablut-ashton", "fidchell"),
    reviews=("tablut", "copenhagen", "brandubh"),
)
SMOKE = Plan(rules=("brandubh", "copenhagen"), reviews=("brandubh",))


class BenchFailure(Exception):
    """The benchmark could not measure: the bot did not answer, or answered wrongly."""


@dataclass(frozen=True)
class Timing:
    """When the bot's answers to one interaction arrived, in seconds after it was sent."""

    what: str
    first: float
    """The first response (a message, or a deferral)."""
    shown: float
    """What the player waits for: the rules with their picture, or the first progress line."""
    done: float
    """The whole answer: the rules, or the review."""
    deferred: bool


@dataclass
class Figures:
    """Everything measured."""

    rules: list[Timing] = field(default_factory=list)
    reviews: list[Timing] = field(default_factory=list)


def quiet_moves(variant: str, count: int) -> list[str]:
    """``count`` legal moves from the start that capture nothing and do not end the game."""
    game, moves = Game(variant), []
    for _ in range(count):
        for move in game.legal_moves():
            result = game.play(move)
            if not result.captures and result.outcome is None:
                moves.append(move.text(game.size))
                break
            game.undo()
        else:
            raise BenchFailure(f"no quiet move in {variant} after {moves}")
    return moves


def timing(interaction: FakeInteraction, what: str, shown: float, done: float) -> Timing:
    """The times of ``interaction``'s answers, from when it was dispatched."""
    sent, callback = interaction.dispatched_at, interaction.callback
    if sent is None or callback is None:
        raise BenchFailure(f"{what}: no response: {interaction.responses}")
    deferred = callback.type == DEFERRED_CHANNEL_MESSAGE
    return Timing(what, callback.at - sent, shown - sent, done - sent, deferred)


async def ask_rules(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, variant: str
) -> Timing:
    """``/tafl rules variant``, timed to its first response and to the answer with its picture."""
    asked = await fake.send_slash_command(
        user, channel, "tafl", subcommand="rules", options={"variant": variant}
    )
    answer = await asked.wait_response(lambda r: bool(r.files), timeout=WAIT)
    return timing(asked, f"rules {variant}", answer.at, answer.at)


async def review(
    fake: FakeDiscord, users: tuple[FakeUser, FakeUser], channel: FakeChannel, variant: str
) -> Timing:
    """A short game of ``variant`` played and resigned, then reviewed: the review's timing."""
    attacker, defender = users
    asked = await fake.send_slash_command(
        attacker,
        channel,
        "tafl",
        subcommand="challenge",
        options={"opponent": defender, "variant": variant, "side": "attackers"},
    )
    await asked.wait_callback(timeout=WAIT)
    offer = asked.original_message
    if offer is None or not offer.custom_ids:
        raise BenchFailure(f"/tafl challenge was not posted: {asked.responses}")
    accepted = await fake.click_button(defender, offer, button_id(offer, ":accept"))
    await accepted.wait_callback(timeout=WAIT)
    for ply, move in enumerate(quiet_moves(variant, 6)):
        player = users[ply % 2]
        played = await fake.send_slash_command(
            player, channel, "tafl", subcommand="move", options={"move": move}
        )
        await played.wait_callback(timeout=WAIT)
        if played.original_message is None or "played `" not in played.original_message.text:
            raise BenchFailure(f"{variant}: {move} was not played: {played.responses}")
    resigned = await fake.send_slash_command(attacker, channel, "tafl", subcommand="resign")
    await resigned.wait_callback(timeout=WAIT)
    asked = await fake.send_slash_command(defender, channel, "tafl", subcommand="analyze")
    done = await asked.wait_response(
        lambda r: r.kind == "edit" and bool(r.data.get("embeds")), timeout=WAIT * 2
    )
    progress = next(
        (r for r in asked.responses if r.kind == "edit" and (r.content or "").startswith(PROGRESS)),
        None,
    )
    # Without a progress line the player saw "thinking…" until the review itself.
    shown = done.at if progress is None else progress.at
    return timing(asked, f"analyze {variant}", shown, done.at)


async def measure(plan: Plan, workdir: Path) -> Figures:
    """Start the stand-in and the bot, ask everything, stop the bot; return the figures."""
    figures = Figures()
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Bench")
        pairs = [
            (
                fake.create_user(f"attacker{i}", guild=guild),
                fake.create_user(f"defender{i}", guild=guild),
            )
            for i in range(len(plan.reviews))
        ]
        reader = fake.create_user("reader", guild=guild)
        bot = BotProcess(bot_env(fake, guild, workdir), workdir / "bot.log")
        try:
            try:
                await asyncio.wait_for(bot.start(fake, guild), WAIT * 3)
            except AssertionError as error:  # it exited during start-up
                raise BenchFailure(str(error)) from None

            async def everything() -> None:
                channel = fake.create_channel(guild, "rules")
                for variant in plan.rules:
                    for _ in range(2):  # first drawn, then as a player asking again
                        figures.rules.append(await ask_rules(fake, reader, channel, variant))
                for index, (variant, pair) in enumerate(zip(plan.reviews, pairs, strict=True)):
                    channel = fake.create_channel(guild, f"review-{index}")
                    figures.reviews.append(await review(fake, pair, channel, variant))

            await asyncio.wait_for(everything(), LIMIT)
        except TimeoutError:
            raise BenchFailure("the bot stopped answering") from None
        finally:
            code = await bot.stop()
        if code != 0:
            raise BenchFailure(f"the bot exited with status {code}")
    return figures


def report(figures: Figures) -> bool:
    """Print the figures; true when every target is met."""
    ok = True
    target = f"target: first response <= {FIRST_RESPONSE_TARGET:.1f} s"
    print(f"/tafl rules, each variant asked twice ({target}):")
    for rules in figures.rules:
        how = "deferred" if rules.deferred else "answered"
        print(
            f"  {rules.what:<24} {how} after {rules.first:.2f} s, "
            f"rules shown after {rules.shown:.2f} s"
        )
        ok = ok and rules.first <= FIRST_RESPONSE_TARGET
    target = f"target: first progress line <= {PROGRESS_TARGET:.1f} s"
    print(f"/tafl analyze of a 6-move game, resigned ({target}):")
    for reviewed in figures.reviews:
        print(
            f"  {reviewed.what:<24} first response after {reviewed.first:.2f} s, first progress "
            f"line after {reviewed.shown:.2f} s, review after {reviewed.done:.2f} s"
        )
        ok = ok and reviewed.first <= FIRST_RESPONSE_TARGET and reviewed.shown <= PROGRESS_TARGET
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when it worked (and, unless ``--smoke``, met its targets)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--smoke", action="store_true", help="a short run that checks the benchmark works"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="FOLDER",
        help="keep the bot's log and database in FOLDER (default: a temporary folder)",
    )
    args = parser.parse_args(argv)
    plan = SMOKE if args.smoke else FULL
    try:
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            figures = asyncio.run(measure(plan, args.keep))
        else:
            with tempfile.TemporaryDirectory(prefix="tafl-first-answers-") as tmp:
                figures = asyncio.run(measure(plan, Path(tmp)))
    except BenchFailure as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 2
    ok = report(figures)
    if args.smoke:
        return 0
    print("all targets met" if ok else "a target was MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
