// GPT-2's forward pass, one function per stage (see gpt2.h), and the head scores.
#include "core/gpt2.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include "core/dense.h"
#include "core/rng.h"

namespace attn::gpt2 {

using dense::add_bias;
using dense::gather;
using dense::layer_norm_rows;
using dense::scatter;

// ---- configuration ---------------------------------------------------------------------------

Error check_config(const Config& c) {
  if (c.model_type != "gpt2")
    return expected("config.model_type", "'gpt2' (a GPT-2-family checkpoint)",
                    "'" + c.model_type + "'");
  const std::string& act = c.activation_function;
  if (act != "gelu_new" && act != "gelu_pytorch_tanh" && act != "gelu_fast")
    return expected(
        "config.activation_function",
        "'gelu_new' (GPT-2's tanh GELU; 'gelu_pytorch_tanh' and 'gelu_fast' are the same)",
        "'" + act + "'");
  if (!c.scale_attn_weights)
    return expected("config.scale_attn_weights", "true (GPT-2 divides the scores by sqrt(d_head))",
                    "false");
  if (c.scale_attn_by_inverse_layer_idx)
    return expected("config.scale_attn_by_inverse_layer_idx",
                    "false (GPT-2's scores are not divided by the layer number)", "true");
  if (c.add_cross_attention)
    return expected("config.add_cross_attention", "false (GPT-2 has no cross-attention)", "true");
  Error e = check_number(kNLayer, c.n_layer);
  if (e.empty()) e = check_number(kNHead, c.n_head);
  if (e.empty()) e = check_number(kNEmbd, c.n_embd);
  if (e.empty()) e = check_number(kNPositions, c.n_positions);
  if (e.empty()) e = check_number(kVocabSize, c.vocab_size);
  if (e.empty()) e = check_number(kNInner, c.n_inner);
  if (e.empty()) e = check_number(kLayerNormEpsilon, c.layer_norm_epsilon);
  if (e.empty() && c.n_embd % c.n_head != 0) {
    e = expected(kNHead.name,
                 "a divisor of config.n_embd = " + std::to_string(c.n_embd) +
                     " (each head takes n_embd / n_head columns)",
                 std::to_string(c.n_head));
  }
  return e;
}

// ---- the weights -----------------------------------------------------------------------------

namespace {
constexpr int kPanel = 8;  // columns of a packed panel (kernels::PackedMatrix)
std::size_t round8(int x) { return (static_cast<std::size_t>(x) + kPanel - 1) / kPanel * kPanel; }
}  // namespace

std::size_t Slot::floats() const {
  switch (layout) {
    case Layout::Rows:
      return static_cast<std::size_t>(rows) * cols;
    case Layout::PackedIn:  // (in, out): panels of 8 output columns, each (in, 8)
      return round8(cols) * rows;
    case Layout::PackedVocab:  // (vocab, d) transposed: panels of 8 tokens, each (d, 8)
      return round8(rows) * cols;
  }
  return 0;
}

std::size_t Slot::index(int r, int c) const {
  switch (layout) {
    case Layout::Rows:
      return static_cast<std::size_t>(r) * cols + c;
    case Layout::PackedIn:
      return static_cast<std::size_t>(c / kPanel) * kPanel * rows + kPanel * r + c % kPanel;
    case Layout::PackedVocab:
      return static_cast<std::size_t>(r / kPanel) * kPanel * cols + kPanel * c + r % kPanel;
  }
  return 0;
}

Model::Model(const Config& config) : config_(config) {
  const int d = config.n_embd, inner = config.n_inner;
  auto slot = [&](int rows, int cols, Layout layout) {
    Slot s{floats_, rows, cols, layout};
    floats_ += (s.floats() + 3) / 4 * 4;  // every slot starts on 16 bytes
    return s;
  };
  wte = slot(config.vocab_size, d, Layout::PackedVocab);
  wpe = slot(config.n_positions, d, Layout::Rows);
  for (int l = 0; l < config.n_layer; l++) {
    Block b;
    b.ln_1_weight = slot(1, d, Layout::Rows);
    b.ln_1_bias = slot(1, d, Layout::Rows);
    b.attn_weight = slot(d, 3 * d, Layout::PackedIn);
    b.attn_bias = slot(1, 3 * d, Layout::Rows);
    b.proj_weight = slot(d, d, Layout::PackedIn);
    b.proj_bias = slot(1, d, Layout::Rows);
    b.ln_2_weight = slot(1, d, Layout::Rows);
    b.ln_2_bias = slot(1, d, Layout::Rows);
    b.fc_weight = slot(d, inner, Layout::PackedIn);
    b.fc_bias = slot(1, inner, Layout::Rows);
    b.mlp_weight = slot(inner, d, Layout::PackedIn);
    b.mlp_bias = slot(1, d, Layout::Rows);
    h.push_back(b);
  }
  ln_f_weight = slot(1, d, Layout::Rows);
  ln_f_bias = slot(1, d, Layout::Rows);
}

bool Model::allocate() {
  // not value-initialised: every entry is written once by the loader, so the memory is touched
  // once, not twice (0.5 GB for GPT-2 small); the last panel of each packed slot, whose padding
  // the products read, is zeroed here
  store_.reset(new (std::nothrow) float[floats_]);
  if (!store_) return false;
  auto zero_last_panel = [&](const Slot& s) {
    if (s.layout == Layout::PackedIn)
      std::fill_n(at(s) + s.floats() - kPanel * s.rows, kPanel * s.rows, 0.0f);
    if (s.layout == Layout::PackedVocab)
      std::fill_n(at(s) + s.floats() - kPanel * s.cols, kPanel * s.cols, 0.0f);
  };
  zero_last_panel(wte);
  for (const Block& b : h)
    for (const Slot* s : {&b.attn_weight, &b.proj_weight, &b.fc_weight, &b.mlp_weight})
      zero_last_panel(*s);
  return true;
}

void Model::store(const Slot& s, std::uint64_t first, const float* x, std::size_t count) {
  float* dst = at(s);
  if (s.layout == Layout::Rows) {
    std::copy_n(x, count, dst + first);
    return;
  }
  int r = static_cast<int>(first / s.cols), c = static_cast<int>(first % s.cols);
  while (count > 0) {  // the rest of row r, then the next row
    const int run = static_cast<int>(std::min<std::size_t>(count, s.cols - c));
    if (s.layout == Layout::PackedIn) {  // entry (r, c) at panel c / 8, row r, lane c % 8
      float* row = dst + static_cast<std::size_t>(kPanel) * r;
      const std::size_t panel = static_cast<std::size_t>(kPanel) * s.rows;
      for (int j = 0; j < run;) {  // the row's entries in one panel are side by side
        const int col = c + j, lane = col % kPanel, len = std::min(kPanel - lane, run - j);
        std::copy_n(x + j, len, row + col / kPanel * panel + lane);
        j += len;
      }
    } else {  // PackedVocab: entry (r, c) at panel r / 8, row c, lane r % 8
      float* lane = dst + static_cast<std::size_t>(r / kPanel) * kPanel * s.cols + r % kPanel;
      for (int j = 0; j < run; j++) lane[static_cast<std::size_t>(kPanel) * (c + j)] = x[j];
    }
    x += run;
    count -= run;
    r++;
    c = 0;
  }
}

kernels::PackedMatrix Model::packed(const Slot& s) const {
  if (s.layout == Layout::PackedVocab) return {at(s), s.cols, s.rows};  // x wteᵀ: (d, vocab)
  return {at(s), s.rows, s.cols};                                       // x W: (in, out)
}

double weight_bytes(const Config& c) { return 4.0 * static_cast<double>(Model(c).floats()); }

// ---- the stages --------------------------------------------------------------------------------

void embed(const Model& m, const int* ids, int n, float* x) {
  const int d = m.config().n_embd;
  const float* wte = m.at(m.wte);
  for (int t = 0; t < n; t++) {
    float* xt = x + static_cast<std::size_t>(t) * d;
    const float* pos = m.at(m.wpe) + static_cast<std::size_t>(t) * d;
    for (int c = 0; c < d; c++) xt[c] = wte[m.wte.index(ids[t], c)] + pos[c];
  }
}

void conv1d(const Model& m, const Slot& w, const Slot& b, const float* x, int n, float* y) {
  kernels::gemm_packed(x, w.rows, m.packed(w), 0, 0, y, w.cols, n, w.cols, w.rows);
  add_bias(y, m.at(b), n, w.cols);
}

bool attention_head(const float* q, const float* k, const float* v, int n, int d_head,
                    float* weights, float* out, kernels::Workspace* ws, StageTimer* timer) {
  // 1. scores = q kᵀ: (n, n)
  kernels::gemm_abt(q, k, weights, n, n, d_head, ws);
  // 2. scaled = scores / sqrt(d_head), every one finite (the blocked ones too: as attend checks)
  if (!kernels::divide_finite(weights, static_cast<std::size_t>(n) * n,
                              std::sqrt(static_cast<float>(d_head))))
    return false;
  // 3-4. causal mask and softmax in one pass: entries past i count as -inf (they become 0)
  for (int i = 0; i < n; i++)
    kernels::softmax_entropy_row(weights + static_cast<std::size_t>(i) * n, n, i + 1);
  timer->lap(Stage::Scores);
  // 5. out = weights v: (n, d_head)
  kernels::gemm_ab(weights, v, out, n, d_head, n, ws);
  timer->lap(Stage::WeightsV);
  return true;
}

namespace {

// One head's q, k, v and output: (n, d_head) each.
struct HeadScratch {
  std::vector<float> q, k, v, out;
  HeadScratch(int n, int d_head) {
    for (auto* b : {&q, &k, &v, &out}) b->resize(static_cast<std::size_t>(n) * d_head);
  }
};

// out (n, d_head): every row the mean of the rows (a head's typical output, whatever the token)
void mean_rows(float* out, int n, int d_head) {
  for (int c = 0; c < d_head; c++) {
    double sum = 0;
    for (int i = 0; i < n; i++) sum += out[static_cast<std::size_t>(i) * d_head + c];
    const float mean = static_cast<float>(sum / n);
    for (int i = 0; i < n; i++) out[static_cast<std::size_t>(i) * d_head + c] = mean;
  }
}

}  // namespace

int attention_heads(const Model& m, int layer, const float* qkv, int n, const RunArgs& a,
                    float* heads, float* const* weights, kernels::Workspace* ws,
                    StageTimer* timer) {
  StageTimer none(nullptr);
  if (!timer) timer = &none;
  const Config& c = m.config();
  const int d = c.n_embd, dh = c.d_head();
  HeadScratch s(n, dh);
  for (int h = 0; h < c.n_head; h++) {
    gather(qkv, 3 * d, h * dh, s.q.data(), n, dh);          // q_h: (n, d_head)
    gather(qkv, 3 * d, d + h * dh, s.k.data(), n, dh);      // k_h: (n, d_head)
    gather(qkv, 3 * d, 2 * d + h * dh, s.v.data(), n, dh);  // v_h: (n, d_head)
    if (!attention_head(s.q.data(), s.k.data(), s.v.data(), n, dh, weights[h], s.out.data(), ws,
                        timer))
      return h;
    const std::size_t i = static_cast<std::size_t>(layer) * c.n_head + h;
    if (i < a.ablated.size() && a.ablated[i]) {
      if (a.ablation == Ablation::Zero) {
        std::fill(s.out.begin(), s.out.end(), 0.0f);
      } else {
        mean_rows(s.out.data(), n, dh);
      }
    }
    scatter(s.out.data(), heads, d, h * dh, n, dh);  // heads[:, h d_head ..]: (n, d)
    timer->lap(Stage::WeightsV);
  }
  return -1;
}

// ---- a forward pass
// ------------------------------------------------------------------------------

namespace {

constexpr int kLogitRows = 64;  // tokens per block of logits: (64, vocab) floats at a time

// One run's buffers, for n tokens.
struct Activations {
  std::vector<float> x;        // (n, d): the residual stream
  std::vector<float> a;        // (n, d): a layer norm's output, then a sub-layer's
  std::vector<float> qkv;      // (n, 3d)
  std::vector<float> heads;    // (n, d): the heads' outputs side by side
  std::vector<float> hidden;   // (n, inner): the MLP's
  std::vector<float> logits;   // (min(n, 64), vocab): one block of tokens
  std::vector<float> scratch;  // (n, n): a head's weights when they are not kept
  Activations(const Config& c, int n, bool keep_attention) {
    const std::size_t nd = static_cast<std::size_t>(n) * c.n_embd;
    x.resize(nd);
    a.resize(nd);
    qkv.resize(3 * nd);
    heads.resize(nd);
    hidden.resize(static_cast<std::size_t>(n) * c.n_inner);
    logits.resize(static_cast<std::size_t>(std::min(n, kLogitRows)) * c.vocab_size);
    if (!keep_attention) scratch.resize(static_cast<std::size_t>(n) * n);
  }
};

// The k largest of p[0 .. count), best first (ties: the lower id first).
void top_k(const float* p, int count, int k, int* ids, float* probs) {
  int have = 0;
  for (int j = 0; j < count; j++) {
    if (have == k && !(p[j] > probs[k - 1])) continue;
    int at = have < k ? have++ : k - 1;
    while (at > 0 && probs[at - 1] < p[j]) {
      probs[at] = probs[at - 1];
      ids[at] = ids[at - 1];
      at--;
    }
    probs[at] = p[j];
    ids[at] = j;
  }
}

// |x| of each row, in double; false when one is not finite.
bool row_norms(const float* x, int n, int d, float* out) {
  bool finite = true;
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int c = 0; c < d; c++) {
      const double v = x[static_cast<std::size_t>(i) * d + c];
      sum += v * v;
    }
    out[i] = static_cast<float>(std::sqrt(sum));
    finite = finite && std::isfinite(sum) && std::isfinite(out[i]);
  }
  return finite;
}

// The chosen head's five stages through the pipeline chapter's own function (core/attention.h),
// on the same q_h, k_h, v_h: its weights and output are those of attention_head, bit for bit.
AttendResult head_stages(const Config& c, const float* qkv, int n, int head) {
  const int d = c.n_embd, dh = c.d_head();
  AttendArgs args;
  args.query = Matrix(n, dh);
  args.key = Matrix(n, dh);
  args.value = Matrix(n, dh);
  gather(qkv, 3 * d, head * dh, args.query.data.data(), n, dh);
  gather(qkv, 3 * d, d + head * dh, args.key.data.data(), n, dh);
  gather(qkv, 3 * d, 2 * d + head * dh, args.value.data.data(), n, dh);
  args.score = ScoreKind::ScaledDot;
  args.causal = true;
  return attend(args);
}

// A run's refusal when its arithmetic leaves float32 (finite weights whose products pass 3.4e38):
// `what` says which numbers left it, and where.
Error overflow(const std::string& what) {
  return "ids: on these tokens " + what +
         " (the checkpoint's weights are too large for float32 arithmetic)";
}

// Block l on the residual stream act->x, in place. The heads' weights go to r->attention when
// they are kept, the chosen head's stages to r->stages. Empty, or the error of a head whose scores
// left float32 (the residual stream is checked by the caller).
Error transformer_block(const Model& m, int l, const RunArgs& a, Activations* act, Run* r,
                        kernels::Workspace* ws, StageTimer* timer) {
  const Config& c = m.config();
  const Block& b = m.h[l];
  const int n = static_cast<int>(a.ids.size()), d = c.n_embd, H = c.n_head;
  std::vector<float*> weights(H, act->scratch.data());  // each head's (n, n) weights
  if (a.attention)
    for (int h = 0; h < H; h++)
      weights[h] = r->attention[static_cast<std::size_t>(l) * H + h].data.data();
  // attention: x += heads(ln_1(x) W_attn + b_attn) W_proj + b_proj
  layer_norm_rows(act->x.data(), m.at(b.ln_1_weight), m.at(b.ln_1_bias), c.layer_norm_epsilon,
                  act->a.data(), n, d);
  timer->lap(Stage::Ln1);
  conv1d(m, b.attn_weight, b.attn_bias, act->a.data(), n, act->qkv.data());  // q, k, v: (n, 3d)
  timer->lap(Stage::Qkv);
  const int failed =
      attention_heads(m, l, act->qkv.data(), n, a, act->heads.data(), weights.data(), ws, timer);
  if (failed >= 0)
    return overflow("the attention scores q·k of block " + std::to_string(l) + ", head " +
                    std::to_string(failed) + " leave float32");
  if (l == a.stage_layer) r->stages = head_stages(c, act->qkv.data(), n, a.stage_head);
  timer->lap(Stage::HeadStages);
  conv1d(m, b.proj_weight, b.proj_bias, act->heads.data(), n, act->a.data());  // (n, d)
  timer->lap(Stage::Proj);
  for (std::size_t i = 0; i < act->x.size(); i++) act->x[i] += act->a[i];
  timer->lap(Stage::Residual);
  // MLP: x += gelu(ln_2(x) W_fc + b_fc) W_mlp + b_mlp
  layer_norm_rows(act->x.data(), m.at(b.ln_2_weight), m.at(b.ln_2_bias), c.layer_norm_epsilon,
                  act->a.data(), n, d);
  timer->lap(Stage::Ln2);
  conv1d(m, b.fc_weight, b.fc_bias, act->a.data(), n, act->hidden.data());  // (n, inner)
  timer->lap(Stage::Fc);
  kernels::gelu_tanh(act->hidden.data(), act->hidden.size());
  timer->lap(Stage::Gelu);
  conv1d(m, b.mlp_weight, b.mlp_bias, act->hidden.data(), n, act->a.data());  // (n, d)
  timer->lap(Stage::MlpProj);
  for (std::size_t i = 0; i < act->x.size(); i++) act->x[i] += act->a[i];
  timer->lap(Stage::Residual);
  return {};
}

}  // namespace

Error check_run(const Config& c, const RunArgs& a) {
  const int n = static_cast<int>(a.ids.size());
  if (n < 1 || n > c.n_positions)
    return expected("ids", "1 to " + std::to_string(c.n_positions) + " tokens (config.n_positions)",
                    std::to_string(a.ids.size()));
  for (int t = 0; t < n; t++) {
    if (a.ids[t] < 0 || a.ids[t] >= c.vocab_size)
      return "ids: entry " + std::to_string(t) + " is " + std::to_string(a.ids[t]) +
             " (expected a token id from 0 to " + std::to_string(c.vocab_size - 1) + ")";
  }
  Error e = check_number(capped(kTopK, c.vocab_size), a.top_k);  // at most vocab_size
  if (!e.empty()) return e;
  const bool stage = a.stage_layer != -1 || a.stage_head != -1;
  if (stage && (a.stage_layer < 0 || a.stage_layer >= c.n_layer || a.stage_head < 0 ||
                a.stage_head >= c.n_head))
    return expected(
        "head",
        "[layer, head] with layer 0 to " + std::to_string(c.n_layer - 1) + " and head 0 to " +
            std::to_string(c.n_head - 1),
        "[" + std::to_string(a.stage_layer) + ", " + std::to_string(a.stage_head) + "]");
  if (!a.ablated.empty() &&
      a.ablated.size() != static_cast<std::size_t>(c.n_layer) * static_cast<std::size_t>(c.n_head))
    return expected("ablate", std::to_string(c.n_layer * c.n_head) + " flags (one per head)",
                    std::to_string(a.ablated.size()));
  if (!a.probabilities_of.empty() &&
      a.probabilities_of.size() != static_cast<std::size_t>(n) * a.top_k)
    return expected("probabilitiesOf", std::to_string(n * a.top_k) + " ids (n × topK)",
                    std::to_string(a.probabilities_of.size()));
  for (int id : a.probabilities_of) {
    if (id < 0 || id >= c.vocab_size)
      return "probabilitiesOf: " + std::to_string(id) + " is not a token id";
  }
  return kAblationOption.check(a.ablation);
}

double run_bytes(const Config& c, int n, bool attention) {
  const double nd = static_cast<double>(n) * c.n_embd, nn = static_cast<double>(n) * n;
  double floats = 6 * nd + static_cast<double>(n) * c.n_inner +  // x, a, qkv, heads, hidden
                  std::min(n, kLogitRows) * static_cast<double>(c.vocab_size) +  // logits
                  4 * static_cast<double>(n) * c.d_head() +                      // one head
                  nn +                                     // one head's weights, or the packed k
                  static_cast<double>(n) * kMaxTopK * 2 +  // top-k ids and probabilities
                  8 * nn + 8 * static_cast<double>(n) * c.d_head();  // one head's stages
  if (attention) floats += static_cast<double>(c.n_layer) * c.n_head * nn;
  return 4 * floats;
}

Run run(const Model& m, const RunArgs& a) {
  Run r;
  const Config& c = m.config();
  const int n = static_cast<int>(a.ids.size()), d = c.n_embd, V = c.vocab_size;
  StageTimer timer(a.profile);
  Activations act(c, n, a.attention);
  kernels::Workspace ws;  // the packed k and v of the heads' products
  r.residual_norms = Matrix(c.n_layer + 1, n);
  if (a.attention) r.attention.assign(static_cast<std::size_t>(c.n_layer) * c.n_head, Matrix(n, n));

  // x = wte[ids] + wpe: (n, d), then each block
  embed(m, a.ids.data(), n, act.x.data());
  timer.lap(Stage::Embedding);
  auto refuse = [](Error e) {
    Run failed;
    failed.error = std::move(e);
    return failed;
  };
  for (int l = 0; l <= c.n_layer; l++) {
    if (l > 0) {
      Error e = transformer_block(m, l - 1, a, &act, &r, &ws, &timer);
      if (!e.empty()) return refuse(std::move(e));
    }
    // |x| of each token after the embedding (row 0) and after each block
    if (!row_norms(act.x.data(), n, d, r.residual_norms.row(l)))
      return refuse(overflow(std::string("the residual stream leaves float32 ") +
                             (l == 0 ? "in the embedding" : "in block " + std::to_string(l - 1))));
    timer.lap(Stage::Residual);
  }

  // logits = ln_f(x) wteᵀ, a block of tokens at a time: each row's softmax and its top k
  layer_norm_rows(act.x.data(), m.at(m.ln_f_weight), m.at(m.ln_f_bias), c.layer_norm_epsilon,
                  act.a.data(), n, d);
  timer.lap(Stage::LnF);
  r.k = a.top_k;
  r.top_ids.resize(static_cast<std::size_t>(n) * a.top_k);
  r.top_probs.resize(r.top_ids.size());
  if (a.logits) r.logits = Matrix(n, V);
  if (!a.probabilities_of.empty()) r.probabilities_of.resize(r.top_ids.size());
  const kernels::PackedMatrix wte = m.packed(m.wte);
  for (int t0 = 0; t0 < n; t0 += kLogitRows) {
    const int rows = std::min(kLogitRows, n - t0);
    float* logits = act.logits.data();  // (rows, vocab)
    kernels::gemm_packed(act.a.data() + static_cast<std::size_t>(t0) * d, d, wte, 0, 0, logits, V,
                         rows, V, d);
    timer.lap(Stage::Logits);
    // an infinite logit has no probability (the softmax would give NaN)
    if (!std::all_of(logits, logits + static_cast<std::size_t>(rows) * V,
                     [](float x) { return std::isfinite(x); }))
      return refuse(overflow("the logits leave float32"));
    if (a.logits) std::copy_n(logits, static_cast<std::size_t>(rows) * V, r.logits.row(t0));
    kernels::softmax_rows(logits, rows, V, true);  // probabilities of the next token
    for (int i = 0; i < rows; i++) {
      const float* p = logits + static_cast<std::size_t>(i) * V;
      const std::size_t at = static_cast<std::size_t>(t0 + i) * a.top_k;
      top_k(p, V, a.top_k, r.top_ids.data() + at, r.top_probs.data() + at);
      for (int j = 0; j < a.top_k && !a.probabilities_of.empty(); j++)
        r.probabilities_of[at + j] = p[a.probabilities_of[at + j]];
    }
    timer.lap(Stage::TopK);
  }
  return r;
}

Baseline baseline(const Model& m, const RunArgs& ablated_args, const Run& ablated) {
  RunArgs a;
  a.ids = ablated_args.ids;
  a.top_k = ablated_args.top_k;
  a.attention = false;
  a.probabilities_of = ablated.top_ids;
  Run r = run(m, a);
  return {std::move(r.top_ids), std::move(r.top_probs), std::move(r.probabilities_of),
          std::move(r.error)};
}

// ---- head scores
// ---------------------------------------------------------------------------------

std::vector<int> distinct_tokens(std::uint32_t seed, int length, int vocab) {
  std::vector<int> order(vocab);
  for (int i = 0; i < vocab; i++) order[i] = i;
  std::vector<float> u(length);
  Rng(seed).uniform(u.data(), u.size());
  for (int i = 0; i < length; i++) {
    const int left = vocab - i;  // swap a random one of order[i ..] into place i
    const int j = i + std::min(left - 1, static_cast<int>(u[i] * static_cast<float>(left)));
    std::swap(order[i], order[j]);
  }
  order.resize(length);
  return order;
}

Error check_score_tokens(const Config& c, const std::vector<int>& tokens) {
  const int most = std::min(c.vocab_size, c.n_positions / 2);
  const int n = static_cast<int>(tokens.size());
  if (n < 2 || n > most)
    return expected("tokens",
                    "2 to " + std::to_string(most) +
                        " distinct tokens (at most vocab_size, and half of n_positions: the "
                        "sequence is written twice)",
                    std::to_string(tokens.size()));
  std::vector<char> seen(c.vocab_size, 0);
  for (int i = 0; i < n; i++) {
    if (tokens[i] < 0 || tokens[i] >= c.vocab_size)
      return "tokens: entry " + std::to_string(i) + " is " + std::to_string(tokens[i]) +
             " (expected a token id from 0 to " + std::to_string(c.vocab_size - 1) + ")";
    if (seen[tokens[i]]++)
      return "tokens: entry " + std::to_string(i) + " is " + std::to_string(tokens[i]) +
             " again (expected distinct tokens: the scores look for each token's first "
             "occurrence)";
  }
  return {};
}

HeadScores head_scores(const Model& m, const std::vector<int>& tokens) {
  HeadScores s;
  const Config& c = m.config();
  const int half = static_cast<int>(tokens.size()), n = 2 * half;
  RunArgs a;
  a.ids = tokens;
  a.ids.insert(a.ids.end(), tokens.begin(), tokens.end());  // the tokens, twice: (2L)
  a.top_k = 1;
  Run r = run(m, a);
  if (!r.error.empty()) {
    s.error = r.error;
    return s;
  }
  for (Matrix* x :
       {&s.previous_token, &s.induction, &s.duplicate_token, &s.first_token, &s.entropy})
    *x = Matrix(c.n_layer, c.n_head);
  for (int l = 0; l < c.n_layer; l++) {
    for (int h = 0; h < c.n_head; h++) {
      const Matrix& w = r.attention[static_cast<std::size_t>(l) * c.n_head + h];  // (n, n)
      double previous = 0, induction = 0, duplicate = 0, first = 0, entropy = 0;
      for (int i = 1; i < n; i++) {
        previous += w.at(i, i - 1);
        first += w.at(i, 0);
        double hi = 0;
        for (int j = 0; j <= i; j++) {
          const double p = w.at(i, j);
          if (p > 0) hi -= p * std::log(p);
        }
        entropy += hi / std::log(static_cast<double>(i + 1));
        if (i >= half) {
          duplicate += w.at(i, i - half);      // the same token, first time
          induction += w.at(i, i - half + 1);  // the token that followed it then
        }
      }
      s.previous_token.at(l, h) = static_cast<float>(previous / (n - 1));
      s.first_token.at(l, h) = static_cast<float>(first / (n - 1));
      s.entropy.at(l, h) = static_cast<float>(std::min(1.0, entropy / (n - 1)));
      s.duplicate_token.at(l, h) = static_cast<float>(duplicate / half);
      s.induction.at(l, h) = static_cast<float>(induction / half);
    }
  }
  s.tokens = tokens;
  return s;
}

}  // namespace attn::gpt2
