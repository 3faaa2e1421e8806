// Embind registration: converts JS values to core types and back. No maths here.
//
// Every entry point takes one plain JS object (already normalised by web/src/engine.js)
// and returns a plain JS object. Nothing throws across the boundary: a problem comes back
// as { error: "message" } and the JS layer throws AttentionError with it. The fields are
// checked again here (sizes before any allocation) so a direct call cannot crash the module.
// Results are copied out of the wasm heap (typed_memory_view + slice), so JS owns them.

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/experiments.h"
#include "core/masks.h"
#include "core/matrix.h"
#include "core/multihead.h"
#include "core/positional.h"
#include "core/rng.h"
#include "core/scores.h"
#include "core/softmax.h"
#include "bindings/convert.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

using attn::Error;
using attn::Matrix;
namespace limits = attn::limits;

val matrix_result(const Matrix& m) {
  val out = val::object();
  out.set("matrix", to_js(m));
  return out;
}

val attend_to_js(const attn::AttendResult& r) {
  val out = val::object();
  out.set("scores", to_js(r.scores));
  out.set("scaled", to_js(r.scaled));
  out.set("mask", to_js(r.mask));
  out.set("masked", to_js(r.masked));
  out.set("weights", to_js(r.weights));
  out.set("output", to_js(r.output));
  out.set("entropy", copy_out(r.entropy));
  out.set("fullyMaskedRows", copy_out(r.fully_masked_rows));
  return out;
}

// ---- entry points -------------------------------------------------------------------------

val attend(val args) {
  Reader in{args, {}};
  attn::AttendArgs a;
  a.query = in.matrix("query", limits::kMaxTokens, limits::kMaxDim);
  a.key = in.matrix("key", limits::kMaxTokens, limits::kMaxDim);
  a.value = in.matrix("value", limits::kMaxTokens, limits::kMaxDim);
  a.score = static_cast<attn::ScoreKind>(static_cast<int>(in.integer("score", 0, 3)));
  a.mask = in.matrix("mask", limits::kMaxTokens, limits::kMaxTokens, true);
  a.causal = in.flag("causal");
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  a.mask_fill = static_cast<attn::MaskFill>(static_cast<int>(in.integer("maskFill", 0, 2)));
  a.temperature = in.real("temperature");
  a.stable = in.flag("stable");
  a.additive_wq = in.matrix("additiveWq", limits::kMaxDim, limits::kMaxDim, true);
  a.additive_wk = in.matrix("additiveWk", limits::kMaxDim, limits::kMaxDim, true);
  a.additive_v = in.matrix("additiveV", 1, limits::kMaxDim, true);
  a.general_w = in.matrix("generalW", limits::kMaxDim, limits::kMaxDim, true);
  if (in.error.empty()) in.error = attn::check_attend(a);
  if (!in.error.empty()) return failure(in.error);
  return attend_to_js(attn::attend(a));
}

val multi_head(val args) {
  Reader in{args, {}};
  attn::MultiHeadArgs a;
  a.query = in.matrix("query", limits::kMaxTokens, limits::kMaxDim);
  a.key = in.matrix("key", limits::kMaxTokens, limits::kMaxDim);
  a.value = in.matrix("value", limits::kMaxTokens, limits::kMaxDim);
  a.heads = static_cast<int>(in.integer("heads", 1, limits::kMaxHeads));
  a.wq = in.matrix("Wq", limits::kMaxDim, limits::kMaxDim);
  a.wk = in.matrix("Wk", limits::kMaxDim, limits::kMaxDim);
  a.wv = in.matrix("Wv", limits::kMaxDim, limits::kMaxDim);
  a.wo = in.matrix("Wo", limits::kMaxDim, limits::kMaxDim);
  a.bq = in.matrix("bq", 1, limits::kMaxDim, true);
  a.bk = in.matrix("bk", 1, limits::kMaxDim, true);
  a.bv = in.matrix("bv", 1, limits::kMaxDim, true);
  a.bo = in.matrix("bo", 1, limits::kMaxDim, true);
  a.mask = in.matrix("mask", limits::kMaxTokens, limits::kMaxTokens, true);
  a.causal = in.flag("causal");
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  // Every head keeps its (n_q, n_k) matrices: bound their total before allocating them.
  if (in.error.empty() && static_cast<double>(a.heads) * a.query.rows * a.key.rows > limits::kMaxHeadCells)
    in.fail("heads: heads * n_q * n_k is more than " + std::to_string(limits::kMaxHeadCells));
  if (in.error.empty()) in.error = attn::check_multi_head(a);
  if (!in.error.empty()) return failure(in.error);

  attn::MultiHeadResult r = attn::multi_head(a);
  val heads = val::array();
  for (const attn::AttendResult& h : r.heads) heads.call<void>("push", attend_to_js(h));
  val out = val::object();
  out.set("heads", heads);
  out.set("concat", to_js(r.concat));
  out.set("output", to_js(r.output));
  return out;
}

val variance_experiment(val args) {
  Reader in{args, {}};
  attn::VarianceArgs a;
  a.dk = static_cast<int>(in.integer("dk", 1, limits::kMaxDim));
  a.samples = static_cast<int>(in.integer("samples", 2, limits::kMaxSamples));
  a.seed = static_cast<std::uint64_t>(in.integer("seed", 0, 4294967295.0));
  a.bins = static_cast<int>(in.integer("bins", 1, limits::kMaxBins));
  a.first_sample = static_cast<int>(in.integer("firstSample", 0, limits::kMaxSamples));
  if (in.error.empty()) in.error = attn::check_variance(a);
  if (!in.error.empty()) return failure(in.error);

  attn::VarianceResult r = attn::variance_experiment(a);
  auto moments = [](const attn::Moments& m) {
    val o = val::object();
    o.set("mean", m.mean);
    o.set("variance", m.variance);
    return o;
  };
  val histogram = val::object();
  histogram.set("edges", copy_out(r.edges));
  histogram.set("scaledEdges", copy_out(r.scaled_edges));
  histogram.set("rawCounts", copy_out(r.raw_counts));
  histogram.set("scaledCounts", copy_out(r.scaled_counts));
  val out = val::object();
  out.set("raw", moments(r.raw));
  out.set("scaled", moments(r.scaled));
  out.set("histogram", histogram);
  return out;
}

// Softmax of each row of scores / temperature, with each row's entropy.
val softmax(val args) {
  Reader in{args, {}};
  Matrix scores = in.matrix("scores", limits::kMaxTokens, limits::kMaxTokens);
  bool stable = in.flag("stable");
  float temperature = in.real("temperature");
  if (in.error.empty()) in.error = attn::check_scores("scores", scores);
  if (in.error.empty()) in.error = attn::check_temperature("temperature", temperature);
  if (!in.error.empty()) return failure(in.error);

  Matrix weights = attn::softmax_rows(attn::apply_temperature(scores, temperature), stable);
  val out = val::object();
  out.set("weights", to_js(weights));
  out.set("entropy", copy_out(attn::row_entropy(weights)));
  return out;
}

val softmax_jacobian(val args) {
  Reader in{args, {}};
  std::vector<float> p = in.floats("p", limits::kMaxTokens);
  if (in.error.empty()) in.error = attn::check_jacobian(p);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::softmax_jacobian(p));
}

val hard_attention(val args) {
  Reader in{args, {}};
  Matrix scores = in.matrix("scores", limits::kMaxTokens, limits::kMaxTokens);
  if (in.error.empty()) in.error = attn::check_scores("scores", scores);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::hard_attention(scores));
}

val gumbel_softmax(val args) {
  Reader in{args, {}};
  Matrix scores = in.matrix("scores", limits::kMaxTokens, limits::kMaxTokens);
  float tau = in.real("tau");
  auto seed = static_cast<std::uint64_t>(in.integer("seed", 0, 4294967295.0));
  if (in.error.empty()) in.error = attn::check_scores("scores", scores);
  if (in.error.empty()) in.error = attn::check_temperature("tau", tau);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::gumbel_softmax(scores, tau, seed));
}

val sinusoidal(val args) {
  Reader in{args, {}};
  int n = static_cast<int>(in.integer("n", 1, limits::kMaxTokens));
  int d = static_cast<int>(in.integer("d", 1, limits::kMaxDim));
  float base = in.real("base");
  if (in.error.empty()) in.error = attn::check_sinusoidal(n, d, base);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::sinusoidal_encoding(n, d, base));
}

val rope(val args) {
  Reader in{args, {}};
  Matrix x = in.matrix("x", limits::kMaxTokens, limits::kMaxDim);
  int first = static_cast<int>(in.integer("first", 0, attn::kMaxPosition));
  float base = in.real("base");
  if (in.error.empty()) in.error = attn::check_rope(x, first, base);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::rope(x, first, base));
}

val linear(val args) {
  Reader in{args, {}};
  Matrix x = in.matrix("x", limits::kMaxTokens, limits::kMaxDim);
  Matrix w = in.matrix("W", limits::kMaxDim, limits::kMaxDim);
  Matrix b = in.matrix("b", 1, limits::kMaxDim, true);
  if (in.error.empty()) in.error = attn::check_linear(x, w, b);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::linear(x, w, b));
}

// (rows, cols) of N(0, 1) * scale from stream `stream` of `seed`.
val random_matrix(val args) {
  Reader in{args, {}};
  int rows = static_cast<int>(in.integer("rows", 1, limits::kMaxTokens));
  int cols = static_cast<int>(in.integer("cols", 1, limits::kMaxTokens));
  auto seed = static_cast<std::uint64_t>(in.integer("seed", 0, 4294967295.0));
  auto stream = static_cast<std::uint32_t>(in.integer("stream", 0, 4294967295.0));
  float scale = in.real("scale");
  if (!in.error.empty()) return failure(in.error);
  attn::Rng rng(seed, stream);
  return matrix_result(rng.normal_matrix(rows, cols, scale));
}

// Bytes the allocator has handed out, and the size of wasm memory.
val memory() {
  val out = val::object();
  out.set("usedBytes", static_cast<double>(mallinfo().uordblks));
  out.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
  return out;
}

val get_limits() {
  val out = val::object();
  out.set("maxTokens", limits::kMaxTokens);
  out.set("maxDim", limits::kMaxDim);
  out.set("maxHeads", limits::kMaxHeads);
  out.set("maxSamples", limits::kMaxSamples);
  out.set("maxBins", limits::kMaxBins);
  out.set("maxTrials", limits::kMaxTrials);
  out.set("maxHeadCells", limits::kMaxHeadCells);
  out.set("maxPosition", attn::kMaxPosition);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::function("attend", &attend);
  emscripten::function("multiHead", &multi_head);
  emscripten::function("varianceExperiment", &variance_experiment);
  emscripten::function("softmax", &softmax);
  emscripten::function("softmaxJacobian", &softmax_jacobian);
  emscripten::function("hardAttention", &hard_attention);
  emscripten::function("gumbelSoftmax", &gumbel_softmax);
  emscripten::function("sinusoidal", &sinusoidal);
  emscripten::function("rope", &rope);
  emscripten::function("linear", &linear);
  emscripten::function("randomMatrix", &random_matrix);
  emscripten::function("memory", &memory);
  emscripten::function("limits", &get_limits);
}
