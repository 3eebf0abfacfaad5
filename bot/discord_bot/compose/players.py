"""What players read of themselves and their server: /tafl stats (a player's record),
/tafl leaderboard, /tafl preferences (their own options) and /tafl settings (the server's),
and the words of the players service's refusals.

Pure functions of the players service's results (:mod:`..app.players`) and the stored types;
they build :class:`~.post.Post` objects and the deliveries that say where each goes.
"""

from __future__ import annotations

from bot.engine import VARIANTS, get_variant
from bot.render import THEMES
from bot.storage import PlayerPreferences, PuzzleRating, Results, ServerSettings

from ..app.durations import NO_LIMIT_HINT, describe_duration
from ..app.players import (
    SERVER_LANGUAGE,
    Leaderboard,
    MayNotManage,
    NotALanguage,
    NotALobbyTime,
    NotATheme,
    NotAVariant,
    PlayerRecord,
    SettingsShown,
)
from .board import TOP_SIDE, plural, rating_with_games, side_record, theme_of
from .errors import refusal_words
from .language import ENGLISH, ENGLISH_LANGUAGE, Language, autonym, shipped_codes
from .post import Answer, Card, Choice, Field, Post

# ---------------------------------------------------------------------------- options

THEMES_OFFERED = tuple(Choice(theme.title, name) for name, theme in THEMES.items())
"""The board themes, as /tafl preferences offers them."""
FLIP_OPTION = f"Turn boards to your side of the table when you play the {TOP_SIDE.value}"
"""What /tafl preferences' flip option does."""
SETTINGS_TIME_OPTION = f"Default time per move for challenges, like 24h or 3d; {NO_LIMIT_HINT}"
"""What /tafl settings' time option asks for."""
SCOPES = (Choice("This server", "server"), Choice("Everywhere", "global"))
"""Where /tafl leaderboard looks."""
LANGUAGES_OFFERED = (
    Choice("The server's own (its Discord language)", SERVER_LANGUAGE),
    *(Choice(autonym(code), code) for code in (ENGLISH, *shipped_codes())),
)
"""The languages /tafl settings offers for the server's channels, each named in itself."""
SETTINGS_LANGUAGE_OPTION = "The language of the bot's messages in this server's channels"
"""What /tafl settings' language option does."""

# ---------------------------------------------------------------------------- /tafl stats

PROVISIONAL = "? marks a provisional rating: it moves fast until a few more games settle it."
"""Said under a list with a provisional rating in it: the "?" is not explained anywhere else."""


def variant_title(name: str) -> str:
    """A stored variant's title (its stored name if this version no longer plays it)."""
    return VARIANTS[name].title if name in VARIANTS else name


def puzzle_record(record: PuzzleRating, *, yours: bool) -> str:
    """A stats field: the puzzle rating and how the rated (first) goes went, or that there
    are none yet (with how to start, when it is your own record)."""
    if not record.attempts:
        return "None rated yet" + (": `/tafl puzzle` gives you one." if yours else ".")
    return (
        f"{record.rating.display} after {plural(record.attempts, 'rated puzzle')}, "
        f"{record.solved} solved at the first try"
    )


def results_text(results: Results) -> str:
    """A stats field: the record with each side, or that there is none."""
    if not results.games:
        return "No games yet."
    return (
        f"As attackers: {side_record(results.as_attackers)}\n"
        f"As defenders: {side_record(results.as_defenders)}"
    )


def stats_answer(
    record: PlayerRecord, name: str, variant: str | None, *, yours: bool
) -> list[Answer]:
    """A player's record (``name``: theirs; ``yours``: the reader's own): results against
    people (rated) apart from those against the AI, by side; the current streak; the rating in
    every variant played (or in ``variant``); their puzzles."""
    stats, ratings = record.stats, record.ratings
    only = None if variant is None else get_variant(variant)
    title = f"{name}'s record" + ("" if only is None else f" in {only.title}")
    streak = ""
    if stats.streak.kind is not None:
        streak = f"Current streak: {plural(stats.streak.length, stats.streak.kind)}"
    rating_lines = [
        f"{variant_title(rated.variant)}: {rating_with_games(rated)}"
        for rated in ratings
        if rated.games  # a variant asked for but never played has only a newcomer's default
    ]
    # One field per line of the record, stacked (not inline), so it reads on a phone.
    fields = [
        Field("Against people (rated)", results_text(stats.against_people), inline=False),
        Field("Against the AI", results_text(stats.against_ai), inline=False),
        Field(
            "Rating" if only is not None else "Ratings",
            "\n".join(rating_lines) or "No rated games yet.",
            inline=False,
        ),
    ]
    provisional = any(rated.games and rated.rating.provisional for rated in ratings)
    if (puzzles := record.puzzles) is not None:  # one across the variants
        fields.append(Field("Puzzles", puzzle_record(puzzles, yours=yours), inline=False))
        provisional = provisional or bool(puzzles.attempts and puzzles.rating.provisional)
    card = Card(title, streak, fields=tuple(fields), footer=PROVISIONAL if provisional else None)
    return [Answer(Post(card=card, private=True))]


# ---------------------------------------------------------------------------- /tafl leaderboard


def leaderboard_answer(board: Leaderboard) -> list[Answer]:
    """The top players of a variant; an empty list privately, with what it takes to appear."""
    rules = get_variant(board.variant)
    entries, guild_id = board.entries, board.guild_id
    where = " in this server" if guild_id else ""
    needed = f"A player appears after {plural(board.gate, 'rated game')} of {rules.title}{where}."
    if not entries:
        text = f"Nobody is on the {rules.title} leaderboard{where} yet. {needed}"
        return [Answer(Post(text, private=True))]
    title = f"{rules.title} leaderboard " + ("(this server)" if guild_id else "(global)")
    text = "\n".join(
        f"**{entry.rank}.** {entry.display_name or entry.user_id} — "
        f"{entry.rating.display} ({plural(entry.games, 'game')})"
        for entry in entries
    )
    notes = [needed]
    if any(entry.rating.provisional for entry in entries):
        notes.append(PROVISIONAL)
    return [Answer(Post(card=Card(title, text, footer="\n".join(notes))))]


# ---------------------------------------------------------------------------- /tafl preferences


def preferences_answer(preferences: PlayerPreferences) -> list[Answer]:
    """A player's preferences, and which boards follow them, as the player would read them."""
    theme = THEMES[theme_of(preferences)]
    fields = (
        Field("Theme", f"{theme.title} (`{theme.name}`)", inline=False),
        Field(
            "Turned to your side",
            f"on: when you play the {TOP_SIDE.value}, your boards are turned around "
            "(rank 1 at the top)"
            if preferences.flip
            else "off: boards show rank 1 at the bottom, as seen from the attackers' side",
            inline=False,
        ),
        Field(
            "Direct messages",
            "on: a direct message when it is your move in a game against a person, and when "
            "your time runs low (once per move)"
            if preferences.notify
            else "off: the pings in the game's channel or thread only",
            inline=False,
        ),
        Field(
            "Which boards",
            "A board posted in a game's channel is one picture for everyone, so it follows the "
            "preferences of the player to move (against the AI: yours). The Flip board button "
            "shows you privately the channel's board turned around, in your theme.",
            inline=False,
        ),
    )
    return [Answer(Post(card=Card("Your preferences", fields=fields), private=True))]


# ---------------------------------------------------------------------------- /tafl settings


def settings_answer(shown: SettingsShown) -> list[Answer]:
    """The server's settings as a player would read them; the footer says who may change them
    and, once changed, from when it applies."""
    settings = shown.settings
    time = settings.default_move_seconds
    role = settings.tournament_role
    fields = (
        Field(
            "Where games are played",
            "a thread per game"
            if settings.game_threads
            else "in the channel (a thread only when the channel already has a game)",
            inline=False,
        ),
        Field(
            "Default time per move",
            f"{describe_duration(time)} (when a challenge sets none)" if time else "no limit",
            inline=False,
        ),
        Field(
            "Games against the AI",
            "rated" if settings.rated_ai_games else "unrated",
            inline=False,
        ),
        Field("The lobby (games with other servers)", lobby_words(settings), inline=False),
        Field(
            "Who runs tournaments",
            "members who may manage the server"
            + ("" if role is None else f", and members with <@&{role}>"),
            inline=False,
        ),
        Field(
            "Language",
            "the server's own (its Discord language)"
            if settings.language is None
            else autonym(settings.language),
            inline=False,
        ),
    )
    if shown.changed:
        footer = "Changes apply to games started from now on."
    elif shown.may_change:
        footer = "Give /tafl settings an option to change it (for games started afterwards)."
    else:
        footer = "Members with the Manage Server permission can change these."
    card = Card("Tafl settings for this server", fields=fields, footer=footer)
    return [Answer(Post(card=card, private=True))]


def lobby_words(settings: ServerSettings) -> str:
    """The server's part in the lobby, in a sentence or two."""
    if not settings.lobby:
        return "off: members cannot seek games with other servers (games already begun go on)"
    where = (
        "in " + ", ".join(f"<#{channel}>" for channel in sorted(settings.lobby_channels))
        if settings.lobby_channels
        else "in any channel"
    )
    variants = (
        ", ".join(get_variant(name).title for name in sorted(settings.lobby_variants))
        if settings.lobby_variants
        else "every variant"
    )
    times = (
        ", ".join(describe_duration(value) for value in sorted(settings.lobby_times))
        if settings.lobby_times
        else "every time the lobby offers"
    )
    return f"on: `/tafl seek` {where}; {variants}; {times} per move"


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: MayNotManage, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        "Only members with the Manage Server permission can change these; "
        "`/tafl settings` with no options shows them."
    )


@refusal_words.register
def _(refusal: NotAVariant, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"{refusal.text!r} is not a variant: write names from {', '.join(refusal.variants)}, "
        "or 'all'."
    )


@refusal_words.register
def _(refusal: NotALobbyTime, lang: Language = ENGLISH_LANGUAGE) -> str:
    offered = ", ".join(describe_duration(value) for value in refusal.offered)
    return f"The lobby offers {offered} per move; {refusal.text!r} is not one of them."


@refusal_words.register
def _(refusal: NotATheme, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"{refusal.text!r} is not a theme: choose {' or '.join(refusal.themes)}."


@refusal_words.register
def _(refusal: NotALanguage, lang: Language = ENGLISH_LANGUAGE) -> str:
    offered = ", ".join(autonym(locale) for locale in refusal.offered)
    return f"{refusal.text!r} is not a language the bot speaks: choose {offered}."
