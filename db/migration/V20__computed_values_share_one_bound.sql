-- One bound for all the values a statement computes in a row, not one per value: PostgreSQL keeps every
-- value of a row's expressions until the row is done, so a select list of a hundred guarded || chains,
-- each under verso.max_concat_bytes, could still hold a hundred times the bound in one backend. The
-- compiler (io.verso.compile.ExprCompiler) now passes each guard the number of guarded values in its
-- statement (shares), and each may build at most verso.max_concat_bytes / shares: together they stay
-- under the bound. The V16/V19 one-argument guards stay for instances not yet upgraded.

-- Raises VALUE_TOO_LARGE (54V01) when `needed` bytes are over one of `shares` equal shares of
-- verso.max_concat_bytes (set per request transaction by io.verso.engine.ResourceLimits; 128 MB where
-- unset); `what` names the value in the message. NULL (lpad to a NULL length) builds nothing.
CREATE FUNCTION verso.check_computed(what text, needed bigint, shares integer) RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    allowed bigint := coalesce(nullif(current_setting('verso.max_concat_bytes', true), '')::bigint, 134217728);
BEGIN
    IF needed IS NULL OR needed <= allowed / greatest(shares, 1) THEN
        RETURN true;
    END IF;
    IF shares > 1 THEN
        RAISE EXCEPTION '% would build % bytes, over its share of the limit on computed values: % bytes of % (verso.max-concat-bytes), shared by the statement''s % guarded values',
            what, needed, allowed / shares, allowed, shares USING ERRCODE = '54V01';
    END IF;
    RAISE EXCEPTION '% would build % bytes, over the limit of % bytes (verso.max-concat-bytes)',
        what, needed, allowed USING ERRCODE = '54V01';
END
$$;

-- sizes: each term's length times the number of concatenations above it (V16).
CREATE FUNCTION verso.concat_fits(sizes bigint[], shares integer) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT verso.check_computed('a || concatenation (its result and intermediate results)',
        (SELECT coalesce(sum(size), 0)::bigint FROM unnest(sizes) AS size), shares)
$$;

-- lpad's and rpad's length, returned when it fits (an integer, as they take it).
CREATE FUNCTION verso.length_fits(length bigint, shares integer) RETURNS integer
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN verso.check_computed('a padded value (lpad, rpad)', length, shares) THEN length::integer END
$$;

CREATE FUNCTION verso.replace_fits(size bigint, shares integer) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT verso.check_computed('replace()', size, shares)
$$;
