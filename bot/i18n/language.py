"""The language a message is written in: its catalogue of translations (gettext, managed with
Babel) and its way of writing numbers, lists and durations (CLDR, through Babel).

Compose writes every sentence in English inside a marker call, on the :class:`Language` of
whoever reads it::

    language.gettext("Your move, {player}.", player=name)
    language.ngettext("{count} round", "{count} rounds", rounds)
    language.pgettext("board caption", "Attackers")

Babel's extractor finds these calls (and :func:`N_` around constants, translated where used)
and writes the template, ``locales/tafl.pot``; ``python -m bot catalogs`` keeps the catalogues
(``locales/<language>.po``) in step with it and checks them (README, "Translating").

Placeholders are named, in braces, as in ``str.format``. A catalogue is read from its ``.po``
file and compiled in memory when first used (a few milliseconds), so the ``.po`` files
translators edit are the only copy and nothing needs building at install. A string a
catalogue lacks (or has marked fuzzy) is written in English, as is one whose translation
cannot be filled in: a missing translation never stops a message.

Which language: Discord names its locales ``fr``, ``es-ES``, ``es-419``, ``sv-SE``, ``de``...
:meth:`Languages.language` follows a chain from the locale asked for to a shipped catalogue:
the locale itself, then its language alone (``es-419`` → ``es``, the catalogue written in
Spain's Spanish), then English. One locale gets one catalogue, never strings from two.
``en-XA`` (or ``Languages(pseudo=True)``, the ``TAFL_PSEUDO_LOCALE`` setting) is the
pseudo-locale: every string of the template marked and lengthened (``⟦Ŷöûŕ ɱöṽé···⟧``), its
placeholders kept, so that text which escaped translation (never marked, or not extracted)
stands out unmarked.
"""

from __future__ import annotations

import functools
import gettext as gnu
import io
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations
from babel.units import format_unit

ListStyle = Literal["standard", "or", "unit", "unit-short", "unit-narrow"]
UnitLength = Literal["long", "short", "narrow"]

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
"""The template (``tafl.pot``) and one catalogue per language (``<language>.po``)."""
DOMAIN = "tafl"
ENGLISH = "en"
PSEUDO = "en-XA"
"""The pseudo-locale's code (the one Android and Chrome use for accented pseudo-English)."""

COMMAND_NAME = "command name"
COMMAND_DESCRIPTION = "command description"
OPTION_NAME = "option name"
OPTION_DESCRIPTION = "option description"
CHOICE_NAME = "choice name"
COMMAND_CONTEXTS = (
    COMMAND_NAME,
    COMMAND_DESCRIPTION,
    OPTION_NAME,
    OPTION_DESCRIPTION,
    CHOICE_NAME,
)
"""The message contexts of the strings Discord shows in its command picker: a command's name
(``/tafl challenge``) is not the same message as the word in a sentence."""
NAME_CONTEXTS = (COMMAND_NAME, OPTION_NAME)
"""Contexts whose strings Discord takes as names (1-32 lowercase letters, digits, - and _)."""
NAME_LENGTH = 32
DESCRIPTION_LENGTH = 100
"""Discord's limit on a command's or option's description and on a choice's name."""


def N_(message: str) -> str:
    """Mark ``message`` for the template without translating it (a constant defined before
    anyone's language is known); translate it where it is used, with ``language.gettext``."""
    return message


def placeholders(text: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` in ``text`` (``{{`` and ``}}`` are braces).

    Raises ``ValueError`` for braces ``str.format`` cannot read."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(name)
    return frozenset(names)


def is_command_name(text: str) -> bool:
    """Whether Discord takes ``text`` as a command's or option's name: 1-32 characters,
    letters (lowercase where the script has case), digits, ``-`` and ``_``."""
    return (
        0 < len(text) <= NAME_LENGTH
        and text == text.lower()
        and all(ch.isalnum() or ch in "-_" for ch in text)
    )


def autonym(locale: str) -> str:
    """A language's name in itself, as CLDR writes it (``fr``: ``français``; ``es-419``:
    ``español (Latinoamérica)``), for menus where each reader looks for their own."""
    try:
        parsed = Locale.parse(locale.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return locale
    return parsed.get_display_name(parsed) or locale


# ---------------------------------------------------------------------------- the pseudo-locale

_ACCENTS = "àƀçđéƒĝĥîĵķļɱñöþǫŕšŧûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŦÛṼŴẊÝŽ"
"""The pseudo-locale's letter for each of ``string.ascii_letters``: none of them ASCII, so
that any ASCII letter in a pseudo-locale message came from outside the catalogue."""
_ACCENTED = str.maketrans(string.ascii_letters, _ACCENTS)
_KEPT = re.compile(r"\{\{|\}\}|\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+")
"""What the pseudo-locale leaves as it is: placeholders, code and commands in backticks,
Discord's mentions and custom emoji, links."""
PSEUDO_OPEN, PSEUDO_CLOSE, PSEUDO_PADDING = "⟦", "⟧", "·"


def unmarked(text: str) -> list[str]:
    """The parts of ``text`` outside the pseudo-locale's marks, each stripped (empty ones
    left out): in a pseudo-locale run, words there escaped translation, unless they are the
    values a message was given (names, numbers, moves)."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == PSEUDO_OPEN:
            if depth == 0:
                parts.append("".join(current))
                current = []
            depth += 1
        elif ch == PSEUDO_CLOSE and depth:
            depth -= 1
        elif depth == 0:
            current.append(ch)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _unaccenting() -> dict[int, str]:
    # The accented letters back to ASCII, their other case included: a message may change a
    # translated word's case (a title's capitals), and Unicode's case pairs of the accented
    # letters are not always the map's own (``ƀ`` upper is ``Ƀ``).
    table: dict[int, str] = {}
    for plain, accented in zip(string.ascii_letters, _ACCENTS, strict=True):
        for variant, back in ((accented.upper(), plain.upper()), (accented.lower(), plain.lower())):
            if len(variant) == 1 and variant not in string.ascii_letters:
                table.setdefault(ord(variant), back)
        table[ord(accented)] = plain
    return table


_UNACCENTED = _unaccenting()
_INNERMOST_MARK = re.compile(
    f"{PSEUDO_OPEN}([^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*?){PSEUDO_PADDING}*(?:{PSEUDO_CLOSE}|$)"
)
"""A marked string with no other inside it (its padding apart); one cut short by a length
limit has lost its closing mark."""


def unpseudo(text: str) -> str:
    """The English a pseudo-locale ``text`` was made from: marks and padding taken out, the
    letters inside the marks unaccented (the values filled into a message's placeholders,
    being inside them too, lose the same accents). What a test of a pseudo-locale run compares
    with the English it expects."""
    previous = None
    while previous != text:
        previous = text
        text = _INNERMOST_MARK.sub(lambda found: found.group(1).translate(_UNACCENTED), text)
    return text


def pseudo(
    text: str, *, name: bool = False, limit: int | None = None, lengthen: bool = True
) -> str:
    """``text`` in the pseudo-locale: letters accented, lengthened by about a third (as
    French or German often are) and marked ``⟦…⟧``, placeholders and code kept. A ``name``
    (a command's) is only accented, so that Discord still takes it; ``lengthen=False`` only
    marks; ``limit``: the length Discord allows, kept with the marks."""
    parts: list[str] = []
    position = 0
    for kept in _KEPT.finditer(text):
        parts.append(text[position : kept.start()].translate(_ACCENTED))
        parts.append(kept.group())
        position = kept.end()
    parts.append(text[position:].translate(_ACCENTED))
    accented = "".join(parts)
    if name:
        return accented
    letters = sum(ch.isalpha() for ch in text)
    padding = PSEUDO_PADDING * max(1, round(letters / 3)) if lengthen else ""
    marked = f"{PSEUDO_OPEN}{accented}{padding}{PSEUDO_CLOSE}"
    if limit is not None and len(marked) > limit:
        marked = f"{PSEUDO_OPEN}{accented}"[: limit - 1] + PSEUDO_CLOSE
    return marked


# ---------------------------------------------------------------------------- the catalogues


@dataclass(frozen=True)
class Catalogue:
    """A shipped catalogue: its language's code (Babel's, the file's name) and its messages
    compiled for gettext."""

    code: str
    translations: gnu.NullTranslations


def shipped_codes(directory: Path = LOCALES_DIR) -> tuple[str, ...]:
    """The languages with a catalogue in ``directory`` (``fr``, ``es``, ``sv``, ``de``...)."""
    return tuple(sorted(path.stem for path in directory.glob("*.po")))


@functools.cache
def load_catalogue(path: Path) -> Catalogue:
    """The catalogue in the ``.po`` file at ``path``, compiled in memory with Babel (fuzzy
    entries left out: they wait for a translator's review and are written in English)."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=path.stem, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Catalogue(path.stem, Translations(compiled, domain=DOMAIN))


def chain(locale: str) -> tuple[str, ...]:
    """The catalogues to look for, in order, for a Discord locale (``es-419``: ``es_419``,
    then ``es``): the locale, then its language alone. English, the language the code is
    written in, comes after them all."""
    try:
        parsed = Locale.parse(locale.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return ()
    found = [str(parsed)]
    if parsed.territory or parsed.script:
        found.append(parsed.language)
    return tuple(dict.fromkeys(found))


@functools.cache
def template_messages(path: Path) -> frozenset[tuple[str | None, str]]:
    """The strings of the template at ``path``: (context, English singular)."""
    if not path.is_file():
        return frozenset()
    with path.open("rb") as file:
        template = read_po(file, domain=DOMAIN)
    return frozenset(
        (message.context, message.id if isinstance(message.id, str) else str(message.id[0]))
        for message in template
        if message.id
    )


class PseudoTranslations(gnu.NullTranslations):
    """The pseudo-locale's "catalogue": every string of the template marked and lengthened
    (:func:`pseudo`). A string the template lacks (an f-string given to ``gettext``, a marker
    the extractor cannot read, a template not updated) stays English, unmarked: what a
    pseudo-locale run finds as escaped."""

    def __init__(self, known: frozenset[tuple[str | None, str]]) -> None:
        super().__init__()
        self.known = known

    def _mark(self, context: str | None, singular: str, english: str) -> str:
        return pseudo(english) if (context, singular) in self.known else english

    def gettext(self, message: str) -> str:
        return self._mark(None, message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(None, msgid1, msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self._mark(context, message, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(context, msgid1, msgid1 if n == 1 else msgid2)


# ---------------------------------------------------------------------------- a language


@dataclass(frozen=True)
class Language:
    """One reader's language: the translations of the catalogue chosen for their locale (none
    for English) and their locale's way of writing numbers, lists and durations.

    ``locale`` is the locale asked for (``es-419``: numbers as Latin America writes them);
    ``catalogue`` the code of the catalogue its words come from (``es``; ``en`` for none)."""

    locale: str = ENGLISH
    catalogue: str = ENGLISH
    translations: gnu.NullTranslations = field(default_factory=gnu.NullTranslations)
    is_pseudo: bool = False

    @functools.cached_property
    def cldr(self) -> Locale:
        """Babel's locale for formatting (English's when CLDR does not know the locale)."""
        for code in (*chain(self.locale), self.catalogue):
            try:
                return Locale.parse(code)
            except (ValueError, UnknownLocaleError):
                continue
        return Locale.parse(ENGLISH)

    # ------------------------------------------------------------------ words

    def gettext(self, message: str, /, **values: object) -> str:
        """``message`` in this language, its ``{placeholders}`` filled with ``values``."""
        return self._fill(self.translations.gettext(message), message, values)

    def ngettext(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The form for ``count`` of a message with a plural (``{count}`` is filled with the
        number as this language writes it)."""
        english = singular if count == 1 else plural
        text = self.translations.ngettext(singular, plural, count)
        return self._fill(text, english, {"count": self.number(count), **values})

    def pgettext(self, context: str, message: str, /, **values: object) -> str:
        """``message`` in ``context`` (the same English words meaning something else
        elsewhere: a command's name, a caption) in this language."""
        return self._fill(self.translations.pgettext(context, message), message, values)

    def npgettext(
        self, context: str, singular: str, plural: str, count: int, /, **values: object
    ) -> str:
        """:meth:`ngettext` in a ``context``."""
        english = singular if count == 1 else plural
        text = self.translations.npgettext(context, singular, plural, count)
        return self._fill(text, english, {"count": self.number(count), **values})

    def translated(self, context: str, message: str) -> str | None:
        """The catalogue's translation of ``message`` in ``context``, or ``None`` when it has
        none (what Discord is given for a command's name: nothing rather than the English)."""
        text = self.translations.pgettext(context, message)
        if text == message or (self.catalogue == ENGLISH and not self.is_pseudo):
            return None
        if self.is_pseudo and context in COMMAND_CONTEXTS:
            # Names only accented, so that Discord still takes them; descriptions and choices
            # marked but not lengthened: the picker's strings have a size limit of their own.
            return pseudo(message, name=context in NAME_CONTEXTS, lengthen=False)
        return text

    def command(self, path: str) -> str:
        """A command as this reader's Discord shows it (``tafl challenge`` → ``/tafl
        défier``), for sentences that tell them what to type."""
        return "/" + " ".join(self.pgettext(COMMAND_NAME, word) for word in path.split())

    def option(self, name: str) -> str:
        """A command's option as this reader's Discord picker names it (``rounds`` →
        ``rondes``), for sentences that tell them what to fill in. Discord takes one name per
        option's English name and language (the catalogue's ``option name`` entry, shared by
        every command that has the option), so the command need not be named."""
        return self.translated(OPTION_NAME, name) or name

    @staticmethod
    def _fill(text: str, english: str, values: Mapping[str, object]) -> str:
        # A translation that names a placeholder the code does not give (the catalogue
        # check catches it) falls back to the English rather than failing the message.
        try:
            return text.format_map(values) if values else text
        except (KeyError, IndexError, ValueError, AttributeError):
            return english.format_map(values)

    # ------------------------------------------------------------------ numbers and lists

    def _cldr_words(self, text: str) -> str:
        """Words CLDR wrote for this locale (``3 hours``), marked in the pseudo-locale: they
        are translated, by CLDR rather than by the catalogue."""
        return pseudo(text, lengthen=False) if self.is_pseudo else text

    def number(self, value: int | float) -> str:
        """A number as this language writes it (``1 234`` in French, ``1,234`` in English)."""
        return format_decimal(value, locale=self.cldr)

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with exactly ``digits`` decimals (``1,5`` in French, ``1.5`` in English)."""
        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        return format_decimal(value, format=pattern, locale=self.cldr)

    def percent(self, fraction: float) -> str:
        """A fraction as a whole percentage (``0.25`` → ``25 %`` in French)."""
        return format_percent(fraction, locale=self.cldr)

    def join(self, items: Iterable[str], *, style: ListStyle = "standard") -> str:
        """Items joined as a list (``a, b et c``); ``style="or"`` for alternatives."""
        return self._list(list(items), style)

    def _list(self, items: list[str], style: ListStyle) -> str:
        if self.is_pseudo and len(items) > 1:
            # CLDR's words ("and", "or") marked like the catalogue's, the items as given.
            slots = [f"{{{index}}}" for index in range(len(items))]
            return pseudo(self._cldr_list(slots, style)).format(*items)
        return self._cldr_list(items, style)

    def _cldr_list(self, items: list[str], style: ListStyle) -> str:
        try:
            return format_list(items, style=style, locale=self.cldr)
        except KeyError:
            # Babel holds some styles only in part for some locales (Spanish's "unit" has no
            # pattern for two items): the standard list is whole everywhere.
            return format_list(items, style="standard", locale=self.cldr)

    def duration(self, seconds: float, *, units: int = 2, length: UnitLength = "long") -> str:
        """A duration in its largest ``units`` units (``1 jour et 3 heures``); ``length``
        ``"short"`` (``1 j, 3 h``) or ``"narrow"`` for tight places."""
        remaining = max(0, round(seconds))
        amounts = []
        for unit, size in _UNITS:
            amount, remaining = divmod(remaining, size)
            amounts.append((unit, amount))
        first = next((i for i, (_, amount) in enumerate(amounts) if amount), len(amounts) - 1)
        parts = [
            self._cldr_words(format_unit(amount, unit, length=length, locale=self.cldr))
            for unit, amount in amounts[first : first + units]
            if amount or len(amounts) - 1 == first
        ]
        return self._list(parts, _LIST_STYLE[length])


_LIST_STYLE: dict[UnitLength, ListStyle] = {
    "long": "standard",
    "short": "unit-narrow",
    "narrow": "unit-narrow",
}
"""How a duration's parts are joined: ``1 jour et 3 heures``, ``1 j 3 h`` (the styles every
shipped language's CLDR data holds whole)."""
_UNITS = (
    ("duration-day", 86400),
    ("duration-hour", 3600),
    ("duration-minute", 60),
    ("duration-second", 1),
)

ENGLISH_LANGUAGE = Language()
"""English: the words as the code writes them."""


class Languages:
    """The shipped catalogues, and the language each locale gets (a catalogue is read the
    first time a reader needs it)."""

    def __init__(self, directory: Path = LOCALES_DIR, *, pseudo: bool = False) -> None:
        """``pseudo``: every reader gets the pseudo-locale (``TAFL_PSEUDO_LOCALE``)."""
        self.directory = directory
        self.pseudo = pseudo
        self.codes = shipped_codes(directory)
        self._made: dict[str, Language] = {}

    def language(self, locale: str | None) -> Language:
        """The language for a Discord locale (``None``: English), made once per locale."""
        code = locale or ENGLISH
        known = self._made.get(code)
        if known is None:
            known = self._made[code] = self._make(code)
        return known

    def _make(self, code: str) -> Language:
        if self.pseudo or code == PSEUDO:
            known = template_messages(self.directory / f"{DOMAIN}.pot")
            return Language(code, ENGLISH, PseudoTranslations(known), is_pseudo=True)
        for candidate in chain(code):
            if candidate in self.codes:
                catalogue = load_catalogue(self.directory / f"{candidate}.po")
                return Language(code, catalogue.code, catalogue.translations)
        return Language(code) if code != ENGLISH else ENGLISH_LANGUAGE

    def for_channel(self, chosen: str | None, server_locale: str | None) -> Language:
        """The language of what a server's channel reads (boards, announcements, tournament
        posts): the one the server chose with /tafl settings, else its preferred locale as
        Discord reports it (``guild_locale``; ``en-US`` for servers without Community)."""
        return self.language(chosen or server_locale)

    def for_reader(self, locale: str | None) -> Language:
        """The language of what one person reads alone (a private reply, a direct message,
        their puzzle): their client's (``interaction.locale``), or for notices sent later the
        one they last used (``Players.last_locale``)."""
        return self.language(locale)

    def shipped(self, locale: str) -> Language | None:
        """The language for ``locale`` if it has a catalogue of its own (or is the pseudo-
        locale's run), else ``None``: English is the default and needs no localization."""
        language = self.language(locale)
        return language if language.is_pseudo or language.catalogue != ENGLISH else None
