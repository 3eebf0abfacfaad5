"""Command line: render a position to PNG, or a game record to a PNG or an animated GIF.

python -m bot.render tablut "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/" -o board.png
python -m bot.render brandubh --last d7-b7 --flip --theme contrast -o board.png
python -m bot.render --record game.otn -o replay.gif
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from bot.engine import VARIANTS, Game, Move, Side, TaflError, parse_square, square_name
from bot.render.adapter import board_view_from_game, replay_views
from bot.render.board import render_png
from bot.render.gif import render_gif
from bot.render.layout import DEFAULT_WIDTH
from bot.render.theme import DEFAULT_THEME, THEMES
from bot.render.view import ATTACKER, DEFENDER, EMPTY, BoardView


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot.render",
        description="Draw a tafl position as a PNG, or a game record as a PNG or animated GIF.",
    )
    parser.add_argument("variant", nargs="?", help=f"rules: {', '.join(VARIANTS)}")
    parser.add_argument(
        "position", nargs="?", help="OTN position, rank 1 first (default: the variant's start)"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="an OTN game record ('-' reads stdin); a .gif output replays it",
    )
    parser.add_argument("--last", metavar="MOVE", help="highlight the move just played, e.g. e1-e4")
    parser.add_argument(
        "--captured",
        metavar="SQUARES",
        default="",
        help="squares where the last move captured, e.g. d4,f4",
    )
    parser.add_argument("--routes", action="store_true", help="draw the king's open routes")
    parser.add_argument(
        "--threat",
        action="store_true",
        help="mark the king if the attackers can capture it next move",
    )
    parser.add_argument(
        "--turn",
        choices=[side.value for side in Side],
        help="side to move in the position (default: the variant's first)",
    )
    parser.add_argument("--caption", action="store_true", help="add the players/move strip")
    parser.add_argument("--attackers", metavar="NAME", help="attackers' player in the caption")
    parser.add_argument("--defenders", metavar="NAME", help="defenders' player in the caption")
    parser.add_argument("--flip", action="store_true", help="show the board from the other side")
    parser.add_argument("--theme", choices=list(THEMES), default=DEFAULT_THEME)
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, help="image width in pixels")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        help="file to write (.png, or .gif with --record); "
        "default board.png, or replay.gif with --record",
    )
    return parser


def _position_view(args: argparse.Namespace) -> BoardView:
    turn = Side(args.turn) if args.turn else None
    game = Game(args.variant, args.position, turn)
    size = game.size
    move = Move.parse(args.last, size) if args.last else None
    mover = game.cells[move.target] if move is not None else EMPTY
    if move is not None and mover == EMPTY:
        raise ValueError(f"--last {args.last!r}: no piece stands on its target square")
    if move is not None and turn is None:
        # The side that just moved is not the side to move.
        game = Game(
            args.variant, args.position, Side.DEFENDERS if mover == ATTACKER else Side.ATTACKERS
        )
    view = board_view_from_game(
        game, caption=args.caption, attackers=args.attackers, defenders=args.defenders
    )
    if move is not None:
        victim = DEFENDER if mover == ATTACKER else ATTACKER
        captured = tuple(
            (parse_square(name, size), victim) for name in args.captured.replace(",", " ").split()
        )
        for square, _ in captured:
            if game.cells[square] != EMPTY:
                raise ValueError(
                    f"--captured: {square_name(square, size)} is occupied; a captured piece's "
                    "square is empty after the move"
                )
        view = replace(view, last_move=(move.origin, move.target), captured=captured)
    elif args.captured:
        raise ValueError("--captured needs --last (the move that captured)")
    if args.routes:
        view = replace(view, routes=game.king_routes())
    if args.threat:
        view = replace(view, king_threatened=game.king_threatened())
    return view


def _record_image(args: argparse.Namespace, output: Path) -> bytes:
    text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text("utf-8")
    game = Game.from_record(text)
    if output.suffix.lower() == ".gif":
        views = replay_views(
            game, caption=args.caption, attackers=args.attackers, defenders=args.defenders
        )
        return render_gif(views, theme=args.theme, flip=args.flip, width=args.width)
    view = board_view_from_game(
        game, caption=args.caption, attackers=args.attackers, defenders=args.defenders
    )
    return render_png(view, theme=args.theme, flip=args.flip, width=args.width)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.record is not None:
        if args.variant or args.position or args.last or args.routes or args.threat:
            parser.error("--record takes no variant, position or markers: the record has them")
        output = args.output or Path("replay.gif")
    else:
        if not args.variant:
            parser.error("give a variant (and optionally a position), or --record FILE")
        output = args.output or Path("board.png")
        if output.suffix.lower() == ".gif":
            parser.error("a single position renders to .png; use --record for a GIF replay")
    try:
        if args.record is not None:
            data = _record_image(args, output)
        else:
            data = render_png(
                _position_view(args), theme=args.theme, flip=args.flip, width=args.width
            )
        output.write_bytes(data)
    except (TaflError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {output} ({len(data) / 1024:.1f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
