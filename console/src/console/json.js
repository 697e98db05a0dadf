// Lossless JSON: the service sends BIGINT and NUMERIC as strings, but a JSONB value is embedded
// JSON and may hold numbers a double cannot carry. JSON.parse's reviver sees each number's source
// text; a number whose text does not survive the round trip is kept as that text.
export class RawNumber {
  constructor(source) {
    this.source = source;
  }
  toString() {
    return this.source;
  }
}

export function parseLossless(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === 'number' && context && typeof context.source === 'string'
        && String(value) !== context.source) {
      return new RawNumber(context.source);
    }
    return value;
  });
}

export function stringifyLossless(value) {
  if (value instanceof RawNumber) return value.source;
  if (Array.isArray(value)) return `[${value.map(stringifyLossless).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${stringifyLossless(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A value as the console shows it: the exact text the service sent, NULL for null. */
export function formatValue(value) {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof RawNumber) return value.source;
  if (typeof value === 'object') return stringifyLossless(value);
  return String(value);
}
