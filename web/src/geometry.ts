// The board's geometry, as the images draw it (bot/render: layout.py, sprites.py): the same
// proportions of a square for every piece and mark. tests/test_web_client.py checks the named
// numbers against bot/render's, so the page and the pictures cannot drift apart.

/** Piece radius as a fraction of the square (bot/render/sprites.py PIECE_RADIUS). */
export const PIECE_RADIUS = 0.39;
/** The king is a little larger (bot/render/sprites.py KING_RADIUS). */
export const KING_RADIUS = 0.42;
/** Squares of margin, for the coordinates, on each side of the board (about the images' ratio). */
export const MARGIN = 0.5;

export const FILES = "abcdefghijklmnopqrstuvwxyz";

/** A square's name ("e5") from its file and rank indexes (0-based, a1 bottom left). */
export function squareName(file: number, rank: number): string {
  return FILES[file] + String(rank + 1);
}

/** File and rank indexes (0-based) of a square's name. */
export function parseSquare(name: string): [number, number] {
  return [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
}

/** Screen column and row (row 0 at the top) of a square; flipping turns the board 180°. */
export function cell(size: number, file: number, rank: number, flip: boolean): [number, number] {
  return flip ? [size - 1 - file, rank] : [file, size - 1 - rank];
}

/** The square (file, rank) at a screen column and row. */
export function squareAt(size: number, column: number, row: number, flip: boolean): [number, number] {
  return flip ? [size - 1 - column, row] : [column, size - 1 - row];
}

/** The squares from `a` to `b` (inclusive) along their shared rank or file. */
export function line(a: string, b: string): string[] {
  const [fa, ra] = parseSquare(a);
  const [fb, rb] = parseSquare(b);
  const steps = Math.max(Math.abs(fb - fa), Math.abs(rb - ra));
  const out: string[] = [];
  for (let i = 0; i <= steps; i++) {
    out.push(squareName(fa + Math.sign(fb - fa) * i, ra + Math.sign(rb - ra) * i));
  }
  return out;
}
