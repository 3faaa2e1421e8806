// The playground's trainer: a config decoded from the fuzz input (every option, some out of
// range; now and then every size at its limit), then a few calls in any order: set_parameters
// with values of every float class (float32's edges included), step, step_on and gradients_on
// with batches whose tokens and targets may be outside the vocabulary, run and evaluate (with some
// heads ablated), and the heads' scores. The core's checks run first, as the bindings run them.
// Invariants: an accepted call either answers with finite numbers (loss, accuracy from 0 to 1,
// probabilities, gradients) or with an error, a refused or failed call changes no weight, the
// weights are always finite, and the trainer never holds more than trainer_bytes says (the
// module's memory cap counts that number).
#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cmath>

#include "core/train.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {
void expect_stats(const ForwardStats& f, const char* call) {
  if (!f.error.empty()) return;
  FUZZ_EXPECT(std::isfinite(f.loss) && f.loss >= 0, std::string(call) + " loss");
  FUZZ_EXPECT(f.accuracy >= 0 && f.accuracy <= 1, std::string(call) + " accuracy");
}

// Bytes the allocator holds now, less `base`.
double held_since(std::size_t base) {
  return static_cast<double>(__sanitizer_get_current_allocated_bytes()) - static_cast<double>(base);
}

Batch batch(Input& in, const ModelConfig& m) {
  Batch b;
  b.size = in.range(0, 3);
  b.length = in.near(std::min(m.length, in.range(1, 20)));
  const int n = std::max(0, b.size * b.length);
  const int tokens = in.near(n);
  for (int i = 0; i < tokens; i++) b.tokens.push_back(in.range(-1, m.vocab));
  if (in.range(0, 7) != 0) {
    const int targets = in.near(n);
    for (int i = 0; i < targets; i++) b.targets.push_back(in.range(-2, m.vocab));
  }
  return b;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  TrainConfig c;
  c.task = static_cast<TrainTask>(in.range(0, 5));  // 5 is not a task: must be rejected
  c.position = static_cast<PositionKind>(in.range(0, 3));
  c.layers = in.range(0, 3);
  c.heads = in.range(0, 5);
  c.d_model = in.range(3, 17);  // small models: each input runs in milliseconds
  c.learning_rate = in.flag() ? 0.003 : in.positive();
  c.seed = static_cast<std::uint32_t>(in.u64());
  c.batch = in.range(0, 4);
  c.scale = in.flag();
  // One input in sixteen: the largest model, for one of the calls on a few sequences (a call on
  // a batch of 64 at these sizes takes seconds under ASan; the native tests make those).
  const bool at_limits = in.range(0, 15) == 15;
  if (at_limits) {
    c.layers = limits::kMaxLayers;
    c.heads = limits::kMaxTrainHeads;
    c.d_model = limits::kMaxDModel;
    c.batch = limits::kMaxBatch;
  }
  if (!check_train_config(c).empty()) return 0;

  const std::size_t base = __sanitizer_get_current_allocated_bytes();
  const double bound = trainer_bytes(c);
  Trainer t(c);
  const ModelConfig& m = t.model().config();
  for (int call = 0, calls = at_limits ? 1 : in.range(1, 6); call < calls; call++) {
    FUZZ_EXPECT(held_since(base) <= bound, "the trainer holds more than trainer_bytes");
    const std::vector<float> before = t.model().parameters();
    const int steps = t.steps();
    bool changes = false;  // may this call change the weights?
    switch (at_limits ? in.range(2, 4)
                      : in.range(0, 6)) {  // at the limits: step_on, gradients, run
      case 0: {  // set_parameters on one tensor, sometimes of the wrong shape
        const std::vector<Tensor>& all = t.model().tensors();
        const Tensor& tensor =
            all[static_cast<std::size_t>(in.range(0, static_cast<int>(all.size()) - 1))];
        Matrix v = in.matrix(in.near(tensor.rows), tensor.cols);
        if (!check_parameter(t.model(), tensor.name, v).empty()) break;
        const Error e = t.set_parameters({{&tensor, v}});
        changes = e.empty();
        if (changes) {
          FUZZ_EXPECT(std::equal(v.data.begin(), v.data.end(),
                                 t.model().parameters().begin() +
                                     static_cast<std::ptrdiff_t>(tensor.offset)),
                      "set_parameters stored something else");
        }
        break;
      }
      case 1: {
        const StepStats s = t.step();
        changes = s.error.empty();
        if (changes) FUZZ_EXPECT(std::isfinite(s.loss) && s.loss >= 0, "step loss");
        break;
      }
      case 2: {
        const Batch b = batch(in, m);
        if (!check_batch(b, m, true).empty()) break;
        const StepStats s = t.step_on(b);
        changes = s.error.empty();
        if (changes) FUZZ_EXPECT(std::isfinite(s.loss) && s.loss >= 0, "step_on loss");
        break;
      }
      case 3: {
        const Batch b = batch(in, m);
        if (!check_batch(b, m, true).empty()) break;
        const ForwardStats f = t.gradients_on(b);
        expect_stats(f, "gradients");
        if (f.error.empty())
          for (float g : t.model().gradients()) FUZZ_EXPECT(std::isfinite(g), "gradient");
        break;
      }
      case 4: {
        Batch b = batch(in, m);
        b.size = 1;
        if (!check_batch(b, m, false).empty()) break;
        const ForwardStats f = t.run(b);
        if (f.error.empty())
          for (float p : t.model().probabilities()) FUZZ_EXPECT(std::isfinite(p), "probability");
        break;
      }
      case 5: {  // head scores, or an evaluation with some heads ablated
        if (in.flag()) {
          const HeadScores h = t.head_scores();
          if (h.error.empty())
            for (std::size_t k = 0; k < h.induction.size(); k++)
              FUZZ_EXPECT(h.induction[k] >= 0 && h.induction[k] <= 1 + 1e-6 &&
                              h.previous_token[k] >= 0 && h.previous_token[k] <= 1 + 1e-6,
                          "a head score outside 0..1");
        } else {
          std::vector<char> ablated(static_cast<std::size_t>(in.range(0, m.layers * m.heads)));
          for (char& a : ablated) a = in.flag();
          expect_stats(t.evaluate(ablated), "evaluate ablated");
        }
        break;
      }
      default:
        expect_stats(t.evaluate(), "evaluate");
        break;
    }
    if (!changes) {
      FUZZ_EXPECT(t.model().parameters() == before, "a refused call changed the weights");
      FUZZ_EXPECT(t.steps() == steps, "a refused call counted a step");
    }
    for (float p : t.model().parameters()) FUZZ_EXPECT(std::isfinite(p), "a weight is not finite");
  }
  FUZZ_EXPECT(held_since(base) <= bound, "the trainer holds more than trainer_bytes");
  return 0;
}
