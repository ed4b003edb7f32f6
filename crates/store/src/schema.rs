//! The run database's tables.

pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS run_config (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    bench            TEXT NOT NULL,
    model            TEXT NOT NULL,
    data_dir         TEXT NOT NULL,
    task_fingerprint TEXT NOT NULL,
    params           TEXT NOT NULL,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
CREATE TABLE IF NOT EXISTS samples (
    id              TEXT PRIMARY KEY,
    task_key        TEXT NOT NULL,
    sample_index    INTEGER NOT NULL,
    completion      TEXT NOT NULL,
    recorded_passed INTEGER,
    request         TEXT,
    response        TEXT,
    usage           TEXT,
    latency_ms      INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    UNIQUE (task_key, sample_index)
);
CREATE TABLE IF NOT EXISTS verdicts (
    sample_id  TEXT NOT NULL REFERENCES samples(id),
    mode       TEXT NOT NULL,
    status     TEXT NOT NULL,
    category   TEXT,
    detail     TEXT NOT NULL,
    pass_o     INTEGER,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (sample_id, mode)
);
CREATE INDEX IF NOT EXISTS verdicts_by_mode ON verdicts(mode);
";
