#!/usr/bin/env bash
# Trades benchmark (issue 3): importing a generated history with folio against the sqlite3 CLI
# doing the same job in the same run, peak memory, `folio holdings` and one `folio buy` on the
# resulting database. Prints both figures and the ratio.
#
# usage: Benchmarks/trades.sh [TRADES]   (default 1000000)
# Needs python3, sqlite3, GNU time, and libcurl4-openssl-dev: folio is built as it would be
# shipped, with the Swift runtime linked statically (--static-swift-stdlib), which halves its
# start-up time.
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-1000000}
gen=${FOLIO_BENCH_GEN:-../shared/bench/gen.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --product folio >/dev/null
folio=$(swift build -c release --static-swift-stdlib --show-bin-path)/folio
mkdir -p "$work/data"
python3 "$gen" "$trades" "$work/data" >/dev/null
csv=$work/data/trades.csv

seconds() { python3 -c 'import sys; print(f"{float(sys.argv[1]):.2f}")' "$1"; }
measure() { # label, command...: sets elapsed (s) and peak (KiB)
  /usr/bin/time -o "$work/time" -f '%e %M' "${@:2}" >/dev/null 2>"$work/$1.err" || {
    cat "$work/$1.err" >&2
    exit 1
  }
  read -r elapsed peak <"$work/time"
}

measure baseline sqlite3 "$work/baseline.sqlite3" 'PRAGMA journal_mode=WAL' \
  ".import --csv $csv trades" 'CREATE INDEX trades_by_coin ON trades (coin, date)'
base=$elapsed
measure folio "$folio" --db "$work/folio.sqlite3" import trades "$csv"
mine=$elapsed
mine_peak=$peak
ratio=$(python3 -c "print(f'{$mine / $base:.2f}')")

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
printf '%-46s %9ss %9ss %7sx\n' "import CSV into a fresh WAL database" "$(seconds "$mine")" "$(seconds "$base")" "$ratio"
printf '%-46s %8sMiB\n' "peak memory of the import" "$((mine_peak / 1024))"
printf '%-46s %8sms %8sms\n' "holdings (folio) / GROUP BY (sqlite3)" "$holdings_ms" "$group_ms"
printf '%-46s %8sms\n' "one buy on that database" "$buy_ms"
