ALTER TABLE items SET HISTORY RETENTION '90 days';
ALTER TABLE items SET HISTORY RETENTION 10000 COMMITS

-- compiled
SELECT CAST(CAST(? AS interval) AS text)
-- $1 = '90 days'

-- catalog only: retention 10000 commits
