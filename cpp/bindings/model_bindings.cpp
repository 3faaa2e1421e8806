// Embind registration of GPT-2-family models (core/gpt2.h, core/gpt2_loader.h, core/safetensors.h):
// a safetensors checkpoint read in pieces, its forward pass and its head scores. These bindings
// make a wasm module of their own (attention-model-simd / -scalar), which
// web/src/engine/model-api.js loads when a page first loads a model, so the module every lesson
// loads does not carry them, and a model's memory (up to the limit modelLimits() gives) is not the
// lessons' engine's. No maths here.
//
// Same conventions as bindings.cpp: plain JS objects in, plain JS objects out, a problem as
// { error: "message" }, never a throw. A model (loading, then loaded) lives here between calls and
// JS holds it as a number (Live<T>, convert.h); memory is checked before anything large is
// allocated.

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/dense.h"
#include "core/gpt2.h"
#include "core/gpt2_loader.h"
#include "core/safetensors.h"

using emscripten::val;
using namespace attn::bindings;
namespace dense = attn::dense;
namespace gpt2 = attn::gpt2;
namespace safetensors = attn::safetensors;

namespace {

using attn::Error;

constexpr double kMB = 1024.0 * 1024.0;
constexpr int kMaxModels = 16;
constexpr std::size_t kPiece = 4 << 20;  // bytes of the buffer model-api.js fills with the data

std::string megabytes(double bytes) {
  return attn::format_number(std::ceil(bytes / kMB * 10) / 10) + " MiB";
}

// The memory the module may still have: its maximum less what the allocator holds.
double free_bytes() {
  return static_cast<double>(emscripten_get_heap_max()) -
         static_cast<double>(static_cast<unsigned>(mallinfo().uordblks));  // an int: see memory()
}

// Exactly the bytes of a Uint8Array (model-api.js passes nothing else) -> out.
bool read_bytes(const val& v, std::vector<unsigned char>* out, std::size_t max) {
  if (!v.instanceof (val::global("Uint8Array"))) return false;
  Reader r{val::object(), {}};
  bool typed = false;
  const double n = r.count("bytes", v, &typed);
  if (!typed || !(n >= 0 && n <= static_cast<double>(max))) return false;
  out->resize(static_cast<std::size_t>(n));
  if (n > 0) val(emscripten::typed_memory_view(out->size(), out->data())).call<void>("set", v);
  return true;
}

// A string field of config.json, or its fallback when absent.
std::string text(Reader& in, const char* name, const char* fallback) {
  if (!in.error.empty() || !in.has(name)) return fallback;
  val v = in.field(name);
  if (!v.isString()) {
    in.fail(attn::expected(name, "a string", describe(v)));
    return fallback;
  }
  return v.as<std::string>();
}

// config.json's keys (model-api.js passes those the engine reads) -> Config, checked.
gpt2::Config read_config(Reader& in) {
  gpt2::Config c;
  c.model_type = text(in, "config.model_type", "gpt2");  // configs from before the key: GPT-2
  c.activation_function = text(in, "config.activation_function", "gelu_new");
  c.scale_attn_weights = in.flag("config.scale_attn_weights", true);
  c.scale_attn_by_inverse_layer_idx = in.flag("config.scale_attn_by_inverse_layer_idx", false);
  c.add_cross_attention = in.flag("config.add_cross_attention", false);
  c.n_layer = static_cast<int>(in.number(gpt2::kNLayer));
  c.n_head = static_cast<int>(in.number(gpt2::kNHead));
  c.n_embd = static_cast<int>(in.number(gpt2::kNEmbd));
  c.n_positions = static_cast<int>(in.number(gpt2::kNPositions));
  c.vocab_size = static_cast<int>(in.number(gpt2::kVocabSize));
  c.n_inner =
      in.has(gpt2::kNInner.name) ? static_cast<int>(in.number(gpt2::kNInner)) : 4 * c.n_embd;
  c.layer_norm_epsilon = in.number(gpt2::kLayerNormEpsilon);
  if (in.error.empty()) in.error = gpt2::check_config(c);
  return c;
}

val config_to_js(const gpt2::Config& c) {
  val o = val::object();
  o.set("nLayer", c.n_layer);
  o.set("nHead", c.n_head);
  o.set("nEmbd", c.n_embd);
  o.set("nPositions", c.n_positions);
  o.set("vocabSize", c.vocab_size);
  o.set("layerNormEpsilon", c.layer_norm_epsilon);
  return o;
}

// ---- the options of a model's calls (engine.options' form: read_run and read_score_tokens read
// them with the core's tables, and a model's config bounds them)

// Token ids of the vocabulary read as numbers ("ids: entry 3 is 1.5 (expected …)").
std::vector<int> read_ids(Reader& in, const char* name, int most, int vocab) {
  return read_tokens(in, name, most, 0, vocab, std::string(name) + ": entry",
                     "an integer token id");
}

// A whole number an int holds.
bool whole(double x) { return std::floor(x) == x && std::fabs(x) < 1e9; }

// { ids, topK, head: [layer, head], ablate: one 0 or 1 per head, ablation, profile } -> RunArgs
// (profile: where a profiled run's times go), checked against the model (check_run).
gpt2::RunArgs read_run(Reader& in, const gpt2::Config& c, gpt2::Profile* profile) {
  gpt2::RunArgs a;
  a.ids = read_ids(in, "ids", c.n_positions, c.vocab_size);
  const bool top_k_given = in.has(gpt2::kTopK.name);
  a.top_k = static_cast<int>(in.number(gpt2::kTopK));
  if (!top_k_given) a.top_k = std::min(a.top_k, c.vocab_size);
  if (in.has("head")) {  // check_run checks the range
    const std::vector<double> head = in.numbers<double>("head", 2);
    if (head.size() == 2 && whole(head[0]) && whole(head[1])) {
      a.stage_layer = static_cast<int>(head[0]);
      a.stage_head = static_cast<int>(head[1]);
    } else {
      in.fail("head: expected [layer, head], two integers");
    }
  }
  if (in.has("ablate")) {
    const std::vector<double> flags = in.numbers<double>("ablate", c.n_layer * c.n_head);
    a.ablated.assign(flags.begin(), flags.end());
  }
  a.ablation = in.choice(gpt2::kAblationOption);
  if (in.flag(gpt2::kProfile)) a.profile = profile;
  if (in.error.empty()) in.error = gpt2::check_run(c, a);
  return a;
}

// { seed, length } (L distinct tokens drawn from the seed) or { tokens } -> the head scores'
// tokens, checked against the model (check_score_tokens).
std::vector<int> read_score_tokens(Reader& in, const gpt2::Config& c) {
  const int most = std::min(c.vocab_size, c.n_positions / 2);
  const auto seed = static_cast<std::uint32_t>(in.number(attn::kSeed));
  const bool length_given = in.has(gpt2::kScoreLength.name);
  auto length = static_cast<int>(in.number(gpt2::kScoreLength));
  std::vector<int> tokens;
  if (in.has("tokens")) {
    tokens = read_ids(in, "tokens", most, c.vocab_size);
  } else if (!length_given) {
    length = std::min(length, most);
  } else if (in.error.empty()) {
    in.error = attn::check_number(attn::capped(gpt2::kScoreLength, most), length);
  }
  if (in.error.empty() && tokens.empty())
    tokens = gpt2::distinct_tokens(seed, length, c.vocab_size);
  if (in.error.empty()) in.error = gpt2::check_score_tokens(c, tokens);
  return tokens;
}

// A model: its loader while the bytes arrive, then the model.
class ModelHandle {
 public:
  ModelHandle(const gpt2::Config& c, const safetensors::Header& h) : loader_(c, h) {}
  gpt2::Loader& loader() { return loader_; }
  const gpt2::Model* model() const { return model_.get(); }

  // The buffer the next piece of the data is written to: a Uint8Array view of the module's
  // memory (valid until the module next allocates), or { error }.
  val buffer() {
    if (model_) return failure("source: this model is loaded already");
    dense::grow(piece_, kPiece);
    return val(emscripten::typed_memory_view(piece_.size(), piece_.data()));
  }

  // The first `bytes` bytes of the buffer are the next piece of the data: { received } or
  // { error }.
  val feed(double bytes) {
    if (model_) return failure("source: this model is loaded already");
    if (!(bytes >= 0 && bytes <= static_cast<double>(piece_.size())))
      return failure("source: expected at most " + std::to_string(piece_.size()) +
                     " bytes of data in the buffer, got " + attn::format_number(bytes));
    Error e = loader_.feed(piece_.data(), static_cast<std::size_t>(bytes));
    if (!e.empty()) return failure(e);
    val out = val::object();
    out.set("received", loader_.received());
    return out;
  }

  // Every byte arrived: { config } or { error }.
  val finish() {
    if (!model_) {
      Error e = loader_.finish();
      if (!e.empty()) return failure(e);
      model_ = loader_.take();
      std::vector<unsigned char>().swap(piece_);
    }
    val out = val::object();
    out.set("config", config_to_js(model_->config()));
    out.set("weightBytes", 4.0 * static_cast<double>(model_->floats()));
    return out;
  }

  // { ids, topK, head, ablate, ablation, profile } -> the run, or { error }. With profile: true,
  // the run also says where its time went: profile, [{ stage, ms }] in order.
  val run(val args) {
    if (!model_) return failure("model: still loading");
    const gpt2::Config& c = model_->config();
    Reader in{args, {}};
    gpt2::Profile profile;
    gpt2::RunArgs a = read_run(in, c, &profile);
    if (in.error.empty()) in.error = check_run_memory(c, static_cast<int>(a.ids.size()));
    if (!in.error.empty()) return failure(in.error);
    const gpt2::Run r = gpt2::run(*model_, a);
    if (!r.error.empty()) return failure(r.error);
    gpt2::StageTimer timer(a.profile);
    val out = val::object();
    out.set("topK", top_k_to_js(r.k, r.top_ids, r.top_probs));
    val layers = val::array();
    for (int l = 0; l < c.n_layer; l++) {
      val heads = val::array();
      for (int h = 0; h < c.n_head; h++)
        heads.call<void>("push", to_js(r.attention[l * c.n_head + h]));
      layers.call<void>("push", heads);
    }
    out.set("attention", layers);
    out.set("residualNorms", to_js(r.residual_norms));
    if (a.stage_layer >= 0) {
      val s = val::object();
      s.set("scores", to_js(r.stages.scores));
      s.set("scaled", to_js(r.stages.scaled));
      s.set("masked", to_js(r.stages.masked));
      s.set("weights", to_js(r.stages.weights));
      s.set("output", to_js(r.stages.output));
      out.set("stages", s);
    }
    if (!a.ablated.empty()) {
      const gpt2::Baseline b = gpt2::baseline(*model_, a, r);
      if (!b.error.empty()) return failure(b.error);
      val base = val::object();
      base.set("topK", top_k_to_js(r.k, b.top_ids, b.top_probs));
      base.set("probabilities", copy_out(b.probabilities));
      out.set("baseline", base);
    }
    timer.lap(gpt2::Stage::CopyOut);
    if (a.profile) {
      val stages = val::array();
      for (int i = 0; i < static_cast<int>(gpt2::Stage::Count); i++) {
        val s = val::object();
        s.set("stage", std::string(gpt2::kStageNames[i]));
        s.set("ms", profile.ms[i]);
        stages.call<void>("push", s);
      }
      out.set("profile", stages);
    }
    return out;
  }

  // { seed, length } or { tokens } -> the five head scores, or { error }.
  val head_scores(val args) {
    if (!model_) return failure("model: still loading");
    const gpt2::Config& c = model_->config();
    Reader in{args, {}};
    const std::vector<int> tokens = read_score_tokens(in, c);
    if (in.error.empty()) in.error = check_run_memory(c, 2 * static_cast<int>(tokens.size()));
    if (!in.error.empty()) return failure(in.error);
    const gpt2::HeadScores s = gpt2::head_scores(*model_, tokens);
    if (!s.error.empty()) return failure(s.error);
    val out = val::object();
    out.set("previousToken", to_js(s.previous_token));
    out.set("induction", to_js(s.induction));
    out.set("duplicateToken", to_js(s.duplicate_token));
    out.set("firstToken", to_js(s.first_token));
    out.set("entropy", to_js(s.entropy));
    out.set("tokens", copy_out(s.tokens));
    return out;
  }

 private:
  // Room for a run of n tokens (every head's weights are kept), or how many tokens fit.
  static Error check_run_memory(const gpt2::Config& c, int n) {
    const double need = gpt2::run_bytes(c, n, true), have = free_bytes();
    if (need <= have) return {};
    int fit = n;
    while (fit > 1 && gpt2::run_bytes(c, fit, true) > have) fit = fit * 3 / 4;
    return "ids: a run of " + std::to_string(n) + " tokens needs " + megabytes(need) +
           " of engine memory (every head's weights are kept), and " + megabytes(have) +
           " are free; about " + std::to_string(fit) + " tokens fit";
  }

  static val top_k_to_js(int k, const std::vector<int>& ids, const std::vector<float>& probs) {
    val o = val::object();
    o.set("k", k);
    o.set("ids", copy_out(ids));
    o.set("probabilities", copy_out(probs));
    return o;
  }

  gpt2::Loader loader_;
  std::unique_ptr<gpt2::Model> model_;
  std::vector<unsigned char> piece_;  // the piece being read
};

Live<ModelHandle> models(kMaxModels);

// ---- entry points -------------------------------------------------------------------------------

// { first: Uint8Array(8), fileBytes } -> { headerBytes } or { error }. fileBytes < 0: not known.
val header_length(val args) {
  Reader in{args, {}};
  std::vector<unsigned char> first;
  const double file = in.number("fileBytes");
  if (!in.error.empty()) return failure(in.error);
  if (!read_bytes(in.field("first"), &first, 8) || (first.size() < 8 && !(file >= 0 && file < 8)))
    return failure(
        "source: not a safetensors file (it ends within its first 8 bytes, the header length)");
  first.resize(8);
  std::uint64_t n = 0;
  Error e = safetensors::header_length(first.data(), file, &n);
  if (!e.empty()) return failure(e);
  val out = val::object();
  out.set("headerBytes", static_cast<double>(n));
  return out;
}

// { header: Uint8Array, fileBytes, config.* } -> { model: handle, dataBytes, weightBytes } or
// { error }: the header checked against the config, and the weights' memory had, before any data.
val begin(val args) {
  Reader in{args, {}};
  const double file = in.number("fileBytes");
  const gpt2::Config c = read_config(in);
  if (!in.error.empty()) return failure(in.error);
  std::vector<unsigned char> header;
  if (!read_bytes(in.field("header"), &header, safetensors::kMaxHeaderBytes))
    return failure("source: the header could not be read");
  if (models.full())
    return failure("loadModel: at most " + std::to_string(models.max()) +
                   " models at once (delete() one you no longer need)");
  safetensors::Header h =
      safetensors::parse_header(reinterpret_cast<const char*>(header.data()), header.size(), file);
  std::vector<unsigned char>().swap(header);
  auto handle = std::make_unique<ModelHandle>(c, h);
  gpt2::Loader& loader = handle->loader();
  if (!loader.error().empty()) return failure(loader.error());
  // the weights and a short run must fit in what the module may still have
  const double need = loader.weight_bytes() + gpt2::run_bytes(c, std::min(c.n_positions, 64), true);
  if (need > free_bytes())
    return failure(
        "source: this checkpoint needs " + megabytes(need) +
        " of engine memory (its weights in float32, and a run of 64 tokens), more than the " +
        megabytes(free_bytes()) + " the model module can still have (it grows to " +
        megabytes(static_cast<double>(emscripten_get_heap_max())) + " at most)");
  if (!loader.allocate())
    return failure("source: the browser did not give the engine the " +
                   megabytes(loader.weight_bytes()) +
                   " this checkpoint's weights take (it may be short of memory)");
  val out = val::object();
  out.set("dataBytes", loader.data_bytes());
  out.set("weightBytes", loader.weight_bytes());
  out.set("model", models.add(std::move(handle)));
  return out;
}

val no_model() { return failure("model: not a live model (deleted, or not made by loadModel)"); }

template <auto M, typename Arg>
val call1(double handle, Arg arg) {
  ModelHandle* m = models.find(handle);
  return m ? (m->*M)(arg) : no_model();
}

val buffer(double handle) {
  ModelHandle* m = models.find(handle);
  return m ? m->buffer() : no_model();
}

val finish(double handle) {
  ModelHandle* m = models.find(handle);
  return m ? m->finish() : no_model();
}

void delete_model(double handle) { models.remove(handle); }

// The options of modelRun and modelHeadScores (engine.options' form), read as those calls read
// them; while the options are described only, so a config of zeros bounds nothing.
val run_options(val args) {
  Reader in{args, {}};
  gpt2::Profile profile;
  read_run(in, gpt2::Config{}, &profile);
  return failure(in.error);
}

val head_score_options(val args) {
  Reader in{args, {}};
  read_score_tokens(in, gpt2::Config{});
  return failure(in.error);
}

// { maxBytes: what the module's memory may grow to, maxTopK, maxModels }
val model_limits() {
  val out = val::object();
  out.set("maxBytes", static_cast<double>(emscripten_get_heap_max()));
  out.set("maxTopK", gpt2::kMaxTopK);
  out.set("maxModels", kMaxModels);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(model) {
  emscripten::function("modelLimits", &model_limits);
  emscripten::function("modelHeaderLength", &header_length);
  emscripten::function("modelBegin", &begin);
  emscripten::function("modelBuffer", &buffer);
  emscripten::function("modelFeed", &call1<&ModelHandle::feed, double>);
  emscripten::function("modelFinish", &finish);
  emscripten::function("modelRun", &call1<&ModelHandle::run, val>);
  emscripten::function("modelHeadScores", &call1<&ModelHandle::head_scores, val>);
  described("modelRun", &run_options);
  described("modelHeadScores", &head_score_options);
  emscripten::function("options", &describe_options);
  emscripten::function("modelDelete", &delete_model);
}
