// Embind registration of the lesson-5 experiments (core/saturation.h, core/experiments.h). No
// maths here.
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

#include "bindings/convert.h"
#include "core/check.h"
#include "core/experiments.h"
#include "core/matrix.h"
#include "core/saturation.h"
#include "core/softmax.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

using attn::Error;
namespace limits = attn::limits;

// ---- JS -> C++ ------------------------------------------------------------------------------

// { raw: {mean, variance}, scaled: {...}, histogram: {edges, scaledEdges?, rawCounts, scaledCounts}
// }, every number read as a double: the core checks them (attn::check_merge_variance).
attn::VarianceChunk read_chunk(const char* name, val v, Reader& in) {
  attn::VarianceChunk c;
  if (describing()) in.note(name, typed_entry("object"));
  if (!in.error.empty()) return c;
  auto is_object = [](const val& x) {
    return !x.isNull() && x.typeOf().as<std::string>() == "object";
  };
  if (!is_object(v) || !is_object(v["raw"]) || !is_object(v["scaled"]) ||
      !is_object(v["histogram"])) {
    in.fail(std::string(name) + ": expected { raw, scaled, histogram } of a variance experiment");
    return c;
  }
  Reader raw{v["raw"], {}}, scaled{v["scaled"], {}}, hist{v["histogram"], {}};
  c.raw.mean = raw.number("mean");
  c.raw.variance = raw.number("variance");
  c.scaled.mean = scaled.number("mean");
  c.scaled.variance = scaled.number("variance");
  c.edges = hist.numbers<double>("edges", limits::kMaxBins + 1);
  if (hist.has("scaledEdges"))
    c.scaled_edges = hist.numbers<double>("scaledEdges", limits::kMaxBins + 1);
  c.raw_counts = hist.numbers<double>("rawCounts", limits::kMaxBins);
  c.scaled_counts = hist.numbers<double>("scaledCounts", limits::kMaxBins);
  const char* parts[] = {".raw.", ".scaled.", ".histogram."};
  Reader* readers[] = {&raw, &scaled, &hist};
  for (int i = 0; i < 3; ++i)
    if (!readers[i]->error.empty()) in.fail(std::string(name) + parts[i] + readers[i]->error);
  return c;
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

// { raw, scaled, histogram: { edges, scaledEdges, rawCounts, scaledCounts }, samples }
val variance_to_js(const attn::VarianceResult& r, int samples) {
  val histogram = val::object();
  histogram.set("edges", copy_out(r.edges));
  if (!r.scaled_edges.empty()) histogram.set("scaledEdges", copy_out(r.scaled_edges));
  histogram.set("rawCounts", copy_out(r.raw_counts));
  histogram.set("scaledCounts", copy_out(r.scaled_counts));
  val out = val::object();
  out.set("raw", moments_to_js(r.raw));
  out.set("scaled", moments_to_js(r.scaled));
  out.set("histogram", histogram);
  out.set("samples", samples);
  return out;
}

// ---- entry points ---------------------------------------------------------------------------

val query_probe(val args) {
  Reader in{args, {}};
  attn::QueryProbeArgs a;
  a.dk = static_cast<int>(in.number(attn::kDk));
  a.n_keys = static_cast<int>(in.number(attn::kProbeKeys));
  a.seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
  a.trial = static_cast<int>(in.number(attn::kTrial));
  // checked as the double passed (any positive number, then float32's range), then converted
  const double tau = in.number(attn::kProbeTau);
  if (in.error.empty()) in.error = attn::check_temperature(attn::kProbeTau.name, tau);
  a.tau = static_cast<float>(tau);
  a.scaled = in.flag(attn::kProbeScaled);
  a.gumbel_samples = static_cast<int>(in.number(attn::kGumbelSamples));
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
  a.n_keys = static_cast<int>(in.number(attn::kSweepKeys));
  a.trials = static_cast<int>(in.number(attn::kTrials));
  a.seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
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
  const double a_samples = in.number(attn::kASamples);
  const double b_samples = in.number(attn::kBSamples);
  attn::VarianceChunk a;
  if (a_samples > 0 || describing())
    a = read_chunk("a", args["a"], in);  // read_chunk: none after an error
  attn::VarianceChunk b = read_chunk("b", args["b"], in);
  if (in.error.empty()) in.error = attn::check_merge_variance(a, a_samples, b, b_samples);
  if (!in.error.empty()) return failure(in.error);
  const int na = static_cast<int>(a_samples), nb = static_cast<int>(b_samples);  // checked
  return variance_to_js(attn::merge_variance(a, na, b, nb), na + nb);
}

// One sample of the variance experiment, drawn explicitly: { q, k, dot }.
val variance_sample(val args) {
  Reader in{args, {}};
  const int dk = static_cast<int>(in.number(attn::kDk));
  const auto seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
  const int sample = static_cast<int>(in.number(attn::kSample));
  if (in.error.empty()) in.error = attn::check_variance_sample(dk, sample);
  if (!in.error.empty()) return failure(in.error);
  attn::VarianceSample s = attn::variance_sample(dk, seed, sample);
  val out = val::object();
  out.set("q", copy_out(s.q));
  out.set("k", copy_out(s.k));
  out.set("dot", s.dot);
  return out;
}

// The variance experiment as an object that grows step by step (attn::VarianceRun). Made by
// createVarianceRun, kept in `runs`, owned (and deleted) by its JavaScript wrapper in engine.js.
class VarianceRunHandle {
 public:
  explicit VarianceRunHandle(const attn::VarianceRunArgs& a) : run_(a) {}
  // Draws the next `samples` samples: {} or { error }.
  val step(val samples) {
    Reader in{val::object(), {}};
    in.obj.set("samples", samples);
    const double n = in.number(attn::kStepSamples);
    if (in.error.empty()) in.error = run_.check_step(static_cast<int>(n));
    if (!in.error.empty()) return failure(in.error);
    run_.step(static_cast<int>(n));
    return val::object();
  }
  val snapshot() const { return variance_to_js(run_.snapshot(), run_.samples()); }

 private:
  attn::VarianceRun run_;
};

Live<VarianceRunHandle> runs(limits::kMaxVarianceRuns);

val no_run() {
  return failure("varianceRun: not a live run (deleted, or not made by createVarianceRun)");
}

// { run: handle } or { error }.
val create_variance_run(val args) {
  Reader in{args, {}};
  attn::VarianceRunArgs a;
  a.dk = static_cast<int>(in.number(attn::kDk));
  a.seed = static_cast<std::uint64_t>(in.number(attn::kSeed));
  a.bins = static_cast<int>(in.number(attn::kBins));
  a.first_sample = static_cast<int>(in.number(attn::kRunFirstSample));
  if (in.error.empty()) in.error = attn::check_variance_run(a);
  if (in.error.empty() && runs.full()) {
    in.error = "varianceRun: at most " + std::to_string(runs.max()) +
               " live runs at once (delete() one you no longer need)";
  }
  if (!in.error.empty()) return failure(in.error);
  val out = val::object();
  out.set("run", runs.add(std::make_unique<VarianceRunHandle>(a)));
  return out;
}

val variance_run_step(double handle, val samples) {
  VarianceRunHandle* r = runs.find(handle);
  return r ? r->step(samples) : no_run();
}

val variance_run_snapshot(double handle) {
  const VarianceRunHandle* r = runs.find(handle);
  return r ? r->snapshot() : no_run();
}

void variance_run_delete(double handle) { runs.remove(handle); }

}  // namespace

EMSCRIPTEN_BINDINGS(experiments) {
  entry_point("queryProbe", &query_probe);
  entry_point("saturationSweep", &saturation_sweep);
  entry_point("mergeVariance", &merge_variance);
  entry_point("varianceSample", &variance_sample);
  entry_point("createVarianceRun", &create_variance_run);
  emscripten::function("varianceRunStep", &variance_run_step);
  emscripten::function("varianceRunSnapshot", &variance_run_snapshot);
  emscripten::function("varianceRunDelete", &variance_run_delete);
}
