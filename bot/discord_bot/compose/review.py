"""The computer's review of a finished game as players read it: the progress line while it is
made, then a card with the result, both sides' accuracy and the moments that mattered, the
evaluation chart and a board for each critical moment; and the review service's refusals, in
words. Pure: no Discord here; the table renders the images and sends what this builds.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.analysis import GameAnalysis, Moment, MomentKind
from bot.ai.explain import (
    Allowed,
    Captures,
    ChancesFell,
    Effect,
    ForcedWin,
    ForNothing,
    KingGoes,
    LostByForce,
    MissedDefence,
    MissedFinish,
    OpenedRoads,
    OpensRoads,
    Plays,
    Reason,
    Repeated,
    SlippedWin,
)
from bot.ai.search import MATE_BOUND
from bot.engine import Game, Side, Termination, get_variant
from bot.render.adapter import view_before_move
from bot.render.chart import ChartWords
from bot.storage import GameRecord, GameResult, TableEnding

from ..app.reviews import (
    NoFinishedGame,
    NoResult,
    Reviewed,
    ReviewNews,
    ReviewProgress,
    StillPlaying,
)
from .board import CAPTION_WORDS, PLAIN, BoardLook, plain_name, plural
from .errors import refusal_words
from .language import ENGLISH_LANGUAGE, Language
from .post import Card, Chart, Delivery, Field, Picture, Post, Revise

MOMENTS_LISTED = 8
"""At most this many moments in the review's text (the rest are in the exported record)."""
FIELD_ROOM = 1024
"""Discord's room for the words of a card's field (the table's ``EMBED_FIELD_VALUE``): the
moments listed are those that fit whole."""


# ---------------------------------------------------------------------------- while it is made


def progress_text(game_id: int, done: int, total: int, elapsed: float) -> str:
    """The progress line: positions searched, and roughly how long the rest will take at the
    pace so far (positions differ, so it is rounded to what a player needs; before the first
    there is no pace to tell)."""
    if not done:
        return f"Reviewing game #{game_id}: 0 of {total} positions searched…"
    left = elapsed / done * (total - done)
    if left < 60:
        remaining = f"about {max(5, round(left / 5) * 5)} s left"
    else:
        remaining = f"about {round(left / 60)} min left"
    return f"Reviewing game #{game_id}: {done} of {total} positions searched, {remaining}…"


def waiting_text(game_id: int, ahead: int) -> str:
    """What a member sees while their earlier reviews are made first."""
    others = "your other review" if ahead == 1 else f"your {ahead} other reviews"
    return (
        f"Game #{game_id} will be reviewed after {others} (each member's reviews are made one "
        "at a time, so that games against the AI keep their pace)…"
    )


def news_text(news: ReviewNews) -> str:
    """A review's news as the line shown while it is made."""
    if not isinstance(news, ReviewProgress):
        return waiting_text(news.game_id, news.ahead)
    if news.deeper:
        return (
            f"Reviewing game #{news.game_id}: every position searched; looking deeper "
            "where the game was decided…"
        )
    return progress_text(news.game_id, news.done, news.total, news.elapsed)


def progress(news: ReviewNews) -> list[Delivery]:
    """The answer's line, rewritten with the review's news (a courtesy: a failure is only
    logged)."""
    return [Revise(Post(content=news_text(news)), quiet=True)]


# ---------------------------------------------------------------------------- why a move mattered

KIND_NAMES = {
    MomentKind.BLUNDER: "blunder",
    MomentKind.MISSED_WIN: "missed win",
    MomentKind.MISSED_DEFENCE: "missed defence",
    MomentKind.MISTAKE: "mistake",
    MomentKind.INACCURACY: "inaccuracy",
}
"""Each kind of moment, as players read it."""


def side_name(side: Side) -> str:
    """``attackers`` / ``defenders``, as players read them."""
    return side.value


def listed(squares: Sequence[str]) -> str:
    """``a1``, ``a1 and g7``, ``a1, a7 and g7``."""
    if len(squares) <= 1:
        return "".join(squares)
    return ", ".join(squares[:-1]) + " and " + squares[-1]


def pieces(count: int, owner: Side) -> str:
    """``the attacker`` / ``2 defenders``: whose pieces a capture takes, as players say it."""
    piece = "attacker" if owner is Side.ATTACKERS else "defender"
    return f"the {piece}" if count == 1 else f"{count} {piece}s"


def effect_words(effect: Effect) -> str:
    """What an answer does, as "the move, doing what": ``e5-a5, capturing the defender on
    a6``, ``f2-f1, opening two roads for the king (a1 and g1)``."""
    if isinstance(effect, Captures):
        taken = pieces(effect.count, effect.owner)
        return f"{effect.answer}, capturing {taken} on {listed(effect.squares)}"
    if len(effect.squares) >= 2:
        return f"{effect.answer}, opening two roads for the king ({listed(effect.squares)})"
    return f"{effect.answer}, opening a road for the king to {listed(effect.squares)}"


def allowed_words(reason: Allowed) -> str:
    """A winning answer allowed (``d4-d8 lets the king reach c9``), or a threat left open
    (``e2-e4 leaves the king's road to e9 open``)."""
    played, answer, ending = reason.played, reason.answer, reason.ending
    if reason.standing:
        if ending is Termination.KING_ESCAPED:
            return f"{played} leaves the king's road to {reason.target} open"
        if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            return f"{played} leaves the king to be captured by {answer}"
    if ending is Termination.KING_ESCAPED:
        return f"{played} lets the king reach {reason.target}"
    if ending is Termination.KING_CAPTURED:
        return f"{played} lets the attackers capture the king with {answer}"
    if ending is Termination.GROUP_CAPTURED:
        return f"{played} lets the attackers capture the king's whole group with {answer}"
    if ending is Termination.TUICHI:
        return f"{played} lets the king open two roads with {answer} (Tuichi)"
    if ending is Termination.EXIT_FORT:
        return f"{played} lets the king close an exit fort with {answer}"
    if ending is Termination.ENCIRCLEMENT:
        return f"{played} lets the attackers complete the encirclement with {answer}"
    if ending is Termination.NO_LEGAL_MOVE:
        return f"{played} lets {answer} leave the {reason.mover.value} without a legal move"
    return f"{played} lets {answer} win at once ({ending.value})"


def missed_finish_words(reason: MissedFinish) -> str:
    """What a missed finishing move would have done: ``e5-e9 was an escape for the king``."""
    move, ending = reason.move, reason.ending
    if ending is Termination.KING_ESCAPED:
        return f"{move} was an escape for the king"
    if ending is Termination.KING_CAPTURED:
        return f"{move} would have captured the king"
    if ending is Termination.GROUP_CAPTURED:
        return f"{move} would have captured the king and his last defenders"
    if ending is Termination.TUICHI:
        return f"{move} would have given the king two open roads (Tuichi), which wins here"
    if ending is Termination.EXIT_FORT:
        return f"{move} would have closed an exit fort round the king"
    if ending is Termination.ENCIRCLEMENT:
        return f"{move} would have completed the encirclement of the defenders"
    if ending is Termination.NO_LEGAL_MOVE:
        return f"{move} would have left the {reason.opponent.value} without a legal move"
    return f"{move} would have won at once ({ending.value})"


_FINISHED = {
    Termination.KING_ESCAPED: "escapes",
    Termination.KING_CAPTURED: "captures the king",
    Termination.GROUP_CAPTURED: "captures the king's group",
    Termination.TUICHI: "opens two roads (Tuichi)",
    Termination.EXIT_FORT: "closes an exit fort",
    Termination.ENCIRCLEMENT: "completes the encirclement",
    Termination.NO_LEGAL_MOVE: "leaves no legal move",
}
"""What a finishing move does, after "whatever the attackers answer, e5-e9 …"."""


def forced_words(reason: OpenedRoads | ForcedWin) -> str:
    """Why a missed move would have won by force within two moves."""
    played = reason.played
    if isinstance(reason, OpenedRoads):
        if len(reason.squares) >= 2:
            return (
                f"{played} would have opened two roads for the king "
                f"({listed(reason.squares)}): one move cannot close both"
            )
        return (
            f"{played} would have opened a road to {listed(reason.squares)} "
            "that the attackers could not close"
        )
    if reason.opponent is None or reason.ending is None:
        return f"{played} would have won by force within two moves"
    result = _FINISHED.get(reason.ending, f"wins ({reason.ending.value})")
    return (
        f"{played} would have won by force: whatever the {reason.opponent.value} answer "
        f"(say {reason.reply}), {reason.finisher} {result}"
    )


def lost_words(reason: LostByForce) -> str:
    """A move after which the opponent wins by force."""
    played, opponent = reason.played, reason.opponent.value
    if reason.effect is not None:
        verb = "does not stop" if reason.standing else "allows"
        return f"{played} {verb} {effect_words(reason.effect)}, and the {opponent} win by force"
    start = f"starting with {reason.answer}"
    if reason.standing:
        return f"{played} does not stop the {opponent}' forced win, {start}"
    return f"{played} allows a forced win for the {opponent}, {start}"


def fell_words(reason: ChancesFell) -> str:
    """A move after which the mover's chances fell, and why when it shows on the board."""
    fall = f"the {reason.mover.value}' chances fall from {reason.before:.0%} to {reason.after:.0%}"
    cause, played = reason.cause, reason.played
    if isinstance(cause, ForNothing):
        return f"{for_nothing_words(cause)}: {fall}"
    if isinstance(cause, Captures | OpensRoads):
        return f"{played} allows {effect_words(cause)}: {fall}"
    if isinstance(cause, KingGoes):
        # Named as the piece players watch, not as a side's move.
        return f"{played} lets the king go to {cause.target}: {fall}"
    if isinstance(cause, Plays):
        return f"{played} lets the {cause.side.value} play {cause.answer}: {fall}"
    return f"after {played} {fall}"


def for_nothing_words(reason: ForNothing) -> str:
    """``d4-d5 loses the defender on c5 to e5-c5 for nothing``."""
    taken = pieces(reason.count, reason.owner)
    return (
        f"{reason.played} loses {taken} on {listed(reason.squares)} to {reason.answer} for nothing"
    )


def reason_words(reason: Reason) -> str:
    """Why a move mattered, in a player's words: ``d4-d8 lets the king reach c9``."""
    if isinstance(reason, MissedFinish):
        return missed_finish_words(reason)
    if isinstance(reason, Allowed):
        return allowed_words(reason)
    if isinstance(reason, MissedDefence):
        ending = reason.threat.ending
        if ending is Termination.KING_ESCAPED:
            closes = "would have closed it"
        elif ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            closes = "would have saved him"
        else:
            closes = "would have stopped it"
        return f"{allowed_words(reason.threat)}; {reason.defence} {closes}"
    if isinstance(reason, Repeated):
        if reason.winner is None:
            return f"{reason.played} repeats the position a third time: a draw"
        return (
            f"{reason.played} repeats the position a third time, which loses for the "
            f"{reason.winner.other.value} here"
        )
    if isinstance(reason, OpenedRoads | ForcedWin):
        return forced_words(reason)
    if isinstance(reason, ForNothing):
        return for_nothing_words(reason)
    if isinstance(reason, SlippedWin):
        return (
            f"{reason.played} lets a forced win slip: {reason.better} would have won within "
            f"{reason.moves} moves"
        )
    if isinstance(reason, LostByForce):
        return lost_words(reason)
    return fell_words(reason)


def player_and_side(names: dict[Side, str], side: Side) -> str:
    """``ann (attackers)``; a name that already ends in brackets takes the side inside them:
    ``Tafl AI (easy, defenders)``, not ``Tafl AI (easy) (defenders)``."""
    name = names[side]
    if name.endswith(")"):
        return f"{name[:-1]}, {side_name(side)})"
    return f"{name} ({side_name(side)})"


def moment_line(analysis: GameAnalysis, moment: Moment, names: dict[Side, str]) -> str:
    """One moment in a player's words: ``23… d4-d8 Bob (defenders), blunder: lets the king
    reach c9; better d4-d6.``"""
    who = player_and_side(names, moment.side)
    explanation = reason_words(moment.reason)
    # An explanation that already names the better move ("d8-f8 would have closed it") needs
    # no second mention.
    better = "" if moment.better in explanation else f"; better **{moment.better}**"
    # The line starts with the move in bold: the explanation need not say it again.
    why = explanation.removeprefix(f"{moment.move} ")
    return (
        f"**{analysis.move_label(moment.ply)} {moment.move}** {who}, "
        f"{KIND_NAMES[moment.kind]}: {why}{better}."
    )


def listed_moments(
    analysis: GameAnalysis,
    names: dict[Side, str],
    room: int = FIELD_ROOM,
    moments: Sequence[Moment] | None = None,
) -> tuple[list[str], int]:
    """The lines of ``moments`` (by default all of the analysis's) that fit in ``room``
    characters, in the order of the game, and how many were left out. The boards' (critical)
    moments come first, then the costliest, so the text always covers the boards and the worst
    mistakes, and no line is cut."""
    given = analysis.moments if moments is None else moments
    ranked = sorted(given, key=lambda m: (not m.critical, -m.loss, m.ply))
    chosen: list[Moment] = []
    used = 0
    for moment in ranked:
        if len(chosen) == MOMENTS_LISTED:
            break
        size = len(moment_line(analysis, moment, names)) + 1  # and its line break
        if used + size > room:
            continue
        chosen.append(moment)
        used += size
    chosen.sort(key=lambda m: m.ply)
    return [moment_line(analysis, m, names) for m in chosen], len(given) - len(chosen)


def inaccuracies_text(analysis: GameAnalysis, names: dict[Side, str]) -> str:
    """The inaccuracies, side by side, each as its move and what it cost: ``Ann (attackers):
    12. a4-a5 (−11%), 15. c3-c5 (−12%)`` (the table clips what does not fit a field)."""
    lines = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        mine = [m for m in analysis.moments if m.kind is MomentKind.INACCURACY and m.side is side]
        if mine:
            moves = ", ".join(
                f"{analysis.move_label(m.ply)} {m.move} (−{m.loss:.0%})" for m in mine
            )
            lines.append(f"{player_and_side(names, side)}: {moves}")
    return "\n".join(lines)


_GAVE_UP = {
    TableEnding.RESIGNATION: "resigned",
    TableEnding.TIMEOUT: "ran out of time",
    TableEnding.ABANDONED: "left the game",
}
"""What the loser of a game ended at the table did."""


def result_line(analysis: GameAnalysis, record: GameRecord, names: dict[Side, str]) -> str:
    """How the game ended, in words; a game given up in a position the engine liked for the side
    that gave it up says so (a resignation with a forced win on the board is worth knowing)."""
    reason = record.reason
    if record.result is None or record.result is GameResult.DRAW:
        return f"Drawn ({reason.value if reason else 'game over'})."
    winner = Side(record.result.value)
    loser = winner.other
    gave_up = _GAVE_UP.get(reason) if isinstance(reason, TableEnding) else None
    if gave_up is None:
        how = reason.value if reason else "game over"
        return f"{names[winner]} won with the {winner.value} ({how})."
    line = f"{player_and_side(names, loser)} {gave_up}"
    final = analysis.evals[-1]
    chance = analysis.win_chances()[-1]
    chance = chance if loser is Side.ATTACKERS else 1.0 - chance
    if final.for_side(loser) > MATE_BOUND:
        return f"{line}, with a forced win on the board ({final.best_move} started it)."
    if chance >= 0.5:
        return f"{line} where the engine gave them {chance:.0%} winning chances."
    return f"{line}."


def accuracy_line(analysis: GameAnalysis, names: dict[Side, str]) -> str:
    """Both sides' accuracy, or that a side made no move."""
    parts = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        accuracy = analysis.accuracy(side)
        figure = "no moves" if accuracy is None else f"{accuracy:.0f}% accuracy"
        parts.append(f"{player_and_side(names, side)}: {figure}")
    return " · ".join(parts)


# ---------------------------------------------------------------------------- the images

CHART_WORDS = ChartWords(
    attackers="Attackers",
    defenders="Defenders",
    accuracy="accuracy",
    kinds=KIND_NAMES,
    no_moments="no decisive mistakes",
    on_board=("shown on a board", "on a board"),
)
"""The words drawn on the review's chart."""


def moment_status(analysis: GameAnalysis, ply: int) -> tuple[str | None, str | None]:
    """The better move drawn on the board before the ``ply``-th move, and the caption's words
    about it: the moment's kind and better move ("Missed win: better e5-e9") when the move was
    a moment, else the search's choice when it differs ("Better: e5-e9")."""
    moment = next((m for m in analysis.moments if m.ply == ply), None)
    if moment is not None:
        return moment.better, f"{KIND_NAMES[moment.kind].capitalize()}: better {moment.better}"
    better = analysis.evals[ply - 1].best_move
    status = f"Better: {better}" if better and better != analysis.moves[ply - 1] else None
    return better, status


def moment_picture(
    analysis: GameAnalysis, ply: int, names: dict[Side, str], look: BoardLook, game_id: int
) -> Picture:
    """The position before the ``ply``-th move, with the move played and the better one as
    arrows, its caption naming the players and the moment."""
    game = Game(analysis.variant, analysis.start_position, analysis.first_turn)
    for text in analysis.moves:
        game.play(text)
    better, status = moment_status(analysis, ply)
    view = view_before_move(
        game,
        ply,
        better=better,
        status=status,
        caption=True,
        attackers=names[Side.ATTACKERS],
        defenders=names[Side.DEFENDERS],
        words=CAPTION_WORDS,
    )
    return Picture(view, f"review-{game_id}-move-{ply}.png", look.theme, look.flip)


# ---------------------------------------------------------------------------- the review


def names_of(record: GameRecord) -> dict[Side, str]:
    """Both players' names, without a ping."""
    return {
        Side.ATTACKERS: plain_name(record.attackers),
        Side.DEFENDERS: plain_name(record.defenders),
    }


def review_card(analysis: GameAnalysis, record: GameRecord, length: str) -> Card:
    """The review as a card: the result, both sides' accuracy, the decisive moments, the
    mistakes and the inaccuracies. ``length`` says how long the game was ("18 moves")."""
    names = names_of(record)
    variant = get_variant(analysis.variant)
    title = f"Review of game #{record.id} ({variant.title}, {length})"
    description = f"{result_line(analysis, record, names)}\n{accuracy_line(analysis, names)}"
    fields: list[Field] = []
    decisive = [m for m in analysis.moments if m.kind.decisive]
    mistakes = [m for m in analysis.moments if m.kind is MomentKind.MISTAKE]
    left_out = 0
    if decisive:
        lines, left = listed_moments(analysis, names, moments=decisive)
        left_out += left
        # Only a game won on the board was decided by its moments; a draw, a resignation or
        # a timeout had them all the same.
        decided = (
            record.result not in (None, GameResult.DRAW)
            and record.outcome is not None
            and record.outcome.on_board
        )
        heading = "The moments that decided it" if decided else "The key moments"
        fields.append(Field(heading, "\n".join(lines), inline=False))
    if mistakes:
        lines, left = listed_moments(analysis, names, moments=mistakes)
        left_out += left
        heading = "Mistakes" if decisive else "Mistakes (no single move decided the game)"
        fields.append(Field(heading, "\n".join(lines), inline=False))
    if any(m.kind is MomentKind.INACCURACY for m in analysis.moments):
        fields.append(Field("Inaccuracies", inaccuracies_text(analysis, names), inline=False))
    footer = None
    if left_out:
        more = plural(left_out, "more moment")
        footer = f"{more} in the game record: /tafl export game:{record.id}"
    if not analysis.moments:
        fields.append(
            Field(
                "No decisive mistake",
                "Neither side threw away a clear advantage: the result grew move by move.",
                inline=False,
            )
        )
    return Card(title, description, fields=tuple(fields), footer=footer, picture=True)


def review(reviewed: Reviewed, look: BoardLook = PLAIN) -> list[Delivery]:
    """The review in place of the progress line: its card with the evaluation chart, and a
    board for each critical moment, drawn as the asker likes (``look``)."""
    record, analysis = reviewed.record, reviewed.analysis
    names = names_of(record)
    card = review_card(analysis, record, plural(reviewed.full_moves, "move"))
    chart = Chart(analysis, f"review-{record.id}.png", look.theme, CHART_WORDS)
    boards = tuple(
        moment_picture(analysis, moment.ply, names, look, record.id) for moment in analysis.critical
    )
    return [Revise(Post(card=card, pictures=(chart, *boards)))]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: NoFinishedGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return "No game has finished in this channel yet: name one, e.g. `/tafl analyze game:12`."


@refusal_words.register
def _(refusal: StillPlaying, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"Game #{refusal.game_id} is still being played: it can be reviewed once it ends."


@refusal_words.register
def _(refusal: NoResult, lang: Language = ENGLISH_LANGUAGE) -> str:
    return f"Game #{refusal.game_id} ended without a result, so there is nothing to review."
