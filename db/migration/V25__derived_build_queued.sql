-- A derived table build asked for over REST waits for a thread (verso.derived-builds.concurrency) as
-- QUEUED, then runs as RUNNING: a caller polling GET /v1/derived-builds/{id} can tell the two apart.
ALTER TABLE verso.derived_builds DROP CONSTRAINT derived_builds_state_check;
ALTER TABLE verso.derived_builds ADD CONSTRAINT derived_builds_state_check
    CHECK (state IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'));
