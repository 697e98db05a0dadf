DESCRIBE items
-- plan
DESCRIBE items
needs: SELECT on items
step 1: carried out as it runs (no query of its own to show)
