"""The tables where games are played: posting boards (one new message per move; old messages
are never edited for days, the image rendered off the event loop, a text board where images may
not be attached), announcing moves and endings, and the AI's turns (:class:`Table`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord

from bot.ai import AIError
from bot.engine import MoveResult, Side
from bot.render import DEFAULT_THEME, THEMES
from bot.storage import (
    DatabaseUnavailable,
    FinishedGame,
    Participant,
    PlayerPreferences,
    StorageError,
    Venue,
)

from .app.errors import UserError
from .app.games import Ended, LiveGame, Offer, Played, ResultNotRecorded
from .app.wording import level_name, plain_name
from .limits import CONTENT, clip
from .present import (
    BoardImage,
    board_embed,
    describe_end,
    describe_move,
    local_player,
    localize,
    mention,
    offer_name,
    overtaken_offer,
    render_board,
    retired_board,
    text_board,
    whose_turn,
)
from .timely import answer, expired
from .views import (
    AI_ACTIONS,
    PEOPLE_ACTIONS,
    RATED_AI_ACTIONS,
    finished_view,
    game_view,
    offer_view,
)

if TYPE_CHECKING:
    from .client import TaflBot

log = logging.getLogger(__name__)

Messageable = discord.abc.Messageable
EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.PartialMessageable)
"""Where the bot's boards live and their messages can be edited by id."""


async def resolve_channel(
    bot: TaflBot, channel_id: int, guild_id: int | None = None
) -> Messageable | None:
    """A channel or thread by id, from the cache or the API. In a server another process serves
    (``guild_id``, the venue of a game across servers), a handle that only sends and edits:
    this process must not take the server into its cache."""
    if guild_id is not None and bot.get_guild(guild_id) is None:
        return bot.get_partial_messageable(channel_id, guild_id=guild_id)
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %d is gone", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


def can_attach(interaction: discord.Interaction | None, channel: object = None) -> bool:
    """Whether the bot may attach files and embed links where the board goes: the interaction's
    permissions, else the bot's permissions in ``channel`` (assume so when unknown)."""
    if interaction is not None:
        return interaction.app_permissions.attach_files and interaction.app_permissions.embed_links
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return True
    permissions: discord.Permissions = channel.permissions_for(me)
    return permissions.attach_files and permissions.embed_links


TEXT_NOTE = "*(I may not attach images here, so here is the board as text.)*"

TOP_SIDE = Side.DEFENDERS
"""Boards are drawn with rank 1 at the bottom, as seen from the attackers' side of the table; the
defenders sit at the top, so a player who asks for boards turned to their side
(``/tafl preferences flip``) gets them turned around when they play the defenders."""


@dataclass(frozen=True)
class BoardLook:
    """How a board is drawn: the renderer's theme and whether it is turned around."""

    theme: str
    flip: bool


PLAIN = BoardLook(DEFAULT_THEME, False)
"""The look of a board drawn for nobody in particular."""


def board_viewer(live: LiveGame) -> Participant | None:
    """Whose preferences a board posted for the whole channel follows: the player to move (the
    one who must study it), else, when that is the AI, the person playing it."""
    for player in (live.to_move, live.participant(live.game.turn.other)):
        if not player.is_ai:
            return player
    return None


async def board_look(bot: TaflBot, live: LiveGame, user_id: int | None = None) -> BoardLook:
    """The look of the board for ``user_id`` (by default :func:`board_viewer`'s)."""
    if user_id is None:
        viewer = board_viewer(live)
        if viewer is None or viewer.user_id is None:
            return PLAIN
        user_id = viewer.user_id
    return await look_for(bot, user_id, live.side_of(user_id))


async def look_for(bot: TaflBot, user_id: int, side: Side | None) -> BoardLook:
    """How ``user_id`` wants boards drawn when they play ``side`` (``None``: not playing), for
    every board drawn for one person: a game's, a puzzle's, a review they asked for."""
    return look_of(await bot.players.preferences(user_id), side)


def look_of(preferences: PlayerPreferences, side: Side | None) -> BoardLook:
    """How a player with ``preferences`` wants boards drawn when they play ``side``."""
    return BoardLook(theme_of(preferences), preferences.flip and side is TOP_SIDE)


def theme_of(preferences: PlayerPreferences) -> str:
    """The renderer's theme a player's boards are drawn in: the one they chose, while the
    renderer has it, else its default."""
    theme = preferences.theme
    return theme if theme is not None and theme in THEMES else DEFAULT_THEME


def text_message(live: LiveGame, content_lines: list[str], flip: bool = False) -> str:
    """The whole board message as text, for channels where images may not be attached."""
    lines = "\n".join(content_lines)
    board = f"{text_board(live.game, flip)}\n{TEXT_NOTE}"
    return clip(lines, CONTENT - len(board) - 1) + "\n" + board


def board_actions(live: LiveGame) -> tuple[str, ...]:
    """The buttons under a live board: against the AI there is nobody to offer a draw, and an
    unrated game lets a move be taken back at once instead."""
    if not live.against_ai:
        return PEOPLE_ACTIONS
    return RATED_AI_ACTIONS if live.record.rated else AI_ACTIONS


async def post_board(
    bot: TaflBot,
    live: LiveGame,
    lines: list[str],
    *,
    interaction: discord.Interaction | None = None,
    finished: FinishedGame | None = None,
    flip: bool = False,
    ping: bool = True,
    only: Venue | None = None,
) -> discord.Message | None:
    """Send the board with ``lines`` as a new message: the interaction's reply if given, else a
    message in the game's channel. Returns the message when Discord reported it. A game across
    servers gets the board in both venues (the interaction's reply in its own; ``only`` one),
    each drawn for the player whose venue it is, the other player named without a ping.

    The new board is the game's only live one: the previous board of the game loses its buttons
    (one edit), and a game's first board takes the Rematch button off the channel's last final
    board. ``ping`` mentions the player to move with a notification; without it (a board asked
    for by anyone) the mention is only a name. The board is drawn in the theme and orientation
    the player to move prefers (see :func:`board_look`); ``flip`` turns it around from that.
    """
    if not live.across:
        message = await _post_board_in(bot, live, None, lines, interaction, finished, flip, ping)
        if ping and finished is None:
            await bot.table.notify_turn(live, live.record.channel_id)
        return message
    here = None if interaction is None else live.venue_in(interaction.channel_id or 0)
    answer = None
    # The interaction's venue first: its answer is due within Discord's 3 seconds.
    for venue in sorted(live.venues, key=lambda venue: venue != here):
        if (only is not None and venue.side != only.side) or venue.gone_at is not None:
            continue
        replying = interaction if venue == here else None
        try:
            message = await _post_board_in(bot, live, venue, lines, replying, finished, flip, ping)
        except (discord.NotFound, discord.Forbidden) as error:
            if replying is not None or not venue_lost(error):
                raise
            # The other server's thread was deleted (or the bot lost it): the game waits for
            # its player, who is told how to continue it.
            await bot.lobby_desk.venue_gone(live, venue)
            continue
        if replying is not None:
            answer = message
    if only is None:
        await bot.lobby_desk.changed(live.id)
    mover = live.venue(live.game.turn)
    if ping and finished is None and mover is not None:
        await bot.table.notify_turn(live, mover.channel_id)
    return answer


def venue_lost(error: discord.HTTPException) -> bool:
    """Whether an error posting in a venue means it is gone for good: the channel deleted
    (Unknown Channel) or out of the bot's reach (Missing Access: the bot was removed or may no
    longer see it)."""
    return error.code in (UNKNOWN_CHANNEL, MISSING_ACCESS)


UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001


async def _post_board_in(
    bot: TaflBot,
    live: LiveGame,
    venue: Venue | None,
    lines: list[str],
    interaction: discord.Interaction | None,
    finished: FinishedGame | None,
    flip: bool,
    ping: bool,
) -> discord.Message | None:
    """:func:`post_board` in one place: the game's channel (``venue`` ``None``), or a venue of
    a game across servers."""
    over = finished is not None
    content_lines = [localize(line, live, venue) for line in lines]
    if not over:
        content_lines.append(whose_turn(live, venue))
    channel_id = live.record.channel_id if venue is None else venue.channel_id
    channel = None
    if interaction is None:
        guild_id = None if venue is None else venue.guild_id
        channel = await resolve_channel(bot, channel_id, guild_id)
        if channel is None:
            if venue is not None:  # perhaps deleted: the game waits for its player if so
                await bot.lobby_desk.check_venue(live, venue)
            return None
    attach = can_attach(interaction, channel)
    owner = local_player(live, venue)
    look = await board_look(bot, live, None if owner is None else owner.user_id)
    flip = flip != look.flip
    image = await render_board(live, flip=flip, theme=look.theme) if attach else None
    # A tournament's game ends without a Rematch: the event pairs the next one.
    in_event = over and await bot.storage.tournaments.of_game(live.id) is not None
    view = (
        finished_view(live.id, rematch=not in_event, block=live.across)
        if over
        else game_view(live.id, board_actions(live))
    )
    text = text_message(live, content_lines, flip)
    embed: discord.Embed | None = None
    if image is not None:
        embed = board_embed(
            live,
            image,
            content_lines[:-1] if not over else content_lines,
            venue,
            in_event=in_event,
        )
        # The ping goes in the content: mentions inside embeds do not notify anyone.
        content = clip(content_lines[-1], CONTENT) if not over else None
    else:
        content = text
    mentions = NO_PING
    if ping and not over:
        # Only the player to move, and only where they play (never across servers).
        mover = live.to_move
        if owner is None or owner == mover:
            mentions = PING
    message: discord.Message | None = None
    if interaction is not None:
        try:
            message = await _reply(interaction, content, embed, image, view, mentions)
        except discord.HTTPException as error:
            if not expired(error):
                raise
            # Discord gave up on the answer (the player saw "This interaction failed"), but
            # what it announces has happened: the board goes to the channel all the same.
            log.warning("game %d: the board's answer came too late; posted in the channel", live.id)
            guild_id = None if venue is None else venue.guild_id
            channel = await resolve_channel(bot, channel_id, guild_id)
            if channel is None:
                return None
            interaction = None
    if interaction is None:
        assert channel is not None
        try:
            if image is not None and embed is not None:
                message = await channel.send(
                    content, embed=embed, file=image.file(), view=view, allowed_mentions=mentions
                )
            else:
                message = await channel.send(content, view=view, allowed_mentions=mentions)
        except discord.Forbidden:
            # The permissions changed under us: fall back to the text board.
            message = await channel.send(text, view=view, allowed_mentions=mentions)
    if message is None:
        return None
    try:
        if venue is None:
            await bot.storage.games.set_board_message(live.id, message.id, live.game.ply)
        else:
            await bot.storage.games.set_venue_board(
                live.id, venue.side, message.id, live.game.ply, end=over
            )
    except DatabaseUnavailable as error:
        # The board is out and its move committed: the player must not be told otherwise. The
        # game remembers the message, and writes it back when it is next read from the
        # database (GameHub._resync) or with its next board.
        log.debug("game %d: its new board was not recorded: %s", live.id, error)
    if venue is None:
        previous, shown = live.record.board_message_id, live.record.board_ply
        live.record = replace(live.record, board_message_id=message.id, board_ply=live.game.ply)
    else:
        previous, shown = venue.board_message_id, venue.board_ply
        now = replace(venue, board_message_id=message.id, board_ply=live.game.ply)
        live.venues = tuple(now if v == venue else v for v in live.venues)
    if previous is not None and previous != message.id:
        # Its words no longer call on anyone to move: they say which position it shows.
        retired = retired_board(live, shown, with_board=not attach)
        await strip_controls(bot, channel_id, previous, retired)
    elif previous is None:
        await _retire_last_final_board(bot, live, channel_id)
    return message


PING = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)
"""Mentions that notify: only the player who must act."""
NO_PING = discord.AllowedMentions.none()
"""Mentions shown as names, notifying nobody."""


async def _reply(
    interaction: discord.Interaction,
    content: str | None,
    embed: discord.Embed | None,
    image: BoardImage | None,
    view: discord.ui.View,
    mentions: discord.AllowedMentions,
) -> discord.Message | None:
    embeds = [] if embed is None else [embed]
    files = [] if image is None else [image.file()]
    return await answer(
        interaction, content, embeds=embeds, files=files, view=view, allowed_mentions=mentions
    )


async def strip_controls(
    bot: TaflBot, channel_id: int, message_id: int, content: str | None = None
) -> None:
    """Take every button and menu off a message (one edit), optionally replacing its text.

    A message that is gone or cannot be edited is only logged: it is not worth failing a move.
    """
    await replace_controls(bot, channel_id, message_id, None, content)


async def replace_controls(
    bot: TaflBot,
    channel_id: int,
    message_id: int,
    view: discord.ui.View | None,
    content: str | None = None,
) -> None:
    """Put ``view`` (``None``: nothing) in place of a message's buttons and menus, optionally
    replacing its text, in one edit; a message that is gone or cannot be edited is only logged."""
    channel = await resolve_channel(bot, channel_id)
    if not isinstance(channel, EDITABLE):
        return
    message = channel.get_partial_message(message_id)
    try:
        if content is None:
            await message.edit(view=view)
        else:
            await message.edit(content=clip(content, CONTENT), view=view)
    except discord.HTTPException as error:
        log.info("could not change the controls of message %d: %s", message_id, error)


async def _retire_last_final_board(bot: TaflBot, live: LiveGame, channel_id: int) -> None:
    """A new game in a channel makes the Rematch button of the one before it pointless."""
    games = bot.storage.games
    last = await games.last_finished_in_channel(channel_id)
    if last is None or last == live.id:
        return
    record = await games.get(last)
    venues = await games.venues(last)
    shown = next((v for v in venues if v.channel_id == channel_id), None)
    message_id = record.board_message_id if shown is None else shown.board_message_id
    if message_id is not None:
        await strip_controls(bot, channel_id, message_id)


def offer_channel(live: LiveGame, offer: Offer) -> int:
    """Where an offer's buttons are: the game's channel, or in a game across servers the venue
    of the player who answers it."""
    side = live.side_of(offer.user_id)
    venue = None if side is None else live.venue(side.other)
    return live.record.channel_id if venue is None else venue.channel_id


AI_RETRY_SECONDS = 2.0
TYPING_REFRESH = 8.0
"""Seconds between typing indicators while the AI thinks (Discord shows one for 10 s)."""
AI_FAILED = (
    "The AI could not move because of a problem on our side; the game is safe. "
    "Use `/tafl board` to let it try again."
)


def ai_attempts(level: str) -> tuple[str, ...]:
    """The levels tried in turn when the AI fails to answer: twice as asked, then easy."""
    return (level, level, "easy")


class Table:
    """What happens at the tables, for every cog: moves and endings announced with a new board,
    offers kept up to date, and the AI's turns played (one search at a time per game, in the
    AI's worker processes) and announced."""

    def __init__(self, bot: TaflBot) -> None:
        self.bot = bot
        self.thinking: dict[int, asyncio.Task[None]] = {}
        """The AI's turn being thought about, by game id (at most one per game)."""

    async def announce(
        self, played: Played, *, interaction: discord.Interaction | None = None
    ) -> None:
        """Post the board after a committed move, or end the game. Against the AI the player's
        move and the AI's reply arrive as one board: the interaction is deferred while it
        thinks, so no "thinking" message is left behind."""
        live = played.live
        await self.offers_overtaken(live, played.withdrawn, played.result)
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
        venue = live.venue(side.other)
        text = localize(
            f"{mention(opponent)}, {mention(live.participant(side))} offers a draw with their "
            f"move `{result.move.text(live.game.size)}`.",
            live,
            venue,
        )
        await replace_controls(
            self.bot,
            offer_channel(live, offer),
            offer.message_id,
            offer_view(offer.kind, live.id, offer.ply),
            text,
        )

    async def withdraw_offers(self, live: LiveGame, offers: Sequence[Offer], why: str) -> None:
        """Edit offers that are no longer valid so their buttons do not look usable."""
        for offer in offers:
            await self._close_offer(live, offer, f"{offer_name(offer)} withdrawn: {why}.")

    async def offers_overtaken(
        self, live: LiveGame, offers: Sequence[Offer], result: MoveResult
    ) -> None:
        """Close the offers a move made pointless, saying who moved instead of answering."""
        for offer in offers:
            await self._close_offer(live, offer, overtaken_offer(live, offer, result))

    async def _close_offer(self, live: LiveGame, offer: Offer, text: str) -> None:
        """Take an offer's buttons off, its message saying why, in words for the server it is
        in (a player of another server is named, never mentioned)."""
        if offer.message_id is None:
            return
        side = live.side_of(offer.user_id)
        venue = None if side is None else live.venue(side.other)
        await strip_controls(
            self.bot, offer_channel(live, offer), offer.message_id, localize(text, live, venue)
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
        await self.offers_overtaken(live, outcome.withdrawn, outcome.result)
        lines = lines + describe_move(live, outcome.result)
        if outcome.finished is not None:
            lines += describe_end(live, outcome.finished)
        await post_board(self.bot, live, lines, interaction=interaction, finished=outcome.finished)

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
            await self.tell(live.record.channel_id, "\n".join(lines))

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
                chosen = await self.bot.ai.choose_move(
                    variant=live.record.variant,
                    start_position=live.record.start_position,
                    start_turn=Side(live.record.first_turn),
                    moves=[result.move.text(game.size) for result in game.history],
                    level=level,
                    game_key=str(live.id),
                )
                text = chosen.move
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
        # Played only by a process that still serves the game (with the database back, if it
        # was away); one that lost it leaves the move to the process serving it now.
        if not await self.bot.until_serving():
            return None
        if self.bot.hub.by_id(live.id) is not live or live.game.ply != ply:
            return None
        try:
            return await self.bot.hub.play(live.record.channel_id, player, text, expected_ply=ply)
        except ResultNotRecorded as error:
            return str(error)
        except (UserError, StorageError) as error:
            if self.bot.hub.by_id(live.id) is not live or live.game.ply != ply:
                return None  # the game ended or moved on meanwhile: nothing went wrong
            log.error("the AI's move %s in game %d was refused: %s", text, live.id, error)
            return AI_FAILED

    async def notify_turn(self, live: LiveGame, channel_id: int) -> None:
        """A direct message to the player to move, if they asked for one (``/tafl
        preferences notify``), once per move. A courtesy after the move's answer: a failure
        (the database out of reach a moment later) is logged, never reported as the move's."""
        try:
            await self._notify_turn(live, channel_id)
        except DatabaseUnavailable as error:
            # An outage is logged once, by the storage, when it starts and when it ends.
            log.debug("game %d: the turn notice was not sent: %s", live.id, error)
        except StorageError as error:
            log.info("game %d: the turn notice was not sent: %s", live.id, error)

    async def _notify_turn(self, live: LiveGame, channel_id: int) -> None:
        player = live.to_move
        if player.is_ai or player.user_id is None or live.against_ai:
            return  # against the AI, the reply comes within seconds
        preferences = await self.bot.players.preferences(player.user_id)
        if not preferences.notify:
            return
        if not await self.bot.storage.games.claim_notice(live.id, live.game.ply):
            return
        opponent = live.participant(live.game.turn.other)
        await self.notify(
            live,
            f"Your move in game #{live.id} ({live.game.variant.title}) against "
            f"{plain_name(opponent)}",
            channel_id,
        )

    async def notify(self, live: LiveGame, sentence: str, channel_id: int) -> None:
        """A direct message to the player to move, if they asked for such messages: the
        sentence, and where the game is. A player whose direct messages are closed is not
        told (only logged)."""
        player = live.to_move
        if player.is_ai or player.user_id is None:
            return
        if not (await self.bot.players.preferences(player.user_id)).notify:
            return
        deadline = live.record.move_deadline
        when = "" if deadline is None else f" (time runs out <t:{int(deadline.timestamp())}:R>)"
        await self.direct(player.user_id, f"{sentence}{when}: <#{channel_id}>")

    async def direct(self, user_id: int, sentence: str) -> None:
        """A direct message to a person; closed direct messages are only logged."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(clip(sentence, CONTENT))
        except discord.HTTPException as error:
            log.info("could not send a direct message to %d: %s", user_id, error)

    async def tell(
        self,
        channel_id: int,
        sentence: str,
        guild_id: int | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> None:
        """A plain message to a game's channel (``guild_id``: the venue of a game across
        servers, which another process may serve); a failure to deliver it is only logged.
        Nobody is notified unless ``mentions`` says so."""
        channel = await resolve_channel(self.bot, channel_id, guild_id)
        if channel is None:
            return
        try:
            await channel.send(clip(sentence, CONTENT), allowed_mentions=mentions or NO_PING)
        except discord.HTTPException as error:
            log.warning("could not post to channel %d: %s", channel_id, error)
