#!/usr/bin/env bash
# Import order benchmark (issue 14.1): the same generated history imported oldest first (as
# folio exports), newest first (as exchanges export) and shuffled, each into a fresh database.
# Prints each time, its ratio to the sorted import and the peak memory; the target is at most
# 1.5x the sorted time for an unsorted file.
#
# usage: Benchmarks/import-order.sh [TRADES]   (default 100000; FOLIO_BENCH_RUNS, default 3,
#        runs of each, the fastest kept)
# Needs python3 and GNU time. folio is built as it would be shipped (release, with the Swift
# runtime linked statically), as Benchmarks/trades.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-100000}
runs=${FOLIO_BENCH_RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --product folio >/dev/null
swift build -c release --static-swift-stdlib --product folio-gen >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
folio=$bin/folio

# time ORDER: imports $work/ORDER/trades.csv into a fresh database $runs times; sets elapsed
# (the fastest, in seconds) and peak (its peak memory, KiB).
time_import() {
  local fastest='' fastest_peak='' db=$work/$1.sqlite3
  for _ in $(seq "$runs"); do
    rm -f "$db" "$db-wal" "$db-shm"
    /usr/bin/time -o "$work/time" -f '%e %M' \
      "$folio" --db "$db" import trades --allow-future "$work/$1/trades.csv" >/dev/null \
      2>"$work/$1.err" || {
      cat "$work/$1.err" >&2
      exit 1
    }
    read -r seconds kib <"$work/time"
    if [ -z "$fastest" ] || python3 -c "import sys; sys.exit($seconds >= $fastest)"; then
      fastest=$seconds fastest_peak=$kib
    fi
  done
  elapsed=$fastest peak=$fastest_peak
}

printf '%-34s %9s %7s %9s\n' "import $trades trades" time ratio memory
for order in oldest newest shuffled; do
  mkdir -p "$work/$order"
  "$bin/folio-gen" "$trades" "$work/$order" --order "$order" >/dev/null
  time_import "$order"
  [ "$order" = oldest ] && sorted=$elapsed
  printf '%-34s %8.2fs %6.2fx %6sMiB\n' "$order first" "$elapsed" \
    "$(python3 -c "print($elapsed / $sorted)")" "$((peak / 1024))"
done
# The three imports must have booked the same: the same holdings, in the same words.
for order in newest shuffled; do
  if ! cmp -s <("$folio" --db "$work/oldest.sqlite3" holdings --format csv) \
    <("$folio" --db "$work/$order.sqlite3" holdings --format csv); then
    echo "the $order import booked other holdings than the sorted one" >&2
    exit 1
  fi
done
