// Training the playground's transformer (see train.h).
#include "core/train.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace attn {

namespace {
constexpr float kMaxAdamGradient = 1.8e19f;  // g * g stays within float32
}  // namespace

// ---- options ------------------------------------------------------------------------------

Error check_train_config(const TrainConfig& c) {
  Error e = check_options(c);
  if (e.empty() && c.d_model % c.heads != 0) {
    e = expected(kDModel.name, "a multiple of heads (" + std::to_string(c.heads) + ")",
                 std::to_string(c.d_model));
  }
  return e;
}

Error check_model_room(const ModelKind& kind, int live, double need, double used_bytes) {
  auto mb = [](double bytes) {
    return std::to_string(static_cast<long>(bytes / (1024 * 1024) + 0.5));
  };
  if (live >= kind.max_live) {
    return std::string(kind.call) + ": at most " + std::to_string(kind.max_live) + " live " +
           kind.plural + " at once (delete() one you no longer need)";
  }
  if (used_bytes + need > limits::kMaxModelBytes) {
    return std::string(kind.call) + ": the live trainers and encoder–decoders hold up to " +
           mb(used_bytes) + " MiB and this one needs " + mb(need) + " MiB, past the " +
           mb(limits::kMaxModelBytes) +
           " MiB they may use together (delete() one you no longer need, or make a smaller one)";
  }
  return {};
}

double trainer_bytes(const TrainConfig& c) {
  const double V = task_spec(c.task).vocab, T = task_spec(c.task).length, D = c.d_model,
               L = c.layers, H = c.heads, dk = D / H;
  const double N = std::max(limits::kMaxBatch, kHeldOutSize) * T;  // rows of the largest batch
  const double params =
      2 * V * D + V + (c.position == PositionKind::Learned ? T * D : 0) + L * (4 * D * D + 4 * D);
  double floats = 4 * params;                             // parameters, gradients, Adam m and v
  floats += (L + 1) * N * D + L * 3 * N * D + L * N * D;  // residual streams, q k v, z
  floats += L * std::max(limits::kMaxBatch, kHeldOutSize) * H * T * T;  // attention weights
  floats += N * V + 8 * T * dk + 3 * T * T;                      // probabilities, per-head scratch
  floats += 2 * std::max(N * V, 3 * N * D) + 3 * N * D + N * D;  // backward scratch
  floats += T * D;                                               // the sinusoid table
  floats += std::max({3 * N * D, N * V, 3 * D * D}) + 7 * N;     // the products' packed panels
  const double batches = 2 * N * sizeof(int) * 2 + kScoreSequences * T * sizeof(int) * 2;
  // (the held-out, the last batch and the score batch)
  return floats * sizeof(float) + batches + 64 * 1024;  // and the objects themselves
}

ModelConfig model_config(const TrainConfig& c) {
  const TaskSpec spec = task_spec(c.task);
  return {c, spec.vocab, spec.length};  // c's model options, the task's vocabulary and length
}

Error check_batch(const Batch& b, const ModelConfig& m, bool need_targets) {
  if (b.size < 1 || b.size > limits::kMaxBatch) {
    return expected("tokens", "1 to " + std::to_string(limits::kMaxBatch) + " sequences",
                    std::to_string(b.size));
  }
  if (b.length < 1 || b.length > m.length) {
    return expected("tokens", "sequences of 1 to " + std::to_string(m.length) + " tokens",
                    std::to_string(b.length));
  }
  const std::size_t n = static_cast<std::size_t>(b.size) * b.length;
  if (b.tokens.size() != n)
    return expected("tokens", std::to_string(n) + " tokens", std::to_string(b.tokens.size()));
  for (std::size_t i = 0; i < n; i++) {
    if (b.tokens[i] < 0 || b.tokens[i] >= m.vocab) {
      return "tokens: entry " + std::to_string(i) + " is " + std::to_string(b.tokens[i]) +
             " (expected a token from 0 to " + std::to_string(m.vocab - 1) + ")";
    }
  }
  if (!need_targets && b.targets.empty()) return {};
  if (b.targets.size() != n)
    return expected("targets", std::to_string(n) + " targets", std::to_string(b.targets.size()));
  for (std::size_t i = 0; i < n; i++) {
    if (b.targets[i] < kNoTarget || b.targets[i] >= m.vocab) {
      return "targets: entry " + std::to_string(i) + " is " + std::to_string(b.targets[i]) +
             " (expected -1 = none, or a token from 0 to " + std::to_string(m.vocab - 1) + ")";
    }
  }
  return {};
}

Error check_parameter(const Tensor& t, const Matrix& value) {
  Error e = check_shape(t.name.c_str(), value, t.rows, t.cols);
  if (!e.empty()) return e;
  const std::string bad = first_non_finite(value);
  return bad.empty() ? Error() : t.name + ": " + bad + " is not finite (expected finite numbers)";
}

Error check_parameter(const Transformer& model, const std::string& name, const Matrix& value) {
  const Tensor* t = model.tensor(name);
  return t ? check_parameter(*t, value) : name + ": not a tensor of this model";
}

// ---- Adam ---------------------------------------------------------------------------------

Adam::Adam(std::size_t size, float learning_rate, float beta1, float beta2, float eps)
    : lr_(learning_rate), beta1_(beta1), beta2_(beta2), eps_(eps), m_(size, 0.0f), v_(size, 0.0f) {}

// torch.optim.Adam's arithmetic: m, v moving averages; step = lr / (1 - beta1^t);
// p -= step * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
// Two passes with the same arithmetic: the first only looks (is every new moment and parameter
// finite?), the second writes, so a refused step changes nothing and costs no copy.
bool Adam::update(std::vector<float>& params, const std::vector<float>& grads) {
  const int t = t_ + 1;
  const double correction1 = 1.0 - std::pow(static_cast<double>(beta1_), t);
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), t);
  const float step = static_cast<float>(lr_ / correction1);
  const float root2 = static_cast<float>(std::sqrt(correction2));
  for (int write = 0; write < 2; write++) {
    for (std::size_t i = 0; i < params.size(); i++) {
      const float g = grads[i];
      const float m = m_[i] * beta1_ + g * (1.0f - beta1_);
      const float v = v_[i] * beta2_ + g * g * (1.0f - beta2_);
      const float p = params[i] - step * (m / (std::sqrt(v) / root2 + eps_));
      if (!write) {
        if (!std::isfinite(m) || !std::isfinite(v) || !std::isfinite(p)) return false;
        continue;
      }
      m_[i] = m;
      v_[i] = v;
      params[i] = p;
    }
  }
  t_ = t;
  return true;
}

// ---- the trainer --------------------------------------------------------------------------

Trainer::Trainer(const TrainConfig& config)
    : TrainerBase(config, model_config(config),
                  [&](Rng& rng, int size) { return make_batch(config.task, rng, size); }) {
  const TaskSpec spec = task_spec(config.task);
  score_batch_ = repeated_random_batch(spec.vocab, spec.length, kScoreSequences);
}

// ---- what a head does ----------------------------------------------------------------------

PatternScores pattern_scores(const Matrix& a, const int* tokens) {
  const int T = a.rows;
  PatternScores s;
  double prev = 0, induction = 0;
  for (int i = 1; i < T; i++) prev += a.at(i, i - 1);
  for (int i = 1; i < T; i++) {
    int j = i - 1;
    while (j >= 0 && tokens[j] != tokens[i]) j--;
    if (j < 0) continue;
    induction += a.at(i, j + 1);
    s.induction_rows++;
  }
  s.previous_token = T > 1 ? prev / (T - 1) : 0;
  s.induction = s.induction_rows ? induction / s.induction_rows : 0;
  return s;
}

HeadScores Trainer::head_scores() {
  HeadScores out;
  const ModelConfig& m = model_.config();
  out.layers = m.layers;
  out.heads = m.heads;
  const std::size_t n = static_cast<std::size_t>(m.layers) * m.heads;
  out.previous_token.assign(n, 0.0);
  out.induction.assign(n, 0.0);
  const std::vector<char> kept = model_.ablated();
  model_.set_ablated({});
  ForwardStats f = checked(model_, model_.forward(score_batch_), "headScores");
  model_.set_ablated(kept);
  if (!f.error.empty()) {
    out.error = f.error;
    return out;
  }
  for (int l = 0; l < m.layers; l++)
    for (int h = 0; h < m.heads; h++)
      for (int b = 0; b < score_batch_.size; b++) {
        const PatternScores p = pattern_scores(
            model_.attention(l, h, b),
            score_batch_.tokens.data() + static_cast<std::size_t>(b) * score_batch_.length);
        out.previous_token[static_cast<std::size_t>(l) * m.heads + h] +=
            p.previous_token / score_batch_.size;
        out.induction[static_cast<std::size_t>(l) * m.heads + h] += p.induction / score_batch_.size;
      }
  return out;
}

StepStats Trainer::step() { return step_on(make_batch(config_.task, data_, config_.batch)); }

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

bool trainable(const std::vector<float>& gradients) {
  for (float g : gradients)
    if (!(std::fabs(g) < kMaxAdamGradient)) return false;
  return true;
}

namespace {
// The largest |x| among (tensor, its values, how many of them) that `each` visits, and its tensor
struct Largest {
  double x = -1;
  const Tensor* tensor = nullptr;
  std::string text() const {  // "<|x|>, in <tensor>"
    return tensor ? format_float(static_cast<float>(x)) + ", in " + tensor->name : "none";
  }
};
template <typename Each>
Largest largest(Each each) {
  Largest big;
  each([&](const Tensor& t, const float* d, std::size_t n) {
    for (std::size_t i = 0; i < std::min(t.size(), n); i++) {
      const double x = std::fabs(static_cast<double>(d[i]));
      if (x > big.x) big = {x, &t};
    }
  });
  return big;
}
}  // namespace

std::string largest_weight(const std::vector<Tensor>& tensors, const std::vector<float>& params) {
  return largest([&](auto look) {
           for (const Tensor& t : tensors) look(t, params.data() + t.offset, t.size());
         })
      .text();
}

Error leaves_float32(const char* call, const std::vector<Tensor>& tensors,
                     const std::vector<float>& params) {
  return std::string(call) +
         ": the forward pass leaves float32 with these weights (the largest |weight| is " +
         largest_weight(tensors, params) +
         "); expected weights that keep every activation within float32";
}

Error update_leaves_float32(const std::vector<Tensor>& tensors, const std::vector<float>& params) {
  return "step: the update would leave float32 (a gradient or weight past 3.4e+38; the largest "
         "|weight| is " +
         largest_weight(tensors, params) + "); the weights are unchanged";
}

Error gradients_leave_float32(const std::vector<Tensor>& tensors,
                              const std::vector<float>& params) {
  return "gradients: the backward pass leaves float32 with these weights (the largest |weight| "
         "is " +
         largest_weight(tensors, params) +
         "); expected weights that keep every gradient within float32";
}

Error set_checked(std::vector<float>& params, const std::vector<ParameterUpdate>& updates,
                  const std::function<bool(double* loss)>& trains) {
  if (updates.empty()) return {};
  std::vector<float> before;  // the touched tensors' values, in the order of `updates`
  for (const ParameterUpdate& u : updates) {
    auto from = params.begin() + static_cast<std::ptrdiff_t>(u.tensor->offset);
    before.insert(before.end(), from, from + static_cast<std::ptrdiff_t>(u.tensor->size()));
    std::copy(u.value.data.begin(), u.value.data.end(), from);
  }
  double loss = 0;
  if (trains(&loss)) return {};
  std::size_t at = 0;
  for (const ParameterUpdate& u : updates) {
    std::copy(before.begin() + static_cast<std::ptrdiff_t>(at),
              before.begin() + static_cast<std::ptrdiff_t>(at + u.tensor->size()),
              params.begin() + static_cast<std::ptrdiff_t>(u.tensor->offset));
    at += u.tensor->size();
  }
  const Largest big = largest([&](auto look) {
    for (const ParameterUpdate& u : updates)
      look(*u.tensor, u.value.data.data(), u.value.data.size());
  });
  return big.tensor->name +
         ": with these values training leaves float32 (on the held-out batch the loss is " +
         format_number(loss) + " or a gradient is past 1.8e+19; the largest |value| is " +
         format_float(static_cast<float>(big.x)) +
         "); expected values that keep every activation within float32; nothing was changed";
}

StepStats Trainer::step_on(const Batch& batch) {
  ForwardStats f = checked(model_, model_.forward(batch), "step");
  if (!f.error.empty()) return {0, 0, f.error + "; the weights are unchanged"};
  model_.backward();
  if (!adam_.update(model_.parameters(), model_.gradients()))
    return {0, 0, update_leaves_float32(model_.tensors(), model_.parameters())};
  return {f.loss, f.accuracy, {}};
}

namespace {
// The model with some heads ablated for one pass, and none afterwards.
struct Ablation {
  Transformer& model;
  Ablation(Transformer& m, const std::vector<char>& ablated) : model(m) { m.set_ablated(ablated); }
  ~Ablation() { model.set_ablated({}); }
};
}  // namespace

ForwardStats Trainer::evaluate(const std::vector<char>& ablated) {
  Ablation a(model_, ablated);
  return checked(model_, model_.forward(held_out_), "evaluate");
}

ForwardStats Trainer::run(const Batch& batch, const std::vector<char>& ablated) {
  Ablation a(model_, ablated);
  return checked(model_, model_.forward(batch), "run");
}

}  // namespace attn
