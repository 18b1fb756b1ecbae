#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a process-wide mutex on every allocation
/// (SQLite recommends SQLITE_DEFAULT_MEMSTATUS=0). sqlite3_config is variadic, which Swift
/// cannot call, hence this C wrapper. It must run before SQLite initializes; afterwards it
/// returns SQLITE_MISUSE and changes nothing. https://sqlite.org/c3ref/config.html
static inline int folio_sqlite3_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
