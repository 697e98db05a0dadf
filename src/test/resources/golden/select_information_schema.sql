SELECT c.table_name, c.column_name, tc.constraint_type FROM information_schema.columns c LEFT JOIN information_schema.key_column_usage k USING (table_name, column_name) LEFT JOIN information_schema.table_constraints tc ON tc.constraint_name = k.constraint_name WHERE c.table_name = 'settings'

-- compiled
SELECT "c"."table_name", "c"."column_name", "tc"."constraint_type"
  FROM ((unnest(CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS integer[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS integer[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[])) AS "c"("table_catalog", "table_schema", "table_name", "column_name", "ordinal_position", "column_default", "is_nullable", "data_type", "character_maximum_length", "character_octet_length", "numeric_precision", "numeric_precision_radix", "numeric_scale", "datetime_precision", "interval_type", "udt_catalog", "udt_schema", "udt_name", "is_identity", "is_generated", "is_updatable") LEFT
  JOIN unnest(CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS integer[]),
  CAST(? AS integer[])) AS "k"("constraint_catalog", "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name", "column_name", "ordinal_position", "position_in_unique_constraint") USING ("table_name", "column_name")) LEFT
  JOIN unnest(CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[]),
  CAST(? AS text[])) AS "tc"("constraint_catalog", "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name", "constraint_type", "is_deferrable", "initially_deferred", "enforced", "nulls_distinct") ON ("tc"."constraint_name" = "k"."constraint_name"))
  WHERE ("c"."table_name" = ?)
-- $1 = text[verso, verso, verso, verso, verso, verso] (ArrayBind)
-- $2 = text[public, public, public, public, public, public] (ArrayBind)
-- $3 = text[items, items, items, items, settings, settings] (ArrayBind)
-- $4 = text[id, name, price, ix, name, value] (ArrayBind)
-- $5 = integer[1, 2, 3, 4, 1, 2] (ArrayBind)
-- $6 = text[null, 'unnamed'::text, null, null, null, null] (ArrayBind)
-- $7 = text[NO, NO, YES, NO, NO, YES] (ArrayBind)
-- $8 = text[bigint, text, numeric, integer, text, text] (ArrayBind)
-- $9 = integer[null, null, null, null, null, null] (ArrayBind)
-- $10 = integer[null, 1073741824, null, null, 1073741824, 1073741824] (ArrayBind)
-- $11 = integer[64, null, 12, 32, null, null] (ArrayBind)
-- $12 = integer[2, null, 10, 2, null, null] (ArrayBind)
-- $13 = integer[0, null, 2, 0, null, null] (ArrayBind)
-- $14 = integer[null, null, null, null, null, null] (ArrayBind)
-- $15 = text[null, null, null, null, null, null] (ArrayBind)
-- $16 = text[verso, verso, verso, verso, verso, verso] (ArrayBind)
-- $17 = text[pg_catalog, pg_catalog, pg_catalog, pg_catalog, pg_catalog, pg_catalog] (ArrayBind)
-- $18 = text[int8, text, numeric, int4, text, text] (ArrayBind)
-- $19 = text[NO, NO, NO, NO, NO, NO] (ArrayBind)
-- $20 = text[NEVER, NEVER, NEVER, NEVER, NEVER, NEVER] (ArrayBind)
-- $21 = text[YES, YES, YES, YES, YES, YES] (ArrayBind)
-- $22 = text[verso, verso] (ArrayBind)
-- $23 = text[public, public] (ArrayBind)
-- $24 = text[items_pkey, settings_pkey] (ArrayBind)
-- $25 = text[verso, verso] (ArrayBind)
-- $26 = text[public, public] (ArrayBind)
-- $27 = text[items, settings] (ArrayBind)
-- $28 = text[id, name] (ArrayBind)
-- $29 = integer[1, 1] (ArrayBind)
-- $30 = integer[null, null] (ArrayBind)
-- $31 = text[verso, verso] (ArrayBind)
-- $32 = text[public, public] (ArrayBind)
-- $33 = text[items_pkey, settings_pkey] (ArrayBind)
-- $34 = text[verso, verso] (ArrayBind)
-- $35 = text[public, public] (ArrayBind)
-- $36 = text[items, settings] (ArrayBind)
-- $37 = text[PRIMARY KEY, PRIMARY KEY] (ArrayBind)
-- $38 = text[NO, NO] (ArrayBind)
-- $39 = text[NO, NO] (ArrayBind)
-- $40 = text[YES, YES] (ArrayBind)
-- $41 = text[null, null] (ArrayBind)
-- $42 = 'settings'
