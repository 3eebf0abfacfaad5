"""The words players type into the commands' options, in their language: the units of a time
(``24h``; ``24t`` in Swedish, ``3j`` in French), the word for no time limit (``none``;
``ingen``, ``aucune``) and the one for every variant or time (``all``; ``alla``, ``tous``).

Each language's catalogue defines them once, in the context ``input words``: a translation
lists the spellings its players may type, separated by ``|``, the first being the one the bot's
sentences name. English's (defined with the parser, ``app/durations.py``) are accepted in every
language. The cogs hand a reader's :func:`input_words` to the services that parse what they
typed; the refusals and help name :func:`typed_words`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from ...i18n.language import Language
from ..app.durations import InputWords, squeezed

UNITS = ("s", "m", "h", "d")
"""The units of a time (seconds, minutes, hours, days), as ``app/durations.py`` names them."""


def _catalogue_words(lang: Language) -> dict[str, str]:
    """Each input word's translation as the catalogue writes it (spellings separated by |)."""
    return {
        # Translators: what a player may type in a time option for "no time limit", in
        # lower case, spellings separated by | (the first is the one messages name). The
        # English words (none, off, unlimited...) are accepted in every language too.
        "none": lang.pgettext("input words", "none"),
        # Translators: what a player may type for "every one" in a list of variants or
        # times (/tafl settings lobby_variants), spellings separated by |, the first named.
        "all": lang.pgettext("input words", "all"),
        # Translators: the spellings of seconds after a number in a time (30s), separated
        # by |, the first named in messages. The English ones (s, sec, seconds) always work.
        "s": lang.pgettext("input words", "s"),
        # Translators: the spellings of minutes after a number (10m), separated by |; a
        # number alone is read as minutes. English's (m, min, minutes) always work.
        "m": lang.pgettext("input words", "m"),
        # Translators: the spellings of hours after a number (24h), separated by |, the
        # first named in messages. English's (h, hour, hours) always work.
        "h": lang.pgettext("input words", "h"),
        # Translators: the spellings of days after a number (3d), separated by |, the first
        # named in messages. English's (d, day, days) always work.
        "d": lang.pgettext("input words", "d"),
    }


def spellings(translation: str) -> tuple[str, ...]:
    """The spellings a translation lists (``"t|tim|timmar"``), as typed words are compared."""
    return tuple(dict.fromkeys(squeezed(word) for word in translation.split("|") if word.strip()))


@functools.cache
def input_words(lang: Language) -> InputWords:
    """What a reader of ``lang`` may type besides English's words, for the services' parsers
    (made once per language)."""
    words = _catalogue_words(lang)
    return InputWords(
        no_limit=frozenset(spellings(words["none"])),
        every=frozenset(spellings(words["all"])),
        units=MappingProxyType(
            {spelling: unit for unit in UNITS for spelling in spellings(words[unit])}
        ),
    )


@functools.cache
def typed_words(lang: Language) -> Mapping[str, str]:
    """The spelling messages name for each input word (``none``, ``all`` and the units ``s``,
    ``m``, ``h``, ``d``), as the reader's catalogue writes it first (``ingen``, ``t``)."""
    return MappingProxyType(
        {key: next(iter(spellings(text)), key) for key, text in _catalogue_words(lang).items()}
    )


def time_examples(lang: Language) -> dict[str, str]:
    """Times written as a reader types them, for the sentences that show how: ``seconds``
    (``30s``), ``minutes`` (``10m``), ``hours`` (``24h``), ``days`` (``3d``), and ``none``,
    the word for no limit."""
    typed = typed_words(lang)
    return {
        "seconds": f"30{typed['s']}",
        "minutes": f"10{typed['m']}",
        "hours": f"24{typed['h']}",
        "days": f"3{typed['d']}",
        "none": typed["none"],
    }
