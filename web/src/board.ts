// The board as SVG, drawn from the state with the images' geometry (geometry.ts) and the
// player's theme; it takes clicks, drags and keys, and says what it shows to screen readers.

import { KING_RADIUS, MARGIN, PIECE_RADIUS, cell, line, parseSquare, squareAt, squareName } from "./geometry";
import type { State, Target } from "./state";
import { say } from "./words";

const SVG = "http://www.w3.org/2000/svg";
/** Pointer travel (in squares) after which a press on a piece becomes a drag. */
const DRAG_START = 0.15;
/** How long the opponent's piece takes to slide to its square, in milliseconds. */
const SLIDE_MS = 180;

type Attrs = Record<string, string | number>;

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  parent?: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function circle(parent: Element, x: number, y: number, r: number, attrs: Attrs): SVGCircleElement {
  return el("circle", { cx: x, cy: y, r, ...attrs }, parent);
}

const PIECE_KINDS: Record<string, "attacker" | "defender" | "king"> = { a: "attacker", d: "defender", k: "king" };

/** What the board asks of the page: play a move. */
export interface BoardHost {
  play(from: string, to: string): void;
}

export class Board {
  readonly svg: SVGSVGElement;
  private state: State | null = null;
  private flip = false;
  private selected: string | null = null;
  private cursor: string | null = null;
  private preview: string | null = null;
  private drag: { from: string; x: number; y: number; moved: boolean; wasSelected: boolean } | null =
    null;
  private pieces = new Map<string, SVGGElement>();
  private layers: Record<string, SVGGElement> = {};
  private cells = new Map<string, SVGRectElement>();
  private geometryKey = "";
  /** Whether the last input was a key: the cursor square shows only for keyboard play. */
  private keyboard = false;

  constructor(
    parent: HTMLElement,
    private readonly host: BoardHost,
  ) {
    this.svg = el("svg", { class: "board", role: "grid" });
    parent.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("keydown", (event) => this.onKey(event));
    this.svg.addEventListener("focusout", () => requestAnimationFrame(() => this.drawCursor()));
    this.svg.addEventListener("focusin", (event) => {
      const square = (event.target as Element).getAttribute?.("data-square");
      if (square) {
        this.cursor = square;
        this.drawCursor();
      }
    });
  }

  /** Draw a new state; `slide` animates the last move's piece from its origin. */
  update(state: State, flip: boolean, slide: boolean): void {
    const key = `${state.variant}/${state.size}/${flip}/${JSON.stringify(state.theme)}/${JSON.stringify(state.squares)}`;
    this.state = state;
    this.flip = flip;
    if (this.selected && !this.targets(this.selected).length) this.selected = null;
    if (key !== this.geometryKey) {
      this.geometryKey = key;
      this.build();
    }
    this.drawMarks();
    this.drawPieces();
    this.drawChoice();
    this.label();
    if (slide && state.last) this.slide(state.last.from, state.last.to);
  }

  /** Play a move on the board at once (the server's state follows and replaces it). */
  showMove(from: string, to: string, captures: string[]): void {
    const state = this.state;
    if (!state) return;
    const rows = state.board.map((row) => row.split(""));
    const at = (name: string): [number, number] => {
      const [file, rank] = parseSquare(name);
      return [state.size - 1 - rank, file];
    };
    const [fr, ff] = at(from);
    const [tr, tf] = at(to);
    rows[tr][tf] = rows[fr][ff];
    rows[fr][ff] = ".";
    for (const taken of captures) {
      const [r, f] = at(taken);
      rows[r][f] = ".";
    }
    this.selected = null;
    this.preview = null;
    this.update(
      {
        ...state,
        board: rows.map((row) => row.join("")),
        legal: {},
        last: { from, to, captures },
        roads: [],
        call: null,
      },
      this.flip,
      false,
    );
  }

  private size(): number {
    return this.state?.size ?? 0;
  }

  private colour(name: string): string {
    return this.state?.theme[name] ?? "none";
  }

  private piece(square: string): string {
    const state = this.state;
    if (!state) return ".";
    const [file, rank] = parseSquare(square);
    return state.board[state.size - 1 - rank]?.[file] ?? ".";
  }

  private targets(from: string): Target[] {
    return this.state?.legal[from] ?? [];
  }

  /** Top-left corner of a square in board units (a square is 1). */
  private corner(square: string): [number, number] {
    const [file, rank] = parseSquare(square);
    const [column, row] = cell(this.size(), file, rank, this.flip);
    return [MARGIN + column, MARGIN + row];
  }

  private centre(square: string): [number, number] {
    const [x, y] = this.corner(square);
    return [x + 0.5, y + 0.5];
  }

  /** The static picture: margin, frame, squares and their marks, coordinates, piece shapes. */
  private build(): void {
    const state = this.state!;
    const size = state.size;
    const side = size + 2 * MARGIN;
    this.svg.replaceChildren();
    this.pieces.clear();
    this.cells.clear();
    this.svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
    this.defs();
    el("rect", { width: side, height: side, fill: this.colour("margin") }, this.svg);
    const frame = 1 / 24;
    el(
      "rect",
      { x: MARGIN - frame, y: MARGIN - frame, width: size + 2 * frame, height: size + 2 * frame, fill: this.colour("frame") },
      this.svg,
    );
    const squares = el("g", {}, this.svg);
    const special = new Map<string, string>();
    for (const name of state.squares.restricted) special.set(name, "camp");
    for (const name of state.squares.corners) special.set(name, "corner");
    for (const name of state.squares.throne) special.set(name, "throne");
    for (let rank = 0; rank < size; rank++) {
      for (let file = 0; file < size; file++) {
        const name = squareName(file, rank);
        const kind = special.get(name) ?? ((file + rank) % 2 === 0 ? "square_alt" : "square");
        const [x, y] = this.corner(name);
        el("rect", { x, y, width: 1, height: 1, fill: this.colour(kind) }, squares);
        if (kind === "throne" || kind === "corner" || kind === "camp") {
          el("use", { href: `#${kind}`, x, y }, squares);
        }
      }
    }
    const grid = el("g", { stroke: this.colour("grid"), "stroke-width": 1 / 30 }, this.svg);
    for (let i = 0; i <= size; i++) {
      el("line", { x1: MARGIN + i, y1: MARGIN, x2: MARGIN + i, y2: MARGIN + size }, grid);
      el("line", { x1: MARGIN, y1: MARGIN + i, x2: MARGIN + size, y2: MARGIN + i }, grid);
    }
    const labels = el(
      "g",
      { fill: this.colour("margin_text"), "font-size": size >= 11 ? 0.42 : 0.34, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true", class: "coords" },
      this.svg,
    );
    for (let i = 0; i < size; i++) {
      const [column] = cell(size, i, 0, this.flip);
      const [, row] = cell(size, 0, i, this.flip);
      for (const y of [MARGIN / 2, MARGIN + size + MARGIN / 2]) {
        el("text", { x: MARGIN + column + 0.5, y }, labels).textContent = squareName(i, 0)[0];
      }
      for (const x of [MARGIN / 2, MARGIN + size + MARGIN / 2]) {
        el("text", { x, y: MARGIN + row + 0.5 }, labels).textContent = String(i + 1);
      }
    }
    for (const name of ["marks", "pieces", "choice", "cursor", "cells"]) {
      this.layers[name] = el("g", { class: name }, this.svg);
    }
    this.layers.cells.setAttribute("fill", "transparent");
    for (let row = 0; row < size; row++) {
      const line = el("g", { role: "row" }, this.layers.cells);
      for (let column = 0; column < size; column++) {
        const [file, rank] = squareAt(size, column, row, this.flip);
        const name = squareName(file, rank);
        const rect = el(
          "rect",
          { x: MARGIN + column, y: MARGIN + row, width: 1, height: 1, role: "gridcell", tabindex: -1, "data-square": name },
          line,
        );
        this.cells.set(name, rect);
      }
    }
    if (!this.cursor || !this.cells.has(this.cursor)) this.cursor = squareName(Math.floor(size / 2), Math.floor(size / 2));
    this.cells.get(this.cursor)!.setAttribute("tabindex", "0");
  }

  /** The shapes drawn on many squares: the pieces and the special squares' marks. */
  private defs(): void {
    const c = (name: string) => this.colour(name);
    const defs = el("defs", {}, this.svg);
    const blur = el("filter", { id: "shadow", x: -0.5, y: -0.5, width: 2, height: 2 }, defs);
    el("feGaussianBlur", { stdDeviation: 0.025 }, blur);
    const shadow = c("shadow");
    const withShadow = (id: string, r: number): SVGGElement => {
      const g = el("g", { id }, defs);
      if (shadow.length === 9 && !shadow.endsWith("00")) {
        circle(g, 0, 0.035, r, { fill: shadow, filter: "url(#shadow)" });
      }
      return g;
    };
    let r = PIECE_RADIUS;
    const attacker = withShadow("attacker", r);
    circle(attacker, 0, 0, r, { fill: c("attacker") });
    circle(attacker, 0, 0, r * 0.72, { fill: "none", stroke: c("attacker_rim"), "stroke-width": r * 0.09 });
    const defender = withShadow("defender", r);
    circle(defender, 0, 0, r, { fill: c("outline") });
    circle(defender, 0, 0, r * 0.86, { fill: c("defender") });
    circle(defender, 0, 0, r * 0.6, { fill: "none", stroke: c("defender_rim"), "stroke-width": r * 0.08 });
    r = KING_RADIUS;
    const king = withShadow("king", r);
    circle(king, 0, 0, r, { fill: c("outline") });
    circle(king, 0, 0, r * 0.86, { fill: c("king") });
    // The crown of bot/render/sprites.py's _draw_crown, in units of 0.7 radius.
    const u = r * 0.7;
    const at = (x: number, y: number) => `${x * u},${y * u}`;
    const crown = { fill: c("crown"), stroke: c("outline"), "stroke-width": r * 0.09, "stroke-linejoin": "round" };
    el("polygon", { points: [at(-0.78, 0.55), at(-0.95, -0.45), at(-0.42, -0.02), at(0, -0.72), at(0.42, -0.02), at(0.95, -0.45), at(0.78, 0.55)].join(" "), ...crown }, king);
    el("rect", { x: -0.8 * u, y: 0.55 * u, width: 1.6 * u, height: 0.25 * u, ...crown }, king);
    for (const [x, y] of [[-0.95, -0.45], [0, -0.72], [0.95, -0.45]]) circle(king, x * u, y * u, u * 0.17, crown);

    // Special squares (bot/render/sprites.py: _draw_throne, _draw_corner, _draw_camp).
    const inset = 0.11;
    const width = 0.035;
    const throne = el("g", { id: "throne" }, defs);
    el("rect", { x: inset, y: inset, width: 1 - 2 * inset, height: 1 - 2 * inset, fill: "none", stroke: c("throne_mark"), "stroke-width": width }, throne);
    const diamond = (radius: number, attrs: Attrs) =>
      el("polygon", { points: `0.5,${0.5 - radius} ${0.5 + radius},0.5 0.5,${0.5 + radius} ${0.5 - radius},0.5`, ...attrs }, throne);
    diamond(0.27, { fill: c("throne_mark") });
    diamond(0.17, { fill: "none", stroke: c("throne"), "stroke-width": width });
    diamond(0.08, { fill: c("throne_mark") });
    const corner = el("g", { id: "corner" }, defs);
    const clip = el("clipPath", { id: "corner-clip" }, defs);
    el("rect", { x: inset, y: inset, width: 1 - 2 * inset, height: 1 - 2 * inset }, clip);
    const hatch = el("g", { "clip-path": "url(#corner-clip)", stroke: c("corner_mark"), "stroke-width": 0.045 }, corner);
    for (let k = -6; k <= 12; k++) el("line", { x1: k / 6, y1: 1, x2: k / 6 + 1, y2: 0 }, hatch);
    el("rect", { x: inset, y: inset, width: 1 - 2 * inset, height: 1 - 2 * inset, fill: "none", stroke: c("corner_mark"), "stroke-width": width }, corner);
    const camp = el("g", { id: "camp", fill: c("camp_mark") }, defs);
    const leg = 0.3;
    const near = 0.06;
    const far = 1 - near;
    for (const [x, y, dx, dy] of [[near, near, 1, 1], [far, near, -1, 1], [near, far, 1, -1], [far, far, -1, -1]]) {
      el("polygon", { points: `${x},${y} ${x + dx * leg},${y} ${x},${y + dy * leg}` }, camp);
    }
  }

  /** The last move, what it took, and the king's roads. */
  private drawMarks(): void {
    const state = this.state!;
    const marks = this.layers.marks;
    marks.replaceChildren();
    const last = state.last;
    if (last) {
      for (const square of [last.from, last.to]) {
        const [x, y] = this.corner(square);
        el("rect", { x, y, width: 1, height: 1, fill: this.colour("move_tint") }, marks);
      }
      const [x1, y1] = this.centre(last.from);
      const [x2, y2] = this.centre(last.to);
      el("line", { x1, y1, x2, y2, stroke: this.colour("move_path"), "stroke-width": 0.1, "stroke-linecap": "round" }, marks);
      circle(marks, x1, y1, 0.11, { fill: this.colour("move_path") });
    }
    for (const road of state.roads) {
      if (road.length < 2) continue;
      const squares = line(road[0], road[road.length - 1]);
      const [x1, y1] = this.centre(squares[0]);
      const [x2, y2] = this.centre(squares[squares.length - 1]);
      const dots = { x1, y1, x2, y2, "stroke-linecap": "round", "stroke-dasharray": "0 0.25" };
      el("line", { ...dots, stroke: this.colour("route_halo"), "stroke-width": 0.15 }, marks);
      el("line", { ...dots, stroke: this.colour("route"), "stroke-width": 0.09 }, marks);
      const end = squares[squares.length - 1];
      if (this.piece(end) === ".") {
        circle(marks, x2, y2, 0.3 + 0.055, { fill: "none", stroke: this.colour("route_halo"), "stroke-width": 0.165 });
        circle(marks, x2, y2, 0.3, { fill: "none", stroke: this.colour("route"), "stroke-width": 0.055 });
        circle(marks, x2, y2, 0.12 + 0.055, { fill: this.colour("route_halo") });
        circle(marks, x2, y2, 0.12, { fill: this.colour("route") });
      }
    }
  }

  private drawPieces(): void {
    const state = this.state!;
    const layer = this.layers.pieces;
    layer.replaceChildren();
    this.pieces.clear();
    const size = state.size;
    for (let row = 0; row < size; row++) {
      for (let file = 0; file < size; file++) {
        const code = state.board[row]?.[file] ?? ".";
        const kind = PIECE_KINDS[code];
        if (!kind) continue;
        const name = squareName(file, size - 1 - row);
        const [x, y] = this.centre(name);
        const g = el("g", { transform: `translate(${x} ${y})`, class: "piece", "data-square": name, "data-piece": code }, layer);
        el("use", { href: `#${kind}` }, g);
        this.pieces.set(name, g);
      }
    }
    const last = state.last;
    if (last) {
      // What the last move took: a faded piece of the mover's opponent under a cross.
      const mover = this.piece(last.to);
      const ghost = mover === "a" ? "defender" : "attacker";
      for (const square of last.captures) {
        if (this.piece(square) !== ".") continue;
        const [x, y] = this.centre(square);
        const g = el("g", { transform: `translate(${x} ${y})`, class: "taken", "data-square": square }, layer);
        el("use", { href: `#${ghost}`, opacity: 0.4 }, g);
        this.cross(g, 0, 0, 0.2);
      }
    }
  }

  private cross(parent: Element, x: number, y: number, arm: number): void {
    for (const [width, colour] of [[0.15, "capture_halo"], [0.08, "capture"]] as const) {
      const attrs = { stroke: this.colour(colour), "stroke-width": width, "stroke-linecap": "round" };
      el("line", { x1: x - arm, y1: y - arm, x2: x + arm, y2: y + arm, ...attrs }, parent);
      el("line", { x1: x - arm, y1: y + arm, x2: x + arm, y2: y - arm, ...attrs }, parent);
    }
  }

  /** The chosen piece, where it may go, and what a move there would take. */
  private drawChoice(): void {
    const layer = this.layers.choice;
    layer.replaceChildren();
    if (!this.selected) return;
    const [sx, sy] = this.corner(this.selected);
    el("rect", { x: sx + 0.04, y: sy + 0.04, width: 0.92, height: 0.92, fill: "none", stroke: this.colour("caption_accent"), "stroke-width": 0.08 }, layer);
    for (const target of this.targets(this.selected)) {
      const [x, y] = this.centre(target.to);
      if (target.captures.length) {
        circle(layer, x, y, 0.2, { fill: this.colour("capture"), opacity: 0.85, class: "capture-target", "data-square": target.to });
        circle(layer, x, y, 0.2, { fill: "none", stroke: this.colour("capture_halo"), "stroke-width": 0.04 });
      } else {
        circle(layer, x, y, 0.14, { fill: this.colour("move_path"), opacity: 0.6 });
      }
    }
    const shown = this.targets(this.selected).find((target) => target.to === this.preview);
    for (const square of shown?.captures ?? []) {
      const [x, y] = this.centre(square);
      this.cross(el("g", { class: "would-take", "data-square": square }, layer), x, y, 0.2);
    }
  }

  private drawCursor(): void {
    const layer = this.layers.cursor;
    if (!layer) return;
    layer.replaceChildren();
    if (!this.cursor || !this.keyboard || !this.svg.contains(document.activeElement)) return;
    const [x, y] = this.corner(this.cursor);
    el("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, fill: "none", stroke: this.colour("route"), "stroke-width": 0.06, "stroke-dasharray": "0.12 0.08" }, layer);
    const target = this.selected ? this.targets(this.selected).find((t) => t.to === this.cursor) : undefined;
    if (this.preview !== (target?.to ?? null)) {
      this.preview = target?.to ?? null;
      this.drawChoice();
    }
  }

  /** Every square's name for screen readers: what stands there, or what a move there does. */
  private label(): void {
    const state = this.state!;
    const words = state.words;
    this.svg.setAttribute("aria-label", `${say(words, "coordinates")} ${say(words, "keyboard_help")}`);
    const targets = new Map((this.selected ? this.targets(this.selected) : []).map((t) => [t.to, t]));
    for (const [name, rect] of this.cells) {
      const code = this.piece(name);
      const piece = PIECE_KINDS[code] ? say(words, `piece_${PIECE_KINDS[code]}` as const) : "";
      const target = targets.get(name);
      let text: string;
      if (target && target.captures.length) text = say(words, "capture_target", { square: name });
      else if (target) text = say(words, "legal_target", { square: name });
      else if (piece) text = say(words, "square_label", { piece, square: name });
      else text = say(words, "empty_square", { square: name });
      rect.setAttribute("aria-label", text);
      rect.setAttribute("aria-selected", String(name === this.selected));
    }
  }

  private select(square: string | null): void {
    this.selected = square;
    this.preview = null;
    this.drawChoice();
    this.label();
  }

  /** A press or Enter on a square: choose a piece, play to a target, or let go. */
  private choose(square: string): boolean {
    if (this.selected && this.targets(this.selected).some((t) => t.to === square)) {
      const from = this.selected;
      this.host.play(from, square);
      return true;
    }
    if (this.targets(square).length) {
      this.select(square);
      return false;
    }
    this.select(null);
    return false;
  }

  private squareOf(event: PointerEvent): { square: string | null; x: number; y: number } {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return { square: null, x: 0, y: 0 };
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const column = Math.floor(point.x - MARGIN);
    const row = Math.floor(point.y - MARGIN);
    const size = this.size();
    if (column < 0 || row < 0 || column >= size || row >= size) return { square: null, x: point.x, y: point.y };
    const [file, rank] = squareAt(size, column, row, this.flip);
    return { square: squareName(file, rank), x: point.x, y: point.y };
  }

  private onPointerDown(event: PointerEvent): void {
    this.keyboard = false;
    this.drawCursor();
    if (event.button !== 0) return;
    const { square, x, y } = this.squareOf(event);
    if (!square) return;
    this.cursor = square;
    const wasSelected = this.selected === square;
    if (this.choose(square)) {
      event.preventDefault();
      return;
    }
    if (this.selected === square) {
      event.preventDefault();
      this.svg.setPointerCapture(event.pointerId);
      this.drag = { from: square, x, y, moved: false, wasSelected };
    }
  }

  private onPointerMove(event: PointerEvent): void {
    const drag = this.drag;
    const { square, x, y } = this.squareOf(event);
    if (!drag) {
      // Pointing at a target of the chosen piece crosses out what a move there would take.
      const over = square && this.selected && this.targets(this.selected).some((t) => t.to === square) ? square : null;
      if (over !== this.preview) {
        this.preview = over;
        this.drawChoice();
      }
      return;
    }
    if (!drag.moved && Math.hypot(x - drag.x, y - drag.y) < DRAG_START) return;
    drag.moved = true;
    const piece = this.pieces.get(drag.from);
    if (piece) {
      piece.setAttribute("transform", `translate(${x} ${y}) scale(1.1)`);
      piece.classList.add("dragged");
      this.layers.pieces.appendChild(piece);
    }
    const over = square && this.targets(drag.from).some((t) => t.to === square) ? square : null;
    if (over !== this.preview) {
      this.preview = over;
      this.drawChoice();
    }
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    const { square } = this.squareOf(event);
    if (drag.moved) {
      if (square && this.targets(drag.from).some((t) => t.to === square)) {
        this.host.play(drag.from, square);
        return;
      }
      this.drawPieces();
      this.drawChoice();
    } else if (drag.wasSelected && square === drag.from) {
      this.select(null);
    }
  }

  private cancelDrag(): void {
    if (!this.drag) return;
    this.drag = null;
    this.drawPieces();
    this.drawChoice();
  }

  private onKey(event: KeyboardEvent): void {
    this.keyboard = true;
    const size = this.size();
    if (!this.cursor || !size) return;
    const [file, rank] = parseSquare(this.cursor);
    let [column, row] = cell(size, file, rank, this.flip);
    switch (event.key) {
      case "ArrowLeft": column = Math.max(0, column - 1); break;
      case "ArrowRight": column = Math.min(size - 1, column + 1); break;
      case "ArrowUp": row = Math.max(0, row - 1); break;
      case "ArrowDown": row = Math.min(size - 1, row + 1); break;
      case "Enter":
      case " ":
        event.preventDefault();
        this.choose(this.cursor);
        this.drawCursor();
        return;
      case "Escape":
        this.select(null);
        return;
      default:
        return;
    }
    event.preventDefault();
    const [f, r] = squareAt(size, column, row, this.flip);
    this.focusSquare(squareName(f, r));
  }

  private focusSquare(square: string): void {
    for (const rect of this.cells.values()) rect.setAttribute("tabindex", "-1");
    const rect = this.cells.get(square);
    if (!rect) return;
    rect.setAttribute("tabindex", "0");
    this.cursor = square;
    rect.focus();
    this.drawCursor();
  }

  /** Slide a piece that just arrived from where it came (the opponent's move, seen live). */
  private slide(from: string, to: string): void {
    const piece = this.pieces.get(to);
    if (!piece || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const [x1, y1] = this.centre(from);
    const [x2, y2] = this.centre(to);
    const start = performance.now();
    piece.classList.add("sliding");
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / SLIDE_MS);
      const ease = 1 - (1 - t) * (1 - t);
      piece.setAttribute("transform", `translate(${x1 + (x2 - x1) * ease} ${y1 + (y2 - y1) * ease})`);
      if (t < 1 && piece.isConnected) requestAnimationFrame(step);
      else piece.classList.remove("sliding");
    };
    requestAnimationFrame(step);
  }
}
