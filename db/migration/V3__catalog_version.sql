-- A counter every catalog change increments in its own transaction: readers compare it with the
-- version of their cached definitions instead of reloading the catalog on every request.
CREATE TABLE verso.catalog_version (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    version  BIGINT  NOT NULL
);
INSERT INTO verso.catalog_version (version) VALUES (1);
