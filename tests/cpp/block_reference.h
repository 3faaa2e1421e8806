// The double-precision reference of the Transformer block, written from the maths with Eigen
// (tests/cpp/reference.h for attention itself). It never calls the code under test.
#pragma once

#include <cmath>
#include <vector>

#include "reference.h"

namespace ref {

struct LayerNorm {
  Mat output;
  std::vector<double> mean, std;
};

// (x - mean) / sqrt(var + eps) * gamma + beta, per row; var biased (divided by d).
inline LayerNorm layer_norm(const Mat& x, const std::vector<double>& gamma,
                            const std::vector<double>& beta, double eps) {
  LayerNorm r;
  r.output = Mat(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); i++) {
    const double mean = x.row(i).mean();
    const double var = (x.row(i).array() - mean).square().mean();
    for (Eigen::Index c = 0; c < x.cols(); c++)
      r.output(i, c) = (x(i, c) - mean) / std::sqrt(var + eps) * gamma[c] + beta[c];
    r.mean.push_back(mean);
    r.std.push_back(std::sqrt(var));
  }
  return r;
}

inline double relu(double v) { return v > 0 ? v : 0; }
inline double gelu(double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }

struct FeedForward {
  Mat hidden, output;
};

inline FeedForward feed_forward(const Mat& x, const Mat& w1, const std::vector<double>& b1,
                                const Mat& w2, const std::vector<double>& b2, bool use_gelu) {
  FeedForward r;
  r.hidden = linear(x, w1, b1);
  for (Eigen::Index i = 0; i < r.hidden.size(); i++)
    r.hidden.data()[i] = use_gelu ? gelu(r.hidden.data()[i]) : relu(r.hidden.data()[i]);
  r.output = linear(r.hidden, w2, b2);
  return r;
}

struct AttentionWeights {
  Mat wq, wk, wv, wo;
  std::vector<double> bq, bk, bv, bo;
};

struct Layer {
  bool decoder = false;
  Mat x, memory;
  int heads = 1;
  AttentionWeights self, cross;
  Mat w1, w2;
  std::vector<double> b1, b2;
  std::vector<std::vector<double>> gamma, beta;
  bool norm_first = false, use_gelu = false, causal = false;
  double eps = 1e-5;
  std::vector<bool> key_padding, memory_key_padding;
  bool residual = true, norm = true;
};

struct LayerResult {
  MultiHead self, cross;
  FeedForward ff;
  std::vector<Mat> residuals;
  std::vector<LayerNorm> normed;
  Mat output;
};

inline MultiHead attention(const Mat& q, const Mat& kv, int heads, const AttentionWeights& w,
                           bool causal, const std::vector<bool>& padding) {
  return multi_head(q, kv, kv, heads, w.wq, w.wk, w.wv, w.wo, w.bq, w.bk, w.bv, w.bo, Mat{}, causal,
                    padding);
}

// torch.nn.TransformerEncoderLayer / TransformerDecoderLayer (dropout 0), written out.
inline LayerResult layer(const Layer& in) {
  LayerResult r;
  auto norm = [&](int k, const Mat& x) {
    LayerNorm n = layer_norm(x, in.gamma[k], in.beta[k], in.eps);
    if (!in.norm) n.output = x;
    r.normed.push_back(n);
    return n.output;
  };
  auto add = [&](const Mat& x, const Mat& f) {
    r.residuals.push_back(in.residual ? Mat(x + f) : f);
    return r.residuals.back();
  };
  auto self = [&](const Mat& x) {
    r.self = attention(x, x, in.heads, in.self, in.causal, in.key_padding);
    return r.self.output;
  };
  auto cross = [&](const Mat& x) {
    r.cross = attention(x, in.memory, in.heads, in.cross, false, in.memory_key_padding);
    return r.cross.output;
  };
  auto ff = [&](const Mat& x) {
    r.ff = feed_forward(x, in.w1, in.b1, in.w2, in.b2, in.use_gelu);
    return r.ff.output;
  };
  Mat x = in.x;
  int k = 0;
  if (in.norm_first) {
    x = add(x, self(norm(k++, x)));
    if (in.decoder) x = add(x, cross(norm(k++, x)));
    x = add(x, ff(norm(k++, x)));
  } else {
    x = norm(k++, add(x, self(x)));
    if (in.decoder) x = norm(k++, add(x, cross(x)));
    x = norm(k++, add(x, ff(x)));
  }
  r.output = x;
  return r;
}

inline double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

// torch.nn.GRU, one layer, forward, from h0 = 0 when h0 is empty.
inline Mat gru(const Mat& x, const Mat& w_ih, const Mat& w_hh, const std::vector<double>& b_ih,
               const std::vector<double>& b_hh, const std::vector<double>& h0) {
  const Eigen::Index h = w_hh.cols();
  Mat out(x.rows(), h);
  Eigen::VectorXd prev = h0.empty() ? Eigen::VectorXd::Zero(h) : vec(h0);
  for (Eigen::Index t = 0; t < x.rows(); t++) {
    Eigen::VectorXd xi = w_ih * x.row(t).transpose(), hh = w_hh * prev;
    if (!b_ih.empty()) xi += vec(b_ih);
    if (!b_hh.empty()) hh += vec(b_hh);
    Eigen::VectorXd next(h);
    for (Eigen::Index c = 0; c < h; c++) {
      const double rg = sigmoid(xi(c) + hh(c)), z = sigmoid(xi(h + c) + hh(h + c));
      const double g = std::tanh(xi(2 * h + c) + rg * hh(2 * h + c));
      next(c) = (1 - z) * g + z * prev(c);
    }
    out.row(t) = next.transpose();
    prev = next;
  }
  return out;
}

}  // namespace ref
