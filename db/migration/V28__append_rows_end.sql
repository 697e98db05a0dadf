-- APPEND tables take UPDATE and DELETE (engine/AppendChanges): a changed or removed row is not overwritten
-- but ended, its _to set to the commit that ended it (NULL while current), so AS OF COMMIT n still reads
-- the rows as they stood at n. Every APPEND table's storage gets the column, NULL for every row it holds
-- (a catalog-only change in PostgreSQL); its unique indexes, which held over every row ever appended, now
-- hold over current rows, as on every other mode.
CREATE FUNCTION verso.add_append_rows_end(tid bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    storage regclass := to_regclass(format('verso_data.%I', 't' || tid || '_cur'));
    idx record;
BEGIN
    IF storage IS NULL THEN
        RETURN;
    END IF;
    EXECUTE format('ALTER TABLE %s ADD COLUMN IF NOT EXISTS _to bigint', storage);
    FOR idx IN SELECT i.indexrelid::regclass AS name, pg_get_indexdef(i.indexrelid) AS definition
               FROM pg_index i WHERE i.indrelid = storage AND i.indisunique AND i.indpred IS NULL LOOP
        EXECUTE format('DROP INDEX %s', idx.name);
        EXECUTE idx.definition || ' WHERE (_to IS NULL)';
    END LOOP;
END $$;

DO $$ BEGIN PERFORM verso.add_append_rows_end(id) FROM verso.user_tables WHERE mode = 'APPEND'; END $$;

DROP FUNCTION verso.add_append_rows_end(bigint);
