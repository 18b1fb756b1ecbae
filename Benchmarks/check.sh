#!/usr/bin/env bash
# `folio db check` benchmark (issue 17, "no quadratic path"): the check of a generated history
# of N trades and of 10×N, and of N trades spread over 100 positions instead of 10, beside the
# `sqlite3` CLI's `PRAGMA integrity_check` of the same file, which the check runs and so cannot
# beat. For each: wall and CPU seconds (the least of FOLIO_BENCH_RUNS runs, default 2), the
# peak memory, folio's wall over the integrity check's, and the growth from N to 10×N (10 is
# linear). The check reads each derived row once, through its trade, whatever the number of
# positions; the integrity check runs on a second thread beside the rest.
#
# usage: Benchmarks/check.sh [N]   (default 100000; release build)
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
command -v sqlite3 >/dev/null || { echo "check.sh: the sqlite3 CLI is needed" >&2; exit 69; }

# measure LABEL COMMAND...: appends "LABEL wall cpu peak-MiB", the least wall and CPU of $runs
# runs and the largest peak, to $work/times; the output goes to /dev/null.
measure() {
  python3 - "$runs" "$@" >>"$work/times" <<'PY'
import os, subprocess, sys, time
runs, label, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
wall, cpu, peak = None, None, 0
for _ in range(runs):
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.monotonic() - start
    if status != 0:
        sys.exit(f"check.sh: {' '.join(command)} failed ({status})")
    used = usage.ru_utime + usage.ru_stime
    wall = took if wall is None else min(wall, took)
    cpu = used if cpu is None else min(cpu, used)
    peak = max(peak, usage.ru_maxrss / 1024)
print(f"{label}\t{wall:.3f}\t{cpu:.3f}\t{peak:.0f}")
PY
}

# check LABEL DB: the folio check and the integrity check of DB.
check() {
  measure "folio db check,$1" "$folio" --db "$2" db check
  measure "sqlite3 integrity_check,$1" sqlite3 "$2" "PRAGMA integrity_check"
}

for size in "$small" "$large"; do
  data=$work/h$size
  "$bin/folio-gen" "$size" "$data" >/dev/null
  "$folio" --db "$data/folio.sqlite3" import trades --allow-future "$data/trades.csv" >/dev/null
  check "10 positions,$size" "$data/folio.sqlite3"
  rm -rf "$data"
done

# 100 positions: ten histories of N/10 trades (seeds 1 to 10), each coin renamed bitcoin-1 …
csv=$work/spread.csv
echo "date,side,coin,quantity,price,fee,note" >"$csv"
for seed in 1 2 3 4 5 6 7 8 9 10; do
  "$bin/folio-gen" $((small / 10)) "$work/s$seed" --seed "$seed" >/dev/null
  tail -n +2 "$work/s$seed/trades.csv" |
    awk -F, -v OFS=, -v seed="$seed" '{ $3 = $3 "-" seed; print }' >>"$csv"
  rm -rf "$work/s$seed"
done
"$folio" --db "$work/spread.sqlite3" import trades --allow-future --new-coin "$csv" >/dev/null
check "100 positions,$small" "$work/spread.sqlite3"

python3 - "$work/times" "$small" "$large" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    label, wall, cpu, peak = line.rstrip("\n").split("\t")
    work, shape, size = label.split(",")
    rows[(work, shape, size)] = (float(wall), float(cpu), float(peak))
small, large = sys.argv[2], sys.argv[3]
print(f"{'check':26} {'history':22} {'wall':>8} {'cpu':>8} {'MiB':>5} {'/ integrity':>12}")
for (work, shape, size), (wall, cpu, peak) in rows.items():
    base = rows[("sqlite3 integrity_check", shape, size)][0]
    ratio = f"{wall / base:.1f}x" if work.startswith("folio") else ""
    print(f"{work:26} {shape + ', ' + size:22} {wall:7.2f}s {cpu:7.2f}s {peak:5.0f} {ratio:>12}")
for work in ("folio db check", "sqlite3 integrity_check"):
    a = rows[(work, "10 positions", small)][0]
    b = rows[(work, "10 positions", large)][0]
    c = rows[(work, "100 positions", small)][0]
    print(f"{work}: growth {small} to {large} trades {b / a:.1f}x (wall); "
          f"100 positions instead of 10: {c / a:.2f}x")
PY
