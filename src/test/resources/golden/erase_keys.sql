ERASE FROM balances WHERE chain_id = 1 AND address IN ('0x9c', '0x77') AND token = ?

-- compiled
DELETE
  FROM "verso_data"."t1_cur" AS t USING (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS text) AS "c3"
  FROM unnest(?, ?, ?) AS u(a0, a1, a2)) AS k
  WHERE "t"."c1" = "k"."c1" AND "t"."c2" = "k"."c2" AND "t"."c3" = "k"."c3"
-- $1 = text[1, 1] (ArrayBind)
-- $2 = text[0x9c, 0x77] (ArrayBind)
-- $3 = text[1, 1] (ArrayBind)

DELETE
  FROM "verso_data"."t1_hist" AS t USING (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS text) AS "c3"
  FROM unnest(?, ?, ?) AS u(a0, a1, a2)) AS k
  WHERE "t"."c1" = "k"."c1" AND "t"."c2" = "k"."c2" AND "t"."c3" = "k"."c3"
-- $1 = text[1, 1] (ArrayBind)
-- $2 = text[0x9c, 0x77] (ArrayBind)
-- $3 = text[1, 1] (ArrayBind)

INSERT INTO verso.erasures (commit_seq, table_name, keys, actor) VALUES (?, ?, CAST(? AS jsonb),
  ?)
  ON CONFLICT (commit_seq, table_name) DO UPDATE SET keys = verso.erasures.keys || EXCLUDED.keys
-- $1 = 42 (Long)
-- $2 = 'balances'
-- $3 = '[{chain_id=1, address=0x9c, token=1}, {chain_id=1, address=0x77, token=1}]'
-- $4 = 'tester'
