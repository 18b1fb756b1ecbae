#!/usr/bin/env bash
# Peers benchmark (issue 17): the same generated history (Benchmarks/folio-gen writes the CSV,
# an hledger journal and a beancount file of the same trades and prices) through folio's
# pipeline (import the trades, import the prices, show the holdings valued) and through
# `hledger bal -V` and `bean-check --no-cache`. Prints each one's wall time, CPU time (user +
# system) and peak memory, and folio's advantage (target: at least 15x hledger, 40x beancount).
# Also SQLite alone storing the rows folio's import stored, three ways: the sqlite3 CLI's
# `.import` of each table's rows from CSV files (Benchmarks/import-rows.sh); a program handing
# them to SQLite from memory in bulk (Benchmarks/write-floor.c, built when `cc` is there); and
# the floor, the CLI copying them in one statement per table from a database that holds them
# (Benchmarks/floor.sh); and the peers' times over each: how far ahead a program storing those
# rows could be, were its own work (reading the CSV, decimals, booking, prices, holdings) free.
# A peer that is not installed is skipped. Each timing is the fastest of FOLIO_BENCH_RUNS (default 3) runs, by CPU time,
# each run after a `sync`.
#
# usage: Benchmarks/peers.sh [TRADES]   (default 100000; needs python3 and GNU time)
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-100000}
runs=${FOLIO_BENCH_RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --product folio >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
# folio-gen links the test support module (and so Testing): built without the static runtime.
swift build -c release --product folio-gen >/dev/null
"$(swift build -c release --show-bin-path)/folio-gen" "$trades" "$work/data" >/dev/null

# The folio pipeline, on a fresh database each time.
cat >"$work/folio.sh" <<SH
#!/usr/bin/env bash
set -e
rm -f "$work/folio.sqlite3" "$work/folio.sqlite3-wal" "$work/folio.sqlite3-shm"
"$bin/folio" --db "$work/folio.sqlite3" import trades --allow-future "$work/data/trades.csv"
"$bin/folio" --db "$work/folio.sqlite3" market import "$work/data/markets.json" 2>/dev/null
"$bin/folio" --db "$work/folio.sqlite3" holdings
SH
chmod +x "$work/folio.sh"

# measure NAME COMMAND...: the fastest run's "wall cpu peakKiB", or nothing when it fails.
measure() {
  local name=$1 best='' line
  shift
  for _ in $(seq "$runs"); do
    # What earlier runs, the build and the generator wrote is flushed first, so that no run
    # waits behind another's writes to the disk.
    sync
    /usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$work/$name.err" || {
      echo "$name failed: $(tail -1 "$work/$name.err")" >&2
      return 0
    }
    line=$(python3 -c 'import sys; e,u,s,m=sys.argv[1].split(); print(e, round(float(u)+float(s),2), m)' "$(cat "$work/time")")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ${line#* } < ${best#* })" 2>/dev/null; then
      best=$line
    fi
  done
  echo "$best"
}

declare -A result
result[folio]=$(measure folio "$work/folio.sh")
if command -v hledger >/dev/null; then
  result[hledger]=$(measure hledger hledger -f "$work/data/journal.ledger" bal -V)
fi
if command -v bean-check >/dev/null; then
  result[beancount]=$(measure beancount bean-check --no-cache "$work/data/journal.beancount")
fi

# The floor, on a fresh database with folio's schema each time (migrated, as the pipeline's
# import migrates its new database).
Benchmarks/floor.sh "$work/folio.sqlite3" >"$work/floor.sql"
cat >"$work/floor.sh" <<SH
#!/usr/bin/env bash
set -e
rm -f "$work/floor.sqlite3" "$work/floor.sqlite3-wal" "$work/floor.sqlite3-shm"
"$bin/folio" --db "$work/floor.sqlite3" db migrate
sqlite3 "$work/floor.sqlite3" ".read $work/floor.sql"
SH
chmod +x "$work/floor.sh"
result[floor]=$(measure floor "$work/floor.sh")

# The sqlite3 CLI's own .import of the same rows, into a file that does not exist yet.
Benchmarks/import-rows.sh "$work/folio.sqlite3" "$work/rows" >"$work/rows.sql"
cat >"$work/rows.sh" <<SH
#!/usr/bin/env bash
set -e
rm -f "$work/rows.sqlite3" "$work/rows.sqlite3-wal" "$work/rows.sqlite3-shm"
sqlite3 "$work/rows.sqlite3" ".read $work/rows.sql"
SH
chmod +x "$work/rows.sh"
result[rows]=$(measure rows "$work/rows.sh")

# SQLite writing the same rows from memory through a virtual table, one statement per 4,096 rows
# (Benchmarks/write-floor.c): the cheapest way open to a program that makes the rows itself. The
# program times its writing alone, not its reading of the rows from the database above.
if command -v cc >/dev/null; then
  cc -O2 -o "$work/write-floor" Benchmarks/write-floor.c -lsqlite3
  best=''
  for _ in $(seq "$runs"); do
    rm -f "$work/bulk.sqlite3" "$work/bulk.sqlite3-wal" "$work/bulk.sqlite3-shm"
    "$bin/folio" --db "$work/bulk.sqlite3" db migrate >/dev/null
    sync
    read -r w c <<<"$("$work/write-floor" bulk "$work/folio.sqlite3" "$work/bulk.sqlite3")"
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $c < ${best#* })"; then
      best="$w $c"
    fi
  done
  result[bulk]="$best -" # its memory holds every row read, not what writing them takes
fi

printf '%-44s %9s %9s %9s %9s %9s\n' "pipeline ($trades trades)" wall cpu "peak MiB" "x wall" "x cpu"
read -r fw fc _ <<<"${result[folio]}"
for name in folio rows bulk floor hledger beancount; do
  line=${result[$name]:-}
  label=$(case $name in
    folio) echo "folio: import + market import + holdings" ;;
    rows) echo "sqlite3 .import of the rows folio stores" ;;
    bulk) echo "SQLite writing them from memory, in bulk" ;;
    floor) echo "floor: sqlite3 copying the rows folio stores" ;;
    hledger) echo "hledger bal -V" ;;
    beancount) echo "bean-check --no-cache" ;;
  esac)
  if [ -z "$line" ]; then
    printf '%-44s %s\n' "$label" "skipped (not installed or failed)"
    continue
  fi
  read -r w c m <<<"$line"
  printf '%-44s %8ss %8ss %9s %8sx %8sx\n' "$label" "$w" "$c" "$([ "$m" = - ] || echo $((m / 1024)))" \
    "$(python3 -c "print(f'{$w / $fw:.1f}')")" "$(python3 -c "print(f'{$c / max($fc, 0.01):.1f}')")"
done
# What the peers' times over each way of storing folio's rows allow: the most a program storing
# them that way could be ahead, whatever its own work cost.
for base in rows bulk floor; do
  [ -n "${result[$base]:-}" ] || continue
  read -r lw lc _ <<<"${result[$base]}"
  for name in hledger beancount; do
    line=${result[$name]:-}
    [ -n "$line" ] || continue
    read -r w c _ <<<"$line"
    printf '%-44s %9s %9s %9s %8sx %8sx\n' "  $name over the $(
      case $base in rows) echo .import ;; bulk) echo 'bulk writing' ;; *) echo floor ;; esac)" \
      "" "" "" \
      "$(python3 -c "print(f'{$w / $lw:.1f}')")" "$(python3 -c "print(f'{$c / max($lc, 0.01):.1f}')")"
  done
done
