#!/usr/bin/env bash
# Writes what the sqlite3 CLI needs to `.import` the rows a folio import stored, the baseline of
# issue 17 doing the storing part of folio's job: each table folio's import writes (trades,
# lots, lot consumptions, disposals, positions, position days) as a CSV file in DIR, taken from
# DONE (a database folio imported into), and prints the commands. They create the same tables
# with the same keys and indexes (without CHECKs or triggers, which folio's import also
# suspends), `.import` each file in one transaction, and build the indexes folio's import
# suspends at the end, as it does. A NULL is written as an empty field, which `.import` stores as
# '' (no bigger in a record), so a partial index on `X IS NOT NULL` is made on `X <> ''`.
#
# Benchmarks/floor.sh is the lower floor: the same rows copied from DONE in one statement per
# table, which no import from a file can do. This is the same job done by the CLI's own importer,
# a statement run per row, as folio's import runs them.
#
# usage: Benchmarks/import-rows.sh DONE DIR >import.sql
#        sqlite3 NEW ".read import.sql"   (NEW: a file that does not exist yet)
set -euo pipefail
done_db=$1
dir=$2
tables=(trades lots lot_consumptions disposals positions position_days)
# The indexes on trades that folio's import drops while it writes and builds again at the end
# (as Benchmarks/floor.sh): not unique, not partial.
suspended="tbl_name = 'trades' AND sql NOT LIKE 'CREATE UNIQUE%' AND sql NOT LIKE '%WHERE%'"

mkdir -p "$dir"
echo 'PRAGMA journal_mode = WAL;'
for table in "${tables[@]}"; do
  # The columns with their declared types, the primary key (an INTEGER PRIMARY KEY stays the
  # rowid), and WITHOUT ROWID where the table has it.
  sqlite3 "$done_db" "
    WITH c AS (SELECT * FROM pragma_table_info('$table')),
      k AS (SELECT group_concat(name, ', ') AS names, count(*) AS n,
              max(type = 'INTEGER') AS integer FROM (SELECT * FROM c WHERE pk > 0 ORDER BY pk))
    SELECT 'CREATE TABLE $table ('
      || (SELECT group_concat(
            name || ' ' || type || iif(k.n = 1 AND k.integer AND pk = 1, ' PRIMARY KEY', ''), ', ')
          FROM c)
      || iif(k.n > 1 OR (k.n = 1 AND NOT k.integer), ', PRIMARY KEY (' || k.names || ')', '')
      || ')'
      || iif((SELECT sql FROM sqlite_schema WHERE name = '$table') LIKE '%WITHOUT ROWID',
          ' WITHOUT ROWID', '')
      || ';'
    FROM k"
  sqlite3 "$done_db" "SELECT sql || ';' FROM sqlite_schema
    WHERE type = 'index' AND tbl_name = '$table' AND sql IS NOT NULL AND NOT ($suspended)" |
    sed -E "s/([a-z_]+) IS NOT NULL/\1 <> ''/g"
  sqlite3 -csv "$done_db" "SELECT * FROM $table" >"$dir/$table.csv"
done
echo 'BEGIN;'
for table in "${tables[@]}"; do
  echo ".import --csv \"$dir/$table.csv\" $table"
done
sqlite3 "$done_db" "SELECT sql || ';' FROM sqlite_schema WHERE type = 'index' AND $suspended"
echo 'COMMIT;'
