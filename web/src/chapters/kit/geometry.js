// The geometry figure (views/geometry.js: q·k as arrows, projections and bars) in a chapter. The
// arrows live in a hash field of the chapter's own (lesson/geometry.js GEO_FIELD), so a link
// reproduces the picture; the engine call is made in the chapter's compute, the draw only lays
// out what it returned. A drag or an arrow key changes the field through c.set, at most once per
// animation frame (the view coalesces the moves).
//
//   meta:    state: { plArrows: GEO_FIELD }
//   build:   v.geo = buildGeometry(c, parent, 'plArrows', intro)  (parent: where the figure goes;
//            intro: its title and lead, set beside the plot)
//   compute: geometryData(c, 'plArrows') -> { arrows, scores, scaled, weights }   (engine.attend)
//   draw:    drawGeometry(c, v.geo, data, title)

import { createGeometry } from '../../views/geometry.js';
import { fmt } from '../../text/format.js';
import {
  GEO_AXES,
  GEO_BIG_STEP,
  GEO_LIMIT,
  GEO_STEP,
  GEO_TOKENS,
  arrowsOf,
  attendArrows,
  movedGrid,
} from '../../lesson/geometry.js';

export function buildGeometry(c, parent, field, intro = []) {
  const t = c.t;
  return createGeometry(parent, {
    intro,
    limit: GEO_LIMIT,
    step: GEO_STEP,
    bigStep: GEO_BIG_STEP,
    strings: {
      plot: t('geo.plot'),
      roledesc: t('geo.roledesc'),
      hint: t('geo.hint'),
      table: t('geo.table'),
      head: [t('geo.colKey'), t('geo.colScore'), t('geo.colScaled'), t('geo.colWeight')],
      query: (name) => t('geo.queryName', { name }),
      arrow: (p) => t(p.role === 'query' ? 'geo.arrowQuery' : p.proj ? 'geo.arrowKey' : 'geo.arrowKeyFlat', p),
    },
    onMove: (i, xy) => c.set({ [field]: movedGrid(arrowsOf(c.state[field]), i, xy) }),
  });
}

// The state's arrows through the engine.
export const geometryData = (c, field) => attendArrows(c.engine, arrowsOf(c.state[field]));

export function drawGeometry(c, view, geo, title) {
  const best = argmax(geo.weights);
  view.update({
    ...geo,
    tokens: GEO_TOKENS,
    axes: GEO_AXES[c.lang] ?? GEO_AXES.en,
    best,
    title,
    caption: geometryCaption(c, geo, best),
  });
}

const argmax = (xs) => xs.reduce((b, x, j) => (x > xs[b] ? j : b), 0);

// Which key the query attends to, and why: the engine's score is |q| times the key's projection
// |k| cos θ, so the key with the longest projection wins; the caption names its length and angle
// and, when there is one, a key that is longer, or closer in direction, and still loses.
export function geometryCaption(c, { arrows, scores, weights }, best) {
  const [q, ...keys] = arrows;
  const nq = Math.hypot(q[0], q[1]);
  const name = (j) => GEO_TOKENS[j + 1];
  if (nq === 0) return c.t('geo.zero', { w: fmt(weights[0], 2) });
  const len = keys.map((k) => Math.hypot(k[0], k[1]));
  const proj = scores.map((s) => s / nq);
  // The angle between q and k from the engine's q·k: cos θ = q·k / (|q| |k|).
  const deg = scores.map((s, j) =>
    len[j] > 0 ? (Math.acos(Math.max(-1, Math.min(1, s / (nq * len[j])))) * 180) / Math.PI : NaN,
  );
  const head = { q: GEO_TOKENS[0], k: name(best), w: fmt(weights[best], 2) };
  if (!(len[best] > 0)) return c.t('geo.bestFlat', { ...head, s: fmt(scores[best], 2) });
  const lead = c.t('geo.best', { ...head, p: fmt(proj[best], 2), len: fmt(len[best], 2), deg: fmt(deg[best], 0) });
  const others = keys.map((_, j) => j).filter((j) => j !== best && len[j] > 0);
  const longer = others.filter((j) => len[j] > len[best]).sort((a, b) => len[b] - len[a])[0];
  const closer = others.filter((j) => deg[j] < deg[best]).sort((a, b) => deg[a] - deg[b])[0];
  const about = (j) => ({ k: name(j), len: fmt(len[j], 2), deg: fmt(deg[j], 0), p: fmt(proj[j], 2) });
  const why =
    longer !== undefined
      ? c.t('geo.longer', about(longer))
      : closer !== undefined
        ? c.t('geo.closer', about(closer))
        : c.t('geo.both', { k: name(best) });
  return `${lead}${c.t('sentenceSep')}${why}`;
}
