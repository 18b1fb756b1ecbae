#!/usr/bin/env bash
# Listing benchmark (issue 17, "no quadratic path"): every trade of a generated history of N
# trades and of 10×N listed as text, JSON and CSV (`tx list`), every gain (`gains` over all
# the years) and every trade through `folio sql`, beside the `sqlite3` CLI printing the same
# trades' columns as CSV and as JSON. For each: CPU seconds (user + system, the least of
# FOLIO_BENCH_RUNS runs, default 2), the peak memory, and the growth from N to 10×N (10 is
# linear). A listing written as it is read keeps its memory flat as the history grows.
#
# usage: Benchmarks/listing.sh [N]   (default 100000; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-100000}
large=$((small * 10))
runs=${FOLIO_BENCH_RUNS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product folio >/dev/null
swift build -c release --product folio-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
folio=$bin/folio
command -v sqlite3 >/dev/null || { echo "listing.sh: the sqlite3 CLI is needed" >&2; exit 69; }

# measure LABEL COMMAND...: appends "LABEL cpu peak-MiB", the least CPU of $runs runs and the
# largest peak, to $work/times; the output goes to /dev/null.
measure() {
  python3 - "$runs" "$@" >>"$work/times" <<'PY'
import os, subprocess, sys
runs, label, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cpu, peak = None, 0
for _ in range(runs):
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"listing.sh: {' '.join(command)} failed ({status})")
    used = usage.ru_utime + usage.ru_stime
    cpu = used if cpu is None else min(cpu, used)
    peak = max(peak, usage.ru_maxrss / 1024)
print(f"{label}\t{cpu:.3f}\t{peak:.0f}")
PY
}

for size in "$small" "$large"; do
  data=$work/h$size
  "$bin/folio-gen" "$size" "$data" >/dev/null
  db=$data/folio.sqlite3
  "$folio" --db "$db" import trades --allow-future "$data/trades.csv" >/dev/null
  measure "folio tx list,$size" "$folio" --db "$db" tx list
  measure "folio tx list --format json,$size" "$folio" --db "$db" tx list --format json
  measure "folio tx list --format csv,$size" "$folio" --db "$db" tx list --format csv
  measure "folio gains (all years),$size" "$folio" --db "$db" gains --since 2019-01-01
  measure "folio sql --format json,$size" "$folio" --db "$db" sql --format json \
    "SELECT * FROM trades"
  measure "sqlite3 -csv,$size" sqlite3 -csv "$db" "SELECT * FROM trades"
  measure "sqlite3 -json,$size" sqlite3 -json "$db" "SELECT * FROM trades"
  rm -rf "$data"
done

python3 - "$work/times" "$small" "$large" <<'PY'
import sys
rows, order = {}, []
for line in open(sys.argv[1]):
    label, cpu, peak = line.rstrip("\n").split("\t")
    work, size = label.rsplit(",", 1)
    if work not in rows:
        rows[work] = {}
        order.append(work)
    rows[work][size] = (float(cpu), float(peak))
small, large = sys.argv[2], sys.argv[3]
print(f"{'listing':32} {small + ' cpu':>12} {'MiB':>5} {large + ' cpu':>13} {'MiB':>5} {'growth':>7}")
for work in order:
    a, b = rows[work][small], rows[work][large]
    growth = f"{b[0] / a[0]:.1f}x" if a[0] >= 0.02 else "-"
    print(f"{work:32} {a[0]:11.2f}s {a[1]:5.0f} {b[0]:12.2f}s {b[1]:5.0f} {growth:>7}")
PY
