import Foundation

/// What importing one file did.
public struct ImportOutcome: Equatable, Sendable {
  public let file: String
  /// What the file was: "/coins/markets page", "/global" or "/coins/{id} detail".
  public let kind: String
  /// The snapshot time given to the data.
  public let fetchedAt: String
  /// The currency of a markets page.
  public let vsCurrency: String?
  /// The coin of a detail.
  public let coinID: String?
  /// Rows added: quotes of a markets page, 1 for a /global or detail snapshot.
  public let added: Int
  /// Rows that were already stored for the same snapshot time (a repeated import).
  public let alreadyPresent: Int
  /// Coins of a page that were skipped (no price, repeated id).
  public let skipped: Int
  public let warnings: [String]

  /// True when the file had been imported before and nothing was added.
  public var alreadyImported: Bool { added == 0 && alreadyPresent > 0 }
}

/// What `market refresh` asks for.
public struct RefreshRequest: Equatable, Sendable {
  public var vsCurrency = "usd"
  /// How many /coins/markets pages of 250 to fetch (0 fetches only the coins named or held).
  public var pages = 1
  /// Coin ids to include even when they are not on those pages.
  public var coins: [String] = []
  /// The portfolio whose held coins are included.
  public var portfolio = "main"
  /// A coin whose /coins/{id} detail is fetched too.
  public var detailFor: String?
  /// Fetch /coins/list into the coin directory too, when the last fetch of it is a day old
  /// (`CoinDirectory.listMaxAge`) or there is none.
  public var coinList = false

  public init() {}
}

/// What a refresh fetched and stored.
public struct RefreshOutcome: Equatable, Sendable {
  public let fetchedAt: String
  public let source: String
  public let vsCurrency: String
  /// Coins stored in the market snapshot.
  public let coinCount: Int
  public let pagesFetched: Int
  /// Coins fetched by id because they were held or named but not on the pages.
  public let fetchedByID: [String]
  public let globalStored: Bool
  public let detailStored: String?
  public let warnings: [String]
  /// How many coins a /coins/list fetch stored in the coin directory; nil when it was not
  /// fetched (not asked for, or fetched less than a day ago).
  public var coinListStored: Int? = nil
}

/// What `market prune` removed.
public struct PruneOutcome: Equatable, Sendable {
  /// Snapshots fetched before this time were removed (except the latest ones).
  public let cutoff: String
  public let marketSnapshots: Int
  public let quotes: Int
  public let globalSnapshots: Int
  public let coinDetails: Int
}
