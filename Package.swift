// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Folio",
  products: [
    .executable(name: "folio", targets: ["folio"]),
    // The network helper `folio market refresh` runs; install it beside folio.
    .executable(name: "folio-fetch", targets: ["folio-fetch"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // Runs the migrations on a new in-memory database at build time (`EmbeddedMigrations`).
    .executableTarget(name: "EmbedMigrationsTool", dependencies: ["CSQLite"]),
    .plugin(
      name: "EmbedMigrations",
      capability: .buildTool(),
      dependencies: ["EmbedMigrationsTool"]
    ),
    .target(
      name: "FolioStorage",
      dependencies: ["CSQLite"],
      plugins: ["EmbedMigrations"]
    ),
    .executableTarget(name: "EmbedFixturesTool"),
    .plugin(
      name: "EmbedFixtures",
      capability: .buildTool(),
      dependencies: ["EmbedFixturesTool"]
    ),
    // The HTTP types and the helper exchange folio and folio-fetch share: Foundation only.
    .target(name: "FolioHTTP"),
    .target(
      name: "FolioService", dependencies: ["FolioStorage", "FolioHTTP"], plugins: ["EmbedFixtures"]),
    .target(name: "FolioCLI", dependencies: ["FolioService", "FolioStorage"]),
    .executableTarget(name: "folio", dependencies: ["FolioCLI"]),
    // URLSession (FoundationNetworking, libcurl, TLS) only here: folio starts without them, and
    // folio-fetch without SQLite and the service layer.
    .target(name: "FolioNetwork", dependencies: ["FolioHTTP"]),
    .executableTarget(name: "folio-fetch", dependencies: ["FolioNetwork"]),
    // Helpers shared by the test targets: a loopback HTTP server, the Fixtures/ folder and the
    // trade-history generator.
    .target(
      name: "FolioTestSupport", dependencies: ["CSQLite", "FolioStorage"],
      path: "Tests/FolioTestSupport"),
    // The synthetic trade histories (CSV, hledger and beancount journals) of the benchmarks.
    .executableTarget(
      name: "folio-gen", dependencies: ["FolioTestSupport"], path: "Benchmarks/folio-gen"),
    .testTarget(name: "FolioStorageTests", dependencies: ["FolioStorage", "FolioTestSupport"]),
    .testTarget(
      name: "FolioServiceTests",
      dependencies: [
        "FolioStorage", "FolioService", "FolioHTTP", "FolioNetwork", "folio-fetch",
        "FolioTestSupport",
      ]),
    .testTarget(
      name: "FolioCLITests",
      dependencies: [
        "FolioStorage", "FolioService", "FolioCLI", "folio", "folio-fetch", "FolioTestSupport",
      ],
      exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
