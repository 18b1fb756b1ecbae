#!/usr/bin/env bash
# Every figure of docs/performance.md (issue 17) in one run: the machine and its load, then
# each benchmark in turn, each printing folio's figures beside its baseline from the same run.
#
#   Benchmarks/trades.sh 1000000   import against the sqlite3 CLI's .import (+ index by coin),
#                                  and against SQLite alone storing the rows folio stores
#   Benchmarks/peers.sh 100000     import + prices + holdings against hledger and beancount,
#                                  and what SQLite alone storing folio's rows allows
#   Benchmarks/scale.sh 100000     report, --save, --date, holdings --method, tx list, backfill
#                                  and DCA at 100k and 1M, with the growth factor
#   Benchmarks/dca.sh              hourly buys of one coin at N and 2N
#   Benchmarks/json.sh             market import of /coins/markets pages up to 20,000 coins
#   Benchmarks/import-order.sh     sorted, newest-first and shuffled files
#   Benchmarks/daily.sh            folio daily against sqlite3 reading the trades
#   Benchmarks/listing.sh 100000   every trade listed (text, JSON, CSV) and every gain, at N and 10N
#   Benchmarks/check.sh 100000     db check at N and 10N, and over 100 positions, beside integrity_check
#
# usage: Benchmarks/all.sh [OUTPUT]   (also written to OUTPUT when given; FOLIO_BENCH_RUNS is
#        passed on). Takes about an hour on a quiet 2-core machine. Wall time on a shared
#        machine is noisy: compare the CPU columns and the ratios, which each script measures
#        against its baseline in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-/dev/null}

{
  echo "# Benchmarks/all.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD)"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GB"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  for bench in "trades.sh 1000000" "peers.sh 100000" "scale.sh 100000" "dca.sh" "json.sh" \
    "import-order.sh 100000" "daily.sh" "listing.sh 100000" "check.sh 100000"; do
    echo
    echo "## Benchmarks/$bench (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    # shellcheck disable=SC2086 # the arguments are split on purpose
    Benchmarks/$bench 2>&1
  done
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$output"
