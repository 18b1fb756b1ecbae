#!/usr/bin/env bash
# JSON benchmark (issues 12 and 17): folio's one JSON parser on growing inputs, each size twice
# the one before, so linear growth shows as a factor near 2.0 from one row to the next (and
# quadratic growth as 4.0).
#
#   numbers   a flat array of decimal numbers (5, 10, 20 MB)
#   keys      one object with 50,000, 100,000, 200,000 keys
#   markets   `folio market import` of a /coins/markets array of 5,000, 10,000, 20,000 coins
#             (about 60 MB at 20,000), made from the real captured 100-coin EUR page in
#             Fixtures/coingecko/captured by repeating it with renamed coins and adding a
#             168-price sparkline to each coin, as `sparkline=true` pages have
#   awkward   the same pages with every sparkline number written with 24 fractional digits,
#             which no plain-decimal fast path reads: each is rounded to 18
#
# The numbers and keys files are not CoinGecko responses, so `folio market import` parses them
# whole and then refuses them (exit 65): that times the parser alone, through the shipped binary.
# `net` is the wall time less that of importing a one-element file (start-up, creating the
# database); the growth factor is taken on user CPU time, which other load disturbs far less.
#
# usage: Benchmarks/json.sh [SCALE]   (default 1: the sizes above; 0.1 for a quick look)
#        FOLIO_BENCH_RUNS (default 3) runs of each timing, the fastest kept; FOLIO_BIN, a folio
#        binary to time instead of building one.
# Needs python3 and GNU time. folio is built as it would be shipped (release,
# --static-swift-stdlib).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
runs=${FOLIO_BENCH_RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${FOLIO_BIN:-}" ]; then # a folio built already, such as an older one to compare
  folio=$FOLIO_BIN
else
  swift build -c release --static-swift-stdlib --product folio >/dev/null
  folio=$(swift build -c release --static-swift-stdlib --show-bin-path)/folio
fi

python3 - "$work" "$scale" <<'EOF'
import json, random, sys
work, scale = sys.argv[1], float(sys.argv[2])
rng = random.Random(12)
for step in range(3):
    target = int(5_000_000 * scale) << step
    with open(f"{work}/numbers-{step}.json", "w") as out:
        out.write("[")
        written, first = 1, True
        while written < target:
            item = ("" if first else ",") + f"{rng.randrange(10**6)}.{rng.randrange(10**8):08d}"
            out.write(item)
            written += len(item)
            first = False
        out.write("]")
    keys = int(50_000 * scale) << step
    with open(f"{work}/keys-{step}.json", "w") as out:
        out.write("{" + ",".join(f'"key{i}": {i}.5' for i in range(keys)) + "}")
with open(f"{work}/tiny.json", "w") as out:
    out.write("[1]")
page = json.load(open("Fixtures/coingecko/captured/coins_markets_eur_100_nosparkline_2024-01-24.json"))
for step in range(3):
    coins = []
    for i in range(int(5_000 * scale) << step):
        coin = dict(page[i % len(page)])
        coin["id"] = f"{coin['id']}-{i}"
        coin["symbol"] = f"{coin['symbol']}{i}"
        price = coin["current_price"] or 1
        walk = []
        for _ in range(168):
            price *= 1 + rng.uniform(-0.01, 0.01)
            walk.append(float(f"{price:.12g}"))
        coin["sparkline_in_7d"] = {"price": walk}
        coins.append(coin)
    with open(f"{work}/markets-{step}.json", "w") as out:
        json.dump(coins, out, indent=None)
    # The same coins with every sparkline number written with 24 fractional digits
    # (1234.567890123000000000000000): none is a plain decimal of at most 18, so each goes
    # through the full conversion and is rounded.
    pieces = json.dumps([dict(coin, sparkline_in_7d="@") for coin in coins]).split('"@"')
    with open(f"{work}/awkward-{step}.json", "w") as out:
        for piece, coin in zip(pieces, coins):
            walk = coin["sparkline_in_7d"]["price"]
            out.write(piece + '{"price": [' + ",".join(f"{p:.24f}" for p in walk) + "]}")
        out.write(pieces[-1])
EOF

# time FILE [EXPECTED_EXIT]: the fastest of $runs `folio market import FILE` into a fresh
# database, in seconds; sets elapsed, cpu (user seconds) and peak (KiB).
time_import() {
  local file=$1 expect=${2:-0} fastest='' status
  for _ in $(seq "$runs"); do
    rm -f "$work/db.sqlite3" "$work/db.sqlite3-wal" "$work/db.sqlite3-shm"
    status=0
    /usr/bin/time -o "$work/time" -f '%e %U %M' \
      "$folio" --db "$work/db.sqlite3" market import --vs eur "$file" \
      >/dev/null 2>"$work/err" || status=$?
    if [ "$status" != "$expect" ]; then
      echo "json.sh: $file: exit $status, expected $expect:" >&2
      cat "$work/err" >&2
      exit 1
    fi
    # GNU time writes "Command exited with non-zero status 65" first when the exit is not 0.
    read -r elapsed cpu peak < <(tail -n 1 "$work/time")
    if [ -z "$fastest" ] || python3 -c "import sys; sys.exit($elapsed >= $fastest)"; then
      fastest=$elapsed fastest_peak=$peak fastest_cpu=$cpu
    fi
  done
  elapsed=$fastest peak=$fastest_peak cpu=$fastest_cpu
}

time_import "$work/tiny.json" 65
start=$elapsed
echo "start-up (a one-element file): $start s"
printf '%-8s %9s %7s %8s %7s %8s %9s %7s\n' input items MB seconds net user_cpu peak_MiB growth
for kind in numbers keys markets awkward; do
  expect=65
  [ "$kind" = markets ] || [ "$kind" = awkward ] && expect=0
  previous=''
  for step in 0 1 2; do
    file=$work/$kind-$step.json
    time_import "$file" "$expect"
    items=$(python3 -c "
import json, sys
value = json.load(open(sys.argv[1]))
print(len(value))" "$file")
    megabytes=$(python3 -c "import os, sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.1f}')" "$file")
    net=$(python3 -c "print(f'{max($elapsed - $start, 0.01):.2f}')")
    growth=$([ -n "$previous" ] && python3 -c "print(f'{$cpu / max($previous, 0.01):.2f}')" || echo -)
    printf '%-8s %9s %7s %8s %7s %8s %9s %7s\n' "$kind" "$items" "$megabytes" "$elapsed" "$net" \
      "$cpu" "$((peak / 1024))" "$growth"
    previous=$cpu
  done
done
echo "growth: user CPU of each size over that of the one half its size (2.00 is linear, 4.00"
echo "quadratic); CPU time, unlike wall time, hardly depends on what else the machine runs."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
