"""What players read to learn: /tafl help (how to start, and every command), /tafl rules (a
ruleset explained, with a picture of its start) and /tafl variants, and the variants offered
as a command option's choices.

A ruleset is explained in a player's words: where the king wins, the calls, and the rules some
variants add (Copenhagen's shieldwall, exit fort, encirclement and repetition). The engine's
variant descriptions say *what* the rules are; this module says them to people. It reads the
descriptions' data, never a variant's name.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai import level_ratings
from bot.engine import VARIANTS as RULESETS
from bot.engine import Game, Variant, get_variant
from bot.render import board_view_from_game
from bot.storage import PlayerPreferences

from .board import look_of
from .post import Answer, Card, Choice, Field, Picture, Post

VARIANTS = tuple(Choice(rules.title, rules.name) for rules in RULESETS.values())
"""The variants, as a command's option offers them."""

SHIELDWALL = (
    "Two or more pieces side by side along the edge of the board are captured together when "
    "the enemy closes both ends of the row (a corner closes an end too) and has a piece right "
    "in front of each of them. The whole row falls to the move that closes one of its ends "
    "(a piece arriving in front captures nothing). The king can help the defenders make one; "
    "caught in a row himself, he survives while the defenders beside him fall."
)
EXIT_FORT = (
    "The defenders also win when the king stands on the edge, can still move, and is shut in "
    "a fort of defenders that no attacker touches and that can never be broken: each defender "
    "of the wall has the edge, the fort or another wall piece next to it along its rank and "
    "along its file, so none of them can be captured."
)
ENCIRCLEMENT = (
    "The attackers also win by closing a ring around the king and every one of his defenders, "
    "so that none of them can reach the edge any more."
)


def has_forts_and_rings(variant: Variant) -> bool:
    """Whether the ruleset has Copenhagen's shieldwalls, exit forts and encirclement.

    The variant's rules class says so (see :attr:`bot.engine.rules.Rules.forts_and_walls`).
    """
    return variant.rules.forts_and_walls


def escape_text(variant: Variant) -> str:
    """Where the king wins by arriving: ``a corner`` or ``any edge square``."""
    return "a corner" if variant.corners else "any edge square"


def king_wins_text(variant: Variant) -> str:
    """Every way the king's side wins on the board, for the "King escapes to" field."""
    text = escape_text(variant)
    if has_forts_and_rings(variant):
        text += ", or wins with an exit fort on the edge (see below)"
    return text


def calls_text(variant: Variant) -> str:
    """The king's side's calls, Raichi and Tuichi, for this variant's escape squares."""
    road = "to a corner" if variant.corners else "to the edge"
    return f"**Raichi!** when the king has one open road {road}, **Tuichi!** with two or more" + (
        " (and Tuichi wins)." if variant.tuichi_wins else "."
    )


def repetition_text(variant: Variant) -> str | None:
    """What the third occurrence of a position does, when it is not the usual draw."""
    ending = Game(variant).repetition_ending
    if ending.winner is None:
        return None
    loser = ending.winner.other.value
    return (
        f"The {loser} may not repeat the position: when the same position comes up a third "
        f"time with the same side to move, the {ending.winner.value} win."
    )


def special_rules(variant: Variant) -> list[tuple[str, str]]:
    """The rules this variant adds to the common ones, as (title, explanation) pairs."""
    fields = []
    if has_forts_and_rings(variant):
        fields += [
            ("Shieldwall", SHIELDWALL),
            ("Exit fort", EXIT_FORT),
            ("Encirclement", ENCIRCLEMENT),
        ]
    repetition = repetition_text(variant)
    if repetition is not None:
        fields.append(("Repetition", repetition))
    return fields


def variant_line(variant: Variant) -> str:
    """One line of ``/tafl variants``: the board, who moves first and how the king wins."""
    ways = f"the king escapes to {'a corner' if variant.corners else 'the edge'}"
    if has_forts_and_rings(variant):
        ways += " or builds an exit fort; shieldwall captures, encirclement"
    elif variant.tuichi_wins:
        ways += "; Tuichi wins"
    n = variant.size
    return (
        f"**{variant.title}** (`{variant.name}`): {n}x{n}, the {variant.first.value} move "
        f"first, {ways}."
    )


# ---------------------------------------------------------------------------- /tafl help

HELP_START = (
    "**1.** Challenge a member: `/tafl challenge opponent:@someone` (they accept with a "
    "button).\n"
    "**2.** Or play the bot's AI: `/tafl play` (choose a `level`: easy, medium, hard, master).\n"
    "**3.** To move, type `/tafl move` and pick a move from the list (like `e1-e4`), or press "
    "**Move** under the board. `/tafl rules` explains the game.\n"
    "**4.** To get better: `/tafl analyze` reviews your last game, and `/tafl puzzle` gives you "
    "a position to win."
)
"""The first lines of /tafl help: enough to start, make a move, and learn."""

HELP_ORDER = (
    "challenge", "play", "move", "board", "draw", "takeback", "resign", "rematch",
    "rules", "variants", "analyze", "puzzle", "history", "replay", "export",
    "stats", "leaderboard", "preferences",
    "seek", "lobby", "block", "unblock", "tournament",
    "settings", "help",
)  # fmt: skip
"""The order /tafl help lists the commands in: a newcomer's path (start a game, play it, learn
and look back), then games with other servers and tournaments, then the server's options. A
command not named here comes last, in the order it was added: none is ever left out."""


def help_order(commands: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``commands`` (name, description) in :data:`HELP_ORDER` (those it does not name last,
    as they came)."""
    rank = {name: index for index, name in enumerate(HELP_ORDER)}
    return sorted(commands, key=lambda command: rank.get(command[0], len(HELP_ORDER)))


def help_answer(commands: Sequence[tuple[str, str]]) -> list[Answer]:
    """Four lines to get going, then each command (name, description, read from the commands
    themselves, so the list cannot fall behind) in :data:`HELP_ORDER`."""
    listed = "\n".join(
        f"`/tafl {name}` — {description}" for name, description in help_order(commands)
    )
    card = Card("Tafl: how to play", f"{HELP_START}\n\n**Commands**\n{listed}")
    return [Answer(Post(card=card, private=True))]


# ---------------------------------------------------------------------------- /tafl rules


def rules_answer(variant: str, preferences: PlayerPreferences) -> list[Answer]:
    """The variant explained, with a picture of its start position in the reader's theme."""
    rules = get_variant(variant)
    ladder = level_ratings(rules.name).items()
    fields = [
        Field("Moves first", rules.first.value.title()),
        Field("King escapes to", king_wins_text(rules)),
        Field("Calls", calls_text(rules), inline=False),
        *(Field(name, text, inline=False) for name, text in special_rules(rules)),
        Field(
            "The AI's ratings",
            " · ".join(f"{level} {rating}" for level, rating in ladder)
            + " (fixed: a rated game against it moves only your rating)",
            inline=False,
        ),
        Field(
            "Start a game",
            f"`/tafl challenge opponent:@someone variant:{rules.title}` to play a member, "
            f"or `/tafl play variant:{rules.title}` to play the AI. Then move with "
            "`/tafl move` or the Move button under the board.",
            inline=False,
        ),
    ]
    card = Card(
        f"{rules.title} ({rules.size}x{rules.size})",
        rules.summary,
        fields=tuple(fields),
        footer=f"Source: {rules.source}",
        picture=True,
    )
    look = look_of(preferences, None)
    picture = Picture(board_view_from_game(Game(rules)), "start.png", look.theme)
    return [Answer(Post(card=card, picture=picture, private=True))]


# ---------------------------------------------------------------------------- /tafl variants


def variants_answer() -> list[Answer]:
    """One line per variant."""
    lines = [variant_line(rules) for rules in RULESETS.values()]
    return [Answer(Post("\n".join(lines), private=True))]
