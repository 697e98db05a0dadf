-- System versioning in MariaDB's syntax (issue 12): the names of a table's period columns, and
-- whether they are the implicit invisible ones. Both names NULL: the table is not system-versioned.
ALTER TABLE verso.user_tables
    ADD COLUMN period_start    TEXT,
    ADD COLUMN period_end      TEXT,
    ADD COLUMN period_implicit BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE verso.user_tables DROP CONSTRAINT user_tables_mode_check;
ALTER TABLE verso.user_tables ADD CONSTRAINT user_tables_mode_check
    CHECK (mode IN ('APPEND', 'UPSERT', 'VERSIONED', 'SYSTEM'));
