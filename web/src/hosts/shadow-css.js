// The page's stylesheet made to work inside the <attention-lab> element's shadow root: :root and
// body become the element's own frame (:host, .lab), rem (the host page's root font size, which
// a course page may set to anything) becomes 16px, and the page's width breakpoints follow the
// element's width (a container query on .lab), not the window's.
//
// Custom properties inherit into a shadow root and all: initial does not reset them, so the
// page's own (a course page's --ink, --paper or --font) would restyle the element. The theme's
// properties (those :root declares) are renamed --al-… and declared on .lab as well as :host:
// the host page's CSS reaches the host element, never .lab, so nothing it sets, --al-… included,
// changes the element. There is no theming API.

export const PREFIX = '--al-';

export function shadowCss(css) {
  const own = new Set();
  for (const block of css.matchAll(/:root\s*\{([^}]*)\}/g))
    for (const m of block[1].matchAll(/(--[A-Za-z0-9_-]+)\s*:/g)) own.add(m[1]);
  const rename = (text) => text.replace(/--[A-Za-z0-9_-]+/g, (name) => (own.has(name) ? PREFIX + name.slice(2) : name));
  return rename(css)
    .replace(/:root(\s*\{)/g, ':host, .lab$1')
    .replace(/:root\b/g, ':host')
    .replace(/(^|[\s,}])body(?=\s*[{,])/g, '$1.lab')
    .replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${+(Number(n) * 16).toFixed(3)}px`)
    .replace(/@media\s*\((max|min)-width:/g, '@container lab ($1-width:');
}
