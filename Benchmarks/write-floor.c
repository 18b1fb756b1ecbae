// SQLite's share of an import, through the two ways a program can hand it rows it made itself
// (Benchmarks/trades.sh and Benchmarks/peers.sh build and time it; issue 17).
//
// usage: write-floor row|values|bulk DONE NEW
//   DONE: a database folio imported into; NEW: a database `folio db migrate` made.
//
// Reads the rows folio's import stored in DONE (trades, lots, lot consumptions, disposals,
// positions, position days) into memory, then writes them into NEW in one transaction as folio's
// import does: CHECK constraints ignored, the insert trigger on trades and its indexes that are
// neither unique nor partial dropped, and made again before the commit. The text of each value
// is bound where it lies (SQLITE_STATIC), as folio binds it.
//   row:  one INSERT statement run per row, as the sqlite3 CLI's .import does.
//   values: one INSERT of 32 rows (`VALUES (…), (…), …`) per run, the rest one by one, as
//         folio's import writes them (Sources/FolioStorage/BatchedInsert.swift).
//   bulk: one INSERT … SELECT per table over a virtual table that hands SQLite the rows in
//         memory, 4,096 rows per run of the statement: the cheapest way open to a program that
//         makes the rows itself (Benchmarks/floor.sh copies records from a database that already
//         holds them, which no import from a file can do).
// Nothing else is timed: no file read, no decimal, no booking. Prints "WALL CPU" in seconds.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { chunkRows = 4096, valuesRows = 32 };
static const char *const tables[] = {
  "trades", "lots", "lot_consumptions", "disposals", "positions", "position_days"};
enum { tableCount = sizeof tables / sizeof *tables };

// A value as read from DONE: its type, and its integer, real or text (owned).
typedef struct {
  int type;
  sqlite3_int64 integer;
  double real;
  char *text;
  int length;
} Value;

typedef struct {
  int columns;
  long rows;
  Value *values;  // rows × columns
} Table;

static void fail(sqlite3 *db, const char *what) {
  fprintf(stderr, "write-floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
  exit(1);
}

static void execute(sqlite3 *db, const char *sql) {
  char *error = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
    fprintf(stderr, "write-floor: %s: %s\n", sql, error);
    exit(1);
  }
}

static Table load(sqlite3 *db, const char *name) {
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT * FROM %s", name);
  sqlite3_stmt *statement;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) fail(db, sql);
  Table table = {sqlite3_column_count(statement), 0, NULL};
  long capacity = 0;
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    if (table.rows == capacity) {
      capacity = capacity ? capacity * 2 : 1024;
      table.values = realloc(table.values, sizeof(Value) * capacity * table.columns);
      if (!table.values) fail(NULL, "out of memory");
    }
    for (int column = 0; column < table.columns; column++) {
      Value *value = &table.values[table.rows * table.columns + column];
      memset(value, 0, sizeof *value);
      value->type = sqlite3_column_type(statement, column);
      switch (value->type) {
      case SQLITE_INTEGER: value->integer = sqlite3_column_int64(statement, column); break;
      case SQLITE_FLOAT: value->real = sqlite3_column_double(statement, column); break;
      case SQLITE_TEXT:
        value->length = sqlite3_column_bytes(statement, column);
        value->text = malloc(value->length + 1);
        if (!value->text) fail(NULL, "out of memory");
        memcpy(value->text, sqlite3_column_text(statement, column), value->length + 1);
        break;
      case SQLITE_NULL: break;
      default: fail(NULL, "a blob (no table folio's import writes holds one)");
      }
    }
    table.rows++;
  }
  if (step != SQLITE_DONE) fail(db, sql);
  sqlite3_finalize(statement);
  return table;
}

// The virtual table: rows [first, end) of `current`, set before each run of the statement.
static const Table *current;
static long first, end;

typedef struct {
  sqlite3_vtab base;
} RowsTable;
typedef struct {
  sqlite3_vtab_cursor base;
  long row;
} RowsCursor;

static int rowsConnect(
  sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **table, char **error) {
  (void)aux;
  (void)error;
  if (argc != 4) return SQLITE_ERROR;
  char declaration[4096] = "CREATE TABLE x(";
  int columns = atoi(argv[3]);
  for (int column = 0; column < columns && column < 200; column++) {
    size_t used = strlen(declaration);
    snprintf(declaration + used, sizeof declaration - used, "%sc%d", column ? ", " : "", column);
  }
  strcat(declaration, ")");
  int status = sqlite3_declare_vtab(db, declaration);
  if (status != SQLITE_OK) return status;
  *table = sqlite3_malloc(sizeof(RowsTable));
  if (!*table) return SQLITE_NOMEM;
  memset(*table, 0, sizeof(RowsTable));
  return SQLITE_OK;
}
static int rowsDisconnect(sqlite3_vtab *table) {
  sqlite3_free(table);
  return SQLITE_OK;
}
static int rowsBestIndex(sqlite3_vtab *table, sqlite3_index_info *info) {
  (void)table;
  info->estimatedCost = chunkRows;
  return SQLITE_OK;
}
static int rowsOpen(sqlite3_vtab *table, sqlite3_vtab_cursor **cursor) {
  (void)table;
  *cursor = sqlite3_malloc(sizeof(RowsCursor));
  if (!*cursor) return SQLITE_NOMEM;
  memset(*cursor, 0, sizeof(RowsCursor));
  return SQLITE_OK;
}
static int rowsClose(sqlite3_vtab_cursor *cursor) {
  sqlite3_free(cursor);
  return SQLITE_OK;
}
static int rowsFilter(
  sqlite3_vtab_cursor *cursor, int index, const char *name, int argc, sqlite3_value **argv) {
  (void)index;
  (void)name;
  (void)argc;
  (void)argv;
  ((RowsCursor *)cursor)->row = first;
  return SQLITE_OK;
}
static int rowsNext(sqlite3_vtab_cursor *cursor) {
  ((RowsCursor *)cursor)->row++;
  return SQLITE_OK;
}
static int rowsEof(sqlite3_vtab_cursor *cursor) { return ((RowsCursor *)cursor)->row >= end; }
static int rowsColumn(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int column) {
  const Value *value = &current->values[((RowsCursor *)cursor)->row * current->columns + column];
  switch (value->type) {
  case SQLITE_INTEGER: sqlite3_result_int64(context, value->integer); break;
  case SQLITE_FLOAT: sqlite3_result_double(context, value->real); break;
  case SQLITE_TEXT: sqlite3_result_text(context, value->text, value->length, SQLITE_STATIC); break;
  default: sqlite3_result_null(context);
  }
  return SQLITE_OK;
}
static int rowsRowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
  *rowid = ((RowsCursor *)cursor)->row;
  return SQLITE_OK;
}
static sqlite3_module rowsModule = {
  .xCreate = rowsConnect,
  .xConnect = rowsConnect,
  .xBestIndex = rowsBestIndex,
  .xDisconnect = rowsDisconnect,
  .xDestroy = rowsDisconnect,
  .xOpen = rowsOpen,
  .xClose = rowsClose,
  .xFilter = rowsFilter,
  .xNext = rowsNext,
  .xEof = rowsEof,
  .xColumn = rowsColumn,
  .xRowid = rowsRowid,
};

static void bind(sqlite3 *db, sqlite3_stmt *statement, int index, const Value *value) {
  int status;
  switch (value->type) {
  case SQLITE_INTEGER: status = sqlite3_bind_int64(statement, index, value->integer); break;
  case SQLITE_FLOAT: status = sqlite3_bind_double(statement, index, value->real); break;
  case SQLITE_TEXT:
    status = sqlite3_bind_text(statement, index, value->text, value->length, SQLITE_STATIC);
    break;
  default: status = sqlite3_bind_null(statement, index);
  }
  if (status != SQLITE_OK) fail(db, "bind");
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}
static double cpuSeconds(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
    + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "row") && strcmp(argv[1], "values") && strcmp(argv[1], "bulk"))) {
    fprintf(stderr, "usage: write-floor row|values|bulk DONE NEW\n");
    return 2;
  }
  int bulk = !strcmp(argv[1], "bulk");
  int perRun = !strcmp(argv[1], "values") ? valuesRows : 1;
  sqlite3 *done;
  if (sqlite3_open_v2(argv[2], &done, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) fail(done, argv[2]);
  Table loaded[tableCount];
  for (int index = 0; index < tableCount; index++) loaded[index] = load(done, tables[index]);
  sqlite3_close(done);

  double wall = seconds(), cpu = cpuSeconds();
  sqlite3 *db;
  if (sqlite3_open_v2(argv[3], &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) fail(db, argv[3]);
  // As folio opens a database (Database.swift): WAL, a 24 MiB cache.
  execute(db, "PRAGMA journal_mode = WAL; PRAGMA cache_size = -24576;"
              "PRAGMA ignore_check_constraints = ON");
  if (sqlite3_create_module(db, "rows", &rowsModule, NULL) != SQLITE_OK) fail(db, "module");
  execute(db, "BEGIN");
  // What folio's import suspends (Benchmarks/floor.sh): kept, dropped, made again at the end.
  sqlite3_stmt *suspended;
  const char *query =
    "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'trades'"
    " AND sql NOT LIKE 'CREATE UNIQUE%' AND ((type = 'index' AND sql NOT LIKE '%WHERE%')"
    " OR (type = 'trigger' AND sql LIKE '% INSERT ON trades%'))";
  if (sqlite3_prepare_v2(db, query, -1, &suspended, NULL) != SQLITE_OK) fail(db, "schema");
  char drops[16][256], *again[16];
  int againCount = 0;
  while (sqlite3_step(suspended) == SQLITE_ROW && againCount < 16) {
    snprintf(drops[againCount], sizeof drops[againCount], "DROP %s %s",
      sqlite3_column_text(suspended, 0), sqlite3_column_text(suspended, 1));
    again[againCount++] = strdup((const char *)sqlite3_column_text(suspended, 2));
  }
  sqlite3_finalize(suspended);
  for (int index = 0; index < againCount; index++) execute(db, drops[index]);

  for (int index = 0; index < tableCount; index++) {
    const Table *table = &loaded[index];
    char sql[4096];
    sqlite3_stmt *statement;
    if (bulk) {
      snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE temp.rows_%d USING rows(%d)", index,
        table->columns);
      execute(db, sql);
      snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM temp.rows_%d", tables[index], index);
      if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) fail(db, sql);
      current = table;
      for (first = 0; first < table->rows; first = end) {
        end = first + chunkRows < table->rows ? first + chunkRows : table->rows;
        if (sqlite3_step(statement) != SQLITE_DONE) fail(db, tables[index]);
        sqlite3_reset(statement);
      }
    } else {
      // `statements[0]` inserts one row, `statements[1]` perRun rows.
      sqlite3_stmt *statements[2];
      for (int which = 0; which < 2; which++) {
        char *text = malloc(64 + (size_t)perRun * (4 * table->columns + 4));
        if (!text) fail(NULL, "out of memory");
        sprintf(text, "INSERT INTO %s VALUES ", tables[index]);
        for (int row = 0; row < (which ? perRun : 1); row++) {
          strcat(text, row ? ", (" : "(");
          for (int column = 0; column < table->columns; column++) strcat(text, column ? ", ?" : "?");
          strcat(text, ")");
        }
        if (sqlite3_prepare_v2(db, text, -1, &statements[which], NULL) != SQLITE_OK) fail(db, text);
        free(text);
      }
      for (long row = 0; row < table->rows;) {
        int rows = row + perRun <= table->rows ? perRun : 1;
        statement = statements[rows == perRun ? 1 : 0];
        for (int value = 0; value < rows * table->columns; value++) {
          bind(db, statement, value + 1, &table->values[row * table->columns + value]);
        }
        if (sqlite3_step(statement) != SQLITE_DONE) fail(db, tables[index]);
        sqlite3_reset(statement);
        row += rows;
      }
      sqlite3_finalize(statements[0]);
      statement = statements[1];
    }
    sqlite3_finalize(statement);
  }
  for (int index = 0; index < againCount; index++) execute(db, again[index]);
  execute(db, "COMMIT");
  if (sqlite3_close(db) != SQLITE_OK) fail(db, "close");
  printf("%.2f %.2f\n", seconds() - wall, cpuSeconds() - cpu);
  return 0;
}
