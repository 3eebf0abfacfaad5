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

from ..app.records import NoGameHere, NoSuchGame
from .board import CAPTION_WORDS, caption_ending, plain_name, plural
from .errors import refusal_words
from .language import ENGLISH_LANGUAGE, Language
from .post import Animation, Answer, Attachment, Post, Replay

NOTATION_KEY = (
    "-# `x` captures · `-` the king has an open road · `+` the king can be captured next move · "
    "`--` escaped · `++` captured"
)
"""The OTN suffixes of the move list, in words (the list itself stays a game record)."""
HISTORY_KEPT = 1800
"""The end of a long move list kept in /tafl history's one message."""
REPLAY_WIDTHS = (DEFAULT_WIDTH, 480, 360)
"""Widths a replay is drawn at, largest first, until it fits in one upload."""


def moves_text(game: Game) -> str:
    """How long a game is, in full moves as its record numbers them: ``18 moves``."""
    return plural(game.full_moves, "move")


def history_answer(record: GameRecord, played: Game) -> list[Answer]:
    """The numbered move list as text (its end, for a long game)."""
    body = "\n".join(played.numbered_moves()) or "No moves yet."
    if len(body) > HISTORY_KEPT:
        body = "…\n" + body[-HISTORY_KEPT:]
    text = (
        f"Game #{record.id} ({played.variant.title}), {moves_text(played)}:\n"
        f"```\n{body}\n```\n{NOTATION_KEY}"
    )
    return [Answer(Post(text, private=True))]


def export_answer(record: GameRecord, played: Game, otn: str) -> list[Answer]:
    """The game's OpenTafl Notation record, attached."""
    attachment = Attachment(f"tafl-game-{record.id}.otn", otn.encode())
    return [Answer(Post(f"Game #{record.id}: {moves_text(played)}.", files=(attachment,)))]


def replay_answer(record: GameRecord, played: Game) -> list[Replay]:
    """The whole game as an animation, captioned with the players' names (and, on the last
    frame, how a game ended off the board ended), drawn smaller when a long game would not fit
    in one upload; what to do when it never does."""
    views = replay_views(
        played,
        caption=True,
        attackers=plain_name(record.attackers),
        defenders=plain_name(record.defenders),
        ended=caption_ending(record.outcome),
        words=CAPTION_WORDS,
    )
    animation = Animation(tuple(views), f"tafl-game-{record.id}.gif", REPLAY_WIDTHS)
    fitted = []
    for width in REPLAY_WIDTHS:
        smaller = ""
        if width != DEFAULT_WIDTH:
            smaller = f" (drawn {width} px wide to fit Discord's file limit)"
        fitted.append(Post(f"Game #{record.id}, {moves_text(played)}{smaller}."))
    too_long = Post(
        f"Game #{record.id} ({moves_text(played)}) is too long for an animated replay within "
        "Discord's 10 MiB file limit. `/tafl export` saves its record, which any "
        "OpenTafl-compatible viewer replays."
    )
    return [Replay(animation, tuple(fitted), too_long)]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: NoSuchGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"There is no game #{refusal.game_id} in this server."


@refusal_words.register
def _(refusal: NoGameHere, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "No game has been played in this channel yet."
