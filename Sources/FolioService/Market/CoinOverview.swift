import FolioStorage
import Foundation

/// Everything cached about one coin, for `coins show`.
public struct CoinOverview: Equatable, Sendable {
  public let coinID: String
  public let coin: CoinRecord?
  /// The newest quote in the currency asked for.
  public let quote: StoredQuote?
  /// The newest /coins/{id} detail.
  public let detail: StoredCoinDetail?
}
