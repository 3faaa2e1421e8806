// Embind registration: converts JS values to core types and back. No maths here.
//
// Every entry point takes one plain JS object (already normalised by web/src/engine.js)
// and returns a plain JS object. Nothing throws across the boundary: a problem comes back
// as { error: "message" } and the JS layer throws AttentionError with it. The fields are
// checked again here (sizes before any allocation) so a direct call cannot crash the module.
// Results are copied out of the wasm heap (typed_memory_view + slice), so JS owns them.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/attention.h"
#include "core/check.h"
#include "core/experiments.h"
#include "core/masks.h"
#include "core/matrix.h"
#include "core/multihead.h"
#include "core/positional.h"
#include "core/rng.h"
#include "core/scores.h"
#include "core/softmax.h"

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

// ---- entry points -------------------------------------------------------------------------

val attend(val args) {
  Reader in{args, {}};
  attn::AttendArgs a;
  a.query = in.matrix("query");
  a.key = in.matrix("key");
  a.value = in.matrix("value");
  a.score = in.choice(attn::kScoreOption);
  a.mask = in.matrix("mask", true);
  a.causal = in.flag(attn::kCausal);
  a.reverse_causal = in.flag(attn::kReverseCausal);
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  a.mask_fill = in.choice(attn::kMaskFillOption);
  a.temperature = static_cast<float>(in.number(attn::kTemperature));
  a.stable = in.flag(attn::kStable);
  a.stages = in.flag(attn::kStages);
  a.additive_wq = in.matrix("additive.Wq", true);
  a.additive_wk = in.matrix("additive.Wk", true);
  a.additive_v = in.matrix("additive.v", true);
  a.general_w = in.matrix("general.W", true);
  if (in.error.empty()) in.error = attn::check_attend(a);
  if (!in.error.empty()) return failure(in.error);
  attn::AttendResult r = attn::attend(a);
  if (!r.error.empty()) return failure(r.error);
  return attend_to_js(r, a.stages);
}

val multi_head(val args) {
  Reader in{args, {}};
  attn::MultiHeadArgs a;
  a.query = in.matrix("query");
  a.key = in.matrix("key");
  a.value = in.matrix("value");
  a.heads = static_cast<int>(in.number(attn::kHeads));
  a.wq = in.matrix("Wq");
  a.wk = in.matrix("Wk");
  a.wv = in.matrix("Wv");
  a.wo = in.matrix("Wo");
  a.bq = in.matrix("bq", true);
  a.bk = in.matrix("bk", true);
  a.bv = in.matrix("bv", true);
  a.bo = in.matrix("bo", true);
  a.mask = in.matrix("mask", true);
  a.causal = in.flag(attn::kCausal);
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  a.stages = in.flag(attn::kStages);
  if (in.error.empty()) in.error = attn::check_multi_head(a);
  if (!in.error.empty()) return failure(in.error);

  attn::MultiHeadResult r = attn::multi_head(a);
  if (!r.error.empty()) return failure(r.error);
  val heads = val::array();
  for (const attn::AttendResult& h : r.heads) heads.call<void>("push", attend_to_js(h, a.stages));
  val out = val::object();
  out.set("heads", heads);
  out.set("concat", to_js(r.concat));
  out.set("output", to_js(r.output));
  return out;
}

val variance_experiment(val args) {
  Reader in{args, {}};
  attn::VarianceArgs a;
  a.dk = static_cast<int>(in.number(attn::kDk));
  a.samples = static_cast<int>(in.number(attn::kSamples));
  a.seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
  a.bins = static_cast<int>(in.number(attn::kBins));
  a.first_sample = static_cast<int>(in.number(attn::kFirstSample));
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
  Matrix scores = in.matrix("scores");
  const bool stable = in.flag(attn::kStable);
  const double temperature = in.number(attn::kTemperature);
  if (in.error.empty()) in.error = attn::check_softmax_at_temperature(scores, temperature);
  if (!in.error.empty()) return failure(in.error);
  attn::TemperatureSoftmax r =
      attn::softmax_at_temperature(scores, static_cast<float>(temperature), stable);
  val out = val::object();
  out.set("weights", to_js(r.weights));
  out.set("entropy", copy_out(r.entropy));
  out.set("overflow", r.overflow);
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
  Matrix scores = in.matrix("scores");
  if (in.error.empty()) in.error = attn::check_scores("scores", scores);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::hard_attention(scores));
}

val gumbel_softmax(val args) {
  Reader in{args, {}};
  Matrix scores = in.matrix("scores");
  double tau = in.number(attn::kTau);
  auto seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
  if (in.error.empty()) in.error = attn::check_scores("scores", scores);
  if (in.error.empty()) {
    in.error = attn::check_scaled_scores("tau", scores, tau, attn::kMaxGumbelNoise);
  }
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::gumbel_softmax(scores, static_cast<float>(tau), seed));
}

val sinusoidal(val args) {
  Reader in{args, {}};
  double n = in.number(attn::kPositions);
  double d = in.number(attn::kDims);
  double base = in.number(attn::kBase);
  if (in.error.empty()) in.error = attn::check_sinusoidal(n, d, base);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::sinusoidal_encoding(static_cast<int>(n), static_cast<int>(d),
                                                 static_cast<float>(base)));
}

val rope(val args) {
  Reader in{args, {}};
  Matrix x = in.matrix("x");
  double first = in.number(attn::kFirstPosition);
  double base = in.number(attn::kBase);
  if (in.error.empty()) in.error = attn::check_rope(x, first, base);
  if (!in.error.empty()) return failure(in.error);
  return matrix_result(attn::rope(x, static_cast<int>(first), static_cast<float>(base)));
}

val linear(val args) {
  Reader in{args, {}};
  Matrix x = in.matrix("x");
  Matrix w = in.matrix("W");
  Matrix b = in.matrix("b", true);
  if (in.error.empty()) in.error = attn::check_linear(x, w, b);
  if (!in.error.empty()) return failure(in.error);
  Matrix y = attn::linear(x, w, b);
  Error overflow = attn::linear_overflow("x", y);
  if (!overflow.empty()) return failure(overflow);
  return matrix_result(y);
}

// (rows, cols) of N(0, 1) * scale from stream `stream` of `seed`; with `streams`, row i is the
// first cols draws of stream streams[i] (one call for many tokens' vectors).
val random_matrix(val args) {
  Reader in{args, {}};
  double rows = in.number(attn::kRows), cols = in.number(attn::kCols);
  double seed = in.number(attn::kSeed), stream = in.number(attn::kStream);
  double scale = in.number(attn::kScale);
  const bool per_row = in.has("streams");
  if (per_row && in.has("stream")) in.fail("streams: give stream or streams, not both");
  std::vector<double> streams;
  if (per_row) streams = in.numbers<double>("streams", attn::limits::kMaxTokens);
  if (in.error.empty()) in.error = attn::check_random_matrix(rows, cols, seed, stream, scale);
  if (in.error.empty() && per_row) in.error = attn::check_random_streams(rows, streams);
  if (!in.error.empty()) return failure(in.error);
  const auto s = static_cast<float>(scale);
  if (!per_row) {
    attn::Rng rng(static_cast<std::uint64_t>(seed), static_cast<std::uint32_t>(stream));
    return matrix_result(rng.normal_matrix(static_cast<int>(rows), static_cast<int>(cols), s));
  }
  Matrix m(static_cast<int>(rows), static_cast<int>(cols));  // (rows, cols)
  for (int i = 0; i < m.rows; ++i) {
    attn::Rng(static_cast<std::uint64_t>(seed), static_cast<std::uint32_t>(streams[i]))
        .normal(m.row(i), static_cast<std::size_t>(m.cols));
  }
  if (s != 1.0f)
    for (float& v : m.data) v *= s;  // as Rng::normal_matrix scales
  return matrix_result(m);
}

// "" when a matrix argument `name` of (rows, cols) holding `count` numbers is within the
// core's limits; otherwise the core's message. engine.js asks before copying anything.
std::string check_size(std::string name, double rows, double cols, double count) {
  attn::MatrixOption o;
  if (!attn::nested_matrix_option(name.c_str(), &o)) {
    return name + ": not a matrix argument of the engine";
  }
  return attn::check_size(o, rows, cols, count);
}

// check_size with an entry point's own limits, named as engine.limits names them (flash
// attention: "maxFlashTokens" or "maxTraceTokens" rows).
std::string check_size_in(std::string name, double rows, double cols, double count,
                          std::string rows_limit, std::string cols_limit) {
  return attn::check_size(attn::matrix_option(name.c_str(), rows_limit, cols_limit), rows, cols,
                          count);
}

// The names of every choice option, in the core's order: { score: [...], maskFill: [...], ... }.
val get_choices() {
  val out = val::object();
  out.set(attn::kScoreOption.name, choice_names(attn::kScoreOption));
  out.set(attn::kMaskFillOption.name, choice_names(attn::kMaskFillOption));
  out.set(attn::kBugOption.name, choice_names(attn::kBugOption));
  out.set(attn::kActivationOption.name, choice_names(attn::kActivationOption));
  out.set(attn::kLayerKindOption.name, choice_names(attn::kLayerKindOption));
  return out;
}

val get_limits() {
  val out = val::object();
  for (const attn::Limit& l : attn::exported_limits()) out.set(l.name, l.value);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  entry_point("attend", &attend);
  entry_point("multiHead", &multi_head);
  entry_point("varianceExperiment", &variance_experiment);
  entry_point("softmax", &softmax);
  entry_point("softmaxJacobian", &softmax_jacobian);
  entry_point("hardAttention", &hard_attention);
  entry_point("gumbelSoftmax", &gumbel_softmax);
  entry_point("sinusoidal", &sinusoidal);
  entry_point("rope", &rope);
  entry_point("linear", &linear);
  entry_point("randomMatrix", &random_matrix);
  emscripten::function("limits", &get_limits);
  emscripten::function("choices", &get_choices);
  emscripten::function("options", &describe_options);
  emscripten::function("checkSize", &check_size);
  emscripten::function("checkSizeIn", &check_size_in);
}
