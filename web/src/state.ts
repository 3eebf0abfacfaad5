// The state the server sends (DESIGN-36.md, "The state JSON"): the client draws it and nothing else.

export type Side = "attackers" | "defenders";

export interface Target {
  to: string;
  captures: string[];
}

export interface Move {
  from: string;
  to: string;
  captures: string[];
}

export interface Clocks {
  attackers: number;
  defenders: number;
  running: Side | null;
  at: number;
}

export interface Player {
  name: string;
  ai: boolean;
}

export interface State {
  game: number;
  variant: string;
  title: string;
  size: number;
  ply: number;
  status: "playing" | "over";
  /** `next`: what to do now the game is over (a rematch, a review), one sentence each. */
  result: { winner: Side | null; text: string; next?: string[] } | null;
  you: Side | null;
  turn: Side;
  players: Record<Side, Player>;
  board: string[];
  squares: { throne: string[]; corners: string[]; restricted: string[] };
  legal: Record<string, Target[]>;
  last: Move | null;
  roads: string[][];
  call: "raichi" | "tuichi" | null;
  clocks: Clocks | null;
  offers: { draw: Side | null; takeback: Side | null };
  theme: Record<string, string>;
  flip: boolean;
  lang: string;
  words: Record<string, string>;
}

export const SIDES: readonly Side[] = ["attackers", "defenders"];

export function other(side: Side): Side {
  return side === "attackers" ? "defenders" : "attackers";
}
