-- Derived tables (issue 13): the defining query's text, as written, and the tables it reads. The
-- derived table itself is an ordinary VERSIONED user table; dropping it drops this row.
CREATE TABLE verso.derived_tables (
    table_id       BIGINT PRIMARY KEY REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    query          TEXT   NOT NULL,
    sources        TEXT[] NOT NULL,
    created_commit BIGINT NOT NULL
);
