"""The web board's words and data: the state a page draws (plain JSON data, its sentences in
the reader's language), the pages that refuse a link, the private answer with a link.

The page has no English of its own: every word it shows comes in the state's ``words`` (see
:func:`page_words`), so the catalogues translate it as they translate the boards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import fields, replace

from bot.engine import Game, Piece, Side, square_name
from bot.render.theme import get_theme
from bot.storage import GameOutcome, GameStatus, TableEnding

from ...i18n.language import ENGLISH_LANGUAGE, N_, Language
from ..app.errors import Refusal
from ..app.games import GameState, Offer
from ..app.watch import Shown, UnknownGame
from .board import (
    GameAction,
    announcement,
    ending_words,
    look_of,
    plain_name,
    result_words,
    variant_title,
)
from .errors import refusal_words, slow_down
from .post import (
    Answer,
    Button,
    Control,
    Delivery,
    Edit,
    LinkButton,
    Message,
    OfferPost,
    Place,
    Post,
    Style,
    Update,
)

PIECES = {Piece.EMPTY: ".", Piece.ATTACKER: "a", Piece.DEFENDER: "d", Piece.KING: "k"}
"""A square of the state's ``board`` rows."""

WORDS: dict[str, str] = {
    "your_move": N_("Your move"),
    "their_move": N_("{name} to move"),
    "spectating": N_("You are watching this game."),
    "resign": N_("Resign"),
    "resign_confirm": N_("Resign this game? Your opponent wins."),
    "offer_draw": N_("Offer draw"),
    "accept_draw": N_("Accept draw"),
    "decline_draw": N_("Decline"),
    "draw_offered_you": N_("You offered a draw."),
    "draw_offered_them": N_("Your opponent offers a draw."),
    # Not Discord's "Take back": the page says that the opponent is asked.
    "takeback": N_("Ask your opponent for a takeback"),
    "accept_takeback": N_("Allow takeback"),
    "decline_takeback": N_("Decline"),
    "takeback_asked_you": N_("You asked to take back your last move."),
    "takeback_asked_them": N_("Your opponent asks to take back their last move."),
    "yes": N_("Yes"),
    "no": N_("No"),
    "attackers": N_("Attackers"),
    "defenders": N_("Defenders"),
    "piece_attacker": N_("attacker"),
    "piece_defender": N_("defender"),
    "piece_king": N_("king"),
    "empty_square": N_("empty square {square}"),
    "square_label": N_("{piece} on {square}"),
    "throne": N_("throne"),
    "corner": N_("corner"),
    "keyboard_help": N_(
        "Arrow keys move around the board; Enter or Space picks a piece, then its square."
    ),
    "legal_target": N_("{square}: a legal move"),
    "capture_target": N_("{square}: a legal move that captures"),
    "last_move": N_("Last move: {move}"),
    "opponent_moved": N_("{name} played {move}."),
    "captured": N_("captured {squares}"),
    "roads": N_("The king's open roads"),
    "clock": N_("{name}, {side}: time for this move"),
    "game_over": N_("Game over"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "connected": N_("Live"),
    "flip": N_("Flip board"),
    "ai": N_("Tafl AI"),
}
"""Every sentence and label the page shows, by key (the client reads these keys); the state
adds ``call_raichi`` or ``call_tuichi`` when the last move opened the king's roads: the
channel's own sentence for that move (which roads, to a corner or to the edge)."""


def page_words(shown: Shown, *, lang: Language = ENGLISH_LANGUAGE) -> dict[str, str]:
    """:data:`WORDS` in ``lang``, with the game's title and how its squares are named
    (``coordinates``); the placeholders that the page
    fills (``{name}``, ``{square}``, ``{piece}``, ``{move}``, ``{squares}``) are left for it."""
    size = shown.game.game.size
    words = {key: lang.translations.gettext(text) for key, text in WORDS.items()}
    words["coordinates"] = lang.gettext(
        "Files a to {last} from left to right, ranks 1 to {size} from bottom to top.",
        last=square_name(size - 1, size)[0],
        size=size,
    )
    variant = variant_title(shown.game.record.variant, lang)
    words["title"] = lang.gettext("{variant}: game #{id}", variant=variant, id=shown.game.id)
    return words


def _offer_side(game: GameState, offer: Offer | None) -> str | None:
    if offer is None:
        return None
    for side in Side:
        player = game.record.attackers if side is Side.ATTACKERS else game.record.defenders
        if player.user_id == offer.user_id:
            return side.value
    return None


def rows(game: Game) -> list[str]:
    """The board as rows of characters, the top rank first (as drawn), files left to right."""
    size = game.size
    cells = game.cells
    return [
        "".join(PIECES[Piece(cells[rank * size + file])] for file in range(size))
        for rank in reversed(range(size))
    ]


def legal_moves(game: Game) -> dict[str, list[dict[str, object]]]:
    """Every legal move of the side to move, by origin square, with what each captures."""
    size = game.size
    found: dict[str, list[dict[str, object]]] = {}
    for move in game.legal_moves():
        captures = [square_name(square, size) for square in game.captures_of(move)]
        found.setdefault(square_name(move.origin, size), []).append(
            {"to": square_name(move.target, size), "captures": captures}
        )
    return found


def theme_colours(theme: str) -> dict[str, str]:
    """The renderer's theme as CSS colours (``#rrggbb``, or ``#rrggbbaa`` with an opacity),
    so that the page draws the board the images draw."""
    chosen = get_theme(theme)
    colours: dict[str, str] = {"name": chosen.name}
    for field in fields(chosen):
        value = getattr(chosen, field.name)
        if isinstance(value, tuple) and all(isinstance(part, int) for part in value):
            colours[field.name] = "#" + "".join(f"{part:02x}" for part in value)
    return colours


def state(
    shown: Shown,
    *,
    you: Side | None,
    now_ms: int,
    lang: Language = ENGLISH_LANGUAGE,
) -> dict[str, object]:
    """The state JSON of the web board (see ``DESIGN-36.md``) for a viewer playing ``you``
    (``None``: watching), at ``now_ms`` (epoch milliseconds)."""
    game = shown.game
    engine = game.game
    record = game.record
    size = engine.size
    variant = engine.variant
    over = record.status.value != "active" or engine.is_over
    outcome = engine.outcome
    result: dict[str, object] | None = None
    stored = record.outcome
    ended = stored if stored is not None else None
    if over:
        winner = None
        text = lang.gettext("Game over")
        if ended is not None:
            winner = None if ended.winner is None else ended.winner.value
            text = result_for(ended, you, lang=lang)
        elif outcome is not None:
            winner = None if outcome.winner is None else outcome.winner.value
        result = {"winner": winner, "text": text, "next": after_the_game(game, you, lang=lang)}
    last = engine.history[-1] if engine.history else None
    call = None
    if last is not None and not over:
        call = "tuichi" if last.tuichi else "raichi" if last.raichi else None
    king = engine.king_square
    roads = []
    if king is not None and not over:
        roads = [[square_name(king, size), square_name(end, size)] for end in engine.king_routes()]
    clocks = None
    deadline = record.move_deadline
    if deadline is not None and not over and record.move_seconds:
        left = max(0, int(deadline.timestamp() * 1000) - now_ms)
        full = record.move_seconds * 1000
        turn = engine.turn
        clocks = {
            turn.value: left,
            turn.other.value: full,
            "running": turn.value,
            "at": now_ms,
        }
    words = page_words(shown, lang=lang)
    if call is not None and last is not None:
        said = announcement(last, size, lang=lang)
        if said is not None:
            words[f"call_{call}"] = plain(said)
    look = look_of(shown.preferences, you)
    players = {
        side.value: {
            "name": plain_name(player, lang=lang),
            "ai": player.is_ai,
        }
        for side, player in ((Side.ATTACKERS, record.attackers), (Side.DEFENDERS, record.defenders))
    }
    moving = not over and you is not None and engine.turn is you
    return {
        "game": game.id,
        "variant": variant.name,
        "title": variant_title(variant, lang),
        "size": size,
        "ply": engine.ply,
        "status": "over" if over else "playing",
        "result": result,
        "you": None if you is None else you.value,
        "turn": engine.turn.value,
        "players": players,
        "board": rows(engine),
        "squares": {
            "throne": [] if variant.throne is None else [square_name(variant.throne, size)],
            "corners": [square_name(square, size) for square in sorted(variant.corners)],
            "restricted": [square_name(square, size) for square in sorted(variant.camps)],
        },
        "legal": legal_moves(engine) if moving else {},
        "last": None
        if last is None
        else {
            "from": square_name(last.move.origin, size),
            "to": square_name(last.move.target, size),
            "captures": [square_name(square, size) for square in last.captures],
        },
        "roads": roads,
        "call": call,
        "clocks": clocks,
        "offers": {
            "draw": None if over else _offer_side(game, shown.draw_offer),
            "takeback": None if over else _offer_side(game, shown.takeback_offer),
        },
        "theme": theme_colours(look.theme),
        "flip": look.flip,
        "lang": lang.catalogue,
        "words": words,
    }


def result_for(ended: GameOutcome, you: Side | None, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The result as ``you`` read it: a player's own (``You won: your opponent resigned.``,
    ``You lost on time.``), a draw's and a spectator's (``None``) as the board's title says it."""
    if you is None or ended.winner is None:
        return result_words(ended, lang=lang)
    ending = ended.termination
    if ended.winner is you:
        if ending is TableEnding.RESIGNATION:
            return lang.gettext("You won: your opponent resigned.")
        if ending is TableEnding.TIMEOUT:
            return lang.gettext("You won: your opponent ran out of time.")
        if ending is TableEnding.ABANDONED:
            return lang.gettext("You won: your opponent left the game.")
        return lang.gettext("You won ({ending}).", ending=ending_words(ending.value, lang))
    if ending is TableEnding.RESIGNATION:
        return lang.gettext("You lost: you resigned.")
    if ending is TableEnding.TIMEOUT:
        return lang.gettext("You lost on time.")
    if ending is TableEnding.ABANDONED:
        return lang.gettext("You lost: you left the game.")
    return lang.gettext("You lost ({ending}).", ending=ending_words(ending.value, lang))


def after_the_game(
    game: GameState, you: Side | None, *, lang: Language = ENGLISH_LANGUAGE
) -> list[str]:
    """What to do once the game is over, as the final board in Discord offers it: a player's
    rematch (a tournament's game: the event pairs the next one), and the review of a game
    both sides moved in."""
    steps = []
    if game.in_event:
        steps.append(
            lang.gettext(
                "A tournament game: {pairings} in Discord shows the next round.",
                pairings=lang.command("tafl-tournament pairings"),
            )
        )
    elif you is not None:
        steps.append(
            lang.gettext(
                "Play again with the Rematch button under the game's board in Discord, "
                "or with {rematch}.",
                rematch=lang.command("tafl rematch"),
            )
        )
    if game.record.both_sides_moved and game.record.status is not GameStatus.ABORTED:
        steps.append(
            lang.gettext(
                "Go over the game move by move with {analyze} in Discord.",
                analyze=lang.command("tafl analyze"),
            )
        )
    return steps


MARKUP = re.compile(r"\*\*|__|`")
MENTION = re.compile(r"<@!?(\d+)>")


def plain(text: str, game: GameState | None = None) -> str:
    """A sentence written for Discord, for a web page: no bold or code marks, and a mention
    as the person's name."""

    def name(match: re.Match[str]) -> str:
        user = int(match.group(1))
        if game is not None:
            for player in (game.record.attackers, game.record.defenders):
                if player.user_id == user and player.display_name:
                    return player.display_name
        return ""

    return MENTION.sub(name, MARKUP.sub("", text))


@refusal_words.register
def _(refusal: UnknownGame, lang: Language = ENGLISH_LANGUAGE) -> str:
    return lang.gettext("This game does not exist: the link may be wrong.")


def refusal(found: Refusal, game: GameState | None, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Why the board will not do what was asked, for the page, in ``lang``."""
    return plain(refusal_words(found, lang), game)


def too_fast(seconds: float, *, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A page asking too often (the same limit as commands)."""
    return plain(slow_down(seconds, lang))


def spectators_cannot_act(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A spectator's link used to move or act."""
    return lang.gettext("This link only lets you watch the game: it cannot move.")


def busy(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Too many pages are open on this server at once."""
    return lang.gettext("The board is very busy right now: it will reconnect in a moment.")


def not_understood(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """A request the page should never send (a square or an action that does not exist)."""
    return lang.gettext("The board did not understand that request: reload the page.")


def link_page(
    kind: str, *, hours: int = 12, lang: Language = ENGLISH_LANGUAGE
) -> tuple[str, str, str | None]:
    """The title, the sentence saying why, and the next step (``None``: the page says it in
    its sentence) of the page a link that opens nothing gets (``forged``, ``expired``,
    ``unknown``; ``unavailable``: the database out of reach; ``starting``: the bot not serving
    its games yet); ``hours``: how long a link lasts."""
    again = lang.gettext(
        "Ask for a new link with the Open the board button under the game's board in Discord."
    )
    if kind == "expired":
        return (
            lang.gettext("This link has expired"),
            lang.gettext("Links to the board last {hours} hours.", hours=hours),
            again,
        )
    if kind == "unknown":
        return (
            lang.gettext("This game does not exist"),
            refusal(UnknownGame(), None, lang=lang),
            again,
        )
    if kind == "starting":
        return (
            lang.gettext("The board is starting"),
            lang.gettext("The bot has just started: this page opens by itself in a moment."),
            None,
        )
    if kind == "unavailable":
        return (
            lang.gettext("The board cannot be shown right now"),
            lang.gettext(
                "The bot cannot reach its games for a moment: reload this page in a minute."
            ),
            None,
        )
    return (
        lang.gettext("This link is not valid"),
        lang.gettext("It was changed or cut short."),
        again,
    )


def front_page(*, lang: Language = ENGLISH_LANGUAGE) -> tuple[str, str]:
    """The title and sentence of the web board's address opened on its own."""
    return lang.gettext("Tafl: the live board"), lang.gettext(
        "Open a game's board from Discord, with the Open the board button under the game's board."
    )


def open_board(
    url: str,
    player: bool,
    game_id: int,
    *,
    hours: int,
    activity: bool,
    launch_refused: bool = False,
    lang: Language = ENGLISH_LANGUAGE,
) -> Answer:
    """The private answer to the Open the board button: a link made for the person who
    clicked (a player's lets them move, anyone else's only watch), and where the bot has an
    Activity (``activity``), a button that opens the board inside Discord; after Play inside
    Discord where Discord would not open it (``launch_refused``), the link, saying why;
    ``hours``: how long the link lasts."""
    if player:
        words = lang.gettext(
            "Your board, live: move by clicking or dragging a piece. This link is yours alone: "
            "do not share it."
        )
    else:
        words = lang.gettext("The board, live: you can watch the game as it is played.")
    words += " " + lang.ngettext(
        "The link works for {count} hour.", "The link works for {count} hours.", hours
    )
    if launch_refused:
        words = (
            lang.gettext(
                "Discord cannot open the board inside Discord here: open it in your browser "
                "with this link instead."
            )
            + "\n"
            + words
        )
    controls: list[Control] = [LinkButton(url, lang.gettext("Open the board"), "🌐")]
    if activity:
        inside = GameAction(game_id, "activity").custom_id
        controls.append(Button(inside, lang.gettext("Play inside Discord"), Style.PRIMARY, "🎮"))
    return Answer(Post(content=words, controls=tuple(controls), private=True))


def activity_off(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The Activity opened on a bot that cannot sign anyone in (no client secret)."""
    return lang.gettext(
        "This bot cannot sign you in inside Discord yet: open the board with the Open the "
        "board button under the game's board instead."
    )


def sign_in_failed(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """Discord did not confirm who opened the Activity."""
    return lang.gettext("Discord could not confirm who you are: close the board and open it again.")


def no_web_game(*, lang: Language = ENGLISH_LANGUAGE) -> str:
    """The Activity opened in a channel without a game."""
    return lang.gettext(
        "There is no game in this channel. Start one with {challenge}, then open the board.",
        challenge=lang.command("tafl challenge"),
    )


def in_channel(
    deliveries: Iterable[Delivery], place: Place, clicked: int | None = None
) -> list[Delivery]:
    """Deliveries composed as the answer to a click or a command, for the same act done on the
    web board, where there is nothing to answer: what would have answered it publicly goes to
    the game's channel (``place``), what would have edited the message clicked edits that
    message (``clicked``, an offer's), and private answers are left out (the page shows what
    happened)."""
    found: list[Delivery] = []
    for delivery in deliveries:
        if isinstance(delivery, Update):
            if clicked is not None:
                found.append(Edit(place, clicked, delivery.post))
            else:
                found.append(Message(place, delivery.post))
        elif isinstance(delivery, Answer):
            if not delivery.post.private:
                found.append(Message(place, delivery.post))
        elif isinstance(delivery, OfferPost) and delivery.place is None:
            found.append(replace(delivery, place=place))
        else:
            found.append(delivery)
    return found
