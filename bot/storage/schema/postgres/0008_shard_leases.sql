-- shard leases and identify turns
-- oldest reader: 8
-- (Releases before it kept shards apart with PostgreSQL advisory locks, which a process holding
-- a lease would not see: they must not serve alongside it.)
-- Which bot process serves each shard, for how long without renewing (shared by every process
-- of the bot, on any machine): a row per shard, taken, renewed and given back by its holder.
CREATE TABLE shard_leases (
    shard_count  BIGINT           NOT NULL CHECK (shard_count >= 1),
    shard_id     BIGINT           NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    instance     TEXT             NOT NULL,
    incarnation  TEXT             NOT NULL,
    host         TEXT             NOT NULL,
    pid          BIGINT           NOT NULL,
    epoch        BIGINT           NOT NULL CHECK (epoch >= 1),
    expires_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
CREATE INDEX shard_leases_incarnation ON shard_leases (incarnation);
-- When each of Discord's identify buckets may next start a gateway session.
CREATE TABLE identify_turns (
    max_concurrency BIGINT           NOT NULL CHECK (max_concurrency >= 1),
    bucket          BIGINT           NOT NULL CHECK (bucket >= 0 AND bucket < max_concurrency),
    next_at         DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (max_concurrency, bucket)
);
