"""Playing: /tafl move (with autocomplete), the click-to-move menus, board, resign, draw,
takeback, and the AI's replies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import AIError
from bot.engine import Game, Move, MoveResult, Piece, Side, TaflError, parse_square, square_name
from bot.storage import DatabaseUnavailable, Participant, StorageError

from ..app.errors import UserError
from ..app.games import Ended, LiveGame, Offer, Played, ResultNotRecorded, moves_to_take_back
from ..app.wording import level_name, plain_name
from ..limits import CHOICE_NAME, CONTENT, clip
from ..present import (
    describe_end,
    describe_move,
    describe_takeback,
    last_board_words,
    mention,
    render_board,
    takeback_request,
)
from ..table import board_look, post_board, replace_controls, resolve_channel, strip_controls
from ..views import (
    ConfirmResignButton,
    GameButton,
    OfferButton,
    PieceSelect,
    TargetSelect,
    confirm_resign_view,
    offer_view,
    piece_view,
    target_view,
)

if TYPE_CHECKING:
    from ..client import TaflBot

log = logging.getLogger(__name__)


AI_RETRY_SECONDS = 2.0
TYPING_REFRESH = 8.0
"""Seconds between typing indicators while the AI thinks (Discord shows one for 10 s)."""
MOVE_MAX_LENGTH = 40
"""Longer than any way of writing a move (``e11-e10xe9/d10/f10--``), far shorter than abuse."""
PIECE_PROMPT = "Which piece? (Or type `/tafl move`.)"
AI_FAILED = (
    "The AI could not move because of a problem on our side; the game is safe. "
    "Use `/tafl board` to let it try again."
)


def ai_attempts(level: str) -> tuple[str, ...]:
    """The levels tried in turn when the AI fails to answer: twice as asked, then easy."""
    return (level, level, "easy")


MAX_CHOICES = 25
"""Discord's limit of autocomplete choices."""
WAIT_VALUE = "wait"
"""What a "not your turn" autocomplete line submits: the move is refused saying whose turn it
is (or, if the turn came round meanwhile, that "wait" is not a move)."""
NO_GAME_VALUE = "none"
"""What the "no game here" autocomplete line submits: refused with how to start a game."""
_SQUARE = re.compile(r"[a-z][0-9]{1,2}")


Choice = app_commands.Choice[str]


def move_label(game: Game, move: Move, *, mark_captures: bool = True) -> str:
    """A move as autocomplete shows it: ``K`` before a king move, ``×`` and the squares it
    captures after a capture (``Ke5-e7``, ``d1-d4 ×d5``), unless ``mark_captures`` is off."""
    size = game.size
    label = move.text(size)
    if game.piece_at(move.origin) is Piece.KING:
        label = "K" + label
    captures = game.captures_of(move) if mark_captures else ()
    if captures:
        label += " ×" + ",".join(square_name(sq, size) for sq in captures)
    return label


def move_choices(game: Game, typed: str, *, mark_captures: bool = True) -> list[Choice]:
    """The mover's legal moves matching what they typed, as autocomplete choices whose value is
    the plain move. Nothing typed lists captures first; a typed square lists that piece's moves,
    then the moves that end there; a square nothing can move from or to says why in one line.
    Without ``mark_captures`` (a puzzle, where finding them is the point) captures are neither
    marked nor listed first."""
    size = game.size
    moves = game.legal_moves()
    texts = {move: move.text(size) for move in moves}
    cleaned = typed.strip().lower().replace(" ", "").replace("to", "-")
    if cleaned.startswith("k") and _SQUARE.match(cleaned[1:]):
        cleaned = cleaned[1:]  # "Ke5" as the labels write king moves
    if cleaned:
        chosen = [
            m for m in moves
            if texts[m].startswith(cleaned) or texts[m].replace("-", "").startswith(cleaned)
        ]
        chosen += [
            m for m in moves if m not in chosen and texts[m].split("-")[1].startswith(cleaned)
        ]
        if not chosen:
            return [nothing_matches(game, cleaned, typed)]
    elif mark_captures:
        captures = {move: bool(game.captures_of(move)) for move in moves}
        chosen = sorted(moves, key=lambda move: not captures[move])
    else:
        chosen = moves
    return [
        app_commands.Choice(
            name=clip(move_label(game, move, mark_captures=mark_captures), CHOICE_NAME),
            value=texts[move],
        )
        for move in chosen[:MAX_CHOICES]
    ]


def nothing_matches(game: Game, cleaned: str, typed: str) -> Choice:
    """One line saying why no legal move matches what was typed; its value, if sent, is refused
    by the engine with the same reason."""
    side = game.turn.value
    square = None
    if _SQUARE.fullmatch(cleaned):
        try:
            square = parse_square(cleaned, game.size)
        except TaflError:
            square = None
    if square is None:
        name = f"No legal move of the {side} matches {typed.strip()!r}"
        value = typed.strip()[:MOVE_MAX_LENGTH] or "-"
        return app_commands.Choice(name=clip(name, CHOICE_NAME), value=value)
    where = square_name(square, game.size)
    piece = game.piece_at(square)
    if piece is Piece.EMPTY:
        name = f"{where}: no piece there, and none of the {side}' pieces can move there"
    elif piece.side is game.turn:
        name = f"{where}: this {piece.name.lower()} has no legal move now (it is blocked)"
    else:
        name = f"{where}: that is a piece of the {game.turn.other.value}; you play the {side}"
    return app_commands.Choice(name=clip(name, CHOICE_NAME), value=where)


def not_mover_choice(live: LiveGame, user_id: int) -> Choice:
    """The one line autocomplete shows to anyone but the player to move: whose turn it is."""
    side = live.game.turn.value
    player = live.to_move
    if live.side_of(user_id) is None:
        name = f"You are not playing in this game: {plain_name(player)} is to move ({side})"
    elif player.is_ai:
        name = f"The AI is to move ({side}); your moves show here once it has replied"
    else:
        name = f"It is {plain_name(player)}'s turn ({side}); your moves show here on your turn"
    return app_commands.Choice(name=clip(name, CHOICE_NAME), value=WAIT_VALUE)


def participant_of(user: discord.abc.User) -> Participant:
    """The storage participant for a Discord user."""
    return Participant.user(user.id, getattr(user, "display_name", None) or user.name)


class Play(commands.Cog):
    """Moves, boards and the endings players choose."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        # The AI's turn being thought about, by game id (at most one per game).
        self.thinking: dict[int, asyncio.Task[None]] = {}
        clicks = bot.clicks
        clicks.register(GameButton, self.on_game_button)
        clicks.register(OfferButton, self.on_offer_button)
        clicks.register(PieceSelect, self.on_piece_chosen)
        clicks.register(ConfirmResignButton, self.on_resign_confirmed)
        clicks.register(TargetSelect, self.on_target_chosen)

    async def cog_load(self) -> None:
        """Let the AI move in games where it was to move when the bot stopped."""
        for live in self.bot.hub.active():
            if live.to_move.is_ai:
                self.schedule_ai(live)

    # ------------------------------------------------------------------ /tafl move

    @app_commands.command(name="move", description="Play a move, e.g. e1-e4 (or just e4)")
    @app_commands.describe(
        move="From a square to a square, like e1-e4; typing a square lists its moves"
    )
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, MOVE_MAX_LENGTH],
    ) -> None:
        """Check the move with the engine, commit it, then post the new board. Someone not
        playing in this channel's game who has a puzzle open is moving in the puzzle."""
        channel_id = interaction.channel_id or 0
        live = await self.live_game(channel_id)
        if live is None or live.side_of(interaction.user.id) is None:
            # Imported here: the puzzles cog imports from this module.
            from .puzzles import Puzzles

            puzzles = self.bot.cog(Puzzles)
            attempt = await puzzles.open_go(interaction.user.id)
            if attempt is not None:
                await puzzles.move(interaction, attempt, move)
                return
        try:
            played = await self.bot.hub.play(channel_id, participant_of(interaction.user), move)
        except ResultNotRecorded as error:
            await interaction.response.send_message(str(error))  # public: both players must know
            return
        await self.announce(played, interaction=interaction)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves for the player to move, filtered by what they typed (captures and king
        moves marked); anyone else gets one line saying whose turn it is."""
        try:
            live = await self.live_game(interaction.channel_id or 0)
        except DatabaseUnavailable:
            live = None  # only a lost game's pick-up needed the database: the move will say
        if live is None or live.side_of(interaction.user.id) is None:
            from .puzzles import Puzzles  # as in move()

            puzzles = self.bot.cog(Puzzles)
            attempt = await puzzles.open_go(interaction.user.id)
            if attempt is not None:
                position = await puzzles.legal_moves(attempt)
                return move_choices(position, current, mark_captures=False)
        if live is None or live.game.is_over:
            why = "No game in this channel: start one with /tafl challenge or /tafl play"
            if live is None:
                with contextlib.suppress(StorageError):  # the line is only a courtesy
                    why = await self.bot.hub.last_ending(interaction.channel_id or 0) or why
            return [app_commands.Choice(name=clip(why, CHOICE_NAME), value=NO_GAME_VALUE)]
        if live.to_move.user_id != interaction.user.id:
            return [not_mover_choice(live, interaction.user.id)]
        return move_choices(live.game, current)

    # ------------------------------------------------------------------ board, resign, offers

    @app_commands.command(name="board", description="Post the current board again at the bottom")
    @app_commands.describe(flip="Show the board turned around (from the other side)")
    async def board(self, interaction: discord.Interaction, flip: bool = False) -> None:
        """Bump the board: a fresh message with the position and whose turn it is (naming the
        player to move without pinging them). If the AI is to move but not thinking (its last
        attempt failed), it tries again and the board comes with its move."""
        live = await self.bot.hub.require(interaction.channel_id or 0)
        if live.to_move.is_ai and not live.game.is_over:
            if self.ai_thinking(live):
                raise UserError("The AI is thinking; its move comes with the next board.")
            await self.ai_reply(live, last_board_words(live), interaction)
            return
        await post_board(
            self.bot, live, last_board_words(live), interaction=interaction, flip=flip, ping=False
        )

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        """The player gives up; the other side wins."""
        ended = await self.bot.hub.resign(interaction.channel_id or 0, interaction.user.id)
        await self.announce_end(ended, interaction)

    @app_commands.command(name="draw", description="Offer your opponent a draw")
    async def draw(self, interaction: discord.Interaction) -> None:
        """Post a draw offer with Accept/Decline buttons for the opponent."""
        live = await self.bot.hub.offer_draw(interaction.channel_id or 0, interaction.user.id)
        await self._post_offer(interaction, live, live.draw_offer, "offers a draw")

    @app_commands.command(name="takeback", description="Take back your last move")
    async def takeback(self, interaction: discord.Interaction) -> None:
        """Against the AI (unrated games): take back at once your last move and its reply.
        Against a person: post a takeback request; the opponent must agree."""
        await self._take_back(interaction, await self.bot.hub.require(interaction.channel_id or 0))

    async def _take_back(self, interaction: discord.Interaction, live: LiveGame) -> None:
        """`/tafl takeback` and the Take back button."""
        channel_id = live.record.channel_id
        if not live.against_ai:
            live = await self.bot.hub.offer_takeback(channel_id, interaction.user.id)
            side = live.side_of(interaction.user.id)
            assert side is not None  # offer_takeback checked it
            what = takeback_request(live, moves_to_take_back(live, side))
            await self._post_offer(interaction, live, live.takeback_offer, what)
            return
        if self.ai_thinking(live):
            raise UserError(
                "The AI is thinking about its reply. Once it has moved, a takeback removes "
                "your move and its reply together."
            )
        taken = await self.bot.hub.take_back_against_ai(channel_id, interaction.user.id)
        await self.withdraw_offers(live, taken.withdrawn, "a move was taken back")
        await post_board(
            self.bot, live, [describe_takeback(taken)], interaction=interaction, ping=False
        )

    async def _post_offer(
        self, interaction: discord.Interaction, live: LiveGame, offer: Offer | None, what: str
    ) -> None:
        """Post an offer with Accept/Decline for the opponent, pinging only them, and remember
        its message so it can be marked withdrawn when a move makes it pointless."""
        assert offer is not None
        opponent = self._opponent(live, interaction.user.id)
        callback = await interaction.response.send_message(
            f"{mention(opponent)}, {interaction.user.mention} {what}.",
            view=offer_view(offer.kind, live.id, offer.ply),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(opponent.user_id or 0)]
            ),
        )
        if isinstance(callback.resource, discord.Message):
            await self.bot.hub.remember_offer_message(live, offer, callback.resource.id)

    @staticmethod
    def _opponent(live: LiveGame, user_id: int) -> Participant:
        side = live.side_of(user_id)
        assert side is not None
        return live.participant(side.other)

    # ------------------------------------------------------------------ buttons and menus

    async def on_game_button(self, interaction: discord.Interaction, button: GameButton) -> None:
        """Move / Flip board / Offer draw / Take back / Resign under a board."""
        action = button.action
        live = await self.bot.hub.require_id(button.game_id)
        if action == "board":
            # The channel's board turned around, in the clicker's own theme.
            shown = await board_look(self.bot, live)
            mine = await board_look(self.bot, live, interaction.user.id)
            image = await render_board(live, flip=not shown.flip, theme=mine.theme)
            await interaction.response.send_message(file=image.file(), ephemeral=True)
            return
        if action == "resign":
            if live.side_of(interaction.user.id) is None:
                raise UserError("You are not playing in this game.")
            await interaction.response.send_message(
                f"Resign game #{live.id}? Your opponent wins.",
                view=confirm_resign_view(live.id),
                ephemeral=True,
            )
            return
        if action == "takeback":
            await self._take_back(interaction, live)
            return
        if action == "draw":
            await self.bot.hub.offer_draw(live.record.channel_id, interaction.user.id)
            await self._post_offer(interaction, live, live.draw_offer, "offers a draw")
            return
        self.bot.hub.check_mover(live, interaction.user.id)
        view = piece_view(live.id, live.game)
        if view is None:
            raise UserError("You have no legal move.")
        await interaction.response.send_message(PIECE_PROMPT, view=view, ephemeral=True)

    async def on_resign_confirmed(
        self, interaction: discord.Interaction, button: ConfirmResignButton
    ) -> None:
        """The second click of the Resign button."""
        live = await self.bot.hub.require_id(button.game_id)
        ended = await self.bot.hub.resign(live.record.channel_id, interaction.user.id)
        # The game has ended: announce it even if the private reply cannot be edited.
        try:
            await interaction.response.edit_message(content="You resigned.", view=None)
        finally:
            await self.announce_end(ended)

    async def on_piece_chosen(self, interaction: discord.Interaction, menu: PieceSelect) -> None:
        """Step two of click-to-move: show where the chosen piece can go."""
        live = await self.bot.hub.require_id(menu.game_id)
        origin = menu.choice
        if live.game.ply != menu.ply or origin is None:
            raise UserError("The position has changed; press Move again.")
        self.bot.hub.check_mover(live, interaction.user.id)
        view = target_view(live.id, live.game, origin)
        if view is None:
            raise UserError("That piece cannot move now.")
        await interaction.response.edit_message(
            content=f"Move {square_name(origin, live.game.size)} to…", view=view
        )

    async def on_target_chosen(self, interaction: discord.Interaction, menu: TargetSelect) -> None:
        """Last step of click-to-move: play it (or, with Back, choose another piece)."""
        live = await self.bot.hub.require_id(menu.game_id)
        target = menu.choice
        if menu.back:
            if live.game.ply != menu.ply:
                raise UserError("The position has changed; press Move again.")
            self.bot.hub.check_mover(live, interaction.user.id)
            await interaction.response.edit_message(
                content=PIECE_PROMPT, view=piece_view(live.id, live.game)
            )
            return
        if target is None:
            raise UserError("The position has changed; press Move again.")
        size = live.game.size
        text = f"{square_name(menu.origin, size)}-{square_name(target, size)}"
        try:
            played = await self.bot.hub.play(
                live.record.channel_id, participant_of(interaction.user), text,
                expected_ply=menu.ply,
            )
        except ResultNotRecorded as error:
            await interaction.response.edit_message(content=f"You played `{text}`.", view=None)
            await self._tell(error.channel_id, str(error))
            return
        # The move is committed: announce it even if the private menu cannot be edited.
        try:
            await interaction.response.edit_message(content=f"You played `{text}`.", view=None)
        finally:
            await self.announce(played)

    async def on_offer_button(self, interaction: discord.Interaction, button: OfferButton) -> None:
        """The opponent answers a draw offer or a takeback request."""
        hub = self.bot.hub
        user_id, game_id, ply, accept = (
            interaction.user.id, button.game_id, button.ply, button.accept
        )
        if button.kind == "draw":
            ended = await hub.answer_draw(game_id, user_id, ply, accept)
            if ended is None:
                await interaction.response.edit_message(
                    content=f"{interaction.user.mention} declined the draw.", view=None
                )
                return
            # The game has ended: announce it even if the offer cannot be edited.
            try:
                await interaction.response.edit_message(content="Draw agreed.", view=None)
            finally:
                await self.announce_end(ended)
            return
        taken = await hub.answer_takeback(game_id, user_id, ply, accept)
        if taken is None:
            await interaction.response.edit_message(
                content=f"{interaction.user.mention} refused the takeback.", view=None
            )
            return
        try:
            await interaction.response.edit_message(content="Takeback agreed.", view=None)
        finally:
            await self.withdraw_offers(taken.live, taken.withdrawn, "a move was taken back")
            await post_board(self.bot, taken.live, [describe_takeback(taken)])

    # ------------------------------------------------------------------ announcing

    async def announce(
        self, played: Played, *, interaction: discord.Interaction | None = None
    ) -> None:
        """Post the board after a committed move, or end the game. Against the AI the player's
        move and the AI's reply arrive as one board: the interaction is deferred while it
        thinks, so no "thinking" message is left behind."""
        live = played.live
        await self.withdraw_offers(live, played.withdrawn, "a move was played")
        if played.carried is not None:
            await self._carry_offer(live, played.carried, played.result)
        lines = describe_move(live, played.result)
        if played.finished is not None:
            self.bot.ai.cancel(str(live.id))
            lines += describe_end(live, played.finished)
            await post_board(
                self.bot, live, lines, interaction=interaction, finished=played.finished
            )
            return
        if live.to_move.is_ai:
            await self.ai_reply(live, lines, interaction)
            return
        await post_board(self.bot, live, lines, interaction=interaction)

    async def announce_end(
        self, ended: Ended, interaction: discord.Interaction | None = None
    ) -> None:
        """Post the final board for a game ended by the players or the clock (its words say
        how: a resignation, time, an agreed draw)."""
        self.bot.ai.cancel(str(ended.live.id))
        await self.withdraw_offers(ended.live, ended.withdrawn, "the game is over")
        lines = describe_end(ended.live, ended.finished)
        await post_board(
            self.bot, ended.live, lines, interaction=interaction, finished=ended.finished
        )

    async def _carry_offer(self, live: LiveGame, offer: Offer, result: MoveResult) -> None:
        """A draw offer made with a move stands: its buttons now answer it at the new ply."""
        if offer.message_id is None:
            return
        side = live.side_of(offer.user_id)
        assert side is not None
        opponent = live.participant(side.other)
        text = (
            f"{mention(opponent)}, {mention(live.participant(side))} offers a draw with their "
            f"move `{result.move.text(live.game.size)}`."
        )
        await replace_controls(
            self.bot,
            live.record.channel_id,
            offer.message_id,
            offer_view(offer.kind, live.id, offer.ply),
            text,
        )

    async def withdraw_offers(self, live: LiveGame, offers: Sequence[Offer], why: str) -> None:
        """Edit offers that are no longer valid so their buttons do not look usable."""
        for offer in offers:
            if offer.message_id is not None:
                what = "Draw offer" if offer.kind == "draw" else "Takeback request"
                await strip_controls(
                    self.bot, live.record.channel_id, offer.message_id, f"{what} withdrawn: {why}."
                )

    # ------------------------------------------------------------------ the AI

    async def open_game(
        self, live: LiveGame, lines: list[str], interaction: discord.Interaction | None
    ) -> None:
        """Post a new game's first board; when the AI moves first, its move comes on it."""
        if live.to_move.is_ai:
            await self.ai_reply(live, lines, interaction)
        else:
            await post_board(self.bot, live, lines, interaction=interaction)

    async def live_game(self, channel_id: int) -> LiveGame | None:
        """The channel's active game, picked up from the database if this process had lost
        track of it (:meth:`GameHub.recover`), with the AI set thinking if it is to move."""
        known = self.bot.hub.get(channel_id)
        if known is not None:
            return known
        live = await self.bot.hub.recover(channel_id)
        if live is not None and live.to_move.is_ai and not self.ai_thinking(live):
            self.schedule_ai(live)
        return live

    def schedule_ai(self, live: LiveGame, lines: Sequence[str] = ()) -> None:
        """Let the AI move in the background (after a restart, or when a game starts with the
        AI to move and nobody is waiting on an interaction)."""
        self.bot.spawn(self.ai_reply(live, list(lines), None), f"ai-game-{live.id}")

    def ai_thinking(self, live: LiveGame) -> bool:
        """Whether the AI is working on a move in this game right now."""
        running = self.thinking.get(live.id)
        return running is not None and not running.done()

    async def ai_reply(
        self, live: LiveGame, lines: list[str], interaction: discord.Interaction | None
    ) -> None:
        """Let the AI move (in its worker process: the event loop stays free) and post one
        board with ``lines`` (what led here, e.g. the player's move) and the AI's move. Only one
        search runs per game; a second caller just waits for it."""
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        running = self.thinking.get(live.id)
        if running is not None and not running.done():
            await asyncio.shield(running)
            return
        # A background task of the bot's (so a shutdown cancels it) that the interaction waits
        # for; shielded so that cancelling the interaction alone does not cut the AI's turn.
        task = self.bot.spawn(self._ai_turn(live, lines, interaction), f"ai-game-{live.id}")
        self.thinking[live.id] = task
        task.add_done_callback(lambda _: self._forget(live.id, task))
        await asyncio.shield(task)

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self.thinking.get(game_id) is task:
            del self.thinking[game_id]

    async def _ai_turn(
        self, live: LiveGame, lines: list[str], interaction: discord.Interaction | None
    ) -> None:
        """Whatever goes wrong, the players are told in a sentence (with the board as it is)
        and the log gets the traceback; the game stays as it was."""
        # Without a deferred interaction to show "thinking", the channel shows the bot typing
        # (it leaves nothing behind: the board ends it).
        typing = None if interaction is not None else self._show_typing(live)
        try:
            outcome = await self._ai_move(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the AI's turn in game %d failed", live.id)
            outcome = AI_FAILED
        finally:
            if typing is not None:
                typing.cancel()
            # Thinking is over once the move is played (or given up): from here on another
            # request may start a new search, while this one posts the board.
            task = asyncio.current_task()
            if task is not None:
                self._forget(live.id, task)
        if isinstance(outcome, str):
            await self._post_or_tell(live, [*lines, outcome], interaction)
            return
        if outcome is None:  # the game ended or moved on while the AI thought
            if interaction is not None and lines:
                await interaction.followup.send(clip("\n".join(lines), CONTENT))
            return
        await self.withdraw_offers(live, outcome.withdrawn, "a move was played")
        lines = lines + describe_move(live, outcome.result)
        if outcome.finished is not None:
            lines += describe_end(live, outcome.finished)
        await post_board(
            self.bot, live, lines, interaction=interaction, finished=outcome.finished
        )

    def _show_typing(self, live: LiveGame) -> asyncio.Task[None]:
        """Show the bot typing in the game's channel until the task is cancelled."""
        return asyncio.create_task(self._keep_typing(live.record.channel_id))

    async def _keep_typing(self, channel_id: int) -> None:
        channel = await resolve_channel(self.bot, channel_id)
        if channel is None:
            return
        while True:
            try:
                await channel.typing()  # shown for up to 10 s, or until the bot's next message
            except discord.HTTPException as error:  # a courtesy: never worth failing a move
                log.info("could not show typing in channel %d: %s", channel_id, error)
                return
            await asyncio.sleep(TYPING_REFRESH)

    async def _post_or_tell(
        self, live: LiveGame, lines: list[str], interaction: discord.Interaction | None
    ) -> None:
        """The board with ``lines`` if the game is still on, else just the sentences."""
        if self.bot.hub.by_id(live.id) is live:
            await post_board(self.bot, live, lines, interaction=interaction)
        elif interaction is not None:
            await interaction.followup.send(clip("\n".join(lines), CONTENT))
        else:
            await self._tell(live.record.channel_id, "\n".join(lines))

    async def _ai_move(self, live: LiveGame) -> Played | str | None:
        """The AI's move, played: a :class:`Played`, a sentence saying why there is none, or
        ``None`` when the game ended or moved on while it thought."""
        player = live.to_move
        assert player.ai_level is not None
        game = live.game
        ply = game.ply
        text = None
        # A failed search (a worker that died twice, no answer in time) is retried, last at the
        # easiest level, so a game against the AI never waits for a restart.
        for attempt, level in enumerate(ai_attempts(level_name(player.ai_level))):
            try:
                text = await self.bot.ai.choose_move(
                    variant=live.record.variant,
                    start_position=live.record.start_position,
                    start_turn=Side(live.record.first_turn),
                    moves=[result.move.text(game.size) for result in game.history],
                    level=level,
                    game_key=str(live.id),
                )
                break
            except asyncio.CancelledError:
                if self.bot.hub.by_id(live.id) is live:
                    raise  # the bot is shutting down, not the game ending
                return None
            except AIError as error:
                log.warning("AI failed in game %d, attempt %d: %s", live.id, attempt + 1, error)
                await asyncio.sleep(AI_RETRY_SECONDS * (attempt + 1))
        if self.bot.hub.by_id(live.id) is not live or live.game.ply != ply:
            return None
        if text is None:
            log.error("the AI gave up in game %d", live.id)
            return AI_FAILED
        try:
            return await self.bot.hub.play(live.record.channel_id, player, text, expected_ply=ply)
        except ResultNotRecorded as error:
            return str(error)
        except (UserError, StorageError) as error:
            if self.bot.hub.by_id(live.id) is not live or live.game.ply != ply:
                return None  # the game ended or moved on meanwhile: nothing went wrong
            log.error("the AI's move %s in game %d was refused: %s", text, live.id, error)
            return AI_FAILED

    async def _tell(self, channel_id: int, sentence: str) -> None:
        """A plain message to a game's channel; a failure to deliver it is only logged."""
        channel = await resolve_channel(self.bot, channel_id)
        if channel is None:
            return
        try:
            await channel.send(clip(sentence, CONTENT))
        except discord.HTTPException as error:
            log.warning("could not post to channel %d: %s", channel_id, error)
