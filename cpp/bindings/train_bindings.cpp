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

// Tokens (lowest 0) or targets (lowest -1 = no target) read as numbers, each an integer from
// lowest to vocab - 1 before it becomes an int (so 2^32 + 3 is refused, not read as 3).
std::vector<int> read_tokens(Reader& in, const char* name, int most, int lowest, int vocab) {
  const std::vector<double> x = in.numbers<double>(name, most);
  std::vector<int> out(x.size());
  for (std::size_t i = 0; i < x.size() && in.error.empty(); i++) {
    if (!(x[i] >= lowest && x[i] < vocab) || std::floor(x[i]) != x[i]) {
      in.fail(std::string(name) + ": entry " + std::to_string(i) + " is " +
              attn::format_number(x[i]) +
              (lowest < 0 ? " (expected -1 = none, or a token from 0 to "
                          : " (expected a token from 0 to ") +
              std::to_string(vocab - 1) + ")");
    }
    out[i] = static_cast<int>(x[i]);
  }
  return in.error.empty() ? out : std::vector<int>();
}

// { size, length, tokens, targets? } -> Batch (the core checks the shape against the model).
attn::Batch read_token_batch(Reader& in, bool need_targets, int vocab) {
  attn::Batch b;
  b.size = static_cast<int>(in.integer("size", 1, limits::kMaxBatch));
  b.length = static_cast<int>(in.integer("length", 1, limits::kMaxTrainLength));
  const int most = limits::kMaxBatch * limits::kMaxTrainLength;
  b.tokens = read_tokens(in, "tokens", most, 0, vocab);
  if (need_targets || in.has("targets"))
    b.targets = read_tokens(in, "targets", most, attn::kNoTarget, vocab);
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

  // n steps: { step, losses, accuracies } (one entry per step) or { error }.
  val step(val n) {
    Reader in{val::object(), {}};
    in.obj.set("steps", n);
    const int steps = static_cast<int>(in.number(Kind::kStepsOption));
    if (!in.error.empty()) return failure(in.error);
    return steps_to_js(trainer_.run_steps(steps), trainer_.steps());
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
    Reader in{args, {}};
    const auto b = kind().read_batch(in);
    if (!in.error.empty()) return failure(in.error);
    attn::ForwardStats f = trainer_.gradients_on(b);
    if (!f.error.empty()) return failure(f.error);
    val out = stats(f.loss, f.accuracy);
    out.set("gradients", tensors_to_js(trainer_.model().tensors(), trainer_.model().gradients()));
    return out;
  }

  // a batch -> one Adam step on it: { loss, accuracy, step }
  val step_on(val args) {
    Reader in{args, {}};
    const auto b = kind().read_batch(in);
    if (!in.error.empty()) return failure(in.error);
    attn::StepStats s = trainer_.step_on(b);
    if (!s.error.empty()) return failure(s.error);
    val out = stats(s.loss, s.accuracy);
    out.set("step", trainer_.steps());
    return out;
  }

 protected:
  Trainer trainer_;

 private:
  const Kind& kind() const { return static_cast<const Kind&>(*this); }
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

  // { ablated? } -> { loss, accuracy } on the held-out batch
  val evaluate(val args) {
    Reader in{args, {}};
    const std::vector<char> ablated = read_ablated(in);
    if (!in.error.empty()) return failure(in.error);
    attn::ForwardStats f = trainer_.evaluate(ablated);
    if (!f.error.empty()) return failure(f.error);
    return stats(f.loss, f.accuracy);
  }

  // { ablated? } -> the probe sequence's run, with its loss and accuracy
  val probe(val args) {
    Reader in{args, {}};
    const std::vector<char> ablated = read_ablated(in);
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
  // ablated: one 0 or 1 per head (layer * heads + head), or absent (none).
  std::vector<char> read_ablated(Reader& in) const {
    if (!in.has("ablated")) return {};
    const attn::ModelConfig& m = trainer_.model().config();
    const int n = m.layers * m.heads;
    const std::vector<double> x = in.numbers<double>("ablated", n);
    if (!in.error.empty()) return {};
    if (static_cast<int>(x.size()) != n) {
      in.fail(attn::expected("ablated", std::to_string(n) + " entries (one per head)",
                             std::to_string(x.size())));
      return {};
    }
    std::vector<char> out(x.size());
    for (std::size_t i = 0; i < x.size(); i++) {
      if (x[i] != 0 && x[i] != 1) {
        in.fail("ablated: entry " + std::to_string(i) + " is " + attn::format_number(x[i]) +
                " (expected 0 or 1)");
        return {};
      }
      out[i] = x[i] == 1;
    }
    return out;
  }
};

Handles<TrainerHandle> trainers{
    Live<TrainerHandle>(limits::kMaxTrainers),
    "trainer: not a live trainer (deleted, or not made by createTrainer)"};

// ---- the RNN encoder–decoder ------------------------------------------------------------------

// One sentence's tokens read as numbers, each an integer from lowest to vocab - 1 before it becomes
// an int (so 2^32 + 3 is refused, not read as 3, and 2.5 or -1 are refused): `where` names the
// sentence in the message ("source, sentence 2").
std::vector<int> read_sentence_tokens(Reader& in, const char* name, const std::string& where,
                                      int max_length, int lowest, int vocab) {
  const std::vector<double> x = in.numbers<double>(name, max_length);
  std::vector<int> out(x.size());
  for (std::size_t i = 0; i < x.size() && in.error.empty(); i++) {
    if (!(x[i] >= lowest && x[i] < vocab) || std::floor(x[i]) != x[i]) {
      in.fail(where + ", token " + std::to_string(i) + " is " + attn::format_number(x[i]) +
              " (expected an integer token from " + std::to_string(lowest) + " to " +
              std::to_string(vocab - 1) + ")");
    }
    out[i] = in.error.empty() ? static_cast<int>(x[i]) : 0;
  }
  return in.error.empty() ? out : std::vector<int>();
}

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
    out.push_back(read_sentence_tokens(row, name,
                                       std::string(name) + ", sentence " + std::to_string(r),
                                       max_length, lowest, vocab));
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
    b.source.push_back(read_sentence_tokens(one, "source", "tokens", limits::kMaxSeq2SeqLength, 0,
                                            source_vocab()));
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

// A new handle of `kind` for config c (read into `in`), once the core's check and the module's
// room allow it: { <kind.call>: handle, config: the options it was made with } or { error }.
template <auto& handles, typename Config>
val create(Reader& in, const Config& c, const attn::ModelKind& kind, Error (*check)(const Config&),
           double (*bytes)(const Config&), val (*config_to_js)(const Config&)) {
  if (in.error.empty()) in.error = check(c);
  if (in.error.empty())
    in.error = check_room(kind, static_cast<int>(handles.live.size()), bytes(c));
  if (!in.error.empty()) return failure(in.error);
  using H = typename std::remove_reference_t<decltype(handles)>::Type;
  val out = val::object();
  out.set(kind.call, handles.live.add(std::make_unique<H>(c)));
  out.set("config", config_to_js(c));
  return out;
}

// The options a trainer was made with, every absent one at its table's fallback.
val train_config_to_js(const attn::TrainConfig& c) {
  val o = val::object();
  o.set(attn::kTaskOption.name, std::string(attn::kTaskOption.name_of(c.task)));
  o.set(attn::kLayers.name, c.layers);
  o.set(attn::kTrainHeads.name, c.heads);
  o.set(attn::kDModel.name, c.d_model);
  o.set(attn::kLearningRate.name, c.learning_rate);
  o.set(attn::kSeed.name, c.seed);
  o.set(attn::kTrainScale.name, c.scale);
  o.set(attn::kPositionOption.name, std::string(attn::kPositionOption.name_of(c.position)));
  o.set(attn::kBatch.name, c.batch);
  return o;
}

val seq2seq_config_to_js(const attn::Seq2SeqConfig& c) {
  val o = val::object();
  o.set(attn::kSeq2SeqTaskOption.name, std::string(attn::kSeq2SeqTaskOption.name_of(c.task)));
  o.set(attn::kAttentionOption.name, std::string(attn::kAttentionOption.name_of(c.attention)));
  o.set(attn::kBidirectional.name, c.bidirectional);
  o.set(attn::kSeq2SeqHidden.name, c.hidden);
  o.set(attn::kSeq2SeqEmbed.name, c.embed);
  o.set(attn::kLearningRate.name, c.learning_rate);
  o.set(attn::kSeq2SeqClip.name, c.clip);
  o.set(attn::kSeed.name, c.seed);
  o.set(attn::kBatch.name, c.batch);
  o.set(attn::kSeq2SeqLength.name, c.max_length);
  return o;
}

// { seq2seq: handle, config } or { error }.
val create_seq2seq(val args) {
  Reader in{args, {}};
  attn::Seq2SeqConfig c;
  c.task = in.choice(attn::kSeq2SeqTaskOption);
  c.attention = in.choice(attn::kAttentionOption);
  c.bidirectional = in.flag(attn::kBidirectional);
  c.hidden = static_cast<int>(in.number(attn::kSeq2SeqHidden));
  c.embed = static_cast<int>(in.number(attn::kSeq2SeqEmbed));
  c.learning_rate = in.number(attn::kLearningRate);
  c.clip = in.number(attn::kSeq2SeqClip);
  c.seed = static_cast<std::uint32_t>(in.number(attn::kSeed));
  c.batch = static_cast<int>(in.number(attn::kBatch));
  c.max_length = static_cast<int>(in.number(attn::kSeq2SeqLength));
  return create<seq2seqs>(in, c, attn::kSeq2SeqKind, &attn::check_seq2seq_config,
                          &attn::seq2seq_bytes, &seq2seq_config_to_js);
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

// { trainer: handle, config } or { error }.
val create_trainer(val args) {
  Reader in{args, {}};
  attn::TrainConfig c;
  c.task = in.choice(attn::kTaskOption);
  c.position = in.choice(attn::kPositionOption);
  c.layers = static_cast<int>(in.number(attn::kLayers));
  c.heads = static_cast<int>(in.number(attn::kTrainHeads));
  c.d_model = static_cast<int>(in.number(attn::kDModel));
  c.learning_rate = in.number(attn::kLearningRate);
  c.seed = static_cast<std::uint32_t>(in.number(attn::kSeed));
  c.batch = static_cast<int>(in.number(attn::kBatch));
  c.scale = in.flag(attn::kTrainScale);
  return create<trainers>(in, c, attn::kTrainerKind, &attn::check_train_config,
                          &attn::trainer_bytes, &train_config_to_js);
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
