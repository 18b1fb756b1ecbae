#!/usr/bin/env bash
# Runs one libFuzzer target for a given time and prints its executions and findings.
#
# usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#   TARGET   csv | decimal | market_json | arguments   (Fuzz/Targets/TARGET.swift)
#   SECONDS  how long to fuzz
# The target is built first if needed (Fuzz/build.sh). Seeds come from Fuzz/Seeds/TARGET; the
# corpus the fuzzer grows is kept in .build/fuzz/corpus/TARGET between runs; a crashing input
# is written to .build/fuzz/findings/TARGET-crash-… and the script exits non-zero. Turn a
# finding into a regression test (see Fuzz/README.md) before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 2)); then
  echo "usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options...]" >&2
  exit 64
fi
target=$1 seconds=$2
shift 2
Fuzz/build.sh "$target"
out=.build/fuzz
corpus=$out/corpus/$target
mkdir -p "$corpus" "$out/findings"
dictionary=()
[[ -f Fuzz/Dictionaries/$target.dict ]] && dictionary=(-dict="Fuzz/Dictionaries/$target.dict")
log=$out/$target.log
# AddressSanitizer's leak report is off (the Swift runtime keeps metadata alive on purpose), and so
# is the Swift backtracer, which hangs under AddressSanitizer; libFuzzer prints the stack itself.
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$out/fuzz-$target" "$corpus" "Fuzz/Seeds/$target" \
  -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$out/findings/$target-" "${dictionary[@]}" "$@" >"$log" 2>&1 || status=$?
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
corpus_size=$(find "$corpus" -type f | wc -l)
echo "fuzz $target: ${seconds}s, ${executions:-?} executions, corpus $corpus_size inputs, exit $status"
if ((status != 0)); then
  grep -E 'Fatal error|Precondition|ERROR|SUMMARY|Test unit written|artifact' "$log" | head -20 >&2
  echo "fuzz $target: FINDING (full log: $log)" >&2
  exit "$status"
fi
