#!/usr/bin/env bash
# Builds the engine.
#   scripts/build.sh wasm     the wasm modules the page loads, SIMD and scalar builds of each: the
#                             lessons' engine (attention-*), its first part (attention-first-*), the
#                             playground's trainer (attention-train-*) and GPT-2-family models
#                             (attention-model-*)
#   scripts/build.sh native   the native core and GoogleTest suite (scripts/bench.sh builds the
#                             benchmarks)
#   scripts/build.sh all      both
# NODE (default: the node on the PATH) runs the wasm test runner under CTest.
# ATTN_BUILD_TESTS=OFF configures without the test suites, so neither GoogleTest nor Google
# Benchmark (nor the tests' Eigen, nlohmann-json, Random123) is needed: the core and the modules only.
# WASM_TARGETS adds targets to both wasm builds (scripts/test.sh: wasm_tests, the kernels' suite).
# The SIMD and scalar builds run side by side: while one links (one process each, a few seconds
# per module) or compiles GoogleTest's single large file, the other keeps the second core busy.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="${JOBS:-2}"
tests="${ATTN_BUILD_TESTS:-ON}"

# Runs a configure step quietly; when it fails, shows everything it printed (CMake writes part of
# its errors, and "Configuring incomplete", to stdout).
configure() {
  local out
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "scripts/build.sh: configuring failed: $*" >&2
    return 1
  fi
}

build_native() {
  configure cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_TESTS="$tests"
  cmake --build build/native -j "$jobs"
}

build_wasm() {  # $1 = simd | scalar
  local simd=ON
  [ "$1" = scalar ] && simd=OFF
  configure emcmake cmake -S . -B "build/wasm-$1" -DCMAKE_BUILD_TYPE=Release -DATTN_SIMD="$simd" \
    -DATTN_BUILD_TESTS="$tests" -DCMAKE_CROSSCOMPILING_EMULATOR="${NODE:-$(command -v node)}"
  cmake --build "build/wasm-$1" -j "$jobs" --target attention_module first_module train_module model_module \
    ${WASM_TARGETS:-}
}

# Both wasm builds at once; each one's output comes out whole when it ends (so the two never
# interleave), and the first failure fails the script.
build_wasm_both() {
  local dir
  dir=$(mktemp -d)
  build_wasm simd >"$dir/simd" 2>&1 &
  local simd=$!
  build_wasm scalar >"$dir/scalar" 2>&1 &
  local scalar=$!
  local status=0
  wait "$simd" || status=1
  cat "$dir/simd"
  wait "$scalar" || status=1
  cat "$dir/scalar"
  rm -rf "$dir"
  return "$status"
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm_both ;;
  all) build_native; build_wasm_both ;;
  *) echo "usage: scripts/build.sh [wasm|native|all]" >&2; exit 2 ;;
esac
