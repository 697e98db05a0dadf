// A key's story: every retained version of one key per attribute group, on a timeline of commits.
// Rows of the chart are the versions in their VALID BY / REVISION BY order (greatest on top); a
// marker shows the commit each arrived in, a bar the commits during which it was the winner.
// Versions that lost on arrival have no bar and a red cross; tombstones are dark. A slider picks a
// commit: the chart marks it, the table names the winner there, and the grid shows the row then.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement,
  PointElement, Tooltip,
} from 'chart.js';
import { api, commitCompare } from './api.js';
import { CommitPicker, Grid, ProblemBox, lastTouch } from './common.jsx';
import { formatValue } from './json.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

function compareValues(a, b) {
  const s = formatValue(a);
  const t = formatValue(b);
  if (/^-?\d+$/.test(s) && /^-?\d+$/.test(t)) {
    const x = BigInt(s);
    const y = BigInt(t);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return s < t ? -1 : s > t ? 1 : 0;
}

/** The dialect's order of versions: ordering columns left to right, then the commit. */
function byPosition(group) {
  const cols = [...group.validBy, ...group.revisionBy];
  return (a, b) => {
    for (const c of cols) {
      const d = compareValues(a.ordering[c], b.ordering[c]);
      if (d) return d;
    }
    return commitCompare(a.commit, b.commit);
  };
}

const positionLabel = (group, v) => {
  const cols = [...group.validBy, ...group.revisionBy];
  return cols.length ? cols.map((c) => `${c} ${formatValue(v.ordering[c])}`).join(' · ') : `commit ${v.commit}`;
};

function winnerAt(v, n) {
  if (n == null) return v.current;
  return v.currentFrom != null && commitCompare(v.currentFrom, n) <= 0
    && (v.currentTo == null || commitCompare(n, v.currentTo) < 0);
}

function status(v) {
  if (v.currentFrom == null) return 'lost on arrival';
  if (v.deleted) return v.current ? 'tombstone (current)' : 'tombstone';
  return v.current ? 'current' : 'superseded';
}

export function StoryPage({ log, table, keyValues, navigate }) {
  const [tables, setTables] = useState([]);
  const [desc, setDesc] = useState(null);
  const [inputs, setInputs] = useState(keyValues);
  const [story, setStory] = useState(null);
  const [error, setError] = useState(null);
  const [at, setAt] = useState(null);

  useEffect(() => {
    api.tables().then((r) => setTables(r.tables.filter((t) => t.mode === 'VERSIONED')), setError);
  }, []);
  useEffect(() => {
    setDesc(null);
    if (table) api.describe(table).then(setDesc, setError);
  }, [table]);
  useEffect(() => setInputs(keyValues), [keyValues.join('\u0000')]);
  const ready = desc && desc.name === table && keyValues.length === desc.key.length && keyValues.every((k) => k !== '');
  useEffect(() => {
    if (!ready) { setStory(null); return; }
    api.history(table, keyValues).then((h) => { setStory(h); setError(null); }, (e) => { setStory(null); setError(e); });
  }, [ready, table, keyValues.join('\u0000'), lastTouch(log, table)]);

  const show = (e) => {
    e.preventDefault();
    navigate(`#/story/${encodeURIComponent(table)}?${inputs.map((k) => `key=${encodeURIComponent(k)}`).join('&')}`);
  };
  const firstCommit = story?.versions.reduce((m, v) => (m == null || commitCompare(v.commit, m) < 0 ? v.commit : m), null);
  const commits = useMemo(
    () => (firstCommit ? log.commits.filter((c) => commitCompare(c.commit, firstCommit) >= 0) : []),
    [log.commits, firstCommit],
  );
  const n = at ?? log.latest;

  return (
    <div className="story-page">
      <h2>A key's story</h2>
      <form className="toolbar" onSubmit={show} aria-label="Choose a key">
        <label htmlFor="story-table">Table</label>
        <select id="story-table" value={table || ''} onChange={(e) => navigate(`#/story/${encodeURIComponent(e.target.value)}`)}>
          <option value="" disabled>VERSIONED table…</option>
          {tables.map((t) => <option key={t.name} value={t.name}>{t.name}</option>)}
        </select>
        {desc && desc.key.map((k, i) => (
          <span key={k}>
            <label htmlFor={`story-key-${k}`}>{k}</label>{' '}
            <input id={`story-key-${k}`} value={inputs[i] ?? ''} size={12}
              onChange={(e) => setInputs(desc.key.map((_, j) => (j === i ? e.target.value : inputs[j] ?? '')))} />
          </span>
        ))}
        <button type="submit" disabled={!desc}>Show</button>
      </form>
      <ProblemBox error={error} />
      {story && desc && (
        <>
          <CommitPicker id="story-commit" label="At commit" commits={commits} value={at} onChange={setAt} />
          {n != null && desc.groups.map((g) => {
            const versions = story.versions.filter((v) => v.group === g.name);
            return versions.length ? (
              <GroupStory key={g.name} group={g} versions={versions} latest={log.latest} at={n} />
            ) : null;
          })}
          {n != null && <RowAt table={table} keyValues={keyValues} desc={desc} at={n} />}
        </>
      )}
    </div>
  );
}

function GroupStory({ group, versions, latest, at }) {
  const canvas = useRef(null);
  const chart = useRef(null);
  const ordered = useMemo(() => [...versions].sort(byPosition(group)).reverse(), [versions, group]);
  const labels = ordered.map((v) => positionLabel(group, v));
  const end = Number(latest) + 1;

  useEffect(() => {
    const spans = ordered.map((v) => (v.currentFrom == null ? null
      : [Number(v.currentFrom), v.currentTo == null ? end : Number(v.currentTo)]));
    const colour = (v) => (v.deleted ? '#444' : v.current ? '#2e8540' : '#5b8fd6');
    const data = {
      labels,
      datasets: [
        {
          type: 'bar', label: 'winner from … to', data: spans,
          backgroundColor: ordered.map(colour), barPercentage: 0.5, order: 2,
        },
        {
          type: 'line', label: 'arrived', showLine: false, order: 1,
          data: ordered.map((v, i) => ({ x: Number(v.commit), y: labels[i] })),
          pointStyle: ordered.map((v) => (v.currentFrom == null ? 'crossRot' : v.deleted ? 'rectRot' : 'circle')),
          pointRadius: 8, pointHoverRadius: 10, borderWidth: 3,
          pointBackgroundColor: ordered.map((v) => (v.currentFrom == null ? '#d4351c' : colour(v))),
          pointBorderColor: ordered.map((v) => (v.currentFrom == null ? '#d4351c' : '#fff')),
        },
      ],
    };
    const first = Math.min(...ordered.map((v) => Number(v.commit)));
    const options = {
      indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', min: first - 0.5, max: end, title: { display: true, text: 'commit' }, ticks: { stepSize: 1, callback: (v) => (Number.isInteger(v) ? v : '') } },
        y: { type: 'category', title: { display: true, text: 'position (greatest on top)' } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (ctx) => {
              const v = ordered[ctx.dataIndex];
              return `written in commit ${v.commit}; ${status(v)}${v.currentFrom ? `; winner ${v.currentFrom}–${v.currentTo ?? 'now'}` : ''}`;
            },
          },
        },
      },
    };
    const atLine = {
      id: 'atLine',
      afterDatasetsDraw(c) {
        const x = c.scales.x.getPixelForValue(Number(c.options.atCommit));
        const { top, bottom } = c.chartArea;
        c.ctx.save();
        c.ctx.strokeStyle = '#d4351c';
        c.ctx.setLineDash([4, 4]);
        c.ctx.beginPath();
        c.ctx.moveTo(x, top);
        c.ctx.lineTo(x, bottom);
        c.ctx.stroke();
        c.ctx.restore();
      },
    };
    chart.current?.destroy();
    chart.current = new Chart(canvas.current, { data, options: { ...options, atCommit: at }, plugins: [atLine] });
    return () => chart.current?.destroy();
  }, [ordered, end]);

  useEffect(() => {
    if (chart.current) {
      chart.current.options.atCommit = at;
      chart.current.update('none');
    }
  }, [at]);

  const columns = [...group.columns];
  const summary = ordered.map((v) => `${positionLabel(group, v)}: written in commit ${v.commit}, ${status(v)}`).join('; ');
  return (
    <section className="group-story" aria-label={`Group ${group.name}`} data-testid={`story-${group.name}`}>
      <h3>Group {group.name}</h3>
      <div className="chart" style={{ height: `${80 + 44 * ordered.length}px` }}>
        <canvas ref={canvas} role="img" aria-label={`Timeline of group ${group.name}: ${summary}`} />
      </div>
      <ul className="legend" aria-label="Legend">
        <li><span className="sw dot" aria-hidden="true" /> written in (arrival)</li>
        <li><span className="sw cross" aria-hidden="true">✕</span> lost on arrival: never current</li>
        <li><span className="sw diamond" aria-hidden="true" /> tombstone</li>
        <li><span className="sw bar current" aria-hidden="true" /> winner until now</li>
        <li><span className="sw bar past" aria-hidden="true" /> winner, then superseded</li>
        <li><span className="sw line" aria-hidden="true" /> the picked commit</li>
      </ul>
      <div className="grid-wrap">
        <table className="grid versions" data-testid={`versions-${group.name}`}>
          <caption>Versions of group {group.name}, greatest position first; the winner at commit {at} is marked</caption>
          <thead>
            <tr>
              <th scope="col">position</th><th scope="col">written in</th><th scope="col">winner from</th>
              <th scope="col">winner until</th><th scope="col">status</th>
              {columns.map((c) => <th key={c} scope="col">{c}</th>)}
            </tr>
          </thead>
          <tbody>
            {ordered.map((v) => (
              <tr key={`${v.commit}-${labels[ordered.indexOf(v)]}`}
                className={[winnerAt(v, at) ? 'winner-at' : '', v.currentFrom == null ? 'lost' : '', v.deleted ? 'tombstone' : ''].join(' ').trim() || undefined}
                aria-current={winnerAt(v, at) ? 'true' : undefined}>
                <th scope="row">{positionLabel(group, v)}</th>
                <td>{v.commit}</td>
                <td>{v.currentFrom ?? '—'}</td>
                <td>{v.currentFrom == null ? '—' : v.currentTo ?? 'now'}</td>
                <td className="status-cell">{status(v)}{winnerAt(v, at) ? ` · winner at ${at}` : ''}</td>
                {columns.map((c) => <td key={c} className={v.values[c] == null && v.ordering[c] == null ? 'null' : undefined}>
                  {formatValue(v.values[c] ?? v.ordering[c])}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RowAt({ table, keyValues, desc, at }) {
  const [row, setRow] = useState(undefined);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!at) return;
    api.row(table, keyValues, at).then((r) => { setRow(r.row); setError(null); }, (e) => {
      setRow(null);
      setError(e.status === 404 ? null : e);
    });
  }, [table, keyValues.join('\u0000'), at]);
  return (
    <section aria-label="The row at the picked commit">
      <h3>The row at commit {at}</h3>
      <ProblemBox error={error} />
      {row === null && !error && <p data-testid="row-at-empty">No row for this key at commit {at}.</p>}
      {row && <Grid testId="row-at" columns={desc.columns.map((c) => ({ name: c.name, type: c.type }))} rows={[row]}
        caption={`${table} as of commit ${at}`} />}
    </section>
  );
}
