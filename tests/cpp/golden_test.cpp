// The C++ core against PyTorch golden vectors (tests/golden/*.json, made by
// tests/golden/make_golden.py). Each JSON case becomes one test, named after the case.
//
// JSON: a matrix is a list of rows, a vector a plain list, null = -inf.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/attention.h"
#include "core/multihead.h"
#include "core/positional.h"
#include "core/scores.h"
#include "core/softmax.h"

using nlohmann::json;
using namespace attn;

namespace {

// float32 against a float32 reference: |got - want| <= kAbsTol + kRelTol * |want|
constexpr double kAbsTol = 2e-5;
constexpr double kRelTol = 1e-4;

// ---- loading ------------------------------------------------------------------------------

const json& golden(const std::string& file) {
  static std::map<std::string, json> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/" + file);
  json doc = in ? json::parse(in, nullptr, /*allow_exceptions=*/false) : json();
  return cache[file] = doc;
}

const json& golden_case(const std::string& file, int index) { return golden(file)["cases"][index]; }

std::vector<int> case_indices(const std::string& file) {
  std::vector<int> out;
  const json& doc = golden(file);
  if (doc.is_object() && doc.contains("cases")) {
    for (int i = 0; i < static_cast<int>(doc["cases"].size()); i++) out.push_back(i);
  }
  return out;
}

// Case name -> a test name gtest accepts (letters, digits, underscores).
std::string test_name(const std::string& file, int index) {
  std::string name = golden_case(file, index)["name"].get<std::string>();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

float number(const json& v) { return v.is_null() ? -INFINITY : v.get<float>(); }

// A list of rows -> (rows, cols); a plain list -> (1, n).
Matrix to_matrix(const json& j) {
  if (j.empty() || !j[0].is_array()) {
    Matrix m(1, static_cast<int>(j.size()));
    for (int c = 0; c < m.cols; c++) m.at(0, c) = number(j[c]);
    return m;
  }
  Matrix m(static_cast<int>(j.size()), static_cast<int>(j[0].size()));
  for (int r = 0; r < m.rows; r++) {
    for (int c = 0; c < m.cols; c++) m.at(r, c) = number(j[r][c]);
  }
  return m;
}

std::vector<bool> to_flags(const json& j) {
  std::vector<bool> flags;
  for (const auto& v : j) flags.push_back(v.get<bool>());
  return flags;
}

// ---- comparing ----------------------------------------------------------------------------

bool close(float got, const json& want) {
  if (want.is_null()) return std::isinf(got) && got < 0;
  double w = want.get<double>();
  return std::abs(static_cast<double>(got) - w) <= kAbsTol + kRelTol * std::abs(w);
}

void expect_matrix(const char* what, const Matrix& got, const json& want) {
  Matrix shape = to_matrix(want);
  ASSERT_EQ(got.rows, shape.rows) << what << ": rows";
  ASSERT_EQ(got.cols, shape.cols) << what << ": cols";
  int bad = 0;
  for (int r = 0; r < got.rows; r++) {
    for (int c = 0; c < got.cols; c++) {
      const json& w = want[0].is_array() ? want[r][c] : want[c];
      if (!close(got.at(r, c), w) && bad++ < 5) {
        ADD_FAILURE() << what << "[" << r << "][" << c << "]: got " << got.at(r, c) << ", torch "
                      << w.dump();
      }
    }
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " entries differ from torch";
}

void expect_vector(const char* what, const std::vector<float>& got, const json& want) {
  Matrix m(1, static_cast<int>(got.size()));
  m.data = got;
  expect_matrix(what, m, want);
}

MaskFill mask_fill(const std::string& s) {
  if (s == "large-negative") return MaskFill::LargeNegative;
  if (s == "zero") return MaskFill::Zero;
  return MaskFill::NegInf;
}

ScoreKind score_kind(const std::string& s) {
  if (s == "dot") return ScoreKind::Dot;
  if (s == "additive") return ScoreKind::Additive;
  if (s == "general") return ScoreKind::General;
  return ScoreKind::ScaledDot;
}

// ---- one fixture per golden file ----------------------------------------------------------

#define GOLDEN_SUITE(Suite, file)                                   \
  class Suite : public ::testing::TestWithParam<int> {              \
   protected:                                                       \
    const json& c() const { return golden_case(file, GetParam()); } \
  };                                                                \
  INSTANTIATE_TEST_SUITE_P(                                         \
      Golden, Suite, ::testing::ValuesIn(case_indices(file)),       \
      [](const ::testing::TestParamInfo<int>& info) { return test_name(file, info.param); });

GOLDEN_SUITE(SoftmaxGolden, "softmax.json")
GOLDEN_SUITE(JacobianGolden, "softmax_jacobian.json")
GOLDEN_SUITE(AttendGolden, "attention.json")
GOLDEN_SUITE(ScoreFunctionGolden, "scores.json")
GOLDEN_SUITE(MultiHeadGolden, "multihead.json")
GOLDEN_SUITE(MultiHeadMaskGolden, "multihead_masks.json")
GOLDEN_SUITE(PositionalGolden, "positional.json")

// Every golden file is present and holds cases (an empty suite would pass silently).
TEST(GoldenFiles, EveryFileLoadsWithCases) {
  for (const char* file : {"softmax.json", "softmax_jacobian.json", "attention.json", "scores.json",
                           "multihead.json", "positional.json", "multihead_masks.json"}) {
    EXPECT_FALSE(case_indices(file).empty()) << "tests/golden/" << file;
  }
}

// F.softmax(scores / temperature, dim=-1) and its entropy.
TEST_P(SoftmaxGolden, WeightsAndEntropyMatchTorch) {
  const json& o = c()["options"];
  Matrix scores = to_matrix(c()["inputs"]["scores"]);
  Matrix scaled = apply_temperature(scores, o["temperature"].get<float>());
  Matrix weights = softmax_rows(scaled, o["stable"].get<bool>());
  expect_matrix("weights", weights, c()["expected"]["weights"]);
  expect_vector("entropy", row_entropy(weights), c()["expected"]["entropy"]);
}

// d softmax_i / d x_j from torch autograd, at p = softmax(x).
TEST_P(JacobianGolden, MatchesTorchAutograd) {
  Matrix p = to_matrix(c()["inputs"]["p"]);
  expect_matrix("jacobian", softmax_jacobian(p.data), c()["expected"]["jacobian"]);
}

// Every stage of attend() against the same pipeline composed from torch ops.
void check_attend_case(const json& c) {
  const json& in = c["inputs"];
  const json& o = c["options"];
  const json& want = c["expected"];
  AttendArgs a;
  a.query = to_matrix(in["query"]);
  a.key = to_matrix(in["key"]);
  a.value = to_matrix(in["value"]);
  a.score = score_kind(o["score"]);
  if (in.contains("mask")) a.mask = to_matrix(in["mask"]);
  a.causal = o["causal"].get<bool>();
  if (o.contains("keyPadding")) a.key_padding = to_flags(o["keyPadding"]);
  a.mask_fill = mask_fill(o["maskFill"]);
  a.temperature = o["temperature"].get<float>();
  if (in.contains("additive")) {
    a.additive_wq = to_matrix(in["additive"]["Wq"]);
    a.additive_wk = to_matrix(in["additive"]["Wk"]);
    a.additive_v = to_matrix(in["additive"]["v"]);  // (1, h)
  }
  if (in.contains("general")) a.general_w = to_matrix(in["general"]["W"]);

  ASSERT_EQ(check_attend(a), "");
  AttendResult r = attend(a);
  expect_matrix("scores", r.scores, want["scores"]);
  expect_matrix("scaled", r.scaled, want["scaled"]);
  expect_matrix("mask", r.mask, want["mask"]);
  expect_matrix("masked", r.masked, want["masked"]);
  expect_matrix("weights", r.weights, want["weights"]);
  expect_matrix("output", r.output, want["output"]);
  expect_vector("entropy", r.entropy, want["entropy"]);
  EXPECT_EQ(r.fully_masked_rows, want["fullyMaskedRows"].get<std::vector<int>>());
}

TEST_P(AttendGolden, EveryStageMatchesTorch) { check_attend_case(c()); }
TEST_P(ScoreFunctionGolden, EveryStageMatchesTorch) { check_attend_case(c()); }

// torch.nn.MultiheadAttention(batch_first=True, dropout=0): per-head weights, concat, output.
void check_multi_head_case(const json& c) {
  const json& in = c["inputs"];
  const json& o = c["options"];
  const json& want = c["expected"];
  MultiHeadArgs a;
  a.query = to_matrix(in["query"]);
  a.key = to_matrix(in["key"]);
  a.value = to_matrix(in["value"]);
  a.heads = o["heads"].get<int>();
  a.wq = to_matrix(in["Wq"]);
  a.wk = to_matrix(in["Wk"]);
  a.wv = to_matrix(in["Wv"]);
  a.wo = to_matrix(in["Wo"]);
  a.bq = to_matrix(in["bq"]);  // (1, d_model)
  a.bk = to_matrix(in["bk"]);
  a.bv = to_matrix(in["bv"]);
  a.bo = to_matrix(in["bo"]);
  if (in.contains("mask")) a.mask = to_matrix(in["mask"]);
  a.causal = o["causal"].get<bool>();
  if (o.contains("keyPadding")) a.key_padding = to_flags(o["keyPadding"]);

  ASSERT_EQ(check_multi_head(a), "");
  MultiHeadResult r = multi_head(a);
  ASSERT_EQ(r.heads.size(), want["headWeights"].size());
  for (size_t h = 0; h < r.heads.size(); h++) {
    std::string what = "head " + std::to_string(h) + " weights";
    expect_matrix(what.c_str(), r.heads[h].weights, want["headWeights"][h]);
  }
  expect_matrix("concat", r.concat, want["concat"]);
  expect_matrix("output", r.output, want["output"]);
}

TEST_P(MultiHeadGolden, MatchesTorchMultiheadAttention) { check_multi_head_case(c()); }
// Self and cross, causal, key-padding and explicit masks, d_model not a power of two.
TEST_P(MultiHeadMaskGolden, MatchesTorchMultiheadAttention) { check_multi_head_case(c()); }

// Sinusoidal PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...); RoPE pair rotations.
TEST_P(PositionalGolden, MatchesTorch) {
  const json& o = c()["options"];
  if (o.contains("n")) {
    Matrix pe = sinusoidal_encoding(o["n"].get<int>(), o["d"].get<int>());
    expect_matrix("pe", pe, c()["expected"]["pe"]);
  } else {
    Matrix x = to_matrix(c()["inputs"]["x"]);
    expect_matrix("rope", rope(x, o["first"].get<int>()), c()["expected"]["out"]);
  }
}

}  // namespace
