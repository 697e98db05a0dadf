-- CHECK constraints (issue 11): each table's constraints, in declaration order, with the expression
-- as the user wrote it. The engine compiles it at every write (values as binds); PostgreSQL never
-- holds it as DDL.
CREATE TABLE verso.user_checks (
    table_id   BIGINT  NOT NULL REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    expression TEXT    NOT NULL,
    PRIMARY KEY (table_id, position)
);
