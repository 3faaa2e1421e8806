#!/usr/bin/env bash
# Runs every libFuzzer harness built in build/asan (tests/fuzz/*_fuzz.cpp) for FUZZ_SECONDS
# each (default 60), two at a time. Each starts from its committed seed corpus
# (tests/fuzz/corpus/<name>/, read only) and keeps what it finds in build/fuzz/<name>/corpus.
# A sanitizer report, a broken invariant or an input that runs past 60 s (the trainers' largest
# models take seconds per call under ASan) stops the harness; its input is kept as
# build/fuzz/<name>/crash-* (timeout-*) and the run fails.
#   FUZZ_SECONDS=600 bash tests/fuzz/run.sh            every harness for 10 minutes
#   FUZZ_SECONDS=600 bash tests/fuzz/run.sh attend     one harness
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${FUZZ_SECONDS:-60}"
build=build/asan
out=build/fuzz

if [ "$#" -gt 0 ]; then
  names=("$@")
else
  names=()
  for f in tests/fuzz/*_fuzz.cpp; do names+=("$(basename "$f" _fuzz.cpp)"); done
fi

run_one() {  # $1 = harness name; writes build/fuzz/<name>/log
  local name=$1 dir="$out/$1"
  mkdir -p "$dir/corpus" "tests/fuzz/corpus/$name"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/${name}_fuzz" -max_total_time="$seconds" -max_len=2048 -timeout=60 \
    -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "tests/fuzz/corpus/$name" \
    >"$dir/log" 2>&1
}

report() {  # $1 = name, $2 = exit status
  local name=$1 log="$out/$1/log"
  local runs cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if [ "$2" -eq 0 ]; then
    echo "fuzz $name: ${runs:-?} runs in ${seconds} s, ${cov:-cov: ?}, no finding"
  else
    echo "fuzz $name: FAILED (exit $2) after ${runs:-?} runs; input kept in $out/$name/"
    grep -E 'invariant broken|ERROR: |runtime error|SUMMARY' "$log" | head -5
    return 1
  fi
}

status=0
for ((i = 0; i < ${#names[@]}; i += 2)); do
  pids=()
  batch=("${names[@]:i:2}")
  for name in "${batch[@]}"; do
    run_one "$name" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    wait "${pids[$k]}"
    report "${batch[$k]}" $? || status=1
  done
done
exit $status
