// The page's colours, in one place: every figure and chapter takes its colours from here (the
// stylesheets have their own custom properties in ../styles/). Each colour reads on white at
// 4.5:1 or more unless it says otherwise.

// Ink and paper.
export const INK = '#1b1d23'; // text and the strongest lines of a figure
export const MUTED = '#4f5562'; // axes, ticks, quiet marks
export const GREY = '#6b7280'; // a reference drawn behind the data
export const FRAME = '#8a92a0'; // the outline of an empty frame (3:1, not text)
export const PAPER = '#ffffff'; // the background of a saved figure
export const BLACK = '#000'; // text on a light cell
export const WHITE = '#fff'; // text on a dark cell, halos
export const GRID = '#e3e6eb'; // the grid lines behind a plot

// Data.
export const WEIGHT = '#3b528b'; // attention weights (bars of one row): viridis' blue
export const BLUE = '#2451b3'; // the first series (scaled, the main run)
export const ORANGE = '#c2410c'; // the second series (the twin run, a marker line)
export const GREEN = '#15803d'; // a third series
export const RUST = '#b3460a'; // unscaled scores
export const AMBER = '#b45309'; // memory
export const BROWN = '#8a5a00'; // hard attention
export const NAN = '#b3003b'; // NaN written in a formula

// The segments of a stacked bar, [background, ink]: colour-blind-safe (Okabe–Ito, then two
// greys); every ink has at least 4.5:1 contrast on its background (WCAG 2, AA).
export const SEGMENT_COLORS = [
  ['#0072B2', WHITE],
  ['#E69F00', BLACK],
  ['#009E73', BLACK],
  ['#CC79A7', BLACK],
  ['#56B4E9', BLACK],
  ['#D55E00', BLACK],
  ['#F0E442', BLACK],
  ['#000000', WHITE],
  ['#999999', BLACK],
  ['#666666', WHITE],
];
