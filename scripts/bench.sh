#!/usr/bin/env bash
# Benchmarks: the native scalar kernels (Google Benchmark, short runs), the same kernels as wasm
# (bench/kernels_wasm_bench.cpp: SIMD and scalar builds), then the engine under
# Node against its peers (bench/engine_bench.mjs: our SIMD and scalar builds, plain JavaScript,
# onnxruntime-web and tfjs-wasm, side by side in one process), tiled attention against the
# naive path (bench/flash_bench.mjs) and 1 vs 2 Web Workers in Chromium (bench/workers_bench.mjs).
#   scripts/bench.sh            (npm run bench)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== build (the wasm modules and the native benchmark)"
bash scripts/build.sh wasm
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null

echo "== native kernels (scalar reference, Google Benchmark)"
targets="$(cmake --build build/native --target help)"
if grep -q attn_bench <<<"$targets"; then
  cmake --build build/native -j "${JOBS:-2}" --target attn_bench
  build/native/attn_bench --benchmark_min_time="${BENCH_MIN_TIME:-0.1}"
else
  echo "(Google Benchmark not found: skipped; install libbenchmark-dev)"
fi

echo "== the kernels as wasm under Node (each build: dispatched kernel vs scalar reference)"
for b in simd scalar; do
  cmake --build "build/wasm-$b" -j "${JOBS:-2}" --target kernels_wasm_bench >/dev/null
  node "build/wasm-$b/kernels_wasm_bench.js"
done

echo "== the engine under Node against its peers (onnxruntime-web, tfjs-wasm, plain JS)"
node bench/engine_bench.mjs

echo "== tiled (flash) attention against the naive path: time and peak heap (Node)"
node bench/flash_bench.mjs

echo "== the playground's training step and time to learn each task (Node; PyTorch CPU for scale)"
node bench/train_bench.mjs

echo "== how quickly the guards answer: a megabyte link refused, a worker's cancel, Stop (Node)"
node bench/responsiveness.mjs

echo "== the √d_k lab's million-pair run: timer lag on the page's thread, Stop (headless Chromium)"
./node_modules/.bin/vite build --logLevel warn
node bench/scaling_lab_bench.mjs

echo "== 1 vs 2 Web Workers (headless Chromium)"
node bench/workers_bench.mjs
