// The √d_k chapter's theory: what the formulas predict (the reference lines and ranges drawn
// next to the engine's measurements), its slider stops and its formulas as TeX. Formulas, not
// results: every measured number comes from the engine. Pure (tests/js/scaling-theory.test.js).

// Slider stops: d_k = round(2^(k/12)) (powers of two exactly), samples at two significant
// digits of 10^(3 + k/12), τ at two significant digits of 10^(-2 + k/24). A slider moves
// through the stops; the number box beside it takes any value.
export const DK_STOPS = [...new Set(Array.from({ length: 121 }, (_, k) => Math.round(2 ** (k / 12))))];
export const SAMPLE_STOPS = [
  ...new Set(Array.from({ length: 37 }, (_, k) => Number((10 ** (3 + k / 12)).toPrecision(2)))),
];
export const TAU_STOPS = [
  ...new Set(Array.from({ length: 97 }, (_, k) => Number((10 ** (-2 + k / 24)).toPrecision(2)))),
];

// The standard normal CDF, by Abramowitz & Stegun 7.1.26 (error below 1.5e-7).
export function normalCdf(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

// The expected count of n draws of N(0, σ²) in [a, b).
export function expectedCount(n, sigma, a, b) {
  return n * (normalCdf(b / sigma) - normalCdf(a / sigma));
}

// 95% range of the sample mean and variance of n draws of q·k (variance d, fourth moment
// 3d² + 6d, so Var(x²) = 2d² + 6d), divided by d for the scaled scores.
export function expectedRanges(dk, n, scaled) {
  const v = scaled ? 1 : dk;
  const seMean = Math.sqrt(v / n);
  const seVar = Math.sqrt((2 * dk * dk + 6 * dk) / n) / (scaled ? dk : 1);
  return { mean: [-1.96 * seMean, 1.96 * seMean], variance: [v - 1.96 * seVar, v + 1.96 * seVar] };
}

// The formulas each step shows.
export const TEX = {
  variance: String.raw`\begin{gathered} q\cdot k = \sum_{d=1}^{d_k} q_d k_d,\qquad \operatorname{Var}(q_d k_d) = 1 \\ \operatorname{Var}(q\cdot k) = d_k,\qquad \operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = 1 \end{gathered}`,
  growth: String.raw`\begin{gathered} \log \operatorname{Var}(q\cdot k) = \log d_k \\ \log \operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = 0 \end{gathered}`,
  gradient: String.raw`\begin{gathered} J = \operatorname{diag}(p) - p\,p^{\top} \\ J_{ij} = \frac{\partial p_i}{\partial s_j} = p_i(\delta_{ij} - p_j) \end{gathered}`,
};

// √d_k as a temperature, for this d_k; `withText` is the word "with" in the page's language
// and `tex(x, digits)` formats a number for TeX.
export function temperatureTex(dk, withText, tex) {
  const root = Math.sqrt(dk);
  const rootTex = Number.isInteger(root) ? `= ${root}` : `\\approx ${tex(root, 3)}`;
  return String.raw`\begin{gathered} \operatorname{softmax}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = \operatorname{softmax}\!\Big(\frac{q\cdot k}{\tau}\Big) \\ \text{${withText}}\ \tau = \sqrt{d_k} = \sqrt{${dk}} ${rootTex} \end{gathered}`;
}
