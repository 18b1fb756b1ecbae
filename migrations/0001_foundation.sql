-- Foundation: settings every later feature may read.
-- schema_migrations (version, name, checksum, applied_at) is created by the migrator itself
-- in the same transaction as this file.

-- Key/value settings of this database file, for example the default portfolio.
CREATE TABLE settings (
  key TEXT PRIMARY KEY NOT NULL CHECK (length(key) > 0),
  value TEXT NOT NULL
) STRICT;
