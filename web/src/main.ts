// The live board page: reads the game's state, draws it, sends moves and actions, and follows
// every change the server announces (EventSource), also inside Discord as an Activity.

import type { SignIn } from "./activity";
import { Board } from "./board";
import { formatClock, remaining } from "./clock";
import { type Side, type State, other } from "./state";
import { say } from "./words";

/** Shown only when the page could not even load its words (the server words everything else). */
const FALLBACK = "The board could not be loaded. Ask for a new link with Open the board.";

interface Problem {
  error?: string;
  message?: string;
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  parent?: HTMLElement,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

/** Show one sentence instead of the board (no link, nothing to play). */
function showMessage(app: HTMLElement, text: string): void {
  const box = h("main", "message");
  h("p", "", box).textContent = text;
  app.replaceChildren(box);
}

class Page {
  private state: State | null = null;
  private readonly main: HTMLElement;
  private readonly board: Board;
  private readonly heading: HTMLElement;
  private readonly bars: Record<"top" | "bottom", { name: HTMLElement; clock: HTMLElement; bar: HTMLElement }>;
  private readonly status: HTMLElement;
  private readonly next: HTMLElement;
  private readonly call: HTMLElement;
  private readonly watching: HTMLElement;
  private readonly offer: HTMLElement;
  private readonly error: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly last: HTMLElement;
  private readonly live: HTMLElement;
  private readonly connection: HTMLElement;
  private localFlip = false;
  private played: string | null = null;
  private resignArmed = false;
  private ticking = 0;
  private received = 0;
  private retry = 1000;

  constructor(
    private readonly app: HTMLElement,
    private readonly api: URL,
  ) {
    const main = (this.main = h("main", "game"));
    this.heading = h("h1", "heading", main);
    const bar = (where: "top" | "bottom") => {
      const node = h("section", `player ${where}`, main);
      const name = h("span", "name", node);
      const clock = h("span", "clock", node);
      clock.setAttribute("role", "timer");
      return { bar: node, name, clock };
    };
    this.bars = { top: bar("top"), bottom: { bar: h("div"), name: h("span"), clock: h("span") } };
    const wrap = h("div", "board-wrap", main);
    this.board = new Board(wrap, { play: (from, to) => void this.move(from, to) });
    this.bars.bottom = bar("bottom");
    const panel = h("section", "panel", main);
    this.connection = h("p", "connection", panel);
    this.connection.hidden = true;
    this.status = h("p", "status", panel);
    this.next = h("ul", "next", panel);
    this.watching = h("p", "watching", panel);
    this.call = h("div", "call", panel);
    this.offer = h("div", "offer", panel);
    this.error = h("p", "error", panel);
    this.error.setAttribute("role", "alert");
    this.actions = h("div", "actions", panel);
    this.last = h("p", "last", panel);
    this.live = h("div", "sr-only", main);
    this.live.setAttribute("aria-live", "polite");
    app.replaceChildren(main);
  }

  private url(path: string): string {
    return new URL(path, this.api).toString();
  }

  async start(): Promise<void> {
    await this.reread();
  }

  /** Read the game's state: a state, a refusal that no retry can change (a link expired or
   * changed, a game that does not exist), or a failure that passes (the server restarting or
   * out of reach), to try again later, with the server's sentence when it gave one. */
  private async read(): Promise<{ state: State } | { refused: string } | { later: string | null }> {
    let answer: Response;
    try {
      answer = await fetch(this.url("state"), { cache: "no-store" });
    } catch {
      return { later: null };
    }
    const body = (await answer.json().catch(() => null)) as (State & Problem) | null;
    if (answer.ok && body) return { state: body };
    if (!body || answer.status >= 500 || answer.status === 429) return { later: body?.error ?? null };
    return { refused: body.error ?? FALLBACK };
  }

  /** Read the state again and follow the game; while the server cannot answer, the board
   * stays as it was, marked as reconnecting, and the page tries again, less and less often. */
  private async reread(): Promise<void> {
    const read = await this.read();
    if ("state" in read) {
      this.retry = 1000;
      if (!this.app.contains(this.main)) this.app.replaceChildren(this.main);
      this.show(read.state);
      this.follow();
    } else if ("refused" in read) {
      showMessage(this.app, read.refused);
    } else {
      if (this.state) this.connected(false);
      else showMessage(this.app, read.later ?? FALLBACK);
      window.setTimeout(() => void this.reread(), this.retry);
      this.retry = Math.min(this.retry * 2, 30000);
    }
  }

  private async fetchState(): Promise<State | null> {
    const read = await this.read();
    return "state" in read ? read.state : null;
  }

  /** Follow the game: every change arrives as an `event: state`; EventSource reconnects. */
  private follow(): void {
    const events = new EventSource(this.url("events"));
    events.addEventListener("state", (event) => {
      this.retry = 1000;
      this.show(JSON.parse((event as MessageEvent<string>).data) as State);
      this.connected(true);
    });
    events.addEventListener("open", () => this.connected(true));
    events.addEventListener("error", () => {
      this.connected(false);
      if (events.readyState === EventSource.CLOSED) {
        // The server refused the stream (a restart, an expired link): read the state again;
        // the page follows anew once it answers, or says why it never will.
        events.close();
        window.setTimeout(() => void this.reread(), this.retry);
        this.retry = Math.min(this.retry * 2, 30000);
      }
    });
  }

  /** The line saying whether the page is live or reconnecting. */
  private connected(live: boolean): void {
    if (!this.state) return;
    this.connection.textContent = say(this.state.words, live ? "connected" : "reconnecting");
    this.connection.classList.toggle("live", live);
    this.connection.hidden = false;
  }

  private async post(path: string, body: object): Promise<void> {
    this.error.textContent = "";
    let answer: Response;
    try {
      answer = await fetch(this.url(path), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch {
      if (this.state) this.error.textContent = say(this.state.words, "reconnecting");
      return;
    }
    const reply = (await answer.json().catch(() => ({}))) as { state?: State } & Problem;
    if (answer.ok && reply.state) {
      this.show(reply.state);
      return;
    }
    // No sentence: a proxy's page while the bot restarts, say; the move is not played.
    this.error.textContent = reply.error ?? (this.state ? say(this.state.words, "reconnecting") : FALLBACK);
    const state = await this.fetchState();
    if (state) this.show(state);
  }

  private async move(from: string, to: string): Promise<void> {
    const state = this.state;
    if (!state) return;
    const target = state.legal[from]?.find((t) => t.to === to);
    this.played = `${from}-${to}`;
    this.board.showMove(from, to, target?.captures ?? []);
    await this.post("move", { from, to, ply: state.ply });
  }

  private async act(action: string): Promise<void> {
    if (!this.state) return;
    await this.post("action", { action, ply: this.state.ply });
  }

  private flip(state: State): boolean {
    return state.flip !== this.localFlip;
  }

  /** Draw a state: the board, the players and clocks, the words around it. */
  show(state: State): void {
    const before = this.state;
    this.state = state;
    this.received = Date.now();
    const words = state.words;
    document.documentElement.lang = state.lang;
    document.title = say(words, "title");
    for (const [name, value] of Object.entries(state.theme)) {
      document.documentElement.style.setProperty(`--${name.replace(/_/g, "-")}`, value);
    }
    if (before && before.ply !== state.ply) this.error.textContent = "";  // the game went on
    const moved = state.last ? `${state.last.from}-${state.last.to}` : null;
    const fresh = !!before && before.ply !== state.ply && !!state.last;
    const mine = fresh && moved === this.played;
    this.played = null;
    this.board.update(state, this.flip(state), fresh && !mine && state.ply > before!.ply);
    this.heading.textContent = say(words, "title");
    this.drawPlayers(state);
    this.drawStatus(state);
    this.drawActions(state);
    if (fresh && !mine && state.ply > before!.ply) this.announce(state);
    if (before && before.status !== state.status && state.result) {
      this.live.textContent = state.result.text;
    }
    this.tick();
  }

  private sideAtBottom(state: State): Side {
    return state.you ?? "attackers";
  }

  private drawPlayers(state: State): void {
    const bottom = this.sideAtBottom(state);
    for (const [where, side] of [["bottom", bottom], ["top", other(bottom)]] as const) {
      const { bar, name } = this.bars[where];
      const player = state.players[side];
      bar.dataset.side = side;
      bar.classList.toggle("to-move", state.status === "playing" && state.turn === side);
      name.replaceChildren();
      h("span", `token ${side}`, name).setAttribute("aria-hidden", "true");
      h("span", "who", name).textContent = player.name;
      h("span", "side", name).textContent = say(state.words, side);
    }
  }

  private drawStatus(state: State): void {
    const words = state.words;
    this.status.classList.toggle("over", state.status === "over");
    if (state.status === "over") {
      this.status.textContent = state.result?.text ?? say(words, "game_over");
    } else if (!state.you) {
      this.status.textContent = say(words, "their_move", { name: state.players[state.turn].name });
    } else if (state.turn === state.you) {
      this.status.textContent = say(words, "your_move");
    } else {
      this.status.textContent = say(words, "their_move", { name: state.players[state.turn].name });
    }
    this.status.classList.toggle("mine", state.status === "playing" && state.turn === state.you);
    const steps = state.status === "over" ? (state.result?.next ?? []) : [];
    this.next.replaceChildren(...steps.map((step) => {
      const item = h("li");
      item.textContent = step;
      return item;
    }));
    this.next.hidden = steps.length === 0;
    this.watching.textContent = state.you ? "" : say(words, "spectating");
    this.call.replaceChildren();
    this.call.hidden = !state.call || state.status !== "playing";
    if (state.call) {
      this.call.textContent = say(words, `call_${state.call}` as const);
    }
    this.last.textContent = state.last ? say(words, "last_move", { move: `${state.last.from}-${state.last.to}` }) : "";
  }

  private button(parent: HTMLElement, label: string, run: () => void, kind = ""): HTMLButtonElement {
    const button = h("button", kind, parent);
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", run);
    return button;
  }

  private drawActions(state: State): void {
    const words = state.words;
    this.offer.replaceChildren();
    this.actions.replaceChildren();
    const playing = state.status === "playing" && state.you !== null;
    if (playing && state.you) {
      const you = state.you;
      const them = state.players[other(you)].name;
      for (const [kind, asked, mine, theirs] of [
        ["draw", state.offers.draw, "draw_offered_you", "draw_offered_them"],
        ["takeback", state.offers.takeback, "takeback_asked_you", "takeback_asked_them"],
      ] as const) {
        if (!asked) continue;
        const line = h("p", "", this.offer);
        line.textContent = say(words, asked === you ? mine : theirs, { name: them });
        if (asked !== you) {
          const row = h("div", "row", this.offer);
          this.button(row, say(words, `accept_${kind}` as const), () => void this.act(`accept_${kind}`), "primary");
          this.button(row, say(words, `decline_${kind}` as const), () => void this.act(`decline_${kind}`));
        }
      }
      // Nobody to offer a draw to against the AI; nothing to take back before one's first move.
      const againstAI = state.players[other(you)].ai;
      const movedYet = state.ply >= 2 || (state.ply === 1 && state.turn !== you);
      if (!state.offers.draw && !againstAI) {
        this.button(this.actions, say(words, "offer_draw"), () => void this.act("offer_draw"));
      }
      if (!state.offers.takeback && movedYet) {
        this.button(this.actions, say(words, "takeback"), () => void this.act("takeback"));
      }
      if (this.resignArmed) {
        const row = h("div", "row confirm", this.offer);
        h("p", "", row).textContent = say(words, "resign_confirm");
        this.button(row, say(words, "yes"), () => {
          this.resignArmed = false;
          void this.act("resign");
        }, "danger");
        this.button(row, say(words, "no"), () => {
          this.resignArmed = false;
          if (this.state) this.drawActions(this.state);
        });
      } else {
        this.button(this.actions, say(words, "resign"), () => {
          this.resignArmed = true;
          if (this.state) this.drawActions(this.state);
        }, "danger");
      }
    }
    this.button(this.actions, say(words, "flip"), () => {
      this.localFlip = !this.localFlip;
      if (this.state) {
        this.board.update(this.state, this.flip(this.state), false);
        this.drawPlayers(this.state);
        this.tick();
      }
    });
  }

  private announce(state: State): void {
    const last = state.last;
    if (!last) return;
    const words = state.words;
    const mover = state.players[other(state.turn)].name;
    let text = say(words, "opponent_moved", { name: mover, move: `${last.from}-${last.to}` });
    if (last.captures.length) text += ` ${say(words, "captured", { squares: last.captures.join(", ") })}`;
    if (state.call && state.status === "playing") text += ` ${say(words, `call_${state.call}` as const)}`;
    this.live.textContent = text;
  }

  /** The clocks, counted down locally between the server's states. */
  private tick(): void {
    window.clearTimeout(this.ticking);
    const state = this.state;
    if (!state) return;
    const clocks = state.clocks;
    for (const where of ["top", "bottom"] as const) {
      const { bar, clock } = this.bars[where];
      const side = bar.dataset.side as Side;
      clock.hidden = !clocks;
      if (!clocks) continue;
      const left = remaining(clocks, side, Date.now(), this.received, state.status === "playing");
      clock.textContent = formatClock(left);
      const label = say(state.words, "clock", { name: state.players[side].name, side: say(state.words, side) });
      clock.setAttribute("aria-label", `${label}: ${formatClock(left)}`);
      clock.classList.toggle("running", state.status === "playing" && clocks.running === side);
      clock.classList.toggle("low", left < 10000);
    }
    if (clocks?.running && state.status === "playing") {
      this.ticking = window.setTimeout(() => this.tick(), 200);
    }
  }
}

/** The URL this script came from tells where the server is (also behind Discord's proxy). */
function serverRoot(): URL {
  const script = document.currentScript as HTMLScriptElement | null;
  const source = script?.src || new URL("/static/board.js", location.href).toString();
  return new URL("../", source);
}

async function main(): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  const root = serverRoot();
  const query = new URLSearchParams(location.search);
  let token = app.dataset.token ?? null;
  if (!token) {
    const parts = location.pathname.split("/");
    const at = parts.lastIndexOf("play");
    if (at >= 0 && parts[at + 1]) token = parts[at + 1];
  }
  if (query.has("frame_id")) {
    // Inside Discord: the SDK and its sign-in load only here (activity.js).
    try {
      const activity = (await import(new URL("static/activity.js", root).toString())) as { signIn: SignIn };
      const signed = await activity.signIn({ clientId: app.dataset.clientId ?? "", root });
      if (!signed.token) {
        showMessage(app, signed.message ?? FALLBACK);
        return;
      }
      token = signed.token;
    } catch (problem) {
      showMessage(app, problem instanceof Error && problem.message ? problem.message : FALLBACK);
      return;
    }
  }
  if (!token) {
    showMessage(app, FALLBACK);
    return;
  }
  const page = new Page(app, new URL(`api/games/${encodeURIComponent(token)}/`, root));
  await page.start();
}

void main();
