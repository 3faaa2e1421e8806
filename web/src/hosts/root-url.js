// Where the tutorial is served from (the folder of index.html, embed.html and sw.js), found from
// one of its own assets: dist/assets/ once built, web/src/ in development. Works from any path.

import fontsHref from '../katex-fonts.css?url';

export const FONTS_HREF = new URL(fontsHref, import.meta.url).href;
// A course site's bundler may inline that file as a data: URL (Vite does below 4 KB): then this
// module's own folder (the site's assets) stands for it.
export const LAB_ROOT = new URL('../', FONTS_HREF.startsWith('data:') ? import.meta.url : FONTS_HREF).href;
