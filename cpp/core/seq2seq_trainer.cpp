// The encoder–decoder's trainer: its options, the pairs it is given, Adam steps and the
// held-out measures (see seq2seq_trainer.h).
#include "core/seq2seq_trainer.h"

#include <algorithm>
#include <cmath>

#include "core/rng.h"

namespace attn {

namespace {
constexpr std::uint32_t kByLengthStream = 4;  // the seed's stream for the held-out set of every
                                              // length (after TrainerBase's)
constexpr int kPerLength = 8;                 // pairs of each length in evaluate_by_length
}  // namespace

// ---- options ---------------------------------------------------------------------------------

Error check_seq2seq_config(const Seq2SeqConfig& c) {
  Error e = check_options(c);
  if (e.empty() && c.bidirectional && c.hidden % 2 != 0)
    e = expected(kSeq2SeqHidden.name,
                 "an even number when bidirectional (each direction has hidden / 2 units)",
                 std::to_string(c.hidden));
  return e;
}

Seq2SeqModelConfig seq2seq_model_config(const Seq2SeqConfig& c) {
  const Seq2SeqTaskSpec spec = seq2seq_task_spec(c.task);
  // c's model options, the task's vocabularies
  return {c, static_cast<int>(spec.source_words->size()),
          static_cast<int>(spec.target_words->size())};
}

namespace {
// Sentences of 1 to max_length tokens from lowest to vocab - 1 (`note` says what lies below).
Error check_sentences(const char* name, const std::vector<std::vector<int>>& sentences,
                      int max_length, int lowest, int vocab, const char* note) {
  for (std::size_t s = 0; s < sentences.size(); s++) {
    const auto& x = sentences[s];
    if (x.empty() || static_cast<int>(x.size()) > max_length)
      return expected(name, "sentences of 1 to " + std::to_string(max_length) + " tokens",
                      std::to_string(x.size()) + " tokens in sentence " + std::to_string(s));
    for (std::size_t i = 0; i < x.size(); i++)
      if (x[i] < lowest || x[i] >= vocab)
        return expected(
            name,
            "tokens from " + std::to_string(lowest) + " to " + std::to_string(vocab - 1) + note,
            std::to_string(x[i]) + " (sentence " + std::to_string(s) + ", token " +
                std::to_string(i) + ")");
  }
  return {};
}
}  // namespace

Error check_pairs(const PairBatch& b, const Seq2SeqConfig& c, bool need_targets) {
  const Seq2SeqTaskSpec spec = seq2seq_task_spec(c.task);
  const int vs = static_cast<int>(spec.source_words->size());
  const int vt = static_cast<int>(spec.target_words->size());
  if (b.size() < 1 || b.size() > limits::kMaxBatch)
    return expected("source", "1 to " + std::to_string(limits::kMaxBatch) + " sentences",
                    std::to_string(b.size()));
  Error e = check_sentences("source", b.source, c.max_length, 0, vs, "");
  if (!e.empty() || (!need_targets && b.target.empty())) return e;
  if (b.target.size() != b.source.size())
    return expected("target", std::to_string(b.size()) + " sentences (one per source)",
                    std::to_string(b.target.size()));
  return check_sentences("target", b.target, c.max_length, 1, vt, " (0 is \"</s>\")");
}

// ---- the trainer -----------------------------------------------------------------------------

namespace {
// The largest runs of any call: a batch of up to kMaxBatch pairs (the held-out batch and every
// chunk of the by-length set are no larger) teacher-forced or decoded for a target of up to
// max_length tokens and its "</s>", and one sentence translated for 2 max_length + 1 steps.
std::vector<RunShape> largest_runs(const Seq2SeqConfig& c) {
  static_assert(kHeldOutSize <= limits::kMaxBatch);
  return {{limits::kMaxBatch, c.max_length, c.max_length + 1},
          {1, c.max_length, 2 * c.max_length + 1}};
}
}  // namespace

double seq2seq_bytes(const Seq2SeqConfig& c) {
  const Seq2SeqModelConfig m = seq2seq_model_config(c);
  const double model = Seq2Seq::bytes(m, largest_runs(c));
  const double adam = Seq2Seq::bytes(m, {});  // m and v: as many floats as parameters and gradients
  // the pairs kept (held-out, by-length, probe): per pair two vectors of at most max_length ints
  const double pairs = kHeldOutSize + kPerLength * (c.max_length - kMinSourceLength + 1) + 1;
  const double kept = pairs * 2 * (sizeof(std::vector<int>) + c.max_length * sizeof(int));
  return model + adam + kept + 64 * 1024;  // and the objects themselves
}

Seq2SeqTrainer::Seq2SeqTrainer(const Seq2SeqConfig& config)
    : TrainerBase(config, seq2seq_model_config(config), [&](Rng& rng, int size) {
        return make_pair_batch(config.task, rng, size, config.max_length);
      }) {
  model_.reserve(largest_runs(config));  // all it will hold, now (seq2seq_bytes)
  Rng by_length(config.seed, kByLengthStream);
  by_length_ = make_length_set(config.task, by_length, kPerLength, config.max_length);
  probe_ = seq2seq_probe(config.task, config.max_length);
}

StepStats Seq2SeqTrainer::step() {
  return step_on(make_pair_batch(config_.task, data_, config_.batch, config_.max_length));
}

// the gradient clipped to an L2 norm of at most `clip` (torch.nn.utils.clip_grad_norm_), then
// Adam; nothing changes when the forward pass or the update leaves float32
StepStats Seq2SeqTrainer::step_on(const PairBatch& batch) {
  ForwardStats f = checked(model_, model_.forward(batch), "step");
  if (!f.error.empty()) return {0, 0, f.error + "; the weights are unchanged"};
  model_.backward();
  std::vector<float>& g = model_.gradients();
  double sum = 0;
  for (float x : g) sum += static_cast<double>(x) * x;
  gradient_norm_ = std::sqrt(sum);
  if (config_.clip > 0 && gradient_norm_ > config_.clip) {
    const float scale = static_cast<float>(config_.clip / (gradient_norm_ + 1e-6));
    for (float& x : g) x *= scale;
  }
  if (!adam_.update(model_.parameters(), g))
    return {0, 0, update_leaves_float32(model_.tensors(), model_.parameters())};
  return {f.loss, f.accuracy, {}};
}

ForwardStats Seq2SeqTrainer::evaluate() {
  return checked(model_, model_.forward(held_out_), "evaluate");
}

LengthAccuracies Seq2SeqTrainer::evaluate_by_length() {
  LengthAccuracies r;
  std::vector<LengthAccuracy>& out = r.lengths;
  for (int length = kMinSourceLength; length <= config_.max_length; length++) {
    LengthAccuracy a;
    a.length = length;
    out.push_back(a);
  }
  std::vector<int> tokens(out.size(), 0), right(out.size(), 0);
  const int n = by_length_.size();
  for (int first = 0; first < n; first += limits::kMaxBatch) {
    PairBatch chunk;
    const int last = std::min(n, first + limits::kMaxBatch);
    int longest = 0;
    for (int row = first; row < last; row++) {
      chunk.source.push_back(by_length_.source[row]);
      chunk.target.push_back(by_length_.target[row]);
      longest = std::max(longest, static_cast<int>(by_length_.target[row].size()));
    }
    const ForwardStats f = checked(model_, model_.decode(chunk, longest + 1), "evaluateByLength");
    if (!f.error.empty()) return {{}, f.error};
    for (int row = 0; row < chunk.size(); row++) {
      LengthAccuracy& a = out[chunk.source[row].size() - kMinSourceLength];
      const std::size_t k = chunk.source[row].size() - kMinSourceLength;
      const std::vector<int> got = model_.predictions(row);
      const auto& want = chunk.target[row];
      bool all = true;
      for (std::size_t i = 0; i <= want.size(); i++) {
        const int w = i < want.size() ? want[i] : kEndToken;
        const bool ok = got[i] == w;
        right[k] += ok;
        all = all && ok;
      }
      tokens[k] += static_cast<int>(want.size()) + 1;
      a.pairs++;
      a.sequence_accuracy += all;
    }
  }
  for (std::size_t k = 0; k < out.size(); k++) {
    if (out[k].pairs == 0) continue;
    out[k].token_accuracy = static_cast<double>(right[k]) / tokens[k];
    out[k].sequence_accuracy /= out[k].pairs;
  }
  return r;
}

ForwardStats Seq2SeqTrainer::probe() {
  return checked(model_, model_.decode(probe_, static_cast<int>(probe_.target[0].size()) + 1),
                 "probe");
}

Decoding Seq2SeqTrainer::translate(const std::vector<int>& source) {
  PairBatch b;
  b.source.push_back(source);
  const ForwardStats f = checked(model_, model_.decode(b, 2 * config_.max_length + 1), "translate");
  if (!f.error.empty()) return {0, f.error};
  const std::vector<int> p = model_.predictions(0);
  for (std::size_t i = 0; i < p.size(); i++)
    if (p[i] == kEndToken) return {static_cast<int>(i) + 1, {}};
  return {static_cast<int>(p.size()), {}};
}

Decoded decoded(const Seq2Seq& m, int steps) {
  Decoded d;
  d.predictions = m.predictions(0);
  d.predictions.resize(steps);
  if (m.config().attention == AttentionKind::None) return d;
  d.alignment = m.alignment(0);
  d.alignment.rows = steps;
  d.alignment.data.resize(static_cast<std::size_t>(steps) * d.alignment.cols);
  return d;
}

}  // namespace attn
