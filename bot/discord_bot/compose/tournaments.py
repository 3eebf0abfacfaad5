"""The tournaments' words and messages: announcements, rounds, standings (in words and as the
crosstable image's data, every word drawn on it included), results, records, and the answers
to the organisers' and players' commands, composed from the tournament service's results
(:mod:`..app.tournaments`) as posts. Pure: nothing here imports Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot import tournament as logic
from bot.engine import get_variant
from bot.render.crosstable import (
    Cell,
    CrosstableView,
    CrosstableWords,
    PlayerRow,
    SidePlayed,
    Tiebreak,
    format_points,
)

from ..app.durations import describe_duration
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
    organisers_detail,
)
from .board import plain_name, plural
from .errors import refusal_words
from .language import ENGLISH_LANGUAGE, Language
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

STATUS_WORDS: dict[Status, str] = {
    "signup": "open for sign-up",
    "running": "being played",
    "paused": "paused",
    "finished": "finished",
    "cancelled": "cancelled",
}
NONE_AMONG: dict[frozenset[Status], str] = {
    ANY_STATUS: "had no tournament yet",
    UNDER_WAY: "no tournament under way",
    frozenset(("signup",)): "no tournament waiting to start",
    frozenset(("running",)): "no tournament being played",
    frozenset(("paused",)): "no paused tournament",
}
"""What a server lacks when a command without a number finds no event among these statuses."""
TIEBREAK_WORDS = {
    "BH": "BH Buchholz",
    "SB": "SB Sonneborn-Berger",
    "GP": "GP game points",
    "W": "W wins",
    "Perf": "Perf performance rating",
    "games": "games played",
}
TIEBREAK_TITLES = {
    "BH": "Buchholz",
    "SB": "Sonneborn-Berger",
    "GP": "game points (the first tiebreak)",
    "W": "wins",
    "Perf": "performance rating",
    "games": "games played",
}
FORMAT_WORDS = {"swiss": "Swiss", "round_robin": "round robin", "arena": "arena"}
OUT = " (out)"
"""The mark of a player who is no longer paired, after their name in the standings' text."""
CROSSTABLE_WORDS = CrosstableWords(
    rank="#",
    number="No",
    player="Player",
    rating="Rtg",
    games="Games",
    round="R{}",
    bye="bye",
    attackers="attackers",
    defenders="defenders",
    matches="{}-game matches: game points",
    forfeit="forfeit",
    playing="playing",
    streak="streak (points doubled)",
    withdrawn="withdrawn",
    page="rows {}–{} of {}",
    played_sides="a/d: played attackers/defenders",
    pending_sides="a/d before a result: attackers/defenders",
    streak_short="streak",
)
"""Every word the crosstable image (and its text form) shows besides names and numbers."""


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


def event_controls(event_id: int) -> tuple[Button, ...]:
    """Join and Leave, under a tournament's announcement."""
    return (
        Button(EventButton(event_id, "join").custom_id, "Join", Style.SUCCESS),
        Button(EventButton(event_id, "leave").custom_id, "Leave", Style.SECONDARY),
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


def result_text(pairing: StoredPairing, first: float, second: float, detail: str) -> str:
    """A pairing's result set by the organiser: ``ana 1–0 bo (forfeit: no-show)``."""
    assert pairing.second is not None
    return (
        f"{plain_name(pairing.first)} {points_text(first)}–{points_text(second)} "
        f"{plain_name(pairing.second)} ({detail})"
    )


def describe_event(event: Tournament) -> str:
    """An event's options in one paragraph."""
    spec = event.spec
    parts = [f"{get_variant(spec.variant).title} {FORMAT_WORDS[spec.format]}"]
    if spec.format == "swiss":
        parts.append(plural(spec.rounds or 0, "round"))
    if spec.format == "arena" and spec.arena_seconds:
        parts.append(f"{describe_duration(spec.arena_seconds)} long")
    parts.append("two-game matches, sides swapped" if spec.matches else "one game per pairing")
    parts.append(
        f"{describe_duration(spec.move_seconds)} per move" if spec.move_seconds else "no time limit"
    )
    if spec.round_seconds:
        parts.append(f"rounds of {describe_duration(spec.round_seconds)} at most")
    parts.append("rated" if spec.rated else "unrated")
    if spec.rating_floor is not None:
        parts.append(f"rated {spec.rating_floor} or more")
    if spec.rating_ceiling is not None:
        parts.append(f"rated up to {spec.rating_ceiling}")
    return " · ".join(parts)


def call_off_words(reason: CallOffReason) -> str:
    """Why the organiser called a game off, ending "Game #4 was called off by the organiser
    of **Event**: ..."."""
    if isinstance(reason, ResultSet):
        verdict = result_text(reason.pairing, reason.first, reason.second, reason.detail)
        return f"the result is {verdict}."
    if isinstance(reason, PlayerRemoved):
        return (
            f"{plain_name(reason.removed)} was removed ({reason.reason}); the result is "
            f"{result_text(reason.pairing, reason.first, reason.second, 'forfeit')}."
        )
    assert isinstance(reason, EventCancelled)
    return f"the event is cancelled ({reason.reason})."


def called_off(event: Tournament, game_id: int, reason: CallOffReason) -> str:
    """What the final board of a game the organiser called off says."""
    return (
        f"Game #{game_id} was called off by the organiser of **{event.name}**: "
        f"{call_off_words(reason)}"
    )


def organisers_result(pairing: StoredPairing) -> str | None:
    """A pairing's result as its organiser set it (``ana 1–0 bo (forfeit: no-show)``), or
    ``None`` if its games decided it."""
    if not decided_by_organiser(pairing):
        return None
    first, second = pairing.first_points or 0.0, pairing.second_points or 0.0
    return result_text(pairing, first, second, organisers_detail(pairing))


def standings_subtitle(event: Tournament, after: int) -> str:
    """Where the standings stand: ``Brandubh Swiss · after round 2 of 3`` (``after``: the last
    round counted; the round under way, if any, is not)."""
    words = f"{get_variant(event.spec.variant).title} {FORMAT_WORDS[event.spec.format]}"
    if event.status == "finished":
        return words + " · final"
    if event.spec.format == "arena":
        return words + (" · under way" if event.round else "")
    if after == 0:
        return words + (" · round 1 under way" if event.round else " · not begun")
    of = f" of {event.spec.rounds}" if event.spec.format == "swiss" else ""
    under_way = f" (round {event.round} under way)" if event.round > after else ""
    return words + f" · after round {after}{of}{under_way}"


def standings_text(event: Tournament, table: list[Line], after: int) -> str:
    """The standings in words (a code block, for a phone's width)."""
    header = f"**{event.name}** · {standings_subtitle(event, after)}"
    if not table:
        return header + "\nNobody has joined yet."
    names = [t[0] for t in table[0].tiebreaks]
    lines = [f"{'#':>3} {'player':<16} {'pts':>4} " + " ".join(f"{n:>5}" for n in names)]
    for line in table:
        # Players who no longer play keep their place (their results stand), marked.
        name = plain_name(line.player)
        name = name[: 16 - len(OUT)] + OUT if line.withdrawn else name[:16]
        lines.append(
            f"{line.rank:>3} {name:<16} {points_text(line.points):>4} "
            + " ".join(f"{tiebreak_text(n, value):>5}" for n, value in line.tiebreaks)
        )
    notes = []
    if any(line.withdrawn for line in table):
        notes.append(f"{OUT.strip()}: no longer paired (withdrew, removed or left the server).")
    if names:
        notes.append(
            "Tiebreaks, in order: " + ", ".join(TIEBREAK_WORDS.get(n, n) for n in names) + "."
        )
    return header + "\n```\n" + "\n".join(lines) + "\n```" + "".join("\n" + n for n in notes)


def thread_name(event: Tournament, round_number: int, attackers: str, defenders: str) -> str:
    """The name of a pairing's thread: ``Cup · R2 · ann vs bo``."""
    return f"{event.name} · R{round_number} · {attackers} vs {defenders}"


def thread_reason(event: Tournament) -> str:
    """Why the thread was opened (the server's audit log)."""
    return f"a game of {event.name}"


# ---------------------------------------------------------------------------- the crosstable


def crosstable_view(
    event: Tournament, sheet: Sheet, lines: list[Line], subtitle: str
) -> CrosstableView:
    """The crosstable of the standings ``lines``: per round (Swiss), per opponent (round robin)
    or per game (arena), each cell from the player's side of the sheet."""
    row_of = {line.player.user_id or 0: number for number, line in enumerate(lines, start=1)}
    arena = logic.arena_scores(sheet.arena_games) if event.spec.format == "arena" else {}
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
                name=plain_name(line.player),
                points=line.points,
                cells=cells,
                withdrawn=line.withdrawn,
                note=line.left or ("withdrawn" if line.withdrawn else ""),
            )
        )
    names = [name for name, _ in lines[0].tiebreaks] if lines else []
    tiebreaks = tuple(
        Tiebreak(
            name,
            tuple(
                None if value is None else round(value) if name == "Perf" else value
                for _, value in (line.tiebreaks[index] for line in lines)
            ),
            TIEBREAK_TITLES.get(name, name),
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
        points_label="Score" if event.spec.format == "arena" else "Pts",
        words=CROSSTABLE_WORDS,
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


def standings_post(standings: Standings, *, theme: str = "") -> Post:
    """The standings in words, with their crosstable image (left out where images may not be
    attached: the words say it all). Nobody is notified."""
    event, after, table = standings.event, standings.after, list(standings.lines)
    text = standings_text(event, table, after)  # clipped as it is sent (its code block kept whole)
    picture = None
    if table:
        subtitle = standings_subtitle(event, after)
        picture = Picture(
            crosstable_view(event, standings.sheet, table, subtitle),
            f"tournament-{event.id}-standings.png",
            theme,
            description=f"Standings of {event.name}, {subtitle}",
            optional=True,
        )
    return Post(content=text, picture=picture)


# ---------------------------------------------------------------------------- the announcement


def announcement_card(event: Tournament, players: int) -> Card:
    """The announcement of an event: its options, when it starts (or how it stands), its
    players, its organiser."""
    if event.status == "signup":
        when = f"<t:{event.spec.starts_at}:R> (<t:{event.spec.starts_at}:f>)"
        first = Field("Starts", when)
    else:
        status = {
            "running": f"round {event.round} under way",
            "paused": f"paused in round {event.round}",
            "finished": "finished: `/tafl tournament standings`",
            "cancelled": "cancelled",
        }[event.status]
        first = Field("Now", status)
    footer = (
        "Join with the button or /tafl tournament join · each game gets a thread here"
        if event.status in ("signup", "running", "paused")
        else "This event is over."
    )
    return Card(
        title=f"🏆 {event.name} (#{event.id})",
        description=describe_event(event),
        tone=Tone.EVENT,
        fields=(
            first,
            Field("Players", str(players)),
            Field("Organiser", plain_name(event.organiser)),
        ),
        footer=footer,
    )


def announcement(event: Tournament, players: int) -> Post:
    """The announcement with its Join and Leave buttons (none once the event is over)."""
    over = event.status in ("finished", "cancelled")
    controls = () if over else event_controls(event.id)
    return Post(card=announcement_card(event, players), controls=controls)


def announcement_changed(news: AnnouncementChanged) -> list[Delivery]:
    """The event's announcement brought up to date (nothing if it was never posted)."""
    event = news.event
    if event.announcement_id is None:
        return []
    place = Place(event.spec.channel_id)
    return [Edit(place, event.announcement_id, announcement(event, news.players))]


# ---------------------------------------------------------------------------- news


def _in_channel(event: Tournament, post: Post) -> list[Delivery]:
    return [Message(Place(event.spec.channel_id), post)]


def cancelled_for_too_few(event: Tournament, detail: str) -> list[Delivery]:
    """The event's start found too few players (``detail``: as its history says it)."""
    return _in_channel(event, Post(content=detail))


def paused_for_threads(news: PausedForThreads) -> list[Delivery]:
    """The bot may not open threads for the event's games."""
    event = news.event
    return _in_channel(
        event,
        Post(
            content=f"**{event.name}** is paused: I may not open threads in this channel for "
            "its games (I need the Create Public Threads permission). The organiser resumes "
            "it with `/tafl tournament resume` once I may."
        ),
    )


def round_over_while_paused(news: RoundOverWhilePaused) -> list[Delivery]:
    """The round ended during a pause: the next is paired on resume."""
    event = news.event
    return _in_channel(
        event,
        Post(
            content=f"**{event.name}**: round {event.round} is over. The tournament is paused: "
            f"round {event.round + 1} is paired when an organiser resumes it "
            "(`/tafl tournament resume`)."
        ),
    )


def game_begun(news: GameBegun) -> str:
    """The first board's words of a pairing's game: who attacks, who defends."""
    event, pairing, live = news.event, news.pairing, news.live
    game_words = "" if not event.spec.matches else f", game {news.number} of 2"
    return (
        f"**{event.name}**, round {pairing.round}, board {pairing.board}{game_words}: "
        f"<@{live.record.attackers.user_id}> attacks, "
        f"<@{live.record.defenders.user_id}> defends."
    )


def round_paired(news: RoundPaired) -> list[Delivery]:
    """A round's pairings, each player notified, in the event's channel."""
    event = news.event
    lines = [f"**{event.name}**: round {news.round} is paired."]
    for shown in news.pairings:
        pairing = shown.pairing
        if pairing.second is None:
            lines.append(f"Bye: <@{pairing.first.user_id}> ({points_text(pairing.first_points)})")
        else:
            where = "" if shown.channel_id is None else f" · <#{shown.channel_id}>"
            lines.append(
                f"Board {pairing.board}: <@{pairing.first.user_id}> (attacks) – "
                f"<@{pairing.second.user_id}>{where}"
            )
    if event.round_deadline is not None:
        lines.append(f"The round ends <t:{event.round_deadline}:R>.")
    return _in_channel(event, Post(content="\n".join(lines), ping_mentioned=True))


def finished(news: Finished) -> list[Delivery]:
    """The event is over: its podium, notified."""
    event = news.event
    medals = ("🥇", "🥈", "🥉")
    early = f" early: {news.why}" if news.why else ""
    lines = [f"**{event.name}** is over{early}. Final standings:"]
    # A player who left keeps their place, marked.
    lines += [
        f"{medal} <@{s.player.user_id}> {points_text(s.points)}"
        + (f" ({s.left or 'withdrew'})" if s.withdrawn else "")
        for medal, s in zip(medals, news.podium, strict=False)
    ]
    return _in_channel(event, Post(content="\n".join(lines), ping_mentioned=True))


def standings_due(standings: Standings) -> list[Delivery]:
    """The standings in the event's channel."""
    event = standings.event
    return _in_channel(event, standings_post(standings))


ChannelNews = (
    CancelledForTooFew
    | PausedForThreads
    | RoundPaired
    | RoundOverWhilePaused
    | StandingsDue
    | Finished
)
"""The news told in an event's channel (a game's news goes on its board)."""


def told(news: AnnouncementChanged | ChannelNews) -> list[Delivery]:
    """What the event's channel is told (or its announcement shows) of ``news``."""
    if isinstance(news, AnnouncementChanged):
        return announcement_changed(news)
    if isinstance(news, CancelledForTooFew):
        return cancelled_for_too_few(news.event, news.detail)
    if isinstance(news, PausedForThreads):
        return paused_for_threads(news)
    if isinstance(news, RoundPaired):
        return round_paired(news)
    if isinstance(news, RoundOverWhilePaused):
        return round_over_while_paused(news)
    if isinstance(news, StandingsDue):
        return standings_due(news.standings)
    return finished(news)


# ---------------------------------------------------------------------------- answers


def started(found: Tournament, start: Start) -> list[Delivery]:
    """The organiser's early start, answered privately."""
    words = {
        "begun": f"**{found.name}** has begun: round 1 is paired.",
        "already begun": f"**{found.name}** has already begun.",
        "cancelled": start.detail,
    }[start.outcome]
    return [Answer(Post(content=words, private=True))]


def paused(event: Tournament) -> list[Delivery]:
    """The organiser paused the event."""
    return [
        Answer(
            Post(
                content=f"**{event.name}** is paused: games under way go on; no new round is "
                "paired until `/tafl tournament resume`."
            )
        )
    ]


def resumed(event: Tournament) -> list[Delivery]:
    """The organiser resumed the event."""
    return [Answer(Post(content=f"**{event.name}** goes on."))]


def cancelled(event: Tournament, reason: str) -> list[Delivery]:
    """The organiser cancelled the event."""
    return [Answer(Post(content=f"**{event.name}** is cancelled: {reason}"))]


def result_set(verdict: Verdict) -> list[Delivery]:
    """The organiser set a pairing's result."""
    pairing = verdict.pairing
    words = result_text(pairing, verdict.first, verdict.second, verdict.detail)
    return [
        Answer(
            Post(
                content=f"**{verdict.event.name}**, round {pairing.round}, board "
                f"{pairing.board}: {words}."
            )
        )
    ]


def removed(event: Tournament, name: str, reason: str, forfeited: bool) -> list[Delivery]:
    """The organiser removed a player (``name``)."""
    tail = " Their game under way is lost by forfeit." if forfeited else ""
    return [
        Answer(
            Post(
                content=f"{name} is removed from **{event.name}** ({reason}); the games "
                f"they finished stand.{tail}"
            )
        )
    ]


def joined(event: Tournament, entry: Joined) -> list[Delivery]:
    """A player joined, told privately."""
    late = ""
    if entry.from_round is not None:
        late = (
            f" You join in round {entry.from_round}; the rounds you missed count as "
            "zero-point byes."
        )
    return [
        Answer(
            Post(
                content=f"You are in **{event.name}** (#{event.id}).{late} "
                "`/tafl tournament leave` withdraws you.",
                private=True,
            )
        )
    ]


def leave_asked(asked: LeaveAsked, *, again: bool) -> list[Delivery]:
    """Leaving in the middle of a game resigns it: asked first (``again``: in place of the
    question about a game that ended meanwhile)."""
    event, live, opponent = asked.event, asked.live, plain_name(asked.opponent)
    question = (
        f"Leaving now resigns your game against {opponent} in round "
        f"{asked.pairing.round} of **{event.name}** (game #{live.id}): {opponent} wins "
        "it. You will not be paired again; the games you finished stand. Leave?"
    )
    button = Button(
        ConfirmLeave(event.id, live.id).custom_id, "Yes, leave and resign", Style.DANGER
    )
    post = Post(content=question, controls=(button,), private=True)
    return [Update(post) if again else Answer(post)]


def left(event: Tournament, outcome: Left, *, confirmed: bool) -> list[Delivery]:
    """A player left (``confirmed``: their answer to the question replaces it)."""
    words = (
        f"You are out of **{event.name}**; join again any time before it starts."
        if event.status == "signup"
        else f"You have withdrawn from **{event.name}**: you will not be paired again; the "
        "games you finished stand."
    )
    if outcome.resigned is not None:
        words += f" Your game #{outcome.resigned.game.id} is resigned."
    post = Post(content=words, private=True)
    return [Update(post) if confirmed else Answer(post)]


def event_list(events: list[Tournament]) -> list[Delivery]:
    """A server's events, privately."""
    lines = [
        f"#{e.id} **{e.name}**: {describe_event(e)} · {STATUS_WORDS[e.status]}"
        + (f", round {e.round}" if e.status in ("running", "paused") and e.round else "")
        for e in events[:15]
    ]
    return [Answer(Post(content="\n".join(lines), private=True))]


def event_info(info: EventInfo) -> list[Delivery]:
    """An event's options, status, players and the latest of its history, privately."""
    found = info.event
    fields = [
        Field(
            "Status",
            STATUS_WORDS[found.status] + (f", round {found.round}" if found.round else ""),
        )
    ]
    if found.status == "signup":
        fields.append(Field("Starts", f"<t:{found.spec.starts_at}:f>"))
    elif info.began is not None:
        fields.append(Field("Started", f"<t:{info.began}:f>"))
    names = [
        plain_name(e.player) + (f" ({e.left_reason})" if e.left_reason else "")
        for e in info.entrants
    ]
    fields.append(
        Field(
            f"Players ({sum(1 for e in info.entrants if e.active)})",
            clip(", ".join(names) or "nobody yet", FIELD_ROOM),
            inline=False,
        )
    )
    history = "\n".join(
        f"<t:{h.at}:t> {h.action}{': ' + h.detail if h.detail else ''}"
        + (f" ({plain_name(h.actor)})" if h.actor else "")
        for h in info.history[-8:]
    )
    fields.append(Field("History", clip(history, FIELD_ROOM), inline=False))
    card = Card(
        title=f"🏆 {found.name} (#{found.id})",
        description=describe_event(found),
        fields=tuple(fields),
    )
    return [Answer(Post(card=card, private=True))]


def pairings(paired: RoundPaired) -> list[Delivery]:
    """Who plays whom in a round, with each pairing's result so far and its thread."""
    lines = [f"**{paired.event.name}**, round {paired.round}:"]
    for shown in paired.pairings:
        p = shown.pairing
        if p.second is None:
            lines.append(f"bye: {plain_name(p.first)} ({points_text(p.first_points)})")
            continue
        score = (
            f"{points_text(p.first_points)}–{points_text(p.second_points)}"
            if p.decided
            else "playing"
        )
        where = "" if shown.channel_id is None else f" <#{shown.channel_id}>"
        lines.append(f"{p.board}. {plain_name(p.first)} – {plain_name(p.second)}: {score}{where}")
    return [Answer(Post(content="\n".join(lines), private=True))]


def standings_answer(standings: Standings) -> list[Delivery]:
    """The standings as the answer to /tafl tournament standings."""
    return [Answer(standings_post(standings))]


def export_text(record: Export) -> str:
    """An event's record as one text: the crosstable, then every game in OTN."""
    standings = record.standings
    event = standings.event
    table = list(standings.lines)
    text = standings_text(event, table, standings.after)
    parts = [text.replace("**", "").replace("```\n", ""), ""]
    for game in record.games:
        pairing = game.pairing
        number = f", game {game.number}" if len(pairing.games) > 1 else ""
        heading = f"Round {pairing.round}, board {pairing.board}{number}:"
        decided = organisers_result(pairing)
        if decided is not None:
            heading += f" the organiser set the result, {decided}."
        parts += [heading, game.otn, ""]
    return "\n".join(parts)


def exported(record: Export) -> list[Delivery]:
    """The event's record as a file."""
    event = record.standings.event
    data = export_text(record).encode()
    return [
        Answer(
            Post(
                content=f"The record of **{event.name}**.",
                files=(Attachment(f"tournament-{event.id}.txt", data),),
            )
        )
    ]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: ServerOnly, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Tournaments are run inside a server: use this in a server channel."


@refusal_words.register
def _(refusal: NotOrganiser, lang: Language = ENGLISH_LANGUAGE) -> str:
    doing = "create tournaments" if refusal.creating else "do that"
    return (
        "Only members who may manage the server (or have the organisers' role of "
        f"`/tafl settings`) can {doing}."
    )


@refusal_words.register
def _(refusal: NoEventAmong, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"This server has {NONE_AMONG.get(refusal.among, 'no such tournament')}: "
        "an organiser starts one with `/tafl tournament create`."
    )


@refusal_words.register
def _(refusal: NoSuchEvent, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"There is no tournament #{refusal.event_id} in this server."


@refusal_words.register
def _(refusal: NotBegun, lang: Language = ENGLISH_LANGUAGE) -> str:
    event = refusal.event
    if refusal.standings:
        return (
            f"**{event.name}** has not begun (it starts <t:{event.spec.starts_at}:R>): "
            "`/tafl tournament info` lists who has joined."
        )
    return f"**{event.name}** has not begun: it starts <t:{event.spec.starts_at}:R>."


@refusal_words.register
def _(refusal: NoSuchRound, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"**{refusal.event.name}** has no round {refusal.number}."


@refusal_words.register
def _(refusal: FloorAboveCeiling, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"The rating floor ({refusal.floor}) is above the ceiling ({refusal.ceiling})."


@refusal_words.register
def _(refusal: NotATextChannel, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "Announce a tournament in a text channel: its games are played in threads of it."


@refusal_words.register
def _(refusal: RoundsForSwiss, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "`rounds` is for Swiss events (a round robin plays everyone once)."


@refusal_words.register
def _(refusal: MinutesForArenas, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "`minutes` is for arenas: a Swiss has `rounds`."


@refusal_words.register
def _(refusal: RoundShorterThanMove, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"A round of {describe_duration(refusal.round_seconds)} is shorter than one move's "
        f"{describe_duration(refusal.move_seconds)}: give `round_time` several moves' time."
    )


@refusal_words.register
def _(refusal: EventIs, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"**{refusal.event.name}** is {STATUS_WORDS[refusal.event.status]}."


@refusal_words.register
def _(refusal: TooFewToStart, lang: Language = ENGLISH_LANGUAGE) -> str:
    event = refusal.event
    return (
        f"**{event.name}** needs {plural(event.spec.min_entrants, 'player')} to start "
        f"and has {refusal.joined}; it stays open for sign-up (it starts "
        f"<t:{event.spec.starts_at}:R>, or is cancelled then if still too few have "
        "joined)."
    )


@refusal_words.register
def _(refusal: NoSuchBoard, lang: Language = ENGLISH_LANGUAGE) -> str:
    return (
        f"Round {refusal.round} of **{refusal.event.name}** has no board {refusal.board} with "
        "two players."
    )


@refusal_words.register
def _(refusal: NotEntered, lang: Language = ENGLISH_LANGUAGE) -> str:
    who = "You are" if refusal.player is None else f"{plain_name(refusal.player)} is"
    return f"{who} not playing in **{refusal.event.name}**."


@refusal_words.register
def _(refusal: EventOver, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"**{refusal.event.name}** is over."


@refusal_words.register
def _(refusal: EntryBarred, lang: Language = ENGLISH_LANGUAGE) -> str:
    event, rating = refusal.event, refusal.rating
    spec = event.spec
    return {
        "over": f"**{event.name}** is over.",
        "no late entry": f"**{event.name}** has begun: a round robin takes no late entry.",
        "last round": (
            f"**{event.name}** is playing its last round: there is no round left to join."
        ),
        "below floor": (
            f"**{event.name}** is for players rated {spec.rating_floor} or more; "
            f"you are {rating:.0f}."
        ),
        "above ceiling": (
            f"**{event.name}** is for players rated up to {spec.rating_ceiling}; "
            f"you are {rating:.0f}."
        ),
        "already in": f"You are already in **{event.name}**.",
        "left": f"You left **{event.name}** ({refusal.left_reason}) and cannot join again.",
    }[refusal.why]
