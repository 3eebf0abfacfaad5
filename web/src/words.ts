// Every word the page shows comes from the state's `words`, composed by the server in the
// reader's language (bot/discord_bot/compose/web.py); this only fills in the placeholders.

/** The keys of `words` the page reads: tests/test_web_client.py checks that the server sends
 * each one, and the compiler that the page reads no other. */
export const KEYS = [
  "title", "coordinates", "keyboard_help", "your_move", "their_move", "spectating",
  "resign", "resign_confirm", "yes", "no", "offer_draw", "accept_draw", "decline_draw",
  "draw_offered_you", "draw_offered_them", "takeback", "accept_takeback", "decline_takeback",
  "takeback_asked_you", "takeback_asked_them", "attackers", "defenders",
  "piece_attacker", "piece_defender", "piece_king", "empty_square", "square_label",
  "legal_target", "capture_target", "last_move", "opponent_moved", "captured",
  "call_raichi", "call_tuichi", "clock", "game_over", "reconnecting", "connected", "flip",
] as const;

export type Key = (typeof KEYS)[number];

export type Words = Record<string, string>;

/** The sentence `key` with each `{name}` replaced; a missing key shows as itself, to be seen. */
export function say(words: Words, key: Key, values: Record<string, string | number> = {}): string {
  const template = words[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
