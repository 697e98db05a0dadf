// The commit log, newest first, growing as commits land (the poll in useCommitLog).
import { Grid, ProblemBox } from './common.jsx';

export function CommitsPage({ log }) {
  const rows = [...log.commits].reverse().slice(0, 500).map((c) => ({
    commit: c.commit,
    committedAt: c.committedAt,
    rowCount: c.rowCount,
    tables: c.tables.map((t) => `${t.table} (${t.rowCount})`).join(', '),
  }));
  return (
    <div>
      <h2>Commits</h2>
      <ProblemBox error={log.error} />
      <p className="status" aria-live="polite" data-testid="latest-commit">
        {log.latest ? `Latest commit ${log.latest}` : 'No commits yet'} · updates every 2 s
      </p>
      <Grid testId="commits-grid" caption="Commits, newest first" rows={rows}
        columns={[{ name: 'commit' }, { name: 'committedAt' }, { name: 'rowCount' }, { name: 'tables' }]} />
    </div>
  );
}
