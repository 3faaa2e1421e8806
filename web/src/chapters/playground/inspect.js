// The attention playground's third step (./index.js): your own sequence. One head of the model as
// it is now (the worker answers), on tokens the learner types; at step 0 the untrained model's,
// said so in its title.

import { h, setText, isFocused } from '../../views/dom.js';
import { splitTokens, numberSelect } from '../../views/controls.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { lengthOf, tokenText, tokensText, vocabOf } from './logic.js';

export function inspectStep(training) {
  function build(c, v) {
    const { s } = c;
    v.tokensId = 'pg-own-tokens';
    v.input = h('input', { type: 'text', class: 'wide', id: v.tokensId, autocomplete: 'off', spellcheck: false });
    v.err = h('div', { class: 'field-error', role: 'alert', id: `${v.tokensId}-e` });
    v.input.setAttribute('aria-describedby', `${v.tokensId}-e`);
    v.label = h('label', { for: v.tokensId });
    v.input.addEventListener('change', () => {
      const max = vocabOf(c.state.pgTask) - 1;
      const list = splitTokens(v.input.value.replace(/\|/g, ' 10 '));
      const n = lengthOf(c.state.pgTask);
      const ok = list.length >= 1 && list.length <= n && list.every((t) => /^\d+$/.test(t) && Number(t) <= max);
      v.input.setAttribute('aria-invalid', String(!ok));
      v.err.textContent = ok ? '' : n === 16 ? s('errTokens', { max }) : s('errTokensLength', { n, max });
      if (ok) c.set({ pgInput: list });
    });
    v.layer = numberSelect(s('inspectLayer'), [1, 2], (x) => c.set({ pgLayer: x }));
    v.head = numberSelect(s('inspectHeadNo'), [1, 2, 3, 4], (x) => c.set({ pgHead: x }));
    // The step's figure: the head on the tokens, from the model as it is now (at step 0 the
    // untrained model's, said so in its title); aria-busy until the worker's first answer.
    v.fig = heatmapFigure(c, { kind: 'sequential', className: 'pg-own' });
    v.fig.wrap.dataset.figure = 'main';
    v.fig.wrap.setAttribute('aria-busy', 'true');
    v.pred = h('p', { class: 'pg-pred', 'aria-live': 'polite' });
    v.waiting = h('p', { class: 'hint' });
    return [v.fig.wrap, h('p', { class: 'about lab-explain', text: s('inspectAbout') }), v.waiting, v.pred];
  }

  // Beside the head: the tokens, the layer and the head.
  const controls = (c, v) =>
    h('div', { class: 'controls' }, h('div', { class: 'field' }, v.label, v.input, v.err), v.layer.wrap, v.head.wrap);

  function draw(c, data, v) {
    const { s, state } = c;
    const ui = c.ui;
    const max = vocabOf(state.pgTask) - 1;
    setText(v.label, s('inspectTokens', { max }));
    const tokens = state.pgInput.length ? state.pgInput.map(Number) : null;
    if (!isFocused(v.input) && v.input.getAttribute('aria-invalid') !== 'true') {
      v.input.value = tokens ? tokensText(state.pgTask, tokens) : '';
    }
    v.layer.sync(Math.min(state.pgLayer, state.pgLayers));
    v.head.sync(Math.min(state.pgHead, state.pgHeads));
    for (const [sel, most] of [
      [v.layer.select, state.pgLayers],
      [v.head.select, state.pgHeads],
    ]) {
      for (const o of sel.options) o.disabled = Number(o.value) > most;
    }
    const main = ui.history && ui.history.main;
    if (!main || !main.latest) return; // the worker's first report (step 0) is on its way
    const trained = main.step > 0;
    setText(v.waiting, trained ? '' : s('inspectWaiting'));
    const l = Math.min(state.pgLayer, state.pgLayers) - 1,
      hd = Math.min(state.pgHead, state.pgHeads) - 1;
    const list =
      tokens && tokens.length <= lengthOf(state.pgTask) && tokens.every((x) => x <= max)
        ? tokens
        : Array.from(main.latest.probe.tokens);
    const show = (r) => {
      const labels = Array.from(r.tokens, (x, i) => `${i}:${tokenText(state.pgTask, x)}`);
      drawFigure(v.fig, {
        title: s(trained ? 'inspectTitle' : 'inspectTitleUntrained', { l: l + 1, h: hd + 1 }),
        matrix: r.patterns[l][hd],
        rowLabels: labels,
        colLabels: labels,
        domain: [0, 1],
      });
      v.fig.wrap.dataset.step = String(main.step);
      v.fig.wrap.removeAttribute('aria-busy');
      setText(v.pred, s('predictions', { tokens: tokensText(state.pgTask, r.predictions) }));
    };
    training.answer(c, {
      input: list.join(' '),
      ask: () => ui.client.inspect('main', list),
      show,
      onError: (e) => {
        ui.error = e.message;
        training.redrawStep(c);
      },
    });
  }

  return { id: 'inspect', title: { en: 'Your sequence', zh: '你的序列' }, build, controls, draw };
}
