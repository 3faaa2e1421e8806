#!/usr/bin/env bash
# Builds the engine.
#   scripts/build.sh wasm     the wasm modules the page loads, SIMD and scalar builds of each: the
#                             lessons' engine (attention-*) and the playground's trainer (attention-train-*)
#   scripts/build.sh native   the native core, GoogleTest suite and benchmarks
#   scripts/build.sh all      both
# NODE (default /usr/bin/node) runs the wasm test runner under CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="${JOBS:-2}"

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
}

build_wasm() {  # $1 = simd | scalar
  local simd=ON
  [ "$1" = scalar ] && simd=OFF
  emcmake cmake -S . -B "build/wasm-$1" -DCMAKE_BUILD_TYPE=Release -DATTN_SIMD="$simd" \
    -DCMAKE_CROSSCOMPILING_EMULATOR="${NODE:-/usr/bin/node}" >/dev/null
  cmake --build "build/wasm-$1" -j "$jobs" --target attention_module train_module ${2:-}
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm simd; build_wasm scalar ;;
  all) build_native; build_wasm simd; build_wasm scalar ;;
  *) echo "usage: scripts/build.sh [wasm|native|all]" >&2; exit 2 ;;
esac
