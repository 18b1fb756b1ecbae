#!/usr/bin/env bash
# Daily benchmark (issue 19): `folio daily --offline --formats html,md` on two portfolios of N
# generated trades each (default 100000), against the 1 s target, side by side with a
# baseline: the sqlite3 CLI reading the same database (every trade of both portfolios, summed
# per portfolio and coin, the least any report of them must read), and the ratio.
# Each figure is the median of FOLIO_BENCH_RUNS (default 5) runs, wall seconds.
#
# usage: Benchmarks/daily.sh [N]   (release build; needs python3 and sqlite3)
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-100000}
runs=${FOLIO_BENCH_RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --product folio >/dev/null
swift build -c release --static-swift-stdlib --product folio-gen >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
folio=$bin/folio
db=$work/folio.sqlite3

# Two portfolios (main and second) of N trades each, from two seeds, and the market snapshot.
"$bin/folio-gen" "$trades" "$work/a" --seed 1 >/dev/null
"$bin/folio-gen" "$trades" "$work/b" --seed 2 >/dev/null
"$folio" --db "$db" import trades --allow-future "$work/a/trades.csv" >/dev/null
"$folio" --db "$db" portfolio add second >/dev/null
"$folio" --db "$db" --portfolio second import trades --allow-future "$work/b/trades.csv" >/dev/null
"$folio" --db "$db" market import "$work/a/markets.json" >/dev/null 2>&1

# median LABEL COMMAND...: appends "LABEL seconds" (the median of $runs runs) to $work/times.
median() {
  python3 - "$runs" "$@" >>"$work/times" <<'PY'
import statistics, subprocess, sys, time
runs, label, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print(f"{label}\t{statistics.median(times):.3f}")
PY
}

median daily "$folio" --db "$db" daily --offline --formats html,md --out-dir "$work/reports"
median sqlite3 sqlite3 "$db" \
  "SELECT portfolio_id, coin_id, sum(CAST(quantity AS REAL) * CAST(price AS REAL)), count(*)
   FROM trades GROUP BY portfolio_id, coin_id"
# What the timed runs did, as the summary line says it.
"$folio" --db "$db" daily --offline --formats html,md --out-dir "$work/reports" | sed 's/^/summary: /'

python3 - "$work/times" "$trades" "$runs" <<'PY'
import sys
times = dict(line.rstrip("\n").split("\t") for line in open(sys.argv[1]))
daily, baseline = float(times["daily"]), float(times["sqlite3"])
print(f"folio daily --offline --formats html,md, 2 portfolios x {sys.argv[2]} trades "
      f"(median of {sys.argv[3]} runs)")
print(f"{'folio daily':34} {daily:7.3f} s   target 1 s: {'met' if daily <= 1 else 'OVER'}")
print(f"{'baseline: sqlite3 reading trades':34} {baseline:7.3f} s")
print(f"{'ratio folio / baseline':34} {daily / baseline:7.2f}x")
PY
