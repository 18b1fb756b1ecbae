import FolioStorage
import Foundation

/// The coin list `coins list` shows.
public struct CoinList: Equatable, Sendable {
  /// One coin: its quote and, when the portfolio holds it, the quantity and value.
  public struct Row: Equatable, Sendable {
    public let quote: StoredQuote
    public let holding: ExactDecimal?
    public let value: ExactDecimal?
    /// Why `value` is nil although the coin is held (too large to compute exactly).
    public let unavailable: String?
    /// True for a held coin missing from the latest snapshot, priced from an older one.
    public var isFromOlderSnapshot: Bool
  }

  /// The latest snapshot of the currency, which the rows come from.
  public let snapshot: MarketSnapshotRef
  public let portfolio: String
  public let rows: [Row]
  /// Held coins without any cached price.
  public let heldWithoutPrice: [String]
  /// True when the portfolio holds any coin (the holdings columns are shown).
  public let hasHoldings: Bool
}

/// How `coins list` orders coins. Coins without the value sorted on (no rank, not held) come
/// last in both directions; ties go by rank, then id.
public enum CoinSort: String, CaseIterable, Sendable {
  /// Rank 1 first.
  case rank
  case rankReversed = "rank-reversed"
  /// Highest price first.
  case price
  /// Lowest price first.
  case priceReversed = "price-reversed"
  /// Largest holding value first.
  case holdings
  case holdingsReversed = "holdings-reversed"
}

/// What `coins list` asks for.
public struct CoinListQuery: Equatable, Sendable {
  /// Keeps coins whose name, symbol or id contains this text, ignoring case.
  public var search: String?
  public var sort: CoinSort = .rank
  public var limit: Int?
  public var vsCurrency = "usd"
  public var portfolio = "main"

  public init() {}
}
