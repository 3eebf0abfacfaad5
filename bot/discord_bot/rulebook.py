"""A ruleset explained in a player's words: where the king wins, the calls, and the rules some
variants add (Copenhagen's shieldwall, exit fort, encirclement and repetition).

The engine's variant descriptions say *what* the rules are; this module says them to people, for
``/tafl rules`` and ``/tafl variants``. It reads the descriptions' data, never a variant's name.
"""

from __future__ import annotations

from bot.engine import Game, Variant

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
