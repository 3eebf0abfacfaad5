"""The players' and the servers' options and records: each player's preferences, each server's
settings (who may change them, and what each option means), a player's record and the
leaderboards. Nothing here talks to Discord: the settings, preferences and info cogs show it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from bot.engine import VARIANTS, get_variant
from bot.storage import (
    MIN_GAMES_GLOBAL,
    MIN_GAMES_SERVER,
    LeaderboardEntry,
    LeaderboardStore,
    Participant,
    PlayerPreferences,
    PlayerRating,
    PlayerStats,
    PreferencesStore,
    PuzzleRating,
    PuzzleStore,
    RatingStore,
    ServerSettings,
    SettingsStore,
)

from .durations import ENGLISH_WORDS, LOBBY_MOVE_SECONDS, InputWords, parse_move_time
from .errors import Refusal, Refused


@dataclass(frozen=True)
class MayNotManage(Refusal):
    """Only members who may manage the server change its settings."""


@dataclass(frozen=True)
class NotAVariant(Refusal):
    """``text`` (one word of a list of variants, or the whole list) names no variant."""

    text: str
    variants: tuple[str, ...]
    """The variants' names one may write."""


@dataclass(frozen=True)
class NotALobbyTime(Refusal):
    """``text`` is a time per move, but not one the lobby offers (``offered``, in seconds)."""

    text: str
    offered: tuple[int, ...]


@dataclass(frozen=True)
class NotATheme(Refusal):
    """``text`` names no board theme (Discord sends only the listed ones: an old client)."""

    text: str
    themes: tuple[str, ...]


@dataclass(frozen=True)
class NotALanguage(Refusal):
    """``text`` is not a language the bot speaks (``offered``: the Discord locales it does)."""

    text: str
    offered: tuple[str, ...]


@dataclass(frozen=True)
class SettingsChange:
    """The options of ``/tafl settings`` as given (``None``: left as it is)."""

    threads: bool | None = None
    """A thread per game."""
    time: str | None = None
    """The default time per move, as people write it (``24h``, ``none``...)."""
    rated_ai: bool | None = None
    lobby: bool | None = None
    lobby_channel: int | None = None
    """A channel to take seeks in; one already listed is taken off."""
    lobby_anywhere: bool | None = None
    """Take seeks in any channel again."""
    lobby_variants: str | None = None
    """Variant names separated by spaces or commas, or ``all``."""
    lobby_times: str | None = None
    """Times per move separated by spaces or commas, or ``all``."""
    organisers: int | None = None
    """A role whose members may run tournaments; the same role again takes it off."""
    language: str | None = None
    """The language the server's channels read (a shipped catalogue's code, ``en``), or
    :data:`SERVER_LANGUAGE`: the server's preferred locale again."""

    @property
    def empty(self) -> bool:
        """Whether no option was given (the settings are only shown)."""
        return all(getattr(self, field.name) is None for field in fields(self))


@dataclass(frozen=True)
class SettingsShown:
    """A server's settings, after any change asked for."""

    settings: ServerSettings
    may_change: bool
    """Whether the member who asked may change them."""
    changed: bool
    """Whether this request changed them."""


@dataclass(frozen=True)
class PlayerRecord:
    """A player's record: results, streak, ratings and (across every variant) puzzles."""

    stats: PlayerStats
    ratings: tuple[PlayerRating, ...]
    """In every variant played, or in the one asked for (a newcomer's when never played)."""
    puzzles: PuzzleRating | None
    """The puzzle rating, when the record is not of one variant (it is one for all)."""


@dataclass(frozen=True)
class Leaderboard:
    """The best-rated players of a variant, in a server or everywhere."""

    variant: str
    guild_id: int | None
    """The server it is of (``None``: everywhere)."""
    entries: tuple[LeaderboardEntry, ...]
    gate: int
    """Rated games of the variant a player needs to appear on it."""


SERVER_LANGUAGE = "server"
"""``/tafl settings language``'s choice for the server's own preferred locale (as Discord
reports it), the default."""
LOCALES_REMEMBERED = 4096
"""Players whose locale the service keeps in memory (the rest are read back when needed)."""


class Players:
    """Preferences, server settings, records and leaderboards, kept in storage."""

    def __init__(
        self,
        preferences: PreferencesStore,
        settings: SettingsStore,
        leaderboards: LeaderboardStore,
        ratings: RatingStore,
        puzzles: PuzzleStore,
        *,
        languages: Iterable[str] = (),
    ) -> None:
        """``languages``: the languages a server may choose for its channels (the shipped
        catalogues' codes; English, ``en``, is always one)."""
        self._preferences = preferences
        self._settings = settings
        self.languages = tuple(dict.fromkeys(("en", *languages)))
        self._locales: OrderedDict[int, str] = OrderedDict()
        """The locale each player was last seen with (the most recent few thousand), so that
        an interaction costs no database write unless their locale changed."""
        self._leaderboards = leaderboards
        self._ratings = ratings
        self._puzzles = puzzles

    # ------------------------------------------------------------------ preferences

    async def preferences(self, user_id: int) -> PlayerPreferences:
        """A player's preferences (the defaults until they change one)."""
        return await self._preferences.get(user_id)

    async def save_preferences(
        self, before: PlayerPreferences, after: PlayerPreferences, name: str
    ) -> PlayerPreferences:
        """Keep ``after`` as the player's preferences if it differs from ``before`` (``name``:
        how the player is called now); returns them as kept."""
        if after == before:
            return before
        return await self._preferences.save(after, name)

    # ------------------------------------------------------------------ server settings

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """A server's settings (the defaults until a member changes one)."""
        return await self._settings.get(guild_id)

    async def change_settings(
        self,
        guild_id: int,
        change: SettingsChange,
        *,
        may_manage: bool,
        words: InputWords = ENGLISH_WORDS,
    ) -> SettingsShown:
        """Apply the options given: shown to anyone, changed only by members who may manage the
        server (``may_manage``). A bad option is refused, saying what it takes. Times and
        "all" are read in English or in the language they were typed in (``words``)."""
        current = await self._settings.get(guild_id)
        if change.empty:
            return SettingsShown(current, may_manage, changed=False)
        if not may_manage:
            # Discord cannot hide one subcommand from members, so the rule is kept here.
            raise Refused(MayNotManage())
        if change.language not in (None, SERVER_LANGUAGE, *self.languages):
            raise Refused(NotALanguage(str(change.language), self.languages))
        updated = changed_settings(current, change, words)
        if updated != current:
            updated = await self._settings.save(updated)
        return SettingsShown(updated, may_change=True, changed=updated != current)

    # ------------------------------------------------------------------ languages

    async def server_language(self, guild_id: int) -> str | None:
        """The locale a server chose for its channels (``None``: its preferred locale, as
        Discord reports it with each interaction)."""
        return (await self._settings.get(guild_id)).language

    async def set_server_language(
        self, guild_id: int, language: str | None, *, may_manage: bool
    ) -> ServerSettings:
        """Choose the language a server's channels read (``None``: the server's preferred
        locale again); only members who may manage the server, and only a language offered."""
        if not may_manage:
            raise Refused(MayNotManage())
        if language not in (None, *self.languages):
            raise Refused(NotALanguage(str(language), self.languages))
        current = await self._settings.get(guild_id)
        if current.language == language:
            return current
        return await self._settings.set_language(guild_id, language)

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Remember the locale a player's Discord client reported, for what is sent to them
        later (reminders, direct messages); stored only when it changed."""
        if self._locales.get(user_id) == locale:
            self._locales.move_to_end(user_id)
            return
        await self._preferences.note_locale(user_id, locale)
        self._locales[user_id] = locale
        self._locales.move_to_end(user_id)
        while len(self._locales) > LOCALES_REMEMBERED:
            self._locales.popitem(last=False)

    async def last_locale(self, user_id: int) -> str | None:
        """The locale a player last used (``None``: never seen), for notices sent later."""
        if user_id in self._locales:
            return self._locales[user_id]
        return await self._preferences.locale(user_id)

    # ------------------------------------------------------------------ records

    async def record(self, user_id: int, variant: str | None = None) -> PlayerRecord:
        """A player's record, in every variant or in one."""
        only = None if variant is None else get_variant(variant).name
        stats = await self._leaderboards.player_stats(user_id, variant=only)
        someone = Participant.user(user_id)
        ratings = (
            await self._ratings.every_variant(someone)
            if only is None
            else [await self._ratings.get(someone, only)]
        )
        # One puzzle rating across the variants, as lichess keeps.
        puzzles = None if only is not None else await self._puzzles.rating(user_id)
        return PlayerRecord(stats, tuple(ratings), puzzles)

    async def leaderboard(self, variant: str, guild_id: int | None = None) -> Leaderboard:
        """The top players of a variant in a server (``guild_id``) or everywhere."""
        name = get_variant(variant).name
        entries = await self._leaderboards.leaderboard(name, guild_id=guild_id)
        gate = MIN_GAMES_SERVER if guild_id else MIN_GAMES_GLOBAL
        return Leaderboard(name, guild_id, tuple(entries), gate)


def changed_settings(
    current: ServerSettings, change: SettingsChange, words: InputWords = ENGLISH_WORDS
) -> ServerSettings:
    """``current`` with the options of ``change`` applied (a bad one is refused; ``words``:
    the typed words of the writer's language, besides English's)."""
    updated = current
    if change.threads is not None:
        updated = replace(updated, game_threads=change.threads)
    if change.time is not None:
        updated = replace(updated, default_move_seconds=parse_move_time(change.time, words))
    if change.rated_ai is not None:
        updated = replace(updated, rated_ai_games=change.rated_ai)
    if change.lobby is not None:
        updated = replace(updated, lobby=change.lobby)
    if change.lobby_channel is not None:
        # Naming a listed channel again takes it off the list.
        updated = replace(updated, lobby_channels=updated.lobby_channels ^ {change.lobby_channel})
    if change.lobby_anywhere:
        updated = replace(updated, lobby_channels=frozenset())
    if change.lobby_variants is not None:
        updated = replace(updated, lobby_variants=parse_variants(change.lobby_variants, words))
    if change.lobby_times is not None:
        updated = replace(updated, lobby_times=parse_times(change.lobby_times, words))
    if change.organisers is not None:
        # Naming the same role again takes it off.
        same = updated.tournament_role == change.organisers
        updated = replace(updated, tournament_role=None if same else change.organisers)
    if change.language is not None:
        language = None if change.language == SERVER_LANGUAGE else change.language
        updated = replace(updated, language=language)
    return updated


def parse_variants(text: str, every: InputWords = ENGLISH_WORDS) -> frozenset[str]:
    """Variant names separated by spaces or commas (``all``, or the writer's language's word
    for it in ``every``: every variant); one it does not know is refused
    (:class:`NotAVariant`)."""
    if every.means_every(text):
        return frozenset()
    words = text.replace(",", " ").lower().split()
    unknown = [word for word in words if word not in VARIANTS]
    if unknown or not words:
        raise Refused(NotAVariant(unknown[0] if unknown else text, tuple(VARIANTS)))
    return frozenset(words)


def parse_times(text: str, words: InputWords = ENGLISH_WORDS) -> frozenset[int]:
    """Times per move separated by spaces or commas (``all``, or the writer's language's word
    for it in ``words``: every one the lobby offers)."""
    if words.means_every(text):
        return frozenset()
    times = set()
    for word in text.replace(",", " ").lower().split():
        seconds = parse_move_time(word, words)
        if seconds not in LOBBY_MOVE_SECONDS:
            raise Refused(NotALobbyTime(word, tuple(sorted(LOBBY_MOVE_SECONDS))))
        times.add(seconds)
    return frozenset(times)
