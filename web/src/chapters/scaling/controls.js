// The scaling lesson's controls (d_k, samples, τ, raw or scaled, keys, seed, a new query), each
// beside the figures of the steps it acts on (the chapter's control groups, GROUPS below).

import { fmtInt, parseNumber, nearestStop } from '../../text/format.js';
import { button, h, nextId, isFocused } from '../../views/dom.js';
import { DK_STOPS, SAMPLE_STOPS, TAU_STOPS } from './theory.js';
import meta from './meta.js';

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
  // A typed value for the state field `key` (parsed with parse), or errKey's message when it is
  // outside the field's range (the chapter's state schema, ./meta.js).
  const typed = (field, key, parse, errKey) => (text) => {
    const x = parse(text);
    const { min, max } = meta.state[key];
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

  // d_k, the samples and τ: a slider over stops for the state field `key`, with a number box
  const stopsField = (name, key, stops, parse, errKey, valueText) => {
    const f = sliderField({
      label: s(name),
      stops,
      name,
      valueText,
      onSlide: (x) => {
        clear(f);
        c.set({ [key]: x });
      },
      onType: (t) => typed(f, key, parse, errKey)(t),
    });
    return f;
  };
  v.dk = stopsField('dk', 'labDk', DK_STOPS, parseWhole, 'errDk', (x) => s('dkValue', { dk: x }));
  v.samples = stopsField('samples', 'labSamples', SAMPLE_STOPS, parseWhole, 'errSamples', (x) =>
    s('samplesValue', { n: fmtInt(x) }),
  );
  v.tau = stopsField('tau', 'labTau', TAU_STOPS, parseNumber, 'errTau', (x) => s('tauValue', { tau: x }));

  // seed and n: plain number boxes
  const numberField = (label, name, key, errKey) => {
    const id = nextId(`lab-${name}-`);
    const box = h('input', { type: 'text', inputmode: 'numeric', id, class: 'lab-number', 'data-field': name });
    const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
    box.setAttribute('aria-describedby', error.id);
    const f = { box, error, wrap: h('div', { class: 'field' }, h('label', { for: id, text: label }), box, error) };
    box.addEventListener('change', () => typed(f, key, parseWhole, errKey)(box.value.trim()));
    return f;
  };
  v.seed = numberField(s('seed'), 'seed', 'labSeed', 'errSeed');
  v.keys = numberField(s('keys'), 'keys', 'labKeys', 'errKeys');

  // raw vs scaled: a radio group
  const group = nextId('lab-scores-');
  const radio = (value, scaled) =>
    h('input', {
      type: 'radio',
      name: group,
      value,
      'data-field': value,
      onchange: () => c.set({ labScaled: scaled }),
    });
  v.rawRadio = radio('raw', false);
  v.scaledRadio = radio('scaled', true);
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
    button('btn', s('newQuery'), () => c.set({ labTrial: (c.state.labTrial + 1) % (meta.state.labTrial.max + 1) }), {
      'data-field': 'new-query',
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
