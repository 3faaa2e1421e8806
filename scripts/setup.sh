#!/usr/bin/env bash
# Installs what the project needs on a Debian 12 machine, then the npm packages.
#   scripts/setup.sh          what building and serving need
#   scripts/setup.sh --test   plus what the test suites need
# Nothing already present is installed again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(emscripten binaryen cmake g++)
if [ "${1:-}" = "--test" ]; then
  packages+=(libgtest-dev libbenchmark-dev chromium fonts-noto-cjk nlohmann-json3-dev librandom123-dev libeigen3-dev)
  # the sanitizer suite and the fuzzers: clang 14 with its ASan, UBSan and libFuzzer runtimes
  packages+=(clang-14 libclang-rt-14-dev clang-format)
  # tests/js/export.test.js runs the page's exported NumPy and PyTorch code with /usr/bin/python3
  packages+=(python3-numpy python3-torch)
fi

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

command -v node >/dev/null && command -v npm >/dev/null || {
  echo "setup: Node.js 20 and npm are needed (node and npm on the PATH)" >&2; exit 1; }

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund
fi
