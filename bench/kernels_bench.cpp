// Native benchmarks of the scalar reference kernels and the variance experiment.
// (The SIMD kernels are wasm-only: bench/kernels_wasm_bench.cpp times the same kernels in both
// wasm builds, and bench/engine_bench.mjs the engine, under Node.)
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/experiments.h"
#include "kernels/kernels.h"

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

// scores = Q Kᵀ: Q (n, d), K (n, d)
void BM_GemmAbt(benchmark::State& state) {
  const int n = state.range(0), d = state.range(1);
  auto q = inputs(n * d), k = inputs(n * d);
  std::vector<float> c(static_cast<std::size_t>(n) * n);
  for (auto _ : state) {
    gemm_abt_scalar(q.data(), k.data(), c.data(), n, n, d);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * n * d, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_GemmAbt)->Args({64, 64})->Args({256, 64})->Args({1024, 64});

// output = W V: W (n, n), V (n, d)
void BM_GemmAb(benchmark::State& state) {
  const int n = state.range(0), d = state.range(1);
  auto w = inputs(n * n), v = inputs(n * d);
  std::vector<float> c(static_cast<std::size_t>(n) * d);
  for (auto _ : state) {
    gemm_ab_scalar(w.data(), v.data(), c.data(), n, d, n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * n * n * d, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_GemmAb)->Args({256, 64})->Args({1024, 64});

void BM_SoftmaxRows(benchmark::State& state) {
  const int n = state.range(0);
  const bool stable = state.range(1) != 0;
  auto x0 = inputs(static_cast<std::size_t>(n) * n, 10.0f);
  auto x = x0;
  for (auto _ : state) {
    state.PauseTiming();
    x = x0;
    state.ResumeTiming();
    softmax_rows_scalar(x.data(), n, n, stable);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_SoftmaxRows)->Args({256, 1})->Args({1024, 1})->Args({1024, 0});

void BM_DotRows(benchmark::State& state) {
  const int count = state.range(0), d = state.range(1);
  auto a = inputs(count * d), b = inputs(count * d);
  std::vector<float> out(count);
  for (auto _ : state) {
    dot_rows_scalar(a.data(), b.data(), out.data(), count, d);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * count);
}
BENCHMARK(BM_DotRows)->Args({256, 256})->Args({1024, 64});

void BM_FillNormal(benchmark::State& state) {
  const std::size_t n = state.range(0);
  std::vector<float> out(n);
  RandomStream s;
  for (auto _ : state) {
    ++s.stream;
    fill_normal_scalar(s, 0, out.data(), n);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_FillNormal)->Arg(512)->Arg(65536);

void BM_FillUniform(benchmark::State& state) {
  const std::size_t n = state.range(0);
  std::vector<float> out(n);
  RandomStream s;
  for (auto _ : state) {
    ++s.stream;
    fill_uniform_scalar(s, 0, out.data(), n);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_FillUniform)->Arg(65536);

// The lesson's experiment: samples pairs q, k of d_k normals and their dot products.
void BM_VarianceExperiment(benchmark::State& state) {
  attn::VarianceArgs args;
  args.dk = state.range(0);
  args.samples = state.range(1);
  for (auto _ : state) {
    attn::VarianceResult r = attn::variance_experiment(args);
    benchmark::DoNotOptimize(r.raw.variance);
  }
  state.SetItemsProcessed(state.iterations() * args.samples);
}
BENCHMARK(BM_VarianceExperiment)
    ->Args({64, 10000})
    ->Args({256, 10000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
