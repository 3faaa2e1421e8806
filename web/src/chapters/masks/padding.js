// Masks drawn by the learner: padding keys (step 1) and a custom mask clicked cell by cell (step 3).
// The weights under them are the shared maps (./maps.js); these steps flag the cells that leak.

import { paddingPatch } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { button, h, rebuildOn } from '../../views/dom.js';
import { leakedCells, maxWeightOf } from './logic.js';
import { msg, setMsg } from './maps.js';

// ---- 1. padding ------------------------------------------------------------------------------------

export function buildPadding(c, v) {
  const { s } = c;
  v.pads = h('div', { class: 'pad-toggles', role: 'group', 'aria-label': s('padKeys') });
  v.note = msg();
  return [h('p', { class: 'explain', text: s('p.padding') }), v.note];
}

export const paddingControls = (c, v) =>
  h('div', { class: 'controls' }, h('span', { class: 'field-label', text: c.s('padKeys') }), v.pads);

export function drawPadding(c, run, v) {
  const { s } = c;
  const { note, pads } = v;
  const st = c.state;
  const kt = run.inputs.keyTokens;
  rebuildOn(pads, kt.join('\u0001'), () =>
    kt.map((tok, j) =>
      button(
        'btn toggle pad-key',
        tok,
        () => c.set(paddingPatch(c.state, kt.length, j, c.state.keyPadding[j] !== true)),
        { 'aria-pressed': 'false', 'aria-label': s('padOf', { tok }), 'data-key': String(j) },
      ),
    ),
  );
  [...pads.children].forEach((b, j) => b.setAttribute('aria-pressed', String(st.keyPadding[j] === true)));
  const anyPad = kt.some((_, j) => st.keyPadding[j] === true);
  const leaks = leakedCells(run.result);
  if (leaks.length) setMsg(note, 'bad', s('leak', { n: leaks.length, max: fmt(maxWeightOf(run.result, leaks), 3) }));
  else if (anyPad) setMsg(note, 'good', s('noLeak'));
  else setMsg(note, 'info', s('padNone'));
  return { cells: leaks };
}

// ---- 3. custom mask ----------------------------------------------------------------------------------

export function buildCustom(c, v) {
  const { s } = c;
  v.note = msg();
  v.leakNote = msg();
  v.clear = button('btn', s('clearCustom'), () => c.set({ customMask: [] }));
  return [h('p', { class: 'explain', text: s('p.custom') }), v.note, v.leakNote];
}

export const customControls = (c, v) => h('div', { class: 'controls' }, v.clear);

export function drawCustom(c, run, v) {
  const { s } = c;
  const { clear, leakNote, note } = v;
  clear.disabled = c.state.customMask.length === 0;
  setMsg(note, 'info', ''); // a click may set it again right after this draw
  const leaks = leakedCells(run.result);
  if (leaks.length)
    setMsg(leakNote, 'bad', s('leak', { n: leaks.length, max: fmt(maxWeightOf(run.result, leaks), 3) }));
  else setMsg(leakNote, 'info', '');
  return { cells: leaks };
}
