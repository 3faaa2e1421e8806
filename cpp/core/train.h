// Training the playground's transformer: the options and their checks, Adam, and a Trainer that
// draws each step's batch from the seed, so one seed reproduces a whole run (the initial
// weights, every batch, every loss).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/check.h"
#include "core/rng.h"
#include "core/train_tasks.h"
#include "core/transformer.h"

namespace attn {

// ---- options ------------------------------------------------------------------------------

namespace limits {
constexpr int kMaxBatch = 64;
constexpr int kMaxStepsPerCall = 1000;
constexpr int kMaxTrainLength = 32;  // the longest sequence a model may be built for
static_assert(kMaxTrainLength >= kLongTaskLength && kMaxTrainLength >= kTaskLength);
// Live trainers in one module. The module's models (trainers and encoder–decoders alike) may
// hold kMaxModelBytes together, each counted at the most it can hold (trainer_bytes,
// seq2seq_bytes) from the moment it is made: the module's memory is 1 GB, past it the module
// stops, and the rest is left for each call's own.
constexpr int kMaxTrainers = 50;
constexpr double kMaxModelBytes = 800.0 * 1024 * 1024;
}  // namespace limits

inline constexpr NumberOption kLearningRate{"learningRate", 1e-5, 1, false, nullptr, 0.003};
inline constexpr NumberOption kBatch{"batch", 1, limits::kMaxBatch, true, nullptr, 32};
inline constexpr NumberOption kSteps{"steps", 1, limits::kMaxStepsPerCall, true, nullptr, 1};

// The options both trainers take (each_training_option), each absent one at its table's fallback.
struct TrainingOptions {
  double learning_rate = kLearningRate.fallback;
  std::uint32_t seed = static_cast<std::uint32_t>(kSeed.fallback);  // the weights and every batch
  int batch = static_cast<int>(kBatch.fallback);
};

// The model's options (transformer.h), the options both trainers take, and the task.
struct TrainConfig : ModelOptions, TrainingOptions {
  TrainTask task = kTaskOption.fallback;
};

// The most a Trainer of this config holds after any sequence of calls (its parameters, Adam's
// moments, the gradients and every buffer a forward or backward pass of the largest batch
// keeps), in bytes: what the module's memory cap counts.
double trainer_bytes(const TrainConfig& c);

// f(option, field) for each option of a config, in the order they are read, described
// (engine.options) and checked: each trainer's own, with the options both take (the learning
// rate, the seed and the batch) among them. Config is the config, const or not (IfConfig).
template <typename Config, typename F>
void each_training_option(Config& c, F& f) {
  f(kLearningRate, c.learning_rate);
  f(kSeed, c.seed);
  f(kBatch, c.batch);
}
template <typename Config, typename T>
using IfConfig = std::enable_if_t<std::is_same_v<std::remove_const_t<Config>, T>, int>;
template <typename Config, typename F, IfConfig<Config, TrainConfig> = 0>
void each_option(Config& c, F f) {
  f(kTaskOption, c.task);
  f(kPositionOption, c.position);
  f(kLayers, c.layers);
  f(kTrainHeads, c.heads);
  f(kDModel, c.d_model);
  each_training_option(c, f);
  f(kTrainScale, c.scale);
}

// An option's field within the option's table: the first one outside it sets `error`.
struct OptionCheck {
  Error& error;
  template <typename E, std::size_t N>
  void operator()(const ChoiceOption<E, N>& o, E x) {
    if (error.empty()) error = o.check(x);
  }
  void operator()(const FlagOption&, bool) {}
  template <typename T>
  void operator()(const NumberOption& o, T x) {
    if (error.empty()) error = check_number(o, x);
  }
};
// Every option of a config (each_option) within its table.
template <typename Config>
Error check_options(const Config& c) {
  Error e;
  each_option(c, OptionCheck{e});
  return e;
}

// Every option within its table, and d_model a multiple of heads.
Error check_train_config(const TrainConfig& c);
// A kind of model the trainer module keeps: how a message names it, and how many may live at once.
struct ModelKind {
  const char* call;    // "trainer": in messages, and the key of a new handle
  const char* plural;  // "trainers"
  int max_live;
};
inline constexpr ModelKind kTrainerKind{"trainer", "trainers", limits::kMaxTrainers};
// Room for one more model of `kind` needing `need` bytes, beside `live` others of its kind and
// all the module's models holding `used_bytes` together: at most kind.max_live of the kind, and
// limits::kMaxModelBytes for all of them.
Error check_model_room(const ModelKind& kind, int live, double need, double used_bytes);
// The model a config trains.
ModelConfig model_config(const TrainConfig& c);

// tokens (size * length) of 0..vocab - 1 and targets of kNoTarget or 0..vocab - 1, length at
// most the model's: the batch a caller hands in (golden tests, the page's own input).
Error check_batch(const Batch& b, const ModelConfig& m, bool need_targets);
// A new value for tensor t (of either trainer's model): its exact shape, finite numbers.
Error check_parameter(const Tensor& t, const Matrix& value);
// The same for the model's tensor `name`.
Error check_parameter(const Transformer& model, const std::string& name, const Matrix& value);

// ---- Adam (as torch.optim.Adam, no weight decay) ------------------------------------------

class Adam {
 public:
  Adam(std::size_t size, float learning_rate, float beta1 = 0.9f, float beta2 = 0.999f,
       float eps = 1e-8f);
  // One step. False, and nothing changed (moments, step count, parameters), when the step would
  // leave a parameter or a moment that is not finite (a gradient past float32, or NaN).
  bool update(std::vector<float>& params, const std::vector<float>& grads);
  int steps() const { return t_; }

 private:
  float lr_, beta1_, beta2_, eps_;
  int t_ = 0;
  std::vector<float> m_, v_;
};

// ---- what a head does ----------------------------------------------------------------------

// Two scores of one attention pattern a (length, length) on its tokens (Olsson et al. 2022):
//   previous_token  the mean weight of rows i >= 1 on position i - 1;
//   induction       the mean weight of rows i whose token occurred before (latest at j < i) on
//                   position j + 1, the token after that occurrence (0 when no token repeats).
struct PatternScores {
  double previous_token = 0;
  double induction = 0;
  int induction_rows = 0;  // rows the induction score averages over
};
PatternScores pattern_scores(const Matrix& a, const int* tokens);

// Every head's two scores, averaged over the sequences of a repeated random batch
// (repeated_random_batch of the task's vocabulary and length, kScoreSequences of them):
// index layer * heads + head.
constexpr int kScoreSequences = 8;
struct HeadScores {
  int layers = 0, heads = 0;
  std::vector<double> previous_token, induction;
  Error error;
};

// ---- the trainer --------------------------------------------------------------------------

struct StepStats {
  double loss = 0;
  double accuracy = 0;
  Error error;  // not empty: the step was refused and the weights are the ones before it
};

// Several steps in one call: each step's loss and accuracy, in order; a refused step ends the
// run with its error, saying how many were taken (the weights are the last good ones).
struct StepsRun {
  std::vector<float> losses, accuracies;
  Error error;
};

// n steps of a trainer (Trainer, Seq2SeqTrainer): each its step()'s loss and accuracy.
template <typename T>
StepsRun run_steps(T& trainer, int n) {
  StepsRun r;
  for (int i = 0; i < n; i++) {
    StepStats s = trainer.step();
    if (!s.error.empty()) {
      r.error = s.error + " (after " + std::to_string(i) + " of " + std::to_string(n) +
                " steps, at step " + std::to_string(trainer.steps()) + ")";
      return r;
    }
    r.losses.push_back(static_cast<float>(s.loss));
    r.accuracies.push_back(static_cast<float>(s.accuracy));
  }
  return r;
}

// A tensor's new value (check_parameter first).
struct ParameterUpdate {
  const Tensor* tensor;
  Matrix value;
};

// ---- finite in, finite out (both trainers) ------------------------------------------------

bool all_finite(const std::vector<float>& v);
// Every gradient small enough for Adam to square inside float32 (|g| below 1.8e+19).
bool trainable(const std::vector<float>& gradients);
// "<|weight|>, in <tensor>": the largest entry of the tensors in params.
std::string largest_weight(const std::vector<Tensor>& tensors, const std::vector<float>& params);
// The messages of a forward pass (`call` names the entry point), an update and a backward pass
// that would leave float32, each with the largest weight.
Error leaves_float32(const char* call, const std::vector<Tensor>& tensors,
                     const std::vector<float>& params);
Error update_leaves_float32(const std::vector<Tensor>& tensors, const std::vector<float>& params);
Error gradients_leave_float32(const std::vector<Tensor>& tensors, const std::vector<float>& params);
// The updates' values put into params, and kept when trains(&loss) says the held-out batch
// still trains inside float32 (its loss in *loss); otherwise the old values are put back and the
// error names the tensor with the largest new value.
Error set_checked(std::vector<float>& params, const std::vector<ParameterUpdate>& updates,
                  const std::function<bool(double* loss)>& trains);

// Both trainers' models (Transformer, Seq2Seq) alike: f, the stats of the model's last pass, or f
// with the error set when that pass left float32 (`call` names the entry point).
template <typename Model>
ForwardStats checked(const Model& model, ForwardStats f, const char* call) {
  if (!std::isfinite(f.loss) || !model.finite())
    f.error = leaves_float32(call, model.tensors(), model.parameters());
  return f;
}
// The loss and gradients of the model on a batch, nothing changed.
template <typename Model, typename Batch>
ForwardStats gradients_on(Model& model, const Batch& batch) {
  ForwardStats f = checked(model, model.forward(batch), "gradients");
  if (!f.error.empty()) return f;
  model.backward();
  if (!all_finite(model.gradients()))
    f.error = gradients_leave_float32(model.tensors(), model.parameters());
  return f;
}
// New values for some tensors, kept only when the held-out batch still trains inside float32: a
// finite loss and pass, and gradients Adam can square (set_checked).
template <typename Model, typename Batch>
Error set_parameters(Model& model, const Batch& held_out,
                     const std::vector<ParameterUpdate>& updates) {
  return set_checked(model.parameters(), updates, [&](double* loss) {
    const ForwardStats f = model.forward(held_out);
    *loss = f.loss;
    if (!std::isfinite(f.loss) || !model.finite()) return false;
    model.backward();
    return trainable(model.gradients());
  });
}

// Both trainers' seed streams: the training batches, and the held-out batch (of kHeldOutSize).
inline constexpr std::uint32_t kDataStream = 2;
inline constexpr std::uint32_t kHeldOutStream = 3;
inline constexpr int kHeldOutSize = 64;

// What both trainers are made of and do alike: the options they were made with, the model
// (initialised from the seed), Adam at the options' learning rate, the stream of the training
// batches and the held-out batch (each from its own stream of the seed); a pass's gradients and
// new values for some tensors on it.
template <typename Config, typename Model, typename Batch>
class TrainerBase {
 public:
  // Loss and gradients on a batch without changing anything (the batch checked first).
  ForwardStats gradients_on(const Batch& batch) { return attn::gradients_on(model_, batch); }
  // New values for some tensors (each checked by check_parameter first), kept only when the
  // held-out batch still trains inside float32 (otherwise the error names the tensor and nothing
  // changes).
  Error set_parameters(const std::vector<ParameterUpdate>& updates) {
    return attn::set_parameters(model_, held_out_, updates);
  }

  const Config& config() const { return config_; }
  Model& model() { return model_; }
  const Model& model() const { return model_; }
  int steps() const { return adam_.steps(); }

 protected:
  // The model of `model_config`; held_out(rng, size) makes the held-out batch.
  template <typename ModelConfig, typename MakeBatch>
  TrainerBase(const Config& config, const ModelConfig& model_config, MakeBatch held_out)
      : config_(config),
        model_(model_config),
        adam_(model_.parameters().size(), static_cast<float>(config.learning_rate)),
        data_(config.seed, kDataStream) {
    model_.init(config.seed);
    Rng rng(config.seed, kHeldOutStream);
    held_out_ = held_out(rng, kHeldOutSize);
  }

  Config config_;
  Model model_;
  Adam adam_;
  Rng data_;
  Batch held_out_;
};

class Trainer : public TrainerBase<TrainConfig, Transformer, Batch> {
 public:
  explicit Trainer(const TrainConfig& config);  // check_train_config first

  // Finite in, finite out: a forward pass whose loss or probabilities leave float32 is an error
  // (ForwardStats::error, StepStats::error) naming the cause, and a step that would give such
  // weights is not taken, so the weights are always the last ones that trained finitely.

  // One Adam step on the next batch of the task: the batch's loss and accuracy before the update.
  StepStats step();
  // n steps (check_number(kSteps, n) first).
  StepsRun run_steps(int n) { return attn::run_steps(*this, n); }
  // One Adam step on a given batch (check_batch first).
  StepStats step_on(const Batch& batch);
  // Accuracy and loss on a fixed held-out batch of the task (its own stream of the seed), with
  // the heads of `ablated` (Transformer::set_ablated's form; empty: none) zeroed.
  ForwardStats evaluate(const std::vector<char>& ablated = {});
  // The model on one sequence; afterwards model() holds its attention and predictions.
  ForwardStats run(const Batch& batch, const std::vector<char>& ablated = {});
  // Every head's previous-token and induction scores now (a forward pass on the score batch).
  HeadScores head_scores();

 private:
  Batch score_batch_;
};

}  // namespace attn
