// Lesson 5, continued: softmax saturation and the vanishing gradient, measured.
#include "core/saturation.h"

#include <cmath>
#include <string>

#include "core/attention.h"
#include "core/rng.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn {

// ---- drawing one trial: q and n keys with N(0, 1) entries ------------------------------------

// Trial t draws q, then the keys, from RNG stream t of the seed.
static void draw_trial(int dk, int n_keys, std::uint64_t seed, int trial, Matrix& q, Matrix& keys) {
  Rng rng(seed, static_cast<std::uint32_t>(trial));
  q = rng.normal_matrix(1, dk);          // q: (1, d_k)
  keys = rng.normal_matrix(n_keys, dk);  // keys: (n_keys, d_k)
}

static int argmax(const std::vector<float>& x) {
  int best = 0;
  for (int j = 1; j < static_cast<int>(x.size()); j++) {
    if (x[j] > x[best]) best = j;  // first one on ties, like hard_attention
  }
  return best;
}

// ---- one query against n keys --------------------------------------------------------------

Error check_query_probe(const QueryProbeArgs& a) {
  Error e = check_number(kDk, a.dk);
  if (e.empty()) e = check_number(kProbeKeys, a.n_keys);
  if (e.empty()) e = check_number(kTrial, a.trial);
  if (e.empty()) e = check_temperature(kProbeTau.name, a.tau);
  if (e.empty()) e = check_number(kGumbelSamples, a.gumbel_samples);
  return e;
}

QueryProbeResult query_probe(const QueryProbeArgs& a) {
  Matrix q, keys;
  draw_trial(a.dk, a.n_keys, a.seed, a.trial, q, keys);
  Matrix raw = score_dot(q, keys);          // raw: (1, n_keys)
  Matrix scaled = score_scaled(raw, a.dk);  // scaled: (1, n_keys)
  Matrix raw_w = softmax_rows(apply_temperature(raw, a.tau));
  Matrix scaled_w = softmax_rows(apply_temperature(scaled, a.tau));

  QueryProbeResult r;
  r.raw_scores = raw.data;
  r.scaled_scores = scaled.data;
  r.raw_weights = raw_w.data;
  r.scaled_weights = scaled_w.data;
  r.raw_entropy = row_entropy(raw_w)[0];
  r.scaled_entropy = row_entropy(scaled_w)[0];
  r.raw_max = raw_w.data[argmax(raw_w.data)];
  r.scaled_max = scaled_w.data[argmax(scaled_w.data)];

  // Hard vs Gumbel on the chosen scores: hard is the argmax, Gumbel-softmax a noisy soft
  // sample that approaches a random one-hot as tau -> 0.
  const Matrix& chosen = a.scaled ? scaled : raw;
  r.hard = hard_attention(chosen).data;
  if (a.gumbel_samples > 0) {
    Matrix rows(a.gumbel_samples, a.n_keys);  // rows: (gumbel_samples, n_keys), chosen repeated
    for (int s = 0; s < a.gumbel_samples; s++) {
      for (int j = 0; j < a.n_keys; j++) rows.at(s, j) = chosen.data[j];
    }
    r.gumbel = gumbel_softmax(rows, a.tau, a.seed + 1 + static_cast<std::uint64_t>(a.trial));
  } else {
    r.gumbel = Matrix(0, a.n_keys);
  }
  return r;
}

// ---- the sweep: means over many trials, raw vs scaled, per d_k -------------------------------

static double sweep_work(const SaturationArgs& a) {
  double work = 0;
  for (int dk : a.dks) work += static_cast<double>(a.trials) * a.n_keys * (dk + a.n_keys);
  return work;
}

Error check_saturation(const SaturationArgs& a) {
  if (a.dks.empty() || static_cast<int>(a.dks.size()) > kMaxSweepDks) {
    return "dks: expected 1 to " + std::to_string(kMaxSweepDks) + " values of d_k, got " +
           std::to_string(a.dks.size());
  }
  for (std::size_t i = 0; i < a.dks.size(); i++) {
    if (a.dks[i] < 1 || a.dks[i] > limits::kMaxDim) {
      return "dks: entry " + std::to_string(i) + " is " + std::to_string(a.dks[i]) +
             " (expected integers from 1 to " + std::to_string(limits::kMaxDim) + ")";
    }
  }
  Error e = check_number(kSweepKeys, a.n_keys);
  if (e.empty()) e = check_number(kTrials, a.trials);
  if (!e.empty()) return e;
  if (sweep_work(a) > kMaxSaturationWork) {
    return "trials: trials x nKeys x (d_k + nKeys), summed over dks, must be at most " +
           format_number(kMaxSaturationWork) + "; got " + format_number(sweep_work(a)) +
           " (use fewer trials, keys or d_k values)";
  }
  return {};
}

// Adds one trial's softmax statistics to acc.   scores: (1, n)
static void add_trial(const Matrix& scores, SaturationStats& acc) {
  Matrix w = softmax_rows(scores);  // w: (1, n)
  int a = argmax(w.data);
  Matrix jac = softmax_jacobian(w.data);  // jac: (n, n)
  double fro = 0, row = 0;
  for (int i = 0; i < jac.rows; i++) {
    for (int j = 0; j < jac.cols; j++) {
      double x = jac.at(i, j);
      fro += x * x;
      if (i == a) row += x * x;
    }
  }
  acc.max_weight += w.data[a];
  acc.entropy += row_entropy(w)[0];
  acc.jacobian_norm += std::sqrt(fro);
  acc.grad_norm += std::sqrt(row);
}

static void divide(SaturationStats& s, int trials) {
  s.max_weight /= trials;
  s.entropy /= trials;
  s.jacobian_norm /= trials;
  s.grad_norm /= trials;
}

SaturationResult saturation_sweep(const SaturationArgs& a) {
  SaturationResult r;
  r.log_n = std::log(static_cast<double>(a.n_keys));
  for (int dk : a.dks) {
    SaturationPoint p;
    p.dk = dk;
    for (int t = 0; t < a.trials; t++) {
      Matrix q, keys;
      draw_trial(dk, a.n_keys, a.seed, t, q, keys);
      Matrix raw = score_dot(q, keys);  // raw: (1, n_keys)
      add_trial(raw, p.raw);
      add_trial(score_scaled(raw, dk), p.scaled);
    }
    divide(p.raw, a.trials);
    divide(p.scaled, a.trials);
    r.points.push_back(p);
  }
  return r;
}

}  // namespace attn
