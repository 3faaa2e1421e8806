// The attention playground's first step (./index.js): train and watch the heads. The loss and
// accuracy curves lead, the training panel beside them (the chapter's control group), every head's
// attention on the probe under them; the question about the untrained model is answered by the
// worker's first report (step 0).

import { button, h } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { CHUNK } from '../kit/training.js';
import { createPredict } from '../kit/predict.js';
import { buildCurves, drawCurves, drawHeads, drawProbe } from './figures.js';
import { GUESSES, untrainedAnswer, vocabOf } from './logic.js';

export function trainStep(training) {
  function build(c, v) {
    const { s } = c;
    v.predict = createPredict(c, {
      id: 'playground/untrained',
      question: '',
      options: GUESSES.map((g) => ({ value: g, label: s(`untrained.${g}`) })),
    });
    const charts = buildCurves(c, v, s('lossChart', { n: CHUNK }), s('accChart'));
    charts.dataset.figure = 'main';
    v.heads = h('div', { class: 'pg-heads maps' });
    v.inspect = h('div', { class: 'pg-inspect-heads', role: 'group', 'aria-label': s('inspectHeads') });
    v.probe = h('div', { class: 'pg-probe' });
    return [
      charts,
      h('p', { class: 'about lab-explain', text: s('headsAbout') }),
      v.predict.el,
      v.heads,
      v.inspect,
      v.probe,
    ];
  }

  function draw(c, data, v) {
    const { s, state } = c;
    const main = c.ui.history && c.ui.history.main;
    const vocab = vocabOf(state.pgTask);
    v.predict.ask(s('untrained.q', { task: s(`task.${state.pgTask}`) }));
    // the untrained model's held-out accuracy: the first report's (step 0)
    const first = main && main.acc[0];
    if (first && first.x === 0) {
      const params = { acc: fmt(first.y, 3), vocab, chance: fmt(1 / vocab, 3) };
      v.predict.draw(untrainedAnswer(first.y, vocab), {
        right: s('untrained.why', params),
        wrong: s('untrained.why', params),
      });
    }
    drawCurves(c, v, ['main'], training.xDomain(c, ['main']));
    drawProbe(c, v.probe, main);
    drawHeads(c, v.heads, main);
    drawInspectButtons(c, v.inspect);
  }

  return { id: 'train', title: { en: 'Train', zh: '训练' }, build, draw };
}

// A button per head that opens it on your own tokens (step 3).
function drawInspectButtons(c, box) {
  const { s, state } = c;
  const key = `${state.pgLayers}x${state.pgHeads}:${c.lang}`;
  if (box.dataset.built === key) return;
  box.dataset.built = key;
  const buttons = [];
  for (let l = 1; l <= state.pgLayers; l++)
    for (let hd = 1; hd <= state.pgHeads; hd++)
      buttons.push(
        button('btn pg-inspect-head', s('inspectHead', { l, h: hd }), () =>
          c.set({ pgLayer: l, pgHead: hd, stage: 'inspect' }),
        ),
      );
  box.replaceChildren(h('span', { class: 'hint', text: s('inspectHeads') }), ...buttons);
}
