#!/usr/bin/env bash
# Prints the SQL of the floor that Benchmarks/trades.sh and Benchmarks/peers.sh time: the sqlite3
# CLI writing the rows a folio import stored (trades, lots, lot consumptions, disposals,
# positions, position days), copied with INSERT … SELECT from DONE, a database folio imported
# into, suspending what folio's import suspends and rebuilding the same indexes. No CSV, no
# decimals, no booking: SQLite's share of the job alone, the least any program storing the same
# rows can take. Each INSERT … SELECT * into an empty table is SQLite's transfer optimization
# (EXPLAIN shows RowData, then Insert): each record is copied as stored, not decoded and made
# again, which no import from a file can do. Benchmarks/import-rows.sh times the same rows
# stored by the sqlite3 CLI's own importer.
#
# usage: Benchmarks/floor.sh DONE >floor.sql
#        folio --db NEW db migrate && sqlite3 NEW ".read floor.sql"
set -euo pipefail
done_db=$1
suspended="SELECT %s FROM sqlite_schema
  WHERE tbl_name = 'trades' AND sql NOT LIKE 'CREATE UNIQUE%%'
    AND ((type = 'index' AND sql NOT LIKE '%%WHERE%%')
      OR (type = 'trigger' AND sql LIKE '%% INSERT ON trades%%'))"
echo 'PRAGMA journal_mode = WAL;'
echo 'PRAGMA ignore_check_constraints = ON;'
echo "ATTACH '$done_db' AS done;"
echo 'BEGIN;'
# shellcheck disable=SC2059
sqlite3 "$done_db" "$(printf "$suspended" "'DROP ' || type || ' ' || name || ';'")"
for table in trades lots lot_consumptions disposals positions position_days; do
  echo "INSERT INTO main.$table SELECT * FROM done.$table;"
done
# shellcheck disable=SC2059
sqlite3 "$done_db" "$(printf "$suspended" "sql || ';'")"
echo 'COMMIT;'
