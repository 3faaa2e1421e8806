// An independent double-precision reference for every stage of the pipeline, written plainly
// from the maths. It never calls the code under test: the tests compare the float32 engine
// against these numbers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/matrix.h"

namespace ref {

using Mat = std::vector<std::vector<double>>;  // row-major, Mat[i][j]
constexpr double kInf = std::numeric_limits<double>::infinity();

inline Mat zeros(int rows, int cols) { return Mat(rows, std::vector<double>(cols, 0.0)); }

inline Mat from(const attn::Matrix& m) {
  Mat out = zeros(m.rows, m.cols);
  for (int i = 0; i < m.rows; i++)
    for (int j = 0; j < m.cols; j++) out[i][j] = m.data[static_cast<std::size_t>(i) * m.cols + j];
  return out;
}

// Test inputs: uniform numbers in [lo, hi) from a fixed-seed Mersenne twister.
inline attn::Matrix random_matrix(int rows, int cols, std::uint32_t seed, double lo = -1.0,
                                  double hi = 1.0) {
  std::mt19937 gen(seed);
  attn::Matrix m(rows, cols);
  for (float& x : m.data) x = static_cast<float>(lo + (hi - lo) * (gen() / 4294967296.0));
  return m;
}

// ---- linear algebra -------------------------------------------------------------------------

inline Mat matmul(const Mat& a, const Mat& b) {  // (m, k) x (k, n)
  Mat c = zeros(static_cast<int>(a.size()), static_cast<int>(b[0].size()));
  for (std::size_t i = 0; i < a.size(); i++)
    for (std::size_t j = 0; j < b[0].size(); j++) {
      double s = 0;
      for (std::size_t t = 0; t < b.size(); t++) s += a[i][t] * b[t][j];
      c[i][j] = s;
    }
  return c;
}

inline Mat transpose(const Mat& a) {
  Mat t = zeros(static_cast<int>(a[0].size()), static_cast<int>(a.size()));
  for (std::size_t i = 0; i < a.size(); i++)
    for (std::size_t j = 0; j < a[0].size(); j++) t[j][i] = a[i][j];
  return t;
}

// y = x Wᵀ + b
inline Mat linear(const Mat& x, const Mat& w, const std::vector<double>& b) {
  Mat y = matmul(x, transpose(w));
  for (auto& row : y)
    for (std::size_t o = 0; o < row.size() && !b.empty(); o++) row[o] += b[o];
  return y;
}

// ---- stage 1-2: scores ----------------------------------------------------------------------

inline Mat dot_scores(const Mat& q, const Mat& k) { return matmul(q, transpose(k)); }

inline Mat divide(const Mat& s, double by) {
  Mat out = s;
  for (auto& row : out)
    for (double& x : row) x /= by;
  return out;
}

// score_ij = Σ_t v_t tanh((Wq q_i)_t + (Wk k_j)_t)
inline Mat additive_scores(const Mat& q, const Mat& k, const Mat& wq, const Mat& wk,
                           const std::vector<double>& v) {
  Mat s = zeros(static_cast<int>(q.size()), static_cast<int>(k.size()));
  for (std::size_t i = 0; i < q.size(); i++)
    for (std::size_t j = 0; j < k.size(); j++) {
      double total = 0;
      for (std::size_t t = 0; t < v.size(); t++) {
        double a = 0, b = 0;
        for (std::size_t c = 0; c < q[i].size(); c++) a += wq[t][c] * q[i][c];
        for (std::size_t c = 0; c < k[j].size(); c++) b += wk[t][c] * k[j][c];
        total += v[t] * std::tanh(a + b);
      }
      s[i][j] = total;
    }
  return s;
}

// score_ij = Σ_a Σ_b q_ia W_ab k_jb
inline Mat general_scores(const Mat& q, const Mat& k, const Mat& w) {
  Mat s = zeros(static_cast<int>(q.size()), static_cast<int>(k.size()));
  for (std::size_t i = 0; i < q.size(); i++)
    for (std::size_t j = 0; j < k.size(); j++) {
      double total = 0;
      for (std::size_t a = 0; a < w.size(); a++)
        for (std::size_t b = 0; b < w[0].size(); b++) total += q[i][a] * w[a][b] * k[j][b];
      s[i][j] = total;
    }
  return s;
}

// ---- stage 3: masks -------------------------------------------------------------------------

// 1 = may attend. explicit_mask empty = none; key_padding empty = none.
inline Mat mask(int n_q, int n_k, const Mat& explicit_mask, bool causal,
                const std::vector<bool>& key_padding) {
  Mat m = zeros(n_q, n_k);
  for (int i = 0; i < n_q; i++)
    for (int j = 0; j < n_k; j++) {
      bool ok = true;
      if (!explicit_mask.empty() && explicit_mask[i][j] == 0) ok = false;
      if (causal && j > i) ok = false;
      if (!key_padding.empty() && key_padding[j]) ok = false;
      m[i][j] = ok ? 1 : 0;
    }
  return m;
}

inline Mat apply_mask(const Mat& s, const Mat& m, double fill) {
  Mat out = s;
  for (std::size_t i = 0; i < s.size(); i++)
    for (std::size_t j = 0; j < s[i].size(); j++)
      if (m[i][j] == 0) out[i][j] = fill;
  return out;
}

// ---- stage 4: softmax -----------------------------------------------------------------------

// In double, with the max subtracted; a row that is all -inf gives zeros.
inline Mat softmax(const Mat& s) {
  Mat w = s;
  for (auto& row : w) {
    double mx = -kInf;
    for (double x : row) mx = std::max(mx, x);
    if (mx == -kInf) {
      for (double& x : row) x = 0;
      continue;
    }
    double sum = 0;
    for (double& x : row) sum += (x = std::exp(x - mx));
    for (double& x : row) x /= sum;
  }
  return w;
}

inline std::vector<double> entropy(const Mat& w) {
  std::vector<double> h;
  for (const auto& row : w) {
    double e = 0;
    for (double x : row)
      if (x > 0) e -= x * std::log(x);
    h.push_back(e);
  }
  return h;
}

// J_ij = p_i (δ_ij - p_j)
inline Mat jacobian(const std::vector<double>& p) {
  int n = static_cast<int>(p.size());
  Mat j = zeros(n, n);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) j[a][b] = p[a] * ((a == b ? 1.0 : 0.0) - p[b]);
  return j;
}

// softmax((s - log(-log u)) / tau), for given uniform draws u
inline Mat gumbel_softmax(const Mat& s, double tau, const Mat& u) {
  Mat z = s;
  for (std::size_t i = 0; i < s.size(); i++)
    for (std::size_t j = 0; j < s[i].size(); j++)
      z[i][j] = (s[i][j] - std::log(-std::log(u[i][j]))) / tau;
  return softmax(z);
}

// ---- the whole pipeline ---------------------------------------------------------------------

struct Attention {
  Mat scores, scaled, mask, masked, weights, output;
  std::vector<double> entropy;
};

// kind: 0 dot, 1 scaled dot, 2 additive, 3 general; fill: the value blocked cells get.
struct AttendInput {
  Mat q, k, v;
  int kind = 1;
  Mat explicit_mask;
  bool causal = false;
  std::vector<bool> key_padding;
  double fill = -kInf;
  double temperature = 1;
  Mat additive_wq, additive_wk;
  std::vector<double> additive_v;
  Mat general_w;
};

inline Attention attend(const AttendInput& in) {
  Attention r;
  int n_q = static_cast<int>(in.q.size()), n_k = static_cast<int>(in.k.size());
  if (in.kind == 0 || in.kind == 1) r.scores = dot_scores(in.q, in.k);
  if (in.kind == 2)
    r.scores = additive_scores(in.q, in.k, in.additive_wq, in.additive_wk, in.additive_v);
  if (in.kind == 3) r.scores = general_scores(in.q, in.k, in.general_w);
  double d_k = static_cast<double>(in.k[0].size());
  r.scaled = divide(r.scores, (in.kind == 1 ? std::sqrt(d_k) : 1.0) * in.temperature);
  r.mask = mask(n_q, n_k, in.explicit_mask, in.causal, in.key_padding);
  r.masked = apply_mask(r.scaled, r.mask, in.fill);
  r.weights = softmax(r.masked);
  r.output = matmul(r.weights, in.v);
  r.entropy = entropy(r.weights);
  return r;
}

// ---- multi-head (torch.nn.MultiheadAttention) -----------------------------------------------

struct MultiHead {
  std::vector<Attention> heads;
  Mat concat, output;
};

inline Mat columns(const Mat& m, int first, int count) {
  Mat out = zeros(static_cast<int>(m.size()), count);
  for (std::size_t i = 0; i < m.size(); i++)
    for (int c = 0; c < count; c++) out[i][c] = m[i][first + c];
  return out;
}

inline MultiHead multi_head(const Mat& query, const Mat& key, const Mat& value, int heads,
                            const Mat& wq, const Mat& wk, const Mat& wv, const Mat& wo,
                            const std::vector<double>& bq, const std::vector<double>& bk,
                            const std::vector<double>& bv, const std::vector<double>& bo,
                            const Mat& explicit_mask, bool causal,
                            const std::vector<bool>& key_padding) {
  MultiHead r;
  Mat q = linear(query, wq, bq), k = linear(key, wk, bk), v = linear(value, wv, bv);
  int d_model = static_cast<int>(wq.size()), d_head = d_model / heads;
  r.concat = zeros(static_cast<int>(query.size()), d_model);
  for (int h = 0; h < heads; h++) {
    AttendInput in;
    in.q = columns(q, h * d_head, d_head);
    in.k = columns(k, h * d_head, d_head);
    in.v = columns(v, h * d_head, d_head);
    in.explicit_mask = explicit_mask;
    in.causal = causal;
    in.key_padding = key_padding;
    r.heads.push_back(attend(in));
    for (std::size_t i = 0; i < query.size(); i++)
      for (int c = 0; c < d_head; c++) r.concat[i][h * d_head + c] = r.heads.back().output[i][c];
  }
  r.output = linear(r.concat, wo, bo);
  return r;
}

// ---- positions ------------------------------------------------------------------------------

inline Mat sinusoidal(int n, int d, double base) {
  Mat pe = zeros(n, d);
  for (int p = 0; p < n; p++)
    for (int i = 0; 2 * i < d; i++) {
      double angle = p / std::pow(base, 2.0 * i / d);
      pe[p][2 * i] = std::sin(angle);
      if (2 * i + 1 < d) pe[p][2 * i + 1] = std::cos(angle);
    }
  return pe;
}

inline Mat rope(const Mat& x, int first, double base) {
  Mat out = x;
  int d = static_cast<int>(x[0].size());
  for (std::size_t r = 0; r < x.size(); r++)
    for (int i = 0; 2 * i < d; i++) {
      double theta = (first + static_cast<double>(r)) * std::pow(base, -2.0 * i / d);
      double a = x[r][2 * i], b = x[r][2 * i + 1];
      out[r][2 * i] = a * std::cos(theta) - b * std::sin(theta);
      out[r][2 * i + 1] = a * std::sin(theta) + b * std::cos(theta);
    }
  return out;
}

// ---- comparing ------------------------------------------------------------------------------

// float32 against double: |got - want| <= tol * (1 + |want|). Returns how many cells differ
// (and, through `where`, the first one) so a test can print it.
inline int count_mismatches(const attn::Matrix& got, const Mat& want, double tol,
                            std::string* where = nullptr) {
  if (static_cast<int>(want.size()) != got.rows) return -1;
  int bad = 0;
  for (int i = 0; i < got.rows; i++) {
    if (static_cast<int>(want[i].size()) != got.cols) return -1;
    for (int j = 0; j < got.cols; j++) {
      double g = got.data[static_cast<std::size_t>(i) * got.cols + j], w = want[i][j];
      bool same = (std::isinf(w) && g == w) || std::fabs(g - w) <= tol * (1 + std::fabs(w));
      if (!same) {
        if (bad == 0 && where)
          *where = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " +
                   std::to_string(g) + ", want " + std::to_string(w);
        bad++;
      }
    }
  }
  return bad;
}

// The same as a gtest assertion result, with the first differing cell in the message.
inline ::testing::AssertionResult matrix_near(const attn::Matrix& got, const Mat& want,
                                              double tol) {
  std::string where;
  int bad = count_mismatches(got, want, tol, &where);
  if (bad == 0) return ::testing::AssertionSuccess();
  if (bad < 0) return ::testing::AssertionFailure() << "shapes differ";
  return ::testing::AssertionFailure() << bad << " cells differ, first at " << where;
}

}  // namespace ref

// EXPECT that a float32 matrix matches a double reference within tol (more text may follow <<).
#define EXPECT_MATRIX_NEAR(got, want, tol) EXPECT_TRUE(ref::matrix_near((got), (want), (tol)))
