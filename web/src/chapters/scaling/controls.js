// The scaling lesson's controls (d_k, samples, τ, raw or scaled, keys, seed, a new query), each
// beside the figures of the steps it acts on (the chapter's control groups, GROUPS below).

import { fmtInt, parseNumber, nearestStop } from '../../text/format.js';
import { h, nextId, isFocused } from '../../views/dom.js';
import { DK_STOPS, SAMPLE_STOPS, TAU_STOPS } from './theory.js';
import { MAX_SEED } from '../../engine/choices.js';

// A labelled slider (moving through `stops`) with a number box and an inline error slot.
function sliderField({ label, stops, valueText, onSlide, onType, name }) {
  const id = nextId(`lab-${name}-`);
  const slider = h('input', {
    type: 'range',
    id,
    min: '0',
    max: String(stops.length - 1),
    step: '1',
    class: 'lab-slider',
    'data-field': name,
  });
  const box = h('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'lab-number',
    'aria-label': label,
    'data-field': `${name}-box`,
  });
  const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
  box.setAttribute('aria-describedby', error.id);
  slider.addEventListener('input', () => onSlide(stops[Number(slider.value)]));
  box.addEventListener('change', () => onType(box.value.trim()));
  const wrap = h(
    'div',
    { class: 'field lab-field' },
    h('label', { for: id, text: label }),
    h('div', { class: 'lab-slider-row' }, slider, box),
    error,
  );
  return {
    wrap,
    slider,
    box,
    error,
    set(v) {
      slider.value = String(nearestStop(stops, v));
      slider.setAttribute('aria-valuetext', valueText(v));
      if (!isFocused(box)) box.value = String(v);
    },
  };
}

function parseWhole(text) {
  const t = text.replace(/[,_\s]/g, '');
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

// Every control, built once per chapter instance (kept in c.ui) and handed to its group.
function fields(c) {
  if (c.ui.labFields) return c.ui.labFields;
  const v = (c.ui.labFields = {});
  const { s } = c;
  const typed = (field, key, parse, min, max, errKey) => (text) => {
    const x = parse(text);
    if (!(Number.isFinite(x) && x >= min && x <= max)) {
      field.error.textContent = s(errKey, { value: text });
      field.box.setAttribute('aria-invalid', 'true');
      return;
    }
    field.error.textContent = '';
    field.box.setAttribute('aria-invalid', 'false');
    c.set({ [key]: x });
  };
  const clear = (field) => {
    field.error.textContent = '';
    field.box.setAttribute('aria-invalid', 'false');
  };

  v.dk = sliderField({
    label: s('dk'),
    stops: DK_STOPS,
    name: 'dk',
    valueText: (x) => s('dkValue', { dk: x }),
    onSlide: (x) => {
      clear(v.dk);
      c.set({ labDk: x });
    },
    onType: (t) => typed(v.dk, 'labDk', parseWhole, 1, 1024, 'errDk')(t),
  });
  v.samples = sliderField({
    label: s('samples'),
    stops: SAMPLE_STOPS,
    name: 'samples',
    valueText: (x) => s('samplesValue', { n: fmtInt(x) }),
    onSlide: (x) => {
      clear(v.samples);
      c.set({ labSamples: x });
    },
    onType: (t) => typed(v.samples, 'labSamples', parseWhole, 1000, 1000000, 'errSamples')(t),
  });
  v.tau = sliderField({
    label: s('tau'),
    stops: TAU_STOPS,
    name: 'tau',
    valueText: (x) => s('tauValue', { tau: x }),
    onSlide: (x) => {
      clear(v.tau);
      c.set({ labTau: x });
    },
    onType: (t) => typed(v.tau, 'labTau', parseNumber, 0.01, 100, 'errTau')(t),
  });

  // seed and n: plain number boxes
  const numberField = (label, name, key, min, max, errKey) => {
    const id = nextId(`lab-${name}-`);
    const box = h('input', { type: 'text', inputmode: 'numeric', id, class: 'lab-number', 'data-field': name });
    const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
    box.setAttribute('aria-describedby', error.id);
    const f = { box, error, wrap: h('div', { class: 'field' }, h('label', { for: id, text: label }), box, error) };
    box.addEventListener('change', () => typed(f, key, parseWhole, min, max, errKey)(box.value.trim()));
    return f;
  };
  v.seed = numberField(s('seed'), 'seed', 'labSeed', 0, MAX_SEED, 'errSeed');
  v.keys = numberField(s('keys'), 'keys', 'labKeys', 2, 64, 'errKeys');

  // raw vs scaled: a radio group
  const group = nextId('lab-scores-');
  v.rawRadio = h('input', {
    type: 'radio',
    name: group,
    value: 'raw',
    'data-field': 'raw',
    onchange: () => c.set({ labScaled: false }),
  });
  v.scaledRadio = h('input', {
    type: 'radio',
    name: group,
    value: 'scaled',
    'data-field': 'scaled',
    onchange: () => c.set({ labScaled: true }),
  });
  v.sharedBox = h('input', {
    type: 'checkbox',
    'data-field': 'shared',
    onchange: () => c.set({ labShared: v.sharedBox.checked }),
  });
  v.sharedLabel = h('label', { class: 'check' }, v.sharedBox, h('span', { text: s('sharedAxis') }));
  v.scoresField = h(
    'fieldset',
    { class: 'field lab-radios' },
    h('legend', { class: 'field-label', text: s('scores') }),
    h('label', { class: 'check' }, v.rawRadio, h('span', { text: s('raw') })),
    h('label', { class: 'check' }, v.scaledRadio, h('span', { text: s('scaled') })),
    v.sharedLabel,
  );

  v.newQuery = h(
    'div',
    { class: 'field lab-new' },
    h('button', {
      type: 'button',
      class: 'btn',
      text: s('newQuery'),
      'data-field': 'new-query',
      onclick: () => c.set({ labTrial: (c.state.labTrial + 1) % 10000 }),
    }),
  );

  return v;
}

// The controls' values (drawn by the group every step has).
function drawControls(c) {
  const v = fields(c);
  const st = c.state;
  v.dk.set(st.labDk);
  v.samples.set(st.labSamples);
  v.tau.set(st.labTau);
  if (!isFocused(v.seed.box)) v.seed.box.value = String(st.labSeed);
  if (!isFocused(v.keys.box)) v.keys.box.value = String(st.labKeys);
  v.rawRadio.checked = !st.labScaled;
  v.scaledRadio.checked = st.labScaled;
  v.sharedBox.checked = st.labShared;
  v.sharedLabel.hidden = st.stage !== 'variance';
}

// Which controls act on which steps' figures, most particular first: beside the figure there,
// in "More settings" elsewhere.
const group = (steps, name, draw) => ({
  steps,
  build: (c) => h('div', { class: 'controls' }, fields(c)[name].wrap ?? fields(c)[name]),
  draw,
});
export const GROUPS = [
  group(['variance'], 'samples'),
  group(['temperature'], 'tau'),
  group(['variance', 'temperature'], 'scoresField'),
  group(['softmax', 'gradient', 'temperature'], 'keys'),
  group(['softmax', 'gradient', 'temperature'], 'newQuery'),
  group('*', 'dk', drawControls),
  group('*', 'seed'),
];

// The keyboard hint, in the settings.
export const buildHint = (c) => h('p', { class: 'hint keys-hint', 'data-group': 'stepper', text: c.s('keysHint') });
