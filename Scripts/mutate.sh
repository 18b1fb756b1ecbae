#!/usr/bin/env bash
# Mutation testing for Folio: applies one deliberate bug at a time (a mutant from
# Scripts/mutants.txt) to a scratch copy of the tree, builds incrementally, runs the tests and
# reports whether the tests noticed (killed), did not (survived), or the mutant no longer
# applies because its line changed (stale). See docs/testing.md.
#
# usage: Scripts/mutate.sh [--list FILE] [--work DIR] [--check] [--all-tests] [--skip RE] [ID...]
#   --list FILE   the mutants (default: Scripts/mutants.txt)
#   --work DIR    the scratch copy, kept between runs so builds stay incremental
#                 (default: ${TMPDIR:-/tmp}/folio-mutate-$USER)
#   --check       only check that every mutant still applies (no build); exit 1 if any is stale
#   --all-tests   ignore the mutants' test filters and run the whole suite for each
#   --skip RE     leave out the tests matching RE (`swift test --skip`) in every run, e.g. a
#                 timing test that fails on a loaded machine whatever the code does
#   ID...         run only these mutants
#
# Exit status: 0 when every mutant was killed, 1 when any survived, was stale or did not
# build, 2 when the harness itself could not run (or the suite fails without any mutant).
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/Scripts/mutants.txt"
work="${TMPDIR:-/tmp}/folio-mutate-${USER:-$(id -u)}"
check_only=0
all_tests=0
skip=""
selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --check) check_only=1; shift ;;
    --all-tests) all_tests=1; shift ;;
    --skip) skip=$2; shift 2 ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutate.sh: unknown option $1" >&2; exit 2 ;;
    *) selected+=("$1"); shift ;;
  esac
done
[ -f "$list" ] || { echo "mutate.sh: no mutant list at $list" >&2; exit 2; }

# MARK: - Reading the list
# Blocks of "key: value" lines, one block per mutant, "id:" first; '#' starts a comment line.
#   id:         a short unique name
#   file:       the source file, relative to the package root
#   from:       the exact text of the original line (leading and trailing blanks ignored)
#   to:         the text that replaces it (the original line's indentation is kept)
#   occurrence: which of several identical lines (1-based); without it the line must be unique
#   filter:     a `swift test --filter` pattern to run instead of the whole suite (optional)
ids=() files=() froms=() tos=() occurrences=() filters=()
add_mutant() {
  [ -n "$m_id" ] || return 0
  if [ -z "$m_file" ] || [ -z "$m_from" ] || [ -z "$m_to" ]; then
    echo "mutate.sh: mutant '$m_id' needs file, from and to" >&2
    exit 2
  fi
  ids+=("$m_id") files+=("$m_file") froms+=("$m_from") tos+=("$m_to")
  occurrences+=("$m_occurrence") filters+=("$m_filter")
}
m_id="" m_file="" m_from="" m_to="" m_occurrence="" m_filter=""
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in '#'* | '') continue ;; esac
  key=${line%%:*}
  value=${line#*:}
  value="${value#"${value%%[![:space:]]*}"}"
  value="${value%"${value##*[![:space:]]}"}"
  case "$key" in
    id)
      add_mutant
      m_id=$value m_file="" m_from="" m_to="" m_occurrence="" m_filter=""
      ;;
    file) m_file=$value ;;
    from) m_from=$value ;;
    to) m_to=$value ;;
    occurrence) m_occurrence=$value ;;
    filter) m_filter=$value ;;
    *) echo "mutate.sh: $list: unknown key '$key' in: $line" >&2; exit 2 ;;
  esac
done <"$list"
add_mutant
duplicates=$(printf '%s\n' "${ids[@]}" | sort | uniq -d)
[ -z "$duplicates" ] || { echo "mutate.sh: duplicate ids: $duplicates" >&2; exit 2; }

# MARK: - Applying one mutant

# Prints the 1-based numbers of the lines of FILE whose trimmed text is exactly FROM.
matching_lines() {
  FROM=$2 awk '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    trim($0) == trim(ENVIRON["FROM"]) { print NR }' "$1"
}

# Sets `target` to the line mutant $1 changes in tree $2, or explains in `why` why it cannot.
locate() {
  local index=$1 tree=$2 path="$2/${files[$1]}" matches count
  target="" why=""
  [ -f "$path" ] || { why="${files[$index]} does not exist"; return 1; }
  matches=$(matching_lines "$path" "${froms[$index]}")
  count=$(printf '%s' "$matches" | grep -c . || true)
  if [ -n "${occurrences[$index]}" ]; then
    target=$(printf '%s\n' "$matches" | sed -n "${occurrences[$index]}p")
    [ -n "$target" ] || why="occurrence ${occurrences[$index]} of the line not found ($count found)"
  elif [ "$count" -eq 1 ]; then
    target=$matches
  elif [ "$count" -eq 0 ]; then
    why="the original line is no longer in ${files[$index]}"
  else
    why="the original line occurs $count times in ${files[$index]}; give an occurrence"
  fi
  [ -n "$target" ]
}

# Replaces line $target of the file with the mutant's text, keeping its indentation.
apply() {
  local index=$1 path="$2/${files[$1]}"
  LINE=$target TO=${tos[$index]} awk '
    NR == ENVIRON["LINE"] + 0 { match($0, /^[ \t]*/); print substr($0, 1, RLENGTH) ENVIRON["TO"]; next }
    { print }' "$path" >"$path.mutant" && cat "$path.mutant" >"$path" && rm -f "$path.mutant"
}

run_ids=()
if [ ${#selected[@]} -gt 0 ]; then
  for wanted in "${selected[@]}"; do
    found=""
    for i in "${!ids[@]}"; do [ "${ids[$i]}" = "$wanted" ] && found=$i; done
    [ -n "$found" ] || { echo "mutate.sh: no mutant '$wanted' in $list" >&2; exit 2; }
    run_ids+=("$found")
  done
else
  run_ids=("${!ids[@]}")
fi

if [ $check_only -eq 1 ]; then
  stale=0
  for i in "${run_ids[@]}"; do
    if locate "$i" "$root"; then
      printf 'ok     %-32s %s:%s\n' "${ids[$i]}" "${files[$i]}" "$target"
    else
      printf 'stale  %-32s %s\n' "${ids[$i]}" "$why"
      stale=$((stale + 1))
    fi
  done
  echo "${#run_ids[@]} mutants, $stale stale"
  [ $stale -eq 0 ]
  exit
fi

# MARK: - The scratch copy

mkdir -p "$work"
exec 9>"$work/.lock"
flock -n 9 || { echo "mutate.sh: another run is using $work" >&2; exit 2; }
echo "mutate.sh: copying $root to $work (keeping its .build)"
find "$work" -mindepth 1 -maxdepth 1 ! -name .build ! -name .lock -exec rm -rf {} +
# tar keeps modification times, so files that did not change are not rebuilt.
tar -C "$root" --exclude=./.build --exclude=./.git --exclude=./.swiftpm -cf - . |
  tar -C "$work" -xf - || { echo "mutate.sh: copying failed" >&2; exit 2; }

log="$work/.mutate-last.log"
build() { (cd "$work" && swift build --build-tests) >"$log" 2>&1; }
# The tests that failed in the last run, one per line.
failed_tests() {
  sed -n 's/^✘ Test \(.*\) failed after.*/\1/p' "$log" | grep -v '^run with ' | sort -u |
    sed 's/^/          /'
}
run_tests() { # $1: filter or empty
  local filter=()
  [ -n "$1" ] && [ $all_tests -eq 0 ] && filter=(--filter "$1")
  [ -n "$skip" ] && filter+=(--skip "$skip")
  (cd "$work" && timeout "$test_timeout" swift test --skip-build "${filter[@]}") >>"$log" 2>&1
}

echo "mutate.sh: building and testing the unmutated copy"
started=$(date +%s)
build || { echo "mutate.sh: the unmutated tree does not build; see $log" >&2; exit 2; }
build_done=$(date +%s)
test_timeout=1800
if ! run_tests ""; then
  echo "mutate.sh: the suite fails without any mutant (see $log):" >&2
  failed_tests >&2
  exit 2
fi
suite_seconds=$(($(date +%s) - build_done))
# A mutant that makes a test hang counts as killed once the suite takes far longer than usual.
test_timeout=$((suite_seconds * 4 + 120))
echo "mutate.sh: baseline built in $((build_done - started)) s, suite ran in $suite_seconds s"

# MARK: - Running the mutants

killed=0 survived=0 stale=0 broken=0
survivors=() stales=() brokens=()
for i in "${run_ids[@]}"; do
  id=${ids[$i]}
  if ! locate "$i" "$work"; then
    printf 'stale     %-32s %s\n' "$id" "$why"
    stale=$((stale + 1)) stales+=("$id")
    continue
  fi
  path="$work/${files[$i]}"
  cp -p "$path" "$work/.original"
  apply "$i" "$work"
  begin=$(date +%s)
  if ! build; then
    result=broken
  elif run_tests "${filters[$i]}"; then
    result=survived
  else
    result=killed
  fi
  # Restore the original content with a new modification time, so the next build cannot
  # take the file for unchanged and keep the mutant's object code.
  cat "$work/.original" >"$path"
  seconds=$(($(date +%s) - begin))
  where="${files[$i]}:$target"
  case $result in
    killed) killed=$((killed + 1)) ;;
    survived) survived=$((survived + 1)) survivors+=("$id") ;;
    broken) broken=$((broken + 1)) brokens+=("$id") ;;
  esac
  printf '%-9s %-32s %-48s %4d s\n' "$result" "$id" "$where" "$seconds"
  [ $result = broken ] && sed -n '/error:/{p;q}' "$log" | sed 's/^/          /'
  [ $result = killed ] && failed_tests | head -3
done

valid=$((killed + survived))
echo
echo "mutate.sh: $(date -u +%Y-%m-%d) ($(git -C "$root" rev-parse --short HEAD 2>/dev/null)) — $killed killed, $survived survived, $stale stale, $broken did not build"
if [ $valid -gt 0 ]; then
  echo "mutate.sh: score $killed/$valid = $((killed * 100 / valid))% killed"
fi
[ $survived -eq 0 ] || echo "survived: ${survivors[*]}"
[ $stale -eq 0 ] || echo "stale (update Scripts/mutants.txt): ${stales[*]}"
[ $broken -eq 0 ] || echo "did not build (fix the mutant): ${brokens[*]}"
[ $survived -eq 0 ] && [ $stale -eq 0 ] && [ $broken -eq 0 ]
