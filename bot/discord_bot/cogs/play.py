"""Playing: /tafl move (with autocomplete), the click-to-move menus, board, resign, draw,
takeback, and the AI's replies."""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Game, Move, Piece, TaflError, parse_square, square_name
from bot.storage import DatabaseUnavailable, Participant, StorageError

from ..app.errors import UserError
from ..app.games import LiveGame, Offer, ResultNotRecorded, moves_to_take_back
from ..app.wording import plain_name
from ..limits import CHOICE_NAME, MAX_CHOICES, clip
from ..people import participant_of
from ..present import (
    describe_takeback,
    last_board_words,
    localize,
    mention,
    render_board,
    stranger,
    takeback_request,
)
from ..table import board_look, post_board, resolve_channel
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


MOVE_MAX_LENGTH = 40
"""Longer than any way of writing a move (``e11-e10xe9/d10/f10--``), far shorter than abuse."""
PIECE_PROMPT = "Which piece? (Or type `/tafl move`.)"
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
            m
            for m in moves
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


class Play(commands.Cog):
    """Moves, boards and the endings players choose."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
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
                self.bot.table.schedule_ai(live)

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
        live = await self.bot.table.live_game(channel_id)
        if live is None or live.side_of(interaction.user.id) is None:
            attempt = await self.bot.puzzles.open_go(interaction.user.id)
            if attempt is not None:
                await self.bot.puzzle_desk.move(interaction, attempt, move)
                return
        try:
            played = await self.bot.hub.play(channel_id, participant_of(interaction.user), move)
        except ResultNotRecorded as error:
            await interaction.response.send_message(str(error))  # public: both players must know
            return
        await self.bot.table.announce(played, interaction=interaction)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves for the player to move, filtered by what they typed (captures and king
        moves marked); anyone else gets one line saying whose turn it is."""
        try:
            live = await self.bot.table.live_game(interaction.channel_id or 0)
        except DatabaseUnavailable:
            live = None  # only a lost game's pick-up needed the database: the move will say
        if live is None or live.side_of(interaction.user.id) is None:
            attempt = await self.bot.puzzles.open_go(interaction.user.id)
            if attempt is not None:
                position = await self.bot.puzzles.position(attempt)
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
        if self.bot.hub.get(interaction.channel_id or 0) is None:
            # A player whose venue of a game across servers was deleted continues it here.
            adjourned = await self.bot.storage.games.adjourned_for(interaction.user.id)
            if adjourned is not None:
                await self.bot.lobby_desk.resume(interaction, *adjourned)
                return
        live = await self.bot.hub.require(interaction.channel_id or 0)
        if live.to_move.is_ai and not live.game.is_over:
            if self.bot.table.ai_thinking(live):
                raise UserError("The AI is thinking; its move comes with the next board.")
            await self.bot.table.ai_reply(live, last_board_words(live), interaction)
            return
        await post_board(
            self.bot,
            live,
            last_board_words(live),
            interaction=interaction,
            flip=flip,
            ping=False,
            only=live.venue_in(interaction.channel_id or 0),  # across servers: here only
        )

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        """The player gives up; the other side wins."""
        ended = await self.bot.hub.resign(interaction.channel_id or 0, interaction.user.id)
        await self.bot.table.announce_end(ended, interaction)

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
        if self.bot.table.ai_thinking(live):
            raise UserError(
                "The AI is thinking about its reply. Once it has moved, a takeback removes "
                "your move and its reply together."
            )
        taken = await self.bot.hub.take_back_against_ai(channel_id, interaction.user.id)
        await self.bot.table.withdraw_offers(live, taken.withdrawn, "a move was taken back")
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
        ping = discord.AllowedMentions(users=[discord.Object(opponent.user_id or 0)])
        side = live.side_of(interaction.user.id)
        theirs = None if side is None else live.venue(side.other)
        if side is not None and theirs is not None:
            # Across servers: the buttons go to the other player, in their own server.
            channel = await resolve_channel(self.bot, theirs.channel_id, theirs.guild_id)
            if channel is None:
                raise UserError("Your opponent's thread is gone; the game waits for them.")
            text = localize(
                f"{mention(opponent)}, {interaction.user.mention} {what}.", live, theirs
            )
            sent = await channel.send(
                text, view=offer_view(offer.kind, live.id, offer.ply), allowed_mentions=ping
            )
            await self.bot.hub.remember_offer_message(live, offer, sent.id)
            await interaction.response.send_message(
                f"{interaction.user.mention} {what}: {stranger(live, side.other)} answers in "
                "their server.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.bot.lobby_desk.changed(live.id)
            return
        callback = await interaction.response.send_message(
            f"{mention(opponent)}, {interaction.user.mention} {what}.",
            view=offer_view(offer.kind, live.id, offer.ply),
            allowed_mentions=ping,
        )
        if isinstance(callback.resource, discord.Message):
            await self.bot.hub.remember_offer_message(live, offer, callback.resource.id)

    async def _tell_asker(self, game_id: int, answerer: int, what: str) -> None:
        """Across servers, the asker learns the answer in their own venue."""
        live = self.bot.hub.by_id(game_id)
        side = None if live is None else live.side_of(answerer)
        if live is None or side is None or live.venue(side.other) is None:
            return
        asker_venue = live.venue(side.other)
        assert asker_venue is not None
        await self.bot.table.tell(asker_venue.channel_id, f"{stranger(live, side)} {what}.")
        await self.bot.lobby_desk.changed(live.id)

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
            await self.bot.table.announce_end(ended)

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
                live.record.channel_id,
                participant_of(interaction.user),
                text,
                expected_ply=menu.ply,
            )
        except ResultNotRecorded as error:
            await interaction.response.edit_message(content=f"You played `{text}`.", view=None)
            await self.bot.table.tell(error.channel_id, str(error))
            return
        # The move is committed: announce it even if the private menu cannot be edited.
        try:
            await interaction.response.edit_message(content=f"You played `{text}`.", view=None)
        finally:
            await self.bot.table.announce(played)

    async def on_offer_button(self, interaction: discord.Interaction, button: OfferButton) -> None:
        """The opponent answers a draw offer or a takeback request."""
        hub = self.bot.hub
        user_id, game_id, ply, accept = (
            interaction.user.id,
            button.game_id,
            button.ply,
            button.accept,
        )
        if button.kind == "draw":
            ended = await hub.answer_draw(game_id, user_id, ply, accept)
            if ended is None:
                await interaction.response.edit_message(
                    content=f"{interaction.user.mention} declined the draw.", view=None
                )
                await self._tell_asker(game_id, user_id, "declined the draw")
                return
            # The game has ended: announce it even if the offer cannot be edited.
            try:
                await interaction.response.edit_message(content="Draw agreed.", view=None)
            finally:
                await self.bot.table.announce_end(ended)
            return
        taken = await hub.answer_takeback(game_id, user_id, ply, accept)
        if taken is None:
            await interaction.response.edit_message(
                content=f"{interaction.user.mention} refused the takeback.", view=None
            )
            await self._tell_asker(game_id, user_id, "refused the takeback")
            return
        try:
            await interaction.response.edit_message(content="Takeback agreed.", view=None)
        finally:
            table = self.bot.table
            await table.withdraw_offers(taken.live, taken.withdrawn, "a move was taken back")
            await post_board(self.bot, taken.live, [describe_takeback(taken)])
