// The RNN encoder–decoder against PyTorch autograd (tests/golden/seq2seq.json, made by
// tests/golden/make_seq2seq_golden.py from torch.nn.GRU, GRUCell, Embedding and Linear): the
// same weights and batch give the same loss and gradients, and the first 20 steps of a clipped
// torch.optim.Adam the same losses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/seq2seq_trainer.h"

using nlohmann::json;

namespace {

constexpr double kRelTol = 1e-4;  // the loss, and each gradient tensor relative to its largest

const json& doc() {
  static json d = [] {
    std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/seq2seq.json");
    return in ? json::parse(in, nullptr, false) : json();
  }();
  return d;
}

std::vector<float> flatten(const json& v) {
  std::vector<float> out;
  for (const json& row : v) {
    if (row.is_array()) {
      for (const json& x : row) out.push_back(x.get<float>());
    } else {
      out.push_back(row.get<float>());
    }
  }
  return out;
}

attn::Seq2SeqConfig config_of(const json& c) {
  attn::Seq2SeqConfig s;
  EXPECT_TRUE(attn::kSeq2SeqTaskOption.parse(c["task"].get<std::string>(), &s.task));
  EXPECT_TRUE(attn::kAttentionOption.parse(c["attention"].get<std::string>(), &s.attention));
  s.bidirectional = c["bidirectional"];
  s.hidden = c["hidden"];
  s.embed = c["embed"];
  s.learning_rate = c["learningRate"];
  s.clip = c["clip"];
  s.max_length = 12;
  return s;
}

attn::PairBatch batch_of(const json& c) {
  attn::PairBatch b;
  for (const json& s : c["source"]) b.source.push_back(s.get<std::vector<int>>());
  for (const json& t : c["target"]) b.target.push_back(t.get<std::vector<int>>());
  return b;
}

// A trainer whose model holds the case's weights.
attn::Seq2SeqTrainer loaded(const json& c) {
  attn::Seq2SeqConfig config = config_of(c["config"]);
  EXPECT_EQ(attn::check_seq2seq_config(config), "");
  attn::Seq2SeqTrainer t(config);
  std::size_t count = 0;
  EXPECT_EQ(c["weights"].size(), t.model().tensors().size());
  for (const attn::Tensor& tensor : t.model().tensors()) {
    std::vector<float> w = flatten(c["weights"][tensor.name]);
    EXPECT_EQ(w.size(), tensor.size()) << tensor.name;
    std::copy(w.begin(), w.end(), t.model().parameters().begin() + tensor.offset);
    count += w.size();
  }
  EXPECT_EQ(count, t.model().parameters().size());
  return t;
}

TEST(Seq2SeqGolden, TheFileIsThere) {
  ASSERT_TRUE(doc().is_object());
  EXPECT_EQ(doc()["cases"].size(), 5u);
}

TEST(Seq2SeqGolden, LossAndGradientsMatchAutograd) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Seq2SeqTrainer t = loaded(c);
    attn::PairBatch b = batch_of(c);
    ASSERT_EQ(attn::check_pairs(b, t.config(), true), "");
    attn::ForwardStats f = t.gradients_on(b);
    const double want = c["loss"].get<double>();
    EXPECT_NEAR(f.loss, want, kRelTol * std::fabs(want));
    double worst = 0;
    for (const attn::Tensor& tensor : t.model().tensors()) {
      std::vector<float> g = flatten(c["gradients"][tensor.name]);
      ASSERT_EQ(g.size(), tensor.size()) << tensor.name;
      double largest = 0;
      for (float x : g) largest = std::max(largest, static_cast<double>(std::fabs(x)));
      ASSERT_GT(largest, 0) << tensor.name;
      for (std::size_t i = 0; i < g.size(); i++) {
        const double got = t.model().gradients()[tensor.offset + i];
        const double err = std::fabs(got - g[i]) / largest;
        worst = std::max(worst, err);
        ASSERT_LE(err, kRelTol) << tensor.name << "[" << i << "]: engine " << got << ", torch "
                                << g[i];
      }
    }
    std::printf("%s: loss %.8g (torch %.8g), worst gradient error %.3g of the tensor's largest\n",
                c["name"].get<std::string>().c_str(), f.loss, want, worst);
  }
}

TEST(Seq2SeqGolden, TwentyClippedAdamStepsMatchTorch) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Seq2SeqTrainer t = loaded(c);
    attn::PairBatch b = batch_of(c);
    double worst = 0;
    for (std::size_t i = 0; i < c["adamLosses"].size(); i++) {
      const double want = c["adamLosses"][i].get<double>();
      const double got = t.step_on(b).loss;
      worst = std::max(worst, std::fabs(got - want) / std::fabs(want));
      EXPECT_NEAR(got, want, kRelTol * std::fabs(want)) << "step " << i;
    }
    EXPECT_EQ(t.steps(), 20);
    std::printf("%s: 20 Adam losses, worst relative error %.3g\n",
                c["name"].get<std::string>().c_str(), worst);
  }
}

}  // namespace
