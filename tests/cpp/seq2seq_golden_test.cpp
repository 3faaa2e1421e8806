// The RNN encoder–decoder against PyTorch autograd (tests/golden/seq2seq.json, made by
// tests/golden/make_seq2seq_golden.py from torch.nn.GRU, GRUCell, Embedding and Linear): the
// same weights and batch give the same loss and gradients, and the first 20 steps of a clipped
// torch.optim.Adam the same losses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/seq2seq_trainer.h"
#include "trainer_golden.h"

using nlohmann::json;
using namespace trainer_golden;

namespace {

const json& doc() {
  static const json d = read("seq2seq.json");
  return d;
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
  load_weights(t, c["weights"]);
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
    expect_autograd(t, b, c);
  }
}

TEST(Seq2SeqGolden, TwentyClippedAdamStepsMatchTorch) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Seq2SeqTrainer t = loaded(c);
    expect_adam_losses(t, batch_of(c), c);
  }
}

}  // namespace
