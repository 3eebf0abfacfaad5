"""The computer's review of a finished game as players read it: the progress line while it is
made, then a card with the result, both sides' accuracy and the moments that mattered, the
evaluation chart and a board for each critical moment; and the review service's refusals, in
words. Pure: no Discord here; the table renders the images and sends what this builds.
"""

from __future__ import annotations

import re
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
from bot.engine import Game, Side, Termination
from bot.render.adapter import view_before_move
from bot.render.chart import ChartWords
from bot.storage import GameRecord, GameResult, TableEnding

from ...i18n.language import ENGLISH_LANGUAGE, Language
from ..app.reviews import (
    NoFinishedGame,
    NoResult,
    Reviewed,
    ReviewNews,
    ReviewProgress,
    StillPlaying,
)
from .board import (
    PLAIN,
    BoardLook,
    caption_words,
    ending_text,
    plain_name,
    side_name,
    variant_title,
)
from .errors import refusal_words
from .post import Card, Chart, Delivery, Field, Picture, Post, Revise

MOMENTS_LISTED = 8
"""At most this many moments in the review's text (the rest are in the exported record)."""
FIELD_ROOM = 1024
"""Discord's room for the words of a card's field (the table's ``EMBED_FIELD_VALUE``): the
moments listed are those that fit whole."""


# ---------------------------------------------------------------------------- while it is made


def progress_text(
    game_id: int, done: int, total: int, elapsed: float, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """The progress line: positions searched, and roughly how long the rest will take at the
    pace so far (positions differ, so it is rounded to what a player needs; before the first
    there is no pace to tell)."""
    if not done:
        return lang.gettext(
            "Reviewing game #{game}: 0 of {total} positions searched…",
            game=game_id,
            total=lang.number(total),
        )
    left = elapsed / done * (total - done)
    if left < 60:
        remaining = lang.gettext(
            "about {seconds} s left", seconds=lang.number(max(5, round(left / 5) * 5))
        )
    else:
        remaining = lang.gettext("about {minutes} min left", minutes=lang.number(round(left / 60)))
    return lang.gettext(
        "Reviewing game #{game}: {done} of {total} positions searched, {remaining}…",
        game=game_id,
        done=lang.number(done),
        total=lang.number(total),
        remaining=remaining,
    )


def waiting_text(game_id: int, ahead: int, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What a member sees while their earlier reviews are made first."""
    others = lang.ngettext("your other review", "your {count} other reviews", ahead)
    return lang.gettext(
        "Game #{game} will be reviewed after {others} (each member's reviews are made one "
        "at a time, so that games against the AI keep their pace)…",
        game=game_id,
        others=others,
    )


def news_text(news: ReviewNews, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A review's news as the line shown while it is made."""
    if not isinstance(news, ReviewProgress):
        return waiting_text(news.game_id, news.ahead, lang=lang)
    if news.deeper:
        return lang.gettext(
            "Reviewing game #{game}: every position searched; looking deeper "
            "where the game was decided…",
            game=news.game_id,
        )
    return progress_text(news.game_id, news.done, news.total, news.elapsed, lang=lang)


def progress(news: ReviewNews, *, lang: Language = ENGLISH_LANGUAGE) -> list[Delivery]:
    """The answer's line, rewritten with the review's news (a courtesy: a failure is only
    logged)."""
    return [Revise(Post(content=news_text(news, lang=lang)), quiet=True)]


# ---------------------------------------------------------------------------- why a move mattered


def kind_name(kind: MomentKind, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A kind of moment, as players read it: ``blunder``."""
    if kind is MomentKind.BLUNDER:
        return lang.pgettext("review moment", "blunder")
    if kind is MomentKind.MISSED_WIN:
        return lang.pgettext("review moment", "missed win")
    if kind is MomentKind.MISSED_DEFENCE:
        return lang.pgettext("review moment", "missed defence")
    if kind is MomentKind.MISTAKE:
        return lang.pgettext("review moment", "mistake")
    return lang.pgettext("review moment", "inaccuracy")


def capitalized(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is)."""
    return text[:1].upper() + text[1:]


def listed(squares: Sequence[str], *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``a1``, ``a1 and g7``, ``a1, a7 and g7``."""
    if len(squares) <= 1:
        return "".join(squares)
    return lang.gettext("{items} and {last}", items=", ".join(squares[:-1]), last=squares[-1])


def pieces(count: int, owner: Side, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``the attacker`` / ``2 defenders``: whose pieces a capture takes, as players say it."""
    if owner is Side.ATTACKERS:
        return lang.ngettext("the attacker", "{count} attackers", count)
    return lang.ngettext("the defender", "{count} defenders", count)


def effect_words(effect: Effect, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What an answer does, as "the move, doing what": ``e5-a5, capturing the defender on
    a6``, ``f2-f1, opening two roads for the king (a1 and g1)``."""
    squares = listed(effect.squares, lang=lang)
    if isinstance(effect, Captures):
        return lang.gettext(
            "{answer}, capturing {taken} on {squares}",
            answer=effect.answer,
            taken=pieces(effect.count, effect.owner, lang=lang),
            squares=squares,
        )
    if len(effect.squares) >= 2:
        return lang.gettext(
            "{answer}, opening two roads for the king ({squares})",
            answer=effect.answer,
            squares=squares,
        )
    return lang.gettext(
        "{answer}, opening a road for the king to {squares}", answer=effect.answer, squares=squares
    )


def allowed_words(reason: Allowed, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A winning answer allowed (``d4-d8 lets the king reach c9``), or a threat left open
    (``e2-e4 leaves the king's road to e9 open``)."""
    played, answer, ending, target = reason.played, reason.answer, reason.ending, reason.target
    if reason.standing:
        if ending is Termination.KING_ESCAPED:
            return lang.gettext(
                "{played} leaves the king's road to {target} open", played=played, target=target
            )
        if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            return lang.gettext(
                "{played} leaves the king to be captured by {answer}", played=played, answer=answer
            )
    if ending is Termination.KING_ESCAPED:
        return lang.gettext("{played} lets the king reach {target}", played=played, target=target)
    if ending is Termination.KING_CAPTURED:
        return lang.gettext(
            "{played} lets the attackers capture the king with {answer}",
            played=played,
            answer=answer,
        )
    if ending is Termination.GROUP_CAPTURED:
        return lang.gettext(
            "{played} lets the attackers capture the king's whole group with {answer}",
            played=played,
            answer=answer,
        )
    if ending is Termination.TUICHI:
        return lang.gettext(
            "{played} lets the king open two roads with {answer} (Tuichi)",
            played=played,
            answer=answer,
        )
    if ending is Termination.EXIT_FORT:
        return lang.gettext(
            "{played} lets the king close an exit fort with {answer}", played=played, answer=answer
        )
    if ending is Termination.ENCIRCLEMENT:
        return lang.gettext(
            "{played} lets the attackers complete the encirclement with {answer}",
            played=played,
            answer=answer,
        )
    if ending is Termination.NO_LEGAL_MOVE:
        if reason.mover is Side.ATTACKERS:
            return lang.gettext(
                "{played} lets {answer} leave the attackers without a legal move",
                played=played,
                answer=answer,
            )
        return lang.gettext(
            "{played} lets {answer} leave the defenders without a legal move",
            played=played,
            answer=answer,
        )
    return lang.gettext(
        "{played} lets {answer} win at once ({ending})",
        played=played,
        answer=answer,
        ending=ending_text(ending, lang=lang),
    )


def missed_finish_words(reason: MissedFinish, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """What a missed finishing move would have done: ``e5-e9 was an escape for the king``."""
    move, ending = reason.move, reason.ending
    if ending is Termination.KING_ESCAPED:
        return lang.gettext("{move} was an escape for the king", move=move)
    if ending is Termination.KING_CAPTURED:
        return lang.gettext("{move} would have captured the king", move=move)
    if ending is Termination.GROUP_CAPTURED:
        return lang.gettext("{move} would have captured the king and his last defenders", move=move)
    if ending is Termination.TUICHI:
        return lang.gettext(
            "{move} would have given the king two open roads (Tuichi), which wins here", move=move
        )
    if ending is Termination.EXIT_FORT:
        return lang.gettext("{move} would have closed an exit fort round the king", move=move)
    if ending is Termination.ENCIRCLEMENT:
        return lang.gettext(
            "{move} would have completed the encirclement of the defenders", move=move
        )
    if ending is Termination.NO_LEGAL_MOVE:
        if reason.opponent is Side.ATTACKERS:
            return lang.gettext(
                "{move} would have left the attackers without a legal move", move=move
            )
        return lang.gettext("{move} would have left the defenders without a legal move", move=move)
    return lang.gettext(
        "{move} would have won at once ({ending})", move=move, ending=ending_text(ending, lang=lang)
    )


def finished_words(ending: Termination, finisher: str, *, lang: Language) -> str:
    """What a finishing move does, after "whatever the attackers answer, …": ``e5-e9
    escapes``."""
    if ending is Termination.KING_ESCAPED:
        return lang.gettext("{move} escapes", move=finisher)
    if ending is Termination.KING_CAPTURED:
        return lang.gettext("{move} captures the king", move=finisher)
    if ending is Termination.GROUP_CAPTURED:
        return lang.gettext("{move} captures the king's group", move=finisher)
    if ending is Termination.TUICHI:
        return lang.gettext("{move} opens two roads (Tuichi)", move=finisher)
    if ending is Termination.EXIT_FORT:
        return lang.gettext("{move} closes an exit fort", move=finisher)
    if ending is Termination.ENCIRCLEMENT:
        return lang.gettext("{move} completes the encirclement", move=finisher)
    if ending is Termination.NO_LEGAL_MOVE:
        return lang.gettext("{move} leaves no legal move", move=finisher)
    return lang.gettext(
        "{move} wins ({ending})", move=finisher, ending=ending_text(ending, lang=lang)
    )


def forced_words(reason: OpenedRoads | ForcedWin, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a missed move would have won by force within two moves."""
    played = reason.played
    if isinstance(reason, OpenedRoads):
        squares = listed(reason.squares, lang=lang)
        if len(reason.squares) >= 2:
            return lang.gettext(
                "{played} would have opened two roads for the king ({squares}): one move "
                "cannot close both",
                played=played,
                squares=squares,
            )
        return lang.gettext(
            "{played} would have opened a road to {squares} that the attackers could not close",
            played=played,
            squares=squares,
        )
    if reason.opponent is None or reason.ending is None or reason.finisher is None:
        return lang.gettext("{played} would have won by force within two moves", played=played)
    finish = finished_words(reason.ending, reason.finisher, lang=lang)
    if reason.opponent is Side.ATTACKERS:
        return lang.gettext(
            "{played} would have won by force: whatever the attackers answer (say {reply}), "
            "{finish}",
            played=played,
            reply=reason.reply,
            finish=finish,
        )
    return lang.gettext(
        "{played} would have won by force: whatever the defenders answer (say {reply}), {finish}",
        played=played,
        reply=reason.reply,
        finish=finish,
    )


def lost_words(reason: LostByForce, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A move after which the opponent wins by force."""
    played, attackers = reason.played, reason.opponent is Side.ATTACKERS
    if reason.effect is not None:
        effect = effect_words(reason.effect, lang=lang)
        if reason.standing:
            if attackers:
                return lang.gettext(
                    "{played} does not stop {effect}, and the attackers win by force",
                    played=played,
                    effect=effect,
                )
            return lang.gettext(
                "{played} does not stop {effect}, and the defenders win by force",
                played=played,
                effect=effect,
            )
        if attackers:
            return lang.gettext(
                "{played} allows {effect}, and the attackers win by force",
                played=played,
                effect=effect,
            )
        return lang.gettext(
            "{played} allows {effect}, and the defenders win by force", played=played, effect=effect
        )
    answer = reason.answer
    if reason.standing:
        if attackers:
            return lang.gettext(
                "{played} does not stop the attackers' forced win, starting with {answer}",
                played=played,
                answer=answer,
            )
        return lang.gettext(
            "{played} does not stop the defenders' forced win, starting with {answer}",
            played=played,
            answer=answer,
        )
    if attackers:
        return lang.gettext(
            "{played} allows a forced win for the attackers, starting with {answer}",
            played=played,
            answer=answer,
        )
    return lang.gettext(
        "{played} allows a forced win for the defenders, starting with {answer}",
        played=played,
        answer=answer,
    )


def fell_words(reason: ChancesFell, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A move after which the mover's chances fell, and why when it shows on the board."""
    before, after = lang.percent(reason.before), lang.percent(reason.after)
    if reason.mover is Side.ATTACKERS:
        fall = lang.gettext(
            "the attackers' chances fall from {before} to {after}", before=before, after=after
        )
    else:
        fall = lang.gettext(
            "the defenders' chances fall from {before} to {after}", before=before, after=after
        )
    cause, played = reason.cause, reason.played
    if isinstance(cause, ForNothing):
        return lang.gettext("{cause}: {fall}", cause=for_nothing_words(cause, lang=lang), fall=fall)
    if isinstance(cause, Captures | OpensRoads):
        return lang.gettext(
            "{played} allows {effect}: {fall}",
            played=played,
            effect=effect_words(cause, lang=lang),
            fall=fall,
        )
    if isinstance(cause, KingGoes):
        # Named as the piece players watch, not as a side's move.
        return lang.gettext(
            "{played} lets the king go to {target}: {fall}",
            played=played,
            target=cause.target,
            fall=fall,
        )
    if isinstance(cause, Plays):
        if cause.side is Side.ATTACKERS:
            return lang.gettext(
                "{played} lets the attackers play {answer}: {fall}",
                played=played,
                answer=cause.answer,
                fall=fall,
            )
        return lang.gettext(
            "{played} lets the defenders play {answer}: {fall}",
            played=played,
            answer=cause.answer,
            fall=fall,
        )
    return lang.gettext("after {played} {fall}", played=played, fall=fall)


def for_nothing_words(reason: ForNothing, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """``d4-d5 loses the defender on c5 to e5-c5 for nothing``."""
    return lang.gettext(
        "{played} loses {taken} on {squares} to {answer} for nothing",
        played=reason.played,
        taken=pieces(reason.count, reason.owner, lang=lang),
        squares=listed(reason.squares, lang=lang),
        answer=reason.answer,
    )


def reason_words(reason: Reason, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why a move mattered, in a player's words: ``d4-d8 lets the king reach c9``."""
    if isinstance(reason, MissedFinish):
        return missed_finish_words(reason, lang=lang)
    if isinstance(reason, Allowed):
        return allowed_words(reason, lang=lang)
    if isinstance(reason, MissedDefence):
        threat = allowed_words(reason.threat, lang=lang)
        ending, defence = reason.threat.ending, reason.defence
        if ending is Termination.KING_ESCAPED:
            return lang.gettext(
                "{threat}; {defence} would have closed it", threat=threat, defence=defence
            )
        if ending in (Termination.KING_CAPTURED, Termination.GROUP_CAPTURED):
            return lang.gettext(
                "{threat}; {defence} would have saved him", threat=threat, defence=defence
            )
        return lang.gettext(
            "{threat}; {defence} would have stopped it", threat=threat, defence=defence
        )
    if isinstance(reason, Repeated):
        if reason.winner is None:
            return lang.gettext(
                "{played} repeats the position a third time: a draw", played=reason.played
            )
        if reason.winner.other is Side.ATTACKERS:
            return lang.gettext(
                "{played} repeats the position a third time, which loses for the attackers here",
                played=reason.played,
            )
        return lang.gettext(
            "{played} repeats the position a third time, which loses for the defenders here",
            played=reason.played,
        )
    if isinstance(reason, OpenedRoads | ForcedWin):
        return forced_words(reason, lang=lang)
    if isinstance(reason, ForNothing):
        return for_nothing_words(reason, lang=lang)
    if isinstance(reason, SlippedWin):
        return lang.ngettext(
            "{played} lets a forced win slip: {better} would have won within {count} move",
            "{played} lets a forced win slip: {better} would have won within {count} moves",
            reason.moves,
            played=reason.played,
            better=reason.better,
        )
    if isinstance(reason, LostByForce):
        return lost_words(reason, lang=lang)
    return fell_words(reason, lang=lang)


def player_and_side(
    names: dict[Side, str], side: Side, *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """``ann (attackers)``; a name that already ends in brackets takes the side inside them:
    ``Tafl AI (easy, defenders)``, not ``Tafl AI (easy) (defenders)``."""
    name = names[side]
    if name.endswith(")"):
        return f"{name[:-1]}, {side_name(side, lang)})"
    return f"{name} ({side_name(side, lang)})"


def moment_line(
    analysis: GameAnalysis,
    moment: Moment,
    names: dict[Side, str],
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> str:
    """One moment in a player's words: ``23… d4-d8 Bob (defenders), blunder: lets the king
    reach c9; better d4-d6.``"""
    explanation = reason_words(moment.reason, lang=lang)
    # The line starts with the move in bold: the explanation need not say it again where
    # its sentence begins with it (after any opening punctuation: ¡, «, a pseudo-locale's
    # mark), whatever the language.
    why = re.sub(rf"^(\W*){re.escape(moment.move)} ", r"\1", explanation, count=1)
    values = {
        "number": analysis.move_label(moment.ply),
        "move": moment.move,
        "player": player_and_side(names, moment.side, lang=lang),
        "kind": kind_name(moment.kind, lang),
        "why": why,
    }
    # An explanation that already names the better move ("d8-f8 would have closed it") needs
    # no second mention.
    if moment.better in explanation:
        return lang.gettext("**{number} {move}** {player}, {kind}: {why}.", **values)
    return lang.gettext(
        "**{number} {move}** {player}, {kind}: {why}; better **{better}**.",
        better=moment.better,
        **values,
    )


def listed_moments(
    analysis: GameAnalysis,
    names: dict[Side, str],
    room: int = FIELD_ROOM,
    moments: Sequence[Moment] | None = None,
    *,
    lang: Language = ENGLISH_LANGUAGE,
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
        size = len(moment_line(analysis, moment, names, lang=lang)) + 1  # and its line break
        if used + size > room:
            continue
        chosen.append(moment)
        used += size
    chosen.sort(key=lambda m: m.ply)
    lines = [moment_line(analysis, m, names, lang=lang) for m in chosen]
    return lines, len(given) - len(chosen)


def inaccuracies_text(
    analysis: GameAnalysis, names: dict[Side, str], *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """The inaccuracies, side by side, each as its move and what it cost: ``Ann (attackers):
    12. a4-a5 (−11%), 15. c3-c5 (−12%)`` (the table clips what does not fit a field)."""
    lines = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        mine = [m for m in analysis.moments if m.kind is MomentKind.INACCURACY and m.side is side]
        if mine:
            moves = ", ".join(
                f"{analysis.move_label(m.ply)} {m.move} (−{lang.percent(m.loss)})" for m in mine
            )
            lines.append(
                lang.gettext(
                    "{player}: {moves}",
                    player=player_and_side(names, side, lang=lang),
                    moves=moves,
                )
            )
    return "\n".join(lines)


def result_line(
    analysis: GameAnalysis,
    record: GameRecord,
    names: dict[Side, str],
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> str:
    """How the game ended, in words; a game given up in a position the engine liked for the side
    that gave it up says so (a resignation with a forced win on the board is worth knowing)."""
    reason = record.reason
    if record.result is None or record.result is GameResult.DRAW:
        return lang.gettext("Drawn ({how}).", how=ending_text(reason, lang=lang))
    winner = Side(record.result.value)
    loser = winner.other
    if not isinstance(reason, TableEnding) or reason not in _GAVE_UP:
        how = ending_text(reason, lang=lang)
        if winner is Side.ATTACKERS:
            return lang.gettext(
                "{winner} won with the attackers ({how}).", winner=names[winner], how=how
            )
        return lang.gettext(
            "{winner} won with the defenders ({how}).", winner=names[winner], how=how
        )
    line = gave_up_words(reason, player_and_side(names, loser, lang=lang), lang=lang)
    final = analysis.evals[-1]
    chance = analysis.win_chances()[-1]
    chance = chance if loser is Side.ATTACKERS else 1.0 - chance
    if final.for_side(loser) > MATE_BOUND:
        return lang.gettext(
            "{gave_up}, with a forced win on the board ({move} started it).",
            gave_up=line,
            move=final.best_move,
        )
    if chance >= 0.5:
        return lang.gettext(
            "{gave_up} where the engine gave them {chance} winning chances.",
            gave_up=line,
            chance=lang.percent(chance),
        )
    return lang.gettext("{gave_up}.", gave_up=line)


_GAVE_UP = (TableEnding.RESIGNATION, TableEnding.TIMEOUT, TableEnding.ABANDONED)
"""The endings at the table where the loser gave the game up."""


def gave_up_words(reason: TableEnding, player: str, *, lang: Language) -> str:
    """What the loser of a game ended at the table did: ``Ann (attackers) resigned``."""
    if reason is TableEnding.RESIGNATION:
        return lang.gettext("{player} resigned", player=player)
    if reason is TableEnding.TIMEOUT:
        return lang.gettext("{player} ran out of time", player=player)
    return lang.gettext("{player} left the game", player=player)


def accuracy_line(
    analysis: GameAnalysis, names: dict[Side, str], *, lang: Language = ENGLISH_LANGUAGE
) -> str:
    """Both sides' accuracy, or that a side made no move."""
    parts = []
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        accuracy = analysis.accuracy(side)
        player = player_and_side(names, side, lang=lang)
        if accuracy is None:
            parts.append(lang.gettext("{player}: no moves", player=player))
        else:
            figure = lang.percent(round(accuracy) / 100)
            parts.append(
                lang.gettext("{player}: {accuracy} accuracy", player=player, accuracy=figure)
            )
    return " · ".join(parts)


# ---------------------------------------------------------------------------- the images


def chart_words(lang: Language) -> ChartWords:
    """The words drawn on the review's chart, in the reader's language."""
    return ChartWords(
        attackers=lang.pgettext("board caption", "Attackers"),
        defenders=lang.pgettext("board caption", "Defenders"),
        accuracy=lang.pgettext("review chart", "accuracy"),
        kinds={kind: kind_name(kind, lang) for kind in MomentKind},
        no_moments=lang.pgettext("review chart", "no decisive mistakes"),
        on_board=(
            lang.pgettext("review chart", "shown on a board"),
            lang.pgettext("review chart", "on a board"),
        ),
        # The way the language writes a percentage, around the figure the chart gives.
        percent=lang.percent(0.5).replace(lang.number(50), "{value}"),
    )


CHART_WORDS = chart_words(ENGLISH_LANGUAGE)
"""The words drawn on the review's chart in English."""


def moment_status(
    analysis: GameAnalysis, ply: int, *, lang: Language = ENGLISH_LANGUAGE
) -> tuple[str | None, str | None]:
    """The better move drawn on the board before the ``ply``-th move, and the caption's words
    about it: the moment's kind and better move ("Missed win: better e5-e9") when the move was
    a moment, else the search's choice when it differs ("Better: e5-e9")."""
    moment = next((m for m in analysis.moments if m.ply == ply), None)
    if moment is not None:
        kind = capitalized(kind_name(moment.kind, lang))
        return moment.better, lang.gettext("{kind}: better {move}", kind=kind, move=moment.better)
    better = analysis.evals[ply - 1].best_move
    if better and better != analysis.moves[ply - 1]:
        return better, lang.gettext("Better: {move}", move=better)
    return better, None


def moment_picture(
    analysis: GameAnalysis,
    ply: int,
    names: dict[Side, str],
    look: BoardLook,
    game_id: int,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> Picture:
    """The position before the ``ply``-th move, with the move played and the better one as
    arrows, its caption naming the players and the moment."""
    game = Game(analysis.variant, analysis.start_position, analysis.first_turn)
    for text in analysis.moves:
        game.play(text)
    better, status = moment_status(analysis, ply, lang=lang)
    view = view_before_move(
        game,
        ply,
        better=better,
        status=status,
        caption=True,
        attackers=names[Side.ATTACKERS],
        defenders=names[Side.DEFENDERS],
        words=caption_words(lang),
    )
    return Picture(view, f"review-{game_id}-move-{ply}.png", look.theme, look.flip)


# ---------------------------------------------------------------------------- the review


def names_of(record: GameRecord, *, lang: Language) -> dict[Side, str]:
    """Both players' names, without a ping (the AI's in ``lang``)."""
    return {
        Side.ATTACKERS: plain_name(record.attackers, lang=lang),
        Side.DEFENDERS: plain_name(record.defenders, lang=lang),
    }


def review_card(
    analysis: GameAnalysis,
    record: GameRecord,
    length: str,
    *,
    lang: Language = ENGLISH_LANGUAGE,
) -> Card:
    """The review as a card: the result, both sides' accuracy, the decisive moments, the
    mistakes and the inaccuracies. ``length`` says how long the game was ("18 moves")."""
    names = names_of(record, lang=lang)
    title = lang.gettext(
        "Review of game #{game} ({variant}, {length})",
        game=record.id,
        variant=variant_title(analysis.variant, lang),
        length=length,
    )
    result = result_line(analysis, record, names, lang=lang)
    description = f"{result}\n{accuracy_line(analysis, names, lang=lang)}"
    fields: list[Field] = []
    decisive = [m for m in analysis.moments if m.kind.decisive]
    mistakes = [m for m in analysis.moments if m.kind is MomentKind.MISTAKE]
    left_out = 0
    if decisive:
        lines, left = listed_moments(analysis, names, moments=decisive, lang=lang)
        left_out += left
        # Only a game won on the board was decided by its moments; a draw, a resignation or
        # a timeout had them all the same.
        decided = (
            record.result not in (None, GameResult.DRAW)
            and record.outcome is not None
            and record.outcome.on_board
        )
        heading = (
            lang.gettext("The moments that decided it")
            if decided
            else lang.gettext("The key moments")
        )
        fields.append(Field(heading, "\n".join(lines), inline=False))
    if mistakes:
        lines, left = listed_moments(analysis, names, moments=mistakes, lang=lang)
        left_out += left
        heading = (
            lang.gettext("Mistakes")
            if decisive
            else lang.gettext("Mistakes (no single move decided the game)")
        )
        fields.append(Field(heading, "\n".join(lines), inline=False))
    if any(m.kind is MomentKind.INACCURACY for m in analysis.moments):
        inaccuracies = inaccuracies_text(analysis, names, lang=lang)
        fields.append(Field(lang.gettext("Inaccuracies"), inaccuracies, inline=False))
    footer = None
    if left_out:
        footer = lang.ngettext(
            "{count} more moment in the game record: {command} {option}:{game}",
            "{count} more moments in the game record: {command} {option}:{game}",
            left_out,
            command=lang.command("tafl export"),
            option=lang.pgettext("option name", "game"),
            game=record.id,
        )
    if not analysis.moments:
        fields.append(
            Field(
                lang.gettext("No decisive mistake"),
                lang.gettext(
                    "Neither side threw away a clear advantage: the result grew move by move."
                ),
                inline=False,
            )
        )
    return Card(title, description, fields=tuple(fields), footer=footer, picture=True)


def review(
    reviewed: Reviewed, look: BoardLook = PLAIN, *, lang: Language = ENGLISH_LANGUAGE
) -> list[Delivery]:
    """The review in place of the progress line: its card with the evaluation chart, and a
    board for each critical moment, drawn as the asker likes (``look``), in the words of the
    channel it is posted in (``lang``)."""
    record, analysis = reviewed.record, reviewed.analysis
    names = names_of(record, lang=lang)
    length = lang.ngettext("{count} move", "{count} moves", reviewed.full_moves)
    card = review_card(analysis, record, length, lang=lang)
    chart = Chart(analysis, f"review-{record.id}.png", look.theme, chart_words(lang))
    boards = tuple(
        moment_picture(analysis, moment.ply, names, look, record.id, lang=lang)
        for moment in analysis.critical
    )
    return [Revise(Post(card=card, pictures=(chart, *boards)))]


# ---------------------------------------------------------------------------- refusals


@refusal_words.register
def _(refusal: NoFinishedGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "No game has finished in this channel yet: name one, e.g. `{command} {option}:12`.",
        command=lang.command("tafl analyze"),
        option=lang.pgettext("option name", "game"),
    )


@refusal_words.register
def _(refusal: StillPlaying, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Game #{game} is still being played: it can be reviewed once it ends.",
        game=refusal.game_id,
    )


@refusal_words.register
def _(refusal: NoResult, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext(
        "Game #{game} ended without a result, so there is nothing to review.",
        game=refusal.game_id,
    )
