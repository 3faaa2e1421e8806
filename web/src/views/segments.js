// How the segments of a stacked bar are told apart: a colour-blind-safe colour (Okabe–Ito,
// then two greys), the text colour that reads on it, and a fill pattern, so that no segment is
// known by its colour alone. Pure: no DOM (tests/js/segments.test.js checks the contrast).

// [background, ink]: every ink has at least 4.5:1 contrast on its background (WCAG 2, AA).
export const SEGMENT_COLORS = [
  ['#0072B2', '#fff'], ['#E69F00', '#000'], ['#009E73', '#000'], ['#CC79A7', '#000'], ['#56B4E9', '#000'],
  ['#D55E00', '#000'], ['#F0E442', '#000'], ['#000000', '#fff'], ['#999999', '#000'], ['#666666', '#fff'],
];

// One pattern per segment, drawn in the segment's ink colour over its background
// (stacked-bar.css: .seg-pattern-<name>). The first segment is plain.
export const SEGMENT_PATTERNS = ['solid', 'stripes', 'dots', 'rows', 'backslash', 'columns', 'grid', 'cross', 'rings', 'checks'];

// Segment k's { background, ink, pattern } (colours and patterns repeat after ten).
export function segmentStyle(k) {
  const [background, ink] = SEGMENT_COLORS[k % SEGMENT_COLORS.length];
  return { background, ink, pattern: SEGMENT_PATTERNS[k % SEGMENT_PATTERNS.length] };
}
