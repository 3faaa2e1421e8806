// An RNN encoder–decoder with a choice of attention, its backward pass through time, and a
// trainer, for the playground's second mode (Bahdanau, Cho & Bengio 2015; Luong et al. 2015).
//
//   encoder  x_t = E_src[token_t]                          (E)
//            h_t = GRU(x_t, h_{t-1}) forwards, and backwards too when bidirectional; each
//            direction has hidden / 2 units when bidirectional, hidden otherwise, so the
//            annotation a_t = [h_t fwd; h_t bwd] has A = hidden entries in both cases
//            summary = [last fwd state; last bwd state]     (A)   (the fixed vector)
//   bridge   s_0 = tanh(W_b summary + b_b)                  (D = hidden)
//   decoder  step i = 1, 2, ...: the previous state s_{i-1} scores every annotation
//              none      c_i = summary (no attention: the fixed-vector bottleneck)
//              additive  e_ij = v . tanh(W s_{i-1} + U a_j)   (Bahdanau)
//              dot       e_ij = s_{i-1} . a_j               (Luong)
//              general   e_ij = s_{i-1} . (W a_j)           (Luong)
//            alpha_i = softmax_j(e_i) over the source's positions, c_i = sum_j alpha_ij a_j
//            s_i = GRU([E_tgt[y_{i-1}]; c_i], s_{i-1})      (y_0 = "</s>")
//            logits_i = W_o [s_i; c_i] + b_o                (target vocabulary)
//   loss     mean cross-entropy over every target token and the "</s>" that ends it
//
// The context joins the decoder's input and its output layer as in Bahdanau et al. (their
// output layer also reads y_{i-1} and has a maxout; this one is linear in [s_i; c_i]). Training
// feeds the true previous token (teacher forcing); decoding feeds the model's own greedy choice.
// Every parameter lives in one flat vector (tensors() names its parts), the GRU's with
// torch.nn.GRU's names and shapes; the products run on the engine's kernels.
// The trainer and its own options are in seq2seq_trainer.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/seq2seq_tasks.h"
#include "core/trainable.h"
#include "kernels/kernels.h"

namespace attn {

enum class AttentionKind { None, Additive, Dot, General };

namespace limits {
constexpr int kMaxSeq2SeqHidden = 128;
constexpr int kMaxSeq2SeqEmbed = 128;
}  // namespace limits

inline constexpr FlagOption kBidirectional{"bidirectional", true};
inline constexpr NumberOption kSeq2SeqHidden{"hidden", 4,       limits::kMaxSeq2SeqHidden,
                                             true,     nullptr, 64};
inline constexpr NumberOption kSeq2SeqEmbed{"embed", 2,       limits::kMaxSeq2SeqEmbed,
                                            true,    nullptr, 32};
inline constexpr ChoiceOption<AttentionKind, 4> kAttentionOption{
    "attention",
    {{"none", AttentionKind::None},
     {"additive", AttentionKind::Additive},
     {"dot", AttentionKind::Dot},
     {"general", AttentionKind::General}},
    AttentionKind::Additive};

// The values of the options above, which a trainer builds the model with (Seq2SeqConfig holds
// them; each_option in seq2seq_trainer.h lists them), each absent one at its table's fallback.
struct Seq2SeqModelOptions {
  AttentionKind attention = kAttentionOption.fallback;
  bool bidirectional = kBidirectional.fallback;
  int hidden = static_cast<int>(kSeq2SeqHidden.fallback);
  int embed = static_cast<int>(kSeq2SeqEmbed.fallback);
};

// The options with the task's vocabularies (seq2seq_model_config in seq2seq_trainer.h).
struct Seq2SeqModelConfig : Seq2SeqModelOptions {
  int source_vocab = 10;
  int target_vocab = 11;
};

// The shape of a run: rows (sentences), the longest source, decoder steps.
struct RunShape {
  int rows = 0;
  int source = 0;
  int steps = 0;
};

class Seq2Seq : public Parameters {
 public:
  explicit Seq2Seq(const Seq2SeqModelConfig& config);  // parameters zero; config checked first

  // Every scratch buffer (and the products' packing room) sized for a run of each shape now, so
  // a later run of at most these shapes allocates nothing.
  void reserve(const std::vector<RunShape>& shapes);
  // The bytes a model of this config holds once reserve(shapes) has run: its parameters and their
  // gradients, and every scratch buffer at its largest. Nothing is allocated to say so.
  static double bytes(const Seq2SeqModelConfig& config, const std::vector<RunShape>& shapes);

  // The initialisation from `seed`: embeddings N(0, 1); every other tensor uniform in
  // (-1/sqrt(fan), 1/sqrt(fan)) as torch initialises GRU and Linear layers (fan: a GRU's hidden
  // size, a layer's inputs).
  void init(std::uint64_t seed);

  const Seq2SeqModelConfig& config() const { return config_; }
  // tensors(), parameters(), gradients(): torch's names, e.g. "encoder.weight_ih_l0" (Parameters)

  // Teacher-forced run on pairs (tokens checked by the caller); keeps what backward() needs.
  ForwardStats forward(const PairBatch& batch);
  // Gradient of the last forward's loss with respect to every parameter, into gradients().
  void backward();
  // Greedy decoding of batch.source for `steps` steps, each fed the previous step's choice.
  // Loss and accuracy are those of batch.target where it is given (else zero).
  ForwardStats decode(const PairBatch& batch, int steps);

  // After forward or decode: row r's top token at each step (steps() entries) and its attention
  // weights (steps(), source length) (all zero for attention 'none').
  int steps() const { return T_; }
  // Whether every probability, attention weight and decoder state of the last run is finite.
  bool finite() const;
  std::vector<int> predictions(int row) const;
  Matrix alignment(int row) const;

 private:
  struct Layout {};  // the tensors' table and sizes only, no parameters (bytes())
  Seq2Seq(const Seq2SeqModelConfig& config, Layout);
  // f(&buffer, elements) for every scratch buffer a run of this shape needs.
  template <typename F>
  void each_buffer(const RunShape& shape, F f);
  // The floats the products' packing needs at most in a run of this shape.
  std::size_t packing_floats(const RunShape& shape) const;

  // The forward pass, one function a stage: the rows ordered, the encoder, the bridge to s_0,
  // the keys, then each decoder step's input, context, GRU step and output layer.
  ForwardStats run(const PairBatch& batch, bool teacher, int steps);
  void arrange(const PairBatch& batch, int steps);
  void encode();
  void encoder_direction_forward(int dir);
  void bridge_forward();
  void keys_forward();
  void decoder_inputs(int i, bool teacher);
  void context_forward(int i);
  void decoder_step_forward(int i);
  void output_forward(int i, double* loss, int* correct);
  // The backward pass, the same stages in reverse.
  void output_backward();
  void decoder_backward();
  void decoder_step_backward(int i, float* ds);
  void context_backward(int i, const float* dc, float* ds_prev);
  void bridge_backward();
  void decoder_weights_backward();
  void keys_backward();
  void encoder_direction_backward(int dir);
  const std::vector<int>& source(int k) const { return batch_->source[order_[k]]; }
  const std::vector<int>& target(int k) const { return batch_->target[order_[k]]; }

  Seq2SeqModelConfig config_;
  int E_, A_, D_, Hd_, dirs_, K_;  // embed, annotation, decoder state, per-direction, directions,
                                   // the key width of the scores (A, D or the additive width)
  std::vector<float> bounds_;      // per tensor: the uniform bound, or 0 for N(0, 1)
  std::size_t src_emb_ = 0, tgt_emb_ = 0, bridge_w_ = 0, bridge_b_ = 0, att_w_ = 0, att_u_ = 0,
              att_v_ = 0, dec_wih_ = 0, dec_whh_ = 0, dec_bih_ = 0, dec_bhh_ = 0, out_w_ = 0,
              out_b_ = 0;
  std::size_t enc_wih_[2] = {0, 0}, enc_whh_[2] = {0, 0}, enc_bih_[2] = {0, 0},
              enc_bhh_[2] = {0, 0};

  // the last run: B rows, S source positions (the longest source), T decoder steps
  int B_ = 0, S_ = 0, T_ = 0;
  const PairBatch* batch_ = nullptr;
  // Rows are kept sorted by source length, longest first (order_[k] is the batch's row of row k,
  // pos_ the inverse), so the rows still reading at time t are a prefix, active_enc_[t] long, and
  // the decoder's rows with a target at step i lie within a prefix of active_dec_[i] rows: a
  // step multiplies only those.
  std::vector<int> order_, pos_;
  std::vector<int> src_len_, steps_len_;  // per row: source length, steps with a target (0: none)
  std::vector<int> active_enc_, active_dec_;  // (S), (T)
  std::vector<float> x_;                      // (S, B, E) source embeddings, time-major
  std::vector<float> gi_[2];                  // (S, B, 3Hd) x W_ih^T + b_ih, by time
  std::vector<float> h_[2];                   // (S + 1, B, Hd) states in processing order
  std::vector<float> gates_[2], ghn_[2];      // (S, B, 3Hd), (S, B, Hd) in processing order
  std::vector<float> ann_;                    // (B, S, A) annotations
  std::vector<float> summary_;                // (B, A)
  std::vector<float> keys_;                   // (B, S, K): U a_j (additive), W a_j (general)
  std::vector<int> inputs_, preds_;           // (T, B) decoder input tokens, top tokens
  std::vector<float> s_;                      // (T + 1, B, D) decoder states
  std::vector<float> q_;                      // (T, B, K) W s_{i-1} (additive)
  std::vector<float> tanh_;                   // (T, B, S, K) tanh(W s + U a_j) (additive)
  std::vector<float> alpha_;                  // (T, B, S)
  std::vector<float> dec_x_;                  // (T, B, E + A) [E_tgt[y]; c]
  std::vector<float> dec_gates_, dec_ghn_;    // (T, B, 3D), (T, B, D)
  std::vector<float> out_in_;                 // (T, B, D + A) [s_i; c_i]
  std::vector<float> probs_;                  // (T, B, V)
  int target_count_ = 0;

  // backward
  std::vector<float> dlogits_, dout_in_, dgi_dec_, dgh_dec_, dq_, dkeys_, dann_, dsummary_;
  std::vector<float> dgi_enc_, dgh_enc_, dx_enc_;
  // scratch
  std::vector<float> gi_step_, gh_step_, ds_, ds_prev_, dx_step_, tmp_, row_, big_t_;
  kernels::Workspace ws_;
};

}  // namespace attn
