-- Trust (issue 14): who made each commit, roles and their grants, API keys, idempotent retries.

-- The principal (from the caller's token or API key) that made each commit; NULL before this
-- migration and for commits the service makes on its own (retention).
ALTER TABLE verso.commits ADD COLUMN principal TEXT;

CREATE TABLE verso.roles (
    name       TEXT PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A privilege of a role on one table (table_id), or on every table, present and future (NULL).
-- Grants follow a table through renames and vanish with it.
CREATE TABLE verso.grants (
    role      TEXT   NOT NULL REFERENCES verso.roles (name) ON DELETE CASCADE,
    table_id  BIGINT REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    privilege TEXT   NOT NULL CHECK (privilege IN ('SELECT', 'WRITE', 'ADMIN')),
    UNIQUE NULLS NOT DISTINCT (role, table_id, privilege)
);

-- API keys: only a SHA-256 hash of the key is kept; the key itself is shown once, when created.
CREATE TABLE verso.api_keys (
    id         BIGSERIAL PRIMARY KEY,
    name       TEXT        NOT NULL UNIQUE,
    key_hash   TEXT        NOT NULL UNIQUE,
    roles      TEXT[]      NOT NULL,
    created_by TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_at TIMESTAMPTZ
);

-- Idempotency-Key: the first response to a (principal, key), replayed to retries of the same request.
-- status NULL while the first request is still in flight.
CREATE TABLE verso.idempotency_keys (
    principal    TEXT        NOT NULL,
    key          TEXT        NOT NULL,
    request_hash TEXT        NOT NULL,
    status       INTEGER,
    content_type TEXT,
    body         BYTEA,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, key)
);
CREATE INDEX idempotency_keys_created_at ON verso.idempotency_keys (created_at);
