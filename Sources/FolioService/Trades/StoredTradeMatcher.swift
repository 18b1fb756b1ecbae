import FolioStorage

/// Decides which rows of an import are trades the portfolio already holds, so importing the
/// same file again, or folio's own export, adds nothing:
/// - a row whose `id` the portfolio already holds is present (the id rule; `Trade.insert`
///   skips it);
/// - a row with an id `export trades` made up (`folio-N`) is present when the portfolio holds
///   that id on a trade with the row's content. Such an id is only the exporting database's row
///   number: when the portfolio holds it on another trade (a merge of two databases' exports, or
///   a row number reused after a delete), the row loses the id and is matched on its content;
/// - a row without an `id`, or with a made-up id the portfolio does not hold, is matched on its
///   content — time, side, coin, quantity, price, fee and
///   note, in canonical form — and counted: the file's k-th row with some content is present
///   when the portfolio held at least k trades with that content before the import began.
///
/// Not `Sendable`: it reads through its import's connection.
final class StoredTradeMatcher {
  private let db: Database
  /// What each portfolio held before the import (nil: no trades), read when first needed.
  private var extents: [Int64: Trade.StoredExtent?] = [:]
  /// How many stored trades of each content earlier rows of the file were matched with.
  private var matched: [Content: Int] = [:]

  private struct Content: Hashable {
    let portfolioID: Int64
    let executedAt: String
    let side: TradeSide
    let coinID: String
    let quantity, price, fee: ExactDecimal
    /// The note's bytes, compared as SQLite compares the stored one: two spellings of "é"
    /// (one character, or "e" and a combining accent) are equal Strings but other notes.
    let note: [UInt8]

    init(_ trade: Trade) {
      (portfolioID, executedAt, side, coinID) =
        (trade.portfolioID, trade.executedAt, trade.side, trade.coinID)
      (quantity, price, fee) = (trade.quantity, trade.price, trade.fee)
      note = Array((trade.note ?? "").utf8)
    }
  }

  init(_ db: Database) { self.db = db }

  /// True when the portfolio held no trade before the import (known once `isStored` was called
  /// for one of its rows): no id of the file's rows can be one it holds, as a file may give
  /// an id once only.
  func heldNothing(portfolioID: Int64) -> Bool {
    extents[portfolioID].map { $0 == nil } ?? false
  }

  /// True when `trade`, validated from a row, is one the portfolio already holds by content
  /// (rows with one of the user's own ids are left to the id rule and return false). A made-up
  /// id the portfolio holds on another trade is removed from `trade`. Call it for every row
  /// before inserting it: the first call for a portfolio records what it held.
  func isStored(_ trade: inout Trade) throws -> Bool {
    let extent: Trade.StoredExtent?
    if let known = extents[trade.portfolioID] {
      extent = known
    } else {
      extent = try Trade.storedExtent(portfolioID: trade.portfolioID, db)
      extents[trade.portfolioID] = extent
    }
    if let id = trade.externalID {
      // A portfolio that held nothing holds no trade with the id (a query a row spared).
      guard id.utf8.starts(with: Trade.exportedIDPrefix.utf8), extent != nil else { return false }
      switch try trade.externalIDHolder(db) {
      case .sameContent:
        // That stored trade is used up: an id-less row with the same content is another one.
        matched[Content(trade), default: 0] += 1
        return true
      case .otherContent: trade.externalID = nil
      case .none: break
      }
    }
    // Only a trade at or before the latest stored one can match: appending new trades costs
    // no query.
    guard let extent, trade.executedAt <= extent.latestExecutedAt else { return false }
    // Made only for a row that may match: most rows of an import append to what is held.
    let content = Content(trade)
    let used = matched[content, default: 0]
    guard try used < trade.sameContentCount(upTo: extent.lastID, db) else { return false }
    matched[content] = used + 1
    return true
  }
}
