#!/usr/bin/env bash
# Installs what the project needs, then the npm packages.
#   scripts/setup.sh          what building the engine and serving the page need
#   scripts/setup.sh --build  plus what building the site needs (npm run build: its first screens
#                             are drawn in Chromium's headless shell, scripts/first-screens.mjs)
#   scripts/setup.sh --test   plus what the test suites need
# On Debian (apt-get and dpkg present) the missing packages are installed with apt-get; nothing
# already present is installed again. Elsewhere nothing is installed: each tool is looked for and
# the missing ones are named (install them with the system's own package manager).
# Tools can be pointed elsewhere: NODE (node), CHROMIUM (/usr/bin/chromium) and CHROMIUM_SHELL
# (/usr/bin/chromium-headless-shell), PYTHON
# (/usr/bin/python3, with numpy and torch), CLANG (clang-14; its clang++ is CLANGXX, which
# defaults to the same name with clang++), CLANG_FORMAT (clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
testing=0
site=0
[ "${1:-}" = "--test" ] && testing=1 && site=1
[ "${1:-}" = "--build" ] && site=1

NODE="${NODE:-node}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
CHROMIUM_SHELL="${CHROMIUM_SHELL:-/usr/bin/chromium-headless-shell}"
PYTHON="${PYTHON:-/usr/bin/python3}"
CLANG="${CLANG:-clang-14}"
CLANGXX="${CLANGXX:-$(dirname "$CLANG")/$(basename "$CLANG" | sed 's/^clang/clang++/')}"
CLANGXX="${CLANGXX#./}"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"

# ---- Debian: install the missing packages ----------------------------------------------------
packages=(emscripten binaryen cmake g++)
[ "$site" = 1 ] && packages+=(chromium-headless-shell fonts-noto-cjk)
if [ "$testing" = 1 ]; then
  packages+=(libgtest-dev libbenchmark-dev chromium nlohmann-json3-dev librandom123-dev libeigen3-dev)
  # the sanitizer suite and the fuzzers: clang 14 with its ASan, UBSan and libFuzzer runtimes
  packages+=(clang-14 libclang-rt-14-dev clang-format)
  # tests/js/export.test.js runs the page's exported NumPy and PyTorch code with PYTHON
  packages+=(python3-numpy python3-torch)
fi

if command -v apt-get >/dev/null && command -v dpkg-query >/dev/null; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
  fi
fi

# ---- every system: is each tool there? -------------------------------------------------------
absent=()
need_cmd() {  # $1 = command, $2 = what it is for
  command -v "$1" >/dev/null || absent+=("$1: $2")
}
need_file() {  # $1 = a file that one of the given directories must hold, $2 = what it is, $3... = directories
  local f=$1 what=$2 d
  shift 2
  for d in "$@"; do [ -e "$d/$f" ] && return 0; done
  absent+=("$f: $what (looked in $*)")
}
need_python() {  # $1 = module
  "$PYTHON" -c "import $1" >/dev/null 2>&1 || absent+=("$PYTHON: the Python module $1 (tests/js/export.test.js runs PYTHON)")
}

includes=(/usr/include /usr/local/include /opt/homebrew/include)
need_cmd emcc "Emscripten, builds the wasm modules"
need_cmd wasm-opt "binaryen, Emscripten's optimiser"
need_cmd cmake "CMake"
need_cmd "${CXX:-g++}" "the native C++ compiler (CXX)"
need_cmd "$NODE" "Node.js 20 (NODE)"
need_cmd npm "npm"
[ "$site" = 1 ] && need_cmd "$CHROMIUM_SHELL" "Chromium's headless shell: the site's first screens and the page tests (CHROMIUM_SHELL)"
if [ "$testing" = 1 ]; then
  need_file CMakeLists.txt "GoogleTest sources, for the wasm test runner (ATTN_GTEST_SOURCE_DIR)" \
    "${ATTN_GTEST_SOURCE_DIR:-/usr/src/googletest}"
  need_file gtest/gtest.h "GoogleTest" "${includes[@]}"
  need_file benchmark/benchmark.h "Google Benchmark" "${includes[@]}"
  need_file nlohmann/json.hpp "nlohmann-json, reads the golden vectors" "${includes[@]}"
  need_file Random123/philox.h "Random123, the RNG tests' oracle" "${includes[@]}"
  need_file eigen3/Eigen/Core "Eigen 3, the tests' double-precision reference" "${includes[@]}"
  need_cmd "$CHROMIUM" "Chromium, the load scripts (CHROMIUM)"
  need_cmd "$CLANG" "clang, the sanitizer suite and the fuzzers (CLANG)"
  need_cmd "$CLANGXX" "clang++, the sanitizer suite and the fuzzers (CLANGXX)"
  need_cmd "$CLANG_FORMAT" "clang-format 14, the C++ format check (CLANG_FORMAT)"
  need_cmd "$PYTHON" "Python 3 with NumPy and PyTorch (PYTHON)"
  if command -v "$PYTHON" >/dev/null; then
    need_python numpy
    need_python torch
  fi
fi
if [ "${#absent[@]}" -gt 0 ]; then
  echo "setup: missing:" >&2
  printf '  %s\n' "${absent[@]}" >&2
  exit 1
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund
fi
