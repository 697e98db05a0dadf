-- The latest commit made at or before a time (AS OF TIMESTAMP, FOR SYSTEM_TIME, retention by interval), found by
-- one index probe (io.verso.compile.TimeCompiler): commit times never go back (verso.begin_commit, V18), so the
-- commits up to a time are the log's first ones, and the latest of them is the last entry of this index at or
-- before the time. Without it the lookup walked the log back from its newest commit to the time asked.
CREATE INDEX commits_by_time ON verso.commits (committed_at, seq);
