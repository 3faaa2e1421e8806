// Linear attention with the feature map φ(x) = elu(x) + 1: see linear_attention.h.
#include "core/linear_attention.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/decimal.h"
#include "core/dense.h"
#include "kernels/kernels.h"

namespace attn {

float elu_feature(float x) { return x > 0.0f ? x + 1.0f : std::exp(x); }

namespace {

// The shift m of a group of entries: min(0, their max). φ(x) e^-m = (x > 0 ? x + 1 : e^(x - m))
// for every x of the group: the largest feature is then at least 1, so features of very
// negative entries do not all fall among float32's subnormals (or to 0) together.
float feature_shift(const float* x, std::size_t count) {
  float m = 0.0f;
  if (count) m = std::min(0.0f, *std::max_element(x, x + count));
  return m;
}

// φ(x) e^-m of `count` entries (shift m from feature_shift), into out.
void feature_map(const float* x, std::size_t count, float m, float* out) {
  for (std::size_t c = 0; c < count; c++) out[c] = x[c] > 0.0f ? x[c] + 1.0f : std::exp(x[c] - m);
}

// The features of query rows i0 .. i0 + bq - 1, each row scaled by its own shift (the output of
// a row does not change when its φ(q_i) is multiplied by a constant).
void query_features(const Matrix& q, int i0, int bq, float* out) {
  for (int r = 0; r < bq; r++) {
    const float* x = q.row(i0 + r);
    feature_map(x, q.cols, feature_shift(x, q.cols), out + static_cast<std::size_t>(r) * q.cols);
  }
}

// The largest feature of any entry after its shift (in double): max(1, largest x + 1).
double largest_feature(const Matrix& m) {
  double f = 1;
  for (float x : m.data) f = std::max(f, static_cast<double>(x) + 1);
  return f;
}

}  // namespace

// ---- validation -------------------------------------------------------------------------------

Error check_linear_attention(const LinearArgs& a, int max_tokens) {
  Error e = check_query_key_value(a.query, a.key, a.value, max_tokens);
  if (!e.empty()) return e;
  if (a.key.cols != a.query.cols) {
    return "key: expected " + std::to_string(a.query.cols) +
           " columns (d_k must equal the query's d_q), got " + std::to_string(a.key.cols);
  }
  if (a.value.rows != a.key.rows) {
    return "value: expected " + std::to_string(a.key.rows) + " rows (one per key), got " +
           std::to_string(a.value.rows);
  }
  // Every partial sum is bounded by its terms: |S_ab| <= n_k K V and z_a <= n_k K, and a row's
  // numerator and denominator by d_k Q n_k K max(1, V), with Q and K the largest (shifted)
  // features of the query and key entries and V the largest |value| entry (margin for rounding).
  double q = largest_feature(a.query), k = largest_feature(a.key), v = 0;
  for (float x : a.value.data) v = std::max(v, static_cast<double>(std::fabs(x)));
  const double bound = a.key.rows * k * std::max(1.0, v) * std::max(1.0, a.key.cols * q);
  if (bound * 1.01 >= kFloatMax) {
    return "query: linear attention's sums overflow float32 (expected n_k K max(1, |v|) "
           "max(1, d_k Q) below 3.4e+38, with K and Q = max(1, the largest entry + 1) of key and "
           "query; got " +
           format_number(round_to_digits(bound, 3)) + ")";
  }
  return {};
}

// ---- the computation --------------------------------------------------------------------------

LinearResult linear_attention(const LinearArgs& a) {
  const int n_q = a.query.rows, n_k = a.key.rows, d_k = a.key.cols, d_v = a.value.cols;
  const int chunk = kLinearChunk;
  LinearResult r;
  r.output = Matrix(n_q, d_v);  // output: (n_q, d_v), the numerators until divided

  // the state carried along the sequence
  std::vector<float> s(static_cast<std::size_t>(d_k) * d_v, 0.0f);  // S = Σ φ(k_j) v_jᵀ: (d_k, d_v)
  std::vector<float> z(d_k, 0.0f);                                  // z = Σ φ(k_j): (d_k)
  // the scratch of one chunk
  std::vector<float> phi_q(static_cast<std::size_t>(chunk) * d_k);   // φ(Q_c): (bq, d_k)
  std::vector<float> phi_k(static_cast<std::size_t>(chunk) * d_k);   // φ(K_c): (bk, d_k)
  std::vector<float> phi_kt(static_cast<std::size_t>(d_k) * chunk);  // φ(K_c)ᵀ: (d_k, bk)
  std::vector<float> part(static_cast<std::size_t>(d_k) * d_v);      // φ(K_c)ᵀ V_c: (d_k, d_v)
  std::vector<float> a_c(static_cast<std::size_t>(chunk) * chunk);   // φ(Q_c) φ(K_c)ᵀ: (bq, bk)
  std::vector<float> av(static_cast<std::size_t>(chunk) * d_v);      // a_c V_c: (bq, d_v)
  std::vector<float> den(chunk);                                     // φ(q_i)ᵀ z: (bq)
  r.state_bytes = sizeof(float) * (s.size() + z.size());
  r.chunk_bytes = sizeof(float) * (phi_q.size() + phi_k.size() + phi_kt.size() + part.size() +
                                   a_c.size() + av.size() + den.size());

  // every key's features scaled by one shift (S and z both by the same constant: out unchanged)
  const float key_shift = feature_shift(a.key.data.data(), a.key.data.size());

  // S += φ(K_c)ᵀ V_c and z += Σ φ(k_j) for keys j0 .. j0 + bk - 1, whose φ is in phi_k
  auto fold_keys = [&](int j0, int bk) {
    dense::transpose(phi_k.data(), phi_kt.data(), bk, d_k);
    kernels::gemm_ab(phi_kt.data(), a.value.row(j0), part.data(), d_k, d_v, bk);
    kernels::scale_add(s.data(), part.data(), d_k * d_v, 1.0f);
    for (int j = 0; j < bk; j++)
      kernels::scale_add(z.data(), phi_k.data() + static_cast<std::size_t>(j) * d_k, d_k, 1.0f);
  };

  // 1. without causal: every key in S and z first
  if (!a.causal) {
    for (int j0 = 0; j0 < n_k; j0 += chunk) {
      const int bk = std::min(chunk, n_k - j0);
      feature_map(a.key.row(j0), static_cast<std::size_t>(bk) * d_k, key_shift, phi_k.data());
      fold_keys(j0, bk);
    }
  }
  for (int i0 = 0; i0 < n_q; i0 += chunk) {
    const int bq = std::min(chunk, n_q - i0);
    float* out = r.output.row(i0);
    query_features(a.query, i0, bq, phi_q.data());
    // 2. the keys folded so far: numerators φ(Q_c) S, denominators φ(Q_c) z
    kernels::gemm_ab(phi_q.data(), s.data(), out, bq, d_v, d_k);
    kernels::gemm_ab(phi_q.data(), z.data(), den.data(), bq, 1, d_k);
    // 3. causal: the keys of this chunk's own positions, j <= i, then folded into S and z
    const int bk = a.causal ? std::min(i0 + bq, n_k) - i0 : 0;
    if (bk > 0) {
      feature_map(a.key.row(i0), static_cast<std::size_t>(bk) * d_k, key_shift, phi_k.data());
      kernels::gemm_abt(phi_q.data(), phi_k.data(), a_c.data(), bq, bk, d_k);
      for (int q = 0; q < bq; q++) {
        float* row = a_c.data() + static_cast<std::size_t>(q) * bk;
        for (int j = q + 1; j < bk; j++) row[j] = 0.0f;  // key i0 + j is after query i0 + q
        for (int j = 0; j <= std::min(q, bk - 1); j++) den[q] += row[j];
      }
      kernels::gemm_ab(a_c.data(), a.value.row(i0), av.data(), bq, d_v, bk);
      kernels::scale_add(out, av.data(), bq * d_v, 1.0f);
      fold_keys(i0, bk);
    }
    // 4. divide; a denominator that underflowed to 0 leaves a zero row
    for (int q = 0; q < bq; q++) {
      float* o = out + static_cast<std::size_t>(q) * d_v;
      if (!(den[q] > 0.0f)) {
        std::fill(o, o + d_v, 0.0f);
        r.zero_rows.push_back(i0 + q);
        continue;
      }
      for (int c = 0; c < d_v; c++) o[c] = o[c] / den[q];
    }
  }
  return r;
}

// ---- the error against a reference ------------------------------------------------------------

Error check_output_error(const Matrix& output, const Matrix& reference) {
  Error e = check_matrix("output", output, limits::kMaxFlashTokens, limits::kMaxDim);
  if (e.empty()) e = check_matrix("reference", reference, limits::kMaxFlashTokens, limits::kMaxDim);
  if (e.empty()) e = check_shape("reference", reference, output.rows, output.cols, "of the output");
  return e;
}

OutputError output_error(const Matrix& output, const Matrix& reference) {
  OutputError r;
  double diff2 = 0, ref2 = 0;
  for (std::size_t c = 0; c < output.data.size(); c++) {
    const double d = static_cast<double>(output.data[c]) - reference.data[c];
    r.max_abs = std::max(r.max_abs, std::fabs(d));
    diff2 += d * d;
    ref2 += static_cast<double>(reference.data[c]) * reference.data[c];
  }
  r.relative = ref2 > 0 ? std::sqrt(diff2 / ref2) : (diff2 > 0 ? 1.0 : 0.0);
  return r;
}

}  // namespace attn
