// The RNN encoder–decoder: forward, backward through time, decoding, and its trainer
// (see seq2seq.h).
#include "core/seq2seq.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/dense.h"
#include "core/gru.h"
#include "core/rng.h"

namespace attn {

namespace {
constexpr std::uint32_t kInitStream = 1;      // the seed's stream for the initial weights
constexpr std::uint32_t kDataStream = 2;      // ... for the training batches
constexpr std::uint32_t kHeldOutStream = 3;   // ... for the held-out batch
constexpr std::uint32_t kByLengthStream = 4;  // ... for the held-out set of every length
constexpr int kHeldOutSize = 64;
constexpr int kPerLength = 8;  // pairs of each length in evaluate_by_length
// What an allocator keeps beside an allocation of n bytes: a header, or for a large one (which
// may be mapped on its own) a page.
double allocation_overhead(double n) { return n >= 128 * 1024 ? 4096 : 32; }

// out (m, n) = g^T x for g (rows, m), x (rows, n): a weight's gradient; t: (m, rows) scratch
void weight_gradient(const float* g, const float* x, float* out, int rows, int m, int n, float* t,
                     kernels::Workspace* ws) {
  dense::transpose(g, t, rows, m);
  kernels::gemm_ab(t, x, out, m, n, rows, ws);
}
}  // namespace

using dense::add_bias;
using dense::column_sums;
using dense::grow;

// ---- parameters ------------------------------------------------------------------------------

Seq2Seq::Seq2Seq(const Seq2SeqModelConfig& config) : Seq2Seq(config, Layout{}) {
  const Tensor& last = tensors_.back();
  params_.assign(last.offset + last.size(), 0.0f);
  grads_.assign(params_.size(), 0.0f);
}

Seq2Seq::Seq2Seq(const Seq2SeqModelConfig& config, Layout) : config_(config) {
  dirs_ = config.bidirectional ? 2 : 1;
  Hd_ = config.hidden / dirs_;
  A_ = Hd_ * dirs_;
  D_ = config.hidden;
  E_ = config.embed;
  K_ = config.attention == AttentionKind::Additive ? config.hidden
       : config.attention == AttentionKind::None   ? 0
                                                   : D_;
  const int V = config.target_vocab;
  std::size_t offset = 0;
  auto add = [&](const std::string& name, int rows, int cols, float bound) {
    tensors_.push_back({name, rows, cols, offset});
    bounds_.push_back(bound);
    offset += static_cast<std::size_t>(rows) * cols;
    return tensors_.back().offset;
  };
  auto fan = [](int n) { return 1.0f / std::sqrt(static_cast<float>(n)); };
  src_emb_ = add("source.embedding", config.source_vocab, E_, 0.0f);
  for (int d = 0; d < dirs_; d++) {
    const std::string s = d == 0 ? "_l0" : "_l0_reverse";
    enc_wih_[d] = add("encoder.weight_ih" + s, 3 * Hd_, E_, fan(Hd_));
    enc_whh_[d] = add("encoder.weight_hh" + s, 3 * Hd_, Hd_, fan(Hd_));
    enc_bih_[d] = add("encoder.bias_ih" + s, 1, 3 * Hd_, fan(Hd_));
    enc_bhh_[d] = add("encoder.bias_hh" + s, 1, 3 * Hd_, fan(Hd_));
  }
  bridge_w_ = add("bridge.weight", D_, A_, fan(A_));
  bridge_b_ = add("bridge.bias", 1, D_, fan(A_));
  if (config.attention == AttentionKind::Additive) {
    att_w_ = add("attention.W", K_, D_, fan(D_));
    att_u_ = add("attention.U", K_, A_, fan(A_));
    att_v_ = add("attention.v", 1, K_, fan(K_));
  } else if (config.attention == AttentionKind::General) {
    att_w_ = add("attention.W", D_, A_, fan(A_));
  }
  tgt_emb_ = add("target.embedding", V, E_, 0.0f);
  dec_wih_ = add("decoder.weight_ih", 3 * D_, E_ + A_, fan(D_));
  dec_whh_ = add("decoder.weight_hh", 3 * D_, D_, fan(D_));
  dec_bih_ = add("decoder.bias_ih", 1, 3 * D_, fan(D_));
  dec_bhh_ = add("decoder.bias_hh", 1, 3 * D_, fan(D_));
  out_w_ = add("output.weight", V, D_ + A_, fan(D_ + A_));
  out_b_ = add("output.bias", 1, V, fan(D_ + A_));
}

const Tensor* Seq2Seq::tensor(const std::string& name) const {
  for (const Tensor& t : tensors_)
    if (t.name == name) return &t;
  return nullptr;
}

void Seq2Seq::init(std::uint64_t seed) {
  Rng rng(seed, kInitStream);
  for (std::size_t k = 0; k < tensors_.size(); k++) {  // in order: each draws the next numbers
    float* p = param(tensors_[k].offset);
    const std::size_t n = tensors_[k].size();
    if (bounds_[k] == 0.0f) {
      rng.normal(p, n);
      continue;
    }
    rng.uniform(p, n);
    for (std::size_t i = 0; i < n; i++) p[i] = (2.0f * p[i] - 1.0f) * bounds_[k];
  }
}

// ---- scratch ---------------------------------------------------------------------------------

template <typename F>
void Seq2Seq::each_buffer(const RunShape& shape, F f) {
  const std::size_t B = shape.rows, S = shape.source, T = shape.steps, TB = T * B;
  const std::size_t E = E_, A = A_, D = D_, H = Hd_, V = config_.target_vocab;
  const std::size_t K = std::max(K_, 1);
  // the rows' order and lengths, and the active prefixes
  for (auto* v : {&order_, &pos_, &src_len_, &steps_len_}) f(v, B);
  f(&active_enc_, S);
  f(&active_dec_, T);
  // forward
  f(&x_, S * B * E);
  for (int d = 0; d < dirs_; d++) {
    f(&gi_[d], S * B * 3 * H);
    f(&h_[d], (S + 1) * B * H);
    f(&gates_[d], S * B * 3 * H);
    f(&ghn_[d], S * B * H);
  }
  f(&ann_, S * B * A);
  f(&summary_, B * A);
  f(&keys_, S * B * K);
  f(&inputs_, TB);
  f(&preds_, TB);
  f(&s_, (T + 1) * B * D);
  f(&q_, TB * K);
  f(&tanh_, config_.attention == AttentionKind::Additive ? TB * S * K : 0);
  f(&alpha_, TB * S);
  f(&dec_x_, TB * (E + A));
  f(&dec_gates_, TB * 3 * D);
  f(&dec_ghn_, TB * D);
  f(&out_in_, TB * (D + A));
  f(&probs_, TB * V);
  f(&gi_step_, B * 3 * std::max(D, H));
  f(&gh_step_, B * 3 * std::max(D, H));
  // backward
  f(&dlogits_, TB * V);
  f(&dout_in_, TB * (D + A));
  f(&dgi_dec_, TB * 3 * D);
  f(&dgh_dec_, TB * 3 * D);
  f(&dq_, TB * K);
  f(&dkeys_, B * S * K);
  f(&dann_, B * S * A);
  f(&dsummary_, B * A);
  f(&ds_, B * std::max(D, A));
  f(&ds_prev_, B * D);
  f(&dx_step_, B * (E + A));
  f(&tmp_, B * std::max({D, A, H}) * 3);
  f(&row_, std::max<std::size_t>(S, 1));
  f(&big_t_, std::max({TB * V, TB * 3 * D, TB * K, B * S * std::max({K, 3 * H, D}), B * D}));
  f(&dgi_enc_, S * B * 3 * H);
  f(&dgh_enc_, S * B * 3 * H);
  f(&dx_enc_, S * B * E);
}

// The SIMD products pack their right operand b into ceil(n / 8) * 8 * k floats; these are every
// product's (n, k) of a run (forward, backward, the GRU steps inside).
std::size_t Seq2Seq::packing_floats(const RunShape& shape) const {
  const std::size_t B = shape.rows, S = shape.source,
                    TB = static_cast<std::size_t>(shape.steps) * B;
  const std::size_t E = E_, A = A_, D = D_, H = Hd_, K = K_, V = config_.target_vocab;
  // (n, k) of every product: the forward pass, the weights' gradients, the inputs' gradients
  const std::size_t products[][2] = {
      {3 * H, E},     {3 * H, H}, {D, A},     {K, A},      {K, D}, {S, K},      {A, S},
      {3 * D, E + A}, {3 * D, D}, {V, D + A}, {D + A, TB}, {A, B}, {E + A, TB}, {D, TB},
      {A, B * S},     {E, S * B}, {H, S * B}, {D + A, V},  {A, D}, {A, K},      {D, K},
      {E + A, 3 * D}, {D, 3 * D}, {H, 3 * H}, {E, 3 * H}};
  std::size_t most = 0;
  for (const auto& [n, k] : products) most = std::max(most, (n + 7) / 8 * 8 * k);
  return most;
}

void Seq2Seq::reserve(const std::vector<RunShape>& shapes) {
  for (const RunShape& shape : shapes) {
    each_buffer(shape, [](auto* v, std::size_t n) { grow(*v, n); });
    ws_.floats(packing_floats(shape));
  }
}

double Seq2Seq::bytes(const Seq2SeqModelConfig& config, const std::vector<RunShape>& shapes) {
  Seq2Seq m(config, Layout{});
  const Tensor& last = m.tensors_.back();
  double total = 2.0 * (last.offset + last.size()) * sizeof(float);  // parameters, gradients
  std::vector<std::pair<const void*, double>> largest;               // per buffer: its most bytes
  std::size_t packing = 0;
  for (const RunShape& shape : shapes) {
    std::size_t k = 0;
    m.each_buffer(shape, [&](auto* v, std::size_t n) {
      const double b = static_cast<double>(n) * sizeof(v->front());
      if (k == largest.size()) largest.push_back({v, 0.0});
      largest[k].second = std::max(largest[k].second, b);
      k++;
    });
    packing = std::max(packing, m.packing_floats(shape));
  }
  for (const auto& [buffer, b] : largest) total += b + allocation_overhead(b);
  const double ws = static_cast<double>(packing) * sizeof(float);
  return total + ws + allocation_overhead(ws);
}

// ---- forward ---------------------------------------------------------------------------------

ForwardStats Seq2Seq::forward(const PairBatch& batch) {
  int longest = 0;
  for (const auto& t : batch.target) longest = std::max(longest, static_cast<int>(t.size()));
  return run(batch, true, longest + 1);
}

ForwardStats Seq2Seq::decode(const PairBatch& batch, int steps) { return run(batch, false, steps); }

ForwardStats Seq2Seq::run(const PairBatch& batch, bool teacher, int steps) {
  batch_ = &batch;
  B_ = batch.size();
  T_ = steps;
  const bool targets = !batch.target.empty();
  order_.resize(B_);
  for (int k = 0; k < B_; k++) order_[k] = k;
  std::stable_sort(order_.begin(), order_.end(),
                   [&](int x, int y) { return batch.source[x].size() > batch.source[y].size(); });
  pos_.resize(B_);
  src_len_.assign(B_, 0);
  steps_len_.assign(B_, 0);
  for (int k = 0; k < B_; k++) {
    pos_[order_[k]] = k;
    src_len_[k] = static_cast<int>(source(k).size());
    if (targets) steps_len_[k] = std::min(steps, static_cast<int>(target(k).size()) + 1);
  }
  S_ = src_len_[0];
  active_enc_.assign(S_, 0);
  for (int t = 0; t < S_; t++)
    while (active_enc_[t] < B_ && src_len_[active_enc_[t]] > t) active_enc_[t]++;
  active_dec_.assign(T_, B_);
  if (targets)
    for (int i = 0; i < T_; i++) {
      int m = 0;
      for (int k = 0; k < B_; k++)
        if (steps_len_[k] > i) m = k + 1;
      active_dec_[i] = m;
    }
  const std::size_t B = B_, S = S_;
  const std::size_t sb = S * B;
  reserve({{B_, S_, T_}});  // forward and backward buffers, unless reserved before

  encode();

  // s_0 = tanh(W_b summary + b_b)   (B, D)
  float* s0 = s_.data();
  kernels::gemm_abt(summary_.data(), param(bridge_w_), s0, B_, D_, A_, &ws_);
  add_bias(s0, param(bridge_b_), B_, D_);
  for (std::size_t k = 0; k < B * D_; k++) s0[k] = std::tanh(s0[k]);

  // keys: U a_j (additive) or W a_j (general), (B * S, K)
  if (config_.attention == AttentionKind::Additive || config_.attention == AttentionKind::General)
    kernels::gemm_abt(ann_.data(), param(att_u_ ? att_u_ : att_w_), keys_.data(), B_ * S_, K_, A_,
                      &ws_);
  if (config_.attention == AttentionKind::Dot) std::copy_n(ann_.data(), sb * A_, keys_.data());

  double loss = 0;
  int correct = 0;
  target_count_ = 0;
  for (int i = 0; i < T_; i++) {
    for (int k = 0; k < B_; k++) {  // y_{i-1}: "</s>" first, then the target or the model's own
      int token = kEndToken;
      if (i > 0 && teacher) {
        const auto& y = target(k);
        token = i - 1 < static_cast<int>(y.size()) ? y[i - 1] : kEndToken;
      } else if (i > 0) {
        token = preds_[(i - 1) * B + k];
      }
      inputs_[i * B + k] = token;
    }
    context_forward(i);
    decoder_step_forward(i);
    output_forward(i, &loss, &correct);
  }
  ForwardStats f;
  f.targets = target_count_;
  if (target_count_ > 0) {
    f.loss = loss / target_count_;
    f.accuracy = static_cast<double>(correct) / target_count_;
  }
  return f;
}

void Seq2Seq::encode() {
  const std::size_t B = B_, S = S_;
  // x_t = E_src[token_t]   (S, B, E), time-major; positions past a source's end read token 0
  for (std::size_t t = 0; t < S; t++)
    for (std::size_t k = 0; k < B; k++) {
      const int token = static_cast<int>(t) < src_len_[k] ? source(k)[t] : 0;
      std::copy_n(param(src_emb_) + static_cast<std::size_t>(token) * E_, E_,
                  x_.data() + (t * B + k) * E_);
    }
  for (int d = 0; d < dirs_; d++) {
    // gi = x W_ih^T + b_ih   (S * B, 3Hd)
    kernels::gemm_abt(x_.data(), param(enc_wih_[d]), gi_[d].data(), S_ * B_, 3 * Hd_, E_, &ws_);
    add_bias(gi_[d].data(), param(enc_bih_[d]), S_ * B_, 3 * Hd_);
    encoder_direction_forward(d);
  }
  // annotations a_t = [fwd state after t; bwd state after t]   (B, S, A); summary = last states
  for (int d = 0; d < dirs_; d++) {
    const float* h = h_[d].data();
    for (std::size_t t = 0; t < S; t++) {
      const std::size_t k = d == 0 ? t : S - 1 - t;  // the step that read position t
      for (std::size_t b = 0; b < B; b++)
        std::copy_n(h + ((k + 1) * B + b) * Hd_, Hd_, ann_.data() + (b * S + t) * A_ + d * Hd_);
    }
    for (std::size_t b = 0; b < B; b++)
      std::copy_n(h + (S * B + b) * Hd_, Hd_, summary_.data() + b * A_ + d * Hd_);
  }
}

// Direction 0 reads t = 0 .. S-1, direction 1 reads t = S-1 .. 0. A row past its source's end
// keeps its state (so the backward direction starts at 0 from the source's last token, and the
// forward one ends on it): only the active_enc_[t] rows still reading take a GRU step.
void Seq2Seq::encoder_direction_forward(int d) {
  const std::size_t B = B_, H = Hd_;
  float* h = h_[d].data();
  std::fill(h, h + B * H, 0.0f);
  for (int k = 0; k < S_; k++) {
    const std::size_t t = d == 0 ? k : S_ - 1 - k;
    const int n = active_enc_[t];
    float* out = h + (k + 1) * B * H;
    gru_step_forward(gi_[d].data() + t * B * 3 * H, h + k * B * H, param(enc_whh_[d]),
                     param(enc_bhh_[d]), n, Hd_, gh_step_.data(), gates_[d].data() + k * B * 3 * H,
                     ghn_[d].data() + k * B * H, out, &ws_);
    std::copy(h + k * B * H + n * H, h + (k + 1) * B * H, out + n * H);
  }
}

// c_i from s_{i-1} (s_[i]), into the context part of dec_x_[i]; rows past the active prefix get 0
void Seq2Seq::context_forward(int i) {
  const std::size_t B = B_, S = S_, A = A_, K = K_, stride = E_ + A_;
  const int m = active_dec_[i];
  const float* s = s_.data() + i * B * D_;
  float* alpha = alpha_.data() + i * B * S;
  std::fill(alpha, alpha + B * S, 0.0f);
  for (std::size_t b = m; b < B; b++)
    std::fill_n(dec_x_.data() + (i * B + b) * stride + E_, A, 0.0f);
  if (config_.attention == AttentionKind::None) {  // the fixed vector, at every step
    for (int b = 0; b < m; b++)
      std::copy_n(summary_.data() + b * A, A, dec_x_.data() + (i * B + b) * stride + E_);
    return;
  }
  float* q = q_.data() + i * B * K;
  if (config_.attention == AttentionKind::Additive)  // q = W s_{i-1}   (m, K)
    kernels::gemm_abt(s, param(att_w_), q, m, K_, D_, &ws_);
  for (int b = 0; b < m; b++) {
    const int n = src_len_[b];
    float* e = alpha + b * S;  // scores e_j, then the weights alpha_j   (n)
    const float* keys = keys_.data() + b * S * K;
    if (config_.attention == AttentionKind::Additive) {
      // e_j = v . tanh(W s + U a_j)
      float* th = tanh_.data() + (i * B + b) * S * K;  // (S, K)
      const float* qb = q + b * K;
      const float* v = param(att_v_);
      for (int j = 0; j < n; j++) {
        float* tj = th + j * K;
        const float* kj = keys + j * K;
        float sum = 0.0f;
        for (std::size_t c = 0; c < K; c++) {
          tj[c] = std::tanh(qb[c] + kj[c]);
          sum += v[c] * tj[c];
        }
        e[j] = sum;
      }
    } else {
      // e_j = s . k_j   (k_j = a_j for dot, W a_j for general)
      kernels::gemm_abt(s + b * D_, keys, e, 1, n, K_, &ws_);
    }
    kernels::softmax_rows(e, 1, n, true);
    // c = sum_j alpha_j a_j   (A)
    kernels::gemm_ab(e, ann_.data() + b * S * A, dec_x_.data() + (i * B + b) * stride + E_, 1, A_,
                     n, &ws_);
  }
}

void Seq2Seq::decoder_step_forward(int i) {
  const std::size_t B = B_, D = D_, stride = E_ + A_;
  const int m = active_dec_[i];
  float* x = dec_x_.data() + i * B * stride;  // (B, E + A) = [E_tgt[y_{i-1}]; c_i]
  for (std::size_t b = 0; b < B; b++) {
    if (static_cast<int>(b) < m)
      std::copy_n(param(tgt_emb_) + static_cast<std::size_t>(inputs_[i * B + b]) * E_, E_,
                  x + b * stride);
    else
      std::fill_n(x + b * stride, E_, 0.0f);
  }
  // gi = x W_ih^T + b_ih   (m, 3D)
  kernels::gemm_abt(x, param(dec_wih_), gi_step_.data(), m, 3 * D_, E_ + A_, &ws_);
  add_bias(gi_step_.data(), param(dec_bih_), m, 3 * D_);
  float* s_next = s_.data() + (i + 1) * B * D;
  gru_step_forward(gi_step_.data(), s_.data() + i * B * D, param(dec_whh_), param(dec_bhh_), m, D_,
                   gh_step_.data(), dec_gates_.data() + i * B * 3 * D, dec_ghn_.data() + i * B * D,
                   s_next, &ws_);
  std::fill(s_next + m * D, s_next + B * D, 0.0f);
  // the output layer's input [s_i; c_i]   (B, D + A)
  for (std::size_t b = 0; b < B; b++) {
    float* o = out_in_.data() + (i * B + b) * (D + A_);
    std::copy_n(s_next + b * D, D, o);
    std::copy_n(x + b * stride + E_, A_, o + D);
  }
}

// logits = [s_i; c_i] W_o^T + b_o, their softmax into probs_[i] and the top tokens; the
// cross-entropy of each row with a target at step i is added to *loss (from the logits, by a
// log-sum-exp in double: a probability too small for float32 still has its finite loss) and its
// right guesses to *correct
void Seq2Seq::output_forward(int i, double* loss, int* correct) {
  const std::size_t B = B_, V = config_.target_vocab;
  const int m = active_dec_[i];
  float* p = probs_.data() + i * B * V;  // (B, V)
  kernels::gemm_abt(out_in_.data() + i * B * (D_ + A_), param(out_w_), p, m, config_.target_vocab,
                    D_ + A_, &ws_);
  add_bias(p, param(out_b_), m, config_.target_vocab);
  for (std::size_t b = 0; b < B; b++) {
    float* row = p + b * V;
    if (static_cast<int>(b) >= m) {
      std::fill(row, row + V, 0.0f);
      preds_[i * B + b] = kEndToken;
      continue;
    }
    const int top = static_cast<int>(std::max_element(row, row + V) - row);
    preds_[i * B + b] = top;
    if (i < steps_len_[b]) {
      const auto& y = target(static_cast<int>(b));
      const int want = i < static_cast<int>(y.size()) ? y[i] : kEndToken;
      const double max = row[top];
      double sum = 0;
      for (std::size_t v = 0; v < V; v++) sum += std::exp(static_cast<double>(row[v]) - max);
      *loss += std::log(sum) - (static_cast<double>(row[want]) - max);
      *correct += top == want;
      target_count_++;
    }
    kernels::softmax_rows(row, 1, config_.target_vocab, true);
  }
}

bool Seq2Seq::finite() const {
  const std::size_t T = T_, B = B_;
  const auto all = [](const std::vector<float>& v, std::size_t n) {
    return std::all_of(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n),
                       [](float x) { return std::isfinite(x); });
  };
  return all(probs_, T * B * config_.target_vocab) && all(alpha_, T * B * S_) &&
         all(s_, (T + 1) * B * D_);
}

// ---- backward --------------------------------------------------------------------------------

void Seq2Seq::backward() {
  const std::size_t B = B_, S = S_, T = T_, D = D_, A = A_, K = K_, V = config_.target_vocab;
  const std::size_t TB = T * B, stride = E_ + A_;
  std::fill(grads_.begin(), grads_.end(), 0.0f);  // the buffers were sized by run()
  std::fill(dq_.begin(), dq_.begin() + TB * std::max<std::size_t>(K, 1), 0.0f);
  std::fill(dkeys_.begin(), dkeys_.begin() + B * S * std::max<std::size_t>(K, 1), 0.0f);
  std::fill(dann_.begin(), dann_.begin() + B * S * A, 0.0f);
  std::fill(dsummary_.begin(), dsummary_.begin() + B * A, 0.0f);

  // dlogits = (softmax - onehot) / targets on the steps with a target, 0 elsewhere   (T, B, V)
  const float inv = target_count_ > 0 ? 1.0f / static_cast<float>(target_count_) : 0.0f;
  for (std::size_t i = 0; i < T; i++)
    for (std::size_t b = 0; b < B; b++) {
      float* g = dlogits_.data() + (i * B + b) * V;
      const float* p = probs_.data() + (i * B + b) * V;
      if (static_cast<int>(i) >= steps_len_[b]) {
        std::fill(g, g + V, 0.0f);
        continue;
      }
      const auto& y = target(b);
      const int want = i < y.size() ? y[i] : kEndToken;
      for (std::size_t v = 0; v < V; v++) g[v] = (p[v] - (static_cast<int>(v) == want)) * inv;
    }
  // output layer: dW_o = dlogits^T [s; c], db_o = column sums, d[s; c] = dlogits W_o
  weight_gradient(dlogits_.data(), out_in_.data(), grad(out_w_), T_ * B_, V, D + A, big_t_.data(),
                  &ws_);
  column_sums(dlogits_.data(), grad(out_b_), T_ * B_, V);
  kernels::gemm_ab(dlogits_.data(), param(out_w_), dout_in_.data(), T_ * B_, D_ + A_, V, &ws_);

  // through the decoder's steps, last to first; ds_ is the gradient at s_{i}
  float* ds = ds_.data();
  std::fill(ds, ds + B * D, 0.0f);
  float* dc = tmp_.data();  // (B, A)
  for (int i = T_ - 1; i >= 0; i--) {
    for (std::size_t b = 0; b < B; b++) {
      const float* g = dout_in_.data() + (i * B + b) * (D + A);
      for (std::size_t c = 0; c < D; c++) ds[b * D + c] += g[c];
    }
    decoder_step_backward(i, ds);  // ds_prev_ = gradient at s_{i-1}; dx_step_ at [E_tgt[y]; c]
    for (std::size_t b = 0; b < B; b++) {
      const float* g = dout_in_.data() + (i * B + b) * (D + A) + D;
      const float* gx = dx_step_.data() + b * stride + E_;
      for (std::size_t c = 0; c < A; c++) dc[b * A + c] = g[c] + gx[c];
    }
    context_backward(i, dc, ds_prev_.data());
    std::copy_n(ds_prev_.data(), B * D, ds);
  }

  // bridge: s_0 = tanh(W_b summary + b_b)
  const float* s0 = s_.data();
  for (std::size_t k = 0; k < B * D; k++) ds[k] *= 1.0f - s0[k] * s0[k];
  weight_gradient(ds, summary_.data(), grad(bridge_w_), B_, D_, A_, big_t_.data(), &ws_);
  column_sums(ds, grad(bridge_b_), B_, D_);
  kernels::gemm_ab(ds, param(bridge_w_), tmp_.data(), B_, A_, D_, &ws_);
  for (std::size_t k = 0; k < B * A; k++) dsummary_[k] += tmp_[k];

  // the decoder GRU's weights, from every step at once
  weight_gradient(dgi_dec_.data(), dec_x_.data(), grad(dec_wih_), T_ * B_, 3 * D_, E_ + A_,
                  big_t_.data(), &ws_);
  column_sums(dgi_dec_.data(), grad(dec_bih_), T_ * B_, 3 * D_);
  weight_gradient(dgh_dec_.data(), s_.data(), grad(dec_whh_), T_ * B_, 3 * D_, D_, big_t_.data(),
                  &ws_);
  column_sums(dgh_dec_.data(), grad(dec_bhh_), T_ * B_, 3 * D_);

  // the attention's weights, and the annotations' share through the keys
  if (config_.attention == AttentionKind::Additive) {
    weight_gradient(dq_.data(), s_.data(), grad(att_w_), T_ * B_, K_, D_, big_t_.data(), &ws_);
    weight_gradient(dkeys_.data(), ann_.data(), grad(att_u_), B_ * S_, K_, A_, big_t_.data(), &ws_);
  } else if (config_.attention == AttentionKind::General) {
    weight_gradient(dkeys_.data(), ann_.data(), grad(att_w_), B_ * S_, D_, A_, big_t_.data(), &ws_);
  }
  if (config_.attention == AttentionKind::Additive || config_.attention == AttentionKind::General) {
    float* t = big_t_.data();  // (B * S, A) = dkeys W
    kernels::gemm_ab(dkeys_.data(), param(att_u_ ? att_u_ : att_w_), t, B_ * S_, A_, K_, &ws_);
    for (std::size_t k = 0; k < B * S * A; k++) dann_[k] += t[k];
  } else if (config_.attention == AttentionKind::Dot) {
    for (std::size_t k = 0; k < B * S * A; k++) dann_[k] += dkeys_[k];
  }

  for (int d = 0; d < dirs_; d++) encoder_direction_backward(d);
}

// The GRU step i: gradient ds at s_i -> dgi_dec_[i], dgh_dec_[i], ds_prev_ (at s_{i-1}),
// dx_step_ (at [E_tgt[y_{i-1}]; c_i]) and the target embedding's gradient.
void Seq2Seq::decoder_step_backward(int i, float* ds) {
  const std::size_t B = B_, D = D_, stride = E_ + A_;
  const int m = active_dec_[i];  // rows past it have no gradient
  float* dgi = dgi_dec_.data() + i * B * 3 * D;
  float* dgh = dgh_dec_.data() + i * B * 3 * D;
  gru_step_backward(ds, s_.data() + i * B * D, dec_gates_.data() + i * B * 3 * D,
                    dec_ghn_.data() + i * B * D, param(dec_whh_), m, D_, dgi, dgh, ds_prev_.data(),
                    gh_step_.data(), &ws_);
  std::fill(dgi + m * 3 * D, dgi + B * 3 * D, 0.0f);
  std::fill(dgh + m * 3 * D, dgh + B * 3 * D, 0.0f);
  std::fill(ds_prev_.data() + m * D, ds_prev_.data() + B * D, 0.0f);
  // dx = dgi W_ih   (m, E + A)
  kernels::gemm_ab(dgi, param(dec_wih_), dx_step_.data(), m, E_ + A_, 3 * D_, &ws_);
  std::fill(dx_step_.data() + m * stride, dx_step_.data() + B * stride, 0.0f);
  for (int b = 0; b < m; b++) {
    float* ge = grad(tgt_emb_) + static_cast<std::size_t>(inputs_[i * B + b]) * E_;
    const float* g = dx_step_.data() + b * stride;
    for (int c = 0; c < E_; c++) ge[c] += g[c];
  }
}

// dc (B, A), the gradient at c_i -> the annotations, the summary, the keys, v, and ds_prev
// (the query's share, added).
void Seq2Seq::context_backward(int i, const float* dc, float* ds_prev) {
  const std::size_t B = B_, S = S_, A = A_, K = K_, D = D_;
  if (config_.attention == AttentionKind::None) {
    for (std::size_t k = 0; k < B * A; k++) dsummary_[k] += dc[k];
    return;
  }
  const float* s = s_.data() + i * B * D;
  const float* alpha = alpha_.data() + i * B * S;
  float* dq = dq_.data() + i * B * K;
  float* de = row_.data();
  const int m = active_dec_[i];
  for (int b = 0; b < m; b++) {
    const int n = src_len_[b];
    const float* al = alpha + b * S;
    const float* dcb = dc + b * A;
    const float* ann = ann_.data() + b * S * A;
    float* dann = dann_.data() + b * S * A;
    // c = sum_j alpha_j a_j: dalpha_j = dc . a_j, da_j += alpha_j dc
    float dot = 0.0f;
    for (int j = 0; j < n; j++) {
      float g = 0.0f;
      for (std::size_t c = 0; c < A; c++) {
        g += dcb[c] * ann[j * A + c];
        dann[j * A + c] += al[j] * dcb[c];
      }
      de[j] = g;
      dot += al[j] * g;
    }
    // softmax: de_j = alpha_j (dalpha_j - sum_k alpha_k dalpha_k)
    for (int j = 0; j < n; j++) de[j] = al[j] * (de[j] - dot);
    float* dkeys = dkeys_.data() + b * S * K;
    if (config_.attention == AttentionKind::Additive) {
      // e_j = v . tanh(q + k_j): dv += de_j t_j; dpre_j = de_j v (1 - t_j^2) to q and k_j
      const float* th = tanh_.data() + (i * B + b) * S * K;
      const float* v = param(att_v_);
      float* dv = grad(att_v_);
      float* dqb = dq + b * K;
      for (int j = 0; j < n; j++) {
        const float* tj = th + j * K;
        for (std::size_t c = 0; c < K; c++) {
          dv[c] += de[j] * tj[c];
          const float g = de[j] * v[c] * (1.0f - tj[c] * tj[c]);
          dqb[c] += g;
          dkeys[j * K + c] += g;
        }
      }
    } else {
      // e_j = s . k_j: ds += de_j k_j, dk_j += de_j s
      const float* keys = keys_.data() + b * S * K;
      const float* sb = s + b * D;
      float* dsb = ds_prev + b * D;
      for (int j = 0; j < n; j++)
        for (std::size_t c = 0; c < K; c++) {
          dsb[c] += de[j] * keys[j * K + c];
          dkeys[j * K + c] += de[j] * sb[c];
        }
    }
  }
  if (config_.attention == AttentionKind::Additive) {  // q = W s: ds += dq W
    float* t = big_t_.data();                          // (m, D)
    kernels::gemm_ab(dq, param(att_w_), t, m, D_, K_, &ws_);
    for (std::size_t k = 0; k < m * D; k++) ds_prev[k] += t[k];
  }
}

void Seq2Seq::encoder_direction_backward(int d) {
  const std::size_t B = B_, S = S_, H = Hd_, A = A_;
  float* carry = ds_.data();  // (B, Hd): the gradient at the state after step k
  float* dh = ds_prev_.data();
  for (std::size_t b = 0; b < B; b++)
    std::copy_n(dsummary_.data() + b * A + d * H, H, carry + b * H);
  for (int k = S_ - 1; k >= 0; k--) {
    const std::size_t t = d == 0 ? k : S - 1 - k;
    const int n = active_enc_[t];  // rows that read t; the others pass their gradient through
    for (std::size_t b = 0; b < B; b++)
      for (std::size_t c = 0; c < H; c++)
        dh[b * H + c] = carry[b * H + c] + dann_[(b * S + t) * A + d * H + c];
    float* dgi = dgi_enc_.data() + t * B * 3 * H;
    float* dgh = dgh_enc_.data() + k * B * 3 * H;
    gru_step_backward(dh, h_[d].data() + k * B * H, gates_[d].data() + k * B * 3 * H,
                      ghn_[d].data() + k * B * H, param(enc_whh_[d]), n, Hd_, dgi, dgh, carry,
                      gh_step_.data(), &ws_);
    std::fill(dgi + n * 3 * H, dgi + B * 3 * H, 0.0f);
    std::fill(dgh + n * 3 * H, dgh + B * 3 * H, 0.0f);
    std::copy(dh + n * H, dh + B * H, carry + n * H);
  }
  weight_gradient(dgi_enc_.data(), x_.data(), grad(enc_wih_[d]), S_ * B_, 3 * Hd_, E_,
                  big_t_.data(), &ws_);
  column_sums(dgi_enc_.data(), grad(enc_bih_[d]), S_ * B_, 3 * Hd_);
  weight_gradient(dgh_enc_.data(), h_[d].data(), grad(enc_whh_[d]), S_ * B_, 3 * Hd_, Hd_,
                  big_t_.data(), &ws_);
  column_sums(dgh_enc_.data(), grad(enc_bhh_[d]), S_ * B_, 3 * Hd_);
  // dx = dgi W_ih   (S * B, E), into the source embedding's rows
  kernels::gemm_ab(dgi_enc_.data(), param(enc_wih_[d]), dx_enc_.data(), S_ * B_, E_, 3 * Hd_, &ws_);
  for (std::size_t t = 0; t < S; t++)
    for (int k = 0; k < active_enc_[t]; k++) {
      float* ge = grad(src_emb_) + static_cast<std::size_t>(source(k)[t]) * E_;
      const float* g = dx_enc_.data() + (t * B + k) * E_;
      for (int c = 0; c < E_; c++) ge[c] += g[c];
    }
}

// ---- reading the last run --------------------------------------------------------------------

std::vector<int> Seq2Seq::predictions(int row) const {
  std::vector<int> out(T_);
  const int k = pos_[row];
  for (int i = 0; i < T_; i++) out[i] = preds_[static_cast<std::size_t>(i) * B_ + k];
  return out;
}

Matrix Seq2Seq::alignment(int row) const {
  const int k = pos_[row];
  const int n = src_len_[k];
  Matrix m(T_, n);  // (steps, source length)
  for (int i = 0; i < T_; i++)
    std::copy_n(alpha_.data() + (static_cast<std::size_t>(i) * B_ + k) * S_, n, m.row(i));
  return m;
}

// ---- options ---------------------------------------------------------------------------------

Error check_seq2seq_config(const Seq2SeqConfig& c) {
  Error e = kSeq2SeqTaskOption.check(c.task);
  if (e.empty()) e = kAttentionOption.check(c.attention);
  if (e.empty()) e = check_number(kSeq2SeqHidden, c.hidden);
  if (e.empty()) e = check_number(kSeq2SeqEmbed, c.embed);
  if (e.empty()) e = check_number(kLearningRate, c.learning_rate);
  if (e.empty()) e = check_number(kSeq2SeqClip, c.clip);
  if (e.empty()) e = check_number(kSeed, c.seed);
  if (e.empty()) e = check_number(kBatch, c.batch);
  if (e.empty()) e = check_number(kSeq2SeqLength, c.max_length);
  if (e.empty() && c.bidirectional && c.hidden % 2 != 0)
    e = expected(kSeq2SeqHidden.name,
                 "an even number when bidirectional (each direction has hidden / 2 units)",
                 std::to_string(c.hidden));
  return e;
}

Seq2SeqModelConfig seq2seq_model_config(const Seq2SeqConfig& c) {
  const Seq2SeqTaskSpec spec = seq2seq_task_spec(c.task);
  Seq2SeqModelConfig m;
  m.source_vocab = static_cast<int>(spec.source_words->size());
  m.target_vocab = static_cast<int>(spec.target_words->size());
  m.embed = c.embed;
  m.hidden = c.hidden;
  m.bidirectional = c.bidirectional;
  m.attention = c.attention;
  return m;
}

Error check_pairs(const PairBatch& b, const Seq2SeqConfig& c, bool need_targets) {
  const Seq2SeqTaskSpec spec = seq2seq_task_spec(c.task);
  const int vs = static_cast<int>(spec.source_words->size());
  const int vt = static_cast<int>(spec.target_words->size());
  if (b.size() < 1 || b.size() > limits::kMaxBatch)
    return expected("source", "1 to " + std::to_string(limits::kMaxBatch) + " sentences",
                    std::to_string(b.size()));
  for (int s = 0; s < b.size(); s++) {
    const auto& x = b.source[s];
    if (x.empty() || static_cast<int>(x.size()) > c.max_length)
      return expected("source", "sentences of 1 to " + std::to_string(c.max_length) + " tokens",
                      std::to_string(x.size()) + " tokens in sentence " + std::to_string(s));
    for (std::size_t i = 0; i < x.size(); i++)
      if (x[i] < 0 || x[i] >= vs)
        return expected("source", "tokens from 0 to " + std::to_string(vs - 1),
                        std::to_string(x[i]) + " (sentence " + std::to_string(s) + ", token " +
                            std::to_string(i) + ")");
  }
  if (!need_targets && b.target.empty()) return {};
  if (b.target.size() != b.source.size())
    return expected("target", std::to_string(b.size()) + " sentences (one per source)",
                    std::to_string(b.target.size()));
  for (int s = 0; s < b.size(); s++) {
    const auto& y = b.target[s];
    if (y.empty() || static_cast<int>(y.size()) > c.max_length)
      return expected("target", "sentences of 1 to " + std::to_string(c.max_length) + " tokens",
                      std::to_string(y.size()) + " tokens in sentence " + std::to_string(s));
    for (std::size_t i = 0; i < y.size(); i++)
      if (y[i] < 1 || y[i] >= vt)
        return expected("target", "tokens from 1 to " + std::to_string(vt - 1) + " (0 is \"</s>\")",
                        std::to_string(y[i]) + " (sentence " + std::to_string(s) + ", token " +
                            std::to_string(i) + ")");
  }
  return {};
}

// ---- the trainer -----------------------------------------------------------------------------

namespace {
// The largest runs of any call: a batch of up to kMaxBatch pairs (the held-out batch and every
// chunk of the by-length set are no larger) teacher-forced or decoded for a target of up to
// max_length tokens and its "</s>", and one sentence translated for 2 max_length + 1 steps.
std::vector<RunShape> largest_runs(const Seq2SeqConfig& c) {
  static_assert(kHeldOutSize <= limits::kMaxBatch);
  return {{limits::kMaxBatch, c.max_length, c.max_length + 1},
          {1, c.max_length, 2 * c.max_length + 1}};
}
}  // namespace

double seq2seq_bytes(const Seq2SeqConfig& c) {
  const Seq2SeqModelConfig m = seq2seq_model_config(c);
  const double model = Seq2Seq::bytes(m, largest_runs(c));
  const double adam = Seq2Seq::bytes(m, {});  // m and v: as many floats as parameters and gradients
  // the pairs kept (held-out, by-length, probe): per pair two vectors of at most max_length ints
  const double pairs = kHeldOutSize + kPerLength * (c.max_length - kMinSourceLength + 1) + 1;
  const double kept = pairs * 2 * (sizeof(std::vector<int>) + c.max_length * sizeof(int));
  return model + adam + kept + 64 * 1024;  // and the objects themselves
}

Seq2SeqTrainer::Seq2SeqTrainer(const Seq2SeqConfig& config)
    : config_(config),
      model_(seq2seq_model_config(config)),
      adam_(model_.parameters().size(), static_cast<float>(config.learning_rate)),
      data_(config.seed, kDataStream) {
  model_.init(config.seed);
  model_.reserve(largest_runs(config));  // all it will hold, now (seq2seq_bytes)
  Rng held_out(config.seed, kHeldOutStream);
  held_out_ = make_pair_batch(config.task, held_out, kHeldOutSize, config.max_length);
  Rng by_length(config.seed, kByLengthStream);
  by_length_ = make_length_set(config.task, by_length, kPerLength, config.max_length);
  probe_ = seq2seq_probe(config.task, config.max_length);
}

ForwardStats Seq2SeqTrainer::checked(ForwardStats f, const char* call) const {
  if (!std::isfinite(f.loss) || !model_.finite())
    f.error = leaves_float32(call, model_.tensors(), model_.parameters());
  return f;
}

StepStats Seq2SeqTrainer::step() {
  return step_on(make_pair_batch(config_.task, data_, config_.batch, config_.max_length));
}

// the gradient clipped to an L2 norm of at most `clip` (torch.nn.utils.clip_grad_norm_), then
// Adam; nothing changes when the forward pass or the update leaves float32
StepStats Seq2SeqTrainer::step_on(const PairBatch& batch) {
  ForwardStats f = checked(model_.forward(batch), "step");
  if (!f.error.empty()) return {0, 0, f.error + "; the weights are unchanged"};
  model_.backward();
  std::vector<float>& g = model_.gradients();
  double sum = 0;
  for (float x : g) sum += static_cast<double>(x) * x;
  gradient_norm_ = std::sqrt(sum);
  if (config_.clip > 0 && gradient_norm_ > config_.clip) {
    const float scale = static_cast<float>(config_.clip / (gradient_norm_ + 1e-6));
    for (float& x : g) x *= scale;
  }
  if (!adam_.update(model_.parameters(), g))
    return {0, 0, update_leaves_float32(model_.tensors(), model_.parameters())};
  return {f.loss, f.accuracy, {}};
}

ForwardStats Seq2SeqTrainer::gradients_on(const PairBatch& batch) {
  ForwardStats f = checked(model_.forward(batch), "gradients");
  if (!f.error.empty()) return f;
  model_.backward();
  if (!all_finite(model_.gradients()))
    f.error = gradients_leave_float32(model_.tensors(), model_.parameters());
  return f;
}

ForwardStats Seq2SeqTrainer::evaluate() { return checked(model_.forward(held_out_), "evaluate"); }

LengthAccuracies Seq2SeqTrainer::evaluate_by_length() {
  LengthAccuracies r;
  std::vector<LengthAccuracy>& out = r.lengths;
  for (int length = kMinSourceLength; length <= config_.max_length; length++) {
    LengthAccuracy a;
    a.length = length;
    out.push_back(a);
  }
  std::vector<int> tokens(out.size(), 0), right(out.size(), 0);
  const int n = by_length_.size();
  for (int first = 0; first < n; first += limits::kMaxBatch) {
    PairBatch chunk;
    const int last = std::min(n, first + limits::kMaxBatch);
    int longest = 0;
    for (int row = first; row < last; row++) {
      chunk.source.push_back(by_length_.source[row]);
      chunk.target.push_back(by_length_.target[row]);
      longest = std::max(longest, static_cast<int>(by_length_.target[row].size()));
    }
    const ForwardStats f = checked(model_.decode(chunk, longest + 1), "evaluateByLength");
    if (!f.error.empty()) return {{}, f.error};
    for (int row = 0; row < chunk.size(); row++) {
      LengthAccuracy& a = out[chunk.source[row].size() - kMinSourceLength];
      const std::size_t k = chunk.source[row].size() - kMinSourceLength;
      const std::vector<int> got = model_.predictions(row);
      const auto& want = chunk.target[row];
      bool all = true;
      for (std::size_t i = 0; i <= want.size(); i++) {
        const int w = i < want.size() ? want[i] : kEndToken;
        const bool ok = got[i] == w;
        right[k] += ok;
        all = all && ok;
      }
      tokens[k] += static_cast<int>(want.size()) + 1;
      a.pairs++;
      a.sequence_accuracy += all;
    }
  }
  for (std::size_t k = 0; k < out.size(); k++) {
    if (out[k].pairs == 0) continue;
    out[k].token_accuracy = static_cast<double>(right[k]) / tokens[k];
    out[k].sequence_accuracy /= out[k].pairs;
  }
  return r;
}

ForwardStats Seq2SeqTrainer::probe() {
  return checked(model_.decode(probe_, static_cast<int>(probe_.target[0].size()) + 1), "probe");
}

Decoding Seq2SeqTrainer::translate(const std::vector<int>& source) {
  PairBatch b;
  b.source.push_back(source);
  const ForwardStats f = checked(model_.decode(b, 2 * config_.max_length + 1), "translate");
  if (!f.error.empty()) return {0, f.error};
  const std::vector<int> p = model_.predictions(0);
  for (std::size_t i = 0; i < p.size(); i++)
    if (p[i] == kEndToken) return {static_cast<int>(i) + 1, {}};
  return {static_cast<int>(p.size()), {}};
}

StepsRun Seq2SeqTrainer::run_steps(int n) {
  StepsRun r;
  for (int i = 0; i < n; i++) {
    StepStats s = step();
    if (!s.error.empty()) {
      r.error = s.error + " (after " + std::to_string(i) + " of " + std::to_string(n) +
                " steps, at step " + std::to_string(steps()) + ")";
      return r;
    }
    r.losses.push_back(static_cast<float>(s.loss));
    r.accuracies.push_back(static_cast<float>(s.accuracy));
  }
  return r;
}

// Kept only when the held-out batch still trains inside float32, as Trainer::set_parameters.
Error Seq2SeqTrainer::set_parameters(const std::vector<ParameterUpdate>& updates) {
  return set_checked(model_.parameters(), updates, [&](double* loss) {
    const ForwardStats f = model_.forward(held_out_);
    *loss = f.loss;
    if (!std::isfinite(f.loss) || !model_.finite()) return false;
    model_.backward();
    return trainable(model_.gradients());
  });
}

Error check_seq2seq_parameter(const Tensor& t, const Matrix& value) {
  Error e = check_shape(t.name.c_str(), value, t.rows, t.cols);
  if (!e.empty()) return e;
  const std::string bad = first_non_finite(value);
  return bad.empty() ? Error() : t.name + ": " + bad + " is not finite (expected finite numbers)";
}

Decoded decoded(const Seq2Seq& m, int steps) {
  Decoded d;
  d.predictions = m.predictions(0);
  d.predictions.resize(steps);
  if (m.config().attention == AttentionKind::None) return d;
  d.alignment = m.alignment(0);
  d.alignment.rows = steps;
  d.alignment.data.resize(static_cast<std::size_t>(steps) * d.alignment.cols);
  return d;
}

}  // namespace attn
