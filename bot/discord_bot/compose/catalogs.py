"""The catalogues' upkeep, with Babel: the template extracted from the code, each language's
catalogue brought in step with it, and the check of what translators wrote.

``python -m bot catalogs extract|update|check|init LANG`` runs these (the command walks the
bot's command tree for the strings Discord shows in its picker; see README, "Translating").
"""

from __future__ import annotations

import ast
import datetime
import io
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as BabelMessage
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from ...i18n.language import (
    COMMAND_CONTEXTS,
    DESCRIPTION_LENGTH,
    DOMAIN,
    LOCALES_DIR,
    NAME_CONTEXTS,
    is_command_name,
)
from ...i18n.language import placeholders as placeholders_of

COMPOSE_DIR = Path(__file__).resolve().parent
"""Where the sentences players read are written (the only code the extractor reads)."""
REPOSITORY = COMPOSE_DIR.parents[2]
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
PROJECT = "tafl-bot"
TRANSLATORS = "tafl-bot translators"
"""Who the catalogues' headers name as their authors and team (the project's translators, as
one: each file's history says who wrote what)."""
HEADER_COMMENT = """\
# Translations template for PROJECT.
# Copyright (C) YEAR ORGANIZATION
# This file is distributed under the same license as the PROJECT project.
#"""
"""The comment above a catalogue's header, Babel's without its "FIRST AUTHOR" line (Babel
fills the project, the year and the copyright holder, and names the language)."""
PLACEHOLDERS = (
    "ORGANIZATION",
    "FIRST AUTHOR",
    "EMAIL@ADDRESS",
    "YEAR-MO-DA",
    "FULL NAME",
    "VERSION",
    "LL@li.org",
)
"""What Babel writes in a header where it knows nothing true: never in a shipped file."""
KEYWORDS = {**DEFAULT_KEYWORDS}
"""The marker calls Babel's extractor looks for: ``gettext``, ``ngettext``, ``pgettext``,
``npgettext`` (a :class:`~.language.Language`'s methods) and ``N_``."""
COMMENT_TAGS = ("Translators:",)
"""A comment starting so, just above a marker call, is shown to translators with the string."""
WIDTH = 100


@dataclass
class Message:
    """A string for the template that is not a marker call in the code (the command tree's)."""

    context: str | None
    message: str
    locations: list[tuple[str, int]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def extract(extra: Iterable[Message] = (), directory: Path = COMPOSE_DIR) -> Catalog:
    """The template: every marked string of the code under ``directory`` (with its translator
    comments and places) and the ``extra`` strings."""
    template = Catalog(project=PROJECT, domain=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(directory),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        where = _shown(directory.resolve() / filename)
        template.add(message, locations=[(where, lineno)], auto_comments=comments, context=context)
    for found in extra:
        template.add(
            found.message,
            locations=found.locations,
            auto_comments=found.comments,
            context=found.context,
        )
    return template


def _shown(path: Path) -> str:
    """A source file as the catalogues name it: from the repository's root."""
    try:
        return path.relative_to(REPOSITORY).as_posix()
    except ValueError:
        return path.name


MESSAGE_ARGUMENTS = {
    "gettext": (0,),
    "ngettext": (0, 1),
    "pgettext": (0, 1),
    "npgettext": (0, 1, 2),
    "N_": (0,),
}
"""The arguments of each marker call that the extractor must read as plain strings."""


MACHINERY = ("language.py", "catalogs.py")


def marker_problems(source: str, filename: str = "<source>") -> list[str]:
    """Marker calls whose words the extractor cannot read (an f-string, a variable, a
    concatenation): such a string never reaches the template, so it is never translated (and
    a pseudo-locale run shows it unmarked). Values go in placeholders instead."""
    problems = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if isinstance(node.func, ast.Name):
            name = node.func.id
        for index in MESSAGE_ARGUMENTS.get(name or "", ()):
            if index >= len(node.args):
                break
            argument = node.args[index]
            if not (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
                if name == "gettext" and index == 0 and isinstance(argument, ast.Name):
                    continue  # a constant marked with N_ where it is defined
                problems.append(
                    f"{filename}:{node.lineno}: {name}() needs plain words, not "
                    f"{ast.unparse(argument)!r}: put values in {{placeholders}}"
                )
    return problems


def code_problems(directory: Path = COMPOSE_DIR) -> list[str]:
    """:func:`marker_problems` over the code the extractor reads (but the machinery, which
    hands on the words it is given)."""
    found = []
    for path in sorted(directory.rglob("*.py")):
        if path.name in MACHINERY:
            continue
        found += marker_problems(path.read_text(encoding="utf-8"), _shown(path))
    return found


def version() -> str:
    """The project's version, as ``pyproject.toml`` gives it."""
    with (REPOSITORY / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def _headed(catalog: Catalog) -> None:
    """Give ``catalog`` a true header in place of Babel's placeholders: the project and its
    version, its translators (no address: the repository is where to reach them), the date it
    was last brought in step with the code."""
    catalog.project = PROJECT
    catalog.version = version()
    catalog.copyright_holder = TRANSLATORS
    catalog.msgid_bugs_address = ""
    catalog.last_translator = TRANSLATORS
    language = catalog.locale.english_name if catalog.locale else None
    catalog.language_team = f"{language} ({TRANSLATORS})" if language else TRANSLATORS
    catalog.header_comment = HEADER_COMMENT
    if not isinstance(catalog.revision_date, datetime.datetime):
        catalog.revision_date = catalog.creation_date
    catalog.fuzzy = False


def write(catalog: Catalog, path: Path) -> None:
    """Write a template or catalogue as translators' tools read it (sorted by place, so that a
    change in the code shows as a small change in the file), with a true header and without
    the strings the code no longer has (Babel's obsolete ``#~`` entries: the file's history
    keeps them)."""
    _headed(catalog)
    buffer = io.BytesIO()
    write_po(
        buffer, catalog, width=WIDTH, omit_header=False, sort_by_file=True, ignore_obsolete=True
    )
    path.write_bytes(buffer.getvalue())


def read(path: Path, locale: str | None = None) -> Catalog:
    """A template or catalogue from its file."""
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


def new_catalogue(code: str, template: Catalog) -> Catalog:
    """An empty catalogue for the language ``code`` (Babel's code: ``fr``, ``es``, ``sv``...),
    its plural forms CLDR's."""
    catalogue = Catalog(locale=Locale.parse(code), project=PROJECT, domain=DOMAIN)
    catalogue.update(template)
    catalogue.revision_date = template.creation_date
    return catalogue


def update(template: Catalog, directory: Path = LOCALES_DIR) -> list[str]:
    """Bring every catalogue in ``directory`` in step with ``template``: new strings added
    (untranslated, or a near match marked fuzzy for review), strings gone removed.
    Returns the languages updated."""
    done = []
    for path in sorted(directory.glob("*.po")):
        catalogue = read(path, path.stem)
        catalogue.update(template)
        catalogue.revision_date = template.creation_date
        write(catalogue, path)
        done.append(path.stem)
    return done


# ---------------------------------------------------------------------------- the check


@dataclass
class Report:
    """What the check found in one catalogue."""

    code: str
    errors: list[str] = field(default_factory=list)
    """What would be wrong in front of players: the check fails."""
    untranslated: list[str] = field(default_factory=list)
    """Strings written in English meanwhile (empty or fuzzy): listed, not failing."""
    total: int = 0
    """Strings in the template."""

    @property
    def translated(self) -> int:
        """Strings players read in this language."""
        return self.total - len(self.untranslated)


def _ids(message: BabelMessage) -> list[str]:
    """The English of a message: one string, or a plural's singular and plural."""
    return [message.id] if isinstance(message.id, str) else [str(part) for part in message.id]


def _forms(message: BabelMessage) -> list[str]:
    """A message's translation: one string, or a plural's forms (empty: untranslated)."""
    string = message.string
    if isinstance(string, str):
        return [string]
    return [part or "" for part in string or ()]


def _label(english: str, context: str | None) -> str:
    return f"[{context}] {english!r}" if context else repr(english)


def check_catalogue(path: Path, template: Catalog | None = None) -> Report:
    """Check one catalogue: it reads; its plural forms are CLDR's for its language; each
    translation has the English's placeholders (a plural, every form); a command's name or
    description is one Discord takes; it holds the template's strings (when given)."""
    code = path.stem
    report = Report(code)
    try:
        catalogue = read(path, code)
    except Exception as error:  # a file Babel cannot read: say which and why
        report.errors.append(f"cannot be read: {error}")
        return report
    report.errors.extend(file_problems(path))
    plural = get_plural(code)
    if (catalogue.num_plurals, catalogue.plural_expr) != (plural.num_plurals, plural.plural_expr):
        report.errors.append(
            f"Plural-Forms is {catalogue.plural_forms!r}; CLDR's for {code!r} is "
            f"{plural.plural_forms!r}"
        )
    for message in catalogue:
        if not message.id:
            continue
        report.total += 1
        ids, forms = _ids(message), _forms(message)
        label = _label(ids[0], message.context)
        if not any(forms) or message.fuzzy:
            report.untranslated.append(label)
            continue
        if message.pluralizable:
            if len(forms) != plural.num_plurals:
                report.errors.append(
                    f"{label}: {len(forms)} plural forms, {code!r} has {plural.num_plurals}"
                )
            if not all(forms):
                report.errors.append(f"{label}: a plural form is left empty")
        english = frozenset().union(*(placeholders_of(part) for part in ids))
        report.errors.extend(
            _placeholder_errors(label, english, forms, plural=message.pluralizable)
        )
        if message.context in NAME_CONTEXTS and not is_command_name(forms[0]):
            report.errors.append(
                f"{label}: {forms[0]!r} is not a name Discord takes (1-32 lowercase letters, "
                "digits, - and _)"
            )
        elif message.context in COMMAND_CONTEXTS and len(forms[0]) > DESCRIPTION_LENGTH:
            report.errors.append(
                f"{label}: {len(forms[0])} characters, Discord takes {DESCRIPTION_LENGTH}"
            )
    if template is not None:
        expected = {(tuple(_ids(m)), m.context) for m in template if m.id}
        present = {(tuple(_ids(m)), m.context) for m in catalogue if m.id}
        if expected != present:
            report.errors.append(
                f"{len(expected - present)} strings of the template missing, "
                f"{len(present - expected)} not in it: run `python -m bot catalogs update`"
            )
    return report


def file_problems(path: Path) -> list[str]:
    """What a template or catalogue file must not hold: Babel's placeholders in its header
    (:data:`PLACEHOLDERS`), strings the code no longer has (obsolete ``#~`` entries). Both
    are gone once ``python -m bot catalogs update`` has written it."""
    text = path.read_text(encoding="utf-8")
    header = text.split("\n\n", 1)[0]
    fix = "run `python -m bot catalogs update`"
    problems = [
        f"its header holds Babel's placeholder {placeholder!r}: {fix}"
        for placeholder in PLACEHOLDERS
        if placeholder in header
    ]
    obsolete = sum(1 for line in text.splitlines() if line.startswith("#~ msgid "))
    if obsolete:
        problems.append(f"{obsolete} strings the code no longer has (#~): {fix}")
    return problems


def _placeholder_errors(
    label: str, english: frozenset[str], forms: Sequence[str], *, plural: bool
) -> list[str]:
    errors = []
    for index, form in enumerate(forms):
        try:
            found = placeholders_of(form)
        except ValueError as error:
            errors.append(f"{label}: form {index} has braces that cannot be filled ({error})")
            continue
        extra = found - english
        # A plural's form for one may say "un coup" instead of "{count} coup"; its last form
        # (the general one) must name every placeholder, as any other translation must.
        missing = english - found if (not plural or index == len(forms) - 1) else frozenset()
        if extra:
            errors.append(f"{label}: unknown placeholders {sorted(extra)} in {form!r}")
        if missing:
            errors.append(f"{label}: placeholders {sorted(missing)} missing in {form!r}")
    return errors


def check(template: Catalog | None = None, directory: Path = LOCALES_DIR) -> list[Report]:
    """Check every catalogue in ``directory``."""
    return [check_catalogue(path, template) for path in sorted(directory.glob("*.po"))]


def template_drift(current: Catalog, shipped: Catalog) -> list[str]:
    """How the template in the files differs from the one the code gives now (nothing: it is
    up to date)."""
    now = {(_ids(m)[0], m.context) for m in current if m.id}
    kept = {(_ids(m)[0], m.context) for m in shipped if m.id}
    return [f"new in the code: {_label(i, c)}" for i, c in sorted(now - kept, key=str)] + [
        f"gone from the code: {_label(i, c)}" for i, c in sorted(kept - now, key=str)
    ]
