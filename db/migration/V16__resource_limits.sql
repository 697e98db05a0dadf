-- Bounds what a || chain may build (io.verso.compile.ExprCompiler): PostgreSQL keeps every intermediate
-- result of a row's expression until the row is done, so s || s || ... n times builds about n^2/2 times s,
-- and a few thousand terms over 1 MiB values grew one backend past 20 GB without once checking the
-- statement timeout. The compiler guards each chain with this check of its bytes (result and
-- intermediate results), computed from its terms' lengths before any of it is built. The limit is
-- verso.max_concat_bytes, set per request transaction (io.verso.engine.ResourceLimits).
-- sizes: each term's length times the number of concatenations above it (an array, so that a chain of
-- thousands of terms is not also a sum nested thousands deep).
CREATE FUNCTION verso.concat_fits(sizes bigint[]) RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    allowed bigint := coalesce(nullif(current_setting('verso.max_concat_bytes', true), '')::bigint, 134217728);
    needed bigint := 0;
    size bigint;
BEGIN
    FOREACH size IN ARRAY sizes LOOP
        needed := needed + size;
    END LOOP;
    IF needed > allowed THEN
        RAISE EXCEPTION 'a || concatenation would build % bytes (its result and intermediate results), over the limit of % bytes (verso.max-concat-bytes)',
            needed, allowed USING ERRCODE = '54V01';
    END IF;
    RETURN true;
END
$$;

-- The length lpad and rpad are asked to build, checked against the same limit: lpad(s, 1000000000) would
-- allocate a gigabyte for each row.
CREATE FUNCTION verso.length_fits(length bigint) RETURNS integer
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    allowed bigint := coalesce(nullif(current_setting('verso.max_concat_bytes', true), '')::bigint, 134217728);
BEGIN
    IF length > allowed THEN
        RAISE EXCEPTION 'a padded value of % characters was asked for, over the limit of % (verso.max-concat-bytes)',
            length, allowed USING ERRCODE = '54V01';
    END IF;
    RETURN length;
END
$$;

-- Idempotency-Key and the commit it made, written in the commit's own transaction (io.verso.engine's
-- write path): a service that dies between its commit and storing the answer leaves the key claimed with
-- commit_seq set, and a retry is told that commit instead of running (and committing) again.
ALTER TABLE verso.idempotency_keys ADD COLUMN commit_seq BIGINT;
