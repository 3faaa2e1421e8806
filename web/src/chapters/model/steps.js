// The real-model lesson's six steps: each builds its figure and its own controls, and draws from
// the chapter's data (./index.js compute) and the session's results (./session.js).

import { button, h, setText } from '../../views/dom.js';
import { createBars } from '../../views/bars.js';
import { renderFormula } from '../../views/formula.js';
import { intInput, selectInput } from '../../views/controls.js';
import { MAX_SEED } from '../../engine/choices.js';
import { scrollTable } from '../../views/table.js';
import { fmt } from '../../text/format.js';
import { heatmapFigure, dims } from '../kit/figures.js';
import { createHeatmap } from '../../views/heatmap.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createPredict } from '../kit/predict.js';
import { ORANGE } from '../../views/palette.js';
import { createModelView, tokenLabels } from './figures.js';
import { tokenLabel } from './tokens.js';
import {
  EXAMPLES,
  GUESSES,
  topRow,
  compareRows,
  likeliest,
  rowEntropy,
  headEffects,
  argmaxHead,
  bestLayer,
  FORMED,
  toggleHead,
} from './logic.js';
import { STAGES } from './meta.js';

export const TOP_K = 20; // tokens of the guess asked of the engine (the bars show the first 10)
const BARS = 10;
const AUTO_HEADS = 48; // models with at most this many heads measure every head by themselves
const SCORE_KINDS = ['previousToken', 'induction', 'duplicateToken', 'firstToken', 'entropy'];

const busy = (el, on) => (on ? el.setAttribute('aria-busy', 'true') : el.removeAttribute('aria-busy'));
// A figure with nothing to show yet (no model, no tokens) is left out until it has: an empty
// title, an unnamed picture or a button without its text would be read out as they are.
const until = (ready, ...els) => els.forEach((el) => (el.hidden = !ready));

// A step's note while there is nothing to draw yet (the model loading, no tokens).
function waiting(c, data) {
  if (!data.loaded) return data.s.loading ? c.s('wait.loading') : c.s('wait.model');
  if (!data.ids.length) return c.s('wait.empty');
  if (!data.run) return c.s('wait.running');
  return '';
}

function noteOf(c, v, data) {
  const text = waiting(c, data);
  setText(v.note, text);
  v.note.hidden = !text;
  return text === '';
}

const labelsOf = (data) => tokenLabels(data.loaded.tokenizer, data.ids).map((t, i) => `${i} ${t}`);
const headName = (c, [l, hh]) => c.s('headName', { l, h: hh });

function headPickers(c, v) {
  v.layer = selectInput(c.s('layer'), [], (x) => c.set({ mdLayer: Number(x) }));
  v.headSel = selectInput(c.s('head'), [], (x) => c.set({ mdHead: Number(x) }));
  return h('div', { class: 'controls md-head-pick' }, v.layer.wrap, v.headSel.wrap);
}
function syncPickers(c, v, data) {
  const { nLayer, nHead } = data.loaded.config;
  const fill = (sel, n, key) => {
    if (sel.select.options.length !== n)
      sel.select.replaceChildren(
        ...Array.from({ length: n }, (_, i) => h('option', { value: String(i), text: String(i) })),
      );
    sel.sync(data.head[key]);
  };
  fill(v.layer, nLayer, 0);
  fill(v.headSel, nHead, 1);
}

// ---- 1. your sentence, the model's guess ---------------------------------------------------------------

const guess = {
  id: 'guess',
  title: { en: 'The guess', zh: '模型的猜测' },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    v.figure = h('div', { class: 'md-guess', 'data-figure': 'main', 'aria-busy': 'true' });
    v.bars = createBars(v.figure, { label: c.s('guessTitle') });
    v.title = h('h4', { class: 'map-title' });
    v.figure.prepend(v.title);
    v.reveal = h('p', { class: 'msg info md-reveal' });
    v.predict = createPredict(c, {
      id: 'model/next',
      question: c.s('q.next'),
      options: GUESSES[c.lang].map((g) => ({ value: g, label: g.trim() })),
      reveal: v.reveal,
    });
    return [
      v.note,
      v.figure,
      v.predict.el,
      v.reveal,
      h('p', { class: 'explain', text: c.s('guess.about') }),
      h('p', { class: 'explain', text: c.s('guess.about2') }),
    ];
  },
  draw(c, data, v) {
    const ready = noteOf(c, v, data);
    busy(v.figure, !ready || data.run.stale);
    until(ready, v.figure);
    const example = c.state.mdText === '' || c.state.mdText === EXAMPLES[c.lang];
    v.predict.el.hidden = v.reveal.hidden = !(ready && example && data.source.kind === 'shipped');
    if (!ready) return;
    const tok = data.loaded.tokenizer;
    const row = topRow(data.run.result.topK, data.pos).slice(0, BARS);
    const after = tokenLabel(tok, data.ids[data.pos]);
    setText(v.title, c.s('guessTitle', { tok: after, i: data.pos }));
    v.bars.update({
      values: row.map((r) => r.p),
      labels: row.map((r) => tokenLabel(tok, r.id)),
      caption: c.s('guessTitle', { tok: after, i: data.pos }),
      domain: [0, 1],
      digits: 3,
    });
    if (!v.predict.el.hidden) {
      const options = GUESSES[c.lang].map((g) => tok.encode(g)[0]);
      const best = likeliest(data.run.result.topK, data.ids.length - 1, options);
      const answer = best === null ? null : GUESSES[c.lang][options.indexOf(best)];
      const p = fmt(row.find((r) => r.id === best)?.p ?? 0, 2);
      const said = c.s('a.next', { w: answer?.trim(), p });
      v.predict.draw(answer, { right: said, wrong: said });
      setText(v.reveal, c.s('a.nextWhy'));
    }
  },
};

// ---- 2. every head at once --------------------------------------------------------------------------

const heads = {
  id: 'heads',
  title: { en: 'All heads', zh: '所有的头' },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    v.view = createModelView(c, { onPick: (l, hh) => c.set({ mdLayer: l, mdHead: hh }) });
    v.view.el.dataset.figure = 'main';
    v.one = heatmapFigure(c, { kind: 'sequential', className: 'md-one' });
    v.open = h('button', { type: 'button', class: 'btn md-open', onclick: () => c.set({ stage: 'stages' }) });
    return [v.note, v.view.el, h('p', { class: 'explain', text: c.s('heads.about') }), v.one.wrap];
  },
  controls: (c, v) => [h('p', { class: 'hint', text: c.s('heads.pick') }), v.open],
  draw(c, data, v) {
    const ready = noteOf(c, v, data);
    busy(v.view.el, !ready || data.run.stale);
    until(ready, v.view.el, v.one.wrap, v.open);
    if (!ready) return;
    const r = data.run.result;
    const labels = labelsOf(data);
    v.view.draw({ attention: r.attention, labels, head: data.head, title: c.s('heads.title', { n: data.ids.length }) });
    setText(v.open, c.s('heads.open', { name: headName(c, data.head) }));
    const [l, hh] = data.head;
    const title = c.s('oneTitle', { name: headName(c, data.head) });
    setText(v.one.title, title);
    v.one.hm.update({
      matrix: r.attention[l][hh],
      rowLabels: labels,
      colLabels: labels,
      domain: [0, 1],
      caption: title,
    });
  },
};

// ---- 3. one head, stage by stage ------------------------------------------------------------------------

const TEX = {
  scores: (x) => `s_{ij} = q_i \\cdot k_j = ${x.s}`,
  scaled: (x) => `\\frac{s_{ij}}{\\sqrt{d_h}} = \\frac{${x.s}}{\\sqrt{${x.dh}}} = ${x.a}`,
  masked: (x) =>
    `m_{ij} = \\begin{cases} \\frac{s_{ij}}{\\sqrt{d_h}} & j \\le i \\\\ -\\infty & j > i \\end{cases} = ${x.a}`,
  weights: (x) => `w_{ij} = \\frac{e^{m_{ij}}}{\\sum_{j' \\le i} e^{m_{ij'}}} = ${x.w}`,
  output: (x) => `o_i = \\sum_{j \\le i} w_{ij}\\, v_j,\\quad \\lVert o_i \\rVert = ${x.o}`,
};

const stages = {
  id: 'stages',
  title: { en: 'One head, stage by stage', zh: '一个头，逐阶段' },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    v.map = heatmapFigure(c, { kind: 'diverging', className: 'md-stage' });
    v.map.wrap.dataset.figure = 'main';
    v.formula = h('div', { class: 'formula md-formula' });
    v.cell = h('p', { class: 'hint md-cell-line' });
    v.stage = selectInput(
      c.s('stage'),
      STAGES.map((st) => ({ value: st, label: c.s(`stage.${st}`) })),
      (x) => c.set({ mdStage: x }),
    );
    v.pick = headPickers(c, v);
    return [v.note, v.map.wrap, v.cell, v.formula, h('p', { class: 'explain', text: c.s('stages.about') })];
  },
  controls: (c, v) => [v.pick, v.stage.wrap],
  draw(c, data, v) {
    const ready = noteOf(c, v, data);
    busy(v.map.wrap, !ready || data.run.stale);
    until(ready, v.map.wrap);
    if (!ready) return;
    syncPickers(c, v, data);
    const stage = c.state.mdStage;
    v.stage.sync(stage);
    const st = data.run.result.stages;
    const labels = labelsOf(data);
    const m = st[stage];
    const dh = data.loaded.config.nEmbd / data.loaded.config.nHead;
    const title = c.s('stageTitle', { stage: c.s(`stage.${stage}`), name: headName(c, data.head) });
    setText(v.map.title, title);
    const i = data.pos;
    // the cell the formula reads: the row read, its most weighted token
    const n = st.weights.cols;
    let j = 0;
    for (let t = 1; t <= i; t++) if (st.weights.data[i * n + t] > st.weights.data[i * n + j]) j = t;
    v.map.hm.update({
      matrix: m,
      rowLabels: labels,
      colLabels: stage === 'output' ? dims(m.cols) : labels,
      domain: stage === 'weights' ? [0, 1] : undefined,
      caption: title,
      selected: stage === 'output' ? { row: i, col: null } : { row: i, col: j },
    });
    const norm = Math.hypot(...st.output.data.subarray(i * st.output.cols, (i + 1) * st.output.cols));
    const x = {
      s: fmt(st.scores.data[i * n + j], 3),
      a: fmt(st.scaled.data[i * n + j], 3),
      w: fmt(st.weights.data[i * n + j], 3),
      o: fmt(norm, 3),
      dh,
    };
    renderFormula(v.formula, TEX[stage](x));
    setText(v.cell, c.s('stages.cell', { i, j, ti: labels[i], tj: labels[j] }));
  },
};

// ---- 4. what kind of head is it ------------------------------------------------------------------------

const types = {
  id: 'types',
  title: { en: 'Kinds of head', zh: '头的类型' },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    v.reveal = h('div', { class: 'md-types-reveal', hidden: true });
    v.maps = {};
    v.figure = h('div', { class: 'md-types', 'data-figure': 'main', 'aria-busy': 'true' });
    for (const k of SCORE_KINDS) {
      v.maps[k] = heatmapFigure(c, { kind: 'sequential', className: `md-score md-score-${k}` });
      (k === 'induction' ? v.reveal : v.figure).append(v.maps[k].wrap);
    }
    v.figure.append(v.reveal);
    v.predictBox = h('div', { class: 'md-predict-box' });
    v.test = heatmapFigure(c, { kind: 'sequential', className: 'md-test' });
    v.testLine = h('p', { class: 'hint md-test-line' });
    v.reveal.append(v.test.wrap, v.testLine);
    const about = SCORE_KINDS.map((k) => h('p', { class: 'explain', text: c.s(`types.${k}`) }));
    return [v.note, v.figure, ...about];
  },
  controls(c, v) {
    // the random tokens of the scores: another draw gives other tokens (the engine's seed)
    v.seed = intInput(c.s('scoreSeed'), {
      min: 0,
      max: MAX_SEED,
      onValue: (x) => c.set({ seed: x }),
      error: (min, max) => c.s('errInt', { min, max }),
    });
    return [v.seed.wrap, v.predictBox];
  },
  compute(c, data) {
    if (!data.loaded) return data;
    const refused = data.s.errorOf('scores');
    if (refused) throw refused;
    const scores = data.s.headScores(c.state.seed);
    if (!scores) return { ...data, scores: null };
    // the induction test: the scores' own random tokens said twice, read by the head that scores highest
    const testIds = [...scores.tokens, ...scores.tokens];
    const best = argmaxHead(scores.induction);
    const test = data.s.run({ ids: testIds, head: best, topK: 1 }, 'test');
    return { ...data, scores, testIds, best, test };
  },
  draw(c, data, v) {
    v.seed.sync(c.state.seed);
    const text = !data.loaded ? waiting(c, data) : data.scores ? '' : c.s('wait.scores');
    setText(v.note, text);
    v.note.hidden = !text;
    busy(v.figure, !!text);
    until(!text, v.figure);
    if (text) return;
    const { nLayer, nHead } = data.loaded.config;
    const layers = Array.from({ length: nLayer }, (_, l) => c.s('layerShort', { l }));
    const headsL = Array.from({ length: nHead }, (_, hh) => c.s('headShort', { h: hh }));
    for (const k of SCORE_KINDS) {
      const title = c.s(`score.${k}`);
      setText(v.maps[k].title, title);
      v.maps[k].hm.update({
        matrix: data.scores[k],
        rowLabels: layers,
        colLabels: headsL,
        domain: [0, 1],
        caption: title,
        digits: 2,
      });
    }
    // the question's options are the model's layers: made again for a model of another depth
    if (v.predictLayers !== nLayer) {
      v.predictLayers = nLayer;
      v.predict = createPredict(c, {
        id: 'model/induction-layer',
        question: c.s('q.layer'),
        options: layers.map((label, l) => ({ value: String(l), label })),
        reveal: v.reveal,
      });
      v.predictBox.replaceChildren(v.predict.el);
    }
    const layer = bestLayer(data.scores.induction);
    const top = Math.max(...data.scores.induction.data);
    const said = c.s(top >= FORMED ? 'a.layer' : 'a.layerNone', { l: layer, score: fmt(top, 2) });
    v.predict.draw(String(layer), { right: said, wrong: said });
    if (data.test && !data.test.stale) {
      const labels = tokenLabels(data.loaded.tokenizer, data.testIds).map((t, i) => `${i} ${t}`);
      const [l, hh] = data.best;
      const title = c.s('testTitle', { name: headName(c, data.best) });
      setText(v.test.title, title);
      v.test.hm.update({
        matrix: data.test.result.attention[l][hh],
        rowLabels: labels,
        colLabels: labels,
        domain: [0, 1],
        caption: title,
      });
      setText(
        v.testLine,
        c.s(data.scores.induction.data[l * nHead + hh] >= FORMED ? 'testLine' : 'testLineNone', {
          n: data.testIds.length / 2,
          score: fmt(data.scores.induction.data[l * nHead + hh], 2),
        }),
      );
    }
  },
};

// ---- 5. ablate and see ---------------------------------------------------------------------------------

function measureEveryHead(c, data) {
  const refused = data.s.errorOf('heads');
  if (refused) throw refused;
  const total = data.loaded.config.nLayer * data.loaded.config.nHead;
  if (total <= AUTO_HEADS || c.ui.measureAll) data.s.eachHead(data.ids, TOP_K);
  const pass = data.s.heads;
  return pass && pass.key === JSON.stringify(data.ids) ? pass : null;
}

const ablate = {
  id: 'ablate',
  title: { en: 'Switch heads off', zh: '关掉一些头' },
  compute(c, data) {
    if (!data.run) return data;
    const pass = measureEveryHead(c, data);
    const ablated = data.ablate.length ? data.s.run({ ...data.request, ablate: data.ablate }, 'ablated') : null;
    return { ...data, pass, ablated };
  },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    // a click (or Enter) on a head switches it off or on again
    const title = h('h4', { class: 'map-title' });
    const wrap = h('div', { class: 'map md-effect', 'data-figure': 'main' }, title);
    const hm = createHeatmap(wrap, {
      kind: 'diverging',
      digits: 3,
      strings: heatmapStrings(c.lang),
      onSelect: ({ row, col }) => col !== null && c.set({ mdAblate: toggleHead(c.state.mdAblate, row, col) }),
    });
    v.grid = { wrap, title, hm };
    v.barsBox = h('div', { class: 'md-compare' });
    v.before = createBars(v.barsBox, { label: c.s('before') });
    v.after = createBars(v.barsBox, { label: c.s('after'), color: ORANGE });
    v.table = h('div', { class: 'md-compare-table' });
    v.progress = h('p', { class: 'hint md-pass', 'aria-live': 'polite' });
    v.measure = h('button', {
      type: 'button',
      class: 'btn md-measure',
      onclick: () => ((c.ui.measureAll = true), c.redraw()),
    });
    v.stop = button('btn md-stop', c.s('stop'), () => c.ui.session.stopHeads());
    v.clear = button('btn md-clear', c.s('clearAblate'), () => c.set({ mdAblate: [] }));
    v.reveal = h('p', { class: 'msg info md-reveal' });
    v.predict = createPredict(c, {
      id: 'model/matters',
      question: c.s('q.matters'),
      options: [
        { value: 'yes', label: c.s('a.yes') },
        { value: 'no', label: c.s('a.no') },
      ],
      reveal: v.reveal,
    });
    return [
      v.note,
      v.grid.wrap,
      v.predict.el,
      v.reveal,
      v.barsBox,
      v.table,
      h('p', { class: 'explain', text: c.s('ablate.about') }),
      h('p', { class: 'explain', text: c.s('ablate.about2') }),
    ];
  },
  controls: (c, v) => [
    h('p', { class: 'hint', text: c.s('ablate.click') }),
    h('div', { class: 'controls' }, v.clear, v.measure, v.stop),
    v.progress,
  ],
  draw(c, data, v) {
    const ready = noteOf(c, v, data);
    busy(v.grid.wrap, !ready || !data.pass || data.pass.running);
    until(ready, v.grid.wrap);
    if (!ready) return;
    const { nLayer, nHead } = data.loaded.config;
    const tok = data.loaded.tokenizer;
    const pass = data.pass;
    v.measure.hidden = !!pass;
    setText(v.measure, c.s('measure', { n: nLayer * nHead }));
    v.stop.hidden = !(pass && pass.running);
    v.clear.disabled = data.ablate.length === 0;
    setText(
      v.progress,
      pass ? c.s(pass.running ? 'pass.running' : 'pass.done', { done: pass.done, total: pass.total }) : '',
    );
    // the heads grid: each head's effect on the guess when it alone is off; ablated heads striped
    const layers = Array.from({ length: nLayer }, (_, l) => c.s('layerShort', { l }));
    const headsL = Array.from({ length: nHead }, (_, hh) => c.s('headShort', { h: hh }));
    const complete = pass && pass.done === pass.total;
    const eff = complete ? headEffects(data.run.result, pass.runs, data.pos) : null;
    const blocked = { rows: nLayer, cols: nHead, data: new Float32Array(nLayer * nHead).fill(1) };
    for (const [l, hh] of data.ablate) blocked.data[l * nHead + hh] = 0;
    const title = c.s('effectTitle', { tok: eff ? tokenLabel(tok, eff.guess.id) : '…' });
    setText(v.grid.title, title);
    v.grid.hm.update({
      matrix: eff ? eff.effect : { rows: nLayer, cols: nHead, data: new Float32Array(nLayer * nHead) },
      rowLabels: layers,
      colLabels: headsL,
      caption: title,
      blocked,
      digits: 3,
    });
    // before and after
    const after = data.ablated && !data.ablated.stale ? data.ablated.result : null;
    const rows = compareRows(data.run.result.topK, after ? after.topK : data.run.result.topK, data.pos, BARS);
    const labels = rows.map((r) => tokenLabel(tok, r.id));
    v.before.update({ values: rows.map((r) => r.before), labels, domain: [0, 1], digits: 3, caption: c.s('before') });
    v.after.update({
      values: rows.map((r) => (r.after === null ? 0 : r.after)),
      labels,
      domain: [0, 1],
      digits: 3,
      caption: data.ablate.length
        ? c.s('afterHeads', { heads: data.ablate.map((x) => headName(c, x)).join(', ') })
        : c.s('afterNone'),
    });
    v.table.replaceChildren(
      scrollTable(
        c.s('compareCaption'),
        ['', c.s('before'), c.s('after')],
        rows.map((r, k) => [labels[k], fmt(r.before, 4), r.after === null ? `< ${fmt(r.floor, 4)}` : fmt(r.after, 4)]),
      ),
    );
    // does the most striking head matter most?
    v.predict.el.hidden = v.reveal.hidden = !eff;
    if (eff) {
      const striking = argmaxHead(eff.peaks);
      const most = argmaxHead(eff.effect);
      const same = striking[0] === most[0] && striking[1] === most[1];
      const params = {
        striking: headName(c, striking),
        peak: fmt(eff.peaks.data[striking[0] * nHead + striking[1]], 2),
        drop: fmt(eff.effect.data[striking[0] * nHead + striking[1]], 3),
        most: headName(c, most),
        mostDrop: fmt(eff.effect.data[most[0] * nHead + most[1]], 3),
      };
      const said = c.s(same ? 'a.same' : 'a.notSame', params);
      v.predict.draw(same ? 'yes' : 'no', { right: said, wrong: said });
      setText(v.reveal, c.s('a.mattersWhy'));
    }
  },
};

// ---- 6. debug it like the debugging lesson -----------------------------------------------------------------

const debug = {
  id: 'debug',
  title: { en: 'Monitors', zh: '监测指标' },
  compute(c, data) {
    if (!data.run) return data;
    return { ...data, pass: measureEveryHead(c, data) };
  },
  build(c, v) {
    v.note = h('p', { class: 'msg info md-note' });
    v.figure = h('div', { class: 'md-entropy', 'data-figure': 'main' });
    v.title = h('h4', { class: 'map-title' });
    v.figure.append(v.title);
    v.bars = createBars(v.figure, { label: c.s('entropyTitle') });
    v.spread = heatmapFigure(c, { kind: 'sequential', className: 'md-spread' });
    v.pick = headPickers(c, v);
    v.line = h('p', { class: 'hint md-entropy-line' });
    return [
      v.note,
      v.figure,
      v.line,
      v.spread.wrap,
      h('p', { class: 'explain', text: c.s('debug.about') }),
      h('p', { class: 'explain', text: c.s('debug.about2') }),
    ];
  },
  controls: (c, v) => [v.pick],
  draw(c, data, v) {
    const ready = noteOf(c, v, data);
    busy(v.figure, !ready || data.run.stale);
    until(ready, v.figure);
    if (!ready) return;
    syncPickers(c, v, data);
    const { nLayer, nHead } = data.loaded.config;
    const [l, hh] = data.head;
    const { entropy, max } = rowEntropy(data.run.result.attention[l][hh]);
    const labels = labelsOf(data);
    const share = Array.from(entropy, (e, i) => (max[i] > 0 ? e / max[i] : 0));
    const title = c.s('entropyTitle', { name: headName(c, data.head) });
    setText(v.title, title);
    v.bars.update({ values: share.slice(1), labels: labels.slice(1), domain: [0, 1], digits: 2, caption: title });
    const mean = share.slice(1).reduce((a, b) => a + b, 0) / Math.max(1, share.length - 1);
    setText(v.line, c.s('entropyLine', { mean: fmt(mean, 2) }));
    const pass = data.pass;
    v.spread.wrap.hidden = !(pass && pass.done === pass.total);
    if (!v.spread.wrap.hidden) {
      const eff = headEffects(data.run.result, pass.runs, data.pos);
      const layers = Array.from({ length: nLayer }, (_, x) => c.s('layerShort', { l: x }));
      const headsL = Array.from({ length: nHead }, (_, x) => c.s('headShort', { h: x }));
      const t2 = c.s('spreadTitle');
      setText(v.spread.title, t2);
      v.spread.hm.update({ matrix: eff.spread, rowLabels: layers, colLabels: headsL, caption: t2, digits: 2 });
    }
  },
};

export const STEPS = [guess, heads, stages, types, ablate, debug];
