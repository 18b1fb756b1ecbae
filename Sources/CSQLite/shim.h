#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a process-wide mutex on every allocation
/// (SQLite recommends SQLITE_DEFAULT_MEMSTATUS=0). sqlite3_config is variadic, so Swift cannot
/// call it directly. Must run before SQLite initializes; returns SQLITE_MISUSE afterwards.
static inline int folio_sqlite3_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
