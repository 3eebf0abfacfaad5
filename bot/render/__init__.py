"""Board images: PNGs of any position and GIF replays, drawn with Pillow in milliseconds.

Rendering is a pure function of a `BoardView` (position plus markers) and display options; it
never touches Discord or the database. Build views with `board_view_from_game` (engine `Game`)
or by hand (see `parse_otn_position`).

    view = board_view_from_game(game, caption=True, attackers="Ragnar", defenders="Linnaeus")
    png = render_png(view, theme="classic", flip=False)
    gif = render_gif(replay_views(game))

For a game analysed by `bot.ai.analysis.review`: `render_eval_chart(analysis)` draws its
evaluation chart, and `analysis_view(analysis, ply)` the position before a move with the move
played and the better one as arrows.

For a tournament: `render_crosstable(CrosstableView(..., words=CrosstableWords(...)))` draws the
standings as a crosstable PNG, and `crosstable_text(view)` writes them as one message for a
channel without images; both show the words they are given (headers, notes, the legend).
"""

from bot.render.adapter import (
    DEFAULT_WORDS,
    Better,
    Call,
    CaptionWords,
    Status,
    analysis_view,
    board_view_from_game,
    replay_views,
    result_status,
    view_before_move,
)
from bot.render.board import encode_png, render_board, render_png
from bot.render.chart import render_eval_chart
from bot.render.crosstable import (
    Cell,
    CrosstableView,
    CrosstableWords,
    PlayerRow,
    Tiebreak,
    crosstable_text,
    render_crosstable,
)
from bot.render.fonts import FontMissingError
from bot.render.gif import render_gif
from bot.render.layout import DEFAULT_WIDTH, Layout
from bot.render.theme import DEFAULT_THEME, THEMES, Theme, get_theme
from bot.render.view import (
    ATTACKER,
    DEFENDER,
    EMPTY,
    KING,
    Arrow,
    BoardView,
    Caption,
    parse_otn_position,
)

__all__ = [
    "ATTACKER",
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "DEFAULT_WORDS",
    "DEFENDER",
    "EMPTY",
    "KING",
    "THEMES",
    "Arrow",
    "Better",
    "BoardView",
    "Call",
    "Caption",
    "CaptionWords",
    "Cell",
    "CrosstableView",
    "CrosstableWords",
    "FontMissingError",
    "Layout",
    "PlayerRow",
    "Status",
    "Theme",
    "Tiebreak",
    "analysis_view",
    "board_view_from_game",
    "crosstable_text",
    "encode_png",
    "get_theme",
    "parse_otn_position",
    "render_board",
    "render_crosstable",
    "render_eval_chart",
    "render_gif",
    "render_png",
    "replay_views",
    "result_status",
    "view_before_move",
]
