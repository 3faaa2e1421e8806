// The page's stylesheet made to work inside the <attention-lab> element's shadow root: :root and
// body become the element's own frame (:host, .lab), rem (the host page's root font size, which
// a course page may set to anything) becomes 16px, and the page's width breakpoints follow the
// element's width (a container query on .lab), not the window's.

export function shadowCss(css) {
  return css
    .replace(/:root\b/g, ':host')
    .replace(/(^|[\s,}])body(?=\s*[{,])/g, '$1.lab')
    .replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${+(Number(n) * 16).toFixed(3)}px`)
    .replace(/@media\s*\((max|min)-width:/g, '@container lab ($1-width:');
}
