-- Lifecycle of user tables: indexes with a scope, history retention, and erasure records.

ALTER TABLE verso.user_tables
    ADD COLUMN retention_commits  BIGINT CHECK (retention_commits > 0),
    ADD COLUMN retention_interval TEXT;

CREATE TABLE verso.user_indexes (
    table_id      BIGINT  NOT NULL REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL UNIQUE,
    physical_name TEXT    NOT NULL,
    columns       TEXT    NOT NULL, -- physical column names in index order, comma-separated
    scope         TEXT    NOT NULL CHECK (scope IN ('CURRENT', 'HISTORY', 'BOTH')),
    PRIMARY KEY (table_id, position)
);

-- Who erased which keys of which table, and in which commit (the commit record itself is
-- written at the end of the same transaction).
CREATE TABLE verso.erasures (
    commit_seq BIGINT      NOT NULL,
    table_name TEXT        NOT NULL,
    keys       JSONB       NOT NULL,
    actor      TEXT,
    erased_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (commit_seq, table_name)
);
