// What the page needs of the start page before its module loads (./index.js): the course's
// start, unnumbered in the nav and the first entry of the path, and where its figure's arrows live.

import { GEO_FIELD } from '../../lesson/geometry.js';

export default {
  id: 'start',
  home: true, // the course's start: unnumbered in the nav, the path's "Start page"
  title: { en: 'Start here', zh: '从这里开始' },
  state: {
    startArrows: GEO_FIELD, // the geometry figure's query and keys (rows q, k_1 … k_4); [] = the example
  },
};
