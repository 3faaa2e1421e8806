// The encoder–decoder's trainer for the playground's second mode: its options and limits, the
// pairs a caller hands in, Adam steps on the task's batches (the gradient clipped), and the
// held-out measures: loss and accuracy, greedy decoding by source length, the probe pair and
// translations of any source. The network itself is in seq2seq_model.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/seq2seq_model.h"
#include "core/seq2seq_tasks.h"
#include "core/train.h"

namespace attn {

namespace limits {
constexpr int kMaxSeq2SeqLength = 32;  // the longest source sentence
constexpr int kMinSeq2SeqLength = 8;   // maxLength's smallest value (the probe sentence fits)
constexpr int kMaxSeq2SeqSteps = 200;  // steps per step() call
constexpr int kMaxSeq2Seqs = 50;       // live encoder–decoders in one module (as trainers)
}  // namespace limits

inline constexpr ModelKind kSeq2SeqKind{"seq2seq", "encoder–decoders", limits::kMaxSeq2Seqs};

inline constexpr NumberOption kSeq2SeqLength{
    "maxLength", limits::kMinSeq2SeqLength, limits::kMaxSeq2SeqLength, true, nullptr, 24};
inline constexpr NumberOption kSeq2SeqClip{"clip", 0, 1e6, false, nullptr, 1, "0: no clipping"};
inline constexpr NumberOption kSeq2SeqSteps{"steps", 1, limits::kMaxSeq2SeqSteps, true, nullptr, 1};

// The model's options (seq2seq_model.h), the options both trainers take (train.h), the task and
// the encoder–decoder's own, each absent one at its table's fallback.
struct Seq2SeqConfig : Seq2SeqModelOptions, TrainingOptions {
  Seq2SeqTask task = kSeq2SeqTaskOption.fallback;
  double clip = kSeq2SeqClip.fallback;  // the gradient's largest L2 norm (0: no clipping)
  int max_length = static_cast<int>(kSeq2SeqLength.fallback);
};

// f(option, field) for each option of a Seq2SeqConfig (const or not), as each_option of a
// TrainConfig (train.h).
template <typename Config, typename F, IfConfig<Config, Seq2SeqConfig> = 0>
void each_option(Config& c, F f) {
  f(kSeq2SeqTaskOption, c.task);
  f(kAttentionOption, c.attention);
  f(kBidirectional, c.bidirectional);
  f(kSeq2SeqHidden, c.hidden);
  f(kSeq2SeqEmbed, c.embed);
  each_training_option(c, f);
  f(kSeq2SeqClip, c.clip);
  f(kSeq2SeqLength, c.max_length);
}

// Every option within its table; hidden even when bidirectional.
Error check_seq2seq_config(const Seq2SeqConfig& c);
// The most a Seq2SeqTrainer of this config holds, from the moment it is made (it sizes its
// scratch for the largest run of any call then): what the module's memory cap counts.
double seq2seq_bytes(const Seq2SeqConfig& c);

// Row 0's first `steps` predictions and alignment rows (after a decode of at least that many).
struct Decoded {
  std::vector<int> predictions;
  Matrix alignment;  // (steps, n_source); empty without attention
};
Decoded decoded(const Seq2Seq& m, int steps);
Seq2SeqModelConfig seq2seq_model_config(const Seq2SeqConfig& c);
// Pairs a caller hands in: 1 to kMaxBatch of them, sources of 1 to max_length tokens of the
// task's source vocabulary, targets (when need_targets) of 1 to 2 max_length target tokens.
Error check_pairs(const PairBatch& b, const Seq2SeqConfig& c, bool need_targets);

// Accuracy of greedy decoding for one source length.
struct LengthAccuracy {
  int length = 0;
  int pairs = 0;
  double token_accuracy = 0;     // share of target tokens (and the "</s>") right, in place
  double sequence_accuracy = 0;  // share of pairs whose whole output is right
};

struct LengthAccuracies {
  std::vector<LengthAccuracy> lengths;  // one per source length, 2 to max_length
  Error error;
};

// A greedy decoding: the steps through its first "</s>" (all of them when there is none).
struct Decoding {
  int steps = 0;
  Error error;
};

class Seq2SeqTrainer : public TrainerBase<Seq2SeqConfig, Seq2Seq, PairBatch> {
 public:
  explicit Seq2SeqTrainer(const Seq2SeqConfig& config);  // check_seq2seq_config first

  // Finite in, finite out, as Trainer: a pass whose loss, probabilities, attention weights or
  // states leave float32 is an error naming the cause, and a step that would give such weights
  // is not taken.

  // One Adam step on the next batch (clipped gradient): its loss and accuracy before the update.
  StepStats step();
  StepStats step_on(const PairBatch& batch);  // check_pairs first
  // Teacher-forced loss and token accuracy on a fixed held-out batch (its own stream of the seed).
  ForwardStats evaluate();
  // Greedy decoding of a held-out set with every source length from 2 to max_length.
  LengthAccuracies evaluate_by_length();
  // Greedy decoding of the probe pair for its target's length + 1 steps.
  ForwardStats probe();
  // Greedy decoding of one source (check_pairs first) until "</s>" or 2 max_length + 1 steps.
  Decoding translate(const std::vector<int>& source);
  // n steps (check_number(kSeq2SeqSteps, n) first).
  StepsRun run_steps(int n) { return attn::run_steps(*this, n); }
  const PairBatch& probe_pair() const { return probe_; }
  // The gradient's L2 norm of the last step, before clipping.
  double gradient_norm() const { return gradient_norm_; }

 private:
  PairBatch by_length_, probe_;
  double gradient_norm_ = 0;
};

}  // namespace attn
