// Chapter 1: why attention. The fixed-vector bottleneck of encoder–decoder RNNs, attention as
// a soft lookup (Query asks, Key labels, Value holds the content), self vs cross attention,
// and a short timeline. The live parts run engine.attend on the shared presets' vectors.

import { seq2seqLink } from '../seq2seq/meta.js';
import { PRESETS, toMatrix, rowOf } from '../../lesson/example.js';
import { button, h } from '../../views/dom.js';
import { createBars } from '../../views/bars.js';
import { createHeatmap } from '../../views/heatmap.js';
import { dataTable } from '../../views/table.js';
import { fmt } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import strings from './strings.js';
import meta from './meta.js';
import { BROWN, WEIGHT } from '../../views/palette.js';

export default {
  ...meta,
  strings,
  steps: [
    {
      id: 'bottleneck',
      title: { en: 'The bottleneck', zh: '瓶颈' },
      build: buildBottleneck,
      controls: (c, v) => h('div', { class: 'controls' }, v.view.el, v.target.el),
      draw: drawBottleneck,
    },
    {
      id: 'lookup',
      title: { en: 'A soft lookup', zh: '软查找' },
      build: buildLookup,
      controls: (c, v) => v.pick,
      draw: drawLookup,
    },
    {
      id: 'self-cross',
      title: { en: 'Self and cross', zh: '自注意力与交叉注意力' },
      build: buildSelfCross,
      draw: drawSelfCross,
    },
    { id: 'timeline', title: { en: 'Timeline', zh: '发展脉络' }, build: buildTimeline },
  ],
};

// engine.attend on a preset's own vectors (scaled dot product, no mask).
function attendPreset(engine, id) {
  const p = PRESETS[id];
  const nq = p.queryTokens.length,
    nk = p.keyTokens.length;
  return engine.attend({
    query: toMatrix(p.Q, nq, p.dk),
    key: toMatrix(p.K, nk, p.dk),
    value: toMatrix(p.V, nk, p.dk),
  });
}

// A group of toggle buttons (aria-pressed), one per option.
function toggleGroup(labelText, options, onPick) {
  const buttons = options.map((o) => button('btn toggle', o.label, () => onPick(o.value), { 'aria-pressed': 'false' }));
  const el = h(
    'div',
    { class: 'toggle-group', role: 'group', 'aria-label': labelText },
    h('span', { class: 'field-label', text: labelText }),
    ...buttons,
  );
  return {
    el,
    sync(value) {
      buttons.forEach((b, k) => b.setAttribute('aria-pressed', String(options[k].value === value)));
    },
  };
}

// ---- 1. the bottleneck -----------------------------------------------------------------------

function buildBottleneck(c, v) {
  const { s } = c;
  const p = PRESETS['cat-fish'];
  v.view = toggleGroup(
    s('view'),
    [
      { value: false, label: s('without') },
      { value: true, label: s('with') },
    ],
    (on) => c.set({ whyAttn: on }),
  );
  v.target = toggleGroup(
    s('target'),
    p.queryTokens.map((t, k) => ({ value: k, label: t })),
    (k) => c.set({ whyTarget: k }),
  );
  v.svgBox = h('div', { class: 'why-diagram' });
  v.caption = h('p', { class: 'hint' });
  return [
    h('p', { class: 'explain', text: s('p.bottleneck1') }),
    h('p', { class: 'explain', text: s('p.bottleneck2') }),
    h('p', { class: 'explain', text: s('p.bottleneck3') }),
    h('figure', { class: 'why-figure' }, v.svgBox, h('figcaption', {}, v.caption)),
    h(
      'p',
      { class: 'explain why-train' },
      s('p.trainIt'),
      ' ',
      button('btn why-seq2seq', s('trainIt'), () => c.set(seq2seqLink('copy'))),
    ),
  ];
}

function drawBottleneck(c, data, v) {
  const { state, s } = c;
  const p = PRESETS['cat-fish'];
  v.view.sync(state.whyAttn);
  v.target.el.hidden = !state.whyAttn;
  v.target.sync(state.whyTarget);
  const t = p.queryTokens[state.whyTarget];
  if (!state.whyAttn) {
    v.svgBox.replaceChildren(diagram(p, null, 0, s));
    v.svgBox.firstChild.setAttribute('aria-label', s('diagramWithout'));
    v.caption.textContent = s('captionWithout');
    return;
  }
  const r = attendPreset(c.engine, 'cat-fish');
  const w = rowOf(r.weights, state.whyTarget);
  v.svgBox.replaceChildren(diagram(p, w, state.whyTarget, s));
  const list = w.map((x, j) => `${p.keyTokens[j]} ${fmt(x, 2)}`).join(', ');
  v.svgBox.firstChild.setAttribute('aria-label', s('diagramWith', { t, list }));
  v.caption.textContent = s('captionWith', { t });
}

// The encoder–decoder diagram as SVG. weights = null: the fixed-vector version.
function diagram(p, weights, target, s) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  const W = 350,
    H = 250;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.classList.add('why-svg');
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  const defs = add('defs', {});
  const marker = document.createElementNS(NS, 'marker');
  for (const [k, v] of Object.entries({
    id: 'why-arrow',
    viewBox: '0 0 10 10',
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  }))
    marker.setAttribute(k, v);
  const tip = document.createElementNS(NS, 'path');
  tip.setAttribute('d', 'M0,0 L10,5 L0,10 z');
  tip.setAttribute('class', 'why-arrowhead');
  marker.append(tip);
  defs.append(marker);

  const bw = 64,
    bh = 34;
  const enc = p.keyTokens.map((_, j) => ({ x: 14 + j * 84, y: 190 }));
  const decX0 = weights ? 66 : 104;
  const dec = p.queryTokens.map((_, i) => ({ x: decX0 + i * 84, y: 28 }));
  const arrow = (x1, y1, x2, y2, cls, width = 1.5) =>
    add('line', { x1, y1, x2, y2, class: cls, 'stroke-width': width, 'marker-end': 'url(#why-arrow)' });

  add('text', { x: 6, y: enc[0].y - 10, class: 'why-side' }, s('encoder'));
  add('text', { x: 6, y: dec[0].y - 10, class: 'why-side' }, s('decoder'));
  // Recurrent links along each row.
  for (let j = 0; j + 1 < enc.length; j++)
    arrow(enc[j].x + bw, enc[j].y + bh / 2, enc[j + 1].x - 2, enc[j + 1].y + bh / 2, 'why-link');
  for (let i = 0; i + 1 < dec.length; i++)
    arrow(dec[i].x + bw, dec[i].y + bh / 2, dec[i + 1].x - 2, dec[i + 1].y + bh / 2, 'why-link');

  if (!weights) {
    // Everything funnels through c.
    const c = { x: 40, y: 112 };
    const last = enc[enc.length - 1];
    add('path', {
      d: `M${last.x + bw / 2},${last.y} C${last.x + bw / 2},${c.y + 60} ${c.x + 80},${c.y + 20} ${c.x + 44},${c.y + 17}`,
      class: 'why-link',
      fill: 'none',
      'stroke-width': 1.5,
      'marker-end': 'url(#why-arrow)',
    });
    add('rect', { x: c.x, y: c.y, width: 44, height: 34, rx: 17, class: 'why-context' });
    add('text', { x: c.x + 22, y: c.y + 22, class: 'why-ctext', 'text-anchor': 'middle' }, s('context'));
    add('path', {
      d: `M${c.x + 22},${c.y} C${c.x + 22},${c.y - 30} ${dec[0].x - 30},${dec[0].y + bh + 20} ${dec[0].x + 4},${dec[0].y + bh + 2}`,
      class: 'why-link',
      fill: 'none',
      'stroke-width': 1.5,
      'marker-end': 'url(#why-arrow)',
    });
  } else {
    // One line per encoder state into the decoder word being written; width from the weight.
    const d = dec[target];
    weights.forEach((w, j) => {
      const e = enc[j];
      add('line', {
        x1: e.x + bw / 2,
        y1: e.y,
        x2: d.x + bw / 2,
        y2: d.y + bh,
        class: 'why-attn',
        'stroke-width': (0.5 + 9 * w).toFixed(2),
      });
      const mx = (e.x + bw / 2) * 0.6 + (d.x + bw / 2) * 0.4,
        my = e.y * 0.6 + (d.y + bh) * 0.4;
      add('text', { x: mx + 4, y: my, class: 'why-wlabel' }, fmt(w, 2));
    });
  }
  enc.forEach((e, j) => {
    add('rect', { x: e.x, y: e.y, width: bw, height: bh, rx: 6, class: 'why-enc' });
    add('text', { x: e.x + bw / 2, y: e.y + 22, 'text-anchor': 'middle', class: 'why-tok' }, p.keyTokens[j]);
  });
  dec.forEach((d, i) => {
    add('rect', {
      x: d.x,
      y: d.y,
      width: bw,
      height: bh,
      rx: 6,
      class: weights && i === target ? 'why-dec why-cur' : 'why-dec',
    });
    add('text', { x: d.x + bw / 2, y: d.y + 22, 'text-anchor': 'middle', class: 'why-tok' }, p.queryTokens[i]);
  });
  return svg;
}

// ---- 2. the soft lookup ----------------------------------------------------------------------

function buildLookup(c, v) {
  const { s, lang } = c;
  const p = PRESETS['cat-chase'];
  const notes = p.queryNotes[lang];
  const pick = h('div', { class: 'radio-list', role: 'radiogroup', 'aria-label': s('question') });
  v.radios = p.queryTokens.map((tok, i) => {
    const input = h('input', {
      type: 'radio',
      name: 'why-query',
      value: String(i),
      onchange: () => c.set({ whyQuery: i }),
    });
    pick.append(h('label', { class: 'check' }, input, h('span', { text: s('qAsk', { tok, note: notes[i] }) })));
    return input;
  });
  v.pick = h('fieldset', { class: 'why-pick' }, h('legend', { text: s('question') }), pick);
  v.softTitle = h('h4', { class: 'map-title' });
  const softBox = h('div', {}, v.softTitle);
  const hardBox = h('div', {}, h('h4', { class: 'map-title', text: s('hardBars') }));
  v.soft = createBars(softBox, { color: WEIGHT });
  v.hard = createBars(hardBox, { color: BROWN });
  v.note = h('p', { class: 'note', 'aria-live': 'polite' });
  v.out = h('div', { class: 'why-output' });
  // What the learner reasons from before guessing: the question's vector beside the Keys' (the
  // weights, which answer the question, wait in the reveal).
  v.vectors = heatmapFigure(c, { kind: 'diverging', digits: 1, className: 'why-vectors' });
  v.vectors.wrap.dataset.figure = 'main';
  // The engine's weights stay hidden until the learner has guessed which word wins.
  v.reveal = h(
    'div',
    { class: 'why-reveal' },
    h('div', { class: 'why-bars' }, softBox, hardBox),
    v.note,
    v.out,
    h('p', { class: 'hint', text: s('hardNote') }),
  );
  v.predict = createPredict(c, {
    id: 'why/lookup',
    question: '',
    reveal: v.reveal,
    options: p.keyTokens.map((tok, j) => ({ value: String(j), label: tok })),
  });
  return [
    h('p', { class: 'explain', text: s('p.shelf') }),
    h('p', { class: 'explain', text: s('p.soft') }),
    h('p', { class: 'explain', text: s('p.exam') }),
    h('h4', { class: 'map-title', text: s('tryIt') }),
    h('p', { class: 'explain', text: s('tryIntro') }),
    v.vectors.wrap,
    v.predict.el,
    v.reveal,
  ];
}

function drawLookup(c, data, v) {
  const { state, engine, s, lang } = c;
  const p = PRESETS['cat-chase'];
  const i = state.whyQuery;
  v.radios.forEach((r, k) => {
    r.checked = k === i;
  });
  const r = attendPreset(engine, 'cat-chase');
  const w = rowOf(r.weights, i);
  const tok = p.queryTokens[i];
  drawFigure(v.vectors, {
    title: s('vecMap', { tok }),
    matrix: toMatrix([p.Q[i], ...p.K], 1 + p.keyTokens.length, p.dk),
    rowLabels: [`q ${tok}`, ...p.keyTokens.map((k) => `k ${k}`)],
    colLabels: p.features[lang],
    domain: [-3, 3],
  });
  v.softTitle.textContent = s('softBars', { note: p.queryNotes[lang][i] });
  v.soft.update({ values: w, labels: p.keyTokens, domain: [0, 1], caption: v.softTitle.textContent, digits: 3 });
  // Hard lookup: the engine's one-hot at the argmax of this query's scaled scores.
  const oneHot = engine.hardAttention({ scores: [rowOf(r.scaled, i)] });
  v.hard.update({ values: rowOf(oneHot, 0), labels: p.keyTokens, domain: [0, 1], caption: s('hardBars'), digits: 0 });
  const best = w.indexOf(Math.max(...w));
  v.note.textContent = s('landsOn', { k: p.keyTokens[best], w: fmt(w[best], 3) });
  const params = { tok: p.queryTokens[i], note: p.queryNotes[lang][i], k: p.keyTokens[best], w: fmt(w[best], 3) };
  v.predict.ask(s('predict.q', params));
  v.predict.draw(String(best), { right: s('predict.right', params), wrong: s('predict.wrong', params) });
  const feats = p.features[lang];
  v.out.replaceChildren(
    dataTable({
      caption: `${s('outputIs')} = Σ w · V`,
      head: ['', ...feats],
      rows: [[s('outputIs'), ...rowOf(r.output, i).map((x) => fmt(x, 3))]],
    }),
  );
}

// ---- 3. self vs cross ------------------------------------------------------------------------

function buildSelfCross(c, v) {
  const { s, lang } = c;
  v.pCross = h('p', { class: 'explain' });
  v.pSelf = h('p', { class: 'explain' });
  const maps = h('div', { class: 'maps' });
  const mk = (title) => {
    const wrap = h('div', { class: 'map' }, h('h4', { class: 'map-title', text: title }));
    maps.append(wrap);
    return createHeatmap(wrap, { kind: 'sequential', strings: heatmapStrings(lang) });
  };
  v.crossMap = mk(s('crossMap'));
  v.selfMap = mk(s('selfMap'));
  return [v.pCross, v.pSelf, h('p', { class: 'explain', text: s('p.both') }), maps];
}

function drawSelfCross(c, data, v) {
  const { s } = c;
  const pCross = PRESETS['cat-fish'],
    pSelf = PRESETS['cat-chase'];
  const cross = attendPreset(c.engine, 'cat-fish');
  const self = attendPreset(c.engine, 'cat-chase');
  v.pCross.textContent = s('p.cross', { shape: `${cross.weights.rows}\u00a0×\u00a0${cross.weights.cols}` });
  v.pSelf.textContent = s('p.self', { shape: `${self.weights.rows}\u00a0×\u00a0${self.weights.cols}` });
  v.crossMap.update({
    matrix: cross.weights,
    rowLabels: pCross.queryTokens,
    colLabels: pCross.keyTokens,
    domain: [0, 1],
    caption: s('crossMap'),
  });
  v.selfMap.update({
    matrix: self.weights,
    rowLabels: pSelf.queryTokens,
    colLabels: pSelf.keyTokens,
    domain: [0, 1],
    caption: s('selfMap'),
  });
}

// ---- 4. timeline -----------------------------------------------------------------------------

function buildTimeline(c) {
  const { s } = c;
  const items = [1, 2, 3, 4, 5, 6].map((k) =>
    h(
      'li',
      { class: 'tl-item' },
      h('span', { class: 'tl-when', text: s(`t${k}.when`) }),
      h(
        'div',
        { class: 'tl-card' },
        h('h4', { class: 'tl-what', text: s(`t${k}.what`) }),
        h('p', { text: s(`t${k}.body`) }),
      ),
    ),
  );
  return [
    h('p', { class: 'explain', text: s('p.timeline') }),
    h('ol', { class: 'timeline', 'data-figure': 'main' }, ...items),
  ];
}
