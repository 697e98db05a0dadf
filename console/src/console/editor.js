// The statement editor: CodeMirror 6 with the SQL language mode given Verso's keywords, Ctrl+Enter
// (Cmd+Enter) to run, and errors placed at the line and column the service reports.
import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import { sql, SQLDialect, PostgreSQL } from '@codemirror/lang-sql';
import { setDiagnostics, lintGutter } from '@codemirror/lint';

// The dialect's own words (spec/dialect.md) on top of PostgreSQL's.
const VERSO_KEYWORDS = [
  'append', 'upsert', 'versioned', 'valid', 'revision', 'attribute', 'group', 'of', 'commit', 'history',
  'scope', 'current', 'both', 'erase', 'retention', 'commits', 'derived', 'changes', 'system_time',
  'versioning', 'period', 'generated', 'always', 'row', 'start', 'end', 'show', 'tables', 'describe',
  'grants', 'role', 'admin', 'write', 'at', 'before', 'horizon', 'reset',
].join(' ');

export const versoDialect = SQLDialect.define({
  ...PostgreSQL.spec,
  keywords: `${PostgreSQL.spec.keywords} ${VERSO_KEYWORDS}`,
});

export function createEditor(parent, { doc, onRun, onChange, label }) {
  const view = new EditorView({
    parent,
    doc,
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }])),
      basicSetup,
      sql({ dialect: versoDialect, upperCaseKeywords: true }),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) {
          onChange?.(u.state.doc.toString());
          u.view.dispatch(setDiagnostics(u.state, []));
        }
      }),
    ],
  });
  return view;
}

/** Marks the error at 1-based line and column (over the whole text) in the editor. */
export function showError(view, line, column, message) {
  const doc = view.state.doc;
  let from = 0;
  let to = doc.length;
  if (line && line <= doc.lines) {
    const l = doc.line(line);
    from = Math.min(l.from + Math.max((column || 1) - 1, 0), l.to);
    const word = /^[\w"'.]+/.exec(doc.sliceString(from, l.to));
    to = word ? from + word[0].length : Math.min(from + 1, l.to);
    if (to === from && from > l.from) from -= 1;
  }
  view.dispatch(setDiagnostics(view.state, [{ from, to, severity: 'error', message }]));
  view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
}

export function clearError(view) {
  view.dispatch(setDiagnostics(view.state, []));
}
