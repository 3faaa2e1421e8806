// Saturation experiments against a double-precision reference written here, and the theory:
// unscaled, softmax saturates as d_k grows; scaled, it does not.
#include "core/saturation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/experiments.h"
#include "core/rng.h"

using namespace attn;

namespace {

// ---- reference, in double ---------------------------------------------------------------------

struct Ref {
  std::vector<double> raw, scaled;  // scores
  std::vector<double> raw_w, scaled_w;
};

std::vector<double> ref_softmax(const std::vector<double>& s, double tau) {
  double m = s[0] / tau;
  for (double x : s) m = std::max(m, x / tau);
  std::vector<double> w(s.size());
  double sum = 0;
  for (std::size_t j = 0; j < s.size(); j++) sum += (w[j] = std::exp(s[j] / tau - m));
  for (double& x : w) x /= sum;
  return w;
}

double ref_entropy(const std::vector<double>& w) {
  double h = 0;
  for (double x : w)
    if (x > 0) h -= x * std::log(x);
  return h;
}

// ‖diag(p) - p pᵀ‖_F, and the norm of its row at the argmax
void ref_jacobian(const std::vector<double>& p, double& fro, double& row) {
  std::size_t a = 0;
  for (std::size_t j = 1; j < p.size(); j++)
    if (p[j] > p[a]) a = j;
  fro = 0;
  row = 0;
  for (std::size_t i = 0; i < p.size(); i++) {
    for (std::size_t j = 0; j < p.size(); j++) {
      double x = (i == j ? p[i] : 0.0) - p[i] * p[j];
      fro += x * x;
      if (i == a) row += x * x;
    }
  }
  fro = std::sqrt(fro);
  row = std::sqrt(row);
}

// Draws trial t exactly as documented (stream t: q first, then the keys row by row).
Ref reference(int dk, int n, std::uint64_t seed, int trial, double tau) {
  Rng rng(seed, trial);
  std::vector<float> q(dk), k(static_cast<std::size_t>(n) * dk);
  rng.normal(q.data(), q.size());
  rng.normal(k.data(), k.size());
  Ref r;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int c = 0; c < dk; c++) s += static_cast<double>(q[c]) * k[j * dk + c];
    r.raw.push_back(s);
    r.scaled.push_back(s / std::sqrt(static_cast<double>(dk)));
  }
  r.raw_w = ref_softmax(r.raw, tau);
  r.scaled_w = ref_softmax(r.scaled, tau);
  return r;
}

}  // namespace

// ---- one query against n keys -------------------------------------------------------------

TEST(QueryProbe, MatchesDoubleReference) {
  for (int dk : {1, 3, 64, 257}) {
    for (float tau : {1.0f, 0.25f, 3.0f}) {
      QueryProbeArgs a;
      a.dk = dk;
      a.n_keys = 9;
      a.seed = 42;
      a.trial = 3;
      a.tau = tau;
      QueryProbeResult r = query_probe(a);
      Ref ref = reference(dk, 9, 42, 3, tau);
      ASSERT_EQ(r.raw_scores.size(), 9u);
      for (int j = 0; j < 9; j++) {
        double tol = 1e-5 * std::sqrt(static_cast<double>(dk)) * 4;
        EXPECT_NEAR(r.raw_scores[j], ref.raw[j], tol) << "dk " << dk << " key " << j;
        EXPECT_NEAR(r.scaled_scores[j], ref.scaled[j], 1e-5 * 4);
        // exp amplifies a score error by the logit scale 1/tau
        EXPECT_NEAR(r.raw_weights[j], ref.raw_w[j], 2e-4) << "dk " << dk << " tau " << tau;
        EXPECT_NEAR(r.scaled_weights[j], ref.scaled_w[j], 2e-5);
      }
      EXPECT_NEAR(r.scaled_entropy, ref_entropy(ref.scaled_w), 1e-4);
      EXPECT_NEAR(r.raw_entropy, ref_entropy(ref.raw_w), 1e-3);
      EXPECT_NEAR(r.scaled_max, *std::max_element(ref.scaled_w.begin(), ref.scaled_w.end()), 2e-5);
    }
  }
}

TEST(QueryProbe, AtDk1ScaledEqualsRaw) {
  QueryProbeArgs a;
  a.dk = 1;
  a.n_keys = 16;
  a.seed = 7;
  QueryProbeResult r = query_probe(a);
  for (int j = 0; j < 16; j++) {
    EXPECT_EQ(r.raw_scores[j], r.scaled_scores[j]);
    EXPECT_EQ(r.raw_weights[j], r.scaled_weights[j]);
  }
}

// sqrt(d_k) is a temperature: raw scores at tau = sqrt(d_k) give the scaled weights.
TEST(QueryProbe, RawAtTauSqrtDkMatchesScaled) {
  QueryProbeArgs raw_args;
  raw_args.dk = 64;
  raw_args.tau = 8.0f;
  QueryProbeArgs scaled_args;
  scaled_args.dk = 64;
  QueryProbeResult r = query_probe(raw_args);
  QueryProbeResult s = query_probe(scaled_args);
  for (int j = 0; j < raw_args.n_keys; j++) {
    EXPECT_NEAR(r.raw_weights[j], s.scaled_weights[j], 1e-6);
  }
}

TEST(QueryProbe, HardAndGumbel) {
  QueryProbeArgs a;
  a.dk = 16;
  a.n_keys = 8;
  a.seed = 5;
  a.tau = 0.02f;
  a.gumbel_samples = 12;
  QueryProbeResult r = query_probe(a);
  Ref ref = reference(16, 8, 5, 0, 1.0);
  std::size_t best = std::max_element(ref.scaled.begin(), ref.scaled.end()) - ref.scaled.begin();
  for (std::size_t j = 0; j < 8; j++) EXPECT_EQ(r.hard[j], j == best ? 1.0f : 0.0f);
  ASSERT_EQ(r.gumbel.rows, 12);
  ASSERT_EQ(r.gumbel.cols, 8);
  int distinct_winners = 0, sharp = 0;
  std::vector<int> seen(8, 0);
  for (int s = 0; s < 12; s++) {
    double sum = 0, top = 0;
    int arg = 0;
    for (int j = 0; j < 8; j++) {
      sum += r.gumbel.at(s, j);
      if (r.gumbel.at(s, j) > top) top = r.gumbel.at(s, j), arg = j;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    if (top > 0.95) sharp++;
    if (!seen[arg]++) distinct_winners++;
  }
  // at tau 0.02 a sample is nearly one-hot unless two noisy scores fall within ~0.06
  EXPECT_GE(sharp, 10) << "of 12 Gumbel-softmax rows nearly one-hot";
  // a sample, not the argmax: with scores of std ~1 the winner varies between rows
  EXPECT_GE(distinct_winners, 2);
}

TEST(QueryProbe, RefusesBadInput) {
  QueryProbeArgs a;
  a.dk = 0;
  EXPECT_NE(check_query_probe(a).find("dk"), std::string::npos);
  a.dk = 1025;
  EXPECT_NE(check_query_probe(a).find("dk"), std::string::npos);
  a.dk = 64;
  a.n_keys = 1;
  EXPECT_NE(check_query_probe(a).find("nKeys"), std::string::npos);
  a.n_keys = 16;
  a.tau = 0.0f;
  EXPECT_NE(check_query_probe(a).find("tau"), std::string::npos);
  a.tau = NAN;
  EXPECT_NE(check_query_probe(a).find("tau"), std::string::npos);
  a.tau = 1.0f;
  a.gumbel_samples = 65;
  EXPECT_NE(check_query_probe(a).find("gumbelSamples"), std::string::npos);
  a.gumbel_samples = 0;
  a.trial = -1;
  EXPECT_NE(check_query_probe(a).find("trial"), std::string::npos);
  a.trial = 0;
  EXPECT_EQ(check_query_probe(a), "");
}

// ---- the sweep --------------------------------------------------------------------------------

TEST(Saturation, MatchesDoubleReference) {
  SaturationArgs a;
  a.dks = {2, 8, 100};
  a.n_keys = 5;
  a.trials = 4;
  a.seed = 11;
  SaturationResult r = saturation_sweep(a);
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_NEAR(r.log_n, std::log(5.0), 1e-12);
  for (std::size_t i = 0; i < 3; i++) {
    int dk = a.dks[i];
    double sums[2][4] = {};
    for (int t = 0; t < a.trials; t++) {
      Ref ref = reference(dk, 5, 11, t, 1.0);
      const std::vector<double>* ws[2] = {&ref.raw_w, &ref.scaled_w};
      for (int side = 0; side < 2; side++) {
        double fro, row;
        ref_jacobian(*ws[side], fro, row);
        sums[side][0] += *std::max_element(ws[side]->begin(), ws[side]->end());
        sums[side][1] += ref_entropy(*ws[side]);
        sums[side][2] += fro;
        sums[side][3] += row;
      }
    }
    const SaturationStats* got[2] = {&r.points[i].raw, &r.points[i].scaled};
    EXPECT_EQ(r.points[i].dk, dk);
    for (int side = 0; side < 2; side++) {
      double tol = side == 0 ? 1e-3 : 1e-4;
      EXPECT_NEAR(got[side]->max_weight, sums[side][0] / 4, tol) << "dk " << dk;
      EXPECT_NEAR(got[side]->entropy, sums[side][1] / 4, tol) << "dk " << dk;
      EXPECT_NEAR(got[side]->jacobian_norm, sums[side][2] / 4, tol) << "dk " << dk;
      EXPECT_NEAR(got[side]->grad_norm, sums[side][3] / 4, tol) << "dk " << dk;
    }
  }
}

// The lesson's claim: unscaled softmax saturates and its gradient vanishes; scaled stays alive.
TEST(Saturation, RawSaturatesScaledDoesNot) {
  SaturationArgs a;
  a.dks = {1, 4, 16, 64, 256, 1024};
  a.n_keys = 16;
  a.trials = 300;
  a.seed = 3;
  SaturationResult r = saturation_sweep(a);
  const auto& p = r.points;
  // d_k = 1: dividing by sqrt(1) changes nothing
  EXPECT_DOUBLE_EQ(p[0].raw.max_weight, p[0].scaled.max_weight);
  EXPECT_DOUBLE_EQ(p[0].raw.jacobian_norm, p[0].scaled.jacobian_norm);
  for (std::size_t i = 1; i < p.size(); i++) {
    EXPECT_GT(p[i].raw.max_weight, p[i - 1].raw.max_weight) << "dk " << p[i].dk;
    EXPECT_LT(p[i].raw.entropy, p[i - 1].raw.entropy) << "dk " << p[i].dk;
    // the Jacobian peaks at moderate sharpness (a near-uniform row has norm ~ 1/sqrt(n)),
    // then falls as the row saturates
    if (p[i].dk >= 16) {
      EXPECT_LT(p[i].raw.jacobian_norm, p[i - 1].raw.jacobian_norm) << "dk " << p[i].dk;
    }
  }
  const SaturationStats& raw = p.back().raw;  // d_k = 1024: scores with std 32
  EXPECT_GT(raw.max_weight, 0.95);
  EXPECT_LT(raw.entropy, 0.1 * r.log_n);
  EXPECT_LT(raw.jacobian_norm, 0.1);
  EXPECT_LT(raw.grad_norm, 0.1);
  // scaled: from d_k = 16 on the scores are close to N(0, 1) whatever d_k is
  for (std::size_t i = 2; i < p.size(); i++) {
    EXPECT_NEAR(p[i].scaled.max_weight, p[2].scaled.max_weight, 0.05) << "dk " << p[i].dk;
    EXPECT_NEAR(p[i].scaled.entropy, p[2].scaled.entropy, 0.1) << "dk " << p[i].dk;
    EXPECT_NEAR(p[i].scaled.jacobian_norm, p[2].scaled.jacobian_norm, 0.05) << "dk " << p[i].dk;
    EXPECT_GT(p[i].scaled.entropy, 0.6 * r.log_n);
    EXPECT_GT(p[i].scaled.jacobian_norm, 0.2);
    EXPECT_GT(p[i].scaled.jacobian_norm, 4 * raw.jacobian_norm);
  }
  // the gradient for one key is at most the whole Jacobian
  for (const auto& pt : p) EXPECT_LE(pt.raw.grad_norm, pt.raw.jacobian_norm + 1e-12);
}

TEST(Saturation, SameSeedSameNumbersOrderIndependent) {
  SaturationArgs a;
  a.dks = {64};
  a.trials = 20;
  SaturationArgs b = a;
  b.dks = {16, 64};
  SaturationResult ra = saturation_sweep(a), rb = saturation_sweep(b);
  EXPECT_EQ(ra.points[0].raw.entropy, rb.points[1].raw.entropy);
  EXPECT_EQ(ra.points[0].scaled.jacobian_norm, rb.points[1].scaled.jacobian_norm);
}

TEST(Saturation, RefusesBadInput) {
  SaturationArgs a;
  a.dks = {};
  EXPECT_NE(check_saturation(a).find("dks"), std::string::npos);
  a.dks = {64, 2000};
  EXPECT_NE(check_saturation(a).find("dks: entry 1"), std::string::npos);
  a.dks = {64};
  a.n_keys = 1;
  EXPECT_NE(check_saturation(a).find("nKeys"), std::string::npos);
  a.n_keys = 16;
  a.trials = 0;
  EXPECT_NE(check_saturation(a).find("trials"), std::string::npos);
  a.trials = limits::kMaxTrials;
  a.dks = {1024, 1024, 1024};
  a.n_keys = 256;
  EXPECT_NE(check_saturation(a).find("at most"), std::string::npos);
  a.dks = {1, 1024};
  a.n_keys = 16;
  a.trials = 1000;
  EXPECT_EQ(check_saturation(a), "");
}
