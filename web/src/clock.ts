// The clocks: the server sends each side's time left when it read them (`at`); the page counts
// the running one down by itself between states.

import type { Clocks, Side } from "./state";

/** Beyond this gap between the server's reading and the page's receipt, the page's own clock is
 * taken to be wrong, and time is counted from the receipt instead. */
const SKEW_MS = 5000;

/** Milliseconds left on `side`'s clock at `now` (the page's clock, epoch ms). */
export function remaining(clocks: Clocks, side: Side, now: number, received: number, playing: boolean): number {
  const left = clocks[side];
  if (!playing || clocks.running !== side) return Math.max(0, left);
  const since = Math.abs(received - clocks.at) > SKEW_MS ? received : clocks.at;
  return Math.max(0, left - (now - since));
}

/** "1:05:09", "4:07", or "0:07.3" under ten seconds. */
export function formatClock(ms: number): string {
  const tenths = Math.floor(ms / 100);
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = String(seconds % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  if (ms < 10000) return `0:${secs}.${tenths % 10}`;
  return `${minutes}:${secs}`;
}
