"""The caption strip: both players with their pieces, whose turn it is, the move and a status."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from bot.render import sprites
from bot.render.fonts import font
from bot.render.theme import RGB, Theme
from bot.render.view import ATTACKER, DEFENDER, Caption

ELLIPSIS = "…"


def _fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, shortened with an ellipsis until it fits in `width` pixels."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def draw_caption(theme: Theme, width: int, height: int, caption: Caption) -> Image.Image:
    """The RGB caption strip, `width` x `height` pixels."""
    image = Image.new("RGB", (width, height), theme.caption_bg)
    draw = ImageDraw.Draw(image)
    face = font(max(9, round(height * 0.36)))
    pad = round(height * 0.3)
    icon_size = round(height * 0.56)
    mid = height / 2

    right: list[tuple[str, RGB]] = []
    if caption.status:
        right.append((caption.status, theme.caption_accent))
    move = " ".join(
        part for part in (
            f"{caption.move_number}." if caption.move_number is not None else "",
            caption.move_text or "",
        ) if part
    )
    if move:
        right.append((move, theme.caption_dim))
    gap = face.getlength("   ")
    # The players keep room for their pieces and a few letters each; when the right side
    # would not fit beside them, the move goes first (the status matters more), then the
    # status is shortened.
    left_minimum = 2 * (icon_size + pad * 0.4) + 2 * face.getlength("Mmmm…") + 3 * pad
    room = width - pad - left_minimum
    while len(right) > 1 and _width(right, face, gap) > room:
        right.pop()
    right_width = min(_width(right, face, gap), room)

    # Left: each side's piece and player; the side to move is underlined.
    name_room = (width - right_width - 3 * pad - 2 * (icon_size + pad * 0.4) - pad) / 2
    x = float(pad)
    for code, name, side in (
        (ATTACKER, caption.attackers, "attackers"),
        (DEFENDER, caption.defenders, "defenders"),
    ):
        sprite = sprites.icon(theme, code, icon_size)
        start = x
        image.paste(sprite, (round(x), round(mid - icon_size / 2)), sprite)
        x += icon_size + pad * 0.4
        text = _fit(name, face, name_room)
        colour = theme.caption_text if caption.to_move in (None, side) else theme.caption_dim
        draw.text((x, mid), text, font=face, fill=colour, anchor="lm")
        x += face.getlength(text)
        if caption.to_move == side:
            bar = max(2, round(height * 0.07))
            draw.rectangle((round(start), height - bar - round(height * 0.06), round(x),
                            height - 1 - round(height * 0.06)), fill=theme.caption_accent)
        x += pad * 1.2

    # Right: status then move, right-aligned.
    x = width - pad - right_width
    for text, colour in right:
        shown = _fit(text, face, max(0.0, width - pad - x))
        draw.text((x, mid), shown, font=face, fill=colour, anchor="lm")
        x += face.getlength(shown) + gap
    return image


def _width(items: list[tuple[str, RGB]], face: ImageFont.FreeTypeFont, gap: float) -> float:
    return sum(face.getlength(text) for text, _ in items) + gap * max(0, len(items) - 1)
