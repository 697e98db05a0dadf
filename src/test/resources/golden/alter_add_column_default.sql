ALTER TABLE items ADD COLUMN note TEXT NOT NULL DEFAULT 'it''s none'

-- compiled
SELECT quote_literal(CAST(? AS text))
-- $1 = 'it's none'

ALTER TABLE "verso_data"."t2_cur" ADD COLUMN "c5" text DEFAULT CAST('it''s none' AS text)

ALTER TABLE "verso_data"."t2_cur" ALTER COLUMN "c5" DROP DEFAULT

ALTER TABLE "verso_data"."t2_hist" ADD COLUMN "c5" text DEFAULT CAST('it''s none' AS text)

ALTER TABLE "verso_data"."t2_hist" ALTER COLUMN "c5" DROP DEFAULT
