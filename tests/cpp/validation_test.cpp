// Every bad input gets a message naming the argument and the expectation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/attention.h"
#include "core/experiments.h"
#include "core/flash.h"
#include "core/multihead.h"
#include "core/positional.h"
#include "core/saturation.h"
#include "core/seq2seq_trainer.h"
#include "core/softmax.h"
#include "reference.h"

namespace {

using attn::AttendArgs;
using attn::Matrix;
using attn::MultiHeadArgs;
using attn::ScoreKind;
constexpr float kInf = std::numeric_limits<float>::infinity();

AttendArgs good_attend() {
  AttendArgs a;
  a.query = ref::random_matrix(3, 4, 1);
  a.key = ref::random_matrix(5, 4, 2);
  a.value = ref::random_matrix(5, 2, 3);
  return a;
}

// A matrix that claims a size without holding its numbers (nothing is allocated).
Matrix claimed(int rows, int cols) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  return m;
}

TEST(Validation, GoodArgumentsPass) {
  AttendArgs a = good_attend();
  EXPECT_EQ(attn::check_attend(a), "");
  a.causal = true;
  a.key_padding = {false, true, false, false, false};
  a.mask = Matrix(3, 5, 1.0f);
  a.mask.at(0, 0) = 0.0f;
  a.temperature = 0.1f;
  EXPECT_EQ(attn::check_attend(a), "");
}

TEST(Validation, EmptySequences) {
  AttendArgs a = good_attend();
  a.query = Matrix(0, 4);
  EXPECT_EQ(attn::check_attend(a),
            "query: expected 1 to 2048 rows (engine.limits.maxTokens), got 0");
  a = good_attend();
  a.key = Matrix();
  EXPECT_EQ(attn::check_attend(a), "key: expected 1 to 2048 rows (engine.limits.maxTokens), got 0");
  a = good_attend();
  a.value = Matrix(5, 0);
  EXPECT_EQ(attn::check_attend(a),
            "value: expected 1 to 1024 columns (engine.limits.maxDim), got 0");
}

TEST(Validation, OverTheLimits) {
  AttendArgs a = good_attend();
  a.query = claimed(2049, 4);
  EXPECT_EQ(attn::check_attend(a),
            "query: expected 1 to 2048 rows (engine.limits.maxTokens), got 2049");
  a = good_attend();
  a.key = claimed(5, 1025);
  EXPECT_EQ(attn::check_attend(a),
            "key: expected 1 to 1024 columns (engine.limits.maxDim), got 1025");
  a = good_attend();
  a.value = claimed(-1, 2);
  EXPECT_EQ(attn::check_attend(a),
            "value: expected 1 to 2048 rows (engine.limits.maxTokens), got -1");
}

TEST(Validation, DataLengthMustMatchTheShape) {
  AttendArgs a = good_attend();
  a.query.data.pop_back();
  EXPECT_EQ(attn::check_attend(a), "query: expected 12 numbers for 3 rows x 4 columns, got 11");
}

TEST(Validation, ShapeMismatch) {
  AttendArgs a = good_attend();
  a.key = ref::random_matrix(5, 3, 4);
  EXPECT_EQ(attn::check_attend(a),
            "key: expected 4 columns (d_k must equal the query's d_q for scaled-dot), got 3");
  a.score = ScoreKind::Dot;
  EXPECT_EQ(attn::check_attend(a),
            "key: expected 4 columns (d_k must equal the query's d_q for dot), got 3");
  a = good_attend();
  a.value = ref::random_matrix(4, 2, 5);
  EXPECT_EQ(attn::check_attend(a), "value: expected 5 rows (one per key), got 4");
}

TEST(Validation, NaNAndInfinity) {
  AttendArgs a = good_attend();
  a.value.at(2, 1) = std::nanf("");
  EXPECT_EQ(attn::check_attend(a), "value: row 2, column 1 is NaN (expected finite numbers)");
  a = good_attend();
  a.query.at(0, 3) = kInf;
  EXPECT_EQ(attn::check_attend(a), "query: row 0, column 3 is Infinity (expected finite numbers)");
  a = good_attend();
  a.key.at(4, 0) = -kInf;
  EXPECT_EQ(attn::check_attend(a), "key: row 4, column 0 is -Infinity (expected finite numbers)");
}

TEST(Validation, Temperature) {
  AttendArgs a = good_attend();
  a.temperature = 0.0f;
  EXPECT_EQ(attn::check_attend(a), "temperature: expected a number from 1e-30 to 1e+30, got 0");
  a.temperature = -0.5f;
  EXPECT_EQ(attn::check_attend(a), "temperature: expected a number from 1e-30 to 1e+30, got -0.5");
  a.temperature = std::nanf("");
  EXPECT_EQ(attn::check_attend(a), "temperature: expected a number from 1e-30 to 1e+30, got NaN");
  a.temperature = kInf;
  EXPECT_EQ(attn::check_attend(a),
            "temperature: expected a number from 1e-30 to 1e+30, got Infinity");
}

TEST(Validation, MaskValuesAndShape) {
  AttendArgs a = good_attend();
  a.mask = Matrix(3, 5, 1.0f);
  a.mask.at(0, 2) = 0.5f;
  EXPECT_EQ(attn::check_attend(a),
            "mask: row 0, column 2 is 0.5 (expected 0 = blocked or 1 = may attend)");
  a.mask.at(0, 2) = std::nanf("");
  EXPECT_EQ(attn::check_attend(a),
            "mask: row 0, column 2 is NaN (expected 0 = blocked or 1 = may attend)");
  a.mask = Matrix(5, 3, 1.0f);
  EXPECT_EQ(attn::check_attend(a), "mask: expected shape (n_q, n_k) = (3, 5), got (5, 3)");
  a.mask = claimed(3, 5);
  EXPECT_EQ(attn::check_attend(a), "mask: expected 15 numbers for 3 rows x 5 columns, got 0");
  a.mask = Matrix();
  a.key_padding = {true, false};
  EXPECT_EQ(attn::check_attend(a), "keyPadding: expected 5 flags (one per key, n_k), got 2");
}

TEST(Validation, UnknownOptions) {
  AttendArgs a = good_attend();
  a.score = static_cast<ScoreKind>(7);
  EXPECT_EQ(attn::check_attend(a),
            "score: expected one of 'dot', 'scaled-dot', 'additive', 'general', got 7");
  a = good_attend();
  a.mask_fill = static_cast<attn::MaskFill>(-1);
  EXPECT_EQ(attn::check_attend(a),
            "maskFill: expected one of 'neg-inf', 'large-negative', 'zero', got -1");
}

TEST(Validation, AdditiveWeights) {
  AttendArgs a = good_attend();
  a.key = ref::random_matrix(5, 6, 6);  // d_k = 6 differs from d_q = 4: fine for additive
  a.score = ScoreKind::Additive;
  EXPECT_EQ(attn::check_attend(a), "additive: required when score is 'additive' ({ Wq, Wk, v })");
  a.additive_wq = ref::random_matrix(8, 4, 7);
  a.additive_wk = ref::random_matrix(8, 4, 8);
  a.additive_v = ref::random_matrix(1, 8, 9);
  EXPECT_EQ(attn::check_attend(a), "additive.Wk: expected shape (h, d_k) = (8, 6), got (8, 4)");
  a.additive_wk = ref::random_matrix(8, 6, 10);
  EXPECT_EQ(attn::check_attend(a), "");
  a.additive_v = ref::random_matrix(1, 7, 11);
  EXPECT_EQ(attn::check_attend(a), "additive.v: expected shape (1, h) = (1, 8), got (1, 7)");
  a.additive_v = ref::random_matrix(1, 8, 11);
  a.additive_wq = ref::random_matrix(8, 3, 12);
  EXPECT_EQ(attn::check_attend(a), "additive.Wq: expected shape (h, d_q) = (8, 4), got (8, 3)");
}

TEST(Validation, AdditiveWorkLimit) {
  AttendArgs a;
  a.query = Matrix(1024, 1);
  a.key = Matrix(1024, 1);
  a.value = Matrix(1024, 1);
  a.score = ScoreKind::Additive;
  a.additive_wq = Matrix(65, 1);
  a.additive_wk = Matrix(65, 1);
  a.additive_v = Matrix(1, 65);
  EXPECT_EQ(attn::check_attend(a),
            "additive.Wq: n_q * n_k * h = 68157440 is more than 67108864 (the additive score's "
            "work limit)");
  a.additive_wq = Matrix(64, 1);
  a.additive_wk = Matrix(64, 1);
  a.additive_v = Matrix(1, 64);
  EXPECT_EQ(attn::check_attend(a), "");
}

TEST(Validation, GeneralWeight) {
  AttendArgs a = good_attend();
  a.score = ScoreKind::General;
  a.general_w = ref::random_matrix(4, 3, 13);
  EXPECT_EQ(attn::check_attend(a), "general.W: expected shape (d_q, d_k) = (4, 4), got (4, 3)");
  a.general_w = ref::random_matrix(4, 4, 13);
  a.general_w.at(1, 1) = std::nanf("");
  EXPECT_EQ(attn::check_attend(a), "general.W: row 1, column 1 is NaN (expected finite numbers)");
}

// ---- multi-head -----------------------------------------------------------------------------

MultiHeadArgs good_mha() {
  MultiHeadArgs a;
  a.query = ref::random_matrix(3, 8, 20);
  a.key = ref::random_matrix(4, 6, 21);
  a.value = ref::random_matrix(4, 5, 22);
  a.heads = 2;
  a.wq = ref::random_matrix(8, 8, 23);
  a.wk = ref::random_matrix(8, 6, 24);
  a.wv = ref::random_matrix(8, 5, 25);
  a.wo = ref::random_matrix(8, 8, 26);
  return a;
}

TEST(Validation, MultiHeadGoodArgumentsPass) {
  MultiHeadArgs a = good_mha();
  EXPECT_EQ(attn::check_multi_head(a), "");
  a.bq = a.bk = a.bv = a.bo = Matrix(1, 8, 0.1f);
  a.causal = true;
  a.key_padding = {false, false, false, true};
  EXPECT_EQ(attn::check_multi_head(a), "");
}

TEST(Validation, Heads) {
  MultiHeadArgs a = good_mha();
  a.query = ref::random_matrix(3, 10, 27);
  a.heads = 3;
  EXPECT_EQ(attn::check_multi_head(a),
            "heads: d_model = 10 (columns of query) is not divisible by 3 heads");
  a = good_mha();
  a.heads = 0;
  EXPECT_EQ(attn::check_multi_head(a), "heads: expected an integer from 1 to 64, got 0");
  a.heads = -2;
  EXPECT_EQ(attn::check_multi_head(a), "heads: expected an integer from 1 to 64, got -2");
  a.heads = 65;
  EXPECT_EQ(attn::check_multi_head(a), "heads: expected an integer from 1 to 64, got 65");
}

TEST(Validation, MultiHeadMemoryLimit) {
  MultiHeadArgs a = good_mha();
  a.heads = 64;
  a.query = Matrix(2048, 64);  // 64 heads of 2048 x 2048 would not fit in memory
  a.key = Matrix(2048, 6);
  a.value = Matrix(2048, 5);
  EXPECT_EQ(attn::check_multi_head(a), "heads: heads * n_q * n_k = 268435456 is more than " +
                                           std::to_string(attn::limits::kMaxHeadCells) +
                                           " (engine.limits.maxHeadCells)");
}

TEST(Validation, MultiHeadWeightsAndBiases) {
  MultiHeadArgs a = good_mha();
  a.wk = ref::random_matrix(8, 8, 28);
  EXPECT_EQ(attn::check_multi_head(a), "Wk: expected shape (d_model, kdim) = (8, 6), got (8, 8)");
  a = good_mha();
  a.wo = Matrix();
  EXPECT_EQ(attn::check_multi_head(a), "Wo: expected 1 to 1024 rows (engine.limits.maxDim), got 0");
  a = good_mha();
  a.wv.at(3, 3) = kInf;
  EXPECT_EQ(attn::check_multi_head(a), "Wv: row 3, column 3 is Infinity (expected finite numbers)");
  a = good_mha();
  a.bk = Matrix(1, 6, 0.0f);
  EXPECT_EQ(attn::check_multi_head(a), "bk: expected shape (1, d_model) = (1, 8), got (1, 6)");
  a = good_mha();
  a.value = ref::random_matrix(3, 5, 29);
  EXPECT_EQ(attn::check_multi_head(a), "value: expected 4 rows (one per key), got 3");
  a = good_mha();
  a.query = Matrix(0, 8);
  EXPECT_EQ(attn::check_multi_head(a),
            "query: expected 1 to 2048 rows (engine.limits.maxTokens), got 0");
  a = good_mha();
  a.mask = Matrix(3, 4, 2.0f);
  EXPECT_EQ(attn::check_multi_head(a),
            "mask: row 0, column 0 is 2 (expected 0 = blocked or 1 = may attend)");
}

// ---- the other entry points -----------------------------------------------------------------

TEST(Validation, SoftmaxInputs) {
  Matrix s(2, 3, 1.0f);
  EXPECT_EQ(attn::check_scores("scores", s), "");
  s.at(0, 1) = -kInf;  // a blocked cell is fine
  EXPECT_EQ(attn::check_scores("scores", s), "");
  s.at(1, 2) = kInf;
  EXPECT_EQ(attn::check_scores("scores", s),
            "scores: row 1, column 2 is Infinity (expected finite numbers or -Infinity)");
  EXPECT_EQ(attn::check_scores("scores", Matrix(0, 3)),
            "scores: expected 1 to 2048 rows (engine.limits.maxTokens), got 0");
  EXPECT_EQ(attn::check_temperature("tau", 0.0f),
            "tau: expected a number from 1e-30 to 1e+30, got 0");
  EXPECT_EQ(attn::check_temperature("tau", 0.3f), "");
  EXPECT_EQ(attn::check_jacobian({}), "p: expected 1 to 2048 numbers, got 0");
  EXPECT_EQ(attn::check_jacobian({0.5f, std::nanf("")}),
            "p: entry 1 is NaN (expected finite numbers)");
  EXPECT_EQ(attn::check_jacobian({0.5f, 0.5f}), "");
}

TEST(Validation, PositionalInputs) {
  EXPECT_EQ(attn::check_sinusoidal(10, 7, 10000.0f), "");
  EXPECT_EQ(attn::check_sinusoidal(0, 8, 10000.0f), "n: expected an integer from 1 to 2048, got 0");
  EXPECT_EQ(attn::check_sinusoidal(4, 1025, 10000.0f),
            "d: expected an integer from 1 to 1024, got 1025");
  EXPECT_EQ(attn::check_sinusoidal(4, 8, -1.0f),
            "base: expected a number from 1e-30 to 1e+30, got -1");
  Matrix x = ref::random_matrix(3, 5, 30);
  EXPECT_EQ(attn::check_rope(x, 0, 10000.0f),
            "x: expected an even number of columns (RoPE rotates pairs), got 5");
  x = ref::random_matrix(3, 6, 31);
  EXPECT_EQ(attn::check_rope(x, 0, 10000.0f), "");
  EXPECT_EQ(attn::check_rope(x, -1, 10000.0f),
            "first: expected an integer from 0 to 1000000, got -1");
  x.at(2, 5) = std::nanf("");
  EXPECT_EQ(attn::check_rope(x, 0, 10000.0f),
            "x: row 2, column 5 is NaN (expected finite numbers)");
}

TEST(Validation, CheckShape) {
  EXPECT_EQ(attn::check_shape("W", Matrix(2, 3), 2, 3), "");
  EXPECT_EQ(attn::check_shape("W", Matrix(2, 3), 3, 2), "W: expected shape (3, 2), got (2, 3)");
}

}  // namespace

TEST(Validation, LinearChecksEveryArgument) {
  Matrix x = ref::random_matrix(3, 4, 1);
  Matrix w = ref::random_matrix(2, 4, 2);
  Matrix b(1, 2, 0.5f);
  EXPECT_EQ(attn::check_linear(x, w, b), "");
  EXPECT_EQ(attn::check_linear(x, w, Matrix()), "");
  b.at(0, 1) = std::nanf("");
  EXPECT_EQ(attn::check_linear(x, w, b), "b: row 0, column 1 is NaN (expected finite numbers)");
  EXPECT_NE(attn::check_linear(x, w, Matrix(1, 3)).find("b: expected shape"), std::string::npos);
  EXPECT_NE(attn::check_linear(x, ref::random_matrix(2, 5, 3), Matrix()).find("W: expected shape"),
            std::string::npos);
}

// ---- the argument contract (core/check.h) ---------------------------------------------------

TEST(Contract, ChoiceNamesInTheirOrder) {
  EXPECT_EQ(attn::kScoreOption.list(), "'dot', 'scaled-dot', 'additive', 'general'");
  EXPECT_EQ(attn::kMaskFillOption.list(), "'neg-inf', 'large-negative', 'zero'");
  attn::MaskFill fill = attn::MaskFill::NegInf;
  EXPECT_TRUE(attn::kMaskFillOption.parse("zero", &fill));
  EXPECT_EQ(fill, attn::MaskFill::Zero);
  EXPECT_FALSE(attn::kMaskFillOption.parse("Zero", &fill));
  EXPECT_EQ(attn::kMaskFillOption.error("'Zero'"),
            "maskFill: expected one of 'neg-inf', 'large-negative', 'zero', got 'Zero'");
}

TEST(Contract, NumbersQuoteFaithfully) {
  EXPECT_EQ(attn::format_number(1e300), "1e+300");
  EXPECT_EQ(attn::format_number(1e-300), "1e-300");
  EXPECT_EQ(attn::format_number(0.5), "0.5");
  EXPECT_EQ(attn::format_number(-3), "-3");
  EXPECT_EQ(attn::format_number(268435456), "268435456");
  EXPECT_EQ(attn::format_number(1e-7), "1e-7");
  EXPECT_EQ(attn::format_number(0.1), "0.1");
  EXPECT_EQ(attn::format_number(1e20), "100000000000000000000");  // as JavaScript prints it
  EXPECT_EQ(attn::format_float(1e20f), "1e+20");                  // a float32 entry
  EXPECT_EQ(attn::format_float(0.1f), "0.1");
  EXPECT_EQ(attn::format_float(3.0f), "3");
  EXPECT_EQ(attn::format_number(std::nan("")), "NaN");
  EXPECT_EQ(attn::format_number(-kInf), "-Infinity");
}

TEST(Contract, NumberOptions) {
  EXPECT_EQ(attn::check_number(attn::kTemperature, 0.5), "");
  EXPECT_EQ(attn::check_number(attn::kTemperature, 1e-37),
            "temperature: expected a number from 1e-30 to 1e+30, got 1e-37");
  EXPECT_EQ(attn::check_number(attn::kSeed, 4294967295.0), "");
  EXPECT_EQ(attn::check_number(attn::kSeed, 4294967296.0),
            "seed: expected a non-negative integer below 2^32 (seeds are uint32), got 4294967296");
  EXPECT_EQ(attn::check_number(attn::kHeads, 2.5),
            "heads: expected an integer from 1 to 64, got 2.5");
  EXPECT_EQ(attn::check_random_matrix(2, 2, 1, 0, 1e300),
            "scale: expected a number from -1e+30 to 1e+30, got 1e+300");
  EXPECT_EQ(attn::check_random_matrix(2, 0, 1, 0, 1),
            "cols: expected an integer from 1 to 2048, got 0");
  EXPECT_EQ(attn::check_random_matrix(2, 3, 1, 0, -2), "");
  EXPECT_EQ(attn::check_random_streams(2, {0, 4294967295.0}), "");
  EXPECT_EQ(attn::check_random_streams(3, {1, 2}),
            "streams: expected one stream per row (3), got 2");
  EXPECT_EQ(attn::check_random_streams(3, {1, 2, 2.5}),
            "streams[2]: expected a non-negative integer below 2^32 (seeds are uint32), got 2.5");
}

// Each integer option's message states the range its table holds, both ends are accepted and
// one past either end (or a fraction) is refused with that message; an absent option's fallback
// is a value of the range, or the core's "none" outside it (window -1, stride 0, the bug's
// dModel 0: unset, needed only by scale-by-d-model).
TEST(Contract, EveryIntegerOptionSaysItsOwnRange) {
  const attn::NumberOption options[] = {
      attn::kHeads,
      attn::kRows,
      attn::kCols,
      attn::kPositions,
      attn::kDims,
      attn::kFirstPosition,
      attn::kDk,
      attn::kSamples,
      attn::kBins,
      attn::kBugDModel,
      attn::kFirstSample,
      attn::kSample,
      attn::kRunFirstSample,
      attn::kStepSamples,
      attn::kASamples,
      attn::kBSamples,
      attn::kProbeKeys,
      attn::kTrial,
      attn::kGumbelSamples,
      attn::kSweepKeys,
      attn::kTrials,
      attn::kWindow,
      attn::kStride,
      attn::kBlockSize,
      attn::kQueryOffset,
      attn::kTrainHeads,
      attn::kDModel,
      attn::kBatch,
      attn::kSteps,
      attn::kSeq2SeqHidden,
      attn::kSeq2SeqEmbed,
      attn::kSeq2SeqLength,
      attn::kSeq2SeqSteps,
  };
  for (const attn::NumberOption& o : options) {
    SCOPED_TRACE(o.name);
    ASSERT_TRUE(o.integer);
    // the message's range is the option's own (no prose that could say another)
    EXPECT_EQ(o.what, nullptr);
    const std::string range =
        "an integer from " + attn::format_number(o.min) + " to " + attn::format_number(o.max);
    EXPECT_EQ(attn::expectation(o), range);
    EXPECT_EQ(attn::check_number(o, o.min), "");
    EXPECT_EQ(attn::check_number(o, o.max), "");
    for (double bad : {o.min - 1, o.max + 1, o.min + 0.5}) {
      EXPECT_EQ(attn::check_number(o, bad),
                std::string(o.name) + ": expected " + range + ", got " + attn::format_number(bad));
    }
    if (std::isnan(o.fallback)) continue;  // required
    const bool none = (o.name == std::string("window") && o.fallback == -1) ||
                      (o.name == std::string("stride") && o.fallback == 0) ||
                      (o.name == std::string("dModel") && o.fallback == 0);  // the bug: unset
    EXPECT_TRUE(none || attn::check_number(o, o.fallback).empty()) << o.fallback;
  }
  // the seed's range is the stream's, and uint32's
  EXPECT_EQ(attn::kSeed.max, 4294967295.0);
  EXPECT_EQ(attn::kStream.max, attn::kSeed.max);
  EXPECT_EQ(std::string(attn::kStream.what), attn::kSeed.what);
  // a probe's tau: any positive number here (check_temperature names float32's range after)
  EXPECT_EQ(attn::check_number(attn::kProbeTau, 1e-300), "");
  EXPECT_EQ(attn::check_number(attn::kProbeTau, 0), "tau: expected a finite number > 0, got 0");
  EXPECT_EQ(attn::check_number(attn::kProbeTau, -kInf),
            "tau: expected a finite number > 0, got -Infinity");
}

// The defaults of the core's argument structs are the tables' fallbacks.
TEST(Contract, ArgumentStructsStartAtTheFallbacks) {
  attn::QueryProbeArgs probe;
  EXPECT_EQ(probe.dk, attn::kDk.fallback);
  EXPECT_EQ(probe.n_keys, attn::kProbeKeys.fallback);
  EXPECT_EQ(probe.trial, attn::kTrial.fallback);
  EXPECT_EQ(probe.tau, attn::kProbeTau.fallback);
  EXPECT_EQ(probe.gumbel_samples, attn::kGumbelSamples.fallback);
  attn::FlashArgs flash;
  EXPECT_EQ(flash.window, attn::kWindow.fallback);
  EXPECT_EQ(flash.stride, attn::kStride.fallback);
  EXPECT_EQ(flash.block_size, attn::kBlockSize.fallback);
  EXPECT_EQ(flash.query_offset, attn::kQueryOffset.fallback);
  attn::Seq2SeqConfig s;
  EXPECT_EQ(s.max_length, attn::kSeq2SeqLength.fallback);
  EXPECT_EQ(s.attention, attn::kAttentionOption.fallback);
  EXPECT_STREQ(attn::kAttentionOption.name_of(s.attention), "additive");
  EXPECT_STREQ(attn::kScoreOption.name_of(attn::kScoreOption.fallback), "scaled-dot");
  EXPECT_STREQ(attn::kMaskFillOption.name_of(attn::kMaskFillOption.fallback), "neg-inf");
}

TEST(Contract, MatrixSizesBeforeAllocating) {
  const attn::MatrixOption* q = attn::matrix_option("query");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(attn::check_size(*q, 4294967295.0, 3, 1),
            "query: expected 1 to 2048 rows (engine.limits.maxTokens), got 4294967295");
  EXPECT_EQ(attn::check_size(*q, 2, 3, 5),
            "query: expected 6 numbers for 2 rows x 3 columns, got 5");
  EXPECT_EQ(attn::check_size(*q, 2, 3, 6), "");
  EXPECT_EQ(attn::matrix_option("nonsense"), nullptr);
}

// ---- results that would leave float32 -------------------------------------------------------

TEST(Overflow, QueryKeyProductsPastFloat32AreRejected) {
  AttendArgs a = good_attend();
  a.query.at(0, 0) = 1e20f;
  a.key.at(1, 0) = 1e20f;
  ASSERT_EQ(attn::check_attend(a), "");
  attn::AttendResult r = attn::attend(a);
  EXPECT_EQ(r.error,
            "query: q·k overflows float32 at query 0, key 1 (expected |q| |k| below 3.4e+38 for "
            "every query and key row)");
  EXPECT_TRUE(r.weights.empty());
}

TEST(Overflow, TinyTemperatureNamesTheSafeBound) {
  AttendArgs a = good_attend();
  a.score = ScoreKind::Dot;
  a.temperature = 1e-30f;
  a.query = Matrix(3, 4, 1e5f);
  a.key = Matrix(5, 4, 1e5f);  // scores 4e10: / 1e-30 = 4e40
  attn::AttendResult r = attn::attend(a);
  EXPECT_EQ(r.error.rfind("temperature: expected at least 1.18e-28 for these scores", 0), 0u)
      << r.error;
  a.temperature = 2e-28f;
  EXPECT_EQ(attn::attend(a).error, "");
}

TEST(Overflow, NaiveSoftmaxIsFlaggedNotRejected) {
  AttendArgs a = good_attend();
  a.score = ScoreKind::Dot;
  a.query = Matrix(3, 4, 10.0f);
  a.key = Matrix(5, 4, 10.0f);  // scores 400 > 88.7
  a.stable = false;
  attn::AttendResult r = attn::attend(a);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.overflow);
  a.stable = true;
  EXPECT_FALSE(attn::attend(a).overflow);
}

TEST(Overflow, NaiveSoftmaxWhoseSumOverflowsIsFlagged) {
  // Scores of 88: each exponential (1.65e38) is finite, two of them are not (3.3e38 + 1.65e38
  // passes 3.4e38), so e / inf = 0 and the row comes out all zeros, finite but wrong. Stages
  // kept or not, the engine says it overflowed; the outputs are not a mix of the values.
  AttendArgs a = good_attend();
  a.score = ScoreKind::Dot;
  a.query = Matrix(2, 1, 8.0f);
  a.key = Matrix(3, 1, 11.0f);
  a.value = Matrix(3, 2, 1.0f);
  a.stable = false;
  for (bool stages : {true, false}) {
    a.stages = stages;
    attn::AttendResult r = attn::attend(a);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.overflow) << "stages " << stages;
    EXPECT_EQ(r.output.at(0, 0), 0.0f);
    if (stages) {
      EXPECT_EQ(r.weights.at(1, 2), 0.0f);
    }
  }
  a.key = Matrix(1, 1, 11.0f);  // a single exponential of 88 does not overflow
  a.value = Matrix(1, 2, 1.0f);
  EXPECT_FALSE(attn::attend(a).overflow);
}

TEST(Overflow, JacobianRopeAndLinear) {
  EXPECT_EQ(attn::check_jacobian({2e19f, 0.5f}),
            "p: entry 0 is 2e+19 (expected |p| below 1.8e+19, so that p_i p_j stays within "
            "float32; softmax weights are from 0 to 1)");
  Matrix x(1, 2, 3e38f);
  EXPECT_EQ(attn::check_rope(x, 0, 10000),
            "x: the pair at row 0, columns 0 and 1 is too long to rotate in float32 (expected "
            "|(x[2i], x[2i+1])| below 3.4e+38)");
  Matrix w(1, 2, 1e20f);
  Matrix big(1, 2, 1e20f);
  EXPECT_EQ(attn::linear_overflow("x", attn::linear(big, w, Matrix())),
            "x: x Wᵀ + b overflows float32 at row 0, column 0 (expected |x| |W row| + |b| below "
            "3.4e+38 for every row)");
  EXPECT_EQ(attn::linear_overflow("x", attn::linear(Matrix(1, 2, 1.0f), w, Matrix())), "");
}
