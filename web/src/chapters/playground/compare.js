// The attention playground's second step (./index.js): side by side. A second model trains next to
// the first with one switch flipped (√d_k or the positional encoding); both runs' curves lead, and
// "What happens without the scale" sets up and trains the preset of meta.js (NO_SCALE), whose
// verdict says what the two runs show.

import { button, h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { selectInput } from '../../views/controls.js';
import { CHUNK } from '../kit/training.js';
import { buildCurves, drawCurves, drawHeads } from './figures.js';
import { configOf, isNoScale, noScaleNumbers, twinOf } from './logic.js';
import { COMPARES, NO_SCALE, NO_SCALE_FROM, NO_SCALE_STEPS } from './meta.js';

export function compareStep(training) {
  function build(c, v) {
    const { s } = c;
    v.compare = selectInput(
      s('compare'),
      COMPARES.map((x) => ({ value: x, label: s(`compare.${x}`) })),
      (x) => c.set({ pgCompare: x, pgStep: 0 }),
    );
    v.hint = h('p', { class: 'hint' });
    const charts = buildCurves(c, v, s('compareLoss'), s('compareAcc'));
    // The step's figure: the curves of this run (and of its twin once a comparison is chosen),
    // from the worker's first report at step 0 on (aria-busy until then).
    charts.dataset.figure = 'main';
    charts.setAttribute('aria-busy', 'true');
    v.charts = charts;
    v.mainTitle = h('h4', { class: 'pg-run-title' });
    v.twinTitle = h('h4', { class: 'pg-run-title' });
    v.mainHeads = h('div', { class: 'pg-heads maps' });
    v.twinHeads = h('div', { class: 'pg-heads maps' });
    v.noScale = button('btn pg-no-scale', s('noScaleButton'), () => noScaleRun(c));
    v.noScaleVerdict = h('p', { class: 'pg-no-scale-verdict', 'aria-live': 'polite' });
    const about = s('noScaleAbout', { d: NO_SCALE.pgD / NO_SCALE.pgHeads, lr: NO_SCALE.pgLr, steps: NO_SCALE_STEPS });
    return [
      charts,
      h('p', { class: 'about lab-explain', text: s('compareAbout') }),
      h('p', { class: 'about lab-explain', text: about }),
      h(
        'div',
        { class: 'pg-side' },
        h('div', { class: 'pg-run' }, v.mainTitle, v.mainHeads),
        h('div', { class: 'pg-run' }, v.twinTitle, v.twinHeads),
      ),
    ];
  }

  // Beside the curves: the comparison, the preset's button and its verdict.
  const controls = (c, v) => [h('div', { class: 'controls' }, v.compare.wrap), v.hint, v.noScale, v.noScaleVerdict];

  // "What happens without the scale": the preset (meta.js NO_SCALE), both runs from step 0 to
  // NO_SCALE_STEPS at the chosen speed, stopping there (the step then goes into the link, which
  // replays the run).
  function noScaleRun(c) {
    const shown = c.ui.history && c.ui.history.main;
    c.set({ ...NO_SCALE, pgStep: 0, stage: 'compare' }); // a new configuration starts the runs again
    if (c.ui.history.main === shown) training.restart(c); // the same one: from step 0 again
    training.runTo(c, NO_SCALE_STEPS);
  }

  // The verdict of the preset's runs, when the state is the preset's (a link to it included).
  function verdict(c) {
    const hist = c.ui.history || {};
    if (!isNoScale(c.state) || !hist.main || !hist.twin) return '';
    const n = noScaleNumbers(hist.main, hist.twin, NO_SCALE_FROM, NO_SCALE_STEPS);
    if (!n) return '';
    return c.s(n.learnedAt !== null ? 'noScaleVerdict' : 'noScaleVerdictBoth', {
      from: NO_SCALE_FROM,
      to: NO_SCALE_STEPS,
      u0: fmt(n.unscaled.from, 3),
      u1: fmt(n.unscaled.to, 3),
      ua: fmt(n.unscaled.acc, 3),
      s1: fmt(n.scaled.to, 3),
      sa: fmt(n.scaled.acc, 3),
      at: n.learnedAt,
    });
  }

  function draw(c, data, v) {
    const { s, state } = c;
    v.compare.sync(state.pgCompare);
    const on = state.pgCompare !== 'none';
    setText(
      v.hint,
      on ? s(state.pgCompare === 'scale' ? 'compareScaleHint' : 'comparePositionHint') : s('compareNone'),
    );
    // with no comparison chosen, this run alone: its curves and heads
    v.twinHeads.parentElement.hidden = !on;
    setText(v.noScaleVerdict, on ? verdict(c) : '');
    // the captions name the runs drawn: this one alone, or both
    v.lossCaption = on ? s('compareLoss') : s('lossChart', { n: CHUNK });
    v.accCaption = on ? s('compareAcc') : s('accChart');
    const hist = c.ui.history || {};
    if (hist.main && hist.main.acc.length && (!on || (hist.twin && hist.twin.acc.length)))
      v.charts.removeAttribute('aria-busy');
    const names = on ? ['main', 'twin'] : ['main'];
    drawCurves(c, v, names, training.xDomain(c, names));
    setText(v.mainTitle, s('runMain'));
    drawHeads(c, v.mainHeads, hist.main);
    if (!on) return;
    const twin = twinOf(configOf(state), state.pgCompare);
    const twinText =
      state.pgCompare === 'scale'
        ? twin.scale
          ? 'twinUnscaledBack'
          : 'twinScale'
        : twin.position === 'none'
          ? 'twinPosition'
          : 'twinPositionBack';
    setText(v.twinTitle, s('twinTitle', { run: s('runTwin'), what: s(twinText) }));
    drawHeads(c, v.twinHeads, hist.twin);
  }

  return { id: 'compare', title: { en: 'Side by side', zh: '并排对比' }, build, controls, draw };
}
