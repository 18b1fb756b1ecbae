import FolioStorage
import Foundation

/// The cached prices of one coin over time.
public struct CoinHistory: Equatable, Sendable {
  public let coinID: String
  public let coin: CoinRecord?
  public let vsCurrency: String
  /// Oldest first.
  public let points: [StoredQuote]
  /// The daily closing prices (`daily_prices`), oldest first.
  public var dailyPrices: [DailyPrice] = []
}
