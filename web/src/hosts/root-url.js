// Where the tutorial is served from (the folder of index.html, embed.html and sw.js), found from
// one of its own assets: dist/assets/ once built, web/src/ in development. Works from any path.

import fontsHref from '../katex-fonts.css?url';

export const FONTS_HREF = new URL(fontsHref, import.meta.url).href;
export const LAB_ROOT = new URL('../', FONTS_HREF).href;
