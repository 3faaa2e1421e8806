// Step 2: the causal mask and its reversed bug, one choice at a time, always on a sequence that
// attends to itself (logic.js: causalStepState).

import { PRESETS, presetPatch, runExample } from '../../lesson/example.js';
import { sentences } from '../../text/i18n.js';
import { button, h } from '../../views/dom.js';
import { radioFieldset } from '../../views/controls.js';
import { SELF_EXAMPLE, causalMode, causalModePatch, causalStepState, causalVerdict, futureCells } from './logic.js';
import { msg, setMsg } from './maps.js';

const MODES = ['none', 'causal', 'reverse'];
const MODE_LABEL = { none: 'causalNone', causal: 'causal', reverse: 'reverse' };

// The example this step draws (the self-attention one when the chapter's is cross-attention).
export const computeCausal = (c) => runExample(c.engine, causalStepState(c.state));

export function buildCausal(c, v) {
  const { s } = c;
  v.modes = MODES.map((m) =>
    h('input', { type: 'radio', name: 'mk-causal', value: m, onchange: () => c.set(causalModePatch(m)) }),
  );
  v.crossText = h('span', { text: s('crossShown') });
  v.toSelf = button('btn', s('toSelf'), () =>
    c.set({ ...presetPatch(SELF_EXAMPLE), ...causalModePatch(causalMode(c.state)) }),
  );
  v.crossHint = h('p', { class: 'msg info mk-cross-hint' }, v.crossText, ' ', v.toSelf);
  v.note = msg();
  return [
    h('p', { class: 'explain', text: s('p.causal') }),
    h('p', { class: 'explain', text: s('p.reverse') }),
    v.crossHint,
    v.note,
  ];
}

export const causalControls = (c, v) =>
  radioFieldset(
    c.s('causalMode'),
    v.modes,
    v.modes.map((r) => h('span', { text: c.s(MODE_LABEL[r.value]) })),
  );

export function drawCausal(c, run, v) {
  const { s } = c;
  const mode = causalMode(c.state);
  v.modes.forEach((r) => {
    r.checked = r.value === mode;
  });
  v.crossHint.hidden = PRESETS[c.state.preset].kind !== 'cross';
  const future = futureCells(run.result);
  const { cls, keys } = causalVerdict(mode, future.length, c.state.fill);
  setMsg(
    v.note,
    cls,
    sentences(
      c.lang,
      keys.map((k) => s(k, { n: future.length })),
    ),
  );
  return { cells: mode === 'none' ? [] : future };
}
