// Statements: the editor (Ctrl+Enter runs), one result grid per statement, write receipts, errors
// at their line and column, recent statements kept in this browser, and re-running reads as of a
// picked commit.
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError } from './api.js';
import { CommitPicker, Grid, ProblemBox } from './common.jsx';
import { clearError, createEditor, showError } from './editor.js';
import { asOfRewrite, isRead, splitStatements } from './statements.js';

const HISTORY_KEY = 'verso.sql.history';
const DRAFT_KEY = 'verso.sql.draft';
const EXAMPLE = 'SHOW TABLES';

function loadHistory() {
  try {
    return JSON.parse(window.localStorage.getItem(HISTORY_KEY)) || [];
  } catch {
    return [];
  }
}

export function SqlPage({ log }) {
  const host = useRef(null);
  const view = useRef(null);
  const [outcome, setOutcome] = useState(null);
  const [error, setError] = useState(null);
  const [running, setRunning] = useState(false);
  const [asOf, setAsOf] = useState(null);
  const [history, setHistory] = useState(loadHistory);
  const [ran, setRan] = useState(null);
  const runRef = useRef(null);

  async function run(commit = asOf) {
    const text = view.current.state.doc.toString();
    const statements = splitStatements(text);
    if (statements.length === 0) return;
    const readsOnly = statements.every((s) => isRead(s.text));
    const rewrite = commit != null && readsOnly ? asOfRewrite(text, commit) : null;
    setRunning(true);
    clearError(view.current);
    try {
      const response = await api.sql(rewrite ? rewrite.text : text);
      setOutcome({ response, statements, asOf: rewrite ? commit : null });
      setError(null);
    } catch (e) {
      setOutcome(null);
      setError(e);
      if (e instanceof ApiError && e.problem.line) {
        const at = rewrite ? rewrite.back(e.problem.line, e.problem.column) : e.problem;
        showError(view.current, at.line, at.column, `${e.problem.code}: ${e.problem.detail}`);
        e.problem = { ...e.problem, line: at.line, column: at.column };
      }
    } finally {
      setRunning(false);
      setRan({ readsOnly });
    }
    const next = [text, ...loadHistory().filter((h) => h !== text)].slice(0, 30);
    window.localStorage.setItem(HISTORY_KEY, JSON.stringify(next));
    setHistory(next);
  }
  runRef.current = run;

  useEffect(() => {
    view.current = createEditor(host.current, {
      doc: window.localStorage.getItem(DRAFT_KEY) ?? EXAMPLE,
      label: 'Statements (Ctrl+Enter runs them)',
      onRun: () => runRef.current(),
      onChange: (text) => window.localStorage.setItem(DRAFT_KEY, text),
    });
    view.current.focus();
    return () => view.current.destroy();
  }, []);

  const pick = (commit) => {
    setAsOf(commit);
    // Moving through time re-runs what is on screen, but only when it only reads.
    if (ran?.readsOnly) runRef.current(commit);
  };

  return (
    <div className="sql-page">
      <h2>Statements</h2>
      <div className="editor" ref={host} data-testid="editor" />
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => run()} disabled={running}>
          Run <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
        </button>
        <CommitPicker id="sql-commit" label="Reads as of commit" commits={log.commits} value={asOf} onChange={pick} />
      </div>
      <ProblemBox error={error} />
      {outcome && <Results outcome={outcome} />}
      <RecentStatements history={history} onPick={(text) => {
        view.current.dispatch({ changes: { from: 0, to: view.current.state.doc.length, insert: text } });
        view.current.focus();
      }} />
    </div>
  );
}

function Results({ outcome }) {
  const { response, statements, asOf } = outcome;
  return (
    <section aria-label="Results" data-testid="results">
      <p className="status" aria-live="polite">
        {response.commit ? `Committed as commit ${response.commit}` : `Read at commit ${response.readCommit}`}
        {asOf ? ` · reads as of commit ${asOf}` : ''}
      </p>
      {response.results.map((r, i) => (
        <StatementResult key={i} index={i} result={r} text={statements[i]?.text.trim()} commit={response.commit} />
      ))}
    </section>
  );
}

function StatementResult({ index, result, text, commit }) {
  const title = `${index + 1} · ${result.statement}${result.table ? ` ${result.table}` : ''}`;
  const columns = useMemo(() => result.columns || [], [result.columns]);
  return (
    <article className="result" data-testid={`result-${index}`} aria-label={`Result ${index + 1}`}>
      <h3>{title}</h3>
      {text && <pre className="stmt">{text.length > 300 ? `${text.slice(0, 300)}…` : text}</pre>}
      {Array.isArray(result.rows) ? (
        <>
          <p className="muted">{result.rowCount} {result.rowCount === 1 ? 'row' : 'rows'}{result.asOfCommit ? ` · as of commit ${result.asOfCommit}` : ''}</p>
          <Grid columns={columns} rows={result.rows} caption={`Result of statement ${index + 1}`} />
        </>
      ) : (
        <dl className="receipt" data-testid="receipt">
          {commit && <><dt>commit</dt><dd>{commit}</dd></>}
          {['rows', 'versions', 'current', 'lost', 'count', 'changed'].filter((k) => result[k] !== undefined && result[k] !== null)
            .map((k) => <div key={k}><dt>{k}</dt><dd data-field={k}>{String(result[k])}</dd></div>)}
        </dl>
      )}
    </article>
  );
}

function RecentStatements({ history, onPick }) {
  if (history.length === 0) return null;
  return (
    <section className="recent" aria-label="Recent statements">
      <h3>Recent</h3>
      <ol>
        {history.map((h, i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => onPick(h)} title="Put back in the editor">
              {h.length > 120 ? `${h.slice(0, 120)}…` : h}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
