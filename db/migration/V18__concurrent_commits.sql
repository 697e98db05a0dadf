-- Commits to different tables run their data work at once; only the draw of the commit sequence and
-- the order in which commits become visible are serialised (engine.StatementEngine).
--
-- Lock keys (transaction-scoped advisory locks unless said otherwise):
--   8531350909232349185 = 0x7665_7273_6f00_0001  the commit lock: SHARE for a writer that names its
--                         tables up front (plain INSERT/UPSERT VALUES, DELETE by keys), EXCLUSIVE for
--                         every other writer (DDL, UPDATE/DELETE with WHERE, ERASE, a write to a source
--                         of a derived table ...), which so runs alone, as every writer did before.
--   (1986359924, hashtext(name))              one per table a SHARE writer writes, taken in hash order
--                         before its sequence is drawn: writers of one table run one after another.
--   8531350909232349186 = 0x7665_7273_6f00_0002  session-level, held only while a sequence is drawn
--                         and registered, so every lower sequence is registered when a higher one exists.
--   8526247579984330752 + seq  (0x7653_5100_0000_0000, sequence in the low 40 bits)  held by the
--                         writer that drew seq until it ends; a writer waits for every lower one still
--                         held before it commits, so sequences become visible in increasing order.

CREATE FUNCTION verso.begin_commit(timeout text, tables text[], exclusive boolean)
    RETURNS TABLE (seq bigint, committed_at timestamptz, latest bigint, catalog_version bigint, derived boolean)
    LANGUAGE plpgsql AS $$
DECLARE
    drawn bigint;
    drawn_at timestamptz;
    -- A derived table one of these tables feeds: its maintenance reads its other sources too.
    alone boolean := exclusive OR EXISTS (SELECT 1 FROM verso.derived_tables d WHERE d.sources && tables);
BEGIN
    PERFORM set_config('statement_timeout', timeout, true);
    IF alone THEN
        PERFORM pg_advisory_xact_lock(8531350909232349185);
    ELSE
        PERFORM pg_advisory_xact_lock_shared(8531350909232349185);
        -- Such a derived table made meanwhile: this writer runs alone after all.
        IF EXISTS (SELECT 1 FROM verso.derived_tables d WHERE d.sources && tables) THEN
            PERFORM pg_advisory_xact_lock(8531350909232349185);
            alone := true;
        END IF;
        IF NOT alone THEN
            PERFORM pg_advisory_xact_lock(1986359924, h)
                FROM (SELECT DISTINCT hashtext(t) AS h FROM unnest(tables) AS t ORDER BY 1) AS ordered;
        END IF;
    END IF;
    BEGIN
        PERFORM pg_advisory_lock(8531350909232349186);
        drawn := nextval('verso.commit_seq');
        -- The time under the same short lock: times then increase with sequences (the clock permitting).
        drawn_at := clock_timestamp();
        PERFORM pg_advisory_xact_lock(8526247579984330752 + drawn);
        PERFORM pg_advisory_unlock(8531350909232349186);
    EXCEPTION WHEN OTHERS OR query_canceled THEN
        IF EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid()
                   AND l.classid = 1986359923 AND l.objid = 1862270978 AND l.objsubid = 1) THEN
            PERFORM pg_advisory_unlock(8531350909232349186);
        END IF;
        RAISE;
    END;
    -- The commit's time never goes back behind an earlier visible commit's (AS OF TIMESTAMP relies on
    -- times ordered like sequences, also across instances whose clocks disagree).
    RETURN QUERY SELECT drawn, greatest(drawn_at, (SELECT max(c.committed_at) FROM verso.commits c)),
        (SELECT coalesce(max(c.seq), 0) FROM verso.commits c), (SELECT v.version FROM verso.catalog_version v),
        EXISTS (SELECT 1 FROM verso.derived_tables);
END
$$;

-- Waits until every writer holding a lower sequence has ended (committed, so visible, or rolled back).
CREATE FUNCTION verso.await_earlier_commits(mine bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    earlier bigint;
BEGIN
    FOR earlier IN
        SELECT ((l.classid::bigint << 32) | l.objid::bigint) - 8526247579984330752
        FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.mode = 'ExclusiveLock' AND l.granted
          AND l.classid::bigint BETWEEN 1985171712 AND 1985171967 AND l.pid <> pg_backend_pid()
    LOOP
        IF earlier < mine THEN
            PERFORM pg_advisory_xact_lock_shared(8526247579984330752 + earlier);
        END IF;
    END LOOP;
END
$$;
