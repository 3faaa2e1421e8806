// The row of scores every step of the Softmax chapter draws from: typed by the learner, beside
// every step's figure (a control group of the chapter), with a reset to the example's row.

import { MAX_TOKENS } from '../../lesson/example.js';
import { parseList } from '../../text/format.js';
import { button, h } from '../../views/dom.js';
import { field, showError, syncInput } from '../../views/controls.js';
import { DEFAULT_SCORES } from './meta.js';

export function buildScores(c, v) {
  const { s } = c;
  const f = field(
    s('scores'),
    h('input', { type: 'text', class: 'wide', inputmode: 'decimal', autocomplete: 'off', spellcheck: false }),
    s('scoresHint'),
  );
  f.input.addEventListener('change', () => {
    const r = parseList(f.input.value, { min: 1, max: MAX_TOKENS });
    if (r.error === 'count') return showError(f, s('errCount', { max: MAX_TOKENS }));
    if (r.error) return showError(f, s('errNumber', { k: r.at + 1 }));
    showError(f, '');
    c.set({ smScores: r.values, smGuess: [] });
  });
  const reset = button('btn', s('reset'), () => {
    showError(f, '');
    c.set({ smScores: DEFAULT_SCORES, smGuess: [] });
  });
  v.scores = f;
  return h('div', { class: 'controls sm-scores-row' }, f.wrap, reset);
}

export function drawScores(c, scores, v) {
  syncInput(v.scores, scores.join(', '));
}
