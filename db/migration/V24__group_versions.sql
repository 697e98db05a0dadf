-- The first commit at which each attribute group of a VERSIONED table had a current version
-- (compile.WriteCompiler records it in the statement that writes the group; engine writers of one table
-- run one after another, so the first to record is the lowest commit). An AS OF read at commit n where at
-- most one group has a first commit <= n needs no pivot of the groups' winners per key: every version
-- current at n belongs to that one group (compile.RelationCompiler). Versions removed later (ERASE,
-- retention, a derived table's rebuild) leave the row as it is: an earlier first commit only costs a
-- pivot that was not needed, never a wrong answer.
CREATE TABLE verso.group_versions (
    table_id     BIGINT  NOT NULL REFERENCES verso.user_tables (id) ON DELETE CASCADE,
    group_id     INTEGER NOT NULL,
    first_commit BIGINT  NOT NULL,
    PRIMARY KEY (table_id, group_id)
);

-- Tables written before this migration: from their history (versions that never were current have no
-- _from and do not count).
CREATE FUNCTION verso.record_group_versions(tid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO verso.group_versions (table_id, group_id, first_commit) '
                   'SELECT $1, _g, min(_from) FROM verso_data.%I WHERE _from IS NOT NULL GROUP BY _g '
                   'ON CONFLICT (table_id, group_id) DO UPDATE SET first_commit = '
                   'least(verso.group_versions.first_commit, EXCLUDED.first_commit)',
                   't' || tid || '_hist')
        USING tid;
END $$;

DO $$ BEGIN PERFORM verso.record_group_versions(id) FROM verso.user_tables WHERE mode = 'VERSIONED'; END $$;
