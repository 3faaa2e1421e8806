// Timing engine calls against each other on the page (the score-functions and multi-head chapters).

// Milliseconds per call of each function of fns ({ name: fn }), measured side by side: rounds
// of one batch per function in turn (so a busy moment of the machine hits them all alike),
// each batch at least minMs long; the fastest batch of each counts.
export function timeSideBySide(fns, { rounds = 5, minMs = 10, now = () => performance.now() } = {}) {
  const names = Object.keys(fns);
  const best = Object.fromEntries(names.map((k) => [k, Infinity]));
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
      best[k] = Math.min(best[k], elapsed / calls);
    }
  }
  return best;
}
