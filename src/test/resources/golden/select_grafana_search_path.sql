SELECT CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END FROM generate_series(array_lower(string_to_array(current_setting('search_path'), ','), 1), array_upper(string_to_array(current_setting('search_path'), ','), 1)) AS i, string_to_array(current_setting('search_path'), ',') s; SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'

-- compiled
SELECT CASE WHEN (trim(("s")["i"]) = ?) THEN CAST(? AS text) ELSE trim(("s")["i"]) END
  FROM generate_series(array_lower(string_to_array(CAST(? AS text),
  ?),
  1),
  array_upper(string_to_array(CAST(? AS text),
  ?),
  1)) AS "i", string_to_array(CAST(? AS text),
  ?) AS "s"
-- $1 = '"$user"'
-- $2 = 'verso'
-- $3 = 'public'
-- $4 = ','
-- $5 = 'public'
-- $6 = ','
-- $7 = 'public'
-- $8 = ','

SELECT "extversion"
  FROM unnest(CAST(? AS integer[]),
  CAST(? AS text[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS text[]),
  CAST(? AS text[])) AS "pg_extension"("oid", "extname", "extowner", "extnamespace", "extrelocatable", "extversion")
  WHERE ("extname" = ?)
-- $1 = integer[] (ArrayBind)
-- $2 = text[] (ArrayBind)
-- $3 = integer[] (ArrayBind)
-- $4 = integer[] (ArrayBind)
-- $5 = text[] (ArrayBind)
-- $6 = text[] (ArrayBind)
-- $7 = 'timescaledb'
