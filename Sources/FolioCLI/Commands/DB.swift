/// `folio db`: the database file itself.
enum DB {
  static let spec = CommandSpec(
    name: "db",
    abstract: "Inspect, migrate, check and back up the database file.",
    subcommands: [DBPath.spec, DBMigrate.spec, DBStatus.spec, DBCheck.spec, DBBackup.spec]
  )
}
