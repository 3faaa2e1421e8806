// What the page needs of the start page before its module loads (./index.js): the course's
// start, unnumbered in the nav and the first entry of the path.

export default {
  id: 'start',
  home: true, // the course's start: unnumbered in the nav, the path's "Start page"
  title: { en: 'Start here', zh: '从这里开始' },
  state: {},
};
