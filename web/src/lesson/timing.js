// Timing engine calls against each other on the page (the score-functions and multi-head chapters).

// Milliseconds per call of each function of fns ({ name: fn }), measured side by side: rounds
// of one batch per function in turn (so a busy moment of the machine hits them all alike),
// each batch at least minMs long. Each function gets { median, min, max } of its rounds' times
// per call: the median is the figure to show, min–max its spread.
export function timeSideBySide(fns, { rounds = 9, minMs = 10, now = () => performance.now() } = {}) {
  const names = Object.keys(fns);
  const times = Object.fromEntries(names.map((k) => [k, []]));
  for (const k of names) fns[k](); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const k of names) {
      let calls = 0;
      const start = now();
      let elapsed = 0;
      while (elapsed < minMs) {
        fns[k]();
        calls++;
        elapsed = now() - start;
      }
      times[k].push(elapsed / calls);
    }
  }
  return Object.fromEntries(names.map((k) => [k, spreadOf(times[k])]));
}

// { median, min, max } of a list of times.
export function spreadOf(times) {
  const t = [...times].sort((a, b) => a - b);
  const mid = t.length >> 1;
  const median = t.length % 2 ? t[mid] : (t[mid - 1] + t[mid]) / 2;
  return { median, min: t[0], max: t[t.length - 1] };
}

// Two timings ({ median, min, max }) whose spreads overlap: the difference of their medians is
// within the noise of this measurement, not a result.
export function withinNoise(a, b) {
  return a.min <= b.max && b.min <= a.max;
}
