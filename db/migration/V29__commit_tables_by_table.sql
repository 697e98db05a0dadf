-- The latest commit that wrote a table, found by one index probe: a one-statement read returns it with its
-- rows (io.verso.engine.CommitProtocol#readAlone), and the ETag of a current read is made from it
-- (io.verso.api.rest.ConditionalReads). The primary key leads with the commit, so without this the probe would
-- walk the commit log back to the table's last write.
CREATE INDEX commit_tables_by_table ON verso.commit_tables (table_name, commit_seq);
