// Statement text handling on the client: splitting a request into its statements (for labels and
// to know whether it only reads), and rewriting reads to run AS OF a picked commit.

/** The statements of a request text with their offsets, split on `;` outside quotes and comments. */
export function splitStatements(text) {
  const out = [];
  let start = 0;
  let i = 0;
  const push = (end) => {
    const body = text.slice(start, end);
    if (body.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '').trim()) out.push({ text: body, offset: start });
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      const close = ch;
      i += 1;
      while (i < text.length && !(text[i] === close && text[i + 1] !== close)) i += text[i] === close ? 2 : 1;
      i += 1;
    } else if (ch === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (ch === ';') {
      push(i);
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  push(text.length);
  return out;
}

const firstWord = (s) => (/^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/.exec(s)?.[1] || '').toUpperCase();

/** Whether a statement is a query (SELECT or WITH), which can run AS OF another commit. */
export const isQuery = (s) => ['SELECT', 'WITH'].includes(firstWord(s));

/** Whether a statement only reads (so re-running it on a commit change is harmless). */
export const isRead = (s) => isQuery(s) || ['SHOW', 'DESCRIBE'].includes(firstWord(s));

/**
 * Rewrites each query as `SELECT * FROM (<query>\n) AS OF COMMIT n AS _as_of`: the derived table's
 * AS OF applies to every relation in it that has none of its own (dialect: "the nearest one wins").
 * Returns the text and a function mapping a 1-based line/column of the rewritten text back to the
 * original's, so an error still points into what the user wrote.
 */
export function asOfRewrite(text, commit) {
  const parts = splitStatements(text);
  const segments = [];
  let out = '';
  parts.forEach((p, index) => {
    if (index > 0) out += ';\n';
    const prefix = isQuery(p.text) ? 'SELECT * FROM (' : '';
    const suffix = isQuery(p.text) ? `\n) AS OF COMMIT ${commit} AS _as_of` : '';
    out += prefix;
    segments.push({ at: out.length, offset: p.offset, length: p.text.length });
    out += p.text + suffix;
  });
  const lineStarts = (s) => [0, ...[...s.matchAll(/\n/g)].map((m) => m.index + 1)];
  const outLines = lineStarts(out);
  const inLines = lineStarts(text);
  const back = (line, column) => {
    const pos = (outLines[line - 1] ?? 0) + column - 1;
    const seg = segments.find((s) => pos >= s.at && pos <= s.at + s.length)
      || segments.filter((s) => s.at <= pos).pop() || segments[0];
    const original = Math.min(seg.offset + Math.max(pos - seg.at, 0), seg.offset + seg.length);
    let l = inLines.length - 1;
    while (l > 0 && inLines[l] > original) l -= 1;
    return { line: l + 1, column: original - inLines[l] + 1 };
  };
  return { text: out, back };
}
