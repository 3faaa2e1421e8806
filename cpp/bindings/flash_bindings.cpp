// Embind registration of tiled ("flash") attention (core/flash.h). No maths here.
//
// Same conventions as bindings.cpp: one plain JS object in (normalised by web/src/engine.js),
// one plain JS object out; a problem comes back as { error: "message" }, never a throw.
// Sizes are checked here before anything is allocated, so a direct call is safe. Its limits
// are exported with every other one (engine.limits, core/check.cpp exported_limits).

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "bindings/convert.h"
#include "core/check.h"
#include "core/flash.h"
#include "core/linear_attention.h"
#include "core/matrix.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

namespace limits = attn::limits;

// { query, key, value, causal, keyPadding, window, stride, blockSize, queryOffset } with up to
// max_tokens rows; window and stride absent (or null) = no such pattern.
attn::FlashArgs read_flash(Reader& in, int max_tokens) {
  attn::FlashArgs a;
  a.query = in.matrix("query", max_tokens, limits::kMaxDim);
  a.key = in.matrix("key", max_tokens, limits::kMaxDim);
  a.value = in.matrix("value", max_tokens, limits::kMaxDim);
  a.causal = in.flag(attn::kCausal);
  a.key_padding = in.flags("keyPadding", max_tokens);
  a.window = static_cast<int>(in.number(attn::kWindow));  // absent: the table's "none"
  a.stride = static_cast<int>(in.number(attn::kStride));
  a.block_size = static_cast<int>(in.number(attn::kBlockSize));
  a.query_offset = static_cast<int>(in.number(attn::kQueryOffset));
  if (in.error.empty()) in.error = attn::check_flash(a, max_tokens);
  return a;
}

void set_result(val& out, const attn::FlashResult& r) {
  out.set("output", to_js(r.output));
  out.set("entropy", copy_out(r.entropy));
  out.set("fullyMaskedRows", copy_out(r.fully_masked_rows));
  out.set("tileBytes", static_cast<double>(r.tile_bytes));
  out.set("packedBytes", static_cast<double>(r.packed_bytes));
}

val flash_attend(val args) {
  Reader in{args, {}};
  attn::FlashArgs a = read_flash(in, limits::kMaxFlashTokens);
  if (!in.error.empty()) return failure(in.error);
  val out = val::object();
  set_result(out, attn::flash_attend(a));
  return out;
}

val flash_trace(val args) {
  Reader in{args, {}};
  attn::FlashArgs a = read_flash(in, limits::kMaxTraceTokens);
  if (!in.error.empty()) return failure(in.error);
  attn::FlashTrace t = attn::flash_trace(a);
  val out = val::object();
  out.set("blockSize", t.block_size);
  out.set("blocks", t.blocks);
  out.set("scores", to_js(t.scores));
  out.set("blockMax", to_js(t.block_max));
  out.set("runningMax", to_js(t.running_max));
  out.set("rescale", to_js(t.rescale));
  out.set("runningSum", to_js(t.running_sum));
  out.set("skipped", to_js(t.skipped));
  set_result(out, t.result);
  return out;
}

// { query, key, value, causal } -> { output, zeroRows, stateBytes, chunkBytes }
val linear_attend(val args) {
  Reader in{args, {}};
  attn::LinearArgs a;
  a.query = in.matrix("query", limits::kMaxFlashTokens, limits::kMaxDim);
  a.key = in.matrix("key", limits::kMaxFlashTokens, limits::kMaxDim);
  a.value = in.matrix("value", limits::kMaxFlashTokens, limits::kMaxDim);
  a.causal = in.flag(attn::kCausal);
  if (in.error.empty()) in.error = attn::check_linear_attention(a);
  if (!in.error.empty()) return failure(in.error);
  attn::LinearResult r = attn::linear_attention(a);
  val out = val::object();
  out.set("output", to_js(r.output));
  out.set("zeroRows", copy_out(r.zero_rows));
  out.set("stateBytes", static_cast<double>(r.state_bytes));
  out.set("chunkBytes", static_cast<double>(r.chunk_bytes));
  return out;
}

// { output, reference } -> { maxAbs, relative }
val output_error(val args) {
  Reader in{args, {}};
  attn::Matrix output = in.matrix("output", limits::kMaxFlashTokens, limits::kMaxDim);
  attn::Matrix reference = in.matrix("reference", limits::kMaxFlashTokens, limits::kMaxDim);
  if (in.error.empty()) in.error = attn::check_output_error(output, reference);
  if (!in.error.empty()) return failure(in.error);
  attn::OutputError e = attn::output_error(output, reference);
  val out = val::object();
  out.set("maxAbs", e.max_abs);
  out.set("relative", e.relative);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(flash) {
  entry_point("flashAttend", &flash_attend);
  entry_point("flashTrace", &flash_trace);
  entry_point("linearAttend", &linear_attend);
  entry_point("outputError", &output_error);
}
