// Every call the console makes to the service: the REST resources (openapi/verso.yaml) and
// POST /v1/sql, with the sign-in token on each. Errors become ApiError carrying the RFC 9457
// problem (code, detail, line/column for statement text).
import { authHeader } from "./auth.js";
import { parseLossless } from "./json.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

const listeners = new Set();
/** Called with every ApiError of status 401, so the header can ask for a sign-in. */
export function onUnauthorized(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function call(path, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json, application/problem+json');
  const auth = authHeader();
  if (auth) headers.set('Authorization', auth);
  const response = await fetch(new URL(path.replace(/^\//, ''), document.baseURI), { ...init, headers });
  const text = await response.text();
  let body = null;
  try {
    body = text ? parseLossless(text) : null;
  } catch {
    body = { detail: text };
  }
  if (!response.ok) {
    const error = new ApiError(response.status, body);
    if (response.status === 401) listeners.forEach((l) => l(error));
    throw error;
  }
  return body;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) q.append(name, v);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const t = (name) => encodeURIComponent(name);

export const api = {
  sql: (sql, params) =>
    call('/v1/sql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(params ? { sql, params } : { sql }),
    }),
  tables: () => call('/v1/tables'),
  describe: (table) => call(`/v1/tables/${t(table)}`),
  rows: (table, { filter, order, limit, cursor, asOfCommit }) =>
    call(`/v1/tables/${t(table)}/rows${query(cursor ? { cursor, limit } : { filter, order, limit, asOfCommit })}`),
  row: (table, key, asOfCommit) => call(`/v1/tables/${t(table)}/row${query({ key, asOfCommit })}`),
  history: (table, key, group) => call(`/v1/tables/${t(table)}/history${query({ key, group })}`),
  diff: (table, from, to, key) => call(`/v1/tables/${t(table)}/diff${query({ from, to, key })}`),
  commits: (after, limit = 1000) => call(`/v1/commits${query({ after, limit })}`),
  latestCommit: () => call('/v1/commits/latest'),
};

/** A name as a double-quoted identifier of the dialect. */
export function quoteIdent(name) {
  return `"${String(name).replace(/"/g, '""')}"`;
}

/** Compares commit sequences (decimal strings, 64-bit) exactly. */
export function commitCompare(a, b) {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
