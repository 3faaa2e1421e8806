// Learned projections and multi-head attention (torch.nn.MultiheadAttention conventions).
#include "core/multihead.h"

#include "kernels/kernels.h"

namespace attn {

// ---- a linear layer: y = x Wᵀ + b -----------------------------------------------------------

Error check_linear(const Matrix& x, const Matrix& w, const Matrix& b) {
  Error e = check_matrix("x", x);
  if (e.empty()) e = check_matrix("W", w);
  if (e.empty()) e = check_shape("W", w, w.rows, x.cols, "(out, in)");
  if (e.empty() && given(b)) e = check_matrix("b", b);
  if (e.empty() && given(b)) e = check_shape("b", b, 1, w.rows, "(1, out)");
  return e;
}

Error linear_overflow(const char* name, const Matrix& y) {
  std::string where = first_non_finite(y);
  if (where.empty()) return {};
  return std::string(name) + ": x Wᵀ + b overflows float32 at " + where +
         " (expected |x| |W row| + |b| below 3.4e+38 for every row)";
}

Matrix linear(const Matrix& x, const Matrix& w, const Matrix& b) {
  Matrix y(x.rows, w.rows);  // y: (n, out)
  kernels::gemm_abt(x.data.data(), w.data.data(), y.data.data(), x.rows, w.rows, x.cols);
  if (!b.empty()) {
    for (int i = 0; i < y.rows; i++) {
      for (int o = 0; o < y.cols; o++) y.at(i, o) += b.data[o];
    }
  }
  return y;
}

// Columns [first, first + count) of m.        m: (n, d)  -> (n, count)
static Matrix columns(const Matrix& m, int first, int count) {
  Matrix out(m.rows, count);
  for (int i = 0; i < m.rows; i++) {
    for (int c = 0; c < count; c++) out.at(i, c) = m.at(i, first + c);
  }
  return out;
}

// ---- multi-head attention -------------------------------------------------------------------

MultiHeadResult multi_head(const MultiHeadArgs& args) {
  int d_model = args.query.cols, d_head = d_model / args.heads;
  // project: Q (n_q, d_model), K (n_k, d_model), V (n_k, d_model)
  Matrix q = linear(args.query, args.wq, args.bq);
  Matrix k = linear(args.key, args.wk, args.bk);
  Matrix v = linear(args.value, args.wv, args.bv);

  MultiHeadResult r;
  r.error = linear_overflow("query", q);
  if (r.error.empty()) r.error = linear_overflow("key", k);
  if (r.error.empty()) r.error = linear_overflow("value", v);
  if (!r.error.empty()) return r;
  r.concat = Matrix(args.query.rows, d_model);  // concat: (n_q, d_model)
  for (int h = 0; h < args.heads; h++) {
    // head h sees its own d_head columns of Q, K and V
    AttendArgs head;
    head.query = columns(q, h * d_head, d_head);  // (n_q, d_head)
    head.key = columns(k, h * d_head, d_head);    // (n_k, d_head)
    head.value = columns(v, h * d_head, d_head);  // (n_k, d_head)
    head.score = ScoreKind::ScaledDot;
    head.mask = args.mask;
    head.causal = args.causal;
    head.key_padding = args.key_padding;
    head.stages = args.stages;  // the same output and entropy either way, bit for bit
    r.heads.push_back(attend(head));
    if (!r.heads.back().error.empty()) {
      r.error = "heads: head " + std::to_string(h) + ": " + r.heads.back().error;
      r.heads.clear();
      return r;
    }
    // its output goes into the same columns of concat
    const Matrix& out = r.heads.back().output;
    for (int i = 0; i < out.rows; i++) {
      for (int c = 0; c < d_head; c++) r.concat.at(i, h * d_head + c) = out.at(i, c);
    }
  }
  r.output = linear(r.concat, args.wo, args.bo);  // output: (n_q, d_model)
  r.error = linear_overflow("Wo", r.output);
  return r;
}

// ---- validation -----------------------------------------------------------------------------

Error check_multi_head(const MultiHeadArgs& a) {
  Error e = check_query_key_value(a.query, a.key, a.value);
  if (!e.empty()) return e;
  int n_q = a.query.rows, d_model = a.query.cols, n_k = a.key.rows;
  int kdim = a.key.cols, vdim = a.value.cols;
  e = check_number(kHeads, a.heads);
  if (!e.empty()) return e;
  // every head keeps its own (n_q, n_k) matrices
  double cells = static_cast<double>(a.heads) * n_q * n_k;
  if (cells > limits::kMaxHeadCells) {
    return "heads: heads * n_q * n_k = " + format_number(cells) + " is more than " +
           std::to_string(limits::kMaxHeadCells) + " (engine.limits.maxHeadCells)";
  }
  if (d_model % a.heads != 0) {
    return "heads: d_model = " + std::to_string(d_model) +
           " (columns of query) is not divisible by " + std::to_string(a.heads) + " heads";
  }
  if (a.value.rows != n_k) {
    return expected("value", std::to_string(n_k) + " rows (one per key)",
                    std::to_string(a.value.rows));
  }
  e = check_weight("Wq", a.wq, d_model, d_model, "(d_model, d_model)");
  if (e.empty()) e = check_weight("Wk", a.wk, d_model, kdim, "(d_model, kdim)");
  if (e.empty()) e = check_weight("Wv", a.wv, d_model, vdim, "(d_model, vdim)");
  if (e.empty()) e = check_weight("Wo", a.wo, d_model, d_model, "(d_model, d_model)");
  if (!e.empty()) return e;
  const char* bias_names[] = {"bq", "bk", "bv", "bo"};
  const Matrix* biases[] = {&a.bq, &a.bk, &a.bv, &a.bo};
  for (int b = 0; b < 4; b++) {
    if (given(*biases[b])) e = check_weight(bias_names[b], *biases[b], 1, d_model, "(1, d_model)");
    if (!e.empty()) return e;
  }
  return check_mask_args(a.mask, a.key_padding, n_q, n_k);
}

}  // namespace attn
