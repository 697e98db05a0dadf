DELETE FROM items WHERE id = 3 AT (ix = 9)
-- plan
DELETE FROM items
reads: nothing (the WHERE names every key column)
needs: SELECT on items, WRITE on items
step 1: write a tombstone for each key named, at this request's commit
