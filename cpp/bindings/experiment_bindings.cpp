// Embind registration of the lesson-5 experiments (core/saturation.h). No maths here.
//
// Same conventions as bindings.cpp: one plain JS object in (normalised by web/src/engine.js),
// one plain JS object out; a problem comes back as { error: "message" }, never a throw.
// Fields are checked again here before anything is allocated, so a direct call is safe.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/experiments.h"
#include "core/matrix.h"
#include "core/saturation.h"
#include "bindings/convert.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

using attn::Error;
namespace limits = attn::limits;

// ---- JS -> C++ ------------------------------------------------------------------------------

// { raw: {mean, variance}, scaled: {...}, histogram: {edges, rawCounts, scaledCounts} }
attn::VarianceResult read_variance(const char* name, val v, Reader& in) {
  attn::VarianceResult r;
  if (!in.error.empty()) return r;
  if (v.isUndefined() || v.isNull() || v["raw"].isUndefined() || v["scaled"].isUndefined() ||
      v["histogram"].isUndefined()) {
    in.fail(std::string(name) + ": expected { raw, scaled, histogram } of a variance experiment");
    return r;
  }
  Reader raw{v["raw"], {}}, scaled{v["scaled"], {}}, hist{v["histogram"], {}};
  r.raw.mean = raw.number("mean");
  r.raw.variance = raw.number("variance");
  r.scaled.mean = scaled.number("mean");
  r.scaled.variance = scaled.number("variance");
  r.edges = hist.numbers<float>("edges", limits::kMaxBins + 1);
  r.raw_counts = hist.numbers<int>("rawCounts", limits::kMaxBins);
  r.scaled_counts = hist.numbers<int>("scaledCounts", limits::kMaxBins);
  for (Reader* f : {&raw, &scaled, &hist}) {
    if (!f->error.empty()) in.fail(std::string(name) + "." + f->error);
  }
  return r;
}

// ---- C++ -> JS ------------------------------------------------------------------------------

val stats_to_js(const attn::SaturationStats& s) {
  val o = val::object();
  o.set("maxWeight", s.max_weight);
  o.set("entropy", s.entropy);
  o.set("jacobianNorm", s.jacobian_norm);
  o.set("gradNorm", s.grad_norm);
  return o;
}

val moments_to_js(const attn::Moments& m) {
  val o = val::object();
  o.set("mean", m.mean);
  o.set("variance", m.variance);
  o.set("std", attn::standard_deviation(m));
  return o;
}

// ---- entry points ---------------------------------------------------------------------------

val query_probe(val args) {
  Reader in{args, {}};
  attn::QueryProbeArgs a;
  a.dk = static_cast<int>(in.integer("dk", 1, limits::kMaxDim));
  a.n_keys = static_cast<int>(in.integer("nKeys", 2, limits::kMaxTokens));
  a.seed = static_cast<std::uint64_t>(in.integer("seed", 0, 4294967295.0));
  a.trial = static_cast<int>(in.integer("trial", 0, limits::kMaxTrials - 1));
  a.tau = static_cast<float>(in.number("tau"));
  a.scaled = in.flag("scaled");
  a.gumbel_samples = static_cast<int>(in.integer("gumbelSamples", 0, 64));
  if (in.error.empty()) in.error = attn::check_query_probe(a);
  if (!in.error.empty()) return failure(in.error);

  attn::QueryProbeResult r = attn::query_probe(a);
  val out = val::object();
  out.set("rawScores", copy_out(r.raw_scores));
  out.set("scaledScores", copy_out(r.scaled_scores));
  out.set("rawWeights", copy_out(r.raw_weights));
  out.set("scaledWeights", copy_out(r.scaled_weights));
  out.set("rawEntropy", r.raw_entropy);
  out.set("scaledEntropy", r.scaled_entropy);
  out.set("rawMax", r.raw_max);
  out.set("scaledMax", r.scaled_max);
  out.set("hard", copy_out(r.hard));
  out.set("gumbel", to_js(r.gumbel));
  return out;
}

val saturation_sweep(val args) {
  Reader in{args, {}};
  attn::SaturationArgs a;
  a.dks = in.numbers<int>("dks", attn::kMaxSweepDks);
  a.n_keys = static_cast<int>(in.integer("nKeys", 2, attn::kMaxSweepKeys));
  a.trials = static_cast<int>(in.integer("trials", 1, limits::kMaxTrials));
  a.seed = static_cast<std::uint64_t>(in.integer("seed", 0, 4294967295.0));
  if (in.error.empty()) in.error = attn::check_saturation(a);
  if (!in.error.empty()) return failure(in.error);

  attn::SaturationResult r = attn::saturation_sweep(a);
  val points = val::array();
  for (const attn::SaturationPoint& p : r.points) {
    val o = val::object();
    o.set("dk", p.dk);
    o.set("raw", stats_to_js(p.raw));
    o.set("scaled", stats_to_js(p.scaled));
    points.call<void>("push", o);
  }
  val out = val::object();
  out.set("logN", r.log_n);
  out.set("points", points);
  return out;
}

val merge_variance(val args) {
  Reader in{args, {}};
  int a_samples = static_cast<int>(in.integer("aSamples", 0, limits::kMaxSamples));
  int b_samples = static_cast<int>(in.integer("bSamples", 1, limits::kMaxSamples));
  attn::VarianceResult a;
  if (in.error.empty() && a_samples > 0) a = read_variance("a", args["a"], in);
  attn::VarianceResult b = read_variance("b", args["b"], in);
  if (in.error.empty()) in.error = attn::check_merge_variance(a, a_samples, b, b_samples);
  if (!in.error.empty()) return failure(in.error);

  attn::VarianceResult r = attn::merge_variance(a, a_samples, b, b_samples);
  val histogram = val::object();
  histogram.set("edges", copy_out(r.edges));
  histogram.set("rawCounts", copy_out(r.raw_counts));
  histogram.set("scaledCounts", copy_out(r.scaled_counts));
  val out = val::object();
  out.set("raw", moments_to_js(r.raw));
  out.set("scaled", moments_to_js(r.scaled));
  out.set("histogram", histogram);
  out.set("samples", a_samples + b_samples);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(experiments) {
  emscripten::function("queryProbe", &query_probe);
  emscripten::function("saturationSweep", &saturation_sweep);
  emscripten::function("mergeVariance", &merge_variance);
}
