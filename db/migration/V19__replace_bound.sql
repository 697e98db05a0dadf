-- What replace(s, from, to) may build, checked against the bound of || chains (verso.max_concat_bytes,
-- io.verso.compile.ExprCompiler): each occurrence of `from` in `s` grows the result by the difference in
-- length, so replace(repeat('a', 1000000), 'a', <1 KB>) would build a gigabyte for each row. The compiler
-- passes the largest size the call can build, computed from its arguments' lengths before it runs.
CREATE FUNCTION verso.replace_fits(size bigint) RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    allowed bigint := coalesce(nullif(current_setting('verso.max_concat_bytes', true), '')::bigint, 134217728);
BEGIN
    IF size > allowed THEN
        RAISE EXCEPTION 'replace() could build % bytes, over the limit of % bytes (verso.max-concat-bytes)',
            size, allowed USING ERRCODE = '54V01';
    END IF;
    RETURN true;
END
$$;
