// The messages embed.html accepts from the page around it (README: "Embedding in a course site"):
//   { source: 'attention-lab-host', type: 'set', state: { stage: 'padding', ... } }
//   { source: 'attention-lab-host', type: 'get' }
// readMessage checks every field and returns { patch } or { get: true }, or null for anything
// else: another source or type, an unknown key, a field the page does not have, a value its
// schema refuses or of the wrong kind, a stage that is not one of its lesson's steps.

import { validatePatch } from './state.js';

export const HOST_SOURCE = 'attention-lab-host';
export const FRAME_SOURCE = 'attention-lab';
export const PROTOCOL_VERSION = 1;
const MAX_FIELDS = 64;

const isPlainObject = (x) =>
  x !== null && typeof x === 'object' && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;
const LIST_ITEM = { string: 'string', bool: 'boolean', float: 'number' };
// A value of the kind its field holds (the schema then checks its range, length, items).
function isValue(spec, x) {
  switch (spec.type) {
    case 'int':
    case 'float':
      return typeof x === 'number';
    case 'bool':
      return typeof x === 'boolean';
    case 'enum':
    case 'string':
      return typeof x === 'string';
    case 'list':
      return Array.isArray(x) && x.length <= 4096 && x.every((y) => typeof y === LIST_ITEM[spec.item]);
    case 'matrix':
      return (
        Array.isArray(x) &&
        x.length <= 4096 &&
        x.every((r) => Array.isArray(r) && r.length <= 4096 && r.every((y) => typeof y === 'number'))
      );
    default:
      return false;
  }
}

// stepsOf(lesson) -> the lesson's step ids, or null when its chapter has not loaded (then the
// receiver puts an unknown stage right, as it does for a link).
export function readMessage(data, { schema, lesson, stepsOf }) {
  if (!isPlainObject(data) || data.source !== HOST_SOURCE) return null;
  const keys = Object.keys(data);
  if (data.type === 'get') return keys.every((k) => k === 'source' || k === 'type') ? { get: true } : null;
  if (data.type !== 'set' || !keys.every((k) => k === 'source' || k === 'type' || k === 'state')) return null;
  const patch = data.state;
  if (!isPlainObject(patch)) return null;
  const fields = Object.keys(patch);
  if (fields.length === 0 || fields.length > MAX_FIELDS) return null;
  if (!fields.every((k) => Object.hasOwn(schema, k) && isValue(schema[k], patch[k]))) return null;
  try {
    if (!validatePatch(patch, schema).ok) return null;
  } catch {
    return null; // a value of the wrong kind for its field
  }
  if (patch.stage !== undefined) {
    const steps = stepsOf(patch.lesson ?? lesson);
    if (steps && !steps.includes(patch.stage)) return null;
  }
  return { patch: { ...patch } };
}
