-- The value of a group's one winning version per key, for the AS OF pivot of a table with several attribute
-- groups (compile.RelationCompiler): `verso.winner(c) FILTER (WHERE _g = g AND NOT _deleted)`. At most one
-- row per key and group passes the filter, so the strict transition function never runs: the first non-null
-- input becomes the state as it is. (array_agg(c)[1], used before, builds an array in its own memory
-- context per key and column: about twice the CPU of the whole pivot at 100,000 keys.) COST 1: its
-- default estimate of a SQL function's cost pushed whole-table plans over jit_above_cost, and JIT
-- compilation cost more than the query.
CREATE FUNCTION verso.keep_first(kept anyelement, ignored anyelement) RETURNS anyelement
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS 'SELECT kept';

CREATE AGGREGATE verso.winner(anyelement) (
    SFUNC = verso.keep_first,
    STYPE = anyelement,
    COMBINEFUNC = verso.keep_first,
    PARALLEL = SAFE
);
