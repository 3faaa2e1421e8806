// The double-precision reference of reference.h.
#include "reference.h"

namespace ref {

Mat from(const attn::Matrix& m) {
  Mat out(m.rows, m.cols);
  for (int i = 0; i < m.rows; i++)
    for (int j = 0; j < m.cols; j++) out(i, j) = m.data[static_cast<std::size_t>(i) * m.cols + j];
  return out;
}

Vec vec(const std::vector<double>& v) { return Eigen::Map<const Vec>(v.data(), v.size()); }

attn::Matrix random_matrix(int rows, int cols, std::uint32_t seed, double lo, double hi) {
  std::mt19937 gen(seed);
  attn::Matrix m(rows, cols);
  for (float& x : m.data) x = static_cast<float>(lo + (hi - lo) * (gen() / 4294967296.0));
  return m;
}

Mat matmul(const Mat& a, const Mat& b) { return a * b; }
Mat transpose(const Mat& a) { return a.transpose(); }

Mat linear(const Mat& x, const Mat& w, const std::vector<double>& b) {
  Mat y = x * w.transpose();
  if (!b.empty()) y.rowwise() += vec(b).transpose();
  return y;
}

Mat dot_scores(const Mat& q, const Mat& k) { return q * k.transpose(); }

Mat divide(const Mat& s, double by) { return s / by; }

Mat additive_scores(const Mat& q, const Mat& k, const Mat& wq, const Mat& wk,
                    const std::vector<double>& v) {
  const Mat a = q * wq.transpose(), b = k * wk.transpose();  // (n_q, h), (n_k, h)
  Mat s(q.rows(), k.rows());
  for (Eigen::Index i = 0; i < q.rows(); i++)
    for (Eigen::Index j = 0; j < k.rows(); j++)
      s(i, j) = (a.row(i) + b.row(j)).array().tanh().matrix().dot(vec(v).transpose());
  return s;
}

Mat general_scores(const Mat& q, const Mat& k, const Mat& w) { return q * w * k.transpose(); }

Mat mask(int n_q, int n_k, const Mat& explicit_mask, bool causal,
         const std::vector<bool>& key_padding) {
  Mat m = Mat::Ones(n_q, n_k);
  for (int i = 0; i < n_q; i++)
    for (int j = 0; j < n_k; j++) {
      if ((!explicit_mask.empty() && explicit_mask(i, j) == 0) || (causal && j > i) ||
          (!key_padding.empty() && key_padding[j]))
        m(i, j) = 0;
    }
  return m;
}

Mat apply_mask(const Mat& s, const Mat& m, double fill) {
  return (m.array() == 0).select(Eigen::ArrayXXd::Constant(s.rows(), s.cols(), fill), s.array());
}

Mat softmax(const Mat& s) {
  Mat w = Mat::Zero(s.rows(), s.cols());
  for (Eigen::Index i = 0; i < s.rows(); i++) {
    const double mx = s.row(i).maxCoeff();
    if (mx == -kInf) continue;
    w.row(i) = (s.row(i).array() - mx).exp().matrix();
    w.row(i) /= w.row(i).sum();
  }
  return w;
}

std::vector<double> entropy(const Mat& w) {
  std::vector<double> h;
  for (Eigen::Index i = 0; i < w.rows(); i++) {
    double e = 0;
    for (double x : w.row(i))
      if (x > 0) e -= x * std::log(x);
    h.push_back(e);
  }
  return h;
}

Mat jacobian(const std::vector<double>& p) {
  const Vec v = vec(p);
  return Eigen::MatrixXd(v.asDiagonal()) - v * v.transpose();
}

Mat gumbel_softmax(const Mat& s, double tau, const Mat& u) {
  return softmax((s.array() - (-u.array().log()).log()) / tau);
}

Attention attend(const AttendInput& in) {
  Attention r;
  if (in.kind == 0 || in.kind == 1) r.scores = dot_scores(in.q, in.k);
  if (in.kind == 2)
    r.scores = additive_scores(in.q, in.k, in.additive_wq, in.additive_wk, in.additive_v);
  if (in.kind == 3) r.scores = general_scores(in.q, in.k, in.general_w);
  const double d_k = static_cast<double>(in.k.cols());
  r.scaled = r.scores / ((in.kind == 1 ? std::sqrt(d_k) : 1.0) * in.temperature);
  r.mask = mask(static_cast<int>(in.q.rows()), static_cast<int>(in.k.rows()), in.explicit_mask,
                in.causal, in.key_padding);
  r.masked = apply_mask(r.scaled, r.mask, in.fill);
  r.weights = softmax(r.masked);
  r.output = r.weights * in.v;
  r.entropy = entropy(r.weights);
  return r;
}

MultiHead multi_head(const Mat& query, const Mat& key, const Mat& value, int heads, const Mat& wq,
                     const Mat& wk, const Mat& wv, const Mat& wo, const std::vector<double>& bq,
                     const std::vector<double>& bk, const std::vector<double>& bv,
                     const std::vector<double>& bo, const Mat& explicit_mask, bool causal,
                     const std::vector<bool>& key_padding) {
  MultiHead r;
  const Mat q = linear(query, wq, bq), k = linear(key, wk, bk), v = linear(value, wv, bv);
  const Eigen::Index d_model = wq.rows(), d_head = d_model / heads;
  r.concat = Mat(query.rows(), d_model);
  for (int h = 0; h < heads; h++) {
    AttendInput in;
    in.q = q.middleCols(h * d_head, d_head);
    in.k = k.middleCols(h * d_head, d_head);
    in.v = v.middleCols(h * d_head, d_head);
    in.explicit_mask = explicit_mask;
    in.causal = causal;
    in.key_padding = key_padding;
    r.heads.push_back(attend(in));
    r.concat.middleCols(h * d_head, d_head) = r.heads.back().output;
  }
  r.output = linear(r.concat, wo, bo);
  return r;
}

Mat sinusoidal(int n, int d, double base) {
  Mat pe(n, d);
  for (int p = 0; p < n; p++)
    for (int i = 0; 2 * i < d; i++) {
      const double angle = p / std::pow(base, 2.0 * i / d);
      pe(p, 2 * i) = std::sin(angle);
      if (2 * i + 1 < d) pe(p, 2 * i + 1) = std::cos(angle);
    }
  return pe;
}

Mat rope(const Mat& x, int first, double base) {
  Mat out = x;
  const Eigen::Index d = x.cols();
  for (Eigen::Index r = 0; r < x.rows(); r++)
    for (Eigen::Index i = 0; 2 * i < d; i++) {
      const double theta = (first + static_cast<double>(r)) * std::pow(base, -2.0 * i / d);
      out.block<1, 2>(r, 2 * i) =
          x.block<1, 2>(r, 2 * i) * Eigen::Rotation2Dd(theta).toRotationMatrix().transpose();
    }
  return out;
}

int count_mismatches(const attn::Matrix& got, const Mat& want, double tol, std::string* where) {
  if (want.rows() != got.rows || want.cols() != got.cols) return -1;
  int bad = 0;
  for (int i = 0; i < got.rows; i++)
    for (int j = 0; j < got.cols; j++) {
      const double g = got.data[static_cast<std::size_t>(i) * got.cols + j], w = want(i, j);
      const bool same = (std::isinf(w) && g == w) || std::fabs(g - w) <= tol * (1 + std::fabs(w));
      if (!same && bad++ == 0 && where)
        *where = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " +
                 std::to_string(g) + ", want " + std::to_string(w);
    }
  return bad;
}

::testing::AssertionResult matrix_near(const attn::Matrix& got, const Mat& want, double tol) {
  std::string where;
  const int bad = count_mismatches(got, want, tol, &where);
  if (bad == 0) return ::testing::AssertionSuccess();
  if (bad < 0) return ::testing::AssertionFailure() << "shapes differ";
  return ::testing::AssertionFailure() << bad << " cells differ, first at " << where;
}

}  // namespace ref
