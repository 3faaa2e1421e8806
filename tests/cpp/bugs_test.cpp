// The debugging lab: each bug against a double reference of the bug's own arithmetic (written
// here with Eigen, never with the core), the symptom each one is there to show, and the
// monitors against their definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/bugs.h"
#include "core/monitors.h"
#include "reference.h"

namespace {

using attn::Bug;
using attn::BugArgs;
using attn::Matrix;

BugArgs example(Bug bug, std::uint32_t seed = 7, int n = 5, int d = 8) {
  BugArgs a;
  a.query = ref::random_matrix(n, d, seed, -2, 2);
  a.key = ref::random_matrix(n, d, seed + 1, -2, 2);
  a.value = ref::random_matrix(n, 3, seed + 2, -1, 1);
  a.bug = bug;
  return a;
}

// ---- references of each bug's arithmetic (double) ---------------------------------------------

ref::Mat logits(const BugArgs& a, double divisor) {
  return ref::dot_scores(ref::from(a.query), ref::from(a.key)) / divisor;
}
ref::Mat mask_of(const BugArgs& a, bool causal) {
  const ref::Mat explicit_mask = a.mask.empty() ? ref::Mat{} : ref::from(a.mask);
  return ref::mask(a.query.rows, a.key.rows, explicit_mask, causal, a.key_padding);
}
// The naive softmax of one stage: exp without the max subtracted, in float32 as the bugged
// code runs it (so it overflows where the engine does), summed and divided in double.
ref::Mat naive_softmax(const ref::Mat& s) {
  ref::Mat w(s.rows(), s.cols());
  for (Eigen::Index i = 0; i < s.rows(); i++) {
    double sum = 0;
    for (Eigen::Index j = 0; j < s.cols(); j++)
      sum += w(i, j) = std::exp(static_cast<float>(s(i, j)));
    w.row(i) /= sum;
  }
  return w;
}

void expect_bug(const BugArgs& a, const ref::Mat& weights, double tol = 1e-5) {
  ASSERT_EQ(attn::check_bug(a), "");
  attn::AttendResult r = attn::attend_with_bug(a);
  ASSERT_EQ(r.error, "");
  const char* name = attn::kBugOption.choices[static_cast<int>(a.bug)].name;
  EXPECT_MATRIX_NEAR(r.weights, weights, tol) << name;
  EXPECT_MATRIX_NEAR(r.output, ref::Mat(weights * ref::from(a.value)), tol) << name;
  std::vector<double> h = ref::entropy(weights);
  for (int i = 0; i < a.query.rows; i++)
    EXPECT_NEAR(r.entropy[i], h[i], tol) << name << " row " << i;
}

double row_sum(const Matrix& w, int i) {
  double s = 0;
  for (int j = 0; j < w.cols; j++) s += w.at(i, j);
  return s;
}

TEST(Bugs, TheNamesAreTheCoresChoiceOption) {
  EXPECT_EQ(attn::kBugOption.list(),
            "'none', 'missing-scale', 'zero-fill', 'reversed-causal', 'wrong-axis', "
            "'mask-after-softmax', 'no-max-subtraction', 'scale-by-d-model'");
  for (std::size_t k = 0; k < attn::kBugOption.size(); k++)
    EXPECT_EQ(static_cast<std::size_t>(attn::kBugOption.choices[k].value), k);
}

TEST(Bugs, NoneIsTheHealthyPipeline) {
  BugArgs a = example(Bug::None);
  a.causal = true;
  a.key_padding = {false, false, true, false, false};
  expect_bug(
      a, ref::softmax(ref::apply_mask(logits(a, std::sqrt(8.0)), mask_of(a, true), -ref::kInf)));
}

TEST(Bugs, MissingScaleUsesRawScoresAndSaturatesAtLargeDk) {
  BugArgs a = example(Bug::MissingScale);
  a.causal = true;
  expect_bug(a, ref::softmax(ref::apply_mask(logits(a, 1), mask_of(a, true), -ref::kInf)));
  // at d_k = 256 the unscaled rows are nearly one-hot; the healthy ones are not
  BugArgs big = example(Bug::MissingScale, 3, 6, 256);
  BugArgs healthy = big;
  healthy.bug = Bug::None;
  double h_bug = 0, h_ok = 0;
  for (float x : attn::attend_with_bug(big).entropy) h_bug += x;
  for (float x : attn::attend_with_bug(healthy).entropy) h_ok += x;
  EXPECT_LT(h_bug, 0.25 * h_ok);
}

TEST(Bugs, ZeroFillLeaksPaddingKeys) {
  BugArgs a = example(Bug::ZeroFill);
  a.key_padding = {false, true, false, false, true};
  expect_bug(a, ref::softmax(ref::apply_mask(logits(a, std::sqrt(8.0)), mask_of(a, false), 0.0)));
  attn::AttendResult r = attn::attend_with_bug(a);
  for (int i = 0; i < r.weights.rows; i++) {
    EXPECT_GT(r.weights.at(i, 1), 0.0f);  // padding gets weight
    EXPECT_GT(r.weights.at(i, 4), 0.0f);
  }
}

TEST(Bugs, ReversedCausalLetsEveryQuerySeeTheFuture) {
  BugArgs a = example(Bug::ReversedCausal);
  a.causal = true;
  ref::Mat m(5, 5);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) m(i, j) = j >= i ? 1 : 0;
  expect_bug(a, ref::softmax(ref::apply_mask(logits(a, std::sqrt(8.0)), m, -ref::kInf)));
  attn::AttendResult r = attn::attend_with_bug(a);
  EXPECT_EQ(r.weights.at(4, 4), 1.0f);  // the last query sees only itself
  EXPECT_LT(r.weights.at(0, 0), 1.0f);  // the first query sees every later key
  for (int i = 1; i < 5; i++)
    for (int j = 0; j < i; j++) EXPECT_EQ(r.weights.at(i, j), 0.0f);  // the past is blocked
  // padding is still blocked: the last query, whose only key is padding, has nothing left
  a.key_padding = {false, false, false, false, true};
  EXPECT_EQ(attn::attend_with_bug(a).fully_masked_rows, std::vector<int>{4});
}

TEST(Bugs, WrongAxisMakesColumnsSumToOne) {
  BugArgs a = example(Bug::WrongAxis);
  a.query = ref::random_matrix(3, 8, 11, -2, 2);  // n_q = 3, n_k = 5
  a.key_padding = {false, false, false, true, false};
  ref::Mat masked = ref::apply_mask(logits(a, std::sqrt(8.0)), mask_of(a, false), -ref::kInf);
  ref::Mat want = ref::transpose(ref::softmax(ref::transpose(masked)));  // a -inf column gives 0
  expect_bug(a, want);
  attn::AttendResult r = attn::attend_with_bug(a);
  for (int j : {0, 1, 2, 4}) {
    double s = 0;
    for (int i = 0; i < 3; i++) s += r.weights.at(i, j);
    EXPECT_NEAR(s, 1.0, 1e-5) << j;
  }
  bool some_row_off = false;
  for (int i = 0; i < 3; i++)
    some_row_off = some_row_off || std::fabs(row_sum(r.weights, i) - 1.0) > 0.05;
  EXPECT_TRUE(some_row_off);
}

TEST(Bugs, MaskAfterSoftmaxLeavesRowsSummingToLessThanOne) {
  BugArgs a = example(Bug::MaskAfterSoftmax);
  a.causal = true;
  ref::Mat w = ref::softmax(logits(a, std::sqrt(8.0)));
  const ref::Mat m = mask_of(a, true);
  w = (m.array() == 0).select(0.0, w.array());
  expect_bug(a, w);
  attn::AttendResult r = attn::attend_with_bug(a);
  EXPECT_NEAR(row_sum(r.weights, 4), 1.0, 1e-5);  // the last query blocks nothing
  for (int i = 0; i < 4; i++) EXPECT_LT(row_sum(r.weights, i), 1.0 - 1e-4) << i;
  EXPECT_MATRIX_NEAR(r.masked, logits(a, std::sqrt(8.0)), 1e-5);  // nothing blocked before softmax
}

TEST(Bugs, NoMaxSubtractionOverflowsAtLargeLogits) {
  BugArgs a = example(Bug::NoMaxSubtraction);
  a.causal = true;
  // small logits: the naive softmax gives the same numbers as the stable one
  expect_bug(
      a, naive_softmax(ref::apply_mask(logits(a, std::sqrt(8.0)), mask_of(a, true), -ref::kInf)));
  a.query.at(2, 0) = 400;  // q_2 · k_0 / √8 is now far past 88.72, where expf overflows
  a.key.at(0, 0) = 2;
  attn::AttendResult r = attn::attend_with_bug(a);
  EXPECT_TRUE(r.overflow);
  EXPECT_GT(r.scaled.at(2, 0), 100.0f);
  EXPECT_TRUE(std::isnan(r.weights.at(2, 0)));
  EXPECT_FALSE(std::isnan(r.weights.at(0, 0)));  // row 0 sees key 0 only: its logit is small
  a.bug = Bug::None;
  for (float x : attn::attend_with_bug(a).weights.data) EXPECT_TRUE(std::isfinite(x));
}

TEST(Bugs, ScaleByDModelDividesByTheWrongRoot) {
  BugArgs a = example(Bug::ScaleByDModel);
  a.d_model = 64;  // 8 heads of d_k = 8
  a.causal = true;
  expect_bug(a, ref::softmax(ref::apply_mask(logits(a, 8.0), mask_of(a, true), -ref::kInf)));
  attn::AttendResult r = attn::attend_with_bug(a);
  const ref::Mat raw = ref::dot_scores(ref::from(a.query), ref::from(a.key));
  EXPECT_NEAR(r.scaled.at(3, 2), raw(3, 2) / 8.0, 1e-5);
  // flatter than the healthy rows: every row with two keys or more has a larger entropy
  BugArgs healthy = a;
  healthy.bug = Bug::None;
  std::vector<float> h_ok = attn::attend_with_bug(healthy).entropy;
  for (int i = 1; i < 5; i++) EXPECT_GT(r.entropy[i], h_ok[i]) << i;
}

TEST(Bugs, BadArgumentsAreNamed) {
  BugArgs a = example(Bug::ScaleByDModel);
  EXPECT_EQ(attn::check_bug(a), "dModel: expected an integer from 1 to 65536, got 0");
  a.d_model = 16;
  EXPECT_EQ(attn::check_bug(a), "");
  a.key = ref::random_matrix(5, 4, 1);
  EXPECT_EQ(attn::check_bug(a),
            "key: expected 8 columns (d_k must equal the query's d_q for scaled-dot), got 4");
  a = example(Bug::None);
  a.bug = static_cast<Bug>(99);
  EXPECT_EQ(attn::check_bug(a),
            "bug: expected one of 'none', 'missing-scale', 'zero-fill', 'reversed-causal', "
            "'wrong-axis', 'mask-after-softmax', 'no-max-subtraction', 'scale-by-d-model', got 99");
  a = example(Bug::ZeroFill);
  a.key_padding = {true};
  EXPECT_EQ(attn::check_bug(a), "keyPadding: expected 5 flags (one per key, n_k), got 1");
  a = example(Bug::MissingScale);
  a.value = ref::random_matrix(4, 3, 2);
  EXPECT_EQ(attn::check_bug(a), "value: expected 5 rows (one per key), got 4");
}

TEST(Bugs, OverflowIsRefusedAsAttendRefusesIt) {
  BugArgs a = example(Bug::MissingScale);
  a.query.at(0, 0) = 1e20f;
  a.key.at(0, 0) = 1e20f;
  attn::AttendResult r = attn::attend_with_bug(a);
  EXPECT_EQ(r.error.rfind("query: q·k overflows float32", 0), 0u) << r.error;
}

// ---- monitors ---------------------------------------------------------------------------------

TEST(Monitors, AgainstTheirDefinitions) {
  // a causal example with a padding key, and the weights of the 0-fill bug (which leak)
  BugArgs a = example(Bug::ZeroFill, 21, 6, 16);
  a.causal = true;
  a.key_padding = {false, false, false, false, true, false};
  BugArgs healthy = a;
  healthy.bug = Bug::None;
  const Matrix mask = attn::attend_with_bug(healthy).mask;  // the mask the code meant to apply
  attn::AttendResult r = attn::attend_with_bug(a);
  ASSERT_EQ(attn::check_monitor(r.scaled, r.weights, mask), "");
  attn::Monitors m = attn::monitor(r.scaled, r.weights, mask);

  const ref::Mat w = ref::from(r.weights), x = ref::from(r.scaled), allowed = mask_of(a, true);
  double sum = 0, n = 0;
  for (int i = 0; i < 6; i++) {
    const double keys = allowed.row(i).sum();
    EXPECT_NEAR(m.max_entropy[i], keys > 1 ? std::log(keys) : 0.0, 1e-6) << i;
    EXPECT_NEAR(m.row_sums[i], w.row(i).sum(), 1e-6) << i;
    EXPECT_NEAR(m.leaked[i], (allowed.row(i).array() == 0).select(w.row(i).array(), 0.0).sum(),
                1e-6)
        << i;
    sum += (allowed.row(i).array() == 1).select(x.row(i).array(), 0.0).sum();
    n += keys;
  }
  for (int j = 0; j < 6; j++) EXPECT_NEAR(m.col_sums[j], w.col(j).sum(), 1e-6) << j;
  const double mean = sum / n;
  const double var = ((allowed.array() == 1).select(x.array() - mean, 0.0)).square().sum() / n;
  EXPECT_EQ(m.cells, static_cast<int>(n));
  EXPECT_NEAR(m.logit_mean, mean, 1e-9);
  EXPECT_NEAR(m.logit_std, std::sqrt(var), 1e-9);
  EXPECT_EQ(m.logit_max, (allowed.array() == 1).select(x.array(), -ref::kInf).maxCoeff());
  EXPECT_EQ(m.non_finite, 0);
  // the symptom: the 0 fill leaks weight to the padding key (column 4) and to the future
  EXPECT_GT(m.leaked[0], 0.1f);
  EXPECT_EQ(m.max_entropy[0], 0.0f);  // row 0 may attend to one key only
  EXPECT_NEAR(m.max_entropy[5], std::log(5.0), 1e-6);
}

TEST(Monitors, HealthyRowsSumToOneAndLeakNothing) {
  BugArgs a = example(Bug::None, 5, 8, 64);
  a.causal = true;
  attn::AttendResult r = attn::attend_with_bug(a);
  attn::Monitors m = attn::monitor(r.scaled, r.weights, r.mask);
  for (int i = 0; i < 8; i++) {
    EXPECT_NEAR(m.row_sums[i], 1.0, 1e-6);
    EXPECT_EQ(m.leaked[i], 0.0f);
  }
}

TEST(Monitors, NaNWeightsAreCountedAndAFullyBlockedMaskHasNoStatistics) {
  Matrix logits(2, 2, 1.0f), weights(2, 2, 0.5f), mask(2, 2, 1.0f);
  weights.at(1, 0) = std::numeric_limits<float>::quiet_NaN();
  weights.at(1, 1) = std::numeric_limits<float>::infinity();
  EXPECT_EQ(attn::monitor(logits, weights, mask).non_finite, 2);
  attn::Monitors blocked = attn::monitor(logits, weights, Matrix(2, 2, 0.0f));
  EXPECT_EQ(blocked.cells, 0);
  EXPECT_TRUE(std::isnan(blocked.logit_mean));
  EXPECT_TRUE(std::isnan(blocked.logit_std));
  EXPECT_EQ(blocked.max_entropy, (std::vector<float>{0.0f, 0.0f}));
}

// Finite weights whose sums pass float32 (3e38 twice) are refused, not summed to Infinity:
// a row, the blocked part of a row, and a column.
TEST(Monitors, FiniteWeightsWhoseSumsPassFloat32AreRefused) {
  Matrix logits(2, 2, 1.0f), mask(2, 2, 1.0f);
  Matrix row(2, 2, 0.0f);
  row.at(1, 0) = row.at(1, 1) = 3e38f;
  EXPECT_EQ(attn::check_monitor(logits, row, mask),
            "weights: row 1 sums to 6e+38, past float32 (expected row and column sums below "
            "3.4e+38; softmax weights are from 0 to 1)");
  Matrix col(2, 2, 0.0f);
  col.at(0, 1) = col.at(1, 1) = -3e38f;
  EXPECT_EQ(attn::check_monitor(logits, col, mask),
            "weights: column 1 sums to -6e+38, past float32 (expected row and column sums below "
            "3.4e+38; softmax weights are from 0 to 1)");
  Matrix leak(1, 3, 3e38f), blocked(1, 3, 0.0f), logits3(1, 3, 1.0f);
  leak.at(0, 2) = -3e38f;  // the row sums to 3e38, its two blocked keys to 6e38
  blocked.at(0, 2) = 1.0f;
  EXPECT_EQ(attn::check_monitor(logits3, leak, blocked),
            "weights: row 0's blocked keys sum to 6e+38, past float32 (expected row and column "
            "sums below 3.4e+38; softmax weights are from 0 to 1)");
  // inside float32 every monitor of finite weights is finite
  Matrix fine(2, 2, 1.6e38f);
  ASSERT_EQ(attn::check_monitor(logits, fine, mask), "");
  attn::Monitors m = attn::monitor(logits, fine, mask);
  for (float x : m.row_sums) EXPECT_TRUE(std::isfinite(x));
  for (float x : m.col_sums) EXPECT_TRUE(std::isfinite(x));
}

TEST(Monitors, BadArgumentsAreNamed) {
  Matrix logits(2, 3, 1.0f), weights(2, 3, 0.5f), mask(2, 3, 1.0f);
  EXPECT_EQ(attn::check_monitor(logits, weights, mask), "");
  EXPECT_EQ(attn::check_monitor(logits, Matrix(3, 2, 0.5f), mask),
            "weights: expected shape (n_q, n_k) of logits = (2, 3), got (3, 2)");
  EXPECT_EQ(attn::check_monitor(logits, weights, Matrix(2, 2, 1.0f)),
            "mask: expected shape (n_q, n_k) = (2, 3), got (2, 2)");
  EXPECT_EQ(attn::check_monitor(logits, weights, Matrix()),
            "mask: expected a matrix { rows, cols, data }, got nothing");
  mask.at(1, 2) = 0.5f;
  EXPECT_EQ(attn::check_monitor(logits, weights, mask),
            "mask: row 1, column 2 is 0.5 (expected 0 = blocked or 1 = may attend)");
  logits.at(0, 1) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(attn::check_monitor(logits, weights, Matrix(2, 3, 1.0f)),
            "logits: row 0, column 1 is NaN (expected numbers)");
}

}  // namespace
