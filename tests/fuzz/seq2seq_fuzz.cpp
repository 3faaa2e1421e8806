// The encoder–decoder trainer: a config decoded from the fuzz input (every option, some out of
// range, a task or attention kind that is not one), then a few calls in any order: new values for
// a tensor (every float class, float32's edges included), step, step_on and gradients_on with
// pairs whose sentences may be empty, too long or outside either vocabulary, translate, probe,
// evaluate and evaluate_by_length. The core's checks run first, as the bindings run them.
// Invariants: an accepted call answers with finite numbers (loss, accuracy from 0 to 1, every
// alignment row a distribution over the source) or the weights were not finite to begin with; a
// refused call changes no weight and counts no step; a translation stops within 2 max_length + 1
// steps.
#include <algorithm>
#include <cmath>

#include "core/seq2seq.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {
bool all_finite(const std::vector<float>& v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

void expect_stats(const ForwardStats& f, bool finite_weights, const char* call) {
  if (!finite_weights) return;
  FUZZ_EXPECT(!(f.loss < 0) && !(f.accuracy < 0) && !(f.accuracy > 1),
              std::string(call) + ": loss or accuracy out of range");
}

std::vector<int> sentence(Input& in, int max_length, int lo, int vocab) {
  std::vector<int> s(static_cast<std::size_t>(std::max(0, in.near(in.range(1, max_length)))));
  for (int& x : s) x = in.range(0, 15) == 0 ? in.range(-3, vocab + 2) : in.range(lo, vocab - 1);
  return s;
}

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

// Every row of the alignment whose weights are numbers is a distribution over the source (a
// row of NaN comes from weights past what float32 holds in the products: not checked here).
void expect_alignment(const Seq2Seq& m, int source_length) {
  if (m.config().attention == AttentionKind::None) return;
  const Matrix a = m.alignment(0);
  for (int i = 0; i < a.rows; i++) {
    double sum = 0;
    bool numbers = true;
    for (int j = 0; j < std::min(a.cols, source_length); j++) {
      numbers = numbers && std::isfinite(a.at(i, j));
      sum += a.at(i, j);
    }
    if (!numbers) continue;
    for (int j = 0; j < std::min(a.cols, source_length); j++)
      FUZZ_EXPECT(a.at(i, j) >= 0, "a negative attention weight");
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
  if (!check_seq2seq_config(c).empty()) return 0;

  Seq2SeqTrainer t(c);
  for (int call = 0, calls = in.range(1, 6); call < calls; call++) {
    const std::vector<float> before = t.model().parameters();
    const bool finite = all_finite(before);
    const int steps = t.steps();
    bool changes = false;  // may this call change the weights?
    switch (in.range(0, 6)) {
      case 0: {  // a tensor's new value (the bindings check its shape and finiteness first)
        const std::vector<Tensor>& all = t.model().tensors();
        const Tensor& tensor =
            all[static_cast<std::size_t>(in.range(0, static_cast<int>(all.size()) - 1))];
        Matrix v = in.matrix(tensor.rows, tensor.cols);  // now and then one number too many or few
        if (v.data.size() != tensor.size() || !first_non_finite(v).empty()) break;
        std::copy(v.data.begin(), v.data.end(),
                  t.model().parameters().begin() + static_cast<std::ptrdiff_t>(tensor.offset));
        changes = true;
        break;
      }
      case 1: {
        const StepStats s = t.step();
        changes = true;
        if (finite && s.error.empty()) FUZZ_EXPECT(!(s.loss < 0), "step loss");
        break;
      }
      case 2: {
        const PairBatch b = pairs(in, c, true);
        if (!check_pairs(b, c, true).empty()) break;
        const StepStats s = t.step_on(b);
        changes = true;
        if (finite && s.error.empty()) FUZZ_EXPECT(!(s.loss < 0), "step_on loss");
        break;
      }
      case 3: {
        const PairBatch b = pairs(in, c, true);
        if (!check_pairs(b, c, true).empty()) break;
        expect_stats(t.gradients_on(b), finite, "gradients");
        break;
      }
      case 4: {
        PairBatch b = pairs(in, c, false);
        b.source.resize(1);
        if (!check_pairs(b, c, false).empty()) break;
        t.translate(b.source[0]);
        FUZZ_EXPECT(t.model().steps() <= 2 * c.max_length + 1, "a translation past its bound");
        if (finite) expect_alignment(t.model(), static_cast<int>(b.source[0].size()));
        break;
      }
      case 5: {
        expect_stats(t.probe(), finite, "probe");
        if (finite) expect_alignment(t.model(), static_cast<int>(t.probe_pair().source[0].size()));
        break;
      }
      default: {
        expect_stats(t.evaluate(), finite, "evaluate");
        for (const LengthAccuracy& a : t.evaluate_by_length()) {
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
  }
  return 0;
}
