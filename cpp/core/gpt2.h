// GPT-2 (Radford et al. 2019) as Hugging Face's GPT2LMHeadModel computes it, forward only, with
// every head's work kept. The weights come from a safetensors checkpoint (core/gpt2_loader.h).
//
//   x_0 = wte[id_t] + wpe[t]                                   (n, d)     embedding
//   each block l:
//     a        = ln_1(x)                                         (n, d)     layer norm of each row
//     q, k, v  = a W_attn + b_attn, split in three               (n, d)     W_attn (d, 3d)
//     each head h of n_head, on columns h d_head .. (h + 1) d_head of q, k and v:
//       1. scores  = q_h k_hᵀ                                    (n, n)
//       2. scaled  = scores / sqrt(d_head)
//       3. masked  = scaled with -inf above the diagonal         (causal: token i sees 0 .. i)
//       4. weights = softmax of each row
//       5. out_h   = weights v_h                                 (n, d_head)
//     x       += concat_h(out_h) W_proj + b_proj                 (n, d)     the residual
//     x       += gelu(ln_2(x) W_fc + b_fc) W_mlp + b_mlp         (n, d)     W_fc (d, inner)
//   logits = ln_f(x) wteᵀ                                        (n, vocab) the tied unembedding
//
// gelu is GPT-2's tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x³))) ("gelu_new").
// Weights are stored as the products read them: Conv1D weights (in, out) and wte packed once, at
// load, into the panels of kernels::gemm_packed, so no product packs its right-hand side again.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/check.h"
#include "core/matrix.h"
#include "kernels/kernels.h"

namespace attn::gpt2 {

// ---- configuration: config.json's keys ---------------------------------------------------------

struct Config {
  int n_layer = 0;
  int n_head = 0;
  int n_embd = 0;
  int n_positions = 0;
  int vocab_size = 0;
  int n_inner = 0;  // the MLP's width: config.json's n_inner, or 4 n_embd when it is null
  double layer_norm_epsilon = 1e-5;
  // What config.json says of the architecture: the engine computes GPT-2 as written above, so
  // these must say so (a GPT-2 fine-tune's config does).
  std::string model_type = "gpt2";
  std::string activation_function = "gelu_new";  // or its other names: the same tanh GELU
  bool scale_attn_weights = true;                // scores divided by sqrt(d_head)
  bool scale_attn_by_inverse_layer_idx = false;  // and by layer + 1 (not GPT-2)
  bool add_cross_attention = false;              // cross-attention blocks (not GPT-2)
  int d_head() const { return n_embd / n_head; }
};

// The ranges a configuration must be in (memory decides the rest: core/gpt2_loader.h).
inline constexpr NumberOption kNLayer{"config.n_layer", 1, 128, true};
inline constexpr NumberOption kNHead{"config.n_head", 1, 128, true};
inline constexpr NumberOption kNEmbd{"config.n_embd", 1, 16384, true};
inline constexpr NumberOption kNPositions{"config.n_positions", 1, 16384, true};
inline constexpr NumberOption kVocabSize{"config.vocab_size", 1, 1 << 20, true};
inline constexpr NumberOption kNInner{"config.n_inner", 1, 65536, true,
                                      "null, or an integer from 1 to 65536"};
inline constexpr NumberOption kLayerNormEpsilon{
    "config.layer_norm_epsilon", 1e-30, 1, false, nullptr, 1e-5};

// Each field in its range, n_embd a multiple of n_head, the architecture GPT-2's. Messages name
// config.<key>.
Error check_config(const Config& c);

// ---- the weights ------------------------------------------------------------------------------

// How a weight matrix (rows, cols), as the checkpoint writes it row-major, is stored.
enum class Layout {
  Rows,        // as written: biases, layer norms, wpe
  PackedIn,    // a Conv1D weight (in, out) for x W: kernels::pack_b's panels
  PackedVocab  // wte (vocab, d) for x wteᵀ: kernels::pack_bt's panels (the embedding reads them
               // too)
};

// One weight's place in the model's storage.
struct Slot {
  std::size_t offset = 0;  // first float
  int rows = 0, cols = 0;  // as the checkpoint writes it
  Layout layout = Layout::Rows;
  std::size_t floats() const;  // what it takes (packed panels are padded to 8 columns)
  // Where entry (r, c) of the checkpoint's matrix lives.
  std::size_t index(int r, int c) const;
};

struct Block {
  Slot ln_1_weight, ln_1_bias;
  Slot attn_weight, attn_bias;  // c_attn: (d, 3d), (3d)
  Slot proj_weight, proj_bias;  // attn.c_proj: (d, d), (d)
  Slot ln_2_weight, ln_2_bias;
  Slot fc_weight, fc_bias;    // mlp.c_fc: (d, inner), (inner)
  Slot mlp_weight, mlp_bias;  // mlp.c_proj: (inner, d), (d)
};

class Model {
 public:
  // The slots laid out for config (checked by the caller); no storage until allocate().
  explicit Model(const Config& config);
  // The storage (the packed panels' padding zeroed: everything else is written by the loader);
  // false when the memory cannot be had (nothing else changes).
  bool allocate();

  const Config& config() const { return config_; }
  std::size_t floats() const { return floats_; }  // the storage's size
  float* at(const Slot& s) { return store_.get() + s.offset; }
  const float* at(const Slot& s) const { return store_.get() + s.offset; }
  // A PackedIn or PackedVocab slot as the right-hand side of gemm_packed.
  kernels::PackedMatrix packed(const Slot& s) const;
  // Writes count entries of the checkpoint's matrix, in its row-major order from entry `first`,
  // where the slot keeps them.
  void store(const Slot& s, std::uint64_t first, const float* x, std::size_t count);

  Slot wte, wpe, ln_f_weight, ln_f_bias;
  std::vector<Block> h;  // n_layer blocks

 private:
  Config config_;
  std::size_t floats_ = 0;
  std::unique_ptr<float[]> store_;
};

// Bytes the weights of config take in the engine (float32, packed).
double weight_bytes(const Config& c);

// ---- a forward pass ---------------------------------------------------------------------------

enum class Ablation { Zero, Mean };  // an ablated head's output: zeros, or its mean over the tokens

inline constexpr ChoiceOption<Ablation, 2> kAblationOption{
    "ablation", {{"zero", Ablation::Zero}, {"mean", Ablation::Mean}}};

inline constexpr int kMaxTopK = 1000;  // top-k ids per token (and at most vocab_size)
// A run's options (model.run): each token's k most likely next tokens (k: 10, or the vocabulary
// when it is smaller), and whether the run says where its time went.
inline constexpr NumberOption kTopK{"topK", 1, kMaxTopK, true, nullptr, 10};
inline constexpr FlagOption kProfile{"profile", false};

// ---- where a run's time goes ------------------------------------------------------------------
// The stages a profiled run times (RunArgs::profile), in the order they run; each is summed over
// the blocks (and the heads). The binding adds the copy of the results out to JavaScript.
enum class Stage {
  Embedding,   // the run's buffers, and x = wte[ids] + wpe
  Ln1,         // ln_1
  Qkv,         // c_attn: q, k, v
  Scores,      // each head: its q, k, v gathered, q kᵀ, scaled, masked and softmax
  WeightsV,    // each head: weights v, into its columns of the heads' output
  HeadStages,  // the chosen head's five stages, again (with RunArgs::stage_layer)
  Proj,        // attn.c_proj
  Ln2,         // ln_2
  Fc,          // mlp.c_fc
  Gelu,        // GELU
  MlpProj,     // mlp.c_proj
  Residual,    // the residual adds and the stream's norms
  LnF,         // ln_f
  Logits,      // ln_f(x) wteᵀ
  TopK,        // each token's softmax over the vocabulary and its top k
  CopyOut,     // the results copied out of the engine (the binding's)
  Count
};
inline constexpr const char* kStageNames[] = {"buffers + embedding",
                                              "ln_1",
                                              "c_attn (QKV)",
                                              "scores + mask + softmax",
                                              "weights × V",
                                              "one head's five stages",
                                              "attn c_proj",
                                              "ln_2",
                                              "mlp c_fc",
                                              "GELU",
                                              "mlp c_proj",
                                              "residual adds + norms",
                                              "ln_f",
                                              "logits (× wteᵀ)",
                                              "softmax + top-k",
                                              "copy out"};
static_assert(sizeof(kStageNames) / sizeof(kStageNames[0]) == static_cast<int>(Stage::Count));
struct Profile {
  double ms[static_cast<int>(Stage::Count)] = {};
};
// Adds the time since its last lap (or its start) to a stage of a profile, when there is one to
// fill: without one, it reads no clock.
class StageTimer {
 public:
  explicit StageTimer(Profile* p) : p_(p) {
    if (p_) last_ = std::chrono::steady_clock::now();
  }
  void lap(Stage s) {
    if (!p_) return;
    const auto now = std::chrono::steady_clock::now();
    p_->ms[static_cast<int>(s)] += std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
  }

 private:
  Profile* p_;
  std::chrono::steady_clock::time_point last_;
};

struct RunArgs {
  std::vector<int> ids;  // 1 .. n_positions tokens, each in [0, vocab_size)
  int top_k = static_cast<int>(kTopK.fallback);
  int stage_layer = -1, stage_head = -1;  // the head whose five stages are kept (-1: none)
  std::vector<char> ablated;              // layer * n_head + head -> 1 = ablated; empty: none
  Ablation ablation = Ablation::Zero;
  bool attention = true;  // keep every head's weights
  bool logits = false;    // keep the logits (n, vocab)
  // (n, k) ids whose probabilities to report (Run::probabilities_of); empty: none
  std::vector<int> probabilities_of;
  Profile* profile = nullptr;  // where the time goes, stage by stage; null: no clock is read
};

struct Run {
  int k = 0;
  std::vector<int> top_ids;       // (n, k): each token's k most likely next tokens, best first
  std::vector<float> top_probs;   // (n, k): their probabilities
  std::vector<Matrix> attention;  // layer * n_head + head: (n, n) weights, when asked
  AttendResult stages;            // the chosen head's stages, as attend() returns them
  Matrix residual_norms;          // (n_layer + 1, n): |x| of each token after the embedding and
                                  // after each block
  Matrix logits;                  // (n, vocab), when asked
  std::vector<float> probabilities_of;  // (n, k) for RunArgs::probabilities_of
  Error error;  // the arithmetic left float32 (weights too large): names the stage that did
};

// Empty when args fit the model: ids, top_k, the stage head, the ablated heads. Messages name
// ids, topK, head and ablate.
Error check_run(const Config& c, const RunArgs& a);
// Bytes one run of n tokens allocates (its activations, and with `attention` every head's
// weights), for the memory check before it starts.
double run_bytes(const Config& c, int n, bool attention);

// The forward pass. Requires check_run to be empty.
Run run(const Model& m, const RunArgs& a);

// With heads ablated, what that changed: the intact model's top k, and its probability of each of
// the ablated run's top-k ids (in the same (n, k) places as ablated.top_ids).
struct Baseline {
  std::vector<int> top_ids;          // (n, k)
  std::vector<float> top_probs;      // (n, k)
  std::vector<float> probabilities;  // (n, k)
  Error error;
};
Baseline baseline(const Model& m, const RunArgs& ablated_args, const Run& ablated);

// ---- the stages, one function each (run() calls them in order) ------------------------------

// x (n, d) = wte[ids] + wpe[0 .. n)
void embed(const Model& m, const int* ids, int n, float* x);
// Every head of block `layer`: qkv (n, 3d) -> heads (n, d), the heads' outputs side by side, and
// each head's (n, n) weights at weights[h]. Ablated heads' outputs (a.ablated) are zeroed or
// replaced by their mean over the tokens (a.ablation). Returns -1, or the first head whose scores
// left float32 (then the heads after it are not computed).
int attention_heads(const Model& m, int layer, const float* qkv, int n, const RunArgs& a,
                    float* heads, float* const* weights, kernels::Workspace* ws,
                    StageTimer* timer = nullptr);
// Stages 1-5 of one head: q, k, v (n, d_head) -> weights (n, n), out (n, d_head). False, with
// weights and out not computed, when a scaled score is not finite: q·k of finite q and k past
// float32 (±inf, or inf - inf) has no weights (a row of -inf scores would give a row of zeros).
// The timer's Scores lap ends after stage 4, its WeightsV lap after stage 5.
bool attention_head(const float* q, const float* k, const float* v, int n, int d_head,
                    float* weights, float* out, kernels::Workspace* ws, StageTimer* timer);
// y (n, cols) = x (n, rows) W + b, W a PackedIn slot (rows, cols).
void conv1d(const Model& m, const Slot& w, const Slot& b, const float* x, int n, float* y);

// ---- head scores ------------------------------------------------------------------------------

// Each an (n_layer, n_head) matrix of numbers in [0, 1], measured on one sequence: `tokens` (L
// distinct tokens) written twice, 2L tokens.
struct HeadScores {
  Matrix previous_token;   // mean weight of token i on token i - 1 (i >= 1)
  Matrix induction;        // second half: mean weight on the token after the current token's
                           // first occurrence (Olsson et al. 2022)
  Matrix duplicate_token;  // second half: mean weight on the current token's first occurrence
  Matrix first_token;      // mean weight on token 0 (i >= 1): the "attention sink"
  Matrix entropy;          // mean over i >= 1 of the row's entropy / log(i + 1) (1 = uniform)
  std::vector<int> tokens;
  Error error;
};

// The L of the head scores' sequence drawn from a seed (model.headScores): 50, or as many as the
// model takes when that is fewer (check_score_tokens).
inline constexpr NumberOption kScoreLength{"length", 2, 8192, true, nullptr, 50};

// L distinct tokens of [0, vocab) drawn from seed (a partial Fisher-Yates shuffle).
std::vector<int> distinct_tokens(std::uint32_t seed, int length, int vocab);
// Empty when `tokens` (the first half) fits: 2 .. n_positions / 2 distinct tokens of the
// vocabulary.
Error check_score_tokens(const Config& c, const std::vector<int>& tokens);
HeadScores head_scores(const Model& m, const std::vector<int>& tokens);

}  // namespace attn::gpt2
