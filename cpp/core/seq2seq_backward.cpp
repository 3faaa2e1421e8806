// The encoder–decoder's backward pass through time: the gradient of the last forward pass's
// loss with respect to every parameter, stage by stage in reverse (see seq2seq_model.h).
#include "core/seq2seq_model.h"

#include <algorithm>

#include "core/dense.h"
#include "core/gru.h"

namespace attn {

namespace {
// out (m, n) = g^T x for g (rows, m), x (rows, n): a weight's gradient; t: (m, rows) scratch
void weight_gradient(const float* g, const float* x, float* out, int rows, int m, int n, float* t,
                     kernels::Workspace* ws) {
  dense::transpose(g, t, rows, m);
  kernels::gemm_ab(t, x, out, m, n, rows, ws);
}
}  // namespace

using dense::column_sums;

void Seq2Seq::backward() {
  const std::size_t B = B_, S = S_, T = T_, A = A_, K = K_;
  std::fill(grads_.begin(), grads_.end(), 0.0f);  // the buffers were sized by run()
  std::fill(dq_.begin(), dq_.begin() + T * B * std::max<std::size_t>(K, 1), 0.0f);
  std::fill(dkeys_.begin(), dkeys_.begin() + B * S * std::max<std::size_t>(K, 1), 0.0f);
  std::fill(dann_.begin(), dann_.begin() + B * S * A, 0.0f);
  std::fill(dsummary_.begin(), dsummary_.begin() + B * A, 0.0f);
  output_backward();
  decoder_backward();  // ds_ = the gradient at s_0
  bridge_backward();
  decoder_weights_backward();
  keys_backward();
  for (int d = 0; d < dirs_; d++) encoder_direction_backward(d);
}

// dlogits = (softmax - onehot) / targets on the steps with a target, 0 elsewhere   (T, B, V);
// the output layer: dW_o = dlogits^T [s; c], db_o = column sums, d[s; c] = dlogits W_o
void Seq2Seq::output_backward() {
  const std::size_t B = B_, T = T_, D = D_, A = A_, V = config_.target_vocab;
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
  weight_gradient(dlogits_.data(), out_in_.data(), grad(out_w_), T_ * B_, V, D + A, big_t_.data(),
                  &ws_);
  column_sums(dlogits_.data(), grad(out_b_), T_ * B_, V);
  kernels::gemm_ab(dlogits_.data(), param(out_w_), dout_in_.data(), T_ * B_, D_ + A_, V, &ws_);
}

// Through the decoder's steps, last to first: ds_ is the gradient at s_i, then at s_0.
void Seq2Seq::decoder_backward() {
  const std::size_t B = B_, D = D_, A = A_, stride = E_ + A_;
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
}

// s_0 = tanh(W_b summary + b_b), from ds_ (the gradient at s_0): W_b, b_b and the summary's share
void Seq2Seq::bridge_backward() {
  const std::size_t B = B_, D = D_, A = A_;
  float* ds = ds_.data();
  const float* s0 = s_.data();
  for (std::size_t k = 0; k < B * D; k++) ds[k] *= 1.0f - s0[k] * s0[k];
  weight_gradient(ds, summary_.data(), grad(bridge_w_), B_, D_, A_, big_t_.data(), &ws_);
  column_sums(ds, grad(bridge_b_), B_, D_);
  kernels::gemm_ab(ds, param(bridge_w_), tmp_.data(), B_, A_, D_, &ws_);
  for (std::size_t k = 0; k < B * A; k++) dsummary_[k] += tmp_[k];
}

// the decoder GRU's weights, from every step at once
void Seq2Seq::decoder_weights_backward() {
  weight_gradient(dgi_dec_.data(), dec_x_.data(), grad(dec_wih_), T_ * B_, 3 * D_, E_ + A_,
                  big_t_.data(), &ws_);
  column_sums(dgi_dec_.data(), grad(dec_bih_), T_ * B_, 3 * D_);
  weight_gradient(dgh_dec_.data(), s_.data(), grad(dec_whh_), T_ * B_, 3 * D_, D_, big_t_.data(),
                  &ws_);
  column_sums(dgh_dec_.data(), grad(dec_bhh_), T_ * B_, 3 * D_);
}

// the attention's weights, and the annotations' share through the keys
void Seq2Seq::keys_backward() {
  const std::size_t n = static_cast<std::size_t>(B_) * S_ * A_;
  if (config_.attention == AttentionKind::Additive) {
    weight_gradient(dq_.data(), s_.data(), grad(att_w_), T_ * B_, K_, D_, big_t_.data(), &ws_);
    weight_gradient(dkeys_.data(), ann_.data(), grad(att_u_), B_ * S_, K_, A_, big_t_.data(), &ws_);
  } else if (config_.attention == AttentionKind::General) {
    weight_gradient(dkeys_.data(), ann_.data(), grad(att_w_), B_ * S_, D_, A_, big_t_.data(), &ws_);
  }
  if (config_.attention == AttentionKind::Additive || config_.attention == AttentionKind::General) {
    float* t = big_t_.data();  // (B * S, A) = dkeys W
    kernels::gemm_ab(dkeys_.data(), param(att_u_ ? att_u_ : att_w_), t, B_ * S_, A_, K_, &ws_);
    for (std::size_t k = 0; k < n; k++) dann_[k] += t[k];
  } else if (config_.attention == AttentionKind::Dot) {
    for (std::size_t k = 0; k < n; k++) dann_[k] += dkeys_[k];
  }
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

}  // namespace attn
