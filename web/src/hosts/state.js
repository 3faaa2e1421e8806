// All page state: one plain object with a typed schema, read from and written to the URL
// hash (#lesson=pipeline&stage=scaled&seed=7...). Pure: no DOM.
//
// A field spec is { type, default, min, max, values, maxItems, item }:
//   int | float      number in [min, max]
//   bool             0/1 in the hash
//   enum             one of `values`
//   string           free text (at most maxLength characters)
//   list             comma-separated items of `item` ('string' | 'bool' | 'float'), at most maxItems;
//                    string items at most itemMaxLength characters (a chapter's field that does not
//                    say: a token's, the worked example's maxTokenChars), no control characters
//   matrix           rows separated by ';', numbers by ',' (at most maxRows x maxCols)
// Only fields that differ from their default are written, so a link stays short. Unknown or
// malformed values fall back to the default and are reported as problems (for the notice);
// a list of strings that is too long (tokens) is cut to fit instead, and reported too.

import { CHOICES, MAX_SEED } from '../engine/choices.js';
import { describe } from '../engine/args.js';
import { reason } from '../text/i18n.js';

// The fields every lesson shares, for the worked example the lessons share (lesson/example.js
// EXAMPLE_SHAPE): { presets: its preset ids (the first one by default), maxTokens: tokens per
// side, maxTokenChars: characters per token, maxDk: the largest d_k }.
export function coreSchema({ presets, maxTokens, maxTokenChars, maxDk }) {
  return {
    lesson: { type: 'enum', default: 'start', values: ['start'] }, // values: the chapters
    stage: { type: 'string', default: '', maxLength: 40 }, // step id of the chapter
    lang: { type: 'enum', default: 'en', values: ['en', 'zh'] },
    preset: { type: 'enum', default: presets[0], values: presets },
    queryTokens: { type: 'list', item: 'string', default: [], maxItems: maxTokens, itemMaxLength: maxTokenChars },
    keyTokens: { type: 'list', item: 'string', default: [], maxItems: maxTokens, itemMaxLength: maxTokenChars },
    seed: { type: 'int', default: 42, min: 0, max: MAX_SEED },
    dk: { type: 'int', default: 4, min: 1, max: maxDk },
    inputMode: { type: 'enum', default: 'typed', values: ['random', 'typed'] },
    Q: { type: 'matrix', default: [], maxRows: maxTokens, maxCols: maxDk },
    K: { type: 'matrix', default: [], maxRows: maxTokens, maxCols: maxDk },
    V: { type: 'matrix', default: [], maxRows: maxTokens, maxCols: maxDk },
    scores: { type: 'matrix', default: [], maxRows: maxTokens, maxCols: maxTokens },
    keyPadding: { type: 'list', item: 'bool', default: [], maxItems: maxTokens },
    causal: { type: 'bool', default: false },
    customMask: { type: 'matrix', default: [], maxRows: maxTokens, maxCols: maxTokens },
    reverseCausal: { type: 'bool', default: false },
    fill: { type: 'enum', default: 'neg-inf', values: CHOICES.maskFill }, // the engine's maskFill
    temperature: { type: 'float', default: 1, min: 0.01, max: 100 },
    stable: { type: 'bool', default: true },
    folded: { type: 'bool', default: false }, // the chapter's settings folded away
    hide: { type: 'list', item: 'string', default: [], maxItems: 16, itemMaxLength: 40 },
    offline: { type: 'bool', default: false }, // an embedded lesson keeps the tutorial offline (hosts/offline.js)
  };
}

// The full schema: the core fields for the worked example `example` (as coreSchema), the lesson
// enum set to the chapter ids, and each chapter's own fields. A chapter field may not reuse a core
// name or another chapter's name.
export function buildSchema(chapters, example) {
  const schema = coreSchema(example);
  const ids = chapters.map((c) => c.id);
  schema.lesson = { ...schema.lesson, values: ids, default: ids[0] }; // the first: the start page
  for (const c of chapters) {
    for (const [name, spec] of Object.entries(c.state || {})) {
      if (name in schema) throw new Error(`state field "${name}" of chapter "${c.id}" is already defined`);
      schema[name] = spec.item === 'string' ? { itemMaxLength: example.maxTokenChars, ...spec } : spec;
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

// A schema error or warning: { code, params }, put into words by i18n.js (reason()).
const err = (code, params = {}) => ({ error: { code, params } });

// Control characters (NUL, newlines, escapes...) never reach the page's text or its formulas.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

// The longest hash text a field can need; anything longer is refused before it is parsed (a
// megabyte of pasted link is not read character by character). An escaped character takes up
// to 12 characters (%XX for each UTF-8 byte of a surrogate pair). Lists of strings (tokens)
// get room for overlong items, which are cut to fit rather than refused.
function maxTextLength(spec) {
  switch (spec.type) {
    case 'string':
      return 12 * (spec.maxLength ?? 200);
    case 'list':
      return spec.item === 'string' ? 200000 : spec.maxItems * 64;
    case 'matrix':
      return spec.maxRows * spec.maxCols * 32;
    default:
      return 64;
  }
}

// Returns { value } or { error: { code, params } }; a value that was cut to fit (a list of
// strings: too many items, too long an item, control characters) also carries
// { warning: { code, params } }.
// The numbers the engine computes with are float32: a number past its largest (3.4e38) from a
// link would reach the lessons as Infinity.
const FLOAT32_MAX = 3.4028234663852886e38;

function parseValue(spec, text) {
  if (text.length > maxTextLength(spec)) return err('tooLong');
  switch (spec.type) {
    case 'int': {
      const x = parseNumberText(text);
      if (!Number.isInteger(x)) return err('notInteger');
      if (x < spec.min || x > spec.max) return err('outside', { min: spec.min, max: spec.max });
      return { value: x };
    }
    case 'float': {
      const x = parseNumberText(text);
      if (Number.isNaN(x)) return err('notNumber');
      if (Math.abs(x) > FLOAT32_MAX) return err('pastFloat32');
      if (x < spec.min || x > spec.max) return err('outside', { min: spec.min, max: spec.max });
      return { value: x };
    }
    case 'bool':
      if (text === '1' || text === 'true') return { value: true };
      if (text === '0' || text === 'false') return { value: false };
      return err('notBool');
    case 'enum':
      if (!spec.values.includes(text)) return err('notOneOf', { values: spec.values.join(', ') });
      return { value: text };
    case 'string':
      if (text.length > (spec.maxLength ?? 200)) return err('tooLong');
      if (HAS_CONTROL.test(text)) return err('controlChars');
      return { value: text };
    case 'list': {
      if (text === '') return { value: [] };
      let items = text.split(',');
      let warning;
      if (items.length > spec.maxItems) {
        if (spec.item !== 'string') return err('tooManyItems', { max: spec.maxItems });
        items = items.slice(0, spec.maxItems); // tokens: keep the first ones, and say so
        warning = { code: 'keptFirst', params: { max: spec.maxItems } };
      }
      const out = [];
      for (const raw of items) {
        let item;
        try {
          item = decodeURIComponent(raw);
        } catch {
          return err('badEscape');
        }
        if (spec.item === 'bool') {
          if (item !== '0' && item !== '1') return err('itemsBool');
          out.push(item === '1');
        } else if (spec.item === 'float') {
          const x = parseNumberText(item);
          if (Number.isNaN(x)) return err('itemsNumbers');
          if (Math.abs(x) > FLOAT32_MAX) return err('pastFloat32');
          out.push(x);
        } else {
          const clean = item.replace(CONTROL, '');
          if (clean !== item) warning = warning || { code: 'controlChars', params: {} };
          const max = spec.itemMaxLength;
          const chars = [...clean];
          if (chars.length > max) warning = warning || { code: 'cutItems', params: { max } };
          const cut = chars.length > max ? chars.slice(0, max).join('') : clean;
          if (cut.trim() === '') return err('emptyItem');
          out.push(cut);
        }
      }
      return warning ? { value: out, warning } : { value: out };
    }
    case 'matrix': {
      if (text === '') return { value: [] };
      const rows = text.split(';');
      if (rows.length > spec.maxRows) return err('tooManyRows', { max: spec.maxRows });
      const grid = rows.map((r) => r.split(',').map(parseNumberText));
      const cols = grid[0].length;
      if (cols > spec.maxCols) return err('tooManyCols', { max: spec.maxCols });
      if (grid.some((r) => r.length !== cols)) return err('unevenRows');
      if (grid.some((r) => r.some(Number.isNaN))) return err('notAllNumbers');
      if (grid.some((r) => r.some((x) => Math.abs(x) > FLOAT32_MAX))) return err('pastFloat32');
      return { value: grid };
    }
    default:
      return err('unknownType', { type: spec.type });
  }
}

// typed value -> hash text
function formatValue(spec, value) {
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

// hash ("#a=1&b=2" or "a=1&b=2") -> { state, problems: [{ key, value, reason: { code, params }, kept }] }
// (kept: the value was used, cut to fit; otherwise the default is used).
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
      problems.push({ key, value: raw, reason: { code: 'unknownField', params: {} } });
      continue;
    }
    let textValue = raw;
    // Lists and matrices decode item by item (an item may contain an escaped comma).
    if (spec.type !== 'list' && spec.type !== 'matrix') {
      try {
        textValue = decodeURIComponent(raw);
      } catch {
        problems.push({ key, value: raw, reason: { code: 'badEscape', params: {} } });
        continue;
      }
    }
    const r = parseValue(spec, textValue);
    if (r.error) problems.push({ key, value: raw, reason: r.error });
    else {
      state[key] = r.value;
      if (r.warning) problems.push({ key, value: raw, reason: r.warning, kept: true });
    }
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
    if (name === 'lesson' || name === 'lang' || !equal(state[name], d[name]))
      parts.push(`${name}=${formatValue(spec, state[name])}`);
  }
  return parts.join('&');
}

// The JS type a field's value must have in a patch (set()), before its text is checked: a
// string 'false' for a bool, '7' for an int or [4] for an int is refused, not read as
// something else. '' when the type is right; otherwise the reason's code.
function typeProblem(spec, value) {
  const isNumber = typeof value === 'number';
  switch (spec.type) {
    case 'int':
      return isNumber ? '' : 'notInteger';
    case 'float':
      return isNumber ? '' : 'notNumber';
    case 'bool':
      return typeof value === 'boolean' ? '' : 'notBool';
    case 'enum':
    case 'string':
      return typeof value === 'string' ? '' : spec.type === 'enum' ? 'notOneOf' : 'notString';
    case 'list': {
      if (!Array.isArray(value)) return 'notList';
      const want = spec.item === 'bool' ? 'boolean' : spec.item === 'float' ? 'number' : 'string';
      const code = spec.item === 'bool' ? 'itemsBool' : spec.item === 'float' ? 'itemsNumbers' : 'itemsStrings';
      return value.every((x) => typeof x === want) ? '' : code;
    }
    case 'matrix':
      if (!Array.isArray(value) || !value.every((r) => Array.isArray(r))) return 'notMatrix';
      return value.every((r) => r.every((x) => typeof x === 'number')) ? '' : 'notAllNumbers';
    default:
      return 'unknownType';
  }
}

// A copy of a patch value that the caller cannot change afterwards (lists and rows copied).
const copyValue = (value) => (Array.isArray(value) ? value.map(copyValue) : value);

// Checks a patch against the schema before it is applied: { ok: true, patch } or
// { ok: false, errors: [{ key, code, params }] }. Each value must pass the same checks as the
// link's text of it (a value that would have to be cut is refused) and, when `strict` (meant for
// the public set() of the element and the page), have its field's JS type. `patch` is what
// was checked, read once from the caller's object and parsed back from its text: store that,
// nothing else. (The chapters' own controls pass select values as text: not strict.)
export function validatePatch(patch, schema, strict = false) {
  const errors = [];
  const checked = {};
  let entries;
  try {
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
      return { ok: false, errors: [{ key: '', code: 'notObject', params: { got: typeName(patch) } }] };
    entries = Object.entries(patch).map(([name, value]) => [name, copyValue(value)]);
  } catch {
    return { ok: false, errors: [{ key: '', code: 'notObject', params: { got: 'an object that cannot be read' } }] };
  }
  for (const [name, value] of entries) {
    const spec = Object.hasOwn(schema, name) ? schema[name] : null;
    if (!spec) {
      errors.push({ key: name, code: 'unknownField', params: {} });
      continue;
    }
    // Not strict, a value of another JS type is formatted as its field's text first; one that
    // cannot be (a string for a list) is refused the same way.
    let text = null;
    let typeCode = strict ? typeProblem(spec, value) : '';
    if (!typeCode) {
      try {
        text = typeof value === 'string' && spec.type === 'string' ? value : formatValue(spec, value);
        if (typeof text !== 'string') typeCode = typeProblem(spec, value) || 'unknownType';
      } catch {
        typeCode = typeProblem(spec, value) || 'unknownType';
      }
    }
    if (typeCode) {
      errors.push({
        key: name,
        code: typeCode,
        params: { ...(spec.type === 'enum' ? { values: spec.values.join(', ') } : {}), got: describe(value) },
      });
      continue;
    }
    const r = parseValue(spec, text);
    const bad = r.error || r.warning;
    if (bad) errors.push({ key: name, ...bad });
    else checked[name] = r.value;
  }
  return errors.length ? { ok: false, errors } : { ok: true, patch: checked };
}

// The public set() of the element and the page (hosts/host.js): validatePatch in strict mode,
// each refused field with its message, worded as the engine's AttentionError messages are (the
// field, then why): "causal: not 0 or 1, got 'false'". { ok, patch } or { ok: false, errors }
// with errors [{ key, code, params, message }]. It never throws, whatever `patch` is.
export function checkSet(patch, schema, lang = 'en') {
  const r = validatePatch(patch, schema, true);
  if (r.ok) return r;
  const errors = r.errors.map((e) => {
    const why = reason(lang, e);
    const got = e.params.got !== undefined && !why.includes(e.params.got) ? `, got ${e.params.got}` : '';
    return { ...e, message: `${e.key || 'set()'}: ${why}${got}` };
  });
  return { ok: false, errors };
}

function typeName(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  return typeof x;
}
