// Which sentences the pipeline chapter shows, chosen from the live settings (fill, stable) and
// from what the engine returned for them. Pure functions: state + engine result -> a list of
// [key, params] pairs of pipeline/strings.js; textOf() looks them up and joins them.
// Nothing here computes a weight: every number in a sentence is one the engine returned.

import { sentences } from '../../text/i18n.js';
import { FILL_SIGNS } from '../../engine/choices.js';
import { rowKind } from '../../lesson/rows.js';

// How each fill value is written in the text (the same in both languages).
export const FILL_SHOWN = Object.fromEntries(Object.entries(FILL_SIGNS).map(([fill, sign]) => [fill, sign.text]));

const at = (m, i, j) => m.data[i * m.cols + j];
const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

// Step 3 (mask): what masking is, what the chosen fill does, and what the blocked cells got.
export function maskedStep(state, result, fmt) {
  const parts = [
    ['explain.masked', { fill: FILL_SHOWN[state.fill] }],
    [`masked.fill.${state.fill}`, {}],
  ];
  const { mask, weights } = result;
  let n = 0,
    zero = 0,
    leak = 0,
    nan = 0,
    top = 0;
  for (let i = 0; i < mask.rows; i++) {
    for (let j = 0; j < mask.cols; j++) {
      if (at(mask, i, j) !== 0) continue;
      n++;
      const w = at(weights, i, j);
      if (Number.isNaN(w)) nan++;
      else if (w === 0) zero++;
      else {
        leak++;
        top = Math.max(top, w);
      }
    }
  }
  if (n === 0) return [...parts, ['masked.none', {}]];
  parts.push(['masked.count', { n }]);
  if (zero === n) return [...parts, ['masked.allZero', {}]];
  if (zero) parts.push(['masked.someZero', { k: zero }]);
  if (leak) parts.push(['masked.leak', { k: leak, max: fmt(top, 3) }]);
  if (nan) parts.push(['masked.nan', { k: nan }]);
  return parts;
}

// Step 4 (softmax): stable or naive as ticked, then what came out for the rows with every key
// blocked and for rows the naive softmax broke (NaN, or all zeros), then what entropy is.
export function weightsStep(state, result, queryTokens) {
  const parts = [[state.stable ? 'weights.stable' : 'weights.naive', {}]];
  const full = new Set(result.fullyMaskedRows);
  const groups = { emptyZero: [], emptyUniform: [], emptyNan: [], emptyOther: [], overflowNan: [], overflowZero: [] };
  for (let i = 0; i < result.weights.rows; i++) {
    const kind = rowKind(rowOf(result.weights, i));
    const nan = kind === 'nan' || kind === 'nanOther';
    if (full.has(i)) {
      groups[
        nan ? 'emptyNan' : kind === 'zero' ? 'emptyZero' : kind === 'uniform' ? 'emptyUniform' : 'emptyOther'
      ].push(queryTokens[i]);
    } else if (nan) groups.overflowNan.push(queryTokens[i]);
    else if (kind === 'zero') groups.overflowZero.push(queryTokens[i]); // naive: the sum of exps overflowed
  }
  for (const [key, list] of Object.entries(groups)) {
    if (list.length) parts.push([`weights.${key}`, { list, fill: FILL_SHOWN[state.fill] }]);
  }
  parts.push(['weights.entropy', {}]);
  return parts;
}

// The note under the formula for the selected row i (and cell j on the mask step), when that
// row has every key blocked or the cell is blocked; null otherwise.
export function blockedNote(state, result, stage, i, j, queryTokens, keyTokens, fmt) {
  const q = queryTokens[i];
  const fill = FILL_SHOWN[state.fill];
  if (result.fullyMaskedRows.includes(i)) {
    const w = rowOf(result.weights, i);
    const kind = { zero: 'zero', uniform: 'uniform', nan: 'nan', nanOther: 'nan' }[rowKind(w)] || 'other';
    return [[`fullyMasked.${kind}`, { token: q, fill, w: fmt(w[0], 3) }]];
  }
  if (stage === 'masked' && j >= 0 && at(result.mask, i, j) === 0) {
    const w = at(result.weights, i, j);
    const kind = Number.isNaN(w) ? 'nan' : w === 0 ? 'zero' : 'leak';
    return [[`blocked.${kind}`, { q, k: keyTokens[j], fill, w: fmt(w, 3) }]];
  }
  return null;
}

// The sentences of `parts` in one string: s(key, params) looks a key up; lists in params are
// quoted and joined with the chapter's list separator, sentences as `lang` joins them.
export function textOf(s, lang, parts) {
  return sentences(
    lang,
    parts.map(([key, params]) => {
      const p = {};
      for (const [k, v] of Object.entries(params))
        p[k] = Array.isArray(v) ? v.map((t) => s('quoted', { t })).join(s('listSep')) : v;
      return s(key, p);
    }),
  );
}
