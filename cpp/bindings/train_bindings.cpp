// Embind registration of the playground's trainer (core/train.h). No maths here.
//
// Same conventions as bindings.cpp: plain JS objects in (normalised by web/src/engine.js),
// plain JS objects out; a problem comes back as { error: "message" }, never a throw. Every
// field is checked again here (through the core's tables) before anything is allocated.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/train.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

using attn::Error;
namespace limits = attn::limits;

template <typename E, std::size_t N>
val choice_names(const attn::ChoiceOption<E, N>& o) {
  val list = val::array();
  for (const auto& c : o.choices) list.call<void>("push", std::string(c.name));
  return list;
}

// { size, length, tokens: Int32Array, targets?: Int32Array } -> Batch (the core checks the values).
attn::Batch read_batch(Reader& in, bool need_targets) {
  attn::Batch b;
  b.size = static_cast<int>(in.integer("size", 1, limits::kMaxBatch));
  b.length = static_cast<int>(in.integer("length", 1, limits::kMaxTrainLength));
  const int most = limits::kMaxBatch * limits::kMaxTrainLength;
  b.tokens = in.numbers<int>("tokens", most);
  if (need_targets || in.has("targets")) b.targets = in.numbers<int>("targets", most);
  return b;
}

val stats(double loss, double accuracy) {
  val out = val::object();
  out.set("loss", loss);
  out.set("accuracy", accuracy);
  return out;
}

// [{ name, rows, cols, data }] of the model's tensors, read from `flat` (parameters or gradients).
val tensors_to_js(const attn::Transformer& m, const std::vector<float>& flat) {
  val list = val::array();
  for (const attn::Tensor& t : m.tensors()) {
    val o = val::object();
    o.set("name", t.name);
    o.set("rows", t.rows);
    o.set("cols", t.cols);
    o.set("data",
          val(emscripten::typed_memory_view(t.size(), flat.data() + t.offset)).call<val>("slice"));
    list.call<void>("push", o);
  }
  return list;
}

// The model on `batch` (already run): tokens, targets, predictions and every head's pattern.
val run_to_js(const attn::Trainer& t, const attn::Batch& batch) {
  const attn::Transformer& m = t.model();
  val layers = val::array();
  for (int l = 0; l < m.config().layers; l++) {
    val heads = val::array();
    for (int h = 0; h < m.config().heads; h++)
      heads.call<void>("push", to_js(m.attention(l, h, 0)));
    layers.call<void>("push", heads);
  }
  val out = val::object();
  out.set("tokens", copy_out(batch.tokens));
  if (!batch.targets.empty()) out.set("targets", copy_out(batch.targets));
  out.set("predictions", copy_out(m.predictions()));
  out.set("patterns", layers);
  return out;
}

// A trainer, kept in `trainers`, owned (and deleted) by its JavaScript wrapper in engine-train.js.
class TrainerHandle {
 public:
  explicit TrainerHandle(const attn::TrainConfig& c) : trainer_(c) {}

  // n steps: { step, losses, accuracies } (one entry per step) or { error }.
  val step(val n) {
    Reader in{val::object(), {}};
    in.obj.set("steps", n);
    const int steps = static_cast<int>(in.number(attn::kSteps));
    if (!in.error.empty()) return failure(in.error);
    std::vector<float> losses(steps), accuracies(steps);
    for (int i = 0; i < steps; i++) {
      attn::StepStats s = trainer_.step();
      losses[i] = static_cast<float>(s.loss);
      accuracies[i] = static_cast<float>(s.accuracy);
    }
    val out = val::object();
    out.set("step", trainer_.steps());
    out.set("losses", copy_out(losses));
    out.set("accuracies", copy_out(accuracies));
    return out;
  }

  val evaluate() {
    attn::ForwardStats f = trainer_.evaluate();
    return stats(f.loss, f.accuracy);
  }

  val probe() {
    attn::Batch b = attn::probe_batch(trainer_.config().task);
    trainer_.run(b);
    return run_to_js(trainer_, b);
  }

  // { tokens, length } of one sequence.
  val run(val args) {
    Reader in{args, {}};
    in.obj.set("size", 1);
    attn::Batch b = read_batch(in, false);
    if (in.error.empty()) in.error = attn::check_batch(b, trainer_.model().config(), false);
    if (!in.error.empty()) return failure(in.error);
    trainer_.run(b);
    return run_to_js(trainer_, b);
  }

  val parameters() const { return tensors_to_js(trainer_.model(), trainer_.model().parameters()); }

  // { name: { rows, cols, data } } for some or all tensors: {} or { error }, nothing changed on
  // error.
  val set_parameters(val args) {
    Reader in{args, {}};
    std::vector<std::pair<const attn::Tensor*, attn::Matrix>> updates;
    for (const attn::Tensor& t : trainer_.model().tensors()) {
      if (!in.has(t.name.c_str())) continue;
      attn::MatrixOption o{t.name.c_str(), "", t.rows, "", t.cols};
      attn::Matrix m = in.read_matrix(t.name.c_str(), &o, false);
      if (in.error.empty()) in.error = attn::check_parameter(trainer_.model(), t.name, m);
      updates.emplace_back(&t, m);
    }
    if (!in.error.empty()) return failure(in.error);
    for (auto& [t, m] : updates)
      std::copy(m.data.begin(), m.data.end(), trainer_.model().parameters().begin() + t->offset);
    return val::object();
  }

  // { size, length, tokens, targets } -> { loss, accuracy, gradients: [{ name, rows, cols, data }]
  // }
  val gradients(val args) {
    Reader in{args, {}};
    attn::Batch b = read_batch(in, true);
    if (in.error.empty()) in.error = attn::check_batch(b, trainer_.model().config(), true);
    if (!in.error.empty()) return failure(in.error);
    attn::ForwardStats f = trainer_.gradients_on(b);
    val out = stats(f.loss, f.accuracy);
    out.set("gradients", tensors_to_js(trainer_.model(), trainer_.model().gradients()));
    return out;
  }

  // One Adam step on a given batch -> { loss, accuracy, step }.
  val step_on(val args) {
    Reader in{args, {}};
    attn::Batch b = read_batch(in, true);
    if (in.error.empty()) in.error = attn::check_batch(b, trainer_.model().config(), true);
    if (!in.error.empty()) return failure(in.error);
    attn::StepStats s = trainer_.step_on(b);
    val out = stats(s.loss, s.accuracy);
    out.set("step", trainer_.steps());
    return out;
  }

 private:
  attn::Trainer trainer_;
};

Live<TrainerHandle> trainers;

// The methods of a live trainer, called from JS as trainerStep(handle, arg) and the like.
val no_trainer() {
  return failure("trainer: not a live trainer (deleted, or not made by createTrainer)");
}
template <auto M>
val call0(double handle) {
  TrainerHandle* t = trainers.find(handle);
  return t ? (t->*M)() : no_trainer();
}
template <auto M>
val call1(double handle, val arg) {
  TrainerHandle* t = trainers.find(handle);
  return t ? (t->*M)(arg) : no_trainer();
}

void delete_trainer(double handle) { trainers.remove(handle); }

// { trainer: handle } or { error }.
val create_trainer(val args) {
  Reader in{args, {}};
  attn::TrainConfig c;
  c.task = in.choice(attn::kTaskOption, c.task);
  c.position = in.choice(attn::kPositionOption, c.position);
  c.layers = static_cast<int>(in.number(attn::kLayers));
  c.heads = static_cast<int>(in.number(attn::kTrainHeads));
  c.d_model = static_cast<int>(in.number(attn::kDModel));
  c.learning_rate = in.number(attn::kLearningRate);
  c.seed = static_cast<std::uint32_t>(in.number(attn::kSeed));
  c.batch = static_cast<int>(in.number(attn::kBatch));
  c.scale = in.flag("scale", true);
  if (in.error.empty()) in.error = attn::check_train_config(c);
  if (!in.error.empty()) return failure(in.error);
  val out = val::object();
  out.set("trainer", trainers.add(std::make_unique<TrainerHandle>(c)));
  return out;
}

// { task: [...], position: [...] }
val train_choices() {
  val out = val::object();
  out.set(attn::kTaskOption.name, choice_names(attn::kTaskOption));
  out.set(attn::kPositionOption.name, choice_names(attn::kPositionOption));
  return out;
}

val train_limits() {
  val out = val::object();
  out.set("maxLayers", limits::kMaxLayers);
  out.set("maxTrainHeads", limits::kMaxTrainHeads);
  out.set("maxDModel", limits::kMaxDModel);
  out.set("maxBatch", limits::kMaxBatch);
  out.set("maxTrainSteps", limits::kMaxStepsPerCall);
  out.set("trainLength", attn::kTaskLength);
  return out;
}

// { 'previous-token': { vocab, separator, rule }, ... }
val train_tasks() {
  val out = val::object();
  for (const auto& c : attn::kTaskOption.choices) {
    attn::TaskSpec s = attn::task_spec(c.value);
    val o = val::object();
    o.set("vocab", s.vocab);
    o.set("separator", s.separator);
    o.set("rule", std::string(s.rule));
    out.set(c.name, o);
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(train) {
  emscripten::function("createTrainer", &create_trainer);
  emscripten::function("trainChoices", &train_choices);
  emscripten::function("trainLimits", &train_limits);
  emscripten::function("trainTasks", &train_tasks);
  emscripten::function("trainerStep", &call1<&TrainerHandle::step>);
  emscripten::function("trainerEvaluate", &call0<&TrainerHandle::evaluate>);
  emscripten::function("trainerProbe", &call0<&TrainerHandle::probe>);
  emscripten::function("trainerRun", &call1<&TrainerHandle::run>);
  emscripten::function("trainerParameters", &call0<&TrainerHandle::parameters>);
  emscripten::function("trainerSetParameters", &call1<&TrainerHandle::set_parameters>);
  emscripten::function("trainerGradients", &call1<&TrainerHandle::gradients>);
  emscripten::function("trainerStepOn", &call1<&TrainerHandle::step_on>);
  emscripten::function("trainerDelete", &delete_trainer);
}
