ALTER TABLE items RENAME TO products

-- compiled
-- catalog only: items is products, storage t2_cur unchanged
