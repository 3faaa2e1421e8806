// The encoder–decoder playground's third step (./index.js): whole sentences, length by length. The
// numbers behind the race's chart, and the share of sentences a model writes entirely right.

import { h } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import { RUNS } from './logic.js';

export function lengthsStep() {
  function build(c, v) {
    // the step's figure, filled by the worker's first report (aria-busy until then); it scrolls
    // sideways on its own at 360 px
    v.box = h('div', { class: 's2-length-table table-scroll', 'data-figure': 'main', 'aria-busy': 'true' });
    return [v.box, h('p', { class: 'about lab-explain', text: c.s('lengthsAbout') })];
  }

  function draw(c, data, v) {
    const { s } = c;
    const hist = c.ui.history || {};
    if (!RUNS.every((n) => hist[n] && hist[n].latest)) return;
    const a = hist.twin.latest.byLength,
      b = hist.main.latest.byLength;
    const caption = s('lengthsCaption', { step: hist.main.step });
    const rows = Array.from(a.lengths, (n, k) => [
      String(n),
      fmt(a.tokenAccuracy[k], 3),
      fmt(b.tokenAccuracy[k], 3),
      fmt(a.sequenceAccuracy[k], 3),
      fmt(b.sequenceAccuracy[k], 3),
    ]);
    const head = [s('xLength'), s('colTokensNone'), s('colTokensAttn'), s('colWholeNone'), s('colWholeAttn')];
    v.box.replaceChildren(dataTable({ caption, head, rows }));
    scrollRegion(v.box, caption);
    v.box.removeAttribute('aria-busy');
  }

  return { id: 'lengths', title: { en: 'Length by length', zh: '逐个长度' }, build, draw };
}
