-- offers: draw offers and takeback requests kept until answered
-- A draw offer or takeback request waits here for the opponent's answer, so a restart (or another
-- process) can still take the answer. It is valid only at its ply: every move, takeback and
-- ending of the game deletes its offers in the same transaction.
CREATE TABLE offers (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    user_id    INTEGER NOT NULL,
    ply        INTEGER NOT NULL CHECK (ply >= 0),
    message_id INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
