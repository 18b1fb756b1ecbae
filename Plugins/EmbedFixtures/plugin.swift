import Foundation
import PackagePlugin

/// Embeds the `Fixtures/` files that `folio demo` builds its database from, and the coin list
/// every new database starts its coin directory with, into the target as
/// generated Swift source, so a built `folio` binary runs the demo from any folder, offline,
/// wherever it is copied.
@main
struct EmbedFixtures: BuildToolPlugin {
  /// The files the demo and the coin directory read, relative to Fixtures/.
  static let files = [
    "coingecko/markets_usd.json", "coingecko/global_usd.json", "coingecko/coin_bitcoin.json",
    "coingecko/coin_ethereum.json", "locations.json", "coingecko/coins_list.json",
  ]

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = context.package.directoryURL.appending(path: "Fixtures")
    let inputs = Self.files.map { root.appending(path: $0) }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFixtures.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(inputs.count) demo fixtures",
        executable: try context.tool(named: "EmbedFixturesTool").url,
        arguments: [output.path, root.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output]
      )
    ]
  }
}
