// All page state: one plain object with a typed schema, read from and written to the URL
// hash (#lesson=pipeline&stage=scaled&seed=7...). Pure: no DOM.
//
// A field spec is { type, default, min, max, values, maxItems, item }:
//   int | float      number in [min, max]
//   bool             0/1 in the hash
//   enum             one of `values`
//   string           free text (at most maxLength characters)
//   list             comma-separated items of `item` ('string' | 'bool' | 'float'), at most maxItems
//   matrix           rows separated by ';', numbers by ',' (at most maxRows x maxCols)
// Only fields that differ from their default are written, so a link stays short. Unknown or
// malformed values fall back to the default and are reported as problems (for the notice).

import { PRESET_IDS, MAX_TOKENS, MAX_DK } from './example.js';

export const CORE_SCHEMA = {
  lesson: { type: 'enum', default: 'pipeline', values: ['pipeline'] }, // values: the chapters
  stage: { type: 'string', default: '', maxLength: 40 },               // step id of the chapter
  lang: { type: 'enum', default: 'en', values: ['en', 'zh'] },
  preset: { type: 'enum', default: 'cat-fish', values: PRESET_IDS },
  queryTokens: { type: 'list', item: 'string', default: [], maxItems: MAX_TOKENS },
  keyTokens: { type: 'list', item: 'string', default: [], maxItems: MAX_TOKENS },
  seed: { type: 'int', default: 42, min: 0, max: 2 ** 32 - 1 },
  dk: { type: 'int', default: 4, min: 1, max: MAX_DK },
  inputMode: { type: 'enum', default: 'typed', values: ['random', 'typed'] },
  Q: { type: 'matrix', default: [], maxRows: MAX_TOKENS, maxCols: MAX_DK },
  K: { type: 'matrix', default: [], maxRows: MAX_TOKENS, maxCols: MAX_DK },
  V: { type: 'matrix', default: [], maxRows: MAX_TOKENS, maxCols: MAX_DK },
  scores: { type: 'matrix', default: [], maxRows: MAX_TOKENS, maxCols: MAX_TOKENS },
  keyPadding: { type: 'list', item: 'bool', default: [], maxItems: MAX_TOKENS },
  causal: { type: 'bool', default: false },
  customMask: { type: 'matrix', default: [], maxRows: MAX_TOKENS, maxCols: MAX_TOKENS },
  reverseCausal: { type: 'bool', default: false },
  fill: { type: 'enum', default: 'neg-inf', values: ['neg-inf', 'large-negative', 'zero'] },
  temperature: { type: 'float', default: 1, min: 0.01, max: 100 },
  stable: { type: 'bool', default: true },
  hide: { type: 'list', item: 'string', default: [], maxItems: 16 },
};

// The full schema: core fields, the lesson enum set to the chapter ids, and each chapter's
// own fields. A chapter field may not reuse a core name or another chapter's name.
export function buildSchema(chapters) {
  const schema = { ...CORE_SCHEMA };
  const ids = chapters.map((c) => c.id);
  schema.lesson = { ...CORE_SCHEMA.lesson, values: ids, default: ids.includes('pipeline') ? 'pipeline' : ids[0] };
  for (const c of chapters) {
    for (const [name, spec] of Object.entries(c.state || {})) {
      if (name in schema) throw new Error(`state field "${name}" of chapter "${c.id}" is already defined`);
      schema[name] = spec;
    }
  }
  return schema;
}

export function defaults(schema, overrides = {}) {
  const s = {};
  for (const [name, spec] of Object.entries(schema)) s[name] = clone(spec.default);
  return Object.assign(s, overrides);
}

function clone(v) {
  return Array.isArray(v) ? v.map(clone) : v;
}

// ---- one value: text -> typed value (or an error string) -----------------------------------

function parseNumberText(text) {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return NaN;
  const x = Number(text);
  return Number.isFinite(x) ? x : NaN;
}

// Returns { value } or { error }.
export function parseValue(spec, text) {
  switch (spec.type) {
    case 'int': {
      const x = parseNumberText(text);
      if (!Number.isInteger(x)) return { error: 'not an integer' };
      if (x < spec.min || x > spec.max) return { error: `outside ${spec.min}..${spec.max}` };
      return { value: x };
    }
    case 'float': {
      const x = parseNumberText(text);
      if (Number.isNaN(x)) return { error: 'not a number' };
      if (x < spec.min || x > spec.max) return { error: `outside ${spec.min}..${spec.max}` };
      return { value: x };
    }
    case 'bool':
      if (text === '1' || text === 'true') return { value: true };
      if (text === '0' || text === 'false') return { value: false };
      return { error: 'not 0 or 1' };
    case 'enum':
      if (!spec.values.includes(text)) return { error: `not one of ${spec.values.join(', ')}` };
      return { value: text };
    case 'string':
      if (text.length > (spec.maxLength ?? 200)) return { error: 'too long' };
      return { value: text };
    case 'list': {
      if (text === '') return { value: [] };
      const items = text.split(',');
      if (items.length > spec.maxItems) return { error: `more than ${spec.maxItems} items` };
      const out = [];
      for (const raw of items) {
        let item;
        try { item = decodeURIComponent(raw); } catch { return { error: 'bad escape' }; }
        if (spec.item === 'bool') {
          if (item !== '0' && item !== '1') return { error: 'items must be 0 or 1' };
          out.push(item === '1');
        } else if (spec.item === 'float') {
          const x = parseNumberText(item);
          if (Number.isNaN(x)) return { error: 'items must be numbers' };
          out.push(x);
        } else {
          if (item.trim() === '') return { error: 'empty item' };
          out.push(item);
        }
      }
      return { value: out };
    }
    case 'matrix': {
      if (text === '') return { value: [] };
      const rows = text.split(';').map((r) => r.split(',').map(parseNumberText));
      if (rows.length > spec.maxRows) return { error: `more than ${spec.maxRows} rows` };
      const cols = rows[0].length;
      if (cols > spec.maxCols) return { error: `more than ${spec.maxCols} columns` };
      if (rows.some((r) => r.length !== cols)) return { error: 'rows of different lengths' };
      if (rows.some((r) => r.some(Number.isNaN))) return { error: 'not all numbers' };
      return { value: rows };
    }
    default:
      return { error: `unknown type ${spec.type}` };
  }
}

// typed value -> hash text
export function formatValue(spec, value) {
  switch (spec.type) {
    case 'int':
    case 'float':
      return String(value);
    case 'bool':
      return value ? '1' : '0';
    case 'enum':
      return value;
    case 'string':
      return encodeURIComponent(value);
    case 'list':
      if (spec.item === 'bool') return value.map((b) => (b ? '1' : '0')).join(',');
      if (spec.item === 'float') return value.map(String).join(',');
      return value.map((s) => encodeURIComponent(s)).join(',');
    case 'matrix':
      return value.map((r) => r.map(String).join(',')).join(';');
    default:
      return '';
  }
}

function equal(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  return a === b;
}

// ---- the whole hash ---------------------------------------------------------------------

// hash ("#a=1&b=2" or "a=1&b=2") -> { state, problems: [{ key, value, reason }] }.
// `base` overrides the schema defaults (e.g. lang from the browser).
export function parseHash(hash, schema, base = {}) {
  const state = defaults(schema, base);
  const problems = [];
  const text = (hash || '').replace(/^#/, '');
  if (text === '') return { state, problems };
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const raw = eq < 0 ? '' : pair.slice(eq + 1);
    const spec = Object.hasOwn(schema, key) ? schema[key] : null;
    if (!spec) {
      problems.push({ key, value: raw, reason: 'unknown field' });
      continue;
    }
    let textValue = raw;
    // Lists and matrices decode item by item (an item may contain an escaped comma).
    if (spec.type !== 'list' && spec.type !== 'matrix') {
      try { textValue = decodeURIComponent(raw); } catch {
        problems.push({ key, value: raw, reason: 'bad escape' });
        continue;
      }
    }
    const r = parseValue(spec, textValue);
    if (r.error) problems.push({ key, value: raw, reason: r.error });
    else state[key] = r.value;
  }
  return { state, problems };
}

// state -> hash text (without '#'): lesson, lang and the fields that differ from the defaults,
// in schema order.
// `base` must be the same overrides given to parseHash.
export function serializeHash(state, schema, base = {}) {
  const d = defaults(schema, base);
  const parts = [];
  for (const [name, spec] of Object.entries(schema)) {
    if (name === 'lesson' || name === 'lang' || !equal(state[name], d[name])) parts.push(`${name}=${formatValue(spec, state[name])}`);
  }
  return parts.join('&');
}

// Checks a patch against the schema before it is applied: { ok: true } or { ok: false, errors }.
export function validatePatch(patch, schema) {
  const errors = [];
  for (const [name, value] of Object.entries(patch)) {
    const spec = schema[name];
    if (!spec) { errors.push(`${name}: unknown field`); continue; }
    const r = parseValue(spec, typeof value === 'string' && spec.type === 'string' ? value : formatValue(spec, value));
    if (r.error) errors.push(`${name}: ${r.error}`);
  }
  return errors.length ? { ok: false, errors } : { ok: true };
}
