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
from bot.engine import Game, Side, Variant, get_variant
from bot.render import board_view_from_game
from bot.storage import PlayerPreferences

from ...i18n.language import (
    COMMAND_DESCRIPTION,
    ENGLISH_LANGUAGE,
    Language,
)
from .board import level_words, look_of, variant_title
from .catalogs import Message
from .post import Answer, Card, Choice, Field, Picture, Post

VARIANTS = tuple(Choice(rules.title, rules.name) for rules in RULESETS.values())
"""The variants, as a command's option offers them."""


def engine_messages() -> list[Message]:
    """The engine's words about each variant (its summary and its source), for the template:
    the engine, below compose, marks nothing; /tafl rules translates them where it shows them."""
    where = [("bot/engine/variants.py", 0)]
    found = []
    for rules in RULESETS.values():
        found.append(Message(None, rules.summary, list(where), [f"{rules.title}: summary"]))
        found.append(Message(None, rules.source, list(where), [f"{rules.title}: source"]))
    return found


def summary_text(variant: Variant, *, lang: Language) -> str:
    """The variant's summary (the engine's words, in ``lang``)."""
    summary = variant.summary
    return lang.gettext(summary)


def source_text(variant: Variant, *, lang: Language) -> str:
    """Where the variant's rules come from (the engine's words, in ``lang``)."""
    source = variant.source
    return lang.gettext(source)


def shieldwall_text(*, lang: Language) -> str:
    """Copenhagen's shieldwall capture, explained."""
    return lang.gettext(
        "Two or more pieces side by side along the edge of the board are captured together when "
        "the enemy closes both ends of the row (a corner closes an end too) and has a piece right "
        "in front of each of them. The whole row falls to the move that closes one of its ends "
        "(a piece arriving in front captures nothing). The king can help the defenders make one; "
        "caught in a row himself, he survives while the defenders beside him fall."
    )


def exit_fort_text(*, lang: Language) -> str:
    """Copenhagen's exit fort, explained."""
    return lang.gettext(
        "The defenders also win when the king stands on the edge, can still move, and is shut in "
        "a fort of defenders that no attacker touches and that can never be broken: each defender "
        "of the wall has the edge, the fort or another wall piece next to it along its rank and "
        "along its file, so none of them can be captured."
    )


def encirclement_text(*, lang: Language) -> str:
    """Copenhagen's encirclement, explained."""
    return lang.gettext(
        "The attackers also win by closing a ring around the king and every one of his "
        "defenders, so that none of them can reach the edge any more."
    )


def has_forts_and_rings(variant: Variant) -> bool:
    """Whether the ruleset has Copenhagen's shieldwalls, exit forts and encirclement.

    The variant's rules class says so (see :attr:`bot.engine.rules.Rules.forts_and_walls`).
    """
    return variant.rules.forts_and_walls


def escape_text(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Where the king wins by arriving: ``a corner`` or ``any edge square``."""
    if variant.corners:
        return lang.pgettext("the king escapes to", "a corner")
    return lang.pgettext("the king escapes to", "any edge square")


def king_wins_text(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Every way the king's side wins on the board, for the "King escapes to" field."""
    text = escape_text(variant, lang=lang)
    if has_forts_and_rings(variant):
        text = lang.gettext(
            "{escape}, or wins with an exit fort on the edge (see below)", escape=text
        )
    return text


def calls_text(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The king's side's calls, Raichi and Tuichi, for this variant's escape squares."""
    if variant.corners:
        return lang.gettext(
            "**Raichi!** when the king has one open road to a corner, **Tuichi!** with two or more."
        )
    if variant.tuichi_wins:
        return lang.gettext(
            "**Raichi!** when the king has one open road to the edge, **Tuichi!** with two or "
            "more (and Tuichi wins)."
        )
    return lang.gettext(
        "**Raichi!** when the king has one open road to the edge, **Tuichi!** with two or more."
    )


def repetition_text(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> str | None:
    """What the third occurrence of a position does, when it is not the usual draw."""
    ending = Game(variant).repetition_ending
    if ending.winner is None:
        return None
    if ending.winner is Side.ATTACKERS:
        return lang.gettext(
            "The defenders may not repeat the position: when the same position comes up a third "
            "time with the same side to move, the attackers win."
        )
    return lang.gettext(
        "The attackers may not repeat the position: when the same position comes up a third "
        "time with the same side to move, the defenders win."
    )


def special_rules(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> list[tuple[str, str]]:
    """The rules this variant adds to the common ones, as (title, explanation) pairs."""
    fields = []
    if has_forts_and_rings(variant):
        fields += [
            (lang.gettext("Shieldwall"), shieldwall_text(lang=lang)),
            (lang.gettext("Exit fort"), exit_fort_text(lang=lang)),
            (lang.gettext("Encirclement"), encirclement_text(lang=lang)),
        ]
    repetition = repetition_text(variant, lang=lang)
    if repetition is not None:
        fields.append((lang.gettext("Repetition"), repetition))
    return fields


def first_side(variant: Variant, *, lang: Language) -> str:
    """Who moves first, as a field's value: ``Attackers``."""
    if variant.first is Side.ATTACKERS:
        return lang.pgettext("moves first", "Attackers")
    return lang.pgettext("moves first", "Defenders")


def variant_line(variant: Variant, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """One line of ``/tafl variants``: the board, who moves first and how the king wins."""
    if variant.corners:
        ways = lang.gettext("the king escapes to a corner")
    else:
        ways = lang.gettext("the king escapes to the edge")
    if has_forts_and_rings(variant):
        ways = lang.gettext(
            "{ways} or builds an exit fort; shieldwall captures, encirclement", ways=ways
        )
    elif variant.tuichi_wins:
        ways = lang.gettext("{ways}; Tuichi wins", ways=ways)
    values = {
        "title": variant_title(variant, lang=lang),
        "name": variant.name,
        "size": variant.size,
        "ways": ways,
    }
    if variant.first is Side.ATTACKERS:
        return lang.gettext(
            "**{title}** (`{name}`): {size}x{size}, the attackers move first, {ways}.", **values
        )
    return lang.gettext(
        "**{title}** (`{name}`): {size}x{size}, the defenders move first, {ways}.", **values
    )


# ---------------------------------------------------------------------------- /tafl help


def help_start(*, lang: Language) -> str:
    """The first lines of /tafl help: enough to start, make a move, and learn."""
    return lang.gettext(
        "**1.** Challenge a member: `{challenge} {opponent}:@someone` (they accept with a "
        "button).\n"
        "**2.** Or play the bot's AI: `{play}` (choose a `{level}`: easy, medium, hard, master).\n"
        "**3.** To move, type `{move}` and pick a move from the list (like `e1-e4`), or press "
        "**Move** under the board. `{rules}` explains the game.\n"
        "**4.** To get better: `{analyze}` reviews your last game, and `{puzzle}` gives you "
        "a position to win.",
        challenge=lang.command("tafl challenge"),
        opponent=lang.option("opponent"),
        play=lang.command("tafl play"),
        level=lang.option("level"),
        move=lang.command("tafl move"),
        rules=lang.command("tafl rules"),
        analyze=lang.command("tafl analyze"),
        puzzle=lang.command("tafl puzzle"),
    )


HELP_ORDER = tuple(
    f"tafl {name}" if name != "tafl-tournament" else name
    for name in (
        "challenge", "play", "move", "board", "draw", "takeback", "resign", "rematch",
        "rules", "variants", "analyze", "puzzle", "history", "replay", "export",
        "stats", "leaderboard", "preferences",
        "seek", "lobby", "block", "unblock", "tafl-tournament",
        "settings", "help",
    )
)  # fmt: skip
"""The order /tafl help lists the commands in (their paths: ``tafl challenge``,
``tafl-tournament``): a newcomer's path (start a game, play it, learn and look back), then
games with other servers and tournaments, then the server's options. A command not named here
comes last, in the order it was added: none is ever left out."""


def help_order(commands: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``commands`` (path, description) in :data:`HELP_ORDER` (those it does not name last,
    as they came)."""
    rank = {path: index for index, path in enumerate(HELP_ORDER)}
    return sorted(commands, key=lambda command: rank.get(command[0], len(HELP_ORDER)))


def help_answer(commands: Sequence[tuple[str, str]], *, lang: Language) -> list[Answer]:
    """Four lines to get going, then each command (path, description, read from the commands
    themselves, so the list cannot fall behind) in :data:`HELP_ORDER`, named as the reader's
    picker names them."""
    listed = "\n".join(
        lang.gettext(
            "`{command}` — {description}",
            command=lang.command(path),
            description=lang.translated(COMMAND_DESCRIPTION, description) or description,
        )
        for path, description in help_order(commands)
    )
    card = Card(
        lang.gettext("Tafl: how to play"),
        lang.gettext(
            "{start}\n\n**Commands**\n{listed}", start=help_start(lang=lang), listed=listed
        ),
    )
    return [Answer(Post(card=card, private=True))]


# ---------------------------------------------------------------------------- /tafl rules


def rules_answer(variant: str, preferences: PlayerPreferences, *, lang: Language) -> list[Answer]:
    """The variant explained, with a picture of its start position in the reader's theme."""
    rules = get_variant(variant)
    title = variant_title(rules, lang=lang)
    ladder = lang.gettext(
        "{ladder} (fixed: a rated game against it moves only your rating)",
        ladder=" · ".join(
            f"{level_words(level, lang)} {rating}"
            for level, rating in level_ratings(rules.name).items()
        ),
    )
    fields = [
        Field(lang.gettext("Moves first"), first_side(rules, lang=lang)),
        Field(lang.gettext("King escapes to"), king_wins_text(rules, lang=lang)),
        Field(lang.gettext("Calls"), calls_text(rules, lang=lang), inline=False),
        *(Field(name, text, inline=False) for name, text in special_rules(rules, lang=lang)),
        Field(lang.gettext("The AI's ratings"), ladder, inline=False),
        Field(
            lang.gettext("Start a game"),
            lang.gettext(
                "`{challenge} {opponent}:@someone {variant}:{title}` to play a member, "
                "or `{play} {variant}:{title}` to play the AI. Then move with "
                "`{move}` or the Move button under the board.",
                challenge=lang.command("tafl challenge"),
                opponent=lang.option("opponent"),
                variant=lang.option("variant"),
                title=title,
                play=lang.command("tafl play"),
                move=lang.command("tafl move"),
            ),
            inline=False,
        ),
    ]
    card = Card(
        lang.gettext("{title} ({size}x{size})", title=title, size=rules.size),
        summary_text(rules, lang=lang),
        fields=tuple(fields),
        footer=lang.gettext("Source: {source}", source=source_text(rules, lang=lang)),
        picture=True,
    )
    look = look_of(preferences, None)
    picture = Picture(board_view_from_game(Game(rules)), "start.png", look.theme)
    return [Answer(Post(card=card, picture=picture, private=True))]


# ---------------------------------------------------------------------------- /tafl variants


def variants_answer(*, lang: Language) -> list[Answer]:
    """One line per variant."""
    lines = [variant_line(rules, lang=lang) for rules in RULESETS.values()]
    return [Answer(Post("\n".join(lines), private=True))]
