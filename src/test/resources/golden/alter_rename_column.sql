ALTER TABLE items RENAME COLUMN ix TO position

-- compiled
-- catalog only: items (id c1, name c2, price c3, position c4)
