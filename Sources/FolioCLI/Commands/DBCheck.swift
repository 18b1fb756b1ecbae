import FolioService

/// `folio db check`: SQLite's integrity and foreign-key checks.
struct DBCheck: FolioCommand {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Check the database's integrity; exit 65 with the findings if it is not sound.",
    make: { try Self($0) })

  init(_ values: ParsedValues) throws {}

  func run(_ context: Context) throws {
    let findings = try DatabaseAdmin(context.inspectedStore()).check()
    guard findings.isEmpty else { throw StoreError.checkFailed(findings) }
    context.print("ok")
  }
}
