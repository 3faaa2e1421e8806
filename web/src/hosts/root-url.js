// Where the tutorial is served from (the folder of index.html, embed.html and sw.js), found from
// one of its own assets: dist/assets/ once built, web/src/ in development. Works from any path.

import fontsHref from '../katex-fonts.css?url';

export const FONTS_HREF = new URL(fontsHref, import.meta.url).href;
// A course site's bundler may inline that file as a data: URL (Vite does below 4 KB): then this
// module's own folder (the site's assets) stands for it, and where the module has none either
// (the notebook widget, loaded from a blob: URL) the page's.
function labRoot() {
  for (const base of [FONTS_HREF, import.meta.url, globalThis.document?.baseURI])
    if (base && /^(https?|file):/.test(base)) return new URL('../', base).href;
  return '';
}
export const LAB_ROOT = labRoot();
