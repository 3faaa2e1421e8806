// The scaling lesson's settings: its colours and the sizes of its runs.

import { BLUE, INK, RUST } from '../../views/palette.js';

export const RAW_COLOR = RUST;
export const SCALED_COLOR = BLUE;
export const THEORY_COLOR = INK;
export const SWEEP_TRIALS = 400; // queries averaged per d_k in the sweep
export const SWEEP_SAMPLES = 10000; // pairs per d_k for the variance points
export const GUMBEL_ROWS = 8;
export const GROWTH_Y = [0.5, 2048]; // the growth step's variance axis, before and after the guess
