/// `folio db`: the database file itself.
enum DB {
  static let spec = CommandSpec(
    name: "db",
    abstract: "Inspect, migrate, check, rebuild, back up, restore or open the database file.",
    subcommands: [
      DBPath.spec, DBMigrate.spec, DBStatus.spec, DBCheck.spec, DBRebuild.spec, DBBackup.spec,
      DBRestore.spec, DBShell.spec,
    ]
  )
}
