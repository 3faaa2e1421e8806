// The kernels as wasm under Node: each dispatched kernel (SIMD in the SIMD build) against its
// scalar reference, timed in the same process (Google Benchmark does not build for wasm here,
// so this is a small median-of-runs timer of process CPU time, which stays meaningful on a busy
// machine where wall time counts the waits too). Shapes are those of single-head attention, d = 64.
//   node build/wasm-simd/kernels_wasm_bench.js      (scripts/bench.sh builds and runs it)
#include <emscripten.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "core/experiments.h"
#include "core/rng.h"
#include "kernels/kernels.h"

// Process CPU time in milliseconds (Node's process.cpuUsage).
EM_JS(double, cpu_ms, (), {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
});

namespace {

using namespace attn::kernels;

std::vector<float> inputs(std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  std::uint32_t s = 12345;
  for (float& x : v) {
    s = s * 1664525U + 1013904223U;
    x = scale * (static_cast<float>(s >> 8) / 8388608.0f - 1.0f);
  }
  return v;
}

// Median milliseconds of `runs` calls, after one warm-up call.
double median_ms(const std::function<void()>& fn, int runs) {
  fn();
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const double t0 = cpu_ms();
    fn();
    t.push_back(cpu_ms() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void row(const char* name, int n, double flops, double ms, double ms_scalar) {
  std::printf("%-34s %5d %9.3f %9.2f %9.3f %8.2fx\n", name, n, ms, flops / (ms * 1e6), ms_scalar,
              ms_scalar / ms);
}

}  // namespace

int main() {
  const int d = 64;
#if defined(ATTN_SIMD)
  const char* build = "SIMD";
#else
  const char* build = "scalar";
#endif
  std::printf("Kernels, %s build (dispatched kernel vs scalar reference, medians of CPU time)\n",
              build);
  std::printf("%-34s %5s %9s %9s %9s %9s\n", "kernel", "n", "ms", "GFLOP/s", "scalar ms",
              "speed-up");
  for (int n : {256, 1024, 2048}) {
    const int runs = n <= 256 ? 41 : n <= 1024 ? 9 : 5;
    const std::size_t nn = static_cast<std::size_t>(n) * n;
    auto q = inputs(n * d), k = inputs(n * d), v = inputs(n * d);
    auto w = inputs(nn, 0.5f);
    std::vector<float> s(nn), out(static_cast<std::size_t>(n) * d);
    const double gemm_flops = 2.0 * n * n * d;

    row("gemm_abt  scores = Q Kᵀ", n, gemm_flops,
        median_ms([&] { gemm_abt(q.data(), k.data(), s.data(), n, n, d); }, runs),
        median_ms([&] { gemm_abt_scalar(q.data(), k.data(), s.data(), n, n, d); }, runs));
    row("gemm_ab   output = P V", n, gemm_flops,
        median_ms([&] { gemm_ab(w.data(), v.data(), out.data(), n, d, n); }, runs),
        median_ms([&] { gemm_ab_scalar(w.data(), v.data(), out.data(), n, d, n); }, runs));
    // softmax rewrites its input: time a copy and the softmax, minus the copy alone
    auto x = inputs(nn, 8.0f);
    const double copy = median_ms([&] { s = x; }, runs);
    const double sm = median_ms(
                          [&] {
                            s = x;
                            softmax_rows(s.data(), n, n, true);
                          },
                          runs) -
                      copy;
    const double sm_scalar = median_ms(
                                 [&] {
                                   s = x;
                                   softmax_rows_scalar(s.data(), n, n, true);
                                 },
                                 runs) -
                             copy;
    std::printf("%-34s %5d %9.3f %9s %9.3f %8.2fx   (%.2f ns per element)\n",
                "softmax_rows (stable)", n, sm, "-", sm_scalar, sm_scalar / sm, sm * 1e6 / nn);
    // the three kernels of attention in a row (4 n² d flops)
    auto attention = [&](bool scalar) {
      return [&, scalar] {
        if (scalar) {
          gemm_abt_scalar(q.data(), k.data(), s.data(), n, n, d);
          softmax_rows_scalar(s.data(), n, n, true);
          gemm_ab_scalar(s.data(), v.data(), out.data(), n, d, n);
        } else {
          gemm_abt(q.data(), k.data(), s.data(), n, n, d);
          softmax_rows(s.data(), n, n, true);
          gemm_ab(s.data(), v.data(), out.data(), n, d, n);
        }
      };
    };
    row("attention kernels (abt, softmax, ab)", n, 2 * gemm_flops,
        median_ms(attention(false), runs), median_ms(attention(true), runs));
  }
  // the random draws: normals per second of fill_normal, and the variance experiment
  {
    const std::size_t count = 1 << 20;
    std::vector<float> buf(count);
    const RandomStream s = attn::random_stream(1, 0, kNormalDraws);
    const double ms = median_ms([&] { fill_normal(s, 0, buf.data(), count); }, 9);
    const double ms_scalar = median_ms([&] { fill_normal_scalar(s, 0, buf.data(), count); }, 9);
    std::printf("%-34s %5s %9.3f %9s %9.3f %8.2fx   (%.0f M normals/s, scalar %.0f M/s)\n",
                "fill_normal (2^20 draws)", "-", ms, "-", ms_scalar, ms_scalar / ms,
                count / (ms * 1e3), count / (ms_scalar * 1e3));
    attn::VarianceArgs a;
    a.dk = 256;
    a.samples = 20000;
    const double vms = median_ms([&] { attn::variance_experiment(a); }, 5);
    std::printf("%-34s %5d %9.3f %9s %9s %9s   (%.0f M normals/s)\n", "variance_experiment d_k=256",
                a.samples, vms, "-", "-", "-", 2.0 * a.dk * a.samples / (vms * 1e3));
  }
  return 0;
}
