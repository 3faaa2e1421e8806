// Embind registration of the playground's trainers: the attention-only transformer (core/train.h)
// and the RNN encoder–decoder (core/seq2seq_trainer.h). No maths here.
//
// Same conventions as bindings.cpp: plain JS objects in (normalised by web/src/engine.js),
// plain JS objects out; a problem comes back as { error: "message" }, never a throw. Every
// field is checked again here (through the core's tables) before anything is allocated.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings/convert.h"
#include "core/seq2seq_trainer.h"
#include "core/train.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

using attn::Error;
namespace limits = attn::limits;

// { size, length, tokens, targets? } -> Batch (the core checks the shape against the model).
attn::Batch read_token_batch(Reader& in, bool need_targets, int vocab) {
  attn::Batch b;
  b.size = static_cast<int>(in.integer("size", 1, limits::kMaxBatch));
  b.length = static_cast<int>(in.integer("length", 1, limits::kMaxTrainLength));
  const int most = limits::kMaxBatch * limits::kMaxTrainLength;
  b.tokens = read_tokens(in, "tokens", most, 0, vocab, "tokens: entry", "a token");
  if (need_targets || in.has("targets"))
    b.targets =
        read_tokens(in, "targets", most, attn::kNoTarget, vocab, "targets: entry", "a token");
  return b;
}

// { step, losses, accuracies } (one entry per step) or { error }.
val steps_to_js(const attn::StepsRun& r, int step) {
  if (!r.error.empty()) return failure(r.error);
  val out = val::object();
  out.set("step", step);
  out.set("losses", copy_out(r.losses));
  out.set("accuracies", copy_out(r.accuracies));
  return out;
}

val stats(double loss, double accuracy) {
  val out = val::object();
  out.set("loss", loss);
  out.set("accuracy", accuracy);
  return out;
}

// [{ name, rows, cols, data }] of a model's tensors (either trainer's), read from `flat`
// (parameters or gradients).
val tensors_to_js(const std::vector<attn::Tensor>& tensors, const std::vector<float>& flat) {
  val list = val::array();
  for (const attn::Tensor& t : tensors) {
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

// What both kinds of trainer handle do alike: n steps, the tensors and their gradients, new
// values for some tensors, a gradient or an Adam step on a batch the caller gives. Kind (the
// handle itself) says how a batch is read and checked (read_batch: empty in.error when it may
// run) and which option counts the steps.
template <typename Kind, typename Trainer>
class Handle {
 public:
  template <typename Config>
  Handle(const Config& c, double bytes) : trainer_(c), bytes_(bytes) {}
  double bytes() const { return bytes_; }

  // n steps (absent: the option's fallback): { step, losses, accuracies } (one entry per step)
  // or { error }.
  val step(val n) {
    Reader in{val::object(), {}};
    in.obj.set(Kind::kStepsOption.name, n);
    const int steps = static_cast<int>(in.number(Kind::kStepsOption));
    if (!in.error.empty()) return failure(in.error);
    return steps_to_js(trainer_.run_steps(steps), trainer_.steps());
  }

  // step's option (engine.options' form: { steps }), read as step reads it, while described.
  static val step_options(val args) {
    Reader in{args, {}};
    in.number(Kind::kStepsOption);
    return failure(in.error);
  }

  val parameters() const {
    return tensors_to_js(trainer_.model().tensors(), trainer_.model().parameters());
  }

  // { name: { rows, cols, data } } for some or all tensors: {} or { error }, nothing changed on
  // error.
  val set_parameters(val args) {
    Reader in{args, {}};
    std::vector<attn::ParameterUpdate> updates;
    for (const attn::Tensor& t : trainer_.model().tensors()) {
      if (!in.has(t.name.c_str())) continue;
      attn::MatrixOption o{t.name.c_str(), "", t.rows, "", t.cols};
      attn::Matrix m = in.read_matrix(t.name.c_str(), &o, false);
      if (in.error.empty()) in.error = attn::check_parameter(t, m);
      updates.push_back({&t, m});
    }
    if (in.error.empty()) in.error = trainer_.set_parameters(updates);
    if (!in.error.empty()) return failure(in.error);
    return val::object();
  }

  // a batch -> { loss, accuracy, gradients: [{ name, rows, cols, data }] }
  val gradients(val args) {
    return on_batch(
        args, [&](const auto& b) { return trainer_.gradients_on(b); },
        [&](val& out) {
          out.set("gradients",
                  tensors_to_js(trainer_.model().tensors(), trainer_.model().gradients()));
        });
  }

  // a batch -> one Adam step on it: { loss, accuracy, step }
  val step_on(val args) {
    return on_batch(
        args, [&](const auto& b) { return trainer_.step_on(b); },
        [&](val& out) { out.set("step", trainer_.steps()); });
  }

 protected:
  Trainer trainer_;

 private:
  const Kind& kind() const { return static_cast<const Kind&>(*this); }

  // A batch read from args (Kind's read_batch), `train` on it, and { loss, accuracy } with what
  // `more` adds, or { error }.
  template <typename Train, typename More>
  val on_batch(val args, Train train, More more) {
    Reader in{args, {}};
    const auto b = kind().read_batch(in);
    if (!in.error.empty()) return failure(in.error);
    const auto s = train(b);
    if (!s.error.empty()) return failure(s.error);
    val out = stats(s.loss, s.accuracy);
    more(out);
    return out;
  }

  double bytes_;  // what this model may hold (attn::trainer_bytes, attn::seq2seq_bytes)
};

// The handles of one kind, and what a call on a handle that is not one of them gets.
template <typename H>
struct Handles {
  using Type = H;
  Live<H> live;
  const char* missing;
};

// A live handle's method M, called from JS as trainerStep(handle, arg) and the like.
template <auto& handles, auto M>
val call0(double handle) {
  auto* h = handles.live.find(handle);
  return h ? (h->*M)() : failure(handles.missing);
}
template <auto& handles, auto M>
val call1(double handle, val arg) {
  auto* h = handles.live.find(handle);
  return h ? (h->*M)(arg) : failure(handles.missing);
}
template <auto& handles>
void remove(double handle) {
  handles.live.remove(handle);
}

// ablate: one 0 or 1 per head of the model's `heads` (layer * heads + head), or absent (none).
std::vector<char> read_ablated(Reader& in, int heads) {
  if (!in.has("ablate")) return {};
  const std::vector<double> x = in.numbers<double>("ablate", heads);
  if (!in.error.empty()) return {};
  if (static_cast<int>(x.size()) != heads) {
    in.fail(attn::expected("ablate", std::to_string(heads) + " entries (one per head)",
                           std::to_string(x.size())));
    return {};
  }
  std::vector<char> out(x.size());
  for (std::size_t i = 0; i < x.size(); i++) {
    if (x[i] != 0 && x[i] != 1) {
      in.fail("ablate: entry " + std::to_string(i) + " is " + attn::format_number(x[i]) +
              " (expected 0 or 1)");
      return {};
    }
    out[i] = x[i] == 1;
  }
  return out;
}

// A trainer, kept in `trainers`, owned (and deleted) by its JavaScript wrapper in
// engine/train-api.js.
class TrainerHandle : public Handle<TrainerHandle, attn::Trainer> {
 public:
  static constexpr const attn::NumberOption& kStepsOption = attn::kSteps;
  explicit TrainerHandle(const attn::TrainConfig& c) : Handle(c, attn::trainer_bytes(c)) {}

  // { size, length, tokens, targets }, checked against the model
  attn::Batch read_batch(Reader& in) const {
    attn::Batch b = read_token_batch(in, true, trainer_.model().config().vocab);
    if (in.error.empty()) in.error = attn::check_batch(b, trainer_.model().config(), true);
    return b;
  }

  // { ablate? } -> { loss, accuracy } on the held-out batch
  val evaluate(val args) {
    Reader in{args, {}};
    const std::vector<char> ablated = read_ablated(in, heads());
    if (!in.error.empty()) return failure(in.error);
    attn::ForwardStats f = trainer_.evaluate(ablated);
    if (!f.error.empty()) return failure(f.error);
    return stats(f.loss, f.accuracy);
  }

  // { ablate? } -> the probe sequence's run, with its loss and accuracy
  val probe(val args) {
    Reader in{args, {}};
    const std::vector<char> ablated = read_ablated(in, heads());
    if (!in.error.empty()) return failure(in.error);
    attn::Batch b = attn::probe_batch(trainer_.config().task);
    attn::ForwardStats f = trainer_.run(b, ablated);
    if (!f.error.empty()) return failure(f.error);
    val out = run_to_js(trainer_, b);
    out.set("loss", f.loss);
    out.set("accuracy", f.accuracy);
    return out;
  }

  // { layers, heads, previousToken, induction } (Float32Array, index layer * heads + head)
  val head_scores() {
    attn::HeadScores s = trainer_.head_scores();
    if (!s.error.empty()) return failure(s.error);
    val out = val::object();
    out.set("layers", s.layers);
    out.set("heads", s.heads);
    out.set("previousToken",
            copy_out(std::vector<float>(s.previous_token.begin(), s.previous_token.end())));
    out.set("induction", copy_out(std::vector<float>(s.induction.begin(), s.induction.end())));
    return out;
  }

  // evaluate's and probe's option (engine.options' form: { ablate }), read as they read it,
  // while described.
  static val ablation_options(val args) {
    Reader in{args, {}};
    read_ablated(in, 0);
    return failure(in.error);
  }

  // { tokens, length } of one sequence.
  val run(val args) {
    Reader in{args, {}};
    in.obj.set("size", 1);
    attn::Batch b = read_token_batch(in, false, trainer_.model().config().vocab);
    if (in.error.empty()) in.error = attn::check_batch(b, trainer_.model().config(), false);
    if (!in.error.empty()) return failure(in.error);
    attn::ForwardStats f = trainer_.run(b);
    if (!f.error.empty()) return failure(f.error);
    return run_to_js(trainer_, b);
  }

 private:
  int heads() const { return trainer_.model().config().layers * trainer_.model().config().heads; }
};

Handles<TrainerHandle> trainers{
    Live<TrainerHandle>(limits::kMaxTrainers),
    "trainer: not a live trainer (deleted, or not made by createTrainer)"};

// ---- the RNN encoder–decoder ------------------------------------------------------------------

// [[tokens], ...] -> sentences, each row's length checked before it is read and each token an
// integer from lowest to vocab - 1 (the core checks the lengths against the model).
std::vector<std::vector<int>> read_sentences(Reader& in, const char* name, int max_length,
                                             int lowest, int vocab) {
  std::vector<std::vector<int>> out;
  if (!in.error.empty()) return out;
  if (!in.has(name)) {
    in.fail(
        attn::expected(name, "an array of sentences (arrays of tokens)", describe(in.field(name))));
    return out;
  }
  val rows = in.field(name);
  const int n = in.length(name, rows, limits::kMaxBatch);
  for (int r = 0; r < n && in.error.empty(); r++) {
    Reader row{val::object(), {}};
    row.obj.set(name, rows[r]);
    out.push_back(read_tokens(row, name, max_length, lowest, vocab,
                              std::string(name) + ", sentence " + std::to_string(r) + ", token",
                              "an integer token"));
    if (!row.error.empty()) in.fail(row.error);
  }
  return out;
}

// A decoded row: its first `steps` predictions and alignment rows (no alignment without attention).
val decoded_to_js(const attn::Seq2Seq& m, const std::vector<int>& source, int steps) {
  const attn::Decoded d = attn::decoded(m, steps);
  val out = val::object();
  out.set("source", copy_out(source));
  out.set("predictions", copy_out(d.predictions));
  if (attn::given(d.alignment)) out.set("alignment", to_js(d.alignment));
  return out;
}

// An encoder–decoder trainer, kept in `seq2seqs`, owned by its wrapper in engine/train-api.js.
class Seq2SeqHandle : public Handle<Seq2SeqHandle, attn::Seq2SeqTrainer> {
 public:
  static constexpr const attn::NumberOption& kStepsOption = attn::kSeq2SeqSteps;
  explicit Seq2SeqHandle(const attn::Seq2SeqConfig& c) : Handle(c, attn::seq2seq_bytes(c)) {}

  // { source: [[...]], target: [[...]] }, checked against the task and maxLength
  attn::PairBatch read_batch(Reader& in) const {
    attn::PairBatch b;
    b.source = read_sentences(in, "source", limits::kMaxSeq2SeqLength, 0, source_vocab());
    b.target = read_sentences(in, "target", limits::kMaxSeq2SeqLength, 1, target_vocab());
    if (in.error.empty()) in.error = attn::check_pairs(b, trainer_.config(), true);
    return b;
  }

  val evaluate() {
    attn::ForwardStats f = trainer_.evaluate();
    if (!f.error.empty()) return failure(f.error);
    return stats(f.loss, f.accuracy);
  }

  // { lengths, pairs, tokenAccuracy, sequenceAccuracy }, one entry per source length
  val evaluate_by_length() {
    const attn::LengthAccuracies r = trainer_.evaluate_by_length();
    if (!r.error.empty()) return failure(r.error);
    std::vector<int> lengths, pairs;
    std::vector<float> tokens, sequences;
    for (const auto& a : r.lengths) {
      lengths.push_back(a.length);
      pairs.push_back(a.pairs);
      tokens.push_back(static_cast<float>(a.token_accuracy));
      sequences.push_back(static_cast<float>(a.sequence_accuracy));
    }
    val out = val::object();
    out.set("lengths", copy_out(lengths));
    out.set("pairs", copy_out(pairs));
    out.set("tokenAccuracy", copy_out(tokens));
    out.set("sequenceAccuracy", copy_out(sequences));
    return out;
  }

  // { source, target, predictions, alignment, loss, accuracy } of the probe pair
  val probe() {
    attn::ForwardStats f = trainer_.probe();
    if (!f.error.empty()) return failure(f.error);
    const attn::PairBatch& p = trainer_.probe_pair();
    val out = decoded_to_js(trainer_.model(), p.source[0], trainer_.model().steps());
    out.set("target", copy_out(p.target[0]));
    out.set("loss", f.loss);
    out.set("accuracy", f.accuracy);
    return out;
  }

  // { source } -> { source, predictions (through the first "</s>"), alignment, target? }
  val translate(val args) {
    Reader in{args, {}};
    attn::PairBatch b;
    Reader one{val::object(), {}};
    one.obj.set("source", in.field("source"));
    b.source.push_back(read_tokens(one, "source", limits::kMaxSeq2SeqLength, 0, source_vocab(),
                                   "tokens, token", "an integer token"));
    if (!one.error.empty()) return failure(one.error);
    Error e = attn::check_pairs(b, trainer_.config(), false);
    if (!e.empty()) return failure(e);
    const attn::Decoding d = trainer_.translate(b.source[0]);
    if (!d.error.empty()) return failure(d.error);
    val out = decoded_to_js(trainer_.model(), b.source[0], d.steps);
    std::vector<int> target;
    if (attn::seq2seq_target(trainer_.config().task, b.source[0], &target))
      out.set("target", copy_out(target));
    return out;
  }

 private:
  int source_vocab() const {
    return static_cast<int>(attn::seq2seq_task_spec(trainer_.config().task).source_words->size());
  }
  int target_vocab() const {
    return static_cast<int>(attn::seq2seq_task_spec(trainer_.config().task).target_words->size());
  }
};

Handles<Seq2SeqHandle> seq2seqs{
    Live<Seq2SeqHandle>(limits::kMaxSeq2Seqs),
    "seq2seq: not a live encoder–decoder (deleted, or not made by createSeq2Seq)"};

// Room for one more model of `kind` needing `need` bytes beside the live ones of both kinds
// (attn::check_model_room): one budget for the module's trainers and encoder–decoders.
Error check_room(const attn::ModelKind& kind, int live, double need) {
  double used = 0;
  trainers.live.each([&](const TrainerHandle& t) { used += t.bytes(); });
  seq2seqs.live.each([&](const Seq2SeqHandle& m) { used += m.bytes(); });
  return attn::check_model_room(kind, live, need, used);
}

// ---- the options a model is made with ---------------------------------------------------------

// f(option, field) for each option of a config, in the order they are read (engine.options): the
// options both trainers take, then each one's own.
template <typename Config, typename F>
void training_options(Config& c, F& f) {
  f(attn::kLearningRate, c.learning_rate);
  f(attn::kSeed, c.seed);
  f(attn::kBatch, c.batch);
}
template <typename F>
void each_option(attn::TrainConfig& c, F f) {
  f(attn::kTaskOption, c.task);
  f(attn::kPositionOption, c.position);
  f(attn::kLayers, c.layers);
  f(attn::kTrainHeads, c.heads);
  f(attn::kDModel, c.d_model);
  training_options(c, f);
  f(attn::kTrainScale, c.scale);
}
template <typename F>
void each_option(attn::Seq2SeqConfig& c, F f) {
  f(attn::kSeq2SeqTaskOption, c.task);
  f(attn::kAttentionOption, c.attention);
  f(attn::kBidirectional, c.bidirectional);
  f(attn::kSeq2SeqHidden, c.hidden);
  f(attn::kSeq2SeqEmbed, c.embed);
  training_options(c, f);
  f(attn::kSeq2SeqClip, c.clip);
  f(attn::kSeq2SeqLength, c.max_length);
}

// An option read into its field (absent: the table's fallback).
struct ReadOption {
  Reader& in;
  template <typename E, std::size_t N>
  void operator()(const attn::ChoiceOption<E, N>& o, E& x) {
    x = in.choice(o);
  }
  void operator()(const attn::FlagOption& o, bool& x) { x = in.flag(o); }
  template <typename T>
  void operator()(const attn::NumberOption& o, T& x) {
    x = static_cast<T>(in.number(o));
  }
};

// A field written to a JS object under its option's name.
struct WriteOption {
  val& out;
  template <typename E, std::size_t N>
  void operator()(const attn::ChoiceOption<E, N>& o, E x) {
    out.set(o.name, std::string(o.name_of(x)));
  }
  void operator()(const attn::FlagOption& o, bool x) { out.set(o.name, x); }
  template <typename T>
  void operator()(const attn::NumberOption& o, T x) {
    out.set(o.name, x);
  }
};

// A new handle of `kind` from the options in args, once the core's check and the module's room
// allow it: { <kind.call>: handle, config: the options it was made with, every absent one at its
// table's fallback } or { error }.
template <auto& handles, typename Config>
val create(val args, const attn::ModelKind& kind, Error (*check)(const Config&),
           double (*bytes)(const Config&)) {
  Reader in{args, {}};
  Config c;
  each_option(c, ReadOption{in});
  if (in.error.empty()) in.error = check(c);
  if (in.error.empty())
    in.error = check_room(kind, static_cast<int>(handles.live.size()), bytes(c));
  if (!in.error.empty()) return failure(in.error);
  using H = typename std::remove_reference_t<decltype(handles)>::Type;
  val config = val::object();
  each_option(c, WriteOption{config});
  val out = val::object();
  out.set(kind.call, handles.live.add(std::make_unique<H>(c)));
  out.set("config", config);
  return out;
}

// { seq2seq: handle, config } or { error }.
val create_seq2seq(val args) {
  return create<seq2seqs>(args, attn::kSeq2SeqKind, &attn::check_seq2seq_config,
                          &attn::seq2seq_bytes);
}

// { trainer: handle, config } or { error }.
val create_trainer(val args) {
  return create<trainers>(args, attn::kTrainerKind, &attn::check_train_config,
                          &attn::trainer_bytes);
}

// { copy: { sourceWords, targetWords, rule }, ... }
val seq2seq_tasks() {
  val out = val::object();
  for (const auto& c : attn::kSeq2SeqTaskOption.choices) {
    attn::Seq2SeqTaskSpec s = attn::seq2seq_task_spec(c.value);
    val o = val::object();
    val source = val::array(), target = val::array();
    for (const std::string& w : *s.source_words) source.call<void>("push", w);
    for (const std::string& w : *s.target_words) target.call<void>("push", w);
    o.set("sourceWords", source);
    o.set("targetWords", target);
    o.set("rule", std::string(s.rule));
    out.set(c.name, o);
  }
  return out;
}

// { task: [...], position: [...] }
val train_choices() {
  val out = val::object();
  out.set(attn::kTaskOption.name, choice_names(attn::kTaskOption));
  out.set(attn::kPositionOption.name, choice_names(attn::kPositionOption));
  out.set("seq2seqTask", choice_names(attn::kSeq2SeqTaskOption));
  out.set(attn::kAttentionOption.name, choice_names(attn::kAttentionOption));
  return out;
}

val train_limits() {
  val out = val::object();
  out.set("maxLayers", limits::kMaxLayers);
  out.set("maxTrainHeads", limits::kMaxTrainHeads);
  out.set("maxDModel", limits::kMaxDModel);
  out.set("maxBatch", limits::kMaxBatch);
  out.set("maxTrainSteps", limits::kMaxStepsPerCall);
  out.set("trainLength", limits::kMaxTrainLength);
  out.set("maxSeq2SeqHidden", limits::kMaxSeq2SeqHidden);
  out.set("maxSeq2SeqEmbed", limits::kMaxSeq2SeqEmbed);
  out.set("minSeq2SeqLength", limits::kMinSeq2SeqLength);
  out.set("maxSeq2SeqLength", limits::kMaxSeq2SeqLength);
  out.set("maxSeq2SeqSteps", limits::kMaxSeq2SeqSteps);
  out.set("maxSeq2Seqs", limits::kMaxSeq2Seqs);
  out.set("maxTrainers", limits::kMaxTrainers);
  out.set("maxModelBytes", limits::kMaxModelBytes);
  return out;
}

// { 'previous-token': { vocab, length, separator, rule }, ... }
val train_tasks() {
  val out = val::object();
  for (const auto& c : attn::kTaskOption.choices) {
    attn::TaskSpec s = attn::task_spec(c.value);
    val o = val::object();
    o.set("vocab", s.vocab);
    o.set("length", s.length);
    o.set("separator", s.separator);
    o.set("rule", std::string(s.rule));
    out.set(c.name, o);
  }
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(train) {
  entry_point("createTrainer", &create_trainer);
  emscripten::function("options", &describe_options);
  emscripten::function("trainChoices", &train_choices);
  emscripten::function("trainLimits", &train_limits);
  emscripten::function("trainTasks", &train_tasks);
  emscripten::function("trainerStep", &call1<trainers, &TrainerHandle::step>);
  described("trainerStep", &TrainerHandle::step_options);
  described("trainerEvaluate", &TrainerHandle::ablation_options);
  described("trainerProbe", &TrainerHandle::ablation_options);
  emscripten::function("trainerEvaluate", &call1<trainers, &TrainerHandle::evaluate>);
  emscripten::function("trainerProbe", &call1<trainers, &TrainerHandle::probe>);
  emscripten::function("trainerHeadScores", &call0<trainers, &TrainerHandle::head_scores>);
  emscripten::function("trainerRun", &call1<trainers, &TrainerHandle::run>);
  emscripten::function("trainerParameters", &call0<trainers, &TrainerHandle::parameters>);
  emscripten::function("trainerSetParameters", &call1<trainers, &TrainerHandle::set_parameters>);
  emscripten::function("trainerGradients", &call1<trainers, &TrainerHandle::gradients>);
  emscripten::function("trainerStepOn", &call1<trainers, &TrainerHandle::step_on>);
  emscripten::function("trainerDelete", &remove<trainers>);
  entry_point("createSeq2Seq", &create_seq2seq);
  emscripten::function("seq2seqTasks", &seq2seq_tasks);
  emscripten::function("seq2seqStep", &call1<seq2seqs, &Seq2SeqHandle::step>);
  described("seq2seqStep", &Seq2SeqHandle::step_options);
  emscripten::function("seq2seqEvaluate", &call0<seq2seqs, &Seq2SeqHandle::evaluate>);
  emscripten::function("seq2seqEvaluateByLength",
                       &call0<seq2seqs, &Seq2SeqHandle::evaluate_by_length>);
  emscripten::function("seq2seqProbe", &call0<seq2seqs, &Seq2SeqHandle::probe>);
  emscripten::function("seq2seqTranslate", &call1<seq2seqs, &Seq2SeqHandle::translate>);
  emscripten::function("seq2seqParameters", &call0<seq2seqs, &Seq2SeqHandle::parameters>);
  emscripten::function("seq2seqSetParameters", &call1<seq2seqs, &Seq2SeqHandle::set_parameters>);
  emscripten::function("seq2seqGradients", &call1<seq2seqs, &Seq2SeqHandle::gradients>);
  emscripten::function("seq2seqStepOn", &call1<seq2seqs, &Seq2SeqHandle::step_on>);
  emscripten::function("seq2seqDelete", &remove<seq2seqs>);
}
