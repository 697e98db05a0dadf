-- Builds of derived tables asked for over REST (POST /v1/derived-tables): their progress and outcome,
-- written outside the build's own transaction as it runs, so any instance can answer
-- GET /v1/derived-builds/{id} while it runs and after. Finished builds are kept for a week.
CREATE TABLE verso.derived_builds (
    id              UUID        PRIMARY KEY,
    -- Who asked (NULL with security off): only they and administrators may read the build.
    principal       TEXT,
    table_name      TEXT        NOT NULL,
    state           TEXT        NOT NULL CHECK (state IN ('RUNNING', 'SUCCEEDED', 'FAILED')),
    -- Earlier source commits the build replays (NULL until it knows), and how many it has applied.
    commits_total   BIGINT,
    commits_applied BIGINT      NOT NULL DEFAULT 0,
    rows_written    BIGINT      NOT NULL DEFAULT 0,
    -- SUCCEEDED: the commit that created the table. FAILED: the problem, as the request would have got it.
    commit_seq      BIGINT,
    error_code      TEXT,
    error_status    INT,
    error_detail    TEXT,
    started_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ
);

CREATE INDEX derived_builds_finished ON verso.derived_builds (finished_at) WHERE finished_at IS NOT NULL;
