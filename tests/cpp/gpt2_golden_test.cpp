// GPT-2 against PyTorch (tests/golden/gpt2.json and tests/golden/gpt2/*.safetensors, made by
// tests/golden/make_gpt2_golden.py): each tiny checkpoint is read through the safetensors reader
// and the loader in pieces of several sizes, then run; logits, every head's weights, the residual
// norms, one head's five stages, ablated logits and the head scores must equal the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/gpt2.h"
#include "core/gpt2_loader.h"
#include "core/safetensors.h"

using nlohmann::json;
using namespace attn;

namespace {

// float32 against the float64 reference: |got - want| <= kRelTol * max(|want|, floor), floor 1
// for logits, scores and outputs and 1e-6 for probabilities and weights (compared relatively).
constexpr double kRelTol = 1e-4;

const json& doc() {
  static const json d = [] {
    std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/gpt2.json");
    return in ? json::parse(in, nullptr, /*allow_exceptions=*/false) : json();
  }();
  return d;
}

std::vector<unsigned char> file_bytes(const std::string& name) {
  std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/" + name, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

double& worst() {
  static double w = 0;
  return w;
}

// Every entry of got (row-major) against want (nested lists; null = -inf).
void expect_close(const std::string& what, const float* got, std::size_t count, const json& want,
                  double floor) {
  std::vector<double> flat;
  std::function<void(const json&)> walk = [&](const json& j) {
    if (j.is_array()) {
      for (const json& x : j) walk(x);
    } else {
      flat.push_back(j.is_null() ? -std::numeric_limits<double>::infinity() : j.get<double>());
    }
  };
  walk(want);
  ASSERT_EQ(count, flat.size()) << what;
  int bad = 0;
  for (std::size_t i = 0; i < count; i++) {
    const double g = got[i], t = flat[i];
    if (std::isinf(t)) {
      if (g != t && bad++ < 5)
        ADD_FAILURE() << what << " entry " << i << ": got " << g << ", want -inf";
      continue;
    }
    const double err = std::fabs(g - t) / std::max(std::fabs(t), floor);
    worst() = std::max(worst(), err);
    if (!(err <= kRelTol) && bad++ < 5)
      ADD_FAILURE() << what << " entry " << i << ": got " << g << ", torch " << t;
  }
  EXPECT_EQ(bad, 0) << what;
}

gpt2::Config config_of(const json& c) {
  gpt2::Config g;
  g.n_layer = c["n_layer"];
  g.n_head = c["n_head"];
  g.n_embd = c["n_embd"];
  g.n_positions = c["n_positions"];
  g.vocab_size = c["vocab_size"];
  g.n_inner = c["n_inner"].is_null() ? 4 * g.n_embd : c["n_inner"].get<int>();
  g.layer_norm_epsilon = c["layer_norm_epsilon"];
  return g;
}

// The checkpoint read as a stream would bring it: the header, then the data in pieces of `piece`
// bytes (1 splits every element; 4093 is prime).
std::unique_ptr<gpt2::Model> load(const json& c, std::size_t piece) {
  const std::vector<unsigned char> f = file_bytes(c["file"]);
  EXPECT_GE(f.size(), 8u);
  const gpt2::Config config = config_of(c["config"]);
  EXPECT_EQ(gpt2::check_config(config), "");
  std::uint64_t n = 0;
  EXPECT_EQ(safetensors::header_length(f.data(), static_cast<double>(f.size()), &n), "");
  safetensors::Header h = safetensors::parse_header(reinterpret_cast<const char*>(f.data()) + 8, n,
                                                    static_cast<double>(f.size()));
  gpt2::Loader loader(config, h);
  EXPECT_EQ(loader.error(), "");
  EXPECT_TRUE(loader.allocate());
  for (std::size_t at = 8 + n; at < f.size(); at += piece) {
    const std::size_t count = std::min(piece, f.size() - at);
    EXPECT_EQ(loader.feed(f.data() + at, count), "");
  }
  EXPECT_EQ(loader.finish(), "");
  return loader.take();
}

std::vector<int> ints(const json& j) { return j.get<std::vector<int>>(); }

std::vector<char> ablated(const gpt2::Config& c, const json& heads) {
  std::vector<char> out(static_cast<std::size_t>(c.n_layer) * c.n_head, 0);
  for (const json& p : heads) out[p[0].get<int>() * c.n_head + p[1].get<int>()] = 1;
  return out;
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  if (doc().contains("cases"))
    for (const json& c : doc()["cases"]) out.push_back(c["name"]);
  return out;
}

class Gpt2Golden : public ::testing::TestWithParam<std::string> {
 protected:
  const json& golden() const {
    for (const json& c : doc()["cases"])
      if (c["name"] == GetParam()) return c;
    return doc();
  }
};

TEST(Gpt2GoldenFile, HasFiveCases) {
  ASSERT_TRUE(doc().is_object()) << "tests/golden/gpt2.json missing or not JSON";
  EXPECT_EQ(doc()["cases"].size(), 5u);
}

TEST_P(Gpt2Golden, ForwardPassEqualsTorch) {
  const json& g = golden();
  for (std::size_t piece : {std::size_t{1}, std::size_t{4093}, std::size_t{1} << 20}) {
    std::unique_ptr<gpt2::Model> m = load(g, piece);
    ASSERT_TRUE(m);
    const gpt2::Config& c = m->config();
    gpt2::RunArgs a;
    a.ids = ints(g["ids"]);
    a.top_k = c.vocab_size;
    a.logits = true;
    a.stage_layer = g["stage"]["layer"];
    a.stage_head = g["stage"]["head"];
    ASSERT_EQ(gpt2::check_run(c, a), "");
    const gpt2::Run r = gpt2::run(*m, a);
    ASSERT_EQ(r.error, "");
    const std::string at = GetParam() + " (pieces of " + std::to_string(piece) + " bytes) ";
    expect_close(at + "logits", r.logits.data.data(), r.logits.data.size(), g["logits"], 1);
    for (int l = 0; l < c.n_layer; l++) {
      for (int h = 0; h < c.n_head; h++) {
        const Matrix& w = r.attention[l * c.n_head + h];
        expect_close(at + "attention " + std::to_string(l) + "." + std::to_string(h), w.data.data(),
                     w.data.size(), g["attention"][l][h], 1e-6);
      }
    }
    expect_close(at + "residual norms", r.residual_norms.data.data(), r.residual_norms.data.size(),
                 g["residualNorms"], 1);
    const json& s = g["stage"];
    expect_close(at + "scores", r.stages.scores.data.data(), r.stages.scores.data.size(),
                 s["scores"], 1);
    expect_close(at + "scaled", r.stages.scaled.data.data(), r.stages.scaled.data.size(),
                 s["scaled"], 1);
    expect_close(at + "masked", r.stages.masked.data.data(), r.stages.masked.data.size(),
                 s["masked"], 1);
    expect_close(at + "weights", r.stages.weights.data.data(), r.stages.weights.data.size(),
                 s["weights"], 1e-6);
    expect_close(at + "output", r.stages.output.data.data(), r.stages.output.data.size(),
                 s["output"], 1);
    // the stages are the run's own head, bit for bit
    EXPECT_EQ(r.stages.weights.data, r.attention[a.stage_layer * c.n_head + a.stage_head].data);
    // top k: every token, most likely first, the probabilities softmax of the logits
    for (int t = 0; t < static_cast<int>(a.ids.size()); t++) {
      const std::size_t row = static_cast<std::size_t>(t) * r.k;
      for (int j = 1; j < r.k; j++) EXPECT_GE(r.top_probs[row + j - 1], r.top_probs[row + j]);
      double max = -1e300, sum = 0;
      for (const json& v : g["logits"][t]) max = std::max(max, v.get<double>());
      for (const json& v : g["logits"][t]) sum += std::exp(v.get<double>() - max);
      for (int j = 0; j < r.k; j++) {
        const double want = std::exp(g["logits"][t][r.top_ids[row + j]].get<double>() - max) / sum;
        const double err = std::fabs(r.top_probs[row + j] - want) / want;
        worst() = std::max(worst(), err);
        EXPECT_LE(err, kRelTol) << at << "token " << t << ", top " << j;
      }
    }
  }
}

TEST_P(Gpt2Golden, AblationsEqualTorch) {
  const json& g = golden();
  std::unique_ptr<gpt2::Model> m = load(g, 65536);
  ASSERT_TRUE(m);
  for (const json& ab : g["ablations"]) {
    gpt2::RunArgs a;
    a.ids = ints(g["ids"]);
    a.logits = true;
    a.ablated = ablated(m->config(), ab["heads"]);
    a.ablation = ab["mode"] == "mean" ? gpt2::Ablation::Mean : gpt2::Ablation::Zero;
    ASSERT_EQ(gpt2::check_run(m->config(), a), "");
    const gpt2::Run r = gpt2::run(*m, a);
    ASSERT_EQ(r.error, "");
    expect_close(GetParam() + " ablated (" + ab["mode"].get<std::string>() + ") logits",
                 r.logits.data.data(), r.logits.data.size(), ab["logits"], 1);
  }
}

TEST_P(Gpt2Golden, HeadScoresEqualTorch) {
  const json& g = golden();
  std::unique_ptr<gpt2::Model> m = load(g, 65536);
  ASSERT_TRUE(m);
  const json& s = g["headScores"];
  const std::vector<int> tokens = ints(s["tokens"]);
  ASSERT_EQ(gpt2::check_score_tokens(m->config(), tokens), "");
  const gpt2::HeadScores h = gpt2::head_scores(*m, tokens);
  ASSERT_EQ(h.error, "");
  const std::pair<const char*, const Matrix*> scores[] = {{"previousToken", &h.previous_token},
                                                          {"induction", &h.induction},
                                                          {"duplicateToken", &h.duplicate_token},
                                                          {"firstToken", &h.first_token},
                                                          {"entropy", &h.entropy}};
  for (const auto& [name, x] : scores)
    expect_close(GetParam() + " " + name, x->data.data(), x->data.size(), s[name], 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Cases, Gpt2Golden, ::testing::ValuesIn(names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// Printed once, for the record: the worst relative error of every comparison above.
class WorstError : public ::testing::Environment {
 public:
  void TearDown() override {
    std::cout << "GPT-2 goldens: worst relative error " << worst() << std::endl;
  }
};
const auto* const kWorst = ::testing::AddGlobalTestEnvironment(new WorstError);

}  // namespace
