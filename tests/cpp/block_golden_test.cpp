// The Transformer block against PyTorch (tests/golden/block.json, made by
// tests/golden/make_block_golden.py): torch.nn.TransformerEncoderLayer / DecoderLayer every
// stage, and torch.nn.GRU. Each JSON case becomes one test, named after the case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/gru.h"
#include "core/transformer_layer.h"

using nlohmann::json;
using namespace attn;

namespace {

// float32 against torch's float32: |got - want| <= kRelTol * max(1, |want|)
constexpr double kRelTol = 2e-4;

const json& doc() {
  static const json d = [] {
    std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/block.json");
    return in ? json::parse(in, nullptr, /*allow_exceptions=*/false) : json();
  }();
  return d;
}

std::vector<int> indices() {
  std::vector<int> out;
  if (doc().is_object() && doc().contains("cases")) {
    for (int i = 0; i < static_cast<int>(doc()["cases"].size()); i++) out.push_back(i);
  }
  return out;
}

// The worst relative error of every comparison in this file, printed at the end.
double& worst() {
  static double w = 0;
  return w;
}

Matrix to_matrix(const json& j) {
  if (!j[0].is_array()) {
    Matrix m(1, static_cast<int>(j.size()));
    for (int c = 0; c < m.cols; c++) m.at(0, c) = j[c].get<float>();
    return m;
  }
  Matrix m(static_cast<int>(j.size()), static_cast<int>(j[0].size()));
  for (int r = 0; r < m.rows; r++)
    for (int c = 0; c < m.cols; c++) m.at(r, c) = j[r][c].get<float>();
  return m;
}

std::vector<bool> to_flags(const json& j) {
  std::vector<bool> f;
  for (const json& v : j) f.push_back(v.get<bool>());
  return f;
}

void expect_matrix(const std::string& what, const Matrix& got, const json& want) {
  Matrix w = to_matrix(want);
  ASSERT_EQ(got.rows, w.rows) << what;
  ASSERT_EQ(got.cols, w.cols) << what;
  int bad = 0;
  for (std::size_t c = 0; c < w.data.size(); c++) {
    const double g = got.data[c], t = w.data[c];
    const double err = std::fabs(g - t) / std::max(1.0, std::fabs(t));
    worst() = std::max(worst(), err);
    if (err > kRelTol && bad++ < 5) {
      ADD_FAILURE() << what << " entry " << c << ": got " << g << ", torch " << t;
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

AttentionWeights attention(const json& j) {
  AttentionWeights w;
  w.wq = to_matrix(j["Wq"]), w.wk = to_matrix(j["Wk"]), w.wv = to_matrix(j["Wv"]);
  w.wo = to_matrix(j["Wo"]);
  w.bq = to_matrix(j["bq"]), w.bk = to_matrix(j["bk"]), w.bv = to_matrix(j["bv"]);
  w.bo = to_matrix(j["bo"]);
  return w;
}

void expect_heads(const std::string& what, const MultiHeadResult& got, const json& want) {
  ASSERT_EQ(got.heads.size(), want.size()) << what;
  for (std::size_t h = 0; h < got.heads.size(); h++)
    expect_matrix(what + " head " + std::to_string(h), got.heads[h].weights, want[h]);
}

void check_layer(const json& c) {
  const json& o = c["options"];
  const json& in = c["inputs"];
  const json& want = c["expected"];
  TransformerLayerArgs a;
  const bool decoder = o["kind"] == "decoder";
  a.kind = decoder ? LayerKind::Decoder : LayerKind::Encoder;
  a.x = to_matrix(in["x"]);
  a.heads = o["heads"].get<int>();
  a.self_attention = attention(in["selfAttention"]);
  if (decoder) {
    a.memory = to_matrix(in["memory"]);
    a.cross_attention = attention(in["crossAttention"]);
  }
  a.ff.w1 = to_matrix(in["ff"]["W1"]), a.ff.b1 = to_matrix(in["ff"]["b1"]);
  a.ff.w2 = to_matrix(in["ff"]["W2"]), a.ff.b2 = to_matrix(in["ff"]["b2"]);
  a.ff.activation = o["activation"] == "gelu" ? Activation::Gelu : Activation::Relu;
  for (const json& n : in["norms"])
    a.norms.push_back({to_matrix(n["gamma"]), to_matrix(n["beta"])});
  a.norm_first = o["normFirst"].get<bool>();
  a.eps = o["eps"].get<double>();
  a.causal = o["causal"].get<bool>();
  if (o.contains("keyPadding")) a.key_padding = to_flags(o["keyPadding"]);
  if (o.contains("memoryKeyPadding")) a.memory_key_padding = to_flags(o["memoryKeyPadding"]);

  ASSERT_EQ(check_transformer_layer(a), "");
  TransformerLayerResult r = transformer_layer(a);
  ASSERT_EQ(r.error, "");
  expect_heads("selfAttention", r.self_attention, want["selfAttentionWeights"]);
  if (decoder) expect_heads("crossAttention", r.cross_attention, want["crossAttentionWeights"]);
  expect_matrix("ff.hidden", r.ff.hidden, want["ffHidden"]);
  ASSERT_EQ(r.residuals.size(), want["residuals"].size());
  ASSERT_EQ(r.normed.size(), want["normed"].size());
  for (std::size_t k = 0; k < r.residuals.size(); k++) {
    expect_matrix("residuals[" + std::to_string(k) + "]", r.residuals[k], want["residuals"][k]);
    expect_matrix("normed[" + std::to_string(k) + "]", r.normed[k].output, want["normed"][k]);
  }
  expect_matrix("output", r.output, want["output"]);
}

void check_gru(const json& c) {
  const json& in = c["inputs"];
  GruArgs a;
  a.x = to_matrix(in["x"]);
  a.w_ih = to_matrix(in["Wih"]), a.w_hh = to_matrix(in["Whh"]);
  a.b_ih = to_matrix(in["bih"]), a.b_hh = to_matrix(in["bhh"]);
  if (in.contains("h0")) a.h0 = to_matrix(in["h0"]);
  ASSERT_EQ(attn::check_gru(a), "");
  GruResult r = gru_encoder(a);
  ASSERT_EQ(r.error, "");
  expect_matrix("hidden", r.hidden, c["expected"]["hidden"]);
}

class BlockGolden : public ::testing::TestWithParam<int> {
 protected:
  static void TearDownTestSuite() {
    std::cout << "block.json: worst relative error against torch " << worst() << std::endl;
  }
};

TEST_P(BlockGolden, MatchesTorch) {
  const json& c = doc()["cases"][GetParam()];
  if (c["options"]["kind"] == "gru")
    check_gru(c);
  else
    check_layer(c);
}

INSTANTIATE_TEST_SUITE_P(Golden, BlockGolden, ::testing::ValuesIn(indices()),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name = doc()["cases"][info.param]["name"];
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// The file is there and holds encoder, decoder and GRU cases (an empty suite would pass).
TEST(BlockGoldenFile, HoldsEveryKind) {
  int encoders = 0, decoders = 0, grus = 0;
  for (int i : indices()) {
    const json& kind = doc()["cases"][i]["options"]["kind"];
    encoders += kind == "encoder", decoders += kind == "decoder", grus += kind == "gru";
  }
  EXPECT_GE(encoders, 4);
  EXPECT_GE(decoders, 4);
  EXPECT_GE(grus, 1);
}

}  // namespace
