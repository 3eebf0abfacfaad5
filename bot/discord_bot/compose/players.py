"""What players read of themselves and their server: /tafl stats (a player's record),
/tafl leaderboard, /tafl preferences (their own options) and /tafl settings (the server's),
and the words of the players service's refusals.

Pure functions of the players service's results (:mod:`..app.players`) and the stored types;
they build :class:`~.post.Post` objects and the deliveries that say where each goes.
"""

from __future__ import annotations

from bot.engine import Side, get_variant
from bot.render import THEMES
from bot.storage import PlayerPreferences, PuzzleRating, Results, ServerSettings

from ...i18n.language import (
    CHOICE_NAME,
    ENGLISH,
    ENGLISH_LANGUAGE,
    Language,
    autonym,
    shipped_codes,
)
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
from .board import (
    TOP_SIDE,
    duration_words,
    rating_with_games,
    side_record,
    theme_of,
    variant_title,
)
from .errors import refusal_words
from .inputs import typed_words
from .post import Answer, Card, Choice, Field, Post

# ---------------------------------------------------------------------------- options

THEMES_OFFERED = tuple(Choice(theme.title, name) for name, theme in THEMES.items())
"""The board themes, as /tafl preferences offers them."""
FLIP_OPTION = f"Turn boards to your side of the table when you play the {TOP_SIDE.value}"
"""What /tafl preferences' flip option does."""
SETTINGS_TIME_OPTION = "Default time per move for challenges, like 24h or 3d; 'none' for no limit"
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


def provisional_note(*, lang: Language) -> str:
    """Said under a list with a provisional rating in it: the "?" is not explained anywhere
    else."""
    return lang.gettext(
        "? marks a provisional rating: it moves fast until a few more games settle it."
    )


def puzzle_record(record: PuzzleRating, *, yours: bool, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A stats field: the puzzle rating and how the rated (first) goes went, or that there
    are none yet (with how to start, when it is your own record)."""
    if not record.attempts:
        if yours:
            return lang.gettext(
                "None rated yet: `{puzzle}` gives you one.", puzzle=lang.command("tafl puzzle")
            )
        return lang.gettext("None rated yet.")
    return lang.ngettext(
        "{rating} after {count} rated puzzle, {solved} solved at the first try",
        "{rating} after {count} rated puzzles, {solved} solved at the first try",
        record.attempts,
        rating=record.rating.display,
        solved=lang.number(record.solved),
    )


def results_text(results: Results, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A stats field: the record with each side, or that there is none."""
    if not results.games:
        return lang.gettext("No games yet.")
    # side_record: lang= once compose.board's shared vocabulary takes it.
    return lang.gettext(
        "As attackers: {attackers}\nAs defenders: {defenders}",
        attackers=side_record(results.as_attackers, lang=lang),
        defenders=side_record(results.as_defenders, lang=lang),
    )


def streak_text(kind: str, length: int, *, lang: Language) -> str:
    """The current streak: ``Current streak: 3 wins``."""
    if kind == "win":
        return lang.ngettext("Current streak: {count} win", "Current streak: {count} wins", length)
    if kind == "loss":
        return lang.ngettext(
            "Current streak: {count} loss", "Current streak: {count} losses", length
        )
    return lang.ngettext("Current streak: {count} draw", "Current streak: {count} draws", length)


def stats_answer(
    record: PlayerRecord, name: str, variant: str | None, *, yours: bool, lang: Language
) -> list[Answer]:
    """A player's record (``name``: theirs; ``yours``: the reader's own): results against
    people (rated) apart from those against the AI, by side; the current streak; the rating in
    every variant played (or in ``variant``); their puzzles."""
    stats, ratings = record.stats, record.ratings
    only = None if variant is None else get_variant(variant)
    if only is None:
        title = lang.gettext("{name}'s record", name=name)
    else:
        title = lang.gettext(
            "{name}'s record in {variant}",
            name=name,
            variant=variant_title(only, lang=lang),
        )
    streak = ""
    if stats.streak.kind is not None:
        streak = streak_text(stats.streak.kind, stats.streak.length, lang=lang)
    rating_lines = [
        # rating_with_games: lang= once compose.board's shared vocabulary takes it.
        lang.gettext(
            "{variant}: {rating}",
            variant=variant_title(rated.variant, lang=lang),
            rating=rating_with_games(rated, lang=lang),
        )
        for rated in ratings
        if rated.games  # a variant asked for but never played has only a newcomer's default
    ]
    # One field per line of the record, stacked (not inline), so it reads on a phone.
    fields = [
        Field(
            lang.gettext("Against people (rated)"),
            results_text(stats.against_people, lang=lang),
            inline=False,
        ),
        Field(
            lang.gettext("Against the AI"), results_text(stats.against_ai, lang=lang), inline=False
        ),
        Field(
            lang.gettext("Rating") if only is not None else lang.gettext("Ratings"),
            "\n".join(rating_lines) or lang.gettext("No rated games yet."),
            inline=False,
        ),
    ]
    provisional = any(rated.games and rated.rating.provisional for rated in ratings)
    if (puzzles := record.puzzles) is not None:  # one across the variants
        fields.append(
            Field(
                lang.gettext("Puzzles"),
                puzzle_record(puzzles, yours=yours, lang=lang),
                inline=False,
            )
        )
        provisional = provisional or bool(puzzles.attempts and puzzles.rating.provisional)
    footer = provisional_note(lang=lang) if provisional else None
    card = Card(title, streak, fields=tuple(fields), footer=footer)
    return [Answer(Post(card=card, private=True))]


# ---------------------------------------------------------------------------- /tafl leaderboard


def leaderboard_answer(board: Leaderboard, *, lang: Language) -> list[Answer]:
    """The top players of a variant; an empty list privately, with what it takes to appear."""
    rules = get_variant(board.variant)
    title = variant_title(rules, lang=lang)
    entries, guild_id = board.entries, board.guild_id
    if guild_id:
        needed = lang.ngettext(
            "A player appears after {count} rated game of {variant} in this server.",
            "A player appears after {count} rated games of {variant} in this server.",
            board.gate,
            variant=title,
        )
    else:
        needed = lang.ngettext(
            "A player appears after {count} rated game of {variant}.",
            "A player appears after {count} rated games of {variant}.",
            board.gate,
            variant=title,
        )
    if not entries:
        if guild_id:
            empty = lang.gettext(
                "Nobody is on the {variant} leaderboard in this server yet.", variant=title
            )
        else:
            empty = lang.gettext("Nobody is on the {variant} leaderboard yet.", variant=title)
        return [Answer(Post(f"{empty} {needed}", private=True))]
    if guild_id:
        heading = lang.gettext("{variant} leaderboard (this server)", variant=title)
    else:
        heading = lang.gettext("{variant} leaderboard (global)", variant=title)
    text = "\n".join(
        lang.ngettext(
            "**{rank}.** {name} — {rating} ({count} game)",
            "**{rank}.** {name} — {rating} ({count} games)",
            entry.games,
            rank=entry.rank,
            name=entry.display_name or entry.user_id,
            rating=entry.rating.display,
        )
        for entry in entries
    )
    notes = [needed]
    if any(entry.rating.provisional for entry in entries):
        notes.append(provisional_note(lang=lang))
    return [Answer(Post(card=Card(heading, text, footer="\n".join(notes))))]


# ---------------------------------------------------------------------------- /tafl preferences


def preferences_answer(preferences: PlayerPreferences, *, lang: Language) -> list[Answer]:
    """A player's preferences, and which boards follow them, as the player would read them."""
    theme = THEMES[theme_of(preferences)]
    theme_title = lang.translated(CHOICE_NAME, theme.title) or theme.title
    if TOP_SIDE is Side.DEFENDERS:
        flipped = lang.gettext(
            "on: when you play the defenders, your boards are turned around (rank 1 at the top)"
        )
    else:
        flipped = lang.gettext(
            "on: when you play the attackers, your boards are turned around (rank 1 at the top)"
        )
    fields = (
        Field(
            lang.gettext("Theme"),
            lang.gettext("{theme} (`{name}`)", theme=theme_title, name=theme.name),
            inline=False,
        ),
        Field(
            lang.gettext("Turned to your side"),
            flipped
            if preferences.flip
            else lang.gettext(
                "off: boards show rank 1 at the bottom, as seen from the attackers' side"
            ),
            inline=False,
        ),
        Field(
            lang.gettext("Direct messages"),
            lang.gettext(
                "on: a direct message when it is your move in a game against a person, and when "
                "your time runs low (once per move)"
            )
            if preferences.notify
            else lang.gettext("off: the pings in the game's channel or thread only"),
            inline=False,
        ),
        Field(
            lang.gettext("Which boards"),
            lang.gettext(
                "A board posted in a game's channel is one picture for everyone, so it follows "
                "the preferences of the player to move (against the AI: yours). The Flip board "
                "button shows you privately the channel's board turned around, in your theme."
            ),
            inline=False,
        ),
    )
    card = Card(lang.gettext("Your preferences"), fields=fields)
    return [Answer(Post(card=card, private=True))]


# ---------------------------------------------------------------------------- /tafl settings


def settings_answer(shown: SettingsShown, *, lang: Language) -> list[Answer]:
    """The server's settings as a player would read them; the footer says who may change them
    and, once changed, from when it applies."""
    settings = shown.settings
    time = settings.default_move_seconds
    role = settings.tournament_role
    if role is None:
        organisers = lang.gettext("members who may manage the server")
    else:
        organisers = lang.gettext(
            "members who may manage the server, and members with {role}",
            role="<@&" + str(role) + ">",
        )
    fields = (
        Field(
            lang.gettext("Where games are played"),
            lang.gettext("a thread per game")
            if settings.game_threads
            else lang.gettext("in the channel (a thread only when the channel already has a game)"),
            inline=False,
        ),
        Field(
            lang.gettext("Default time per move"),
            lang.gettext(
                "{time} (when a challenge sets none)", time=duration_words(time, lang=lang)
            )
            if time
            else lang.gettext("no limit"),
            inline=False,
        ),
        Field(
            lang.gettext("Games against the AI"),
            lang.pgettext("games against the AI", "rated")
            if settings.rated_ai_games
            else lang.pgettext("games against the AI", "unrated"),
            inline=False,
        ),
        Field(
            lang.gettext("The lobby (games with other servers)"),
            lobby_words(settings, lang=lang),
            inline=False,
        ),
        Field(lang.gettext("Who runs tournaments"), organisers, inline=False),
        Field(
            lang.gettext("Language"),
            lang.gettext("the server's own (its Discord language)")
            if settings.language is None
            else autonym(settings.language),
            inline=False,
        ),
    )
    if shown.changed:
        footer = lang.gettext("Changes apply to games started from now on.")
    elif shown.may_change:
        footer = lang.gettext(
            "Give {settings} an option to change it (for games started afterwards).",
            settings=lang.command("tafl settings"),
        )
    else:
        footer = lang.gettext("Members with the Manage Server permission can change these.")
    card = Card(lang.gettext("Tafl settings for this server"), fields=fields, footer=footer)
    return [Answer(Post(card=card, private=True))]


def lobby_words(settings: ServerSettings, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The server's part in the lobby, in a sentence or two."""
    if not settings.lobby:
        return lang.gettext(
            "off: members cannot seek games with other servers (games already begun go on)"
        )
    where = (
        lang.gettext(
            "in {channels}",
            channels=", ".join(f"<#{channel}>" for channel in sorted(settings.lobby_channels)),
        )
        if settings.lobby_channels
        else lang.gettext("in any channel")
    )
    variants = (
        ", ".join(
            variant_title(get_variant(name), lang=lang) for name in sorted(settings.lobby_variants)
        )
        if settings.lobby_variants
        else lang.gettext("every variant")
    )
    times = (
        ", ".join(duration_words(value, lang=lang) for value in sorted(settings.lobby_times))
        if settings.lobby_times
        else lang.gettext("every time the lobby offers")
    )
    return lang.gettext(
        "on: `{seek}` {where}; {variants}; {times} per move",
        seek=lang.command("tafl seek"),
        where=where,
        variants=variants,
        times=times,
    )


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: MayNotManage, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Only members with the Manage Server permission can change these; "
        "`{settings}` with no options shows them.",
        settings=lang.command("tafl settings"),
    )


@refusal_words.register
def _(refusal: NotAVariant, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{text} is not a variant: write names from {names}, or '{all}'.",
        text=repr(refusal.text),
        all=typed_words(lang)["all"],
        names=", ".join(refusal.variants),
    )


@refusal_words.register
def _(refusal: NotALobbyTime, lang: Language = ENGLISH_LANGUAGE) -> str:
    offered = ", ".join(duration_words(value, lang=lang) for value in refusal.offered)
    return lang.gettext(
        "The lobby offers {offered} per move; {text} is not one of them.",
        offered=offered,
        text=repr(refusal.text),
    )


@refusal_words.register
def _(refusal: NotATheme, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{text} is not a theme: choose {themes}.",
        text=repr(refusal.text),
        themes=lang.join(refusal.themes, style="or"),
    )


@refusal_words.register
def _(refusal: NotALanguage, lang: Language = ENGLISH_LANGUAGE) -> str:
    offered = ", ".join(autonym(locale) for locale in refusal.offered)
    return lang.gettext(
        "{text} is not a language the bot speaks: choose {offered}.",
        offered=offered,
        text=repr(refusal.text),
    )
