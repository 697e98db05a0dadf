// Pieces every page uses: the result grid, the commit picker, problem display, and the live
// commit log (polling GET /v1/commits).
import { useEffect, useMemo, useRef, useState } from 'react';
import { flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { api, ApiError } from './api.js';
import { formatValue } from './json.js';

/**
 * A grid of typed values over TanStack Table. `columns` are {name, type}; `rows` arrays of values
 * (statement results) or objects keyed by column name (REST rows). Sorting is the caller's (the
 * service sorts): `sort` is {column, desc} and `onSort(column)` toggles it.
 */
export function Grid({ columns, rows, caption, sort, onSort, cellClass, cellNote, rowHeader, testId }) {
  const defs = useMemo(
    () => columns.map((c, i) => ({
      id: c.name,
      header: c.name,
      meta: c,
      accessorFn: (row) => (Array.isArray(row) ? row[i] : row[c.name]),
    })),
    [columns],
  );
  const table = useReactTable({ data: rows, columns: defs, getCoreRowModel: getCoreRowModel(), manualSorting: true });
  return (
    <div className="grid-wrap">
      <table className="grid" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {rowHeader && <th scope="col"><span className="sr-only">Row</span></th>}
              {hg.headers.map((h) => {
                const c = h.column.columnDef.meta;
                const sorted = sort?.column === c.name ? (sort.desc ? 'descending' : 'ascending') : undefined;
                return (
                  <th key={h.id} scope="col" aria-sort={onSort ? sorted || 'none' : undefined} data-column={c.name}>
                    {onSort ? (
                      <button type="button" className="sort" onClick={() => onSort(c.name)}
                        title={`Sort by ${c.name}`}>
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span aria-hidden="true">{sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ''}</span>
                      </button>
                    ) : flexRender(h.column.columnDef.header, h.getContext())}
                    {c.type && <span className="type">{c.type}</span>}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id} className={cellClass?.(r.index, null) || undefined}>
              {rowHeader && <th scope="row">{rowHeader(r.original, r.index)}</th>}
              {r.getVisibleCells().map((cell) => {
                const v = cell.getValue();
                const name = cell.column.id;
                const cls = [v === null || v === undefined ? 'null' : '', cellClass?.(r.index, name) || ''].join(' ').trim();
                const note = cellNote?.(r.index, name);
                return (
                  <td key={cell.id} className={cls || undefined} data-column={name}>
                    <span className="value">{formatValue(v)}</span>
                    {note && <span className="note">{note}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr><td colSpan={columns.length + (rowHeader ? 1 : 0)} className="empty">No rows</td></tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function ProblemBox({ error }) {
  if (!error) return null;
  const p = error instanceof ApiError ? error.problem : { detail: String(error.message || error) };
  return (
    <div className="problem" role="alert">
      {p.code && <strong className="code">{p.code}</strong>} {p.detail || p.title || error.message}
      {p.line && <span className="where"> (line {p.line}, column {p.column})</span>}
    </div>
  );
}

const WINDOW = 5000n;

/** The commit log (its last 5,000 commits), kept current by polling: new commits appear without a reload. */
export function useCommitLog(intervalMs = 2000) {
  const [log, setLog] = useState({ commits: [], latest: null, error: null });
  const last = useRef('0');
  useEffect(() => {
    let stopped = false;
    let timer;
    async function poll() {
      try {
        if (last.current === '0') {
          // Start a little before the latest commit: a long log is not worth loading whole.
          const latest = await api.latestCommit().then((c) => BigInt(c.commit), (e) => {
            if (e instanceof ApiError && e.status === 404) return 0n;
            throw e;
          });
          last.current = String(latest > WINDOW ? latest - WINDOW : 0n);
        }
        let added = [];
        let page;
        do {
          page = await api.commits(last.current, 1000);
          added = added.concat(page.commits);
          if (page.commits.length) last.current = page.commits[page.commits.length - 1].commit;
        } while (page.next && !stopped);
        if (!stopped) {
          setLog((prev) => (added.length || prev.latest !== page.latestCommit || prev.error
            ? { commits: added.length ? prev.commits.concat(added).slice(-5000) : prev.commits, latest: page.latestCommit, error: null }
            : prev));
        }
      } catch (e) {
        if (!stopped) setLog((prev) => ({ ...prev, error: e }));
      }
      if (!stopped) timer = setTimeout(poll, intervalMs);
    }
    poll();
    return () => { stopped = true; clearTimeout(timer); };
  }, [intervalMs]);
  return log;
}

export function commitLabel(c) {
  if (!c) return '';
  return `commit ${c.commit} · ${new Date(c.committedAt).toISOString().replace('T', ' ').replace('Z', ' UTC')}`;
}

/**
 * Picks a commit from the log with a slider (keyboard: arrows, Home, End) or a number box.
 * `value` null means "latest, following new commits". `commits` is the log (oldest first).
 */
export function CommitPicker({ commits, value, onChange, label = 'As of commit', id }) {
  const index = value == null ? commits.length - 1 : commits.findIndex((c) => c.commit === value);
  const current = commits[index];
  const sliderId = `${id}-slider`;
  if (commits.length === 0) return <div className="picker muted">No commits yet</div>;
  return (
    <div className="picker" data-testid={id}>
      <label htmlFor={sliderId}>{label}</label>
      <input
        id={sliderId}
        type="range"
        min={0}
        max={commits.length - 1}
        step={1}
        value={Math.max(index, 0)}
        aria-valuetext={current ? commitLabel(current) : ''}
        onChange={(e) => {
          const i = Number(e.target.value);
          onChange(i === commits.length - 1 && value == null ? null : commits[i].commit);
        }}
      />
      <output htmlFor={sliderId} className="picked" aria-live="polite">
        {current ? commitLabel(current) : `commit ${value}`}
        {value == null && <span className="live"> · live</span>}
      </output>
      <button type="button" onClick={() => onChange(null)} disabled={value == null}>Latest</button>
    </div>
  );
}

/** The latest commit of the log that touched `table` (a table view refreshes only then). */
export function lastTouch(log, table) {
  for (let i = log.commits.length - 1; i >= 0; i -= 1) {
    if (log.commits[i].tables.some((t) => t.table === table)) return log.commits[i].commit;
  }
  return null;
}
