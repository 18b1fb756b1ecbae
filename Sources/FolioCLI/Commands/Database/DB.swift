/// `folio db`: the database file itself.
enum DB: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "db",
    abstract: "Inspect, migrate, check, rebuild, back up, restore or open the database file.",
    subcommands: [
      DBPath.self, DBMigrate.self, DBStatus.self, DBCheck.self, DBRebuild.self, DBBackup.self,
      DBRestore.self, DBShell.self,
    ])
}
