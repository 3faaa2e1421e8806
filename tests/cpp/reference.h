// An independent double-precision reference for every stage of the pipeline, written with
// Eigen from the maths (defined in reference.cpp, compiled once for every test that uses it). It
// never calls the code under test: the tests compare the float32 engine against these numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "core/matrix.h"

namespace ref {

// A double matrix, m(i, j); m[i] is a copy of row i, for the tests that read one.
struct Mat : Eigen::MatrixXd {
  Mat() = default;
  Mat(Eigen::Index rows, Eigen::Index cols) : Eigen::MatrixXd(Eigen::MatrixXd::Zero(rows, cols)) {}
  template <class E>
  Mat(const Eigen::MatrixBase<E>& e) : Eigen::MatrixXd(e) {}
  template <class E>
  Mat(const Eigen::ArrayBase<E>& e) : Eigen::MatrixXd(e.matrix()) {}
  template <class E>
  Mat& operator=(const Eigen::MatrixBase<E>& e) {
    Eigen::MatrixXd::operator=(e);
    return *this;
  }
  std::vector<double> operator[](Eigen::Index i) const {
    std::vector<double> r(cols());
    for (Eigen::Index j = 0; j < cols(); ++j) r[j] = (*this)(i, j);
    return r;
  }
  bool empty() const { return size() == 0; }
  // resize(n) keeps the first n rows (tests cut a sequence short); resize(r, c) is Eigen's.
  using Eigen::MatrixXd::resize;
  void resize(Eigen::Index rows) { *this = Mat(topRows(rows)); }
};
using Vec = Eigen::VectorXd;
constexpr double kInf = std::numeric_limits<double>::infinity();

Mat from(const attn::Matrix& m);

Vec vec(const std::vector<double>& v);

// Test inputs: uniform numbers in [lo, hi) from a fixed-seed Mersenne twister.
attn::Matrix random_matrix(int rows, int cols, std::uint32_t seed, double lo = -1.0,
                           double hi = 1.0);

// ---- linear algebra -------------------------------------------------------------------------

Mat matmul(const Mat& a, const Mat& b);  // (m, k) x (k, n)
Mat transpose(const Mat& a);

// y = x Wᵀ + b
Mat linear(const Mat& x, const Mat& w, const std::vector<double>& b);

// ---- stage 1-2: scores ----------------------------------------------------------------------

Mat dot_scores(const Mat& q, const Mat& k);
Mat divide(const Mat& s, double by);

// score_ij = Σ_t v_t tanh((Wq q_i)_t + (Wk k_j)_t)
Mat additive_scores(const Mat& q, const Mat& k, const Mat& wq, const Mat& wk,
                    const std::vector<double>& v);

// score_ij = q_i W k_jᵀ
Mat general_scores(const Mat& q, const Mat& k, const Mat& w);

// ---- stage 3: masks -------------------------------------------------------------------------

// 1 = may attend. explicit_mask empty = none; key_padding empty = none.
Mat mask(int n_q, int n_k, const Mat& explicit_mask, bool causal,
         const std::vector<bool>& key_padding);

Mat apply_mask(const Mat& s, const Mat& m, double fill);

// ---- stage 4: softmax -----------------------------------------------------------------------

// In double, with the max subtracted; a row that is all -inf gives zeros.
Mat softmax(const Mat& s);

std::vector<double> entropy(const Mat& w);

// J = diag(p) - p pᵀ
Mat jacobian(const std::vector<double>& p);

// softmax((s - log(-log u)) / tau), for given uniform draws u
Mat gumbel_softmax(const Mat& s, double tau, const Mat& u);

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

Attention attend(const AttendInput& in);

// ---- multi-head (torch.nn.MultiheadAttention) -----------------------------------------------

struct MultiHead {
  std::vector<Attention> heads;
  Mat concat, output;
};

MultiHead multi_head(const Mat& query, const Mat& key, const Mat& value, int heads, const Mat& wq,
                     const Mat& wk, const Mat& wv, const Mat& wo, const std::vector<double>& bq,
                     const std::vector<double>& bk, const std::vector<double>& bv,
                     const std::vector<double>& bo, const Mat& explicit_mask, bool causal,
                     const std::vector<bool>& key_padding);

// ---- positions ------------------------------------------------------------------------------

Mat sinusoidal(int n, int d, double base);

// Row r rotated pair by pair: (a, b) -> R(theta) (a, b), theta = (first + r) base^(-2i/d).
Mat rope(const Mat& x, int first, double base);

// ---- comparing ------------------------------------------------------------------------------

// float32 against double: |got - want| <= tol * (1 + |want|). Returns how many cells differ
// (and, through `where`, the first one) so a test can print it; -1 when the shapes differ.
int count_mismatches(const attn::Matrix& got, const Mat& want, double tol,
                     std::string* where = nullptr);

// The same as a gtest assertion result, with the first differing cell in the message.
::testing::AssertionResult matrix_near(const attn::Matrix& got, const Mat& want, double tol);

}  // namespace ref

// EXPECT that a float32 matrix matches a double reference within tol (more text may follow <<).
#define EXPECT_MATRIX_NEAR(got, want, tol) EXPECT_TRUE(ref::matrix_near((got), (want), (tol)))
