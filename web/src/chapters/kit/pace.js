// How fast a training chapter trains, and the step axis its curves are drawn on. Pure: no DOM, no
// worker; the training kit (./training.js) runs the schedule, the chapters' meta.js take SPEEDS
// for their speed field, and tests/js/training-pace.test.js checks it.
//
// A speed is a schedule of steps per second that depends only on the step reached: the first
// steps, where most of the learning happens, go slowly, and the pace grows with the run, so a
// plateau hundreds of steps long does not take minutes. At 'slow' (the default)
//   steps per second at step s = (s + PACE_START) / PACE_SECONDS,
// so step s is reached PACE_SECONDS · ln(1 + s / PACE_START) seconds after step 0: step 80 after
// 16.5 s, step 500 after 50 s, and the steps 510 to 650 of the induction task's phase change take
// 5.8 s. 'medium' is four times that; 'fast' has no schedule (the worker trains as fast as it can,
// as the page did before it had speeds). The pace never changes a number: every run trains in the
// same chunks of steps from the same seed, so a link replays the same run at any speed.

export const SPEEDS = ['slow', 'medium', 'fast'];
export const DEFAULT_SPEED = 'slow';
const PACE_START = 100; // steps
const PACE_SECONDS = 28;
const FACTOR = { slow: 1, medium: 4 };

// Steps per second at `step` at this speed (Infinity: as fast as the worker goes).
export function stepsPerSecond(speed, step) {
  return speed in FACTOR ? (FACTOR[speed] * (step + PACE_START)) / PACE_SECONDS : Infinity;
}

// The schedule's seconds from step `from` to step `to` (0 at 'fast').
export function secondsBetween(speed, from, to) {
  if (!(speed in FACTOR)) return 0;
  return (PACE_SECONDS / FACTOR[speed]) * Math.log((to + PACE_START) / (from + PACE_START));
}

// The budget of steps after one animation frame of `seconds` from `budget`: the schedule's step
// that many seconds on (a frame longer than MAX_FRAME, a tab in the background, counts as
// MAX_FRAME, so the run never jumps ahead).
export const MAX_FRAME = 0.1; // seconds
export function advance(speed, budget, seconds) {
  if (!(speed in FACTOR)) return Infinity;
  const dt = Math.min(Math.max(seconds, 0), MAX_FRAME);
  return (budget + PACE_START) * Math.exp((FACTOR[speed] * dt) / PACE_SECONDS) - PACE_START;
}

// The end of the step axis for a run at `step`: a fixed horizon (100, 200, 500, 1,000, 2,000 …)
// that grows by one notch when the run passes it, so the axis stands still for most of the run,
// and the early steps keep at least 40 % of its width until the run is 2.5 times longer.
const FIRST_HORIZON = 100;
export function horizon(step) {
  let h = FIRST_HORIZON;
  for (let k = 0; h < step; k++) h *= [2, 2.5, 2][k % 3];
  return h;
}
