// A tiny attention-only transformer with its backward pass, for the playground.
//
//   x0     = E[token] + P[position]                  (N, D)   N = batch * length
//   layer  q, k, v = x Wq^T + bq, x Wk^T + bk, x Wv^T + bv
//                                                    (N, D) each, split into H heads of D / H
//          A_h = softmax(mask(q_h k_h^T s))          (length, length) per sequence,
//                                                    s = 1/sqrt(d_k) or 1
//          z   = concat_h(A_h v_h)                   (N, D)
//          x  += z Wo^T + bo                         (the residual)
//   logits = x U^T + bu                              (N, vocab)
//   loss   = mean over target positions of -log softmax(logits)[target]
//
// The mask is causal: position t sees positions 0..t. Weights follow torch.nn.Linear ((out, in),
// y = x W^T + b). Every parameter lives in one flat float32 vector (tensors() names its parts),
// and so does every gradient, which is what Adam updates. The products run on the engine's
// kernels (gemm_abt, gemm_ab, softmax_rows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/check.h"
#include "core/matrix.h"
#include "core/train_tasks.h"
#include "core/trainable.h"
#include "kernels/kernels.h"

namespace attn {

enum class PositionKind { Learned, Sinusoidal, None };

namespace limits {
constexpr int kMaxLayers = 2;
constexpr int kMaxTrainHeads = 4;
constexpr int kMaxDModel = 128;
}  // namespace limits

inline constexpr NumberOption kLayers{"layers", 1, limits::kMaxLayers, true, "1 or 2", 2};
inline constexpr NumberOption kTrainHeads{"heads", 1, limits::kMaxTrainHeads, true, nullptr, 2};
inline constexpr NumberOption kDModel{"dModel", 4, limits::kMaxDModel, true, nullptr, 64};
inline constexpr FlagOption kTrainScale{"scale", true};  // false: Q Kᵀ not divided by √d_k
inline constexpr ChoiceOption<PositionKind, 3> kPositionOption{
    "position",
    {{"learned", PositionKind::Learned},
     {"sinusoidal", PositionKind::Sinusoidal},
     {"none", PositionKind::None}}};

// The values of the options above, which a trainer builds the model with (TrainConfig holds them;
// each_option in train.h lists them), each absent one at its table's fallback.
struct ModelOptions {
  PositionKind position = kPositionOption.fallback;
  int layers = static_cast<int>(kLayers.fallback);
  int heads = static_cast<int>(kTrainHeads.fallback);
  int d_model = static_cast<int>(kDModel.fallback);
  bool scale = kTrainScale.fallback;  // divide the scores by sqrt(d_k)
};

// The options with the task's vocabulary and length (model_config in train.h).
struct ModelConfig : ModelOptions {
  int vocab = 16;
  int length = kTaskLength;  // positions the model knows (learned and sinusoidal tables)
};

class Transformer : public Parameters {
 public:
  explicit Transformer(const ModelConfig& config);  // parameters zero; config checked by the caller

  // The model's own initialisation from `seed`: embedding and learned positions N(0, 1),
  // weights N(0, 1/D) (std 1/sqrt(fan-in)), biases 0.
  void init(std::uint64_t seed);

  const ModelConfig& config() const { return config_; }
  // tensors(), parameters(), gradients(): "embedding", "position", "layers.0.Wq", ...,
  // "unembedding", "unembeddingBias" (Parameters)

  // Runs the model on a batch (tokens < vocab, length <= config().length) and keeps what
  // backward() needs. Positions with target kNoTarget add nothing to the loss.
  ForwardStats forward(const Batch& batch);
  // Gradient of the last forward's loss with respect to every parameter, into gradients().
  void backward();

  // After forward: the attention weights of (layer, head) for sequence s: (length, length).
  Matrix attention(int layer, int head, int sequence) const;
  // After forward: the model's most likely next token at every position (size * length).
  std::vector<int> predictions() const;
  // After forward: softmax of the logits, (size * length, vocab).
  const std::vector<float>& probabilities() const { return probs_; }
  // Whether every probability of the last forward pass is finite.
  bool finite() const;

  // Heads whose output is zeroed (ablated[layer * heads + head] != 0) in every forward and
  // backward pass until changed; empty: none. The same as zeroing the head's d_k columns of W_o.
  void set_ablated(std::vector<char> ablated) { ablated_ = std::move(ablated); }
  const std::vector<char>& ablated() const { return ablated_; }

 private:
  void layer_forward(int l);
  void layer_backward(
      int l, float* dx);  // dx: (N, D), gradient at the layer's output; becomes the input's

  bool is_ablated(int l, int h) const {
    const std::size_t i = static_cast<std::size_t>(l) * config_.heads + h;
    return i < ablated_.size() && ablated_[i];
  }

  ModelConfig config_;
  int d_k_;
  std::vector<char> ablated_;
  // offsets of each tensor in params_ / grads_
  std::size_t embedding_ = 0, position_ = 0, unembedding_ = 0, unembedding_bias_ = 0;
  std::vector<std::size_t> wqkv_, bqkv_, wo_,
      bo_;           // per layer; Wq Wk Wv are adjacent: one (3D, D) block
  Matrix sinusoid_;  // (length, D) when position is sinusoidal

  // the last forward
  Batch batch_;
  int n_ = 0;                            // rows: size * length
  std::vector<std::vector<float>> x_;    // layers + 1 residual streams (N, D)
  std::vector<std::vector<float>> qkv_;  // per layer (N, 3D)
  std::vector<std::vector<float>> att_;  // per layer (size, heads, length, length)
  std::vector<std::vector<float>> z_;    // per layer (N, D)
  std::vector<float> probs_;             // (N, vocab)
  int target_count_ = 0;

  // scratch
  std::vector<float> qh_, kh_, vh_, zh_, dzh_, da_, dqh_, dkh_, dvh_, t1_, t2_;  // per head
  std::vector<float> big_, big_t_, dqkv_, dx_;                                   // per batch
  kernels::Workspace ws_;
};

}  // namespace attn
