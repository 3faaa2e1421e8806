#!/usr/bin/env bash
# Benchmarks: the native scalar kernels (Google Benchmark, short runs), then the engine under
# Node: SIMD build vs scalar build vs plain JavaScript.
#   scripts/bench.sh            (npm run bench)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== build"
bash scripts/build.sh all

echo "== native kernels (scalar reference, Google Benchmark)"
if [ -x build/native/attn_bench ]; then
  build/native/attn_bench --benchmark_min_time="${BENCH_MIN_TIME:-0.1}"
else
  echo "(Google Benchmark not found: skipped; install libbenchmark-dev)"
fi

echo "== engine under Node: SIMD vs scalar vs plain JS"
node bench/engine_bench.mjs
