"""The caption strip: both players with their pieces and losses, whose turn it is, the last move
with its number, and a status."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from bot.render import sprites
from bot.render.fonts import drawn_text, font
from bot.render.theme import Theme
from bot.render.view import ATTACKER, DEFENDER, Caption

ELLIPSIS = "…"
MINUS = "−"  # U+2212: a real minus sign, the width of a digit, unlike a hyphen


def fit_text(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, shortened with an ellipsis until it fits in `width` pixels."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def _right_items(
    caption: Caption, face: ImageFont.FreeTypeFont, gap: float, room: float
) -> list[tuple[str, bool]]:
    """The status and the move, as (text, is_status), in the fullest form that fits `room`.

    A player needs the status more than the move, so when space is short the status first loses
    its detail (the part after a colon: the bot's message says it in words), then the move goes.
    With ``status_first`` (a reviewed board, whose arrows show the moves) the move's text goes
    before the detail, and its number last: it tells which moment of the review the board is.
    """
    text = " ".join(part for part in (caption.move_label, caption.move_text) if part)
    move = [(text, False)] if text else []
    forms = [caption.status] if caption.status else []
    if caption.status and ":" in caption.status:
        forms.append(caption.status.split(":", 1)[0])
    if caption.status_first:
        numbered = [(caption.move_label, False)] if caption.move_label and caption.move_text else []
        candidates = [
            items
            for status in forms
            for items in ([(status, True), *move], [(status, True), *numbered])
        ]
        candidates = [*candidates, [(forms[-1], True)]] if forms else [move]
    else:
        candidates = [[(status, True), *move] for status in forms] or [move]
        if forms and move:
            candidates.append([(forms[-1], True)])
    for items in candidates:
        if _width(items, face, gap) <= room:
            return items
    return candidates[-1]


def draw_caption(theme: Theme, width: int, height: int, caption: Caption) -> Image.Image:
    """The RGB caption strip, `width` x `height` pixels."""
    image = Image.new("RGB", (width, height), theme.caption_bg)
    draw = ImageDraw.Draw(image)
    face = font(max(9, round(height * 0.36)))
    pad = round(height * 0.3)
    icon_size = round(height * 0.56)
    mid = height / 2
    gap = face.getlength("   ")

    players = (
        (ATTACKER, drawn_text(caption.attackers), caption.attackers_lost, "attackers"),
        (DEFENDER, drawn_text(caption.defenders), caption.defenders_lost, "defenders"),
    )
    losses = [f" {MINUS}{lost}" if lost else "" for _, _, lost, _ in players]
    # Each player keeps room for a piece, the name (up to a side's name: "Defenders" is never
    # cut for the status) and the losses.
    fixed = 2 * (icon_size + pad * 0.4) + sum(face.getlength(text) for text in losses) + 3 * pad
    kept = face.getlength("Defenders")
    room = width - pad - fixed - sum(min(face.getlength(name), kept) for _, name, _, _ in players)
    right = _right_items(caption, face, gap, room)
    right_width = min(_width(right, face, gap), room)

    # Left: each side's piece, player and losses; the side to move is underlined.
    rooms = _share(
        width - right_width - fixed - pad, [face.getlength(name) for _, name, _, _ in players]
    )
    x = float(pad)
    for (code, name, _, side), lost, name_room in zip(players, losses, rooms, strict=True):
        sprite = sprites.icon(theme, code, icon_size)
        start = x
        image.paste(sprite, (round(x), round(mid - icon_size / 2)), sprite)
        x += icon_size + pad * 0.4
        text = fit_text(name, face, name_room)
        colour = theme.caption_text if caption.to_move in (None, side) else theme.caption_dim
        draw.text((x, mid), text, font=face, fill=colour, anchor="lm")
        x += face.getlength(text)
        if lost:
            draw.text((x, mid), lost, font=face, fill=theme.caption_accent, anchor="lm")
            x += face.getlength(lost)
        if caption.to_move == side:
            bar = max(2, round(height * 0.07))
            draw.rectangle(
                (
                    round(start),
                    height - bar - round(height * 0.06),
                    round(x),
                    height - 1 - round(height * 0.06),
                ),
                fill=theme.caption_accent,
            )
        x += pad * 1.2

    # Right: status then move, right-aligned.
    x = width - pad - right_width
    for text, is_status in right:
        shown = fit_text(text, face, max(0.0, width - pad - x))
        colour = theme.caption_accent if is_status else theme.caption_dim
        draw.text((x, mid), shown, font=face, fill=colour, anchor="lm")
        x += face.getlength(shown) + gap
    return image


def _share(room: float, needs: list[float]) -> list[float]:
    """Split `room` between names: a short name takes only what it needs and leaves the rest
    to the other, so a long name is shortened only when both cannot fit."""
    fair = room / len(needs)
    spare = sum(max(0.0, fair - need) for need in needs)
    return [min(need, fair) if need <= fair else fair + spare for need in needs]


def _width(items: list[tuple[str, bool]], face: ImageFont.FreeTypeFont, gap: float) -> float:
    return sum(face.getlength(text) for text, _ in items) + gap * max(0, len(items) - 1)
