// The RNN encoder–decoder: its parameters and scratch, the forward pass (teacher-forced or
// greedy), and what the last run decided (see seq2seq_model.h; the backward pass is in
// seq2seq_backward.cpp).
#include "core/seq2seq_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/dense.h"
#include "core/gru.h"
#include "core/rng.h"

namespace attn {

namespace {
constexpr std::uint32_t kInitStream = 1;  // the seed's stream for the initial weights
// What an allocator keeps beside an allocation of n bytes: a header, or for a large one (which
// may be mapped on its own) a page.
double allocation_overhead(double n) { return n >= 128 * 1024 ? 4096 : 32; }
}  // namespace

using dense::add_bias;
using dense::grow;

// ---- parameters ------------------------------------------------------------------------------

Seq2Seq::Seq2Seq(const Seq2SeqModelConfig& config) : Seq2Seq(config, Layout{}) { allocate(); }

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
  auto add = [&](const std::string& name, int rows, int cols, float bound) {
    bounds_.push_back(bound);
    return add_tensor(name, rows, cols);
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
  double total = 2.0 * m.layout_size() * sizeof(float);  // parameters, gradients
  std::vector<std::pair<const void*, double>> largest;   // per buffer: its most bytes
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
  arrange(batch, steps);
  reserve({{B_, S_, T_}});  // forward and backward buffers, unless reserved before
  encode();
  bridge_forward();
  keys_forward();
  double loss = 0;
  int correct = 0;
  target_count_ = 0;
  for (int i = 0; i < T_; i++) {
    decoder_inputs(i, teacher);
    context_forward(i);
    decoder_step_forward(i);
    output_forward(i, &loss, &correct);
  }
  return forward_stats(loss, correct, target_count_);
}

// The rows sorted by source length, longest first, and the active prefixes of the encoder's
// times and the decoder's steps.
void Seq2Seq::arrange(const PairBatch& batch, int steps) {
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
}

// x_t, the annotations a_t and the summary of every row's source
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

// s_0 = tanh(W_b summary + b_b)   (B, D)
void Seq2Seq::bridge_forward() {
  float* s0 = s_.data();
  kernels::gemm_abt(summary_.data(), param(bridge_w_), s0, B_, D_, A_, &ws_);
  add_bias(s0, param(bridge_b_), B_, D_);
  for (std::size_t k = 0; k < static_cast<std::size_t>(B_) * D_; k++) s0[k] = std::tanh(s0[k]);
}

// keys: U a_j (additive), W a_j (general) or a_j (dot)   (B * S, K); none without attention
void Seq2Seq::keys_forward() {
  if (config_.attention == AttentionKind::Additive || config_.attention == AttentionKind::General)
    kernels::gemm_abt(ann_.data(), param(att_u_ ? att_u_ : att_w_), keys_.data(), B_ * S_, K_, A_,
                      &ws_);
  if (config_.attention == AttentionKind::Dot)
    std::copy_n(ann_.data(), static_cast<std::size_t>(S_) * B_ * A_, keys_.data());
}

// y_{i-1} of every row: "</s>" first, then the target (teacher forcing) or the model's own choice
void Seq2Seq::decoder_inputs(int i, bool teacher) {
  const std::size_t B = B_;
  for (int k = 0; k < B_; k++) {
    int token = kEndToken;
    if (i > 0 && teacher) {
      const auto& y = target(k);
      token = i - 1 < static_cast<int>(y.size()) ? y[i - 1] : kEndToken;
    } else if (i > 0) {
      token = preds_[(i - 1) * B + k];
    }
    inputs_[i * B + k] = token;
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
      *loss += dense::cross_entropy(row, config_.target_vocab, want, top);
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

}  // namespace attn
