-- A WITH RECURSIVE query ends only when its recursive step makes no new row: one that never does would run
-- until the statement timeout. The compiler (io.verso.compile.SelectCompiler) puts this guard in the WHERE of
-- every block that reads its own recursive CTE; PostgreSQL evaluates a volatile condition without columns
-- once per joined row, so it counts the rows the steps make, for the whole request's transaction, and refuses
-- the statement with RECURSION_LIMIT (54V02) past verso.max_recursive_rows (set per request transaction by
-- io.verso.engine.ResourceLimits; 1,000,000 where unset). The count lives in a transaction-local setting.
CREATE FUNCTION verso.recursion_step() RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    made bigint := coalesce(nullif(current_setting('verso.recursive_rows', true), '')::bigint, 0) + 1;
    allowed bigint := coalesce(nullif(current_setting('verso.max_recursive_rows', true), '')::bigint, 1000000);
BEGIN
    IF made > allowed THEN
        RAISE EXCEPTION 'the recursive steps of WITH RECURSIVE made more than % rows (verso.max-recursive-rows): a recursion that does not end, or one too large for a request',
            allowed USING ERRCODE = '54V02',
            HINT = 'bound the recursive step with a WHERE (a depth column, say: n + 1 ... WHERE n < 100)';
    END IF;
    PERFORM set_config('verso.recursive_rows', made::text, true);
    RETURN true;
END
$$;
