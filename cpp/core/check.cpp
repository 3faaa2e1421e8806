// The argument contract: the tables of check.h and the checks that read them.
#include "core/check.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "core/decimal.h"

namespace attn {

// ---- the error idiom --------------------------------------------------------------------------

Error expected(const std::string& name, const std::string& what, const std::string& got) {
  return name + ": expected " + what + ", got " + got;
}

// The shortest %g text that reads back as x (as a float when as_float), spelled as
// JavaScript spells exponents: 1e-7, 1e+300.
static std::string shortest(double x, bool as_float) {
  return g_text(x, shortest_digits(x, as_float));
}

std::string format_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return "0";
  if (x == std::floor(x) && std::fabs(x) < 1e21) {
    return integer_text(x);
  }
  return shortest(x, false);
}

std::string format_float(float x) {
  if (!std::isfinite(x) || x == 0) return format_number(x);
  return shortest(x, true);
}

// ---- numbers ----------------------------------------------------------------------------------

std::string expectation(const NumberOption& o) {
  std::string e = o.what ? o.what
                         : std::string(o.integer ? "an integer from " : "a number from ") +
                               format_number(o.min) + " to " + format_number(o.max);
  return o.note ? e + " (" + o.note + ")" : e;
}

Error check_number(const NumberOption& o, double x) {
  bool ok = std::isfinite(x) && x >= o.min && x <= o.max && (!o.integer || x == std::floor(x));
  return ok ? Error() : expected(o.name, expectation(o), format_number(x));
}

// ---- matrices ---------------------------------------------------------------------------------

namespace {
constexpr int kT = limits::kMaxTokens;
constexpr int kD = limits::kMaxDim;
constexpr int kH = limits::kMaxHidden;
// name, rows limit, cols limit
const MatrixOption kMatrixOptions[] = {
    {"query", "maxTokens", kT, "maxDim", kD},
    {"key", "maxTokens", kT, "maxDim", kD},
    {"value", "maxTokens", kT, "maxDim", kD},
    {"x", "maxTokens", kT, "maxDim", kD},
    {"scores", "maxTokens", kT, "maxTokens", kT},
    {"mask", "maxTokens", kT, "maxTokens", kT},
    {"W", "maxDim", kD, "maxDim", kD},
    {"Wq", "maxDim", kD, "maxDim", kD},
    {"Wk", "maxDim", kD, "maxDim", kD},
    {"Wv", "maxDim", kD, "maxDim", kD},
    {"Wo", "maxDim", kD, "maxDim", kD},
    {"general.W", "maxDim", kD, "maxDim", kD},
    {"additive.Wq", "maxDim", kD, "maxDim", kD},
    {"additive.Wk", "maxDim", kD, "maxDim", kD},
    {"additive.v", "one row", 1, "maxDim", kD},
    {"b", "one row", 1, "maxDim", kD},
    {"bq", "one row", 1, "maxDim", kD},
    {"bk", "one row", 1, "maxDim", kD},
    {"bv", "one row", 1, "maxDim", kD},
    {"bo", "one row", 1, "maxDim", kD},
    {"p", "one row", 1, "maxTokens", kT},
    {"keyPadding", "one row", 1, "maxTokens", kT},
    {"logits", "maxTokens", kT, "maxTokens", kT},
    {"weights", "maxTokens", kT, "maxTokens", kT},
    // the Transformer block: feed-forward, LayerNorm, the decoder's memory, the RNN encoder
    {"memory", "maxTokens", kT, "maxDim", kD},
    {"memoryKeyPadding", "one row", 1, "maxTokens", kT},
    {"W1", "maxHidden", kH, "maxDim", kD},
    {"W2", "maxDim", kD, "maxHidden", kH},
    {"b1", "one row", 1, "maxHidden", kH},
    {"b2", "one row", 1, "maxDim", kD},
    {"gamma", "one row", 1, "maxDim", kD},
    {"beta", "one row", 1, "maxDim", kD},
    {"Wih", "maxHidden", kH, "maxDim", kD},
    {"Whh", "maxHidden", kH, "maxDim", kD},
    {"bih", "one row", 1, "maxHidden", kH},
    {"bhh", "one row", 1, "maxHidden", kH},
    {"h0", "one row", 1, "maxDim", kD},
};

std::string shape_text(int rows, int cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

// "expected 1 to 2048 rows (engine.limits.maxTokens)"; no limit name when limit is empty
std::string count_text(int max, const char* what, const char* limit) {
  std::string s = "1 to " + std::to_string(max) + " " + what;
  if (max > 1 && limit[0] != '\0') s += std::string(" (engine.limits.") + limit + ")";
  return s;
}

// The first rows-or-columns limit named in kMatrixOptions with this value; "" if none.
const char* limit_name(int max) {
  if (max == kT) return "maxTokens";
  if (max == kD) return "maxDim";
  return "";
}
}  // namespace

const MatrixOption* matrix_option(const std::string& name) {
  for (const MatrixOption& o : kMatrixOptions) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

bool nested_matrix_option(const char* name, MatrixOption* out) {
  const MatrixOption* exact = matrix_option(name);
  const char* dot = std::strrchr(name, '.');
  const MatrixOption* last = exact ? exact : dot ? matrix_option(dot + 1) : nullptr;
  if (!last) return false;
  *out = *last;
  out->name = name;  // "selfAttention.Wq": the limits of "Wq" under the caller's name
  return true;
}

Error check_size(const MatrixOption& o, double rows, double cols, double count) {
  if (!(rows >= 1 && rows <= o.max_rows) || rows != std::floor(rows)) {
    return expected(o.name, count_text(o.max_rows, "rows", o.rows_limit), format_number(rows));
  }
  if (!(cols >= 1 && cols <= o.max_cols) || cols != std::floor(cols)) {
    return expected(o.name, count_text(o.max_cols, "columns", o.cols_limit), format_number(cols));
  }
  if (count != rows * cols) {
    return expected(o.name,
                    format_number(rows * cols) + " numbers for " + format_number(rows) +
                        " rows x " + format_number(cols) + " columns",
                    format_number(count));
  }
  return {};
}

Error check_size(const char* name, const Matrix& m) {
  MatrixOption o{name, "maxTokens", kT, "maxTokens", kT};  // an unnamed argument
  nested_matrix_option(name, &o);
  return check_size(o, m.rows, m.cols, static_cast<double>(m.data.size()));
}

// Every entry finite (or -Infinity when allow_neg_inf), in one tight pass.
static Error check_entries(const char* name, const Matrix& m, bool allow_neg_inf) {
  // one tight pass: x - x is 0 for every finite x and NaN otherwise
  const float* d = m.data.data();
  std::size_t n = m.data.size(), bad = n;
  for (std::size_t i = 0; i < n; i++) {
    if (d[i] - d[i] != 0.0f &&
        !(allow_neg_inf && d[i] == -std::numeric_limits<float>::infinity())) {
      bad = i;
      break;
    }
  }
  if (bad == n) return {};
  std::size_t cols = static_cast<std::size_t>(m.cols);
  return std::string(name) + ": row " + std::to_string(bad / cols) + ", column " +
         std::to_string(bad % cols) + " is " + format_float(d[bad]) +
         (allow_neg_inf ? " (expected finite numbers or -Infinity)" : " (expected finite numbers)");
}

Error check_matrix(const char* name, const Matrix& m, bool allow_neg_inf) {
  Error e = check_size(name, m);
  return e.empty() ? check_entries(name, m, allow_neg_inf) : e;
}

MatrixOption matrix_option(const char* name, int max_rows, int max_cols) {
  return MatrixOption{name, limit_name(max_rows), max_rows, limit_name(max_cols), max_cols};
}

// The exported limit named `limit` (its name as the table spells it, and its value).
static const Limit* find_limit(const std::string& limit) {
  for (const Limit& l : exported_limits()) {
    if (limit == l.name) return &l;
  }
  return nullptr;
}

MatrixOption matrix_option(const char* name, const std::string& rows_limit,
                           const std::string& cols_limit) {
  static const Limit one_row{"one row", 1}, none{"", 0};
  auto find = [](const std::string& limit) {
    const Limit* l = limit == one_row.name ? &one_row : find_limit(limit);
    return l ? l : &none;
  };
  const Limit* rows = find(rows_limit);
  const Limit* cols = find(cols_limit);
  return MatrixOption{name, rows->name, static_cast<int>(rows->value), cols->name,
                      static_cast<int>(cols->value)};
}

Error check_matrix(const char* name, const Matrix& m, int max_rows, int max_cols) {
  MatrixOption o = matrix_option(name, max_rows, max_cols);
  Error e = check_size(o, m.rows, m.cols, static_cast<double>(m.data.size()));
  return e.empty() ? check_entries(name, m, false) : e;
}

Error check_shape(const char* name, const Matrix& m, int rows, int cols, const char* meaning) {
  if (m.rows == rows && m.cols == cols) return {};
  std::string what =
      "shape " + (meaning ? std::string(meaning) + " = " : std::string()) + shape_text(rows, cols);
  return expected(name, what, shape_text(m.rows, m.cols));
}

Error check_weight(const std::string& name, const Matrix& m, int rows, int cols,
                   const char* meaning) {
  Error e = check_matrix(name.c_str(), m);
  return e.empty() ? check_shape(name.c_str(), m, rows, cols, meaning) : e;
}

Error check_query_key_value(const Matrix& query, const Matrix& key, const Matrix& value,
                            int max_tokens) {
  Error e = check_matrix("query", query, max_tokens, kD);
  if (e.empty()) e = check_matrix("key", key, max_tokens, kD);
  if (e.empty()) e = check_matrix("value", value, max_tokens, kD);
  return e;
}

bool given(const Matrix& m) { return m.rows != 0 || m.cols != 0 || !m.data.empty(); }

Error check_mask_args(const Matrix& mask, const std::vector<bool>& key_padding, int n_q, int n_k) {
  if (given(mask)) {
    Error e = check_size("mask", mask);
    if (e.empty()) e = check_shape("mask", mask, n_q, n_k, "(n_q, n_k)");
    if (!e.empty()) return e;
    for (std::size_t c = 0; c < mask.data.size(); c++) {
      float v = mask.data[c];
      if (v != 0.0f && v != 1.0f) {
        return "mask: row " + std::to_string(c / n_k) + ", column " + std::to_string(c % n_k) +
               " is " + format_float(v) + " (expected 0 = blocked or 1 = may attend)";
      }
    }
  }
  if (!key_padding.empty() && key_padding.size() != static_cast<std::size_t>(n_k)) {
    return expected("keyPadding", std::to_string(n_k) + " flags (one per key, n_k)",
                    std::to_string(key_padding.size()));
  }
  return {};
}

Error check_random_matrix(double rows, double cols, double seed, double stream, double scale) {
  Error e = check_number(kRows, rows);
  if (e.empty()) e = check_number(kCols, cols);
  if (e.empty()) e = check_number(kSeed, seed);
  if (e.empty()) e = check_number(kStream, stream);
  if (e.empty()) e = check_number(kScale, scale);
  return e;
}

Error check_random_streams(double rows, const std::vector<double>& streams) {
  if (static_cast<double>(streams.size()) != rows)
    return "streams: expected one stream per row (" + format_number(rows) + "), got " +
           std::to_string(streams.size());
  for (std::size_t i = 0; i < streams.size(); ++i) {
    if (!check_number(kStream, streams[i]).empty())
      return "streams[" + std::to_string(i) + "]: expected " + expectation(kStream) + ", got " +
             format_number(streams[i]);
  }
  return {};
}

// ---- float32 range of tiled attention ---------------------------------------------------------

namespace {
// The row of m with the largest Euclidean length, and that length (in double: no overflow).
std::pair<int, double> longest_row(const Matrix& m) {
  std::pair<int, double> best{0, 0.0};
  for (int i = 0; i < m.rows; i++) {
    const float* r = m.row(i);
    double sum = 0;
    for (int c = 0; c < m.cols; c++) sum += static_cast<double>(r[c]) * r[c];
    if (sum > best.second) best = {i, sum};
  }
  best.second = std::sqrt(best.second);
  return best;
}

// The largest |entry| of m.
double largest_entry(const Matrix& m) {
  double big = 0;
  for (float x : m.data) big = std::fmax(big, std::fabs(static_cast<double>(x)));
  return big;
}

constexpr double kProductMargin = 1.001;  // rounding of a float32 dot product of <= 1024 terms
constexpr double kSumMargin = 1.01;       // ... and of a float32 sum of <= 16384 terms
}  // namespace

Error check_tiled_range(const Matrix& query, const Matrix& key, const Matrix& value) {
  const auto [qi, q] = longest_row(query);  // Q = |q_qi|
  const auto [kj, k] = longest_row(key);    // K = |k_kj|
  const double n_k = key.rows;
  const std::string where = " at query " + std::to_string(qi) + ", key " + std::to_string(kj);
  if (q * k * kProductMargin >= kFloatMax) {
    return "query: q·k overflows float32" + where +
           " (expected |q| |k| below 3.4e+38 for every query and key row)";
  }
  const double spread = 2 * n_k * q * k / std::sqrt(static_cast<double>(key.cols));
  if (spread * kProductMargin >= kFloatMax) {
    const double bound = round_to_digits(kFloatMax / (2 * n_k) / kProductMargin * 0.995, 3);
    return "query: q·k / sqrt(d_k) is too large for the online softmax" + where +
           " (expected |q| |k| / sqrt(d_k) below 3.4e+38 / (2 n_k) = " + format_number(bound) +
           " for " + format_number(n_k) + " keys)";
  }
  const double v = largest_entry(value);
  if (n_k * v * kSumMargin >= kFloatMax) {
    const double bound = round_to_digits(kFloatMax / n_k / kSumMargin * 0.995, 3);
    return "value: the tiled weighted sum overflows float32 (expected |value| entries below "
           "3.4e+38 / n_k = " +
           format_number(bound) + " for " + format_number(n_k) + " keys, got " +
           format_float(static_cast<float>(v)) + ")";
  }
  return {};
}

// ---- results ----------------------------------------------------------------------------------

std::string first_non_finite(const Matrix& m) {
  for (std::size_t c = 0; c < m.data.size(); c++) {
    if (!std::isfinite(m.data[c])) {
      return "row " + std::to_string(c / m.cols) + ", column " + std::to_string(c % m.cols);
    }
  }
  return {};
}

// ---- the exported limits ----------------------------------------------------------------------

const std::vector<Limit>& exported_limits() {
  static const std::vector<Limit> all = {
      {"maxTokens", limits::kMaxTokens},
      {"maxDim", limits::kMaxDim},
      {"maxHeads", limits::kMaxHeads},
      {"maxSamples", limits::kMaxSamples},
      {"maxBins", limits::kMaxBins},
      {"maxTrials", limits::kMaxTrials},
      {"maxHeadCells", limits::kMaxHeadCells},
      {"maxPosition", limits::kMaxPosition},
      {"maxSweepDks", kMaxSweepDks},
      {"maxSweepKeys", kMaxSweepKeys},
      {"minTemperature", kMinScale},
      {"maxTemperature", kMaxScale},
      {"maxScale", kMaxScale},
      {"maxFlashTokens", limits::kMaxFlashTokens},
      {"maxFlashBlock", limits::kMaxFlashBlock},
      {"maxTraceTokens", limits::kMaxTraceTokens},
      {"maxHidden", limits::kMaxHidden},
      {"maxGumbelSamples", limits::kMaxGumbelSamples},
      {"maxSeed", kMaxSeed},
      {"largeNegativeFill", kLargeNegativeFill},
  };
  return all;
}

}  // namespace attn
