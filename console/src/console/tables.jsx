// Tables: the catalog with modes, keys, groups and row counts; a table's rows paged, sorted and
// filtered, now or as of a picked commit; and the diff between two commits.
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, quoteIdent } from './api.js';
import { CommitPicker, Grid, ProblemBox, lastTouch } from './common.jsx';
import { formatValue } from './json.js';

const PAGE = 50;

/** `value`, but changing at most once per `ms` (the last change is not lost). */
function useThrottled(value, ms) {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + ms - Date.now());
    const timer = setTimeout(() => { last.current = Date.now(); setShown(value); }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
}
const hasHistory = (mode) => mode === 'VERSIONED' || mode === 'APPEND';

export function TablesPage({ log, table, view, navigate }) {
  const [list, setList] = useState(null);
  const [counts, setCounts] = useState({});
  const [error, setError] = useState(null);

  useEffect(() => {
    api.tables().then((r) => { setList(r.tables); setError(null); }, setError);
  }, [log.latest]);

  // Row counts through the statement endpoint: one request per 100 tables (a request's most statements,
  // verso.max-statements); a failure (a table the caller may not read) falls back to one request per table
  // of that hundred. Counting is a scan of every table: at most every 10 s while commits land.
  const countTick = useThrottled(log.latest, 10000);
  useEffect(() => {
    if (!list || list.length === 0) return;
    const all = list.map((t) => t.name);
    for (let from = 0; from < all.length; from += 100) {
      const names = all.slice(from, from + 100);
      const sql = names.map((n) => `SELECT count(*) FROM ${quoteIdent(n)}`).join(';\n');
      api.sql(sql).then(
        (r) => setCounts((c) => ({ ...c, ...Object.fromEntries(names.map((n, i) => [n, r.results[i].rows[0][0]])) })),
        () => names.forEach((n) => api.sql(`SELECT count(*) FROM ${quoteIdent(n)}`).then(
          (r) => setCounts((c) => ({ ...c, [n]: r.results[0].rows[0][0] })),
          () => setCounts((c) => ({ ...c, [n]: '?' })),
        )),
      );
    }
  }, [(list || []).map((t) => t.name).join(','), countTick]);

  return (
    <div className="split">
      <nav className="table-list" aria-label="Tables">
        <h2>Tables</h2>
        <ProblemBox error={error} />
        {list && list.length === 0 && <p className="muted">No tables yet. Create one on the Statements page.</p>}
        <ul>
          {(list || []).map((t) => (
            <li key={t.name}>
              <a href={`#/tables/${encodeURIComponent(t.name)}`} aria-current={t.name === table ? 'page' : undefined}>
                <span className="name">{t.name}</span>
                <span className={`mode mode-${t.mode}`}>{t.mode}</span>
                <span className="count" title="rows now">{counts[t.name] ?? '…'}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section className="table-detail" aria-label="Table">
        {table ? <TableDetail key={table} name={table} view={view} log={log} navigate={navigate} />
          : <p className="muted">Pick a table.</p>}
      </section>
    </div>
  );
}

function TableDetail({ name, view, log, navigate }) {
  const [desc, setDesc] = useState(null);
  const [error, setError] = useState(null);
  const touched = lastTouch(log, name);
  useEffect(() => {
    api.describe(name).then(setDesc, setError);
  }, [name, touched]);
  if (error) return <ProblemBox error={error} />;
  if (!desc) return <p aria-busy="true">Loading…</p>;
  return (
    <>
      <h2>{desc.name} <span className={`mode mode-${desc.mode}`}>{desc.mode}</span></h2>
      <Definition desc={desc} />
      <div className="tabs" role="tablist" aria-label="Views of the table">
        <a role="tab" aria-selected={view !== 'diff'} href={`#/tables/${encodeURIComponent(name)}`}>Rows</a>
        {hasHistory(desc.mode) && (
          <a role="tab" aria-selected={view === 'diff'} href={`#/tables/${encodeURIComponent(name)}/diff`}>Diff</a>
        )}
      </div>
      {view === 'diff' ? <DiffView desc={desc} log={log} /> : <RowsView desc={desc} log={log} navigate={navigate} />}
    </>
  );
}

function Definition({ desc }) {
  // A default group without columns exists in name only (every non-key column is in a named group).
  const groups = desc.groups.filter((g) => g.columns.length > 0);
  const ordering = (g) => [
    g.validBy.length ? `VALID BY (${g.validBy.join(', ')})` : '',
    g.revisionBy.length ? `REVISION BY (${g.revisionBy.join(', ')})` : '',
  ].filter(Boolean).join(' ') || 'commit order';
  return (
    <dl className="definition">
      <dt>Key</dt><dd>{desc.key.length ? desc.key.join(', ') : 'none'}</dd>
      <dt>Columns</dt>
      <dd>{desc.columns.map((c) => (
        <span key={c.name} className="col">{c.name} <span className="type">{c.type}{c.nullable ? '' : ' NOT NULL'}</span></span>
      ))}</dd>
      {groups.length > 0 && <dt>Groups</dt>}
      {groups.length > 0 && (
        <dd>{groups.map((g) => (
          <div key={g.name} className="group"><strong>{g.name}</strong> ({g.columns.join(', ')}) · {ordering(g)}</div>
        ))}</dd>
      )}
      <dt>Indexes</dt>
      <dd>{desc.indexes.length ? desc.indexes.map((i) => (
        <span key={i.name} className="col">{i.name} ({i.columns.join(', ')}) {i.scope}</span>
      )) : 'none'}</dd>
      <dt>Created</dt><dd>commit {desc.createdCommit}{desc.historyHorizon !== '0' ? ` · history from commit ${desc.historyHorizon}` : ''}</dd>
    </dl>
  );
}

/** "amount:gt:100; token:eq:USDC" → the REST filter parameters. */
function parseFilters(text) {
  return text.split(/[;\n]/).map((s) => s.trim()).filter(Boolean);
}

function RowsView({ desc, log, navigate }) {
  const [asOf, setAsOf] = useState(null);
  const [filterText, setFilterText] = useState('');
  const [filters, setFilters] = useState([]);
  const [sort, setSort] = useState(null);
  const [cursors, setCursors] = useState([null]);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const history = hasHistory(desc.mode);
  const commits = useMemo(
    () => log.commits.filter((c) => BigInt(c.commit) >= BigInt(desc.createdCommit)),
    [log.commits, desc.createdCommit],
  );
  const cursor = cursors[cursors.length - 1];
  // Live: an unpinned first page follows the commits that touch the table.
  const follow = asOf == null && cursor == null ? lastTouch(log, desc.name) : null;

  useEffect(() => {
    let cancelled = false;
    api.rows(desc.name, {
      filter: filters,
      order: sort ? [`${sort.column}${sort.desc ? ':desc' : ''}`] : [],
      limit: PAGE,
      cursor,
      asOfCommit: asOf,
    }).then((p) => { if (!cancelled) { setPage(p); setError(null); } }, (e) => { if (!cancelled) setError(e); });
    return () => { cancelled = true; };
  }, [desc.name, filters, sort, cursor, asOf, follow]);

  const reset = () => setCursors([null]);
  const columns = desc.columns.map((c) => ({ name: c.name, type: c.type }));
  const story = desc.mode === 'VERSIONED' && desc.key.length > 0;
  return (
    <div className="rows-view">
      <form className="toolbar" onSubmit={(e) => { e.preventDefault(); setFilters(parseFilters(filterText)); reset(); }}>
        <label htmlFor="filter">Filter</label>
        <input id="filter" type="search" value={filterText} onChange={(e) => setFilterText(e.target.value)}
          placeholder="amount:gt:100; token:eq:USDC" aria-describedby="filter-help" size={36} />
        <button type="submit">Apply</button>
        <span id="filter-help" className="muted">column:op:value, ops eq ne lt le gt ge in notIn like ilike isNull notNull; separate with ;</span>
      </form>
      {history ? (
        <CommitPicker id="rows-commit" commits={commits} value={asOf} onChange={(c) => { setAsOf(c); reset(); }} />
      ) : <p className="muted">UPSERT tables keep no history: rows are always the latest.</p>}
      <ProblemBox error={error} />
      {page && (
        <>
          <p className="status" aria-live="polite" data-testid="rows-status">
            {page.rows.length} {page.rows.length === 1 ? 'row' : 'rows'} · read at commit {page.readCommit}{asOf ? ` (as of commit ${asOf})` : ''}
          </p>
          <Grid
            testId="rows-grid"
            caption={`${desc.name} rows`}
            columns={columns}
            rows={page.rows}
            sort={sort}
            onSort={(column) => { setSort(sort?.column === column ? (sort.desc ? null : { column, desc: true }) : { column, desc: false }); reset(); }}
            rowHeader={story ? (row) => (
              <button type="button" className="link" title="This key's versions on a timeline"
                onClick={() => navigate(`#/story/${encodeURIComponent(desc.name)}?${desc.key.map((k) => `key=${encodeURIComponent(formatValue(row[k]))}`).join('&')}`)}>
                timeline
              </button>
            ) : undefined}
          />
          <div className="pager">
            <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>Previous page</button>
            <button type="button" disabled={!page.nextCursor} onClick={() => setCursors([...cursors, page.nextCursor])}>Next page</button>
          </div>
        </>
      )}
    </div>
  );
}

function DiffView({ desc, log }) {
  const commits = useMemo(
    () => log.commits.filter((c) => BigInt(c.commit) >= BigInt(desc.createdCommit)),
    [log.commits, desc.createdCommit],
  );
  const [from, setFrom] = useState(null);
  const [to, setTo] = useState(null);
  const [diff, setDiff] = useState(null);
  const [error, setError] = useState(null);
  const fromCommit = from ?? commits[0]?.commit;
  const toCommit = to ?? log.latest;

  useEffect(() => {
    if (!fromCommit || !toCommit) return;
    api.diff(desc.name, fromCommit, toCommit).then((d) => { setDiff(d); setError(null); }, setError);
  }, [desc.name, fromCommit, toCommit]);

  const columns = [{ name: 'change', type: '' }, ...desc.columns.map((c) => ({ name: c.name, type: c.type }))];
  const rows = [];
  const marks = [];
  if (diff) {
    diff.added.forEach((r) => { rows.push({ change: 'added', ...r }); marks.push({ kind: 'added' }); });
    diff.removed.forEach((r) => { rows.push({ change: 'removed', ...r }); marks.push({ kind: 'removed' }); });
    diff.changed.forEach((c) => { rows.push({ change: 'changed', ...c.after }); marks.push({ kind: 'changed', change: c }); });
  }
  const select = (id, label, value, set) => (
    <span>
      <label htmlFor={id}>{label}</label>{' '}
      <select id={id} value={value || ''} onChange={(e) => set(e.target.value)}>
        {commits.map((c) => <option key={c.commit} value={c.commit}>commit {c.commit}</option>)}
      </select>
    </span>
  );
  return (
    <div className="diff-view">
      <div className="toolbar">
        {select('diff-from', 'From', fromCommit, setFrom)}
        {select('diff-to', 'To', toCommit, setTo)}
      </div>
      <ProblemBox error={error} />
      {diff && (
        <>
          <p className="status" aria-live="polite" data-testid="diff-status">
            commit {diff.fromCommit} → {diff.toCommit}: {diff.added.length} added, {diff.removed.length} removed, {diff.changed.length} changed
          </p>
          <Grid
            testId="diff-grid"
            caption={`Changes in ${desc.name} from commit ${diff.fromCommit} to ${diff.toCommit}`}
            columns={columns}
            rows={rows}
            cellClass={(i, column) => {
              const m = marks[i];
              if (column === null) return `diff-${m.kind}`;
              return m.kind === 'changed' && m.change.columns.includes(column) ? 'changed-cell' : '';
            }}
            cellNote={(i, column) => {
              const m = marks[i];
              return m.kind === 'changed' && m.change.columns.includes(column)
                ? `was ${formatValue(m.change.before[column])}` : undefined;
            }}
          />
        </>
      )}
    </div>
  );
}
