"""What players read of games looked back on: /tafl history (the move list), /tafl export (the
record as a file) and /tafl replay (an animation of the whole game), and the words of the
game records' refusals.

Pure functions of a stored game and its replayed engine game; a replay is an image request
(:class:`~.post.Animation`) the table draws, at the largest width that fits in one upload.
"""

from __future__ import annotations

from bot.engine import Game
from bot.render import DEFAULT_WIDTH, replay_views
from bot.storage import GameRecord

from ...i18n.language import ENGLISH_LANGUAGE, Language
from ..app.records import NoGameHere, NoSuchGame
from .board import caption_ending, caption_words, plain_name, variant_title
from .errors import refusal_words
from .post import Animation, Answer, Attachment, Post, Replay


def notation_key(*, lang: Language) -> str:
    """The OTN suffixes of the move list, in words (the list itself stays a game record)."""
    return lang.gettext(
        "-# `x` captures · `-` the king has an open road · `+` the king can be captured next "
        "move · `--` escaped · `++` captured"
    )


HISTORY_KEPT = 1800
"""The end of a long move list kept in /tafl history's one message."""
REPLAY_WIDTHS = (DEFAULT_WIDTH, 480, 360)
"""Widths a replay is drawn at, largest first, until it fits in one upload."""


def moves_text(game: Game, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How long a game is, in full moves as its record numbers them: ``18 moves``."""
    return lang.ngettext("{count} move", "{count} moves", game.full_moves)


def history_answer(record: GameRecord, played: Game, *, lang: Language) -> list[Answer]:
    """The numbered move list as text (its end, for a long game)."""
    body = "\n".join(played.numbered_moves()) or lang.gettext("No moves yet.")
    if len(body) > HISTORY_KEPT:
        body = "…\n" + body[-HISTORY_KEPT:]
    heading = lang.gettext(
        "Game #{game} ({variant}), {moves}:",
        game=record.id,
        variant=variant_title(played.variant, lang=lang),
        moves=moves_text(played, lang=lang),
    )
    text = f"{heading}\n```\n{body}\n```\n{notation_key(lang=lang)}"
    return [Answer(Post(text, private=True))]


def export_answer(record: GameRecord, played: Game, otn: str, *, lang: Language) -> list[Answer]:
    """The game's OpenTafl Notation record, attached (the file itself is a record, never
    translated)."""
    attachment = Attachment(f"tafl-game-{record.id}.otn", otn.encode())
    text = lang.gettext(
        "Game #{game}: {moves}.", game=record.id, moves=moves_text(played, lang=lang)
    )
    return [Answer(Post(text, files=(attachment,)))]


def replay_answer(record: GameRecord, played: Game, *, lang: Language) -> list[Replay]:
    """The whole game as an animation, captioned with the players' names (and, on the last
    frame, how a game ended off the board ended), drawn smaller when a long game would not fit
    in one upload; what to do when it never does."""
    views = replay_views(
        played,
        caption=True,
        attackers=plain_name(record.attackers, lang=lang),
        defenders=plain_name(record.defenders, lang=lang),
        ended=caption_ending(record.outcome, lang=lang),
        words=caption_words(lang),
    )
    animation = Animation(tuple(views), f"tafl-game-{record.id}.gif", REPLAY_WIDTHS)
    moves = moves_text(played, lang=lang)
    fitted = []
    for width in REPLAY_WIDTHS:
        if width == DEFAULT_WIDTH:
            text = lang.gettext("Game #{game}, {moves}.", game=record.id, moves=moves)
        else:
            text = lang.gettext(
                "Game #{game}, {moves} (drawn {width} px wide to fit Discord's file limit).",
                game=record.id,
                moves=moves,
                width=lang.number(width),
            )
        fitted.append(Post(text))
    too_long = Post(
        lang.gettext(
            "Game #{game} ({moves}) is too long for an animated replay within Discord's 10 MiB "
            "file limit. `{export}` saves its record, which any OpenTafl-compatible viewer "
            "replays.",
            game=record.id,
            moves=moves,
            export=lang.command("tafl export"),
        )
    )
    return [Replay(animation, tuple(fitted), too_long)]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: NoSuchGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("There is no game #{game} in this server.", game=refusal.game_id)


@refusal_words.register
def _(refusal: NoGameHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("No game has been played in this channel yet.")
