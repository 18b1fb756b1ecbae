#!/usr/bin/env bash
# Scale benchmark (issue 17): the daily work on a generated history of N trades and of 10×N,
# side by side with the growth factor (10 is linear; 1 is constant, as a report read from the
# stored positions should be), and the same on N hourly DCA buys (every lot stays open).
# Each figure is the least of FOLIO_BENCH_RUNS (default 3) runs, wall seconds and CPU seconds
# (user + system; steadier than wall time on a shared machine) each on its own: `holdings
# --method` reads ahead on a second thread, so its wall time is below its CPU time when the
# machine has a core to spare.
#
# usage: Benchmarks/scale.sh [N]   (default 100000; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-100000}
large=$((small * 10))
runs=${FOLIO_BENCH_RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product folio >/dev/null
swift build -c release --product folio-gen >/dev/null
bin=$(swift build -c release --show-bin-path)
folio=$bin/folio

# fastest LABEL DB ARGS...: appends "LABEL wall cpu", the least of each, to $work/times.
# A command that writes runs on a fresh copy of DB each time.
fastest() {
  local label=$1 db=$2
  shift 2
  python3 - "$label" "$db" "$runs" "$folio" "$@" >>"$work/times" <<'PY'
import os, shutil, subprocess, sys, time
label, db, runs, folio, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
writes = args[:1] == ["report"] and ("--save" in args or "backfill" in args)
best = None
for _ in range(runs):
    target = db
    if writes:
        target = db + ".copy"
        shutil.copyfile(db, target)
    before = os.times()
    start = time.perf_counter()
    subprocess.run([folio, "--db", target, *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    best = (wall, cpu) if best is None else (min(best[0], wall), min(best[1], cpu))
print(f"{label}\t{best[0]:.3f}\t{best[1]:.3f}")
PY
}

history() { # SIZE FOLDER [--dca]: a generated history imported, with its market snapshot
  "$bin/folio-gen" "$1" "$2" "${@:3}" >/dev/null
  "$folio" --db "$2/folio.sqlite3" import trades --allow-future "$2/trades.csv" >/dev/null
  "$folio" --db "$2/folio.sqlite3" market import "$2/markets.json" >/dev/null 2>&1
}

for size in "$small" "$large"; do
  data=$work/h$size
  history "$size" "$data"
  db=$data/folio.sqlite3
  # The history runs from 2019 for six years: a past day half a year before its end.
  past=2024-06-30
  fastest "report,$size" "$db" report
  fastest "report --save,$size" "$db" report --save
  fastest "report --date $past,$size" "$db" report --date "$past"
  for method in lifo hifo average; do
    fastest "holdings --method $method,$size" "$db" holdings --method "$method"
  done
  fastest "tx list --coin solana --limit 50,$size" "$db" tx list --coin solana --limit 50
  fastest "tx list --since $past --limit 50,$size" "$db" tx list --since "$past" --limit 50
  fastest "report backfill 365 days,$size" "$db" report backfill --since 2024-01-01 \
    --until 2024-12-31
  dca=$work/d$size
  history "$size" "$dca" --dca
  fastest "DCA: report,$size" "$dca/folio.sqlite3" report
  fastest "DCA: holdings --method lifo,$size" "$dca/folio.sqlite3" holdings --method lifo
  fastest "DCA: holdings --method hifo,$size" "$dca/folio.sqlite3" holdings --method hifo
  rm -rf "$data" "$dca"
done

python3 - "$work/times" "$small" "$large" <<'PY'
import sys
rows = {}
order = []
for line in open(sys.argv[1]):
    label, wall, cpu = line.rstrip("\n").split("\t")
    work, size = label.rsplit(",", 1)
    if work not in rows:
        rows[work] = {}
        order.append(work)
    rows[work][size] = (float(wall), float(cpu))
small, large = sys.argv[2], sys.argv[3]
print(f"{'work':40} {small + ' wall':>12} {'cpu':>7} {large + ' wall':>13} {'cpu':>7} {'growth':>7}")
for work in order:
    a, b = rows[work][small], rows[work][large]
    growth = f"{b[1] / a[1]:.1f}x" if a[1] >= 0.02 else "-"
    print(f"{work:40} {a[0]:11.3f}s {a[1]:6.2f}s {b[0]:12.3f}s {b[1]:6.2f}s {growth:>7}")
PY
