// The messages embed.html accepts from the page around it (README: "Use it in your course"):
//   { source: 'attention-lab-host', type: 'set', state: { stage: 'padding', ... } }
//   { source: 'attention-lab-host', type: 'get' }
// readMessage checks every field and returns { patch } or { get: true }, or null for anything
// else: another source or type, an unknown key, a field the page does not have, a value its
// schema refuses or of the wrong kind, a stage that is not one of its lesson's steps.

//
// What the frame sends its parent (version 1; a parent ignores a type it does not know, so a new
// type keeps the version): { source: 'attention-lab', version, type: 'height' | 'stage' |
// 'progress', ... } (embed.js), and for hosts with their own conventions the frame's height as
// Canvas's LTI frame-resize message and as iframe-resizer's (version 4) child script answers its
// parent script (below).

import { validatePatch } from './state.js';

const HOST_SOURCE = 'attention-lab-host';
export const FRAME_SOURCE = 'attention-lab';
export const PROTOCOL_VERSION = 1;

// Canvas resizes a frame on { subject: 'lti.frameResize', height }, sent as JSON text (every
// Canvas version reads the text form).
export const canvasResize = (height) => JSON.stringify({ subject: 'lti.frameResize', height });

// iframe-resizer's parent script (iframeResizer.js, version 4) starts by sending the frame
// '[iFrameSizer]<id>:<settings…>' and sizes the frame on '[iFrameSizer]<id>:<height>:<width>:<type>'
// ('init' first, then any other type). resizerId(data) -> the id of that first message, or null
// for anything else (its later messages, 'resize', 'reset' or 'message:…', carry no settings).
const RESIZER = '[iFrameSizer]';
export function resizerId(data) {
  if (typeof data !== 'string' || !data.startsWith(RESIZER) || data.length > 2000) return null;
  const fields = data.slice(RESIZER.length).split(':');
  return fields.length >= 10 && /^[\w-]{1,200}$/.test(fields[0]) ? fields[0] : null;
}
export const resizerMessage = (id, height, width, type) => `${RESIZER}${id}:${height}:${width}:${type}`;
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
