#include <fcntl.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Turns off SQLite's memory statistics, which take a process-wide mutex on every allocation
/// (SQLite recommends SQLITE_DEFAULT_MEMSTATUS=0). sqlite3_config is variadic, which Swift
/// cannot call, hence this C wrapper. It must run before SQLite initializes; afterwards it
/// returns SQLITE_MISUSE and changes nothing. https://sqlite.org/c3ref/config.html
static inline int folio_sqlite3_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// Turns SQLite's checkpoint-on-close off (`skip` 1) or on (0) for the connection
/// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, https://sqlite.org/c3ref/c_dbconfig_defensive.html).
/// sqlite3_db_config is variadic, which Swift cannot call, hence this C wrapper.
static inline int folio_sqlite3_skip_checkpoint_on_close(sqlite3 *db, int skip) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, skip, (int *)0);
}

/// open(2) for SQLite's unix VFS, as its own (which calls open), except that a
/// /proc/self/fd/N name is opened without O_NOFOLLOW, which the links in /proc would refuse.
static inline int folio_open(const char *name, int flags, int mode) {
  if (strncmp(name, "/proc/self/fd/", 14) == 0) flags &= ~O_NOFOLLOW;
  return open(name, flags, mode);
}

/// Takes a file name as it is: the unix VFS would resolve the link /proc/self/fd/N into a
/// name that does not exist.
static inline int folio_name_as_given(sqlite3_vfs *vfs, const char *name, int size, char *out) {
  (void)vfs;
  if ((int)strlen(name) >= size) return SQLITE_CANTOPEN;
  strcpy(out, name);
  return SQLITE_OK;
}

/// Registers `name`, a VFS for a file with no name opened by its descriptor's /proc name: the
/// unix VFS with names taken as given, its open(2) wrapped by folio_open
/// (https://sqlite.org/c3ref/vfs.html, xSetSystemCall). Once, before any connection opens.
static inline int folio_register_new_file_vfs(const char *name) {
  static sqlite3_vfs vfs;
  sqlite3_vfs *system = sqlite3_vfs_find(0);
  if (system == 0 || system->iVersion < 3) return SQLITE_ERROR;
  int code = system->xSetSystemCall(system, "open", (sqlite3_syscall_ptr)folio_open);
  if (code != SQLITE_OK) return code;
  vfs = *system;
  vfs.zName = name;
  vfs.xFullPathname = folio_name_as_given;
  return sqlite3_vfs_register(&vfs, 0);
}

/// Starts writing the file's dirty pages to the disk without waiting for them
/// (sync_file_range(2) with SYNC_FILE_RANGE_WRITE, 2, over the whole file), so that a later
/// fsync has less left to write. <fcntl.h> declares it only for _GNU_SOURCE, hence the system
/// call. A hint: its failure changes nothing, and a failed write still fails that fsync.
static inline void folio_start_writeback(int fd) {
  (void)syscall(SYS_sync_file_range, fd, (long)0, (long)0, (unsigned int)2);
}
