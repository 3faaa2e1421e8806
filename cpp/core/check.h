// The engine's argument contract: every option's names, defaults, limits and checks, one table
// per option, and one way to say what is wrong:
//     "<argument>: expected <what>, got <value>"
// The bindings read JS values through these tables and export them (engine.choices,
// engine.limits), so the names and the numbers are written here and nowhere else (the
// playground's trainers keep theirs, in the same form, beside their models and configs:
// core/transformer.h and core/train.h, core/seq2seq_model.h and core/seq2seq_trainer.h).
// An option the caller leaves out reaches the core absent, and its table's fallback applies.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace attn {

// ---- the error idiom --------------------------------------------------------------------------

// "<name>: expected <what>, got <got>"
Error expected(const std::string& name, const std::string& what, const std::string& got);

// A number as messages quote it: the shortest text that reads back as the same double, in
// JavaScript's spelling (3, 0.5, 1e+300, 1e-300, NaN, Infinity, -Infinity).
std::string format_number(double x);
// A float32 value (a matrix entry): the shortest text that gives the same float (1e+20, 0.1).
std::string format_float(float x);

// ---- named choices ----------------------------------------------------------------------------

enum class ScoreKind { Dot, ScaledDot, Additive, General };
enum class MaskFill { NegInf, LargeNegative, Zero };  // blocked scores become -inf, -1e9 or 0
constexpr double kLargeNegativeFill = -1e9;           // the 'large-negative' fill (engine.limits)

template <typename E>
struct Choice {
  const char* name;
  E value;
};

// An option whose value is one of a few names, in the order the engine lists them, and the
// value an absent one takes (the first choice unless the table says otherwise).
template <typename E, std::size_t N>
struct ChoiceOption {
  const char* name;  // the option, e.g. "score"
  Choice<E> choices[N];
  E fallback = choices[0].value;

  std::size_t size() const { return N; }
  // "'dot', 'scaled-dot', 'additive', 'general'"
  std::string list() const {
    std::string s;
    for (std::size_t i = 0; i < N; i++) s += (i ? ", '" : "'") + std::string(choices[i].name) + "'";
    return s;
  }
  // The value named `text`; false when there is none.
  bool parse(const std::string& text, E* out) const {
    for (const Choice<E>& c : choices) {
      if (text == c.name) {
        *out = c.value;
        return true;
      }
    }
    return false;
  }
  // The name of `value` ("" if it is none of the choices).
  const char* name_of(E value) const {
    for (const Choice<E>& c : choices) {
      if (c.value == value) return c.name;
    }
    return "";
  }
  // "<name>: expected one of 'a', 'b', got <got>"
  Error error(const std::string& got) const { return expected(name, "one of " + list(), got); }
  // Empty when `value` is one of the choices (a direct C++ caller may cast any integer).
  Error check(E value) const {
    for (const Choice<E>& c : choices) {
      if (c.value == value) return {};
    }
    return error(std::to_string(static_cast<int>(value)));
  }
};

inline constexpr ChoiceOption<ScoreKind, 4> kScoreOption{"score",
                                                         {{"dot", ScoreKind::Dot},
                                                          {"scaled-dot", ScoreKind::ScaledDot},
                                                          {"additive", ScoreKind::Additive},
                                                          {"general", ScoreKind::General}},
                                                         ScoreKind::ScaledDot};

inline constexpr ChoiceOption<MaskFill, 3> kMaskFillOption{
    "maskFill",
    {{"neg-inf", MaskFill::NegInf},
     {"large-negative", MaskFill::LargeNegative},
     {"zero", MaskFill::Zero}}};

// The debugging lab's bugs (core/bugs.h), each one stage of attention done wrong.
enum class Bug {
  None,              // the healthy pipeline
  MissingScale,      // Q Kᵀ is not divided by √d_k
  ZeroFill,          // blocked scores become 0 instead of −∞
  ReversedCausal,    // the causal mask keeps key j >= query i: the future leaks
  WrongAxis,         // softmax over each column instead of each row
  MaskAfterSoftmax,  // softmax first, then blocked weights set to 0
  NoMaxSubtraction,  // softmax without subtracting the row max
  ScaleByDModel,     // Q Kᵀ divided by √d_model instead of √d_k
};

inline constexpr ChoiceOption<Bug, 8> kBugOption{"bug",
                                                 {{"none", Bug::None},
                                                  {"missing-scale", Bug::MissingScale},
                                                  {"zero-fill", Bug::ZeroFill},
                                                  {"reversed-causal", Bug::ReversedCausal},
                                                  {"wrong-axis", Bug::WrongAxis},
                                                  {"mask-after-softmax", Bug::MaskAfterSoftmax},
                                                  {"no-max-subtraction", Bug::NoMaxSubtraction},
                                                  {"scale-by-d-model", Bug::ScaleByDModel}}};

// The Transformer block (core/feed_forward.h, core/transformer_layer.h).
enum class Activation {
  Relu,
  Gelu
};  // gelu: the exact 0.5 x (1 + erf(x / sqrt(2))), torch's default
enum class LayerKind { Encoder, Decoder };

inline constexpr ChoiceOption<Activation, 2> kActivationOption{
    "activation", {{"relu", Activation::Relu}, {"gelu", Activation::Gelu}}};

inline constexpr ChoiceOption<LayerKind, 2> kLayerKindOption{
    "kind", {{"encoder", LayerKind::Encoder}, {"decoder", LayerKind::Decoder}}};

// ---- flags ------------------------------------------------------------------------------------

// A true-or-false option and the value an absent one takes.
struct FlagOption {
  const char* name;
  bool fallback;
};

inline constexpr FlagOption kCausal{"causal", false};
inline constexpr FlagOption kReverseCausal{"reverseCausal", false};
inline constexpr FlagOption kStable{"stable", true};  // false: the naive softmax, shown on purpose
inline constexpr FlagOption kStages{"stages",
                                    true};  // false: the output only, no (n_q, n_k) copies
// the Transformer block (core/transformer_layer.h); its causal flag defaults to the layer kind
inline constexpr FlagOption kNormFirst{"normFirst", false};
inline constexpr FlagOption kResidual{"residual", true};
inline constexpr FlagOption kLayerNormOn{"layerNorm", true};
inline constexpr FlagOption kProbeScaled{"scaled", true};  // queryProbe: which scores hard and
                                                           // Gumbel rows use

// ---- numbers ----------------------------------------------------------------------------------

constexpr double kRequired = __builtin_nan("");

// A scalar option: a number from min to max (an integer when `integer`), and the value an
// absent option takes (NaN: the option is required). A message says the expectation from the
// range ("an integer from 1 to 64", with `note` after it in brackets), or as `what` where the
// range reads better in words ("a non-negative integer below 2^32").
struct NumberOption {
  const char* name;
  double min;
  double max;
  bool integer;
  const char* what = nullptr;
  double fallback = kRequired;
  const char* note = nullptr;  // e.g. "0: no clipping"
};

// How a message says what `o` expects: "an integer from 1 to 64", "a number from 1e-5 to 1".
std::string expectation(const NumberOption& o);
// Empty when x is acceptable for `o`; otherwise "<name>: expected <expectation>, got <x>".
Error check_number(const NumberOption& o, double x);
// The same option under another name (tau is a temperature, a run's first sample a sample).
constexpr NumberOption renamed(const NumberOption& o, const char* name) {
  return NumberOption{name, o.min, o.max, o.integer, o.what, o.fallback, o.note};
}
// The same option with a lower largest value (no lower than its smallest): the bound a model's
// own size sets (a checkpoint's vocabulary for its top k).
constexpr NumberOption capped(const NumberOption& o, double max) {
  const double top = o.max < max ? o.max : max;
  return NumberOption{o.name,     o.min, top < o.min ? o.min : top, o.integer, o.what,
                      o.fallback, o.note};
}

// Temperatures and bases stay inside float32's normal range, so 1 / temperature is finite
// and a score divided by it overflows only past the bound that check_scaled_scores names.
constexpr double kMinScale = 1e-30;
constexpr double kMaxScale = 1e30;
constexpr double kFloatMax = 3.4028234663852886e38;  // the largest float32

inline constexpr NumberOption kTemperature{"temperature", kMinScale, kMaxScale, false, nullptr, 1};
inline constexpr NumberOption kTau{"tau", kMinScale, kMaxScale, false, nullptr, 1};
inline constexpr NumberOption kBase{"base", kMinScale, kMaxScale, false, nullptr, 10000};
// randomMatrix: N(0, 1) draws are below 7 in size, so |scale| <= 1e30 keeps them finite.
inline constexpr NumberOption kScale{"scale", -kMaxScale, kMaxScale, false, nullptr, 1};
// Seeds (and RNG stream numbers) are uint32: every seed of the engine has this one range.
constexpr double kMaxSeed = 4294967295.0;
inline constexpr NumberOption kSeed{
    "seed", 0, kMaxSeed, true, "a non-negative integer below 2^32 (seeds are uint32)", 1};
inline constexpr NumberOption kStream = {"stream", kSeed.min, kSeed.max, true, kSeed.what, 0};
inline constexpr NumberOption kHeads{"heads", 1, limits::kMaxHeads, true, nullptr};
inline constexpr NumberOption kRows{"rows", 1, limits::kMaxTokens, true, nullptr};
inline constexpr NumberOption kCols{"cols", 1, limits::kMaxTokens, true, nullptr};
inline constexpr NumberOption kPositions{"n", 1, limits::kMaxTokens, true, nullptr};
inline constexpr NumberOption kDims{"d", 1, limits::kMaxDim, true, nullptr};
inline constexpr NumberOption kFirstPosition{"first", 0, limits::kMaxPosition, true, nullptr, 0};
inline constexpr NumberOption kDk{"dk", 1, limits::kMaxDim, true, nullptr, 64};
inline constexpr NumberOption kSamples{"samples", 2, limits::kMaxSamples, true, nullptr, 10000};
inline constexpr NumberOption kBins{"bins", 1, limits::kMaxBins, true, nullptr, 60};
// The model width whose square root the ScaleByDModel bug divides by (heads · d_k).
inline constexpr NumberOption kBugDModel{"dModel", 1,       limits::kMaxDim* limits::kMaxHeads,
                                         true,     nullptr, 0};
inline constexpr NumberOption kFirstSample{"firstSample", 0, limits::kMaxSamples, true, nullptr, 0};

// The lesson-5 experiments (core/experiments.h, core/saturation.h).
constexpr int kMaxSweepDks = 64;    // d_k values of one saturation sweep
constexpr int kMaxSweepKeys = 256;  // keys of one saturation sweep
// varianceSample and varianceRun: a sample index, and a run's first one
inline constexpr NumberOption kSample{"sample", 0, limits::kMaxSamples - 1, true, nullptr, 0};
inline constexpr NumberOption kRunFirstSample = renamed(kSample, "firstSample");
// varianceRun.step(samples)
inline constexpr NumberOption kStepSamples{"samples", 1, limits::kMaxSamples, true, nullptr};
// mergeVariance: the samples of each chunk (a: 0 = none yet)
inline constexpr NumberOption kASamples{"aSamples", 0, limits::kMaxSamples, true, nullptr, 0};
inline constexpr NumberOption kBSamples{"bSamples", 1, limits::kMaxSamples, true, nullptr};
// queryProbe
inline constexpr NumberOption kProbeKeys{"nKeys", 2, limits::kMaxTokens, true, nullptr, 16};
inline constexpr NumberOption kTrial{"trial", 0, limits::kMaxTrials - 1, true, nullptr, 0};
// tau of a probe: any positive number here; check_temperature then names float32's range
inline constexpr NumberOption kProbeTau{"tau", 4.9406564584124654e-324, 1.7976931348623157e308,
                                        false, "a finite number > 0",   1};
inline constexpr NumberOption kGumbelSamples{"gumbelSamples", 0, limits::kMaxGumbelSamples, true,
                                             nullptr,         0};
// saturationSweep (dks: 1 to kMaxSweepDks values, each as kDk)
inline constexpr NumberOption kSweepKeys{"nKeys", 2, kMaxSweepKeys, true, nullptr, 16};
inline constexpr NumberOption kTrials{"trials", 1, limits::kMaxTrials, true, nullptr, 200};

// Tiled attention (core/flash.h). window and stride: absent = no such pattern (the fallback is
// the core's "none").
inline constexpr NumberOption kWindow{"window", 0, limits::kMaxFlashTokens, true, nullptr, -1};
inline constexpr NumberOption kStride{"stride", 1, limits::kMaxFlashTokens, true, nullptr, 0};
inline constexpr NumberOption kBlockSize{"blockSize", 1, limits::kMaxFlashBlock, true, nullptr, 64};
inline constexpr NumberOption kQueryOffset{"queryOffset", 0,       limits::kMaxFlashTokens,
                                           true,          nullptr, 0};

// LayerNorm's eps, added to each row's variance: positive, so 1 / sqrt(var + eps) is finite.
inline constexpr NumberOption kEps{"eps", 1e-30, 1, false, nullptr, 1e-5, "eps > 0"};

// ---- matrices ---------------------------------------------------------------------------------

// A matrix argument: its name and the limits of its rows and columns (engine.limits names).
struct MatrixOption {
  const char* name;
  const char* rows_limit;  // e.g. "maxTokens"
  int max_rows;
  const char* cols_limit;
  int max_cols;
};

// The table of every matrix (and vector) argument of the engine, by name; null if unknown.
const MatrixOption* matrix_option(const std::string& name);
// The option of `name` under that name (which must outlive *out); a nested argument
// ("selfAttention.Wq", "norms.1.gamma") has the limits of its last part. False if unknown.
bool nested_matrix_option(const char* name, MatrixOption* out);
// An argument `name` with an entry point's own limits (e.g. flash attention's longer
// sequences), named after the exported limit of that value when there is one.
MatrixOption matrix_option(const char* name, int max_rows, int max_cols);
// An argument `name` whose rows and columns are bounded by the exported limits of these names
// (e.g. "maxFlashTokens", "maxDim"; "one row" is 1). Unknown names allow nothing.
MatrixOption matrix_option(const char* name, const std::string& rows_limit,
                           const std::string& cols_limit);

// rows and cols within the option's limits and `count` = rows * cols numbers, checked before
// anything is allocated. Doubles, so a JS length of 2^32 - 1 is judged as it is.
Error check_size(const MatrixOption& o, double rows, double cols, double count);
// The same for a Matrix argument named `name` (see matrix_option).
Error check_size(const char* name, const Matrix& m);
// check_size, and every entry finite (or -Infinity when allow_neg_inf: a blocked score).
Error check_matrix(const char* name, const Matrix& m, bool allow_neg_inf = false);
// The same with the entry point's own row and column limits (e.g. a longer sequence).
Error check_matrix(const char* name, const Matrix& m, int max_rows, int max_cols);
// Exactly (rows, cols): "<name>: expected shape <meaning> = (r, c), got (r', c')".
Error check_shape(const char* name, const Matrix& m, int rows, int cols,
                  const char* meaning = nullptr);
// A weight or bias argument: check_matrix, then exactly (rows, cols) as check_shape says it.
Error check_weight(const std::string& name, const Matrix& m, int rows, int cols,
                   const char* meaning);
// query, key and value, the three inputs of attention: each check_matrix with at most max_tokens
// rows and limits::kMaxDim columns, in that order.
Error check_query_key_value(const Matrix& query, const Matrix& key, const Matrix& value,
                            int max_tokens = limits::kMaxTokens);
// An optional matrix argument is absent when it is (0, 0) with no data.
bool given(const Matrix& m);
// mask: absent or (n_q, n_k) of exact 0/1; key_padding: empty or n_k flags.
Error check_mask_args(const Matrix& mask, const std::vector<bool>& key_padding, int n_q, int n_k);

// randomMatrix: rows and cols (kRows, kCols), seed and stream (kSeed, kStream), scale (kScale).
Error check_random_matrix(double rows, double cols, double seed, double stream, double scale);
// randomMatrix with one stream per row: streams holds rows integers, each a valid kStream.
Error check_random_streams(double rows, const std::vector<double>& streams);

// ---- float32 range of computations that keep no matrix to look at afterwards ------------------

// Tiled attention (core/flash.h) never stores its scores, so it cannot look at them afterwards as
// attend() does: its range is checked before it runs, from each row's length (Cauchy-Schwarz:
// |q·k| <= |q| |k|, and every partial sum of the product is bounded the same way). With
// Q = max |q_i|, K = max |k_j| and V = max |v_j| entry:
//   Q K below 3.4e+38                       the products q·k          (attend's own rule)
//   2 n_k Q K / sqrt(d_k) below 3.4e+38      the online softmax: a difference of two scores,
//                                            times a running sum of up to n_k terms
//   n_k V below 3.4e+38                      the unnormalised sum Σ exp(s - m) v over n_k keys
// each with a margin for the rounding of float32 sums. Empty when all hold; otherwise the message
// names the argument, the rows and the bound.
Error check_tiled_range(const Matrix& query, const Matrix& key, const Matrix& value);

// ---- results that must stay finite ----------------------------------------------------------

// The first entry of m that is not finite, as "row r, column c"; empty when all are.
std::string first_non_finite(const Matrix& m);

// ---- the exported limits ----------------------------------------------------------------------

struct Limit {
  const char* name;  // engine.limits.<name>
  double value;
};
// Every limit the engine exports (engine.limits), in one list.
const std::vector<Limit>& exported_limits();

}  // namespace attn
