#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Targets/*.swift) into .build/fuzz/, with swiftc directly:
# `swift build` and `swift test` never see them. The Folio modules are compiled once with
# coverage instrumentation (-sanitize=fuzzer) and AddressSanitizer (so an out-of-bounds access
# through an unsafe pointer is caught even at -O), with -enable-testing so that a target may
# reach internal types such as the argument parser.
#
# usage: Fuzz/build.sh [TARGET ...]     (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/modules"
sanitize=(-sanitize=fuzzer,address)
common=(-O -g -parse-as-library -enable-testing -I Sources/CSQLite -I "$out/modules")

# Rebuilds a module when any of its sources (or a module it uses) is newer than its library.
stale() { # library, sources...
  local library=$1
  shift
  [[ ! -f $library ]] && return 0
  local file
  for file in "$@"; do [[ $file -nt $library ]] && return 0; done
  return 1
}

module() { # name, library it uses (or ""), sources...
  local name=$1 uses=$2
  shift 2
  local library=$out/lib$name.a
  if stale "$library" "$@" ${uses:+"$uses"}; then
    echo "fuzz: compiling $name" >&2
    swiftc "${common[@]}" "${sanitize[@]}" -wmo -emit-library -static -emit-module \
      -module-name "$name" -emit-module-path "$out/modules/$name.swiftmodule" \
      -o "$library" "$@"
  fi
}

# The migrations the storage module embeds, as the EmbedMigrations plugin writes them.
if stale "$out/EmbeddedMigrations.swift" migrations/*.sql Sources/EmbedMigrationsTool/main.swift; then
  swiftc -O -I Sources/CSQLite -lsqlite3 Sources/EmbedMigrationsTool/main.swift -o "$out/embed-migrations"
  "$out/embed-migrations" "$out/EmbeddedMigrations.swift" migrations/*.sql
fi

# The demo fixtures the service module embeds, as the EmbedFixtures plugin writes them (the
# same file list as Plugins/EmbedFixtures/plugin.swift).
fixtures=(coingecko/markets_usd.json coingecko/global_usd.json coingecko/coin_bitcoin.json
  coingecko/coin_ethereum.json locations.json)
if stale "$out/EmbeddedFixtures.swift" "${fixtures[@]/#/Fixtures/}" Sources/EmbedFixturesTool/main.swift; then
  swiftc -O Sources/EmbedFixturesTool/main.swift -o "$out/embed-fixtures"
  "$out/embed-fixtures" "$out/EmbeddedFixtures.swift" Fixtures "${fixtures[@]/#/Fixtures/}"
fi

mapfile -t http < <(find Sources/FolioHTTP -name '*.swift' | sort)
mapfile -t storage < <(find Sources/FolioStorage -name '*.swift' | sort)
mapfile -t service < <(find Sources/FolioService -name '*.swift' | sort)
mapfile -t cli < <(find Sources/FolioCLI -name '*.swift' | sort)
module FolioHTTP "" "${http[@]}"
module FolioStorage "" "${storage[@]}" "$out/EmbeddedMigrations.swift"
module FolioService "$out/libFolioStorage.a" "${service[@]}" "$out/EmbeddedFixtures.swift"
module FolioCLI "$out/libFolioService.a" "${cli[@]}"

targets=("$@")
if ((${#targets[@]} == 0)); then
  for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi
for target in "${targets[@]}"; do
  source=Fuzz/Targets/$target.swift
  [[ -f $source ]] || { echo "fuzz: no target '$target' (see Fuzz/Targets)" >&2; exit 64; }
  binary=$out/fuzz-$target
  if stale "$binary" "$source" "$out/libFolioCLI.a"; then
    echo "fuzz: linking $target" >&2
    swiftc "${common[@]}" "${sanitize[@]}" -use-ld=lld "$source" -L "$out" \
      -lFolioCLI -lFolioService -lFolioHTTP -lFolioStorage -lsqlite3 -o "$binary"
  fi
done
