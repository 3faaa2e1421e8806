#!/usr/bin/env bash
# Runs every suite in CI order: native GoogleTest, the same suite under ASan + UBSan,
# wasm kernel tests under Node, the engine's JS API under node --test (both builds),
# then headless Chromium.
# CLANG (clang-14) and CLANGXX (its clang++) build the sanitizer suite and the fuzzers; PYTHON
# (/usr/bin/python3, with numpy and torch) runs tests/js/export.test.js; NODE and CHROMIUM_SHELL as in
# scripts/build.sh and tests/e2e/harness.js.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-2}"

echo "== format, lint and types (clang-format, Prettier, ESLint, tsc)"
# C++ as .clang-format says (clang-format 14; CLANG_FORMAT overrides), JavaScript as Prettier and
# ESLint say (.prettierrc.json, eslint.config.js). A file that is not formatted fails the run.
git ls-files 'cpp/*.cpp' 'cpp/*.h' 'tests/cpp/*.cpp' 'tests/cpp/*.h' 'tests/fuzz/*.cpp' 'tests/fuzz/*.h' 'bench/*.cpp' |
  xargs "${CLANG_FORMAT:-clang-format}" --dry-run --Werror
./node_modules/.bin/prettier --check --log-level warn web tests scripts bench
./node_modules/.bin/eslint web tests scripts bench
# The engine's, the trainer's and the element's .d.ts against a typed usage file (tests/types).
./node_modules/.bin/tsc -p tests/types

echo "== build"
WASM_TARGETS=wasm_tests bash scripts/build.sh all

echo "== native tests (GoogleTest)"
ctest --test-dir build/native --output-on-failure -j "$jobs"

echo "== sanitizer tests (GoogleTest under ASan + UBSan, clang 14)"
clang="${CLANG:-clang-14}"
clangxx="${CLANGXX:-$(dirname "$clang")/$(basename "$clang" | sed 's/^clang/clang++/')}"
clangxx="${clangxx#./}"
# Its own build tree (build/asan), -O1; any sanitizer report aborts the test that made it.
CC="$clang" CXX="$clangxx" cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DATTN_FUZZ=ON >/dev/null
cmake --build build/asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs"

# 10 s per harness here, to keep the whole run under 30 minutes (FUZZ_SECONDS overrides;
# tests/fuzz/run.sh alone defaults to 60).
export FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
echo "== fuzzing (libFuzzer under ASan + UBSan, ${FUZZ_SECONDS} s per harness, two at a time)"
bash tests/fuzz/run.sh

echo "== wasm kernel tests (Node)"
for b in simd scalar; do
  ctest --test-dir "build/wasm-$b" --output-on-failure -j "$jobs"
done

echo "== engine API tests (node --test)"
node --test --test-concurrency="$jobs" tests/js/

echo "== page tests (headless Chromium)"
./node_modules/.bin/vite build --logLevel warn
# Two files at a time: each has its own server on a free port and its own browser.
node --test --test-concurrency="$jobs" tests/e2e/
