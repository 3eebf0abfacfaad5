"""Playing: /tafl move (with its suggestions), the click-to-move menus, board, resign, draw,
takeback and the AI's replies; and for every feature that changes a game (a challenge
accepted, the clocks, the lobby, tournaments) the announcement of what happened.

A thin adapter: each handler reads the interaction, asks the games service (or the AI's turns)
for what happens, has the composition (:mod:`..compose.board`) put it in words and boards, and
hands that to the table to send. No rule, no sentence and no storage here.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import DatabaseUnavailable, GameRecord, PuzzleAttempt, StorageError, Venue

from ...i18n.language import Language
from ..app.ai_turns import AIReply, AITurns
from ..app.errors import Refused
from ..app.games import (
    Declined,
    Ended,
    GameHub,
    GameState,
    LiveGame,
    NoLegalMove,
    OfferMade,
    PieceStuck,
    Played,
    ResultNotRecorded,
    StaleMenu,
)
from ..app.puzzles import PuzzleSessions
from ..compose import board, web
from ..compose.board import (
    BACK,
    MOVE_MAX_LENGTH,
    ConfirmResign,
    GameAction,
    Lines,
    OfferAnswer,
    PieceChoice,
    TargetChoice,
)
from ..compose.post import Answer, Delivery, Place, Update
from ..table import Table, choices, participant_of

log = logging.getLogger(__name__)

PuzzleMove = Callable[[discord.Interaction, PuzzleAttempt, str], Awaitable[None]]
"""Play a move in a person's puzzle (the puzzles cog)."""
Resume = Callable[[discord.Interaction, GameRecord, Venue], Awaitable[None]]
"""Continue here a game across servers whose venue was deleted (the lobby's desk)."""


def answering(interaction: discord.Interaction) -> int:
    """The channel a board that answers ``interaction`` is shown in."""
    return interaction.channel_id or 0


BoardLink = Callable[[int, int, bool], str]
"""The web board's link to a game for a person, as a player (``True``) or a spectator."""


def place_of(game: GameState, user_id: int) -> Place:
    """Where ``user_id`` plays a game: its channel, or across servers their venue."""
    for found in game.venues:
        side = game.record.attackers if found.side == "attackers" else game.record.defenders
        if side.user_id == user_id:
            return Place(found.channel_id, found.guild_id)
    return Place(game.record.channel_id)


def ai_to_move(game: GameState) -> bool:
    """Whether the AI is to move in a game still being played."""
    return not game.game.is_over and game.record.player(game.game.turn.value).is_ai


class Play(commands.Cog):
    """Moves, boards and the endings players choose; what happens in games, announced."""

    def __init__(
        self,
        games: GameHub,
        table: Table,
        ai: AITurns,
        puzzles: PuzzleSessions,
        *,
        puzzle_move: PuzzleMove,
        resume: Resume,
    ) -> None:
        self.games = games
        self.table = table
        self.ai = ai
        self.puzzles = puzzles
        self._puzzle_move = puzzle_move
        self._resume = resume
        self.board_link: BoardLink | None = None
        """The web board's links (set by the client when the bot serves one)."""
        self.link_hours = 0
        """How long a link to the web board lasts, in hours (set with :attr:`board_link`)."""
        table.on(GameAction, self.on_game_button)
        table.on(OfferAnswer, self.on_offer_button)
        table.on(PieceChoice, self.on_piece_chosen)
        table.on(ConfirmResign, self.on_resign_confirmed)
        table.on(TargetChoice, self.on_target_chosen)

    async def cog_load(self) -> None:
        """Let the AI move in games where it was to move when the bot stopped."""
        for live in self.games.active():
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
            attempt = await self.puzzles.open_go(interaction.user.id)
            if attempt is not None:
                await self._puzzle_move(interaction, attempt, move)
                return
        try:
            played = await self.games.play(channel_id, participant_of(interaction.user), move)
        except ResultNotRecorded as error:  # public: both players must know
            lang = await self.table.interaction_language(interaction)
            words = board.not_recorded(error.unsaved, clicked=False, lang=lang)
            await self.table.deliver(interaction, words)
            return
        await self.announce(played, interaction)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves for the player to move, filtered by what they typed (captures and king
        moves marked); anyone else gets one line saying whose turn it is."""
        channel_id = interaction.channel_id or 0
        lang = self.table.reader(interaction)
        try:
            live = await self.live_game(channel_id)
        except DatabaseUnavailable:
            live = None  # only a lost game's pick-up needed the database: the move will say
        if live is None or live.side_of(interaction.user.id) is None:
            attempt = await self.puzzles.open_go(interaction.user.id)
            if attempt is not None:
                position = await self.puzzles.position(attempt)
                return choices(
                    board.move_choices(position, current, mark_captures=False, lang=lang)
                )
        if live is None or live.game.is_over:
            ended = None
            if live is None:
                with contextlib.suppress(StorageError):  # the line is only a courtesy
                    ended = await self.games.last_ended(channel_id)
            return choices([board.no_game_choice(ended, lang=lang)])
        if live.to_move.user_id != interaction.user.id:
            game = self.games.peek(live)
            return choices([board.not_mover_choice(game, interaction.user.id, lang=lang)])
        return choices(board.move_choices(live.game, current, lang=lang))

    # ------------------------------------------------------------------ board, resign, offers

    @app_commands.command(name="board", description="Post the current board again at the bottom")
    @app_commands.describe(flip="Show the board turned around (from the other side)")
    async def board(self, interaction: discord.Interaction, flip: bool = False) -> None:
        """Bump the board: a fresh message with the position and whose turn it is (naming the
        player to move without pinging them). If the AI is to move but not thinking (its last
        attempt failed), it tries again and the board comes with its move."""
        channel_id = interaction.channel_id or 0
        if self.games.get(channel_id) is None:
            # A player whose venue of a game across servers was deleted continues it here.
            adjourned = await self.games.adjourned_for(interaction.user.id)
            if adjourned is not None:
                await self._resume(interaction, *adjourned)
                return
        live = await self.games.require(channel_id)
        game = self.games.peek(live)
        lang = await self.board_language(game)
        if ai_to_move(game):
            self.ai.check_idle(live.id)
            await self._ai_reply(game, board.last_board_words(game, lang=lang), interaction)
            return
        here = next((v for v in live.venues if v.channel_id == channel_id), None)
        await self.show(
            live,
            board.last_board_words(game, lang=lang),
            interaction=interaction,
            flip=flip,
            ping=False,
            only=None if here is None else here.side,  # across servers: here only
        )

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        """The player gives up; the other side wins."""
        ended = await self.games.resign(interaction.channel_id or 0, interaction.user.id)
        await self.announce_end(ended, interaction)

    @app_commands.command(name="draw", description="Offer your opponent a draw")
    async def draw(self, interaction: discord.Interaction) -> None:
        """Post a draw offer with Accept/Decline buttons for the opponent."""
        made = await self.games.offer_draw(interaction.channel_id or 0, interaction.user.id)
        await self._offer(interaction, made)

    async def _offer(self, interaction: discord.Interaction | None, made: OfferMade) -> None:
        """A draw offer or takeback request, put to the opponent in the game's language (made
        on the web board, without ``interaction``: in the asker's channel)."""
        if interaction is None:
            lang = await self.board_language(made.game)
        else:
            lang = await self.table.interaction_language(interaction)
        venue_langs = await self.venue_languages(made.game)
        deliveries = board.offer_posts(made, lang=lang, venue_langs=venue_langs)
        if interaction is None:
            deliveries = web.in_channel(deliveries, place_of(made.game, made.offer.user_id))
        await self.table.deliver(interaction, deliveries)

    @app_commands.command(name="takeback", description="Take back your last move")
    async def takeback(self, interaction: discord.Interaction) -> None:
        """Against the AI (unrated games): take back at once your last move and its reply.
        Against a person: post a takeback request; the opponent must agree."""
        live = await self.games.require(interaction.channel_id or 0)
        await self._take_back(interaction, live, interaction.user.id)

    async def _take_back(
        self, interaction: discord.Interaction | None, live: LiveGame, user_id: int
    ) -> None:
        """`/tafl takeback`, the Take back button, and the web board's."""
        channel_id = live.record.channel_id
        if not live.against_ai:
            made = await self.games.offer_takeback(channel_id, user_id)
            await self._offer(interaction, made)
            return
        self.ai.check_idle(live.id, takeback=True)
        taken = await self.games.take_back_against_ai(channel_id, user_id)
        lang = await self.board_language(taken.game)
        deliveries = board.after_takeback(
            taken,
            reply_in=None if interaction is None else answering(interaction),
            ping=False,
            lang=lang,
            venue_langs=await self.venue_languages(taken.game),
        )
        await self.table.deliver(interaction, deliveries)

    # ------------------------------------------------------------------ buttons and menus

    async def on_game_button(self, interaction: discord.Interaction, button: GameAction) -> None:
        """Move / Flip board / Offer draw / Take back / Resign under a board."""
        action, user_id = button.action, interaction.user.id
        reader = self.table.reader(interaction)
        if action == "board":
            game = await self.games.state_of(button.game_id, user_id)
            turned = board.flipped_board(game, user_id, lang=reader)
            await self.table.deliver(interaction, [turned])
            return
        if action == "web":
            await self._open_board(interaction, button.game_id)
            return
        if action == "activity":
            await self._launch_activity(interaction, button.game_id)
            return
        if action == "resign":
            game = await self.games.player_in(button.game_id, user_id)
            await self.table.deliver(interaction, [board.resign_question(game.id, lang=reader)])
            return
        if action in ("takeback", "draw"):
            live = await self.games.require_id(button.game_id)
            if action == "takeback":
                await self._take_back(interaction, live, user_id)
                return
            made = await self.games.offer_draw(live.record.channel_id, user_id)
            await self._offer(interaction, made)
            return
        game = await self.games.mover_at(button.game_id, user_id)
        prompt = board.piece_prompt(game, lang=reader)
        if not prompt.controls:
            raise Refused(NoLegalMove())
        await self.table.deliver(interaction, [Answer(prompt)])

    async def on_resign_confirmed(
        self, interaction: discord.Interaction, button: ConfirmResign
    ) -> None:
        """The second click of the Resign button."""
        live = await self.games.require_id(button.game_id)
        ended = await self.games.resign(live.record.channel_id, interaction.user.id)
        # The game has ended: announced even if the private reply cannot be edited.
        self.ai.cancel(ended.game.id)
        lang = await self.board_language(ended.game)
        resigned = board.resigned(lang=self.table.reader(interaction))
        venue_langs = await self.venue_languages(ended.game)
        final = board.after_end(ended, lang=lang, venue_langs=venue_langs)
        await self.table.deliver(interaction, [resigned, *final])

    async def on_piece_chosen(self, interaction: discord.Interaction, menu: PieceChoice) -> None:
        """Step two of click-to-move: show where the chosen piece can go."""
        game = await self.games.mover_at(menu.game_id, interaction.user.id, menu.ply)
        origin = board.chosen_square(menu.values)
        if origin is None:
            raise Refused(StaleMenu())
        prompt = board.target_prompt(game, origin, lang=self.table.reader(interaction))
        if not prompt.controls:
            raise Refused(PieceStuck())
        await self.table.deliver(interaction, [Update(prompt)])

    async def on_target_chosen(self, interaction: discord.Interaction, menu: TargetChoice) -> None:
        """Last step of click-to-move: play it (or, with Back, choose another piece)."""
        if menu.values == (BACK,):
            game = await self.games.mover_at(menu.game_id, interaction.user.id, menu.ply)
            prompt = board.piece_prompt(game, lang=self.table.reader(interaction))
            await self.table.deliver(interaction, [Update(prompt)])
            return
        player = participant_of(interaction.user)
        target = board.chosen_square(menu.values)
        if target is None:
            raise Refused(StaleMenu())
        try:
            played = await self.games.play_squares(
                menu.game_id, player, menu.origin, target, menu.ply
            )
        except ResultNotRecorded as error:
            lang = await self.table.interaction_language(interaction)
            words = board.not_recorded(error.unsaved, clicked=True, lang=lang)
            await self.table.deliver(interaction, words)
            return
        # The move is committed: announced even if the private menu cannot be edited.
        await self.announce(played, interaction, clicked=True)

    async def on_offer_button(self, interaction: discord.Interaction, button: OfferAnswer) -> None:
        """The opponent answers a draw offer or a takeback request."""
        deliveries = await self._answer_offer(
            interaction, button.kind, button.game_id, interaction.user.id, button.ply, button.accept
        )
        await self.table.deliver(interaction, deliveries)

    async def _answer_offer(
        self,
        interaction: discord.Interaction | None,
        kind: str,
        game_id: int,
        user_id: int,
        ply: int,
        accept: bool,
    ) -> list[Delivery]:
        """What answering an offer does, as deliveries answering its button (``interaction``;
        ``None``: answered on the web board)."""
        deliveries: list[Delivery]
        if kind == "draw":
            ended = await self.games.answer_draw(game_id, user_id, ply, accept)
            lang = await self.board_language(ended.game)
            if isinstance(ended, Declined):
                deliveries = await self._declined(interaction, ended)
            else:
                # The game has ended: announced even if the offer cannot be edited.
                self.ai.cancel(ended.game.id)
                venue_langs = await self.venue_languages(ended.game)
                deliveries = [
                    board.agreed("draw", lang=lang),
                    *board.after_end(ended, lang=lang, venue_langs=venue_langs),
                ]
        else:
            taken = await self.games.answer_takeback(game_id, user_id, ply, accept)
            lang = await self.board_language(taken.game)
            if isinstance(taken, Declined):
                deliveries = await self._declined(interaction, taken)
            else:
                after = board.after_takeback(
                    taken,
                    lang=lang,
                    mover_lang=await self.mover_language(taken.game),
                    venue_langs=await self.venue_languages(taken.game),
                )
                deliveries = [board.agreed("takeback", lang=lang), *after]
        return deliveries

    async def _declined(
        self, interaction: discord.Interaction | None, refusal: Declined
    ) -> list[Delivery]:
        """An offer declined, said where it was made (the channel clicked in) and, across
        servers, in the asker's venue: each in its server's language."""
        if interaction is None:
            lang = await self.board_language(refusal.game)
        else:
            lang = await self.table.interaction_language(interaction)
        return board.declined(
            refusal, lang=lang, venue_langs=await self.venue_languages(refusal.game)
        )

    # ------------------------------------------------------------------ the web board

    async def _open_board(
        self, interaction: discord.Interaction, game_id: int, *, launch_refused: bool = False
    ) -> None:
        """The Open the board button: a private link made for the person who clicked (a
        player's link for a player of the game, else a spectator's), and where the app has an
        Activity, a button that opens the board inside Discord (not again after Discord
        refused to open it: ``launch_refused``)."""
        if self.board_link is None:  # a button from when the bot served a web board
            raise Refused(StaleMenu())
        state = await self.games.state_of(game_id, interaction.user.id)
        playing = board.side_of(state, interaction.user.id) is not None
        url = self.board_link(game_id, interaction.user.id, playing)
        inside = not launch_refused and self.table.has_activity()
        reader = self.table.reader(interaction)
        answer = web.open_board(
            url,
            playing,
            game_id,
            hours=self.link_hours,
            activity=inside,
            launch_refused=launch_refused,
            lang=reader,
        )
        await self.table.deliver(interaction, [answer])

    async def _launch_activity(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Play inside Discord button (under a link to the board, where the app has an
        Activity): the Activity, opened for the person; where Discord will not open it, the
        link again."""
        if not await self.table.launch_activity(interaction):
            await self._open_board(interaction, game_id, launch_refused=True)

    async def act(self, game_id: int, user_id: int, action: str, ply: int) -> None:
        """An action taken on the web board (``action``: ``resign``, ``offer_draw``,
        ``accept_draw``, ``decline_draw``, ``takeback``, ``accept_takeback`` or
        ``decline_takeback``) by ``user_id`` at ``ply``: done through the games service as
        its command or button does it, and told in the game's channel alike (the offer's
        message loses its buttons when it is answered)."""
        live = await self.games.require_id(game_id)
        if live.game.ply != ply:
            raise Refused(StaleMenu())
        channel_id = live.record.channel_id
        if action == "resign":
            await self.announce_end(await self.games.resign(channel_id, user_id))
        elif action == "offer_draw":
            await self._offer(None, await self.games.offer_draw(channel_id, user_id))
        elif action == "takeback":
            await self._take_back(None, live, user_id)
        else:
            answer, kind = action.split("_", 1)
            offer = live.draw_offer if kind == "draw" else live.takeback_offer
            clicked = None if offer is None else offer.message_id
            deliveries = await self._answer_offer(
                None, kind, game_id, user_id, ply, answer == "accept"
            )
            place = place_of(self.games.peek(live), offer.user_id if offer else user_id)
            await self.table.deliver(None, web.in_channel(deliveries, place, clicked))

    # ------------------------------------------------------------------ what happens, announced

    async def announce(
        self,
        played: Played,
        interaction: discord.Interaction | None = None,
        *,
        clicked: bool = False,
    ) -> None:
        """The board after a committed move (the final one when it ended the game), as the
        answer to ``interaction`` unless the move was chosen in the menus (``clicked``: their
        message says it was played, the board goes to the channel). Against the AI the
        player's move and the AI's reply arrive on one board: the interaction is deferred
        while it thinks, so no "thinking" message is left behind."""
        game = played.game
        lang = self.played_language(played, game.record.guild_id)
        # Only the menu's own words, after a click, are the mover's alone.
        reader = self.table.reader(interaction) if clicked and interaction is not None else lang
        if played.finished is not None:
            self.ai.cancel(game.id)
        elif ai_to_move(game):
            first = board.offers_after_move(played, lang=lang)
            if clicked:
                move = played.result.move.text(game.game.size)
                first.insert(0, board.you_played(move, lang=reader))
            await self.table.deliver(interaction, first)
            answered = None if clicked else interaction
            await self._ai_reply(game, board.move_words(played, lang=lang), answered)
            return
        reply_in = None if interaction is None or clicked else answering(interaction)
        deliveries = board.after_move(
            played,
            reply_in=reply_in,
            clicked=clicked,
            lang=lang,
            reader=reader,
            mover_lang=await self.mover_language(game),
            venue_langs={v.guild_id: self.played_language(played, v.guild_id) for v in game.venues},
        )
        await self.table.deliver(interaction, deliveries)

    async def announce_end(
        self, ended: Ended, interaction: discord.Interaction | None = None
    ) -> None:
        """The final board of a game ended by the players or the clock (its words say how: a
        resignation, time, an agreed draw)."""
        self.ai.cancel(ended.game.id)
        reply_in = None if interaction is None else answering(interaction)
        lang = await self.board_language(ended.game)
        venue_langs = await self.venue_languages(ended.game)
        deliveries = board.after_end(ended, reply_in=reply_in, lang=lang, venue_langs=venue_langs)
        await self.table.deliver(interaction, deliveries)

    async def called_off(self, ended: Ended, words: str) -> None:
        """The final board of a game an organiser called off, saying why (``words``)."""
        lang = await self.board_language(ended.game)
        venue_langs = await self.venue_languages(ended.game)
        deliveries = board.after_end(
            ended, lines=[words], why=board.CALLED_OFF, lang=lang, venue_langs=venue_langs
        )
        await self.table.deliver(None, deliveries)

    async def show(
        self,
        live: LiveGame,
        lines: Lines,
        *,
        interaction: discord.Interaction | None = None,
        flip: bool = False,
        ping: bool = True,
        only: str | None = None,
    ) -> None:
        """The game's board with ``lines`` (see :func:`..compose.board.board_posts`: written
        already, or for a language), as the answer to ``interaction`` when given: a new game's
        first board, or one posted again."""
        game = await self.games.state(live)
        reply_in = None if interaction is None else answering(interaction)
        deliveries = board.board_posts(
            game,
            lines,
            flip=flip,
            ping=ping,
            only=only,
            reply_in=reply_in,
            lang=await self.board_language(game),
            mover_lang=await self.mover_language(game) if ping else None,
            venue_langs=await self.venue_languages(game),
        )
        await self.table.deliver(interaction, deliveries)

    async def open_game(
        self, live: LiveGame, lines: Lines, interaction: discord.Interaction | None
    ) -> None:
        """Post a new game's first board (``lines``: written already, or for a language);
        when the AI moves first, its move comes on it."""
        if live.to_move.is_ai:
            game = self.games.peek(live)
            if callable(lines):  # a game against the AI is played in one channel
                lines = lines(await self.board_language(game))
            await self._ai_reply(game, lines, interaction)
        else:
            await self.show(live, lines, interaction=interaction)

    async def remind(self, live: LiveGame, channel_id: int, deadline: int) -> None:
        """The player to move is running out of time (at ``deadline``): a ping where they play,
        and a direct message if they asked for one."""
        game = await self.games.state(live)
        lang = await self.board_language(game)
        mover = game.record.player(game.game.turn.value)
        mover_lang = None
        if not mover.is_ai and mover.user_id is not None:
            mover_lang = await self.table.player_language(mover.user_id)
        deliveries = board.reminder(game, channel_id, deadline, lang=lang, mover_lang=mover_lang)
        await self.table.deliver(None, deliveries)

    # ------------------------------------------------------------------ languages

    async def board_language(self, game: GameState) -> Language:
        """The language of a game's boards and news: its server's channels'."""
        return await self.table.channel_language(game.record.guild_id)

    def played_language(self, played: Played, guild_id: int | None) -> Language:
        """The language a server's channels read a move's board in: the one the server chose,
        as the games service read it with the move (:attr:`Played.languages`: no second read
        of the settings on the move's path), else the server's own Discord language."""
        guild = None if guild_id is None else self.table.client.get_guild(guild_id)
        locale = None if guild is None else guild.preferred_locale.value
        chosen = None if guild_id is None else played.languages.get(guild_id)
        return self.table.languages.for_channel(chosen, locale)

    async def venue_languages(self, game: GameState) -> dict[int, Language]:
        """The language of each venue's server of a game across servers (none in one
        channel): each venue reads the game in its own server's language."""
        return {v.guild_id: await self.table.channel_language(v.guild_id) for v in game.venues}

    async def mover_language(self, game: GameState) -> Language | None:
        """The language the player to move reads their direct messages in (``None``: nobody is
        told: the AI is to move, the game is against the AI or over, or the player has not
        asked for direct messages, as far as the game's board options say)."""
        record = game.record
        mover = record.player(game.game.turn.value)
        if mover.user_id is None or record.attackers.is_ai or record.defenders.is_ai:
            return None
        theirs = next((p for p in game.preferences if p.user_id == mover.user_id), None)
        if game.game.is_over or (theirs is not None and not theirs.notify):
            return None
        return await self.table.player_language(mover.user_id)

    async def live_game(self, channel_id: int) -> LiveGame | None:
        """The channel's active game, picked up from the database if this process had lost
        track of it (:meth:`GameHub.recover`), with the AI set thinking if it is to move."""
        known = self.games.get(channel_id)
        if known is not None:
            return known
        live = await self.games.recover(channel_id)
        if live is not None and live.to_move.is_ai and not self.ai.thinking(live.id):
            self.schedule_ai(live)
        return live

    # ------------------------------------------------------------------ the AI

    def schedule_ai(self, live: LiveGame, lines: Sequence[str] = ()) -> None:
        """Let the AI move in the background (after a restart, or when a game starts with the
        AI to move and nobody is waiting on an interaction)."""
        channel_id = live.record.channel_id
        self.ai.schedule(
            live.id,
            self._shower(list(lines), channel_id, None, live.record.guild_id),
            self._typing(channel_id),
        )

    async def _ai_reply(
        self, game: GameState, lines: Sequence[str], interaction: discord.Interaction | None
    ) -> None:
        """Let the AI move and post one board with ``lines`` (what led here, e.g. the player's
        move) and the AI's move; the interaction shows the bot thinking meanwhile, else the
        channel shows it typing. Only one search runs per game; a second caller just waits."""
        channel_id = game.record.channel_id
        if interaction is not None:
            await self.table.thinking(interaction)
        typing = None if interaction is not None else self._typing(channel_id)
        where = channel_id if interaction is None else answering(interaction)
        await self.ai.reply(
            game.id, self._shower(list(lines), where, interaction, game.record.guild_id), typing
        )

    def _shower(
        self,
        lines: list[str],
        channel_id: int,
        interaction: discord.Interaction | None,
        guild_id: int | None,
    ) -> Callable[[AIReply], Awaitable[None]]:
        async def show(reply: AIReply) -> None:
            game = reply.played.game if reply.played is not None else reply.game
            lang = await self.table.channel_language(guild_id)
            mover_lang = None if game is None else await self.mover_language(game)
            deliveries = board.after_ai(
                reply,
                lines,
                channel_id,
                answer=interaction is not None,
                lang=lang,
                mover_lang=mover_lang,
                venue_langs=None if game is None else await self.venue_languages(game),
            )
            await self.table.deliver(interaction, deliveries)

        return show

    def _typing(self, channel_id: int) -> Callable[[], AbstractAsyncContextManager[None]]:
        return lambda: self.table.typing(channel_id)
