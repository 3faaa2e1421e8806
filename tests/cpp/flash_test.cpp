// Tiled ("flash") attention against the naive pipeline given the same mask as an explicit
// (n_q, n_k) matrix, and against the double-precision reference: every pattern, block sizes
// that do and do not divide n, fully blocked rows, large scores, and the online-softmax trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/attention.h"
#include "core/flash.h"
#include "reference.h"

namespace {

using attn::FlashArgs;
using attn::FlashResult;
using attn::Matrix;

// The mask rule written out plainly from its definition (not from flash.cpp):
// causal: j <= i; padding keys blocked; window w: |i - j| <= w;
// stride s: |i - j| < s or |i - j| a multiple of s.
Matrix pattern_mask(const FlashArgs& a) {
  Matrix m(a.query.rows, a.key.rows);
  for (int i = 0; i < m.rows; i++)
    for (int j = 0; j < m.cols; j++) {
      int pos = a.query_offset + i;  // query row i is query number query_offset + i
      int dist = std::abs(pos - j);
      bool ok = true;
      if (a.causal && j > pos) ok = false;
      if (!a.key_padding.empty() && a.key_padding[j]) ok = false;
      if (a.window >= 0 && dist > a.window) ok = false;
      if (a.stride > 0 && !(dist < a.stride || dist % a.stride == 0)) ok = false;
      m.at(i, j) = ok ? 1.0f : 0.0f;
    }
  return m;
}

FlashArgs random_flash(int n_q, int n_k, int d, int d_v, std::uint32_t seed, double range = 2) {
  FlashArgs a;
  a.query = ref::random_matrix(n_q, d, seed, -range, range);
  a.key = ref::random_matrix(n_k, d, seed + 1, -range, range);
  a.value = ref::random_matrix(n_k, d_v, seed + 2, -2, 2);
  return a;
}

// Largest |got - want| in a row, relative to the largest |want| of that row (1 when the row
// is all zeros, as a fully blocked row is).
double row_relative_error(const Matrix& got, const ref::Mat& want) {
  double worst = 0;
  for (int i = 0; i < got.rows; i++) {
    double err = 0, size = 0;
    for (int c = 0; c < got.cols; c++) {
      err = std::max(err, std::fabs(got.at(i, c) - want[i][c]));
      size = std::max(size, std::fabs(want[i][c]));
    }
    worst = std::max(worst, err / (size > 0 ? size : 1.0));
  }
  return worst;
}

// The naive float32 pipeline (attn::attend) and the double reference, both given the pattern
// as an explicit mask; flash must match each within tol (relative, per row).
void expect_flash_exact(const FlashArgs& a, double tol = 1e-5) {
  ASSERT_EQ(attn::check_flash(a), "");
  FlashResult got = attn::flash_attend(a);
  Matrix mask = pattern_mask(a);

  attn::AttendArgs naive;
  naive.query = a.query;
  naive.key = a.key;
  naive.value = a.value;
  naive.mask = mask;
  ASSERT_EQ(attn::check_attend(naive), "");
  attn::AttendResult want_f = attn::attend(naive);

  ref::AttendInput in;
  in.q = ref::from(a.query);
  in.k = ref::from(a.key);
  in.v = ref::from(a.value);
  in.explicit_mask = ref::from(mask);
  ref::Attention want = ref::attend(in);

  EXPECT_LE(row_relative_error(got.output, ref::from(want_f.output)), tol) << "against naive";
  EXPECT_LE(row_relative_error(got.output, want.output), tol) << "against double";
  EXPECT_EQ(got.fully_masked_rows, want_f.fully_masked_rows);
  ASSERT_EQ(got.entropy.size(), want.entropy.size());
  for (std::size_t i = 0; i < got.entropy.size(); i++)
    EXPECT_NEAR(got.entropy[i], want.entropy[i], 1e-5 * std::max(1.0, want.entropy[i]))
        << "row " << i;
}

// Each pattern at block sizes below, dividing, not dividing and above n.
template <typename F>
void for_block_sizes(FlashArgs a, F set_pattern) {
  set_pattern(a);
  for (int b : {1, 3, 8, 16, 33, 64, 256}) {
    SCOPED_TRACE("blockSize " + std::to_string(b));
    a.block_size = b;
    expect_flash_exact(a);
  }
}

TEST(Flash, FullAttention) {
  for_block_sizes(random_flash(70, 70, 16, 8, 1), [](FlashArgs&) {});
}

TEST(Flash, CrossAttentionOfDifferentLengths) {
  for_block_sizes(random_flash(37, 53, 8, 5, 2), [](FlashArgs&) {});
  for_block_sizes(random_flash(53, 37, 8, 5, 3), [](FlashArgs& a) { a.causal = true; });
}

TEST(Flash, Causal) {
  for_block_sizes(random_flash(70, 70, 16, 8, 4), [](FlashArgs& a) { a.causal = true; });
}

TEST(Flash, KeyPadding) {
  for_block_sizes(random_flash(40, 70, 16, 8, 5), [](FlashArgs& a) {
    a.key_padding.assign(70, false);
    for (int j = 50; j < 70; j++) a.key_padding[j] = true;  // a padded tail, as in a batch
    a.key_padding[3] = a.key_padding[17] = true;
  });
}

TEST(Flash, SlidingWindow) {
  for (int w : {0, 1, 5, 16, 100}) {
    SCOPED_TRACE("window " + std::to_string(w));
    for_block_sizes(random_flash(70, 70, 16, 8, 6), [w](FlashArgs& a) { a.window = w; });
    for_block_sizes(random_flash(70, 70, 16, 8, 7), [w](FlashArgs& a) {
      a.window = w;
      a.causal = true;
    });
  }
}

TEST(Flash, Strided) {
  for (int s : {1, 2, 7, 16, 80}) {
    SCOPED_TRACE("stride " + std::to_string(s));
    for_block_sizes(random_flash(70, 70, 16, 8, 8), [s](FlashArgs& a) { a.stride = s; });
    for_block_sizes(random_flash(70, 90, 16, 8, 9), [s](FlashArgs& a) {
      a.stride = s;
      a.causal = true;
    });
  }
}

TEST(Flash, EveryRuleTogether) {
  for_block_sizes(random_flash(64, 64, 32, 16, 10), [](FlashArgs& a) {
    a.causal = true;
    a.window = 9;
    a.key_padding.assign(64, false);
    for (int j = 0; j < 64; j += 5) a.key_padding[j] = true;
  });
}

TEST(Flash, HeadSizeSixtyFourAtSeveralHundredTokens) {
  FlashArgs a = random_flash(300, 300, 64, 64, 11, 1);
  a.block_size = 64;
  expect_flash_exact(a);
  a.causal = true;
  expect_flash_exact(a);
  a.causal = false;
  a.window = 40;
  expect_flash_exact(a);
  a.window = -1;
  a.stride = 17;
  expect_flash_exact(a);
}

// The running max keeps exp in range: scores in the hundreds, where exp(s) alone overflows.
TEST(Flash, LargeScoresStayFinite) {
  FlashArgs a = random_flash(50, 50, 16, 4, 12, 12);  // |q·k| / 4 up to ~500
  for (int b : {4, 16}) {
    a.block_size = b;
    expect_flash_exact(a, 1e-4);  // weights near one-hot: the score rounding shows
    FlashResult r = attn::flash_attend(a);
    for (float x : r.output.data) EXPECT_TRUE(std::isfinite(x));
  }
}

// A row whose every key is blocked: the engine's rule, zero output and entropy 0, listed.
TEST(Flash, FullyBlockedRowsGiveZerosAndAreListed) {
  FlashArgs a = random_flash(6, 6, 4, 3, 13);
  a.causal = true;
  a.key_padding = {true, true, false, false, true, false};  // rows 0 and 1 see only padding
  for (int b : {1, 2, 4, 8}) {
    a.block_size = b;
    FlashResult r = attn::flash_attend(a);
    EXPECT_EQ(r.fully_masked_rows, (std::vector<int>{0, 1}));
    for (int i : {0, 1}) {
      for (int c = 0; c < 3; c++) EXPECT_EQ(r.output.at(i, c), 0.0f);
      EXPECT_EQ(r.entropy[i], 0.0f);
    }
    expect_flash_exact(a);
  }
  FlashArgs all = random_flash(3, 4, 4, 2, 14);
  all.key_padding.assign(4, true);
  EXPECT_EQ(attn::flash_attend(all).fully_masked_rows, (std::vector<int>{0, 1, 2}));
}

TEST(Flash, WindowWiderThanTheSequenceIsFullAttention) {
  FlashArgs a = random_flash(20, 20, 8, 4, 15);
  a.block_size = 8;
  FlashResult full = attn::flash_attend(a);
  a.window = 19;
  FlashResult wide = attn::flash_attend(a);
  EXPECT_EQ(full.output.data, wide.output.data);
}

// A slice of the query rows with query_offset gives the same rows as the whole run: bit for
// bit when the slice starts on a block boundary (the same tiles), within rounding otherwise.
TEST(Flash, QuerySliceWithOffsetGivesTheSameRows) {
  FlashArgs whole = random_flash(96, 96, 16, 8, 21);
  whole.block_size = 16;
  for (int pattern = 0; pattern < 3; pattern++) {
    whole.causal = pattern == 0;
    whole.window = pattern == 1 ? 11 : -1;
    whole.stride = pattern == 2 ? 5 : 0;
    FlashResult all = attn::flash_attend(whole);
    for (int first : {32, 48, 13}) {
      SCOPED_TRACE("pattern " + std::to_string(pattern) + ", first row " + std::to_string(first));
      FlashArgs part = whole;
      part.query = Matrix(96 - first, 16);
      std::copy(whole.query.row(first), whole.query.row(96), part.query.data.begin());
      part.query_offset = first;
      expect_flash_exact(part);
      FlashResult got = attn::flash_attend(part);
      for (int r = 0; r < part.query.rows; r++)
        for (int c = 0; c < 8; c++) {
          if (first % 16 == 0)
            EXPECT_EQ(got.output.at(r, c), all.output.at(first + r, c));
          else
            EXPECT_NEAR(got.output.at(r, c), all.output.at(first + r, c), 1e-5);
        }
    }
  }
}

// ---- the trace: every block's max, rescale factor and sum, from the double reference -------

TEST(FlashTrace, RunningMaxAndSumBlockByBlock) {
  FlashArgs a = random_flash(10, 12, 8, 3, 16);
  a.causal = true;
  a.block_size = 4;
  ASSERT_EQ(attn::check_flash(a, attn::limits::kMaxTraceTokens), "");
  attn::FlashTrace t = attn::flash_trace(a);
  EXPECT_EQ(t.blocks, 3);
  EXPECT_EQ(t.result.output.data, attn::flash_attend(a).output.data);

  ref::Mat q = ref::from(a.query), k = ref::from(a.key);
  ref::Mat s = ref::divide(ref::dot_scores(q, k), std::sqrt(8.0));
  for (int i = 0; i < 10; i++) {
    double m = -ref::kInf, l = 0;
    for (int c = 0; c < 3; c++) {
      SCOPED_TRACE("row " + std::to_string(i) + ", block " + std::to_string(c));
      double bm = -ref::kInf;
      for (int j = 4 * c; j < 4 * c + 4; j++) {
        if (j <= i) {
          bm = std::max(bm, s[i][j]);
          EXPECT_NEAR(t.scores.at(i, j), s[i][j], 1e-5);
        } else {
          EXPECT_EQ(t.scores.at(i, j), -INFINITY);
        }
      }
      double m_new = std::max(m, bm);
      double rescale = l > 0 ? std::exp(m - m_new) : (bm == -ref::kInf ? 1.0 : 0.0);
      double sum = 0;
      for (int j = 4 * c; j < 4 * c + 4 && j <= i; j++) sum += std::exp(s[i][j] - m_new);
      if (bm != -ref::kInf) {
        l = rescale * l + sum;
        m = m_new;
      }
      if (bm != -ref::kInf)
        EXPECT_NEAR(t.block_max.at(c, i), bm, 1e-5);
      else
        EXPECT_EQ(t.block_max.at(c, i), -INFINITY);
      if (m != -ref::kInf)
        EXPECT_NEAR(t.running_max.at(c, i), m, 1e-5);
      else
        EXPECT_EQ(t.running_max.at(c, i), -INFINITY);
      EXPECT_NEAR(t.rescale.at(c, i), rescale, 1e-5);
      EXPECT_NEAR(t.running_sum.at(c, i), l, 1e-5 * std::max(1.0, l));
      // causal, blocks of 4: query block 0 (rows 0-3) skips key blocks 1 and 2 whole
      bool skipped = 4 * c > (i / 4) * 4 + 3;
      EXPECT_EQ(t.skipped.at(c, i), skipped ? 1.0f : 0.0f);
    }
  }
}

// ---- finite in, finite out ------------------------------------------------------------------

// The cases: q = k = [[1e19] x 4] makes q·k = 4e38 (attend refuses it), and values of
// 3e38 summed over two keys pass float32 before the division by the row sum.
TEST(FlashRange, ProductsPastFloat32AreRefusedAsAttendRefusesThem) {
  FlashArgs a;
  a.query = Matrix(1, 4, 1e19f);
  a.key = Matrix(1, 4, 1e19f);
  a.value = Matrix(1, 1, 1.0f);
  EXPECT_EQ(attn::check_flash(a),
            "query: q·k overflows float32 at query 0, key 0 (expected |q| |k| below 3.4e+38 for "
            "every query and key row)");
  EXPECT_EQ(attn::check_flash(a, attn::limits::kMaxTraceTokens), attn::check_flash(a));
  // attend says the same of the same arguments
  attn::AttendArgs naive;
  naive.query = a.query;
  naive.key = a.key;
  naive.value = a.value;
  ASSERT_EQ(attn::check_attend(naive), "");
  EXPECT_EQ(attn::attend(naive).error, attn::check_flash(a));
}

TEST(FlashRange, ValuesWhoseUnnormalisedSumOverflowsAreRefused) {
  FlashArgs a;
  a.query = Matrix(1, 2, 0.0f);
  a.key = Matrix(2, 2, 0.0f);
  a.value = Matrix(2, 2, 3e38f);
  EXPECT_EQ(attn::check_flash(a),
            "value: the tiled weighted sum overflows float32 (expected |value| entries below "
            "3.4e+38 / n_k = 1.68e+38 for 2 keys, got 3e+38)");
}

TEST(FlashRange, ScoresTooFarApartForTheOnlineSoftmaxAreRefused) {
  FlashArgs a;  // d_k = 1: q·k = ±1e36, differences of 2e36 times a running sum of 1000 keys
  a.query = Matrix(1, 1, 1e18f);
  a.key = Matrix(1000, 1, 1e18f);
  for (int j = 0; j < 1000; j += 2) a.key.at(j, 0) = -1e18f;
  a.value = Matrix(1000, 1, 1.0f);
  EXPECT_EQ(attn::check_flash(a),
            "query: q·k / sqrt(d_k) is too large for the online softmax at query 0, key 0 "
            "(expected |q| |k| / sqrt(d_k) below 3.4e+38 / (2 n_k) = 1.69e+35 for 1000 keys)");
}

// Just inside every bound the tiled pipeline is finite, and matches the double reference where
// the weights are not one-hot (equal scores: the output is the mean of the values).
TEST(FlashRange, JustInsideTheBoundsEveryResultIsFinite) {
  const int n = 40;
  for (int b : {1, 7, 64}) {
    FlashArgs a;
    a.block_size = b;
    // |q| |k| / sqrt(d_k) = (1.69e+38 / n) / 1.01 per score, alternating signs
    const float x = static_cast<float>(std::sqrt(3.4e38 / (2.0 * n) / 1.01));
    a.query = Matrix(n, 1, x);
    a.key = Matrix(n, 1, x);
    for (int j = 0; j < n; j += 3) a.key.at(j, 0) = -x;
    a.value = Matrix(n, 2, static_cast<float>(3.4e38 / n / 1.02));
    ASSERT_EQ(attn::check_flash(a), "") << "blockSize " << b;
    FlashResult r = attn::flash_attend(a);
    for (float v : r.output.data) EXPECT_TRUE(std::isfinite(v)) << "blockSize " << b;
    for (float e : r.entropy) EXPECT_TRUE(std::isfinite(e)) << "blockSize " << b;
    attn::FlashTrace t = attn::flash_trace(a);
    for (float v : t.result.output.data) EXPECT_TRUE(std::isfinite(v)) << "blockSize " << b;
    for (float v : t.running_sum.data) EXPECT_TRUE(std::isfinite(v)) << "blockSize " << b;
  }
  FlashArgs mean;  // every score equal and large: the output is the values' mean
  mean.query = Matrix(3, 4, 1e18f);
  mean.key = Matrix(5, 4, 1e18f);
  mean.value = ref::random_matrix(5, 2, 31, -1e37, 1e37);
  ASSERT_EQ(attn::check_flash(mean), "");
  FlashResult r = attn::flash_attend(mean);
  for (int i = 0; i < 3; i++)
    for (int c = 0; c < 2; c++) {
      double want = 0;
      for (int j = 0; j < 5; j++) want += mean.value.at(j, c) / 5.0;
      EXPECT_NEAR(r.output.at(i, c), want, 1e-5 * 1e37);
    }
}

// ---- validation -------------------------------------------------------------------------------

TEST(FlashCheck, MessagesNameTheArgument) {
  FlashArgs a = random_flash(4, 5, 3, 2, 17);
  EXPECT_EQ(attn::check_flash(a), "");
  FlashArgs b = a;
  b.key = ref::random_matrix(5, 4, 18);
  EXPECT_EQ(attn::check_flash(b),
            "key: expected 3 columns (d_k must equal the query's d_q), got 4");
  b = a;
  b.value = ref::random_matrix(4, 2, 19);
  EXPECT_EQ(attn::check_flash(b), "value: expected 5 rows (one per key), got 4");
  b = a;
  b.key_padding = {true};
  EXPECT_EQ(attn::check_flash(b), "keyPadding: expected 5 flags (one per key), got 1");
  b = a;
  b.window = 3;
  b.stride = 2;
  EXPECT_EQ(attn::check_flash(b),
            "stride: cannot be combined with window (pick one sparse pattern)");
  b = a;
  b.query_offset = -1;
  EXPECT_EQ(attn::check_flash(b), "queryOffset: expected an integer from 0 to 16384, got -1");
  b = a;
  b.block_size = 0;
  EXPECT_EQ(attn::check_flash(b), "blockSize: expected an integer from 1 to 256, got 0");
  b = a;
  b.query.at(1, 2) = NAN;
  EXPECT_EQ(attn::check_flash(b), "query: row 1, column 2 is NaN (expected finite numbers)");
  b = random_flash(65, 65, 2, 2, 20);
  EXPECT_EQ(attn::check_flash(b, attn::limits::kMaxTraceTokens),
            "query: expected 1 to 64 rows, got 65");
}

}  // namespace
