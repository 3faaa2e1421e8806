// The playground's attention-only transformer: forward and backward (see transformer.h).
#include "core/transformer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dense.h"
#include "core/positional.h"
#include "core/rng.h"

namespace attn {

namespace {
constexpr std::uint32_t kInitStream = 1;  // the seed's stream for the initial weights
}  // namespace

using dense::add_bias;
using dense::column_sums;
using dense::gather;
using dense::grow;
using dense::scatter;
using dense::transpose;

// ---- parameters ----------------------------------------------------------------------------

Transformer::Transformer(const ModelConfig& config)
    : config_(config), d_k_(config.d_model / config.heads) {
  const int D = config.d_model, V = config.vocab;
  embedding_ = add_tensor("embedding", V, D);
  if (config.position == PositionKind::Learned)
    position_ = add_tensor("position", config.length, D);
  for (int l = 0; l < config.layers; l++) {
    const std::string p = "layers." + std::to_string(l) + ".";
    wqkv_.push_back(add_tensor(p + "Wq", D, D));
    add_tensor(p + "Wk", D, D);
    add_tensor(p + "Wv", D, D);
    bqkv_.push_back(add_tensor(p + "bq", 1, D));
    add_tensor(p + "bk", 1, D);
    add_tensor(p + "bv", 1, D);
    wo_.push_back(add_tensor(p + "Wo", D, D));
    bo_.push_back(add_tensor(p + "bo", 1, D));
  }
  unembedding_ = add_tensor("unembedding", V, D);
  unembedding_bias_ = add_tensor("unembeddingBias", 1, V);
  allocate();
  if (config.position == PositionKind::Sinusoidal)
    sinusoid_ = sinusoidal_encoding(config.length, D);
  x_.resize(config.layers + 1);
  qkv_.resize(config.layers);
  att_.resize(config.layers);
  z_.resize(config.layers);
}

bool Transformer::finite() const {
  return std::all_of(probs_.begin(),
                     probs_.begin() + static_cast<std::ptrdiff_t>(n_) * config_.vocab,
                     [](float p) { return std::isfinite(p); });
}

void Transformer::init(std::uint64_t seed) {
  Rng rng(seed, kInitStream);
  const float weight_std = 1.0f / std::sqrt(static_cast<float>(config_.d_model));
  for (const Tensor& t : tensors_) {  // in the order of tensors(): each draws the next numbers
    float* p = param(t.offset);
    const bool bias = t.rows == 1;
    if (bias) {
      std::fill(p, p + t.size(), 0.0f);
      continue;
    }
    rng.normal(p, t.size());
    if (t.offset != embedding_ &&
        !(config_.position == PositionKind::Learned && t.offset == position_))
      for (std::size_t i = 0; i < t.size(); i++) p[i] *= weight_std;
  }
}

// ---- forward -------------------------------------------------------------------------------

ForwardStats Transformer::forward(const Batch& batch) {
  batch_ = batch;
  const int D = config_.d_model, V = config_.vocab, T = batch.length;
  n_ = batch.size * T;
  const std::size_t nd = static_cast<std::size_t>(n_) * D;
  for (auto& x : x_) grow(x, nd);
  for (int l = 0; l < config_.layers; l++) {
    grow(qkv_[l], nd * 3);
    grow(att_[l], static_cast<std::size_t>(batch.size) * config_.heads * T * T);
    grow(z_[l], nd);
  }
  grow(probs_, static_cast<std::size_t>(n_) * V);
  const std::size_t head = static_cast<std::size_t>(T) * d_k_,
                    square = static_cast<std::size_t>(T) * T;
  for (auto* v : {&qh_, &kh_, &vh_, &zh_, &dzh_, &dqh_, &dkh_, &dvh_}) grow(*v, head);
  for (auto* v : {&da_, &t1_, &t2_}) grow(*v, square);

  // x0 = E[token] + P[position]   (N, D)
  float* x0 = x_[0].data();
  for (int n = 0; n < n_; n++) {
    const int t = n % T;
    const float* e = param(embedding_) + static_cast<std::size_t>(batch.tokens[n]) * D;
    float* xr = x0 + static_cast<std::size_t>(n) * D;
    for (int c = 0; c < D; c++) xr[c] = e[c];
    if (config_.position == PositionKind::Learned) {
      const float* p = param(position_) + static_cast<std::size_t>(t) * D;
      for (int c = 0; c < D; c++) xr[c] += p[c];
    } else if (config_.position == PositionKind::Sinusoidal) {
      const float* p = sinusoid_.row(t);
      for (int c = 0; c < D; c++) xr[c] += p[c];
    }
  }

  for (int l = 0; l < config_.layers; l++) layer_forward(l);

  // logits = x U^T + bu   (N, V), then softmax and cross-entropy
  float* logits = probs_.data();
  kernels::gemm_abt(x_[config_.layers].data(), param(unembedding_), logits, n_, V, D, &ws_);
  add_bias(logits, param(unembedding_bias_), n_, V);
  double loss = 0;
  int correct = 0;
  target_count_ = 0;
  for (int n = 0; n < n_; n++) {
    const float* row = logits + static_cast<std::size_t>(n) * V;
    const int top = static_cast<int>(std::max_element(row, row + V) - row);
    const int target = batch.targets.empty() ? kNoTarget : batch.targets[n];
    if (target != kNoTarget) {
      loss += dense::cross_entropy(row, V, target, top);
      correct += top == target;
      target_count_++;
    }
  }
  kernels::softmax_rows(logits, n_, V, true);  // the probabilities, in place
  return forward_stats(loss, correct, target_count_);
}

void Transformer::layer_forward(int l) {
  const int D = config_.d_model, H = config_.heads, dk = d_k_, T = batch_.length;
  const float* x = x_[l].data();
  float* qkv = qkv_[l].data();
  float* z = z_[l].data();
  const float scale = config_.scale ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  const float neg_inf = -std::numeric_limits<float>::infinity();

  // q, k, v = x [Wq; Wk; Wv]^T + [bq; bk; bv]   (N, 3D)
  kernels::gemm_abt(x, param(wqkv_[l]), qkv, n_, 3 * D, D, &ws_);
  add_bias(qkv, param(bqkv_[l]), n_, 3 * D);

  for (int b = 0; b < batch_.size; b++) {
    const float* rows = qkv + static_cast<std::size_t>(b) * T * 3 * D;
    for (int h = 0; h < H; h++) {
      gather(rows, 3 * D, h * dk, qh_.data(), T, dk);                             // q_h (T, d_k)
      gather(rows, 3 * D, D + h * dk, kh_.data(), T, dk);                         // k_h (T, d_k)
      gather(rows, 3 * D, 2 * D + h * dk, vh_.data(), T, dk);                     // v_h (T, d_k)
      float* a = att_[l].data() + (static_cast<std::size_t>(b) * H + h) * T * T;  // (T, T)
      kernels::gemm_abt(qh_.data(), kh_.data(), a, T, T, dk, &ws_);               // scores
      for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
          a[i * T + j] = j > i ? neg_inf : a[i * T + j] * scale;  // scale, causal mask
      kernels::softmax_rows(a, T, T, true);
      kernels::gemm_ab(a, vh_.data(), zh_.data(), T, dk, T, &ws_);  // z_h = A v_h  (T, d_k)
      if (is_ablated(l, h))
        std::fill(zh_.begin(), zh_.begin() + static_cast<std::ptrdiff_t>(T) * dk, 0.0f);
      scatter(zh_.data(), z + static_cast<std::size_t>(b) * T * D, D, h * dk, T, dk);
    }
  }

  // x_{l+1} = x + z Wo^T + bo
  float* out = x_[l + 1].data();
  kernels::gemm_abt(z, param(wo_[l]), out, n_, D, D, &ws_);
  add_bias(out, param(bo_[l]), n_, D);
  const std::size_t nd = static_cast<std::size_t>(n_) * D;
  for (std::size_t i = 0; i < nd; i++) out[i] += x[i];
}

// ---- backward ------------------------------------------------------------------------------

void Transformer::backward() {
  const int D = config_.d_model, V = config_.vocab, T = batch_.length;
  const std::size_t nd = static_cast<std::size_t>(n_) * D;
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  grow(big_, std::max(static_cast<std::size_t>(n_) * V, nd * 3));
  grow(big_t_, std::max(static_cast<std::size_t>(n_) * V, nd * 3));
  grow(dqkv_, nd * 3);
  grow(dx_, nd);
  float* dx = dx_.data();

  // dlogits = (softmax - onehot) / targets at target positions, 0 elsewhere   (N, V)
  float* dlogits = big_.data();
  const float inv = target_count_ > 0 ? 1.0f / static_cast<float>(target_count_) : 0.0f;
  for (int n = 0; n < n_; n++) {
    const float* p = probs_.data() + static_cast<std::size_t>(n) * V;
    float* g = dlogits + static_cast<std::size_t>(n) * V;
    const int target = batch_.targets.empty() ? kNoTarget : batch_.targets[n];
    for (int v = 0; v < V; v++)
      g[v] = target == kNoTarget ? 0.0f : (p[v] - (v == target ? 1.0f : 0.0f)) * inv;
  }
  // dU = dlogits^T x_L (V, D); dbu = column sums; dx = dlogits U (N, D)
  transpose(dlogits, big_t_.data(), n_, V);
  kernels::gemm_ab(big_t_.data(), x_[config_.layers].data(), grad(unembedding_), V, D, n_, &ws_);
  column_sums(dlogits, grad(unembedding_bias_), n_, V);
  kernels::gemm_ab(dlogits, param(unembedding_), dx, n_, D, V, &ws_);

  for (int l = config_.layers - 1; l >= 0; l--) layer_backward(l, dx);

  // embedding and learned positions: x0 = E[token] + P[t]
  for (int n = 0; n < n_; n++) {
    const float* g = dx + static_cast<std::size_t>(n) * D;
    float* ge = grad(embedding_) + static_cast<std::size_t>(batch_.tokens[n]) * D;
    for (int c = 0; c < D; c++) ge[c] += g[c];
    if (config_.position == PositionKind::Learned) {
      float* gp = grad(position_) + static_cast<std::size_t>(n % T) * D;
      for (int c = 0; c < D; c++) gp[c] += g[c];
    }
  }
}

void Transformer::layer_backward(int l, float* dx) {
  const int D = config_.d_model, H = config_.heads, dk = d_k_, T = batch_.length;
  const std::size_t nd = static_cast<std::size_t>(n_) * D;
  const float* x = x_[l].data();
  const float* qkv = qkv_[l].data();
  const float* z = z_[l].data();
  const float scale = config_.scale ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  float* dz = big_.data();  // (N, D)
  float* scratch = big_t_.data();

  // out = z Wo^T + bo:  dWo = dout^T z (D, D), dbo = column sums, dz = dout Wo   (dout = dx)
  transpose(dx, scratch, n_, D);
  kernels::gemm_ab(scratch, z, grad(wo_[l]), D, D, n_, &ws_);
  column_sums(dx, grad(bo_[l]), n_, D);
  kernels::gemm_ab(dx, param(wo_[l]), dz, n_, D, D, &ws_);

  // each head: z_h = A v_h, A = softmax(S), S = scale q_h k_h^T (masked)
  float* dqkv = dqkv_.data();
  for (int b = 0; b < batch_.size; b++) {
    const float* rows = qkv + static_cast<std::size_t>(b) * T * 3 * D;
    float* drows = dqkv + static_cast<std::size_t>(b) * T * 3 * D;
    for (int h = 0; h < H; h++) {
      gather(rows, 3 * D, h * dk, qh_.data(), T, dk);
      gather(rows, 3 * D, D + h * dk, kh_.data(), T, dk);
      gather(rows, 3 * D, 2 * D + h * dk, vh_.data(), T, dk);
      gather(dz + static_cast<std::size_t>(b) * T * D, D, h * dk, dzh_.data(), T, dk);
      if (is_ablated(l, h))
        std::fill(dzh_.begin(), dzh_.begin() + static_cast<std::ptrdiff_t>(T) * dk, 0.0f);
      const float* a = att_[l].data() + (static_cast<std::size_t>(b) * H + h) * T * T;
      float* da = da_.data();
      kernels::gemm_abt(dzh_.data(), vh_.data(), da, T, T, dk, &ws_);  // dA = dz_h v_h^T   (T, T)
      transpose(a, t1_.data(), T, T);
      kernels::gemm_ab(t1_.data(), dzh_.data(), dvh_.data(), T, dk, T, &ws_);  // dv_h = A^T dz_h
      // softmax: dS = A * (dA - rowsum(A * dA)), times the scale; masked cells have A = 0
      for (int i = 0; i < T; i++) {
        float dot = 0.0f;
        for (int j = 0; j < T; j++) dot += a[i * T + j] * da[i * T + j];
        for (int j = 0; j < T; j++) da[i * T + j] = a[i * T + j] * (da[i * T + j] - dot) * scale;
      }
      kernels::gemm_ab(da, kh_.data(), dqh_.data(), T, dk, T, &ws_);  // dq_h = dS k_h
      transpose(da, t2_.data(), T, T);
      kernels::gemm_ab(t2_.data(), qh_.data(), dkh_.data(), T, dk, T, &ws_);  // dk_h = dS^T q_h
      scatter(dqh_.data(), drows, 3 * D, h * dk, T, dk);
      scatter(dkh_.data(), drows, 3 * D, D + h * dk, T, dk);
      scatter(dvh_.data(), drows, 3 * D, 2 * D + h * dk, T, dk);
    }
  }

  // qkv = x Wqkv^T + bqkv:  dWqkv = dqkv^T x (3D, D), dbqkv = column sums, dx += dqkv Wqkv
  transpose(dqkv, scratch, n_, 3 * D);
  kernels::gemm_ab(scratch, x, grad(wqkv_[l]), 3 * D, D, n_, &ws_);
  column_sums(dqkv, grad(bqkv_[l]), n_, 3 * D);
  kernels::gemm_ab(dqkv, param(wqkv_[l]), dz, n_, D, 3 * D, &ws_);
  for (std::size_t i = 0; i < nd; i++) dx[i] += dz[i];  // the residual carries dx through
}

// ---- reading the last forward --------------------------------------------------------------

Matrix Transformer::attention(int layer, int head, int sequence) const {
  const int T = batch_.length;
  Matrix m(T, T);
  const float* a =
      att_[layer].data() + (static_cast<std::size_t>(sequence) * config_.heads + head) * T * T;
  std::copy_n(a, static_cast<std::size_t>(T) * T, m.data.data());
  return m;
}

std::vector<int> Transformer::predictions() const {
  const int V = config_.vocab;
  std::vector<int> out(n_);
  for (int n = 0; n < n_; n++) {
    const float* p = probs_.data() + static_cast<std::size_t>(n) * V;
    out[n] = static_cast<int>(std::max_element(p, p + V) - p);
  }
  return out;
}

}  // namespace attn
