#!/usr/bin/env bash
# Trades benchmark (issue 3): importing a generated history with folio against the sqlite3 CLI
# doing the same job in the same run, peak memory, `folio holdings` and one `folio buy` on the
# resulting database. Prints both figures and the ratio; the sqlite3 CLI's `.import` of every
# row folio stores, with the same indexes (Benchmarks/import-rows.sh), the same storing done by
# the issue's baseline; SQLite writing those rows from memory, by row, 32 rows a statement (as
# folio writes them) and in bulk (Benchmarks/write-floor.c); and two floors, each against the
# baseline with its index: the sqlite3 CLI copying the rows folio stores in one statement per
# table (Benchmarks/floor.sh), and the least any such import must store
# (Benchmarks/minimal-floor.sql).
#
# usage: Benchmarks/trades.sh [TRADES]   (default 1000000; FOLIO_BENCH_RUNS, default 3, runs
#        of each timing, the fastest kept)
# Needs python3, sqlite3 and GNU time. folio is built as it would be shipped, with the Swift
# runtime linked statically (--static-swift-stdlib), which halves its start-up time.
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --product folio >/dev/null
swift build -c release --static-swift-stdlib --product folio-gen >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
folio=$bin/folio
mkdir -p "$work/data"
"$bin/folio-gen" "$trades" "$work/data" >/dev/null
csv=$work/data/trades.csv

seconds() { python3 -c 'import sys; print(f"{float(sys.argv[1]):.2f}")' "$1"; }
measure() { # label, command...: sets elapsed (s) and peak (KiB)
  /usr/bin/time -o "$work/time" -f '%e %M' "${@:2}" >/dev/null 2>"$work/$1.err" || {
    cat "$work/$1.err" >&2
    exit 1
  }
  read -r elapsed peak <"$work/time"
}

# best FILE label command...: the fastest of $runs runs, each into a fresh FILE (a shared
# machine adds noise, never speed); sets elapsed and peak.
runs=${FOLIO_BENCH_RUNS:-3}
best() {
  local file=$1 fastest='' fastest_peak=''
  shift
  for _ in $(seq "$runs"); do
    rm -f "$file" "$file-wal" "$file-shm"
    measure "$@"
    if [ -z "$fastest" ] || python3 -c "import sys; sys.exit($elapsed >= $fastest)"; then
      fastest=$elapsed fastest_peak=$peak
    fi
  done
  elapsed=$fastest peak=$fastest_peak
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }

# The issue's baseline is `.import` alone; an index by coin, which folio's import also builds,
# is timed separately and shown as a second baseline.
best "$work/baseline.sqlite3" baseline sqlite3 "$work/baseline.sqlite3" \
  'PRAGMA journal_mode=WAL' ".import --csv $csv trades"
base=$elapsed
measure index sqlite3 "$work/baseline.sqlite3" 'CREATE INDEX trades_by_coin ON trades (coin, date)'
indexed=$(python3 -c "print($base + $elapsed)")
# The same in the CLI's own journal mode (a rollback journal): each page written once, as
# folio writes a new database it builds out of sight (docs/trades.md) before it names it, in
# WAL mode.
best "$work/plain.sqlite3" plain sqlite3 "$work/plain.sqlite3" ".import --csv $csv trades" \
  'CREATE INDEX trades_by_coin ON trades (coin, date)'
plain=$elapsed
best "$work/folio.sqlite3" folio "$folio" --db "$work/folio.sqlite3" import trades --allow-future "$csv"
mine=$elapsed
mine_peak=$peak

# The floor: the sqlite3 CLI alone writing the rows folio stored (Benchmarks/floor.sh).
Benchmarks/floor.sh "$work/folio.sqlite3" >"$work/floor.sql"
floor=''
for _ in $(seq "$runs"); do
  rm -f "$work/floor.sqlite3"*
  "$folio" --db "$work/floor.sqlite3" db migrate >/dev/null
  measure floor sqlite3 "$work/floor.sqlite3" ".read $work/floor.sql"
  if [ -z "$floor" ] || python3 -c "import sys; sys.exit($elapsed >= $floor)"; then
    floor=$elapsed
  fi
done
# The same with the least any such import must store (Benchmarks/minimal-floor.sql).
best "$work/minimal.sqlite3" minimal sqlite3 "$work/minimal.sqlite3" 'PRAGMA journal_mode = WAL' \
  "ATTACH '$work/folio.sqlite3' AS done" ".read Benchmarks/minimal-floor.sql"
minimal=$elapsed
# The issue's baseline storing what folio stores: the sqlite3 CLI's `.import` of each table's
# rows, with the same indexes (Benchmarks/import-rows.sh).
Benchmarks/import-rows.sh "$work/folio.sqlite3" "$work/rows" >"$work/rows.sql"
best "$work/rows.sqlite3" rows sqlite3 "$work/rows.sqlite3" ".read $work/rows.sql"
rows=$elapsed
# SQLite writing the same rows from memory (Benchmarks/write-floor.c, which times its writing
# alone): a statement run per row, 32 rows a statement as folio's import writes them, and in
# bulk through a virtual table, the cheapest way open to a program that makes the rows itself.
# Built when `cc` is there.
declare -A written=()
if command -v cc >/dev/null; then
  cc -O2 -o "$work/write-floor" Benchmarks/write-floor.c -lsqlite3
  for mode in row values bulk; do
    for _ in $(seq "$runs"); do
      rm -f "$work/$mode.sqlite3"*
      "$folio" --db "$work/$mode.sqlite3" db migrate >/dev/null
      read -r elapsed _ <<<"$("$work/write-floor" "$mode" "$work/folio.sqlite3" "$work/$mode.sqlite3")"
      if [ -z "${written[$mode]:-}" ] || python3 -c "import sys; sys.exit($elapsed >= ${written[$mode]})"; then
        written[$mode]=$elapsed
      fi
    done
  done
fi

holdings_ms=$(python3 - "$folio" "$work/folio.sqlite3" <<'PY'
import subprocess, sys, time
best = min(
    (lambda t: (subprocess.run([sys.argv[1], "--db", sys.argv[2], "holdings"], check=True,
                               stdout=subprocess.DEVNULL), time.perf_counter() - t)[1])(time.perf_counter())
    for _ in range(5))
print(f"{best * 1000:.0f}")
PY
)
group_ms=$(python3 - "$work/baseline.sqlite3" <<'PY'
import subprocess, sys, time
t = time.perf_counter()
subprocess.run(["sqlite3", sys.argv[1], "SELECT coin, count(*) FROM trades GROUP BY coin"],
               check=True, stdout=subprocess.DEVNULL)
print(f"{(time.perf_counter() - t) * 1000:.0f}")
PY
)
buy_ms=$(python3 - "$folio" "$work/folio.sqlite3" <<'PY'
import subprocess, sys, time
times = []
for i in range(5):
    t = time.perf_counter()
    subprocess.run([sys.argv[1], "--db", sys.argv[2], "buy", "bitcoin", "0.001", "--price", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - t)
print(f"{min(times) * 1000:.0f}")
PY
)

printf '%-46s %10s %10s %8s\n' "work ($trades trades)" folio sqlite3 ratio
printf '%-46s %9ss %9ss %7sx\n' "import CSV into a new database (WAL)" "$(seconds "$mine")" \
  "$(seconds "$base")" "$(ratio "$mine" "$base")"
printf '%-46s %9ss %9ss %7sx\n' "  the same, baseline also indexing by coin" "$(seconds "$mine")" \
  "$(seconds "$indexed")" "$(ratio "$mine" "$indexed")"
printf '%-46s %9ss %9ss %7sx\n' "  the same, baseline in its rollback journal" "$(seconds "$mine")" \
  "$(seconds "$plain")" "$(ratio "$mine" "$plain")"
printf '%-46s %9ss %9ss %7sx\n' "  the same, baseline .import-ing folio's rows" "$(seconds "$mine")" \
  "$(seconds "$rows")" "$(ratio "$mine" "$rows")"
printf '%-46s %9s %9ss %7sx\n' "sqlite3 .import of folio's rows, to the index" "-" \
  "$(seconds "$rows")" "$(ratio "$rows" "$indexed")"
for mode in row values bulk; do
  [ -n "${written[$mode]:-}" ] || continue
  printf '%-46s %9s %9ss %7sx\n' "SQLite writing them from memory, $(
    case $mode in row) echo 'by row' ;; values) echo '32 a run' ;; *) echo 'in bulk' ;; esac)" "-" \
    "$(seconds "${written[$mode]}")" "$(ratio "${written[$mode]}" "$indexed")"
done
printf '%-46s %9s %9ss %7sx\n' "floor: sqlite3 copying folio's rows, the same" "-" \
  "$(seconds "$floor")" "$(ratio "$floor" "$indexed")"
printf '%-46s %9s %9ss %7sx\n' "floor: the same into a minimal schema" "-" \
  "$(seconds "$minimal")" "$(ratio "$minimal" "$indexed")"
printf '%-46s %8sMiB\n' "peak memory of the import" "$((mine_peak / 1024))"
printf '%-46s %8sms %8sms\n' "holdings (folio) / GROUP BY (sqlite3)" "$holdings_ms" "$group_ms"
printf '%-46s %8sms\n' "one buy on that database" "$buy_ms"
