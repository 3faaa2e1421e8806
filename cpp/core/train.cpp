// Training the playground's transformer (see train.h).
#include "core/train.h"

#include <cmath>

namespace attn {

namespace {
constexpr std::uint32_t kDataStream = 2;     // the seed's stream for the training batches
constexpr std::uint32_t kHeldOutStream = 3;  // ... and for the held-out batch
constexpr int kHeldOutSize = 64;
}  // namespace

// ---- options ------------------------------------------------------------------------------

Error check_train_config(const TrainConfig& c) {
  Error e = kTaskOption.check(c.task);
  if (e.empty()) e = kPositionOption.check(c.position);
  if (e.empty()) e = check_number(kLayers, c.layers);
  if (e.empty()) e = check_number(kTrainHeads, c.heads);
  if (e.empty()) e = check_number(kDModel, c.d_model);
  if (e.empty()) e = check_number(kLearningRate, c.learning_rate);
  if (e.empty()) e = check_number(kSeed, c.seed);
  if (e.empty()) e = check_number(kBatch, c.batch);
  if (e.empty() && c.d_model % c.heads != 0) {
    e = expected(kDModel.name, "a multiple of heads (" + std::to_string(c.heads) + ")",
                 std::to_string(c.d_model));
  }
  return e;
}

ModelConfig model_config(const TrainConfig& c) {
  ModelConfig m;
  m.vocab = task_spec(c.task).vocab;
  m.length = kTaskLength;
  m.layers = c.layers;
  m.heads = c.heads;
  m.d_model = c.d_model;
  m.scale = c.scale;
  m.position = c.position;
  return m;
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

Error check_parameter(const Transformer& model, const std::string& name, const Matrix& value) {
  const Tensor* t = model.tensor(name);
  if (!t) return name + ": not a tensor of this model";
  Error e = check_shape(name.c_str(), value, t->rows, t->cols);
  if (!e.empty()) return e;
  const std::string bad = first_non_finite(value);
  return bad.empty() ? Error() : name + ": " + bad + " is not finite (expected finite numbers)";
}

// ---- Adam ---------------------------------------------------------------------------------

Adam::Adam(std::size_t size, float learning_rate, float beta1, float beta2, float eps)
    : lr_(learning_rate), beta1_(beta1), beta2_(beta2), eps_(eps), m_(size, 0.0f), v_(size, 0.0f) {}

// torch.optim.Adam's arithmetic: m, v moving averages; step = lr / (1 - beta1^t);
// p -= step * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
void Adam::update(std::vector<float>& params, const std::vector<float>& grads) {
  t_++;
  const double correction1 = 1.0 - std::pow(static_cast<double>(beta1_), t_);
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), t_);
  const float step = static_cast<float>(lr_ / correction1);
  const float root2 = static_cast<float>(std::sqrt(correction2));
  for (std::size_t i = 0; i < params.size(); i++) {
    const float g = grads[i];
    m_[i] = m_[i] * beta1_ + g * (1.0f - beta1_);
    v_[i] = v_[i] * beta2_ + g * g * (1.0f - beta2_);
    params[i] -= step * (m_[i] / (std::sqrt(v_[i]) / root2 + eps_));
  }
}

// ---- the trainer --------------------------------------------------------------------------

Trainer::Trainer(const TrainConfig& config)
    : config_(config),
      model_(model_config(config)),
      adam_(model_.parameters().size(), static_cast<float>(config.learning_rate)),
      data_(config.seed, kDataStream) {
  model_.init(config.seed);
  Rng held_out(config.seed, kHeldOutStream);
  held_out_ = make_batch(config.task, held_out, kHeldOutSize);
}

StepStats Trainer::step() { return step_on(make_batch(config_.task, data_, config_.batch)); }

StepStats Trainer::step_on(const Batch& batch) {
  ForwardStats f = model_.forward(batch);
  model_.backward();
  adam_.update(model_.parameters(), model_.gradients());
  return {f.loss, f.accuracy};
}

ForwardStats Trainer::gradients_on(const Batch& batch) {
  ForwardStats f = model_.forward(batch);
  model_.backward();
  return f;
}

ForwardStats Trainer::evaluate() { return model_.forward(held_out_); }

ForwardStats Trainer::run(const Batch& batch) { return model_.forward(batch); }

}  // namespace attn
