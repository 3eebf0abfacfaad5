-- games: the position their board message shows
ALTER TABLE games ADD COLUMN board_ply INTEGER CHECK (board_ply >= 0);
