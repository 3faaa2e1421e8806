// The encoder–decoder trainer: a config decoded from the fuzz input (every option, some out of
// range, a task or attention kind that is not one; now and then every size at its limit), then a
// few calls in any order: new values for a tensor (every float class, float32's edges included),
// step, step_on and gradients_on with pairs whose sentences may be empty, too long or outside
// either vocabulary, translate, probe, evaluate and evaluate_by_length. The core's checks run
// first, as the bindings run them.
// Invariants: an accepted call answers with finite numbers (loss, accuracy from 0 to 1, every
// probability, state and alignment row, each row a distribution over the source); a refused
// call changes no weight and counts no step; the weights stay finite; a translation stops within
// 2 max_length + 1 steps; and the model never holds more than seq2seq_bytes says (the module's
// memory cap counts that number).
#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cmath>

#include "core/seq2seq_trainer.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {
// Bytes the allocator holds now, less `base`.
double held_since(std::size_t base) {
  return static_cast<double>(__sanitizer_get_current_allocated_bytes()) - static_cast<double>(base);
}

bool all_finite_weights(const Seq2SeqTrainer& t) { return all_finite(t.model().parameters()); }

void expect_stats(const ForwardStats& f, const Seq2SeqTrainer& t, const char* call) {
  if (!f.error.empty()) return;
  FUZZ_EXPECT(std::isfinite(f.loss) && f.loss >= 0, std::string(call) + ": loss");
  FUZZ_EXPECT(f.accuracy >= 0 && f.accuracy <= 1, std::string(call) + ": accuracy");
  FUZZ_EXPECT(t.model().finite(), std::string(call) + ": a probability, weight or state");
}

std::vector<int> sentence(Input& in, int max_length, int lo, int vocab) {
  std::vector<int> s(static_cast<std::size_t>(std::max(0, in.near(in.range(1, max_length)))));
  for (int& x : s) x = in.range(0, 15) == 0 ? in.range(-3, vocab + 2) : in.range(lo, vocab - 1);
  return s;
}

// 1 to 3 pairs.
PairBatch pairs(Input& in, const Seq2SeqConfig& c, bool targets) {
  const Seq2SeqTaskSpec spec = seq2seq_task_spec(c.task);
  const int vs = static_cast<int>(spec.source_words->size());
  const int vt = static_cast<int>(spec.target_words->size());
  PairBatch b;
  const int n = in.near(in.range(1, 3));
  for (int r = 0; r < n; r++) b.source.push_back(sentence(in, c.max_length, 0, vs));
  if (targets) {
    const int m = in.range(0, 7) == 0 ? in.near(n) : n;
    for (int r = 0; r < m; r++) b.target.push_back(sentence(in, 2 * c.max_length, 1, vt));
  }
  return b;
}

// Every row of the alignment is a distribution over the source.
void expect_alignment(const Seq2Seq& m, int source_length) {
  if (m.config().attention == AttentionKind::None) return;
  const Matrix a = m.alignment(0);
  for (int i = 0; i < a.rows; i++) {
    double sum = 0;
    for (int j = 0; j < std::min(a.cols, source_length); j++) {
      FUZZ_EXPECT(a.at(i, j) >= 0, "a negative or NaN attention weight");
      sum += a.at(i, j);
    }
    FUZZ_EXPECT(std::fabs(sum - 1) < 1e-3, "an alignment row that does not sum to 1");
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  Seq2SeqConfig c;
  c.task = static_cast<Seq2SeqTask>(in.range(0, 3));         // 3 is not a task
  c.attention = static_cast<AttentionKind>(in.range(0, 4));  // 4 is not a kind
  c.bidirectional = in.flag();
  c.hidden = in.range(3, 13);  // small models: each input runs in milliseconds
  c.embed = in.range(1, 9);
  c.learning_rate = in.flag() ? 0.003 : in.positive();
  c.clip = in.flag() ? 1 : in.number();
  c.seed = static_cast<std::uint32_t>(in.u64());
  c.batch = in.range(0, 4);
  c.max_length = in.range(7, 12);
  // One input in sixteen: the largest model, for one of the calls on a few pairs (a call on a
  // batch of 64 at these sizes takes seconds under ASan; the native tests make those).
  const bool at_limits = in.range(0, 15) == 15;
  if (at_limits) {
    c.hidden = limits::kMaxSeq2SeqHidden;
    c.embed = limits::kMaxSeq2SeqEmbed;
    c.batch = limits::kMaxBatch;
    c.max_length = limits::kMaxSeq2SeqLength;
  }
  if (!check_seq2seq_config(c).empty()) return 0;

  const std::size_t base = __sanitizer_get_current_allocated_bytes();
  const double bound = seq2seq_bytes(c);
  Seq2SeqTrainer t(c);
  for (int call = 0, calls = at_limits ? 1 : in.range(1, 6); call < calls; call++) {
    FUZZ_EXPECT(held_since(base) <= bound, "the model holds more than seq2seq_bytes");
    const std::vector<float> before = t.model().parameters();
    const int steps = t.steps();
    bool changes = false;                                   // may this call change the weights?
    switch (at_limits ? in.range(2, 5) : in.range(0, 6)) {  // at the limits: step_on to probe
      case 0: {  // a tensor's new value (the bindings check its shape and finiteness first)
        const std::vector<Tensor>& all = t.model().tensors();
        const Tensor& tensor =
            all[static_cast<std::size_t>(in.range(0, static_cast<int>(all.size()) - 1))];
        Matrix v = in.matrix(tensor.rows, tensor.cols);  // now and then one number too many or few
        if (v.data.size() != tensor.size() || !check_parameter(tensor, v).empty()) break;
        changes = t.set_parameters({{&tensor, v}}).empty();
        if (changes)
          FUZZ_EXPECT(std::equal(v.data.begin(), v.data.end(),
                                 t.model().parameters().begin() +
                                     static_cast<std::ptrdiff_t>(tensor.offset)),
                      "set_parameters stored something else");
        break;
      }
      case 1: {
        const StepStats s = t.step();
        changes = s.error.empty();
        if (changes) FUZZ_EXPECT(std::isfinite(s.loss) && s.loss >= 0, "step loss");
        break;
      }
      case 2: {
        const PairBatch b = pairs(in, c, true);
        if (!check_pairs(b, c, true).empty()) break;
        const StepStats s = t.step_on(b);
        changes = s.error.empty();
        if (changes) FUZZ_EXPECT(std::isfinite(s.loss) && s.loss >= 0, "step_on loss");
        break;
      }
      case 3: {
        const PairBatch b = pairs(in, c, true);
        if (!check_pairs(b, c, true).empty()) break;
        const ForwardStats f = t.gradients_on(b);
        expect_stats(f, t, "gradients");
        if (f.error.empty()) FUZZ_EXPECT(all_finite(t.model().gradients()), "a gradient");
        break;
      }
      case 4: {
        PairBatch b = pairs(in, c, false);
        b.source.resize(1);
        if (!check_pairs(b, c, false).empty()) break;
        const Decoding d = t.translate(b.source[0]);
        FUZZ_EXPECT(t.model().steps() == 2 * c.max_length + 1, "a translation past its bound");
        FUZZ_EXPECT(d.steps >= 0 && d.steps <= t.model().steps(), "translation steps");
        if (d.error.empty()) {
          FUZZ_EXPECT(t.model().finite(), "translate: a probability, weight or state");
          expect_alignment(t.model(), static_cast<int>(b.source[0].size()));
        }
        break;
      }
      case 5: {
        const ForwardStats f = t.probe();
        expect_stats(f, t, "probe");
        if (f.error.empty())
          expect_alignment(t.model(), static_cast<int>(t.probe_pair().source[0].size()));
        break;
      }
      default: {
        expect_stats(t.evaluate(), t, "evaluate");
        const LengthAccuracies r = t.evaluate_by_length();
        for (const LengthAccuracy& a : r.lengths) {
          FUZZ_EXPECT(a.token_accuracy >= 0 && a.token_accuracy <= 1, "token accuracy");
          FUZZ_EXPECT(a.sequence_accuracy >= 0 && a.sequence_accuracy <= 1, "sequence accuracy");
        }
        break;
      }
    }
    if (!changes) {
      FUZZ_EXPECT(t.model().parameters() == before, "a refused call changed the weights");
      FUZZ_EXPECT(t.steps() == steps, "a refused call counted a step");
    }
    FUZZ_EXPECT(all_finite_weights(t), "a weight is not finite");
  }
  FUZZ_EXPECT(held_since(base) <= bound, "the model holds more than seq2seq_bytes");
  return 0;
}
