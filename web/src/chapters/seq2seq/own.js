// The encoder–decoder playground's second step (./index.js): your own sentence, as both models
// write it now, with the alignment of the model with attention (at step 0 the untrained model's,
// said so in its title).

import { h, isFocused, setText } from '../../views/dom.js';
import { splitTokens } from '../../views/controls.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { isOwnSentence } from './logic.js';

export function ownStep(training) {
  function build(c, v) {
    const { s } = c;
    v.id = 's2-own-input';
    v.input = h('input', { type: 'text', class: 'wide', id: v.id, autocomplete: 'off', spellcheck: false });
    v.err = h('div', { class: 'field-error', role: 'alert', id: `${v.id}-e` });
    v.input.setAttribute('aria-describedby', `${v.id}-e`);
    v.words = h('p', { class: 'hint s2-words' });
    v.input.addEventListener('change', () => {
      const words = c.ui.words || [];
      const list = splitTokens(v.input.value);
      const ok = isOwnSentence(list, words);
      v.input.setAttribute('aria-invalid', String(!ok));
      v.err.textContent = ok ? '' : s('errOwn', { words: words.join(' ') });
      if (ok) c.set({ s2Input: list });
    });
    v.waiting = h('p', { class: 'hint' });
    v.out = h('div', { class: 's2-own-out', 'aria-live': 'polite' });
    // The step's figure: the alignment on the sentence, from the models as they are now (at step
    // 0 the untrained model's, said so in its title); aria-busy until the worker's first answer.
    v.fig = heatmapFigure(c, { kind: 'sequential', className: 's2-own-map' });
    v.fig.title.textContent = s('ownTitle'); // its heading before the sentence is translated
    v.fig.wrap.dataset.figure = 'main';
    v.fig.wrap.setAttribute('aria-busy', 'true');
    v.field = h('div', { class: 'field' }, h('label', { for: v.id, text: s('ownLabel') }), v.input, v.err);
    return [v.fig.wrap, h('p', { class: 'about lab-explain', text: s('ownAbout') }), v.waiting, v.out];
  }

  // Beside the alignment: your sentence, and the words it may use.
  const controls = (c, v) => [h('div', { class: 'controls' }, v.field), v.words];

  function draw(c, data, v) {
    const { s, state } = c;
    const ui = c.ui;
    const main = ui.history && ui.history.main;
    if (!main || !main.latest) return;
    const probe = main.latest.probe;
    const vocabulary = main.latest.vocabulary;
    ui.words = vocabulary;
    setText(v.words, s('ownWords', { words: vocabulary.join(' ') }));
    // your words if they are the task's (a link or a task change may bring others), else the probe's
    const words = isOwnSentence(state.s2Input, vocabulary) ? state.s2Input : probe.sourceWords;
    if (!isFocused(v.input) && v.input.getAttribute('aria-invalid') !== 'true') v.input.value = words.join(' ');
    const trained = main.step > 0;
    setText(v.waiting, trained ? '' : s('ownWaiting'));
    const show = (r) => {
      v.out.replaceChildren(
        h('p', { class: 's2-own-none', text: s('ownNone', { tokens: r.twin.predictionWords.join(' ') }) }),
        h('p', { class: 's2-own-attn', text: s('ownAttn', { tokens: r.main.predictionWords.join(' ') }) }),
        r.main.targetWords
          ? h('p', { text: s('ownExpected', { tokens: r.main.targetWords.join(' ') }) })
          : h('p', { class: 'hint', text: s('ownNotSentence') }),
      );
      if (!r.main.alignment) return;
      // untrained, the decoder rarely says "</s>" and runs to the longest output: its first
      // (words + 1) rows are drawn, and the title says how many of how many
      const a = r.main.alignment;
      const rows = trained ? a.rows : Math.min(a.rows, r.main.sourceWords.length + 1);
      drawFigure(v.fig, {
        title: trained ? s('ownTitle') : s('ownTitleUntrained', { k: rows, n: a.rows }),
        matrix: rows === a.rows ? a : { rows, cols: a.cols, data: a.data.subarray(0, rows * a.cols) },
        rowLabels: r.main.predictionWords.slice(0, rows).map((w, i) => `${i + 1}:${w}`),
        colLabels: r.main.sourceWords.map((w, j) => `${j + 1}:${w}`),
        domain: [0, 1],
      });
      v.fig.wrap.dataset.step = String(main.step);
      v.fig.wrap.removeAttribute('aria-busy');
    };
    // both models' answers on the sentence
    training.answer(c, {
      input: words.join(' '),
      ask: () =>
        Promise.all([ui.client.inspect('main', words), ui.client.inspect('twin', words)]).then(([a, b]) =>
          a && b ? { main: a, twin: b } : null,
        ),
      show,
      onError: (e) => {
        v.err.textContent = e.message;
      },
    });
  }

  return { id: 'own', title: { en: 'Your sentence', zh: '你的句子' }, build, controls, draw };
}
