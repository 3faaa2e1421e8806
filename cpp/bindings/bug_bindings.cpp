// Embind registration of the debugging lab (core/bugs.h, core/monitors.h). No maths here.
//
// Same conventions as bindings.cpp: one plain JS object in (normalised by web/src/engine.js),
// one plain JS object out; a problem comes back as { error: "message" }, never a throw.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "bindings/convert.h"
#include "core/bugs.h"
#include "core/check.h"
#include "core/matrix.h"
#include "core/monitors.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

namespace limits = attn::limits;

// { query, key, value, mask, causal, keyPadding, bug, dModel } -> attend()'s result, every stage
val attend_with_bug(val args) {
  Reader in{args, {}};
  attn::BugArgs a;
  a.query = in.matrix("query");
  a.key = in.matrix("key");
  a.value = in.matrix("value");
  a.mask = in.matrix("mask", true);
  a.causal = in.flag(attn::kCausal);
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  a.bug = in.choice(attn::kBugOption);
  a.d_model = static_cast<int>(in.number(attn::kBugDModel));
  if (in.error.empty()) in.error = attn::check_bug(a);
  if (!in.error.empty()) return failure(in.error);
  attn::AttendResult r = attn::attend_with_bug(a);
  if (!r.error.empty()) return failure(r.error);
  return attend_to_js(r, true);
}

// { logits, weights, mask } -> the monitors of core/monitors.h
val monitor(val args) {
  Reader in{args, {}};
  attn::Matrix logits = in.matrix("logits");
  attn::Matrix weights = in.matrix("weights");
  attn::Matrix mask = in.matrix("mask");
  if (in.error.empty()) in.error = attn::check_monitor(logits, weights, mask);
  if (!in.error.empty()) return failure(in.error);
  attn::Monitors m = attn::monitor(logits, weights, mask);
  val out = val::object();
  out.set("maxEntropy", copy_out(m.max_entropy));
  out.set("rowSums", copy_out(m.row_sums));
  out.set("colSums", copy_out(m.col_sums));
  out.set("leaked", copy_out(m.leaked));
  out.set("cells", m.cells);
  out.set("logitMean", m.logit_mean);
  out.set("logitStd", m.logit_std);
  out.set("logitMax", m.logit_max);
  out.set("nonFinite", m.non_finite);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(bugs) {
  entry_point("attendWithBug", &attend_with_bug);
  entry_point("monitor", &monitor);
}
