CREATE TABLE fresh (k INT PRIMARY KEY)
-- plan
CREATE TABLE
needs: ADMIN on ALL TABLES
step 1: carried out as it runs (no query of its own to show)
