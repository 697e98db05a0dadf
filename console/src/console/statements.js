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

/** Words outside quotes, comments and parentheses, with their offsets. */
function topLevelWords(text) {
  const words = [];
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      i += 1;
      while (i < text.length && !(text[i] === ch && text[i + 1] !== ch)) i += text[i] === ch ? 2 : 1;
      i += 1;
    } else if (ch === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (ch === '(') {
      depth += 1;
      i += 1;
    } else if (ch === ')') {
      depth -= 1;
      i += 1;
    } else if (/[\w?]/.test(ch)) {
      const m = /^[\w?.+-]+/.exec(text.slice(i));
      if (depth === 0) words.push({ word: m[0].toUpperCase(), at: i });
      i += m[0].length;
    } else {
      i += 1;
    }
  }
  return words;
}

const TAIL = /^(LIMIT|OFFSET|ALL|ROWS?|\?|[+-]?\d+)$/;

/**
 * Where a trailing `AS OF COMMIT n` goes in a query: before its trailing LIMIT / OFFSET, else at
 * the end (the dialect's order: ORDER BY, AS OF, LIMIT, OFFSET). Null when the query already ends
 * with a trailing AS OF of its own, which then stays.
 */
export function trailingAsOfPosition(query) {
  const words = topLevelWords(query);
  let k = words.length;
  while (k > 0 && TAIL.test(words[k - 1].word) && !(words[k - 1].word.match(/^[+-]?\d+$/) && words[k - 2]?.word === 'COMMIT')) k -= 1;
  const tail = words.slice(k);
  const firstLimit = tail.findIndex((w) => w.word === 'LIMIT' || w.word === 'OFFSET');
  const before = words.slice(0, k).map((w) => w.word);
  const n = before.length;
  // ... AS OF COMMIT <n> | AS OF TIMESTAMP '<t>' (the literal is not a word) at the end: keep it.
  if ((n >= 4 && before[n - 4] === 'AS' && before[n - 3] === 'OF' && before[n - 2] === 'COMMIT')
      || (n >= 3 && before[n - 3] === 'AS' && before[n - 2] === 'OF' && before[n - 1] === 'TIMESTAMP')) {
    return null;
  }
  return firstLimit >= 0 ? tail[firstLimit].at : query.replace(/\s+$/, '').length;
}

/**
 * Makes each query read as of `commit` by giving it a trailing AS OF COMMIT, which applies to every
 * relation without an AS OF of its own (dialect: "the nearest one wins"). Returns the text and a
 * function mapping a 1-based line/column of the rewritten text back to the original's, so an
 * error still points into what the user wrote.
 */
export function asOfRewrite(text, commit) {
  const parts = splitStatements(text);
  const segments = [];
  let out = '';
  const copy = (from, to) => {
    segments.push({ at: out.length, offset: from, length: to - from });
    out += text.slice(from, to);
  };
  parts.forEach((p, index) => {
    if (index > 0) out += ';\n';
    const at = isQuery(p.text) ? trailingAsOfPosition(p.text) : null;
    if (at == null) {
      copy(p.offset, p.offset + p.text.length);
    } else {
      copy(p.offset, p.offset + at);
      // On its own line: a trailing line comment cannot swallow it.
      out += `\nAS OF COMMIT ${commit} `;
      copy(p.offset + at, p.offset + p.text.length);
    }
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
