// GPT-2's forward pass (core/gpt2.h) beyond the PyTorch goldens (gpt2_golden_test.cpp): the
// configuration's checks, the run's checks and their messages, ties in the top k, a forward pass
// that would leave float32, and the seeded distinct tokens of the head scores (the tanh GELU is
// a kernel: kernels_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/gpt2.h"

using namespace attn;

namespace {

gpt2::Config small() {
  gpt2::Config c;
  c.n_layer = 2;
  c.n_head = 2;
  c.n_embd = 8;
  c.n_positions = 6;
  c.vocab_size = 12;
  c.n_inner = 16;
  return c;
}

// Every weight w (layer norms 1, the rest w), in the checkpoint's (row, column) order.
void fill(gpt2::Model& m, float w) {
  auto set = [&](const gpt2::Slot& s, float v) {
    for (int r = 0; r < s.rows; r++)
      for (int c = 0; c < s.cols; c++) m.at(s)[s.index(r, c)] = v;
  };
  for (const gpt2::Slot* s : {&m.wte, &m.wpe, &m.ln_f_bias}) set(*s, w);
  set(m.ln_f_weight, 1);
  for (const gpt2::Block& b : m.h) {
    for (const gpt2::Slot* s :
         {&b.attn_weight, &b.attn_bias, &b.proj_weight, &b.proj_bias, &b.fc_weight, &b.fc_bias,
          &b.mlp_weight, &b.mlp_bias, &b.ln_1_bias, &b.ln_2_bias})
      set(*s, w);
    set(b.ln_1_weight, 1);
    set(b.ln_2_weight, 1);
  }
}

TEST(Gpt2, ConfigChecksNameTheKey) {
  EXPECT_EQ(gpt2::check_config(small()), "");
  gpt2::Config c = small();
  c.n_head = 3;
  EXPECT_EQ(
      gpt2::check_config(c),
      "config.n_head: expected a divisor of config.n_embd = 8 (each head takes n_embd / n_head "
      "columns), got 3");
  c = small();
  c.n_layer = 0;
  EXPECT_EQ(gpt2::check_config(c), "config.n_layer: expected an integer from 1 to 128, got 0");
  c = small();
  c.model_type = "bert";
  EXPECT_EQ(gpt2::check_config(c),
            "config.model_type: expected 'gpt2' (a GPT-2-family checkpoint), got 'bert'");
  c = small();
  c.scale_attn_by_inverse_layer_idx = true;
  EXPECT_EQ(
      gpt2::check_config(c),
      "config.scale_attn_by_inverse_layer_idx: expected false (GPT-2's scores are not divided "
      "by the layer number), got true");
  c = small();
  c.activation_function = "gelu_pytorch_tanh";
  EXPECT_EQ(gpt2::check_config(c), "");
}

TEST(Gpt2, RunChecksNameTheArgument) {
  const gpt2::Config c = small();
  gpt2::RunArgs a;
  EXPECT_EQ(gpt2::check_run(c, a), "ids: expected 1 to 6 tokens (config.n_positions), got 0");
  a.ids = {1, 2, 12};
  EXPECT_EQ(gpt2::check_run(c, a), "ids: entry 2 is 12 (expected a token id from 0 to 11)");
  a.ids = {1, 2, 3};
  a.top_k = 13;
  EXPECT_EQ(gpt2::check_run(c, a), "topK: expected an integer from 1 to 12, got 13");
  a.top_k = 3;
  a.stage_layer = 2;
  a.stage_head = 0;
  EXPECT_EQ(gpt2::check_run(c, a),
            "head: expected [layer, head] with layer 0 to 1 and head 0 to 1, got [2, 0]");
  a.stage_layer = 1;
  a.ablated = {1, 0};
  EXPECT_EQ(gpt2::check_run(c, a), "ablate: expected 4 flags (one per head), got 2");
}

TEST(Gpt2, EqualProbabilitiesRankTheLowerIdFirst) {
  gpt2::Model m(small());
  ASSERT_TRUE(m.allocate());
  fill(m, 0.0f);  // every logit 0: a uniform next token
  gpt2::RunArgs a;
  a.ids = {3, 1, 4};
  a.top_k = 5;
  const gpt2::Run r = gpt2::run(m, a);
  ASSERT_EQ(r.error, "");
  for (int t = 0; t < 3; t++) {
    for (int j = 0; j < 5; j++) {
      EXPECT_EQ(r.top_ids[t * 5 + j], j);
      EXPECT_NEAR(r.top_probs[t * 5 + j], 1.0 / 12, 1e-7);
    }
  }
  // a causal head on equal scores spreads evenly over the tokens so far
  EXPECT_FLOAT_EQ(r.attention[0].at(2, 0), 1.0f / 3);
  EXPECT_EQ(r.attention[0].at(0, 1), 0.0f);
}

TEST(Gpt2, AForwardPassThatLeavesFloat32IsRefusedByBlock) {
  gpt2::Model m(small());
  ASSERT_TRUE(m.allocate());
  fill(m, 0.0f);  // finite weights whose sum passes float32 on the residual stream
  std::fill_n(m.at(m.h[0].proj_bias), m.h[0].proj_bias.cols, 3e38f);
  std::fill_n(m.at(m.h[0].mlp_bias), m.h[0].mlp_bias.cols, 3e38f);
  gpt2::RunArgs a;
  a.ids = {0, 1};
  const gpt2::Run r = gpt2::run(m, a);
  EXPECT_EQ(r.error,
            "ids: on these tokens the residual stream leaves float32 in block 0 (the checkpoint's "
            "weights are too large for float32 arithmetic)");
  EXPECT_TRUE(r.top_ids.empty() && r.attention.empty());
}

// Scores of finite q and k past float32: a causal row of -inf scores would give weights that sum
// to 0 while the residual stream stays finite (the fuzz harness found it), so the run refuses them.
TEST(Gpt2, AttentionScoresThatLeaveFloat32AreRefusedByHead) {
  gpt2::Model m(small());
  ASSERT_TRUE(m.allocate());
  fill(m, 0.0f);
  float* bias = m.at(m.h[1].attn_bias);  // block 1, head 1: q = 1e20, k = -1e20, v = 0
  for (int c = 4; c < 8; c++) {
    bias[c] = 1e20f;
    bias[8 + c] = -1e20f;
  }
  gpt2::RunArgs a;
  a.ids = {0, 1};
  const gpt2::Run r = gpt2::run(m, a);
  EXPECT_EQ(r.error,
            "ids: on these tokens the attention scores q·k of block 1, head 1 leave float32 (the "
            "checkpoint's weights are too large for float32 arithmetic)");
  EXPECT_TRUE(r.top_ids.empty() && r.attention.empty());
}

TEST(Gpt2, LogitsThatLeaveFloat32AreRefused) {
  gpt2::Model m(small());
  ASSERT_TRUE(m.allocate());
  fill(m, 0.0f);
  for (int r = 0; r < m.wte.rows; r++)  // a finite residual stream of 1e30, logits 8e60
    for (int c = 0; c < m.wte.cols; c++) m.at(m.wte)[m.wte.index(r, c)] = 1e30f;
  std::fill_n(m.at(m.ln_f_bias), m.ln_f_bias.cols, 1e30f);
  gpt2::RunArgs a;
  a.ids = {0, 1};
  const gpt2::Run r = gpt2::run(m, a);
  EXPECT_EQ(r.error,
            "ids: on these tokens the logits leave float32 (the checkpoint's weights are too large "
            "for float32 arithmetic)");
  EXPECT_TRUE(r.top_ids.empty());
}

TEST(Gpt2, DistinctTokensAreDistinctSeededAndInTheVocabulary) {
  const std::vector<int> a = gpt2::distinct_tokens(7, 50, 50257);
  EXPECT_EQ(a, gpt2::distinct_tokens(7, 50, 50257));
  EXPECT_NE(a, gpt2::distinct_tokens(8, 50, 50257));
  EXPECT_EQ(std::set<int>(a.begin(), a.end()).size(), 50u);
  for (int t : a) EXPECT_TRUE(t >= 0 && t < 50257);
  const std::vector<int> all = gpt2::distinct_tokens(1, 12, 12);  // a permutation
  EXPECT_EQ(std::set<int>(all.begin(), all.end()).size(), 12u);
  EXPECT_EQ(gpt2::check_score_tokens(small(), {1, 2, 3}), "");
  EXPECT_EQ(gpt2::check_score_tokens(small(), {1, 2, 3, 4}),
            "tokens: expected 2 to 3 distinct tokens (at most vocab_size, and half of n_positions: "
            "the sequence is written twice), got 4");
  EXPECT_EQ(
      gpt2::check_score_tokens(small(), {5, 5}),
      "tokens: entry 1 is 5 again (expected distinct tokens: the scores look for each token's "
      "first occurrence)");
}

}  // namespace
