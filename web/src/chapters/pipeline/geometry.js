// The scores step's second figure: q·k as geometry (chapters/kit/geometry.js), the query of 猫 and
// the four keys of the running example in two of their features, as arrows the learner drags.
// Its engine call is the step's compute (scoresGeometry); the draw lays out what it returned.

import { h } from '../../views/dom.js';
import { buildGeometry, drawGeometry, geometryData } from '../kit/geometry.js';

export function buildScoreGeometry(c, v) {
  const box = h('div', { class: 'pl-geometry' });
  v.geo = buildGeometry(c, box, 'plArrows', [
    h('h4', { class: 'geo-title', text: c.s('geoTitle') }),
    h('p', { class: 'geo-lead', text: c.s('geoLead') }),
  ]);
  return box;
}

// The step's data with the figure's arrows through the engine.
export const scoresGeometry = (c, data) => ({ ...data, geo: geometryData(c, 'plArrows') });

export const drawScoreGeometry = (c, v, data) => drawGeometry(c, v.geo, data.geo, c.s('geoTitle'));
