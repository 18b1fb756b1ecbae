#!/usr/bin/env bash
# DCA benchmark (issue 17): buys of one coin an hour apart (closer beyond six years of hours:
# the generator ends every history in 2024), so every lot stays open. Times `report`
# and `holdings --method lifo` (a method other than the stored one: every trade is replayed)
# at N and 2N trades and prints the growth factor: about 2 for a linear path, 4 for a
# quadratic one (booking used to copy the coin's whole list of lots on every trade).
#
# usage: Benchmarks/dca.sh [N]   (default 50000; release build, the fastest of 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-50000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product folio >/dev/null
swift build -c release --product folio-gen >/dev/null
bin=$(swift build -c release --show-bin-path)

fastest() { # command...: the fastest of 3 wall-clock runs, in seconds
  python3 - "$@" <<'PY'
import subprocess, sys, time
best = None
for _ in range(3):
    start = time.perf_counter()
    subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(f"{best:.3f}")
PY
}

declare -A seconds
for size in "$small" $((small * 2)); do
  data=$work/$size
  "$bin/folio-gen" "$size" "$data" --dca >/dev/null
  db=$data/folio.sqlite3
  "$bin/folio" --db "$db" import trades --allow-future "$data/trades.csv" >/dev/null
  "$bin/folio" --db "$db" market import "$data/markets.json" >/dev/null
  seconds[report,$size]=$(fastest "$bin/folio" --db "$db" report)
  seconds[lifo,$size]=$(fastest "$bin/folio" --db "$db" holdings --method lifo)
done

printf '%-28s %10s %10s %8s\n' work "$small" $((small * 2)) growth
for work_name in report lifo; do
  a=${seconds[$work_name,$small]} b=${seconds[$work_name,$((small * 2))]}
  label=$([ "$work_name" = report ] && echo "report (s)" || echo "holdings --method lifo (s)")
  printf '%-28s %10s %10s %8s\n' "$label" "$a" "$b" "$(python3 -c "print(f'{$b / $a:.2f}x')")"
done
