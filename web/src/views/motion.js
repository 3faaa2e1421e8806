// Motion between two pictures of the same numbers: one tween at a time per figure, driven by
// requestAnimationFrame, eased, cancelled by the next change, and none at all under
// prefers-reduced-motion (the end is drawn at once). The tween only paces in-between pictures:
// what a view draws at t = 1 is its final state, drawn by the view's own code.
//
//   const run = tween(ms, (t) => draw(t), { el })   // t from about 0 to 1, eased; el gets data-motion
//   run.cancel()   // stops where it is (the caller draws what comes next)
//   run.running    // false once t = 1 was drawn or it was cancelled
//
// el's data-motion is "running" while the tween runs and "done" once it has drawn t = 1 (or was
// cancelled): tests and scripts wait on it.

export const MOTION_MS = 400; // one stage turning into the next
const MIN_FRAMES = 4; // t advances at most 1 / MIN_FRAMES per frame, so a slow frame still shows motion
const FRAME_MS = 1000 / 60; // the first frame shows the motion one frame in

export const reducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

// Slow in, slow out (cubic).
export const ease = (t) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

// Marks el's motion: 'running' | 'done' (written only when it changes).
export function markMotion(el, what) {
  if (el && el.dataset.motion !== what) el.dataset.motion = what;
}

const STILL = { cancel() {}, running: false };

// Calls onFrame(t) for t from about 0 to 1 (eased) over about ms, once per animation frame,
// starting with the next frame. Nothing is drawn in the change itself: the browser shows nothing
// before that frame's animation callbacks, so a picture drawn then would be drawn over unseen
// (and a canvas's texts would bring the page's style up to date in the middle of the change).
// Under prefers-reduced-motion (or with ms <= 0) only onFrame(1), synchronously.
// -> { cancel(), running }
export function tween(ms, onFrame, { el = null } = {}) {
  if (ms <= 0 || reducedMotion() || typeof requestAnimationFrame === 'undefined') {
    onFrame(1);
    markMotion(el, 'done');
    return STILL;
  }
  let start = null;
  let frames = 0;
  let id = 0;
  const run = {
    running: true,
    cancel() {
      if (!run.running) return;
      run.running = false;
      cancelAnimationFrame(id);
      markMotion(el, 'done');
    },
  };
  const frame = (now) => {
    if (!run.running) return;
    if (start === null) start = now - FRAME_MS;
    frames++;
    const t = Math.min(1, (now - start) / ms, frames / MIN_FRAMES);
    onFrame(t >= 1 ? 1 : ease(t));
    if (t >= 1) {
      run.running = false;
      markMotion(el, 'done');
    } else id = requestAnimationFrame(frame);
  };
  markMotion(el, 'running');
  id = requestAnimationFrame(frame);
  return run;
}
