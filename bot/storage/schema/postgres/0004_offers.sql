-- offers: draw offers and takeback requests kept until answered
CREATE TABLE offers (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    kind       TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    user_id    BIGINT NOT NULL,
    ply        BIGINT NOT NULL CHECK (ply >= 0),
    message_id BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);
