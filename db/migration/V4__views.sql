-- Views: a name and the text of its query, expanded again (and analysed afresh) at every use.
CREATE TABLE verso.user_views (
    name           TEXT   PRIMARY KEY,
    columns        TEXT[] NOT NULL,
    query          TEXT   NOT NULL,
    created_commit BIGINT NOT NULL
);
