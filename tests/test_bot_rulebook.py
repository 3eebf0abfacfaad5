"""How /tafl rules and /tafl variants explain each ruleset: Copenhagen's own rules in a
player's words, within Discord's limits, and nothing of them where the rules lack them."""

from __future__ import annotations

from bot.discord_bot.compose.help import (
    calls_text,
    king_wins_text,
    special_rules,
    variant_line,
)
from bot.discord_bot.table import EMBED_FIELD_NAME, EMBED_FIELD_VALUE, EMBED_TOTAL
from bot.engine import VARIANTS, get_variant


def test_copenhagen_explains_shieldwall_exit_fort_encirclement_and_repetition() -> None:
    rules = get_variant("hnefatafl")
    fields = dict(special_rules(rules))
    assert list(fields) == ["Shieldwall", "Exit fort", "Encirclement", "Repetition"]
    assert "along the edge" in fields["Shieldwall"] and "corner" in fields["Shieldwall"]
    assert "king stands on the edge" in fields["Exit fort"]
    assert "every one of his defenders" in fields["Encirclement"]
    assert fields["Repetition"] == (
        "The defenders may not repeat the position: when the same position comes up a third "
        "time with the same side to move, the attackers win."
    )
    assert king_wins_text(rules) == "a corner, or wins with an exit fort on the edge (see below)"
    assert calls_text(rules).startswith("**Raichi!** when the king has one open road to a corner")
    assert variant_line(rules) == (
        "**Copenhagen Hnefatafl** (`copenhagen`): 11x11, the attackers move first, the king "
        "escapes to a corner or builds an exit fort; shieldwall captures, encirclement."
    )


def test_other_rules_gain_no_copenhagen_fields_and_keep_their_own_calls() -> None:
    for name in ("tablut", "brandubh", "fidchell"):
        assert special_rules(get_variant(name)) == [], name
    assert king_wins_text(get_variant("tablut")) == "any edge square"
    assert calls_text(get_variant("fidchell")).endswith("(and Tuichi wins).")
    assert "Tuichi wins" in variant_line(get_variant("fidchell"))


def test_every_rules_embed_fits_discord() -> None:
    for rules in VARIANTS.values():
        fields = [
            ("Moves first", rules.first.value.title()),
            ("King escapes to", king_wins_text(rules)),
            ("Calls", calls_text(rules)),
            *special_rules(rules),
        ]
        assert all(len(name) <= EMBED_FIELD_NAME for name, _ in fields)
        assert all(len(text) <= EMBED_FIELD_VALUE for _, text in fields)
        total = len(rules.title) + len(rules.summary) + len(rules.source)
        total += sum(len(name) + len(text) for name, text in fields)
        assert total + 400 < EMBED_TOTAL, rules.name  # room for "Start a game" and the footer
        assert len(fields) + 1 <= 25  # Discord's limit of fields in an embed
