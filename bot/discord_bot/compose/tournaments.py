"""The tournaments' words and messages: announcements, rounds, standings (in words and as the
crosstable image's data, every word drawn on it included), results, records, and the answers
to the organisers' and players' commands, composed from the tournament service's results
(:mod:`..app.tournaments`) as posts. Pure: nothing here imports Discord.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from bot import tournament as logic
from bot.render.crosstable import (
    Cell,
    CrosstableView,
    CrosstableWords,
    PlayerRow,
    SidePlayed,
    Tiebreak,
    format_points,
)
from bot.storage.tournaments import Details, LogEntry, TournamentSpec

from ...i18n.language import ENGLISH_LANGUAGE, Language
from ..app.tournaments import (
    ANY_STATUS,
    UNDER_WAY,
    AnnouncementChanged,
    CallOffReason,
    CancelledForTooFew,
    EntryBarred,
    EventCancelled,
    EventInfo,
    EventIs,
    EventOver,
    Export,
    Finished,
    FloorAboveCeiling,
    GameBegun,
    Joined,
    LeaveAsked,
    Left,
    Line,
    MinutesForArenas,
    NoEventAmong,
    NoSuchBoard,
    NoSuchEvent,
    NoSuchRound,
    NotATextChannel,
    NotBegun,
    NotEntered,
    NotOrganiser,
    PausedForThreads,
    PlayerRemoved,
    ResultSet,
    RoundOverWhilePaused,
    RoundPaired,
    RoundsForSwiss,
    RoundShorterThanMove,
    ServerOnly,
    Sheet,
    Standings,
    StandingsDue,
    Start,
    Status,
    StoredPairing,
    TooFewToStart,
    Tournament,
    Verdict,
    decided_by_organiser,
)
from .board import duration_words, plain_name, variant_title
from .errors import refusal_words
from .lobby import rated_word, time_words
from .post import (
    Answer,
    Attachment,
    Button,
    Card,
    Delivery,
    Edit,
    Field,
    Message,
    Picture,
    Place,
    Post,
    Style,
    Tone,
    Update,
)

FIELD_ROOM = 1000
"""Characters of the players and the history shown in an event's card."""


def status_words(status: Status, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How an event stands: ``open for sign-up``, ``being played``..."""
    return {
        "signup": lang.pgettext("tournament status", "open for sign-up"),
        "running": lang.pgettext("tournament status", "being played"),
        "paused": lang.pgettext("tournament status", "paused"),
        "finished": lang.pgettext("tournament status", "finished"),
        "cancelled": lang.pgettext("tournament status", "cancelled"),
    }[status]


def none_among(among: frozenset[Status], *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What a server lacks when a command without a number finds no event among these
    statuses."""
    lacks = {
        ANY_STATUS: lang.gettext("This server has had no tournament yet"),
        UNDER_WAY: lang.gettext("This server has no tournament under way"),
        frozenset(("signup",)): lang.gettext("This server has no tournament waiting to start"),
        frozenset(("running",)): lang.gettext("This server has no tournament being played"),
        frozenset(("paused",)): lang.gettext("This server has no paused tournament"),
    }
    return lacks.get(among) or lang.gettext("This server has no such tournament")


def tiebreak_short(name: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A tiebreak's column header (``BH``, ``W``...) in ``lang``: on the crosstable and in the
    standings' text."""
    shorts = {
        # Translators: a tiebreak's column header: Buchholz (the sum of the opponents' scores).
        "BH": lang.pgettext("tiebreak abbreviation", "BH"),
        # Translators: a tiebreak's column header: Sonneborn-Berger.
        "SB": lang.pgettext("tiebreak abbreviation", "SB"),
        # Translators: a tiebreak's column header: game points (a match's games counted).
        "GP": lang.pgettext("tiebreak abbreviation", "GP"),
        # Translators: a tiebreak's column header: the number of wins.
        "W": lang.pgettext("tiebreak abbreviation", "W"),
        # Translators: a tiebreak's column header: the performance rating.
        "Perf": lang.pgettext("tiebreak abbreviation", "Perf"),
        # Translators: an arena's tiebreak column header: the number of games played.
        "games": lang.pgettext("tiebreak abbreviation", "games"),
    }
    return shorts.get(name, name)


def tiebreak_words(name: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A tiebreak's header and what it is, for the standings' text (``W wins``)."""
    meanings = {
        "BH": lang.gettext("Buchholz"),
        "SB": lang.gettext("Sonneborn-Berger"),
        "GP": lang.gettext("game points"),
        "W": lang.gettext("wins"),
        "Perf": lang.gettext("performance rating"),
    }
    if name not in meanings:
        return lang.gettext("games played") if name == "games" else name
    return lang.gettext(
        "{abbreviation} {meaning}",
        abbreviation=tiebreak_short(name, lang=lang),
        meaning=meanings[name],
    )


def tiebreak_title(name: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A tiebreak's name, under the crosstable."""
    titles = {
        "BH": lang.gettext("Buchholz"),
        "SB": lang.gettext("Sonneborn-Berger"),
        "GP": lang.gettext("game points (the first tiebreak)"),
        "W": lang.gettext("wins"),
        "Perf": lang.gettext("performance rating"),
        "games": lang.gettext("games played"),
    }
    return titles.get(name, name)


def format_words(format: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``Swiss``, ``round robin`` or ``arena``."""
    return {
        "swiss": lang.pgettext("tournament format", "Swiss"),
        "round_robin": lang.pgettext("tournament format", "round robin"),
        "arena": lang.pgettext("tournament format", "arena"),
    }[format]


def event_kind(spec: TournamentSpec, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """An event's rules and format in one phrase, ordered as the reader's language orders them:
    ``Brandubh Swiss``, ``Brandubh round robin``, ``Brandubh arena``."""
    variant = variant_title(spec.variant, lang)
    if spec.format == "round_robin":
        return lang.pgettext("event kind", "{variant} round robin", variant=variant)
    if spec.format == "arena":
        return lang.pgettext("event kind", "{variant} arena", variant=variant)
    return lang.pgettext("event kind", "{variant} Swiss", variant=variant)


def out_mark(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The mark of a player who is no longer paired, after their name in the standings'
    text: `` (out)``."""
    return " ({out})".format(out=lang.pgettext("standings", "out"))


@functools.cache
def crosstable_words(lang: Language = ENGLISH_LANGUAGE) -> CrosstableWords:
    """Every word the crosstable image (and its text form) shows besides names and numbers,
    in ``lang``, made once per language (the renderer fills the numbers of ``round``,
    ``matches`` and ``page`` in by position)."""
    marks = {
        # Translators: one letter, after an opponent's number in the text crosstable, for a
        # game the player played with the attackers (the next string: with the defenders).
        "attacker": lang.pgettext("crosstable side", "a"),
        "defender": lang.pgettext("crosstable side", "d"),
    }
    return CrosstableWords(
        rank=lang.pgettext("crosstable", "#"),
        number=lang.pgettext("crosstable", "No"),
        player=lang.pgettext("crosstable", "Player"),
        rating=lang.pgettext("crosstable", "Rtg"),
        games=lang.pgettext("crosstable", "Games"),
        round=lang.pgettext("crosstable", "R{round}").replace("{round}", "{0}"),
        bye=lang.pgettext("crosstable", "bye"),
        attackers=lang.pgettext("crosstable", "attackers"),
        defenders=lang.pgettext("crosstable", "defenders"),
        matches=lang.pgettext("crosstable", "{games}-game matches: game points").replace(
            "{games}", "{0}"
        ),
        forfeit=lang.pgettext("crosstable", "forfeit"),
        playing=lang.pgettext("crosstable", "playing"),
        streak=lang.pgettext("crosstable", "streak (points doubled)"),
        withdrawn=lang.pgettext("crosstable", "withdrawn"),
        page=lang.pgettext("crosstable", "rows {first}–{last} of {rows}")
        .replace("{first}", "{0}")
        .replace("{last}", "{1}")
        .replace("{rows}", "{2}"),
        played_sides=lang.pgettext(
            "crosstable", "{attacker}/{defender}: played attackers/defenders", **marks
        ),
        pending_sides=lang.pgettext(
            "crosstable", "{attacker}/{defender} before a result: attackers/defenders", **marks
        ),
        attacker_mark=marks["attacker"],
        defender_mark=marks["defender"],
        streak_short=lang.pgettext("crosstable", "streak"),
        left_note=lang.pgettext("crosstable", "{player}: {why}")
        .replace("{player}", "{0}")
        .replace("{why}", "{1}"),
    )


CROSSTABLE_WORDS = crosstable_words(ENGLISH_LANGUAGE)
"""The crosstable's words in English (the render tests and samples)."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with "…" when cut (the table fits every
    text to Discord's limits; this keeps a card's lists shorter)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------- controls


@dataclass(frozen=True)
class EventButton:
    """Under a tournament's announcement: Join or Leave."""

    TEMPLATE: ClassVar[str] = r"tafl:tn:(?P<event_id>\d+):(?P<action>join|leave)"
    event_id: int
    action: str

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:tn:{self.event_id}:{self.action}"


@dataclass(frozen=True)
class ConfirmLeave:
    """The second click of leaving a tournament in the middle of a game: it withdraws the
    player and resigns that game."""

    TEMPLATE: ClassVar[str] = r"tafl:tl:(?P<event_id>\d+):(?P<game_id>\d+)"
    event_id: int
    game_id: int

    @property
    def custom_id(self) -> str:
        """The id this button carries."""
        return f"tafl:tl:{self.event_id}:{self.game_id}"


def event_controls(event_id: int, *, lang: Language = ENGLISH_LANGUAGE) -> tuple[Button, ...]:
    """Join and Leave, under a tournament's announcement."""
    return (
        Button(EventButton(event_id, "join").custom_id, lang.gettext("Join"), Style.SUCCESS),
        Button(EventButton(event_id, "leave").custom_id, lang.gettext("Leave"), Style.SECONDARY),
    )


# ---------------------------------------------------------------------------- words


def points_text(value: float | None) -> str:
    """Points, and the tiebreaks made of points, in the one notation of the standings' text,
    their image and the export: ``2``, ``1½``, ``½``, ``4¼`` (Sonneborn-Berger multiplies
    halves by halves: quarters, exactly); none as a dash."""
    return "–" if value is None else format_points(value)


def tiebreak_text(name: str, value: float | None) -> str:
    """A tiebreak's value: a performance rating whole, the others as points."""
    if name == "Perf" and value is not None:
        return str(round(value))
    return points_text(value)


def result_text(
    pairing: StoredPairing, first: float, second: float, detail: str, *, lang: Language
) -> str:
    """A pairing's result set by the organiser: ``ana 1–0 bo (forfeit: no-show)``."""
    assert pairing.second is not None
    return (
        f"{plain_name(pairing.first, lang=lang)} {points_text(first)}–{points_text(second)} "
        f"{plain_name(pairing.second, lang=lang)} ({detail})"
    )


def decided_words(how: str, reason: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """How the organiser decided a pairing, with their reason: ``forfeit: no-show`` (their
    reason alone when it says how itself)."""
    if how in reason.lower():
        return reason
    words = {
        "forfeit": lang.pgettext("result detail", "forfeit"),
        "adjudicated": lang.pgettext("result detail", "adjudicated"),
    }
    word = words.get(how, how)
    return lang.gettext("{how}: {reason}", how=word, reason=reason) if reason else word


def left_words(reason: str, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a player is no longer in an event (the store's reason: ``withdrew``, ``removed``,
    ``left the server``), in a few words."""
    words = {
        "withdrew": lang.pgettext("left the event", "withdrew"),
        "removed": lang.pgettext("left the event", "removed"),
        "left the server": lang.pgettext("left the event", "left the server"),
    }
    return words.get(reason, reason)


def history_words(entry: LogEntry, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """One line of an event's history, worded from what it keeps (its kind and values); a
    line written before the history kept values shows its English as it was written."""
    data = entry.data
    if data is None:
        return f"{entry.action}: {entry.detail}" if entry.detail else entry.action
    kind = entry.action
    if kind == "created":
        return lang.pgettext("tournament history", "created")
    if kind == "joined":
        rating = lang.number(_whole(data.get("rating")))
        return lang.pgettext("tournament history", "joined (rated {rating})", rating=rating)
    if kind == "left":
        return _left_line(data, lang=lang)
    if kind == "started":
        count = _whole(data.get("players"))
        return lang.npgettext(
            "tournament history",
            "started with {count} player",
            "started with {count} players",
            count,
        )
    if kind == "round":
        number = lang.number(_whole(data.get("round")))
        return lang.pgettext("tournament history", "round {round} paired", round=number)
    if kind == "result":
        return _result_line(data, lang=lang)
    if kind in ("paused", "resumed", "cancelled", "finished"):
        return _status_line(kind, data, lang=lang)
    return kind  # a kind a newer release wrote: its name, rather than nothing


def _whole(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 0


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _left_line(data: Details, *, lang: Language) -> str:
    player = _text(data.get("name")) or str(data.get("player", ""))
    reason = _text(data.get("reason"))
    if reason == "withdrew":
        line = lang.pgettext("tournament history", "{player} withdrew", player=player)
    elif reason == "removed":
        line = lang.pgettext("tournament history", "{player} was removed", player=player)
    elif reason == "left the server":
        line = lang.pgettext("tournament history", "{player} left the server", player=player)
    else:
        line = lang.pgettext("tournament history", "{player} left", player=player)
    note = _text(data.get("note"))  # the organiser's own words, as they wrote them
    return (
        lang.pgettext("tournament history", "{what}: {why}", what=line, why=note) if note else line
    )


def _result_line(data: Details, *, lang: Language) -> str:
    first, second = data.get("first"), data.get("second")
    score = "{first}-{second}".format(
        first=points_text(float(first)) if isinstance(first, int | float) else "?",
        second=points_text(float(second)) if isinstance(second, int | float) else "?",
    )
    return lang.pgettext(
        "tournament history",
        "round {round}, board {board}: {score} ({decided})",
        round=lang.number(_whole(data.get("round"))),
        board=lang.number(_whole(data.get("board"))),
        score=score,
        decided=decided_words(_text(data.get("how")), _text(data.get("reason")), lang=lang),
    )


def _status_line(kind: str, data: Details, *, lang: Language) -> str:
    if kind == "paused":
        if data.get("cause") == "threads":
            return lang.pgettext(
                "tournament history", "paused: the bot may not open threads in the event's channel"
            )
        return lang.pgettext("tournament history", "paused")
    if kind == "resumed":
        return lang.pgettext("tournament history", "resumed")
    if kind == "cancelled":
        if "needed" in data:
            return lang.npgettext(
                "tournament history",
                "cancelled: it needed {count} player and {joined} joined",
                "cancelled: it needed {count} players and {joined} joined",
                _whole(data.get("needed")),
                joined=lang.number(_whole(data.get("joined"))),
            )
        reason = _text(data.get("reason"))  # the organiser's own words
        if reason:
            return lang.pgettext("tournament history", "cancelled: {reason}", reason=reason)
        return lang.pgettext("tournament history", "cancelled")
    if "unpaired" not in data:
        return lang.pgettext("tournament history", "finished")
    number = lang.number(_whole(data.get("unpaired")))
    if data.get("too_few_left"):
        return lang.pgettext(
            "tournament history",
            "finished early: too few players left for round {round}",
            round=number,
        )
    return lang.pgettext(
        "tournament history", "finished early: round {round} had no new pairing left", round=number
    )


def describe_event(event: Tournament, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """An event's options in one paragraph."""
    spec = event.spec
    parts = [event_kind(spec, lang=lang)]
    if spec.format == "swiss":
        parts.append(lang.ngettext("{count} round", "{count} rounds", spec.rounds or 0))
    if spec.format == "arena" and spec.arena_seconds:
        parts.append(
            lang.gettext("{duration} long", duration=duration_words(spec.arena_seconds, lang=lang))
        )
    parts.append(
        lang.gettext("two-game matches, sides swapped")
        if spec.matches
        else lang.gettext("one game per pairing")
    )
    parts.append(time_words(spec.move_seconds or None, lang=lang))
    if spec.round_seconds:
        parts.append(
            lang.gettext(
                "rounds of {duration} at most",
                duration=duration_words(spec.round_seconds, lang=lang),
            )
        )
    parts.append(rated_word(spec.rated, lang=lang))
    if spec.rating_floor is not None:
        parts.append(lang.gettext("rated {floor} or more", floor=spec.rating_floor))
    if spec.rating_ceiling is not None:
        parts.append(lang.gettext("rated up to {ceiling}", ceiling=spec.rating_ceiling))
    return " · ".join(parts)


def call_off_words(reason: CallOffReason, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why the organiser called a game off, ending "Game #4 was called off by the organiser
    of **Event**: ..."."""
    if isinstance(reason, ResultSet):
        detail = decided_words(reason.how, reason.why, lang=lang) if reason.how else reason.detail
        verdict = result_text(reason.pairing, reason.first, reason.second, detail, lang=lang)
        return lang.gettext("the result is {result}.", result=verdict)
    if isinstance(reason, PlayerRemoved):
        forfeit = lang.pgettext("result detail", "forfeit")
        result = result_text(reason.pairing, reason.first, reason.second, forfeit, lang=lang)
        return lang.gettext(
            "{player} was removed ({reason}); the result is {result}.",
            player=plain_name(reason.removed, lang=lang),
            reason=reason.reason,
            result=result,
        )
    assert isinstance(reason, EventCancelled)
    return lang.gettext("the event is cancelled ({reason}).", reason=reason.reason)


def called_off(
    event: Tournament, game_id: int, reason: CallOffReason, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """What the final board of a game the organiser called off says."""
    return lang.gettext(
        "Game #{game} was called off by the organiser of **{event}**: {why}",
        game=game_id,
        event=event.name,
        why=call_off_words(reason, lang=lang),
    )


def organisers_result(pairing: StoredPairing, *, lang: Language = ENGLISH_LANGUAGE) -> str | None:
    """A pairing's result as its organiser set it (``ana 1–0 bo (forfeit: no-show)``), or
    ``None`` if its games decided it."""
    if not decided_by_organiser(pairing):
        return None
    first, second = pairing.first_points or 0.0, pairing.second_points or 0.0
    detail = decided_words(pairing.decided or "", pairing.reason or "", lang=lang)
    return result_text(pairing, first, second, detail, lang=lang)


def standings_subtitle(event: Tournament, after: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Where the standings stand: ``Brandubh Swiss · after round 2 of 3`` (``after``: the last
    round counted; the round under way, if any, is not)."""
    words = event_kind(event.spec, lang=lang)
    if event.status == "finished":
        return words + " · " + lang.pgettext("standings", "final")
    if event.spec.format == "arena":
        return words + (" · " + lang.pgettext("standings", "under way") if event.round else "")
    if after == 0:
        return (
            words
            + " · "
            + (
                lang.gettext("round 1 under way")
                if event.round
                else lang.pgettext("standings", "not begun")
            )
        )
    if event.spec.format == "swiss":
        where = lang.gettext(
            "after round {round} of {rounds}", round=after, rounds=event.spec.rounds
        )
    else:
        where = lang.gettext("after round {round}", round=after)
    if event.round > after:
        where += " " + lang.gettext("(round {round} under way)", round=event.round)
    return words + " · " + where


def standings_text(
    event: Tournament, table: list[Line], after: int, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """The standings in words (a code block, for a phone's width)."""
    header = f"**{event.name}** · {standings_subtitle(event, after, lang=lang)}"
    if not table:
        return header + "\n" + lang.gettext("Nobody has joined yet.")
    names = [t[0] for t in table[0].tiebreaks]
    out = out_mark(lang=lang)
    player = lang.pgettext("standings column", "player")[:16]
    points = lang.pgettext("standings column", "pts")[:4]
    # Each tiebreak's column as wide as its header in the reader's language (5 at least).
    shorts = [tiebreak_short(n, lang=lang)[:8] for n in names]
    widths = [max(5, len(short)) for short in shorts]
    lines = [
        f"{'#':>3} {player:<16} {points:>4} "
        + " ".join(f"{short:>{width}}" for short, width in zip(shorts, widths, strict=True))
    ]
    for line in table:
        # Players who no longer play keep their place (their results stand), marked.
        name = plain_name(line.player, lang=lang)
        name = name[: 16 - len(out)] + out if line.withdrawn else name[:16]
        lines.append(
            f"{line.rank:>3} {name:<16} {points_text(line.points):>4} "
            + " ".join(
                f"{tiebreak_text(n, value):>{width}}"
                for (n, value), width in zip(line.tiebreaks, widths, strict=True)
            )
        )
    notes = []
    if any(line.withdrawn for line in table):
        notes.append(
            lang.gettext(
                "{out}: no longer paired (withdrew, removed or left the server).",
                out=out.strip(),
            )
        )
    if names:
        notes.append(
            lang.gettext(
                "Tiebreaks, in order: {tiebreaks}.",
                tiebreaks=", ".join(tiebreak_words(n, lang=lang) for n in names),
            )
        )
    return header + "\n```\n" + "\n".join(lines) + "\n```" + "".join("\n" + n for n in notes)


def thread_name(
    event: Tournament,
    round_number: int,
    attackers: str,
    defenders: str,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> str:
    """The name of a pairing's thread: ``Cup · R2 · ann vs bo``."""
    return lang.gettext(
        "{event} · R{round} · {attackers} vs {defenders}",
        event=event.name,
        round=round_number,
        attackers=attackers,
        defenders=defenders,
    )


def thread_reason(event: Tournament, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why the thread was opened (the server's audit log)."""
    return lang.gettext("a game of {event}", event=event.name)


# ---------------------------------------------------------------------------- the crosstable


def crosstable_view(
    event: Tournament,
    sheet: Sheet,
    lines: list[Line],
    subtitle: str,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> CrosstableView:
    """The crosstable of the standings ``lines``: per round (Swiss), per opponent (round robin)
    or per game (arena), each cell from the player's side of the sheet."""
    row_of = {line.player.user_id or 0: number for number, line in enumerate(lines, start=1)}
    arena = logic.arena_scores(sheet.arena_games) if event.spec.format == "arena" else {}
    words = crosstable_words(lang)
    rows = []
    for line in lines:
        me = line.player.user_id or 0
        if event.spec.format == "arena":
            cells: tuple[Cell | None, ...] = tuple(
                Cell.game(float(points), streak=points >= 3)
                for points in (arena[me].sheet if me in arena else ())
            )
        elif event.spec.format == "round_robin":
            against = {
                p.pairing.opponent(me): p
                for r in sheet.rounds
                for p in r.pairings
                if me in p.pairing.players
            }
            cells = tuple(
                None
                if other.player.user_id == line.player.user_id
                else _cell(against.get(other.player.user_id or 0), me, None)
                for other in lines
            )
        else:
            cells = tuple(_round_cell(r, me, row_of) for r in sheet.rounds)
        rows.append(
            PlayerRow(
                rank=line.rank,
                name=plain_name(line.player, lang=lang),
                points=line.points,
                cells=cells,
                withdrawn=line.withdrawn,
                note=(
                    left_words(line.left, lang=lang)
                    if line.left
                    else (words.withdrawn if line.withdrawn else "")
                ),
            )
        )
    names = [name for name, _ in lines[0].tiebreaks] if lines else []
    tiebreaks = tuple(
        Tiebreak(
            tiebreak_short(name, lang=lang),
            tuple(
                None if value is None else round(value) if name == "Perf" else value
                for _, value in (line.tiebreaks[index] for line in lines)
            ),
            tiebreak_title(name, lang=lang),
        )
        for index, name in enumerate(names)
    )
    return CrosstableView(
        title=event.name,
        subtitle=subtitle,
        format=event.spec.format,
        rows=tuple(rows),
        tiebreaks=tiebreaks,
        games_per_pairing=2 if event.spec.matches else 1,
        points_label=(
            lang.pgettext("crosstable", "Score")
            if event.spec.format == "arena"
            else lang.pgettext("crosstable", "Pts")
        ),
        words=words,
    )


def _round_cell(played: logic.PlayedRound, me: int, row_of: dict[int, int]) -> Cell:
    for bye in played.byes:
        if bye.player == me:
            return Cell.bye(bye.points) if bye.kind is logic.ByeKind.PAIRING else Cell.absent()
    for pairing in played.pairings:
        if me in pairing.pairing.players:
            return _cell(pairing, me, row_of.get(pairing.pairing.opponent(me)))
    return Cell.absent()


def _cell(pairing: logic.PlayedPairing | None, me: int, opponent: int | None) -> Cell:
    if pairing is None:
        return Cell.absent()
    points = pairing.game_points(me)
    if pairing.forfeit:
        return Cell.forfeit(points, opponent)
    side: SidePlayed | None = None
    if len(pairing.games) == 1:
        side = "attackers" if pairing.pairing.attacker == me else "defenders"
    return Cell.game(points, opponent, side)


def standings_post(
    standings: Standings, *, theme: str = "", lang: Language = ENGLISH_LANGUAGE
) -> Post:
    """The standings in words, with their crosstable image (left out where images may not be
    attached: the words say it all). Nobody is notified."""
    event, after, table = standings.event, standings.after, list(standings.lines)
    # Clipped as it is sent (its code block kept whole).
    text = standings_text(event, table, after, lang=lang)
    picture = None
    if table:
        subtitle = standings_subtitle(event, after, lang=lang)
        picture = Picture(
            crosstable_view(event, standings.sheet, table, subtitle, lang=lang),
            f"tournament-{event.id}-standings.png",
            theme,
            description=lang.gettext(
                "Standings of {event}, {subtitle}", event=event.name, subtitle=subtitle
            ),
            optional=True,
        )
    return Post(content=text, picture=picture)


# ---------------------------------------------------------------------------- the announcement


def announcement_card(
    event: Tournament, players: int, *, lang: Language = ENGLISH_LANGUAGE
) -> Card:
    """The announcement of an event: its options, when it starts (or how it stands), its
    players, its organiser."""
    if event.status == "signup":
        when = f"<t:{event.spec.starts_at}:R> (<t:{event.spec.starts_at}:f>)"
        first = Field(lang.gettext("Starts"), when)
    else:
        status = {
            "running": lang.gettext("round {round} under way", round=event.round),
            "paused": lang.gettext("paused in round {round}", round=event.round),
            "finished": lang.gettext(
                "finished: `{standings}`", standings=lang.command("tafl-tournament standings")
            ),
            "cancelled": lang.pgettext("tournament status", "cancelled"),
        }[event.status]
        first = Field(lang.gettext("Now"), status)
    footer = (
        lang.gettext(
            "Join with the button or {join} · each game gets a thread here",
            join=lang.command("tafl-tournament join"),
        )
        if event.status in ("signup", "running", "paused")
        else lang.gettext("This event is over.")
    )
    return Card(
        title=f"🏆 {event.name} (#{event.id})",
        description=describe_event(event, lang=lang),
        tone=Tone.EVENT,
        fields=(
            first,
            Field(lang.gettext("Players"), lang.number(players)),
            Field(lang.gettext("Organiser"), plain_name(event.organiser, lang=lang)),
        ),
        footer=footer,
    )


def announcement(event: Tournament, players: int, *, lang: Language = ENGLISH_LANGUAGE) -> Post:
    """The announcement with its Join and Leave buttons (none once the event is over)."""
    over = event.status in ("finished", "cancelled")
    controls = () if over else event_controls(event.id, lang=lang)
    return Post(card=announcement_card(event, players, lang=lang), controls=controls)


def announcement_changed(
    news: AnnouncementChanged, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The event's announcement brought up to date (nothing if it was never posted)."""
    event = news.event
    if event.announcement_id is None:
        return []
    place = Place(event.spec.channel_id)
    return [Edit(place, event.announcement_id, announcement(event, news.players, lang=lang))]


# ---------------------------------------------------------------------------- news


def _in_channel(event: Tournament, post: Post) -> list[Delivery]:
    return [Message(Place(event.spec.channel_id), post)]


def too_few_words(event: Tournament, joined: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why an event did not start: too few players joined."""
    return lang.ngettext(
        "**{event}** is cancelled: it needed {count} player and {joined} joined.",
        "**{event}** is cancelled: it needed {count} players and {joined} joined.",
        event.spec.min_entrants,
        event=event.name,
        joined=lang.number(joined),
    )


def cancelled_for_too_few(
    event: Tournament, joined: int, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The event's start found too few players."""
    return _in_channel(event, Post(content=too_few_words(event, joined, lang=lang)))


def paused_for_threads(
    news: PausedForThreads, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The bot may not open threads for the event's games."""
    event = news.event
    return _in_channel(
        event,
        Post(
            content=lang.gettext(
                "**{event}** is paused: I may not open threads in this channel for its games "
                "(I need the Create Public Threads permission). The organiser resumes it with "
                "`{resume}` once I may.",
                event=event.name,
                resume=lang.command("tafl-tournament resume"),
            )
        ),
    )


def round_over_while_paused(
    news: RoundOverWhilePaused, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The round ended during a pause: the next is paired on resume."""
    event = news.event
    return _in_channel(
        event,
        Post(
            content=lang.gettext(
                "**{event}**: round {round} is over. The tournament is paused: round {next} is "
                "paired when an organiser resumes it (`{resume}`).",
                event=event.name,
                round=event.round,
                next=event.round + 1,
                resume=lang.command("tafl-tournament resume"),
            )
        ),
    )


def game_begun(news: GameBegun, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The first board's words of a pairing's game: who attacks, who defends."""
    event, pairing, live = news.event, news.pairing, news.live
    values = {
        "event": event.name,
        "round": pairing.round,
        "board": pairing.board,
        "attacker": live.record.attackers.user_id,
        "defender": live.record.defenders.user_id,
    }
    if event.spec.matches:
        return lang.gettext(
            "**{event}**, round {round}, board {board}, game {game} of 2: <@{attacker}> "
            "attacks, <@{defender}> defends.",
            game=news.number,
            **values,
        )
    return lang.gettext(
        "**{event}**, round {round}, board {board}: <@{attacker}> attacks, <@{defender}> defends.",
        **values,
    )


def round_paired(news: RoundPaired, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """A round's pairings, each player notified, in the event's channel."""
    event = news.event
    lines = [
        lang.gettext("**{event}**: round {round} is paired.", event=event.name, round=news.round)
    ]
    for shown in news.pairings:
        pairing = shown.pairing
        if pairing.second is None:
            lines.append(
                lang.gettext(
                    "Bye: <@{player}> ({points})",
                    player=pairing.first.user_id,
                    points=points_text(pairing.first_points),
                )
            )
        else:
            where = "" if shown.channel_id is None else f" · <#{shown.channel_id}>"
            lines.append(
                lang.gettext(
                    "Board {board}: <@{first}> (attacks) – <@{second}>",
                    board=pairing.board,
                    first=pairing.first.user_id,
                    second=pairing.second.user_id,
                )
                + where
            )
    if event.round_deadline is not None:
        lines.append(
            lang.gettext("The round ends <t:{deadline}:R>.", deadline=event.round_deadline)
        )
    return _in_channel(event, Post(content="\n".join(lines), ping_mentioned=True))


def finished(news: Finished, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The event is over: its podium, notified."""
    event = news.event
    medals = ("🥇", "🥈", "🥉")
    if news.unpaired is None:
        heading = lang.gettext("**{event}** is over. Final standings:", event=event.name)
    elif news.too_few_left:
        heading = lang.gettext(
            "**{event}** is over early: no round {round} can be paired (too few players are "
            "left). Final standings:",
            event=event.name,
            round=news.unpaired,
        )
    else:
        heading = lang.gettext(
            "**{event}** is over early: no round {round} can be paired without a repeat "
            "pairing. Final standings:",
            event=event.name,
            round=news.unpaired,
        )
    lines = [heading]
    # A player who left keeps their place, marked.
    withdrew = lang.gettext("withdrew")
    lines += [
        f"{medal} <@{s.player.user_id}> {points_text(s.points)}"
        + (f" ({left_words(s.left, lang=lang) if s.left else withdrew})" if s.withdrawn else "")
        for medal, s in zip(medals, news.podium, strict=False)
    ]
    return _in_channel(event, Post(content="\n".join(lines), ping_mentioned=True))


def standings_due(standings: Standings, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The standings in the event's channel."""
    event = standings.event
    return _in_channel(event, standings_post(standings, lang=lang))


ChannelNews = (
    CancelledForTooFew
    | PausedForThreads
    | RoundPaired
    | RoundOverWhilePaused
    | StandingsDue
    | Finished
)
"""The news told in an event's channel (a game's news goes on its board)."""


def told(
    news: AnnouncementChanged | ChannelNews, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """What the event's channel is told (or its announcement shows) of ``news``, in ``lang``
    (the server's)."""
    if isinstance(news, AnnouncementChanged):
        return announcement_changed(news, lang=lang)
    if isinstance(news, CancelledForTooFew):
        return cancelled_for_too_few(news.event, news.joined, lang=lang)
    if isinstance(news, PausedForThreads):
        return paused_for_threads(news, lang=lang)
    if isinstance(news, RoundPaired):
        return round_paired(news, lang=lang)
    if isinstance(news, RoundOverWhilePaused):
        return round_over_while_paused(news, lang=lang)
    if isinstance(news, StandingsDue):
        return standings_due(news.standings, lang=lang)
    return finished(news, lang=lang)


# ---------------------------------------------------------------------------- answers


def started(
    found: Tournament, start: Start, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The organiser's early start, answered privately."""
    if start.outcome == "begun":
        words = lang.gettext("**{event}** has begun: round 1 is paired.", event=found.name)
    elif start.outcome == "already begun":
        words = lang.gettext("**{event}** has already begun.", event=found.name)
    else:
        words = too_few_words(found, start.joined, lang=lang)
    return [Answer(Post(content=words, private=True))]


def paused(event: Tournament, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The organiser paused the event."""
    text = lang.gettext(
        "**{event}** is paused: games under way go on; no new round is paired until `{resume}`.",
        event=event.name,
        resume=lang.command("tafl-tournament resume"),
    )
    return [Answer(Post(content=text))]


def resumed(event: Tournament, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The organiser resumed the event."""
    return [Answer(Post(content=lang.gettext("**{event}** goes on.", event=event.name)))]


def cancelled(
    event: Tournament, reason: str, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The organiser cancelled the event."""
    text = lang.gettext("**{event}** is cancelled: {reason}", event=event.name, reason=reason)
    return [Answer(Post(content=text))]


def result_set(verdict: Verdict, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The organiser set a pairing's result."""
    pairing = verdict.pairing
    detail = decided_words(verdict.how, verdict.reason, lang=lang)
    words = result_text(pairing, verdict.first, verdict.second, detail, lang=lang)
    text = lang.gettext(
        "**{event}**, round {round}, board {board}: {result}.",
        event=verdict.event.name,
        round=pairing.round,
        board=pairing.board,
        result=words,
    )
    return [Answer(Post(content=text))]


def removed(
    event: Tournament,
    name: str,
    reason: str,
    forfeited: bool,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> list[Delivery]:
    """The organiser removed a player (``name``)."""
    text = lang.gettext(
        "{player} is removed from **{event}** ({reason}); the games they finished stand.",
        player=name,
        event=event.name,
        reason=reason,
    )
    if forfeited:
        text += " " + lang.gettext("Their game under way is lost by forfeit.")
    return [Answer(Post(content=text))]


def joined(
    event: Tournament, entry: Joined, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """A player joined, told privately."""
    text = lang.gettext("You are in **{event}** (#{number}).", event=event.name, number=event.id)
    if entry.from_round is not None:
        text += " " + lang.gettext(
            "You join in round {round}; the rounds you missed count as zero-point byes.",
            round=entry.from_round,
        )
    text += " " + lang.gettext(
        "`{leave}` withdraws you.", leave=lang.command("tafl-tournament leave")
    )
    return [Answer(Post(content=text, private=True))]


def leave_asked(
    asked: LeaveAsked, *, again: bool, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """Leaving in the middle of a game resigns it: asked first (``again``: in place of the
    question about a game that ended meanwhile)."""
    event, live, opponent = asked.event, asked.live, plain_name(asked.opponent, lang=lang)
    question = lang.gettext(
        "Leaving now resigns your game against {opponent} in round {round} of **{event}** "
        "(game #{game}): {opponent} wins it. You will not be paired again; the games you "
        "finished stand. Leave?",
        opponent=opponent,
        round=asked.pairing.round,
        event=event.name,
        game=live.id,
    )
    button = Button(
        ConfirmLeave(event.id, live.id).custom_id,
        lang.gettext("Yes, leave and resign"),
        Style.DANGER,
    )
    post = Post(content=question, controls=(button,), private=True)
    return [Update(post) if again else Answer(post)]


def left(
    event: Tournament, outcome: Left, *, confirmed: bool, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """A player left (``confirmed``: their answer to the question replaces it)."""
    words = (
        lang.gettext(
            "You are out of **{event}**; join again any time before it starts.", event=event.name
        )
        if event.status == "signup"
        else lang.gettext(
            "You have withdrawn from **{event}**: you will not be paired again; the games you "
            "finished stand.",
            event=event.name,
        )
    )
    if outcome.resigned is not None:
        words += " " + lang.gettext("Your game #{game} is resigned.", game=outcome.resigned.game.id)
    post = Post(content=words, private=True)
    return [Update(post) if confirmed else Answer(post)]


def _status_now(event: Tournament, *, lang: Language) -> str:
    """An event's status, with its round while it is played."""
    words = status_words(event.status, lang=lang)
    if event.status in ("running", "paused") and event.round:
        return lang.gettext("{status}, round {round}", status=words, round=event.round)
    return words


def event_list(events: list[Tournament], *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """A server's events, privately."""
    lines = [
        f"#{e.id} **{e.name}**: {describe_event(e, lang=lang)} · {_status_now(e, lang=lang)}"
        for e in events[:15]
    ]
    return [Answer(Post(content="\n".join(lines), private=True))]


def event_info(info: EventInfo, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """An event's options, status, players and the latest of its history, privately."""
    found = info.event
    status = status_words(found.status, lang=lang)
    if found.round:
        status = lang.gettext("{status}, round {round}", status=status, round=found.round)
    fields = [Field(lang.gettext("Status"), status)]
    if found.status == "signup":
        fields.append(Field(lang.gettext("Starts"), f"<t:{found.spec.starts_at}:f>"))
    elif info.began is not None:
        fields.append(Field(lang.gettext("Started"), f"<t:{info.began}:f>"))
    names = [
        plain_name(e.player, lang=lang)
        + (f" ({left_words(e.left_reason, lang=lang)})" if e.left_reason else "")
        for e in info.entrants
    ]
    fields.append(
        Field(
            lang.gettext(
                "Players ({count})", count=lang.number(sum(1 for e in info.entrants if e.active))
            ),
            clip(", ".join(names) or lang.gettext("nobody yet"), FIELD_ROOM),
            inline=False,
        )
    )
    history = "\n".join(
        f"<t:{h.at}:t> {history_words(h, lang=lang)}"
        + (f" ({plain_name(h.actor, lang=lang)})" if h.actor else "")
        for h in info.history[-8:]
    )
    fields.append(Field(lang.gettext("History"), clip(history, FIELD_ROOM), inline=False))
    card = Card(
        title=f"🏆 {found.name} (#{found.id})",
        description=describe_event(found, lang=lang),
        fields=tuple(fields),
    )
    return [Answer(Post(card=card, private=True))]


def pairings(paired: RoundPaired, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """Who plays whom in a round, with each pairing's result so far and its thread."""
    lines = [
        lang.gettext("**{event}**, round {round}:", event=paired.event.name, round=paired.round)
    ]
    for shown in paired.pairings:
        p = shown.pairing
        if p.second is None:
            lines.append(
                lang.gettext(
                    "bye: {player} ({points})",
                    player=plain_name(p.first, lang=lang),
                    points=points_text(p.first_points),
                )
            )
            continue
        score = (
            f"{points_text(p.first_points)}–{points_text(p.second_points)}"
            if p.decided
            else lang.pgettext("pairing", "playing")
        )
        where = "" if shown.channel_id is None else f" <#{shown.channel_id}>"
        first, second = plain_name(p.first, lang=lang), plain_name(p.second, lang=lang)
        lines.append(f"{p.board}. {first} – {second}: {score}{where}")
    return [Answer(Post(content="\n".join(lines), private=True))]


def standings_answer(standings: Standings, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The standings as the answer to /tafl-tournament standings."""
    return [Answer(standings_post(standings, lang=lang))]


def export_text(record: Export, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """An event's record as one text: the crosstable, then every game in OTN."""
    standings = record.standings
    event = standings.event
    table = list(standings.lines)
    text = standings_text(event, table, standings.after, lang=lang)
    parts = [text.replace("**", "").replace("```\n", ""), ""]
    for game in record.games:
        pairing = game.pairing
        values = {"round": pairing.round, "board": pairing.board}
        heading = (
            lang.gettext("Round {round}, board {board}, game {game}:", game=game.number, **values)
            if len(pairing.games) > 1
            else lang.gettext("Round {round}, board {board}:", **values)
        )
        decided = organisers_result(pairing, lang=lang)
        if decided is not None:
            heading += " " + lang.gettext("the organiser set the result, {result}.", result=decided)
        parts += [heading, game.otn, ""]
    return "\n".join(parts)


def exported(record: Export, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The event's record as a file."""
    event = record.standings.event
    data = export_text(record, lang=lang).encode()
    return [
        Answer(
            Post(
                content=lang.gettext("The record of **{event}**.", event=event.name),
                files=(Attachment(f"tournament-{event.id}.txt", data),),
            )
        )
    ]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: ServerOnly, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("Tournaments are run inside a server: use this in a server channel.")


@refusal_words.register
def _(refusal: NotOrganiser, lang: Language = ENGLISH_LANGUAGE) -> str:
    settings = lang.command("tafl settings")
    if refusal.creating:
        return lang.gettext(
            "Only members who may manage the server (or have the organisers' role of "
            "`{settings}`) can create tournaments.",
            settings=settings,
        )
    return lang.gettext(
        "Only members who may manage the server (or have the organisers' role of "
        "`{settings}`) can do that.",
        settings=settings,
    )


@refusal_words.register
def _(refusal: NoEventAmong, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "{lacks}: an organiser starts one with `{create}`.",
        lacks=none_among(refusal.among, lang=lang),
        create=lang.command("tafl-tournament create"),
    )


@refusal_words.register
def _(refusal: NoSuchEvent, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("There is no tournament #{number} in this server.", number=refusal.event_id)


@refusal_words.register
def _(refusal: NotBegun, lang: Language = ENGLISH_LANGUAGE) -> str:
    event = refusal.event
    if refusal.standings:
        return lang.gettext(
            "**{event}** has not begun (it starts <t:{starts}:R>): `{info}` lists who has joined.",
            event=event.name,
            starts=event.spec.starts_at,
            info=lang.command("tafl-tournament info"),
        )
    return lang.gettext(
        "**{event}** has not begun: it starts <t:{starts}:R>.",
        event=event.name,
        starts=event.spec.starts_at,
    )


@refusal_words.register
def _(refusal: NoSuchRound, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "**{event}** has no round {round}.", event=refusal.event.name, round=refusal.number
    )


@refusal_words.register
def _(refusal: FloorAboveCeiling, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "The rating floor ({floor}) is above the ceiling ({ceiling}).",
        floor=refusal.floor,
        ceiling=refusal.ceiling,
    )


@refusal_words.register
def _(refusal: NotATextChannel, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Announce a tournament in a text channel: its games are played in threads of it."
    )


@refusal_words.register
def _(refusal: RoundsForSwiss, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "`{rounds}` is for Swiss events (a round robin plays everyone once).",
        rounds=lang.option("rounds"),
    )


@refusal_words.register
def _(refusal: MinutesForArenas, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "`{minutes}` is for arenas: a Swiss has `{rounds}`.",
        minutes=lang.option("minutes"),
        rounds=lang.option("rounds"),
    )


@refusal_words.register
def _(refusal: RoundShorterThanMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "A round of {round} is shorter than one move's {move}: give `{round_time}` several "
        "moves' time.",
        round_time=lang.option("round_time"),
        round=duration_words(refusal.round_seconds, lang=lang),
        move=duration_words(refusal.move_seconds, lang=lang),
    )


@refusal_words.register
def _(refusal: EventIs, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "**{event}** is {status}.",
        event=refusal.event.name,
        status=status_words(refusal.event.status, lang=lang),
    )


@refusal_words.register
def _(refusal: TooFewToStart, lang: Language = ENGLISH_LANGUAGE) -> str:
    event = refusal.event
    return lang.ngettext(
        "**{event}** needs {count} player to start and has {joined}; it stays open for "
        "sign-up (it starts <t:{starts}:R>, or is cancelled then if still too few have joined).",
        "**{event}** needs {count} players to start and has {joined}; it stays open for "
        "sign-up (it starts <t:{starts}:R>, or is cancelled then if still too few have joined).",
        event.spec.min_entrants,
        event=event.name,
        joined=lang.number(refusal.joined),
        starts=event.spec.starts_at,
    )


@refusal_words.register
def _(refusal: NoSuchBoard, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Round {round} of **{event}** has no board {board} with two players.",
        round=refusal.round,
        event=refusal.event.name,
        board=refusal.board,
    )


@refusal_words.register
def _(refusal: NotEntered, lang: Language = ENGLISH_LANGUAGE) -> str:
    if refusal.player is None:
        return lang.gettext("You are not playing in **{event}**.", event=refusal.event.name)
    return lang.gettext(
        "{player} is not playing in **{event}**.",
        player=plain_name(refusal.player, lang=lang),
        event=refusal.event.name,
    )


@refusal_words.register
def _(refusal: EventOver, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("**{event}** is over.", event=refusal.event.name)


@refusal_words.register
def _(refusal: EntryBarred, lang: Language = ENGLISH_LANGUAGE) -> str:
    event, rating = refusal.event, refusal.rating
    spec, name = event.spec, event.name
    why = refusal.why
    if why == "over":
        return lang.gettext("**{event}** is over.", event=name)
    if why == "no late entry":
        return lang.gettext("**{event}** has begun: a round robin takes no late entry.", event=name)
    if why == "last round":
        return lang.gettext(
            "**{event}** is playing its last round: there is no round left to join.", event=name
        )
    if why == "below floor":
        return lang.gettext(
            "**{event}** is for players rated {floor} or more; you are {rating}.",
            event=name,
            floor=spec.rating_floor,
            rating=str(round(rating)),
        )
    if why == "above ceiling":
        return lang.gettext(
            "**{event}** is for players rated up to {ceiling}; you are {rating}.",
            event=name,
            ceiling=spec.rating_ceiling,
            rating=str(round(rating)),
        )
    if why == "already in":
        return lang.gettext("You are already in **{event}**.", event=name)
    return lang.gettext(
        "You left **{event}** ({reason}) and cannot join again.",
        event=name,
        reason=left_words(refusal.left_reason or "", lang=lang),
    )
