// Embind registration of the Transformer block (core/layer_norm.h, feed_forward.h,
// transformer_layer.h) and the GRU encoder (core/gru.h, the trainer's GRU). No maths here.
//
// Same conventions as bindings.cpp: one plain JS object in (normalised by web/src/engine/api.js,
// which flattens the nested weights into "selfAttention.Wq", "ff.W1", "norms[1].gamma", ...),
// one plain JS object out; a problem comes back as { error: "message" }, never a throw.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "bindings/convert.h"
#include "core/check.h"
#include "core/feed_forward.h"
#include "core/gru.h"
#include "core/layer_norm.h"
#include "core/transformer_layer.h"

using emscripten::val;
using namespace attn::bindings;

namespace {

namespace limits = attn::limits;

val layer_norm_to_js(const attn::LayerNormResult& r) {
  val out = val::object();
  out.set("output", to_js(r.output));
  out.set("mean", copy_out(r.mean));
  out.set("std", copy_out(r.std));
  return out;
}

val multi_head_to_js(const attn::MultiHeadResult& r, bool stages) {
  val heads = val::array();
  for (const attn::AttendResult& h : r.heads) heads.call<void>("push", attend_to_js(h, stages));
  val out = val::object();
  out.set("heads", heads);
  out.set("concat", to_js(r.concat));
  out.set("output", to_js(r.output));
  return out;
}

val ff_to_js(const attn::FeedForwardResult& r) {
  val out = val::object();
  out.set("hidden", to_js(r.hidden));
  out.set("output", to_js(r.output));
  return out;
}

// ---- entry points -------------------------------------------------------------------------

val layer_norm(val args) {
  Reader in{args, {}};
  attn::Matrix x = in.matrix("x");
  attn::Matrix gamma = in.matrix("gamma");
  attn::Matrix beta = in.matrix("beta");
  double eps = in.number(attn::kEps);
  if (in.error.empty()) in.error = attn::check_layer_norm(x, gamma, beta, eps);
  if (!in.error.empty()) return failure(in.error);
  attn::LayerNormResult r = attn::layer_norm(x, gamma, beta, eps);
  if (!r.error.empty()) return failure(r.error);
  return layer_norm_to_js(r);
}

// W1, b1, W2, b2 named prefix + "W1", ... ("" or "ff.")
void read_ff(Reader& in, const std::string& prefix, attn::FeedForwardArgs& a) {
  const std::string w1 = prefix + "W1", b1 = prefix + "b1", w2 = prefix + "W2", b2 = prefix + "b2";
  a.w1 = in.matrix(w1.c_str());
  a.b1 = in.matrix(b1.c_str(), true);
  a.w2 = in.matrix(w2.c_str());
  a.b2 = in.matrix(b2.c_str(), true);
  a.activation = in.choice(attn::kActivationOption);
}

val feed_forward(val args) {
  Reader in{args, {}};
  attn::FeedForwardArgs a;
  a.x = in.matrix("x");
  read_ff(in, "", a);
  if (in.error.empty()) in.error = attn::check_feed_forward(a);
  if (!in.error.empty()) return failure(in.error);
  attn::FeedForwardResult r = attn::feed_forward(a);
  if (!r.error.empty()) return failure(r.error);
  return ff_to_js(r);
}

// "selfAttention." or "crossAttention." + Wq, Wk, Wv, Wo, bq, bk, bv, bo
attn::AttentionWeights read_attention(Reader& in, const std::string& prefix, bool optional) {
  attn::AttentionWeights w;
  const char* names[] = {"Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv", "bo"};
  attn::Matrix* parts[] = {&w.wq, &w.wk, &w.wv, &w.wo, &w.bq, &w.bk, &w.bv, &w.bo};
  for (int i = 0; i < 8; i++) {
    const std::string name = prefix + names[i];
    *parts[i] = in.matrix(name.c_str(), optional || i >= 4);
  }
  return w;
}

val transformer_layer(val args) {
  Reader in{args, {}};
  attn::TransformerLayerArgs a;
  a.kind = in.choice(attn::kLayerKindOption);
  const bool decoder = a.kind == attn::LayerKind::Decoder;
  a.x = in.matrix("x");
  a.memory = in.matrix("memory", true);
  a.heads = static_cast<int>(in.number(attn::kHeads));
  a.self_attention = read_attention(in, "selfAttention.", false);
  // an encoder's cross-attention weights are read only to be refused by name
  a.cross_attention = read_attention(in, "crossAttention.", !decoder);
  read_ff(in, "ff.", a.ff);
  const int norms = static_cast<int>(in.integer("norms", 0, 3));
  for (int k = 0; k < norms; k++) {
    const std::string name = "norms[" + std::to_string(k) + "].";
    const std::string gamma = name + "gamma", beta = name + "beta";
    attn::NormWeights w;
    w.gamma = in.matrix(gamma.c_str());
    w.beta = in.matrix(beta.c_str());
    a.norms.push_back(w);
  }
  a.norm_first = in.flag(attn::kNormFirst);
  a.eps = in.number(attn::kEps);
  a.causal =
      in.flag(attn::kCausal.name, decoder);  // a decoder's self-attention is causal by default
  a.key_padding = in.flags("keyPadding", limits::kMaxTokens);
  a.memory_key_padding = in.flags("memoryKeyPadding", limits::kMaxTokens);
  a.residual = in.flag(attn::kResidual);
  a.layer_norm = in.flag(attn::kLayerNormOn);
  a.stages = in.flag(attn::kStages);
  if (in.error.empty()) in.error = attn::check_transformer_layer(a);
  if (!in.error.empty()) return failure(in.error);

  attn::TransformerLayerResult r = attn::transformer_layer(a);
  if (!r.error.empty()) return failure(r.error);
  val out = val::object();
  out.set("output", to_js(r.output));
  if (!a.stages) return out;
  out.set("selfAttention", multi_head_to_js(r.self_attention, true));
  if (decoder) out.set("crossAttention", multi_head_to_js(r.cross_attention, true));
  out.set("ff", ff_to_js(r.ff));
  val residuals = val::array(), normed = val::array();
  for (const attn::Matrix& m : r.residuals) residuals.call<void>("push", to_js(m));
  for (const attn::LayerNormResult& n : r.normed) normed.call<void>("push", layer_norm_to_js(n));
  out.set("residuals", residuals);
  out.set("normed", normed);
  return out;
}

val gru_encoder(val args) {
  Reader in{args, {}};
  attn::GruArgs a;
  a.x = in.matrix("x");
  a.w_ih = in.matrix("Wih");
  a.w_hh = in.matrix("Whh");
  a.b_ih = in.matrix("bih", true);
  a.b_hh = in.matrix("bhh", true);
  a.h0 = in.matrix("h0", true);
  if (in.error.empty()) in.error = attn::check_gru(a);
  if (!in.error.empty()) return failure(in.error);
  attn::GruResult r = attn::gru_encoder(a);
  if (!r.error.empty()) return failure(r.error);
  val out = val::object();
  out.set("hidden", to_js(r.hidden));
  out.set("steps", r.steps);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(block) {
  entry_point("layerNorm", &layer_norm);
  entry_point("feedForward", &feed_forward);
  entry_point("transformerLayer", &transformer_layer);
  entry_point("gruEncoder", &gru_encoder);
}
