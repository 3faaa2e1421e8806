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
  cmake --build "build/wasm-$1" -j "$jobs" --target attention_module first_module train_module model_module ${2:-}
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm simd; build_wasm scalar ;;
  all) build_native; build_wasm simd; build_wasm scalar ;;
  *) echo "usage: scripts/build.sh [wasm|native|all]" >&2; exit 2 ;;
esac
