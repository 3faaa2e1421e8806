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
#include <utility>
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

// { error } of a run that failed, or { loss, accuracy } and what `more(out)` adds.
template <typename Stats, typename More>
val stats(const Stats& s, More more) {
  if (!s.error.empty()) return failure(s.error);
  val out = val::object();
  out.set("loss", s.loss);
  out.set("accuracy", s.accuracy);
  more(out);
  return out;
}
void nothing_more(val&) {}

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

// The model on `batch` (already run), written to `out`: tokens, targets, predictions and every
// head's pattern.
void put_run(val& out, const attn::Trainer& t, const attn::Batch& batch) {
  const attn::Transformer& m = t.model();
  val layers = val::array();
  for (int l = 0; l < m.config().layers; l++) {
    val heads = val::array();
    for (int h = 0; h < m.config().heads; h++)
      heads.call<void>("push", to_js(m.attention(l, h, 0)));
    layers.call<void>("push", heads);
  }
  out.set("tokens", copy_out(batch.tokens));
  if (!batch.targets.empty()) out.set("targets", copy_out(batch.targets));
  out.set("predictions", copy_out(m.predictions()));
  out.set("patterns", layers);
}

// What both kinds of trainer handle do alike: n steps (counted by the option kSteps), the
// tensors and their gradients, new values for some tensors, a gradient or an Adam step on a batch
// the caller gives. Kind (the handle itself) says how a batch is read and checked (read_batch:
// empty in.error when it may run); bytes_of is what a model of a config may hold
// (attn::trainer_bytes, attn::seq2seq_bytes).
template <typename Kind, typename Trainer, const attn::NumberOption& kSteps, auto bytes_of>
class Handle {
 public:
  using Config = std::decay_t<decltype(std::declval<const Trainer&>().config())>;
  static double bytes_for(const Config& c) { return bytes_of(c); }

  explicit Handle(const Config& c) : trainer_(c), bytes_(bytes_of(c)) {}
  double bytes() const { return bytes_; }

  // n steps (absent: the option's fallback): { step, losses, accuracies } (one entry per step)
  // or { error }.
  val step(val n) {
    Reader in{val::object(), {}};
    in.obj.set(kSteps.name, n);
    const int steps = static_cast<int>(in.number(kSteps));
    if (!in.error.empty()) return failure(in.error);
    return steps_to_js(trainer_.run_steps(steps), trainer_.steps());
  }

  // step's option (engine.options' form: { steps }), read as step reads it, while described.
  static val step_options(val args) {
    Reader in{args, {}};
    in.number(kSteps);
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
    return stats(train(b), more);
  }

  double bytes_;  // what this model may hold
};

// The live handles of one kind (at most kind.max_live), and what a call on a handle that is not
// one of them gets. The kind is known before the module's globals are built (when its functions
// are registered).
template <typename H, const attn::ModelKind& kKind>
struct Handles {
  using Type = H;
  static constexpr const attn::ModelKind& kind = kKind;
  explicit Handles(const char* m) : live(kKind.max_live), missing(m) {}
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
class TrainerHandle
    : public Handle<TrainerHandle, attn::Trainer, attn::kSteps, attn::trainer_bytes> {
 public:
  using Handle::Handle;

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
    return stats(trainer_.evaluate(ablated), nothing_more);
  }

  // { ablate? } -> the probe sequence's run, with its loss and accuracy
  val probe(val args) {
    Reader in{args, {}};
    const std::vector<char> ablated = read_ablated(in, heads());
    if (!in.error.empty()) return failure(in.error);
    attn::Batch b = attn::probe_batch(trainer_.config().task);
    return stats(trainer_.run(b, ablated), [&](val& out) { put_run(out, trainer_, b); });
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
    val out = val::object();
    put_run(out, trainer_, b);
    return out;
  }

 private:
  int heads() const { return trainer_.model().config().layers * trainer_.model().config().heads; }
};

Handles<TrainerHandle, attn::kTrainerKind> trainers{
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

// A decoded row, written to `out`: its first `steps` predictions and alignment rows (no alignment
// without attention).
void put_decoded(val& out, const attn::Seq2Seq& m, const std::vector<int>& source, int steps) {
  const attn::Decoded d = attn::decoded(m, steps);
  out.set("source", copy_out(source));
  out.set("predictions", copy_out(d.predictions));
  if (attn::given(d.alignment)) out.set("alignment", to_js(d.alignment));
}

// An encoder–decoder trainer, kept in `seq2seqs`, owned by its wrapper in engine/train-api.js.
class Seq2SeqHandle
    : public Handle<Seq2SeqHandle, attn::Seq2SeqTrainer, attn::kSeq2SeqSteps, attn::seq2seq_bytes> {
 public:
  using Handle::Handle;

  // { source: [[...]], target: [[...]] }, checked against the task and maxLength
  attn::PairBatch read_batch(Reader& in) const {
    attn::PairBatch b;
    b.source = read_sentences(in, "source", limits::kMaxSeq2SeqLength, 0, source_vocab());
    b.target = read_sentences(in, "target", limits::kMaxSeq2SeqLength, 1, target_vocab());
    if (in.error.empty()) in.error = attn::check_pairs(b, trainer_.config(), true);
    return b;
  }

  val evaluate() { return stats(trainer_.evaluate(), nothing_more); }

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
    return stats(trainer_.probe(), [&](val& out) {
      const attn::PairBatch& p = trainer_.probe_pair();
      put_decoded(out, trainer_.model(), p.source[0], trainer_.model().steps());
      out.set("target", copy_out(p.target[0]));
    });
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
    val out = val::object();
    put_decoded(out, trainer_.model(), b.source[0], d.steps);
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

Handles<Seq2SeqHandle, attn::kSeq2SeqKind> seq2seqs{
    "seq2seq: not a live encoder–decoder (deleted, or not made by createSeq2Seq)"};

// Room for one more of `handles` needing `need` bytes beside the live ones of both kinds
// (attn::check_model_room): one budget for the module's trainers and encoder–decoders.
template <typename Handles>
Error check_room(const Handles& handles, double need) {
  double used = 0;
  trainers.live.each([&](const TrainerHandle& t) { used += t.bytes(); });
  seq2seqs.live.each([&](const Seq2SeqHandle& m) { used += m.bytes(); });
  return attn::check_model_room(handles.kind, static_cast<int>(handles.live.size()), need, used);
}

// ---- the options a model is made with (attn::each_option) ---------------------------------------

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

// A new one of `handles` from the options in args, once the core's check and the module's room
// allow it: { trainer | seq2seq (handles.kind.call): handle, config: the options it was made
// with, every absent one at its table's fallback } or { error }.
template <auto& handles, auto check>
val create(val args) {
  using H = typename std::remove_reference_t<decltype(handles)>::Type;
  Reader in{args, {}};
  typename H::Config c;
  attn::each_option(c, ReadOption{in});
  if (in.error.empty()) in.error = check(c);
  if (in.error.empty()) in.error = check_room(handles, H::bytes_for(c));
  if (!in.error.empty()) return failure(in.error);
  val config = val::object();
  attn::each_option(c, WriteOption{config});
  val out = val::object();
  out.set(handles.kind.call, handles.live.add(std::make_unique<H>(c)));
  out.set("config", config);
  return out;
}

// { <choice's name>: describe(its value) } for each choice of `option`.
template <typename E, std::size_t N, typename F>
val each_choice(const attn::ChoiceOption<E, N>& option, F describe) {
  val out = val::object();
  for (const auto& c : option.choices) out.set(c.name, describe(c.value));
  return out;
}

// { copy: { sourceWords, targetWords, rule }, ... }
val seq2seq_tasks() {
  return each_choice(attn::kSeq2SeqTaskOption, [](attn::Seq2SeqTask task) {
    const attn::Seq2SeqTaskSpec s = attn::seq2seq_task_spec(task);
    val o = val::object();
    val source = val::array(), target = val::array();
    for (const std::string& w : *s.source_words) source.call<void>("push", w);
    for (const std::string& w : *s.target_words) target.call<void>("push", w);
    o.set("sourceWords", source);
    o.set("targetWords", target);
    o.set("rule", std::string(s.rule));
    return o;
  });
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
  return each_choice(attn::kTaskOption, [](attn::TrainTask task) {
    const attn::TaskSpec s = attn::task_spec(task);
    val o = val::object();
    o.set("vocab", s.vocab);
    o.set("length", s.length);
    o.set("separator", s.separator);
    o.set("rule", std::string(s.rule));
    return o;
  });
}

// What every handle of `handles` does (Handle), as <kind.call>Parameters, ...SetParameters,
// ...Gradients, ...StepOn, ...Step and ...Delete: trainerParameters, seq2seqParameters and so on.
template <auto& handles>
void handle_functions() {
  using H = typename std::remove_reference_t<decltype(handles)>::Type;
  const std::string call = handles.kind.call;
  emscripten::function((call + "Parameters").c_str(), &call0<handles, &H::parameters>);
  emscripten::function((call + "SetParameters").c_str(), &call1<handles, &H::set_parameters>);
  emscripten::function((call + "Gradients").c_str(), &call1<handles, &H::gradients>);
  emscripten::function((call + "StepOn").c_str(), &call1<handles, &H::step_on>);
  emscripten::function((call + "Step").c_str(), &call1<handles, &H::step>);
  emscripten::function((call + "Delete").c_str(), &remove<handles>);
}

}  // namespace

EMSCRIPTEN_BINDINGS(train) {
  entry_point("createTrainer", &create<trainers, attn::check_train_config>);
  emscripten::function("options", &describe_options);
  emscripten::function("trainChoices", &train_choices);
  emscripten::function("trainLimits", &train_limits);
  emscripten::function("trainTasks", &train_tasks);
  handle_functions<trainers>();
  described("trainerStep", &TrainerHandle::step_options);
  described("trainerEvaluate", &TrainerHandle::ablation_options);
  described("trainerProbe", &TrainerHandle::ablation_options);
  emscripten::function("trainerEvaluate", &call1<trainers, &TrainerHandle::evaluate>);
  emscripten::function("trainerProbe", &call1<trainers, &TrainerHandle::probe>);
  emscripten::function("trainerHeadScores", &call0<trainers, &TrainerHandle::head_scores>);
  emscripten::function("trainerRun", &call1<trainers, &TrainerHandle::run>);
  entry_point("createSeq2Seq", &create<seq2seqs, attn::check_seq2seq_config>);
  emscripten::function("seq2seqTasks", &seq2seq_tasks);
  handle_functions<seq2seqs>();
  described("seq2seqStep", &Seq2SeqHandle::step_options);
  emscripten::function("seq2seqEvaluate", &call0<seq2seqs, &Seq2SeqHandle::evaluate>);
  emscripten::function("seq2seqEvaluateByLength",
                       &call0<seq2seqs, &Seq2SeqHandle::evaluate_by_length>);
  emscripten::function("seq2seqProbe", &call0<seq2seqs, &Seq2SeqHandle::probe>);
  emscripten::function("seq2seqTranslate", &call1<seq2seqs, &Seq2SeqHandle::translate>);
}
