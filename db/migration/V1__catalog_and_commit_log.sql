-- The service's own schema: the catalog of user tables and the commit log.
-- User tables live in schema verso_data, named after their catalog id.

CREATE SCHEMA IF NOT EXISTS verso_data;

-- Commit sequences are handed out under a transaction-scoped advisory lock, so they increase
-- in the order commits become visible (see engine.CommitSequencer).
CREATE SEQUENCE verso.commit_seq;

CREATE TABLE verso.commits (
    seq          BIGINT PRIMARY KEY,
    committed_at TIMESTAMPTZ NOT NULL,
    row_count    BIGINT NOT NULL
);

CREATE TABLE verso.commit_tables (
    commit_seq BIGINT NOT NULL REFERENCES verso.commits (seq) ON DELETE CASCADE,
    table_name TEXT   NOT NULL,
    row_count  BIGINT NOT NULL,
    PRIMARY KEY (commit_seq, table_name)
);

CREATE TABLE verso.user_tables (
    id              BIGSERIAL PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE,
    mode            TEXT    NOT NULL CHECK (mode IN ('APPEND', 'UPSERT', 'VERSIONED')),
    next_column_id  INTEGER NOT NULL,
    history_horizon BIGINT  NOT NULL DEFAULT 0,
    created_commit  BIGINT  NOT NULL
);

CREATE TABLE verso.user_columns (
    table_id          BIGINT  NOT NULL REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    name              TEXT    NOT NULL,
    physical_name     TEXT    NOT NULL,
    type              TEXT    NOT NULL,
    not_null          BOOLEAN NOT NULL,
    default_value     TEXT,
    key_position      INTEGER,
    group_id          INTEGER,
    ordering_kind     TEXT CHECK (ordering_kind IN ('VALID', 'REVISION')),
    ordering_position INTEGER,
    PRIMARY KEY (table_id, position),
    UNIQUE (table_id, name)
);

CREATE TABLE verso.user_groups (
    table_id BIGINT  NOT NULL REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    group_id INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (table_id, position),
    UNIQUE (table_id, name)
);
