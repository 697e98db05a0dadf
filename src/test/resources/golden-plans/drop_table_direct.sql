DROP TABLE items
-- plan
DROP TABLE items
needs: ADMIN on items
step 1: carried out as it runs (no query of its own to show)
