// The one seeded generator of the tests and benchmarks (tests/js, tests/e2e, bench): their own
// inputs, independent of the engine's RNG, the same numbers on every machine and in every run.
// Nothing here calls the engine.

// mulberry32: a function giving uniform numbers in [0, 1) from a 32-bit seed.
export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// rows x cols nested array of uniform numbers in [-scale, scale), rounded to float32.
export function randomRows(rows, cols, seed, scale = 1) {
  const next = mulberry32(seed);
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.fround((next() * 2 - 1) * scale)));
}

// { rows, cols, data: Float32Array } of uniform numbers in [-scale, scale), row-major.
export function randomMatrix(rows, cols, seed, scale = 1) {
  const next = mulberry32(seed);
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = (next() * 2 - 1) * scale;
  return { rows, cols, data };
}

// The middle value (the upper one of the middle two for an even count); the input is not changed.
export const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
