// Lesson 7: learned projections and multi-head attention. X -> Q, K, V through W_q, W_k, W_v
// (self or cross); d_model split into h heads; two heads built by hand that the learner can
// break; what too many heads do. Pure logic in multihead/logic.js; every number from the engine.

import { button, h, setText } from '../../views/dom.js';
import { fmt, fmtInt } from '../../text/format.js';
import { withinNoise } from '../../lesson/timing.js';
import {
  COST_N,
  DRAWN_D,
  MANY_D,
  MANY_N,
  ROLE_SLOTS,
  headCosts,
  headCounts,
  headsLayer,
  lookOf,
  manyHeads,
  projections,
  roleHeads,
} from './logic.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { intInput, selectInput, numberSelect } from '../../views/controls.js';
import { tokensField } from '../kit/fields.js';
import { scrollTable } from '../../views/table.js';
import { createPredict } from '../kit/predict.js';
import strings from './strings.js';
import meta, { MAX_TOKENS, MAX_D_MODEL } from './meta.js';
import practice, { layerCodeLink } from '../practice/meta.js';
import { learnedHeadsLink } from '../playground/meta.js';

const intError = (c) => (min, max) => c.s('errInt', { min, max });

// These heads are drawn or built, not learned: a line that opens the playground on heads a
// model learned (its induction run, replayed to the step where they have formed).
const learnedLine = (c) =>
  h(
    'p',
    { class: 'lab-explain mh-learned' },
    `${c.s('learned.about')} `,
    button('linklike mh-learned-link', c.s('learned.link'), () => c.set(learnedHeadsLink())),
  );

function figures(c, v, names, cls) {
  v.figs = v.figs || {};
  const box = h('div', { class: `maps mh-maps ${cls || ''}`.trim() });
  for (const [name, kind] of names) {
    v.figs[name] = heatmapFigure(c, { kind, className: `map-mh-${name}` });
    box.append(v.figs[name].wrap);
  }
  return box;
}

// ---- step 1: projections, self vs cross -----------------------------------------------------------

function buildProjections(c, v) {
  // the inputs lead (X, and Y in cross-attention); the projections and the weights follow
  const inputs = figures(c, v, [
    ['X', 'diverging'],
    ['Y', 'diverging'],
  ]);
  const made = figures(c, v, [
    ['Wq', 'diverging'],
    ['Wk', 'diverging'],
    ['Wv', 'diverging'],
    ['Q', 'diverging'],
    ['K', 'diverging'],
    ['V', 'diverging'],
    ['W', 'sequential'],
  ]);
  return [inputs, h('p', { class: 'about lab-explain', text: c.s('proj.about') }), made];
}

// Self or cross, d_model, and the tokens of the queries (and of the other sequence).
function projectionControls(c, v) {
  const { s } = c;
  v.mode = selectInput(
    s('mode'),
    [
      { value: 'self', label: s('mode.self') },
      { value: 'cross', label: s('mode.cross') },
    ],
    (x) => c.set({ mhMode: x }),
  );
  v.x = tokensField(c, s('tokensX'), 'mhTokens', MAX_TOKENS);
  v.y = tokensField(c, s('tokensY'), 'mhSource', MAX_TOKENS);
  v.d = intInput(s('dModel'), { min: 2, max: 16, onValue: (x) => c.set({ mhProjD: x }), error: intError(c) });
  return [h('div', { class: 'controls' }, v.mode.wrap, v.d.wrap), h('div', { class: 'controls' }, v.x.wrap, v.y.wrap)];
}

function drawProjections(c, p, v) {
  const { s, state } = c;
  v.mode.sync(state.mhMode);
  v.x.sync(state.mhTokens);
  v.y.sync(state.mhSource);
  v.y.wrap.hidden = !p.cross;
  v.d.sync(state.mhProjD);
  const xt = state.mhTokens;
  const yt = p.cross ? state.mhSource : xt;
  const dd = dims(p.d);
  const src = p.cross ? 'Y' : 'X';
  const f = v.figs;
  f.Y.wrap.hidden = !p.cross;
  drawFigure(f.X, { title: s('mapX', { n: xt.length, d: p.d }), matrix: p.X, rowLabels: xt, colLabels: dd });
  if (p.cross)
    drawFigure(f.Y, { title: s('mapY', { n: yt.length, d: p.d }), matrix: p.Y, rowLabels: yt, colLabels: dd });
  drawFigure(f.Wq, { title: s('mapWq', { d: p.d }), matrix: p.W.Wq, rowLabels: dd, colLabels: dd });
  drawFigure(f.Wk, { title: s('mapWk', { d: p.d }), matrix: p.W.Wk, rowLabels: dd, colLabels: dd });
  drawFigure(f.Wv, { title: s('mapWv', { d: p.d }), matrix: p.W.Wv, rowLabels: dd, colLabels: dd });
  drawFigure(f.Q, { title: s('mapQ'), matrix: p.Q, rowLabels: xt, colLabels: dd });
  drawFigure(f.K, { title: s('mapK', { src }), matrix: p.K, rowLabels: yt, colLabels: dd });
  drawFigure(f.V, { title: s('mapV', { src }), matrix: p.V, rowLabels: yt, colLabels: dd });
  drawFigure(f.W, {
    title: s('mapWeights', { nq: xt.length, nk: yt.length }),
    matrix: p.weights,
    rowLabels: xt,
    colLabels: yt,
    domain: [0, 1],
  });
}

// ---- step 2: heads ----------------------------------------------------------------------------------

function buildHeads(c, v) {
  const { s } = c;
  v.line = h('p', { class: 'lab-explain mh-line', 'aria-live': 'polite' });
  v.woNote = h('p', { class: 'hint mh-wo-note' });
  // head 1 leads (beside the controls); the other heads follow it
  v.first = h('div', { class: 'maps mh-maps mh-head-first' });
  v.heads = h('div', { class: 'maps mh-maps mh-heads' });
  v.headFigs = [];
  const rest = figures(c, v, [
    ['concat', 'diverging'],
    ['Wo', 'diverging'],
    ['out', 'diverging'],
  ]);
  v.cost = h('div', { class: 'mh-cost' });
  v.costVerdict = h('p', { class: 'lab-explain mh-cost-verdict' });
  v.codeLink = h(
    'p',
    { class: 'lab-explain' },
    button('linklike mh-code-link', s('goto.code'), () =>
      c.set(layerCodeLink({ tokens: c.state.mhTokens, d: c.state.mhD, heads: c.state.mhH })),
    ),
  );
  return [
    v.first,
    v.line,
    h('p', { class: 'about lab-explain', text: s('heads.about') }),
    v.heads,
    rest,
    v.woNote,
    learnedLine(c),
    v.cost,
    v.costVerdict,
    h('p', { class: 'lab-explain', text: s('costNote') }),
    v.codeLink,
  ];
}

// d_model and the number of heads (and the base-size preset).
function headControls(c, v) {
  const { s } = c;
  v.d = intInput(s('dModel'), { min: 1, max: MAX_D_MODEL, onValue: (x) => c.set({ mhD: x }), error: intError(c) });
  v.h = intInput(s('heads'), { min: 1, max: 64, onValue: (x) => c.set({ mhH: x }), error: intError(c) });
  v.preset = button('btn mh-preset-768', s('preset768'), () => c.set({ mhD: 768, mhH: 12 }));
  return h('div', { class: 'controls' }, v.d.wrap, v.h.wrap, v.preset);
}

function drawHeads(c, p, v) {
  const { s, state } = c;
  v.d.sync(state.mhD);
  v.h.sync(state.mhH);
  const tokens = p.tokens;
  const dd = dims(p.d);
  const f = v.figs;
  for (const fig of Object.values(f)) fig.wrap.hidden = !!p.error;
  v.first.hidden = !!p.error;
  v.heads.hidden = !!p.error;
  if (p.error) {
    setText(v.line, s('refusedLine', { msg: p.error }));
    v.line.classList.add('field-error');
  } else {
    v.line.classList.remove('field-error');
    setText(v.line, s('dkLine', { d: p.d, h: state.mhH, dk: p.d / state.mhH }));
    const shown = Math.min(p.result.heads.length, 16);
    while (v.headFigs.length < shown) {
      const fig = heatmapFigure(c, {
        kind: 'sequential',
        className: `map-mh-head map-mh-head-${v.headFigs.length + 1}`,
      });
      v.headFigs.push(fig);
      (v.headFigs.length === 1 ? v.first : v.heads).append(fig.wrap);
    }
    v.headFigs.forEach((fig, i) => {
      fig.wrap.hidden = i >= shown;
      if (i < shown)
        drawFigure(fig, {
          title: s('mapHead', { i: i + 1 }),
          matrix: p.result.heads[i].weights,
          rowLabels: tokens,
          colLabels: tokens,
          domain: [0, 1],
        });
    });
    drawFigure(f.concat, {
      title: s('mapConcat', { h: state.mhH, n: tokens.length, d: p.d }),
      matrix: p.result.concat,
      rowLabels: tokens,
      colLabels: dd,
    });
    f.Wo.wrap.hidden = p.d > DRAWN_D;
    if (p.d <= DRAWN_D)
      drawFigure(f.Wo, { title: s('mapWo', { d: p.d }), matrix: p.W.Wo, rowLabels: dd, colLabels: dd });
    drawFigure(f.out, { title: s('mapOut'), matrix: p.result.output, rowLabels: tokens, colLabels: dd });
  }
  v.woNote.hidden = p.d <= DRAWN_D;
  setText(v.woNote, s('woHidden', { d: p.d, cells: fmtInt(p.d * p.d), max: DRAWN_D }));
  v.codeLink.hidden = p.d > practice.state.prD.max; // the code lesson writes layers up to its own size
  const timed = p.d <= DRAWN_D;
  // measured once per d_model and seed; kept (c.kept) when the chapter is mounted again
  const key = `${p.d}/${state.seed}`;
  if (c.kept.costs?.key !== key) c.kept.costs = { key, rows: headCosts(c.engine, p.d, state.seed, timed) };
  const costs = c.kept.costs.rows;
  const time = (ms) => s('spread', { t: c.t('ms', { t: fmt(ms.median, 3) }), lo: fmt(ms.min, 3), hi: fmt(ms.max, 3) });
  const cols = timed ? ['col.h', 'col.dk', 'col.mul', 'col.time'] : ['col.h', 'col.dk', 'col.mul'];
  const noise = timed && costs.every((a) => costs.every((b) => withinNoise(a.ms, b.ms)));
  v.costVerdict.hidden = !timed;
  setText(v.costVerdict, s(noise ? 'costNoise' : 'costApart'));
  v.cost.replaceChildren(
    scrollTable(
      timed ? s('costCaption', { n: COST_N, d: p.d }) : s('costCountsOnly', { n: COST_N, d: p.d, max: DRAWN_D }),
      cols.map((k) => s(k)),
      costs.map((r) => [String(r.h), String(r.dk), fmtInt(r.mul), ...(timed ? [time(r.ms)] : [])]),
    ),
  );
}

// ---- step 3: heads built by hand -------------------------------------------------------------------

function buildRoles(c, v) {
  const { s } = c;
  v.reveal = h('div', { class: 'mh-reveal' });
  v.predict = createPredict(c, {
    id: 'multihead/head-1',
    question: '',
    options: ['prev', 'self', 'first', 'even', 'other'].map((k) => ({ value: k, label: s(`look.${k}`) })),
    reveal: v.reveal,
  });
  // Head 2 leads: the question is about head 1, whose map waits in the reveal.
  const other = figures(c, v, [['h2', 'sequential']]);
  v.figs.h2.wrap.dataset.figure = 'main';
  const maps = figures(c, v, [['h1', 'sequential']]);
  v.looks = h('div');
  v.note = h('p', { class: 'hint', text: s('firstNote') });
  v.reveal.append(maps, v.looks, v.note);
  return [
    other,
    h('p', { class: 'about lab-explain', text: s('roles.about') }),
    v.predict.el,
    v.reveal,
    learnedLine(c),
  ];
}

// The tokens, the heads' strength, and a switch per head that scrambles its W_q.
function roleControls(c, v) {
  const { s } = c;
  v.tokens = tokensField(c, s('tokensRole'), 'mhRoleTokens', ROLE_SLOTS);
  v.strength = intInput(s('strength'), {
    min: 0,
    max: 20,
    onValue: (x) => c.set({ mhStrength: x }),
    error: intError(c),
  });
  const check = (label, name) => {
    const box = h('input', { type: 'checkbox', onchange: (e) => c.set({ [name]: e.target.checked }) });
    return { box, wrap: h('label', { class: 'check' }, box, h('span', { text: label })) };
  };
  v.breakPrev = check(s('breakPrev'), 'mhBreakPrev');
  v.breakMatch = check(s('breakMatch'), 'mhBreakMatch');
  return [
    h('div', { class: 'controls' }, v.tokens.wrap, v.strength.wrap),
    h('div', { class: 'controls' }, v.breakPrev.wrap, v.breakMatch.wrap),
  ];
}

function drawRoles(c, p, v) {
  const { s, state } = c;
  v.tokens.sync(state.mhRoleTokens);
  v.strength.sync(state.mhStrength);
  v.breakPrev.box.checked = state.mhBreakPrev;
  v.breakMatch.box.checked = state.mhBreakMatch;
  const t = p.tokens;
  const i = Math.min(2, t.length - 1);
  const w1 = p.result.heads[0].weights;
  const look = lookOf(w1, i, t);
  const row = Array.from(w1.data.subarray(i * w1.cols, (i + 1) * w1.cols));
  const top = row.indexOf(Math.max(...row));
  v.predict.ask(s('roles.question', { t: t[i], p: i + 1 }));
  const answer = look === 'same' ? 'other' : look;
  const params = { w: fmt(row[top], 2), look: s(`look.${look}`), k: t[top] };
  const said = look === 'even' ? s('roles.even', params) : null;
  v.predict.draw(answer, { right: said || s('roles.right', params), wrong: said || s('roles.wrong', params) });
  drawFigure(v.figs.h1, { title: s('mapHead', { i: 1 }), matrix: w1, rowLabels: t, colLabels: t, domain: [0, 1] });
  drawFigure(v.figs.h2, {
    title: s('mapHead', { i: 2 }),
    matrix: p.result.heads[1].weights,
    rowLabels: t,
    colLabels: t,
    domain: [0, 1],
  });
  v.looks.replaceChildren(
    scrollTable(
      s('lookTable'),
      [s('col.token'), s('col.head1'), s('col.head2')],
      t.map((tok, k) => [
        `${k + 1}. ${tok}`,
        s(`look.${lookOf(w1, k, t)}`),
        s(`look.${lookOf(p.result.heads[1].weights, k, t)}`),
      ]),
      [1, 2],
    ),
  );
}

// ---- step 4: too many heads ----------------------------------------------------------------------------

function buildMany(c, v) {
  const { s } = c;
  v.table = h('div');
  const maps = figures(c, v, [['scaled', 'diverging']]);
  return [
    maps,
    h('p', { class: 'about lab-explain', text: s('many.about') }),
    v.table,
    h('p', { class: 'lab-explain', text: s('manyNote') }),
  ];
}

// The number of heads whose scores the heatmap shows.
function manyControls(c, v) {
  v.h = numberSelect(c.s('manyH'), headCounts(MANY_D), (x) => c.set({ mhManyH: x }));
  return v.h.wrap;
}

function drawMany(c, p, v) {
  const { s, state } = c;
  const hh = headCounts(MANY_D).includes(state.mhManyH) ? state.mhManyH : 8;
  v.h.sync(hh);
  v.table.replaceChildren(
    scrollTable(
      s('manyCaption'),
      ['col.h', 'col.dk', 'col.spread', 'col.winners', 'col.entropy'].map((k) => s(k)),
      p.rows.map((r) => [String(r.h), String(r.dk), fmt(r.spread, 2), fmt(r.winners, 2), fmt(r.entropy, 2)]),
    ),
  );
  const row = p.rows.find((r) => r.h === hh);
  const labels = Array.from({ length: MANY_N }, (_, k) => String(k + 1));
  drawFigure(v.figs.scaled, {
    title: s('mapScaled', { h: hh, dk: MANY_D / hh }),
    matrix: row.result.heads[0].scaled,
    rowLabels: labels,
    colLabels: labels,
  });
}

// ---- the chapter ------------------------------------------------------------------------------------------

const STEPS = [
  {
    id: 'projections',
    title: { en: 'Projections', zh: '投影' },
    build: buildProjections,
    controls: projectionControls,
    draw: drawProjections,
    compute: (c) => projections(c.engine, c.state),
  },
  {
    id: 'heads',
    title: { en: 'Heads', zh: '多个头' },
    build: buildHeads,
    controls: headControls,
    draw: drawHeads,
    compute: (c) => headsLayer(c.engine, c.state, c.data),
  },
  {
    id: 'roles',
    title: { en: 'What heads look at', zh: '各头看什么' },
    build: buildRoles,
    controls: roleControls,
    draw: drawRoles,
    compute: (c) => roleHeads(c.engine, c.state),
  },
  {
    id: 'many',
    title: { en: 'Too many heads', zh: '头太多时' },
    build: buildMany,
    controls: manyControls,
    draw: drawMany,
    compute: (c) => manyHeads(c.engine, c.state.seed),
  },
];

export default {
  ...meta,
  strings,
  steps: STEPS,
};
