-- Unique indexes over current rows (CREATE UNIQUE INDEX, UNIQUE columns).
ALTER TABLE verso.user_indexes ADD COLUMN unique_index BOOLEAN NOT NULL DEFAULT FALSE;

-- Views: a name and the text of its query, expanded again (and analysed afresh) at every use.
CREATE TABLE verso.user_views (
    name           TEXT   PRIMARY KEY,
    columns        TEXT[] NOT NULL,
    query          TEXT   NOT NULL,
    created_commit BIGINT NOT NULL
);
