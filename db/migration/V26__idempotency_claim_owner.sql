-- The database session that claimed an Idempotency-Key (io.verso.security.IdempotencyFilter), by its
-- backend pid and start time, which together name one session for the life of the cluster. A service or
-- PostgreSQL that dies takes its sessions with it, so a retry recognises an unanswered claim whose session
-- is gone (pg_stat_get_activity) and takes it over at once; only claims made before this column existed
-- (owner_pid NULL) still wait out verso.security.idempotency.in-flight. The owner is also the claim's
-- identity: a request whose claim was taken over marks, stores and releases nothing.
ALTER TABLE verso.idempotency_keys ADD COLUMN owner_pid INTEGER, ADD COLUMN owner_started TIMESTAMPTZ;
