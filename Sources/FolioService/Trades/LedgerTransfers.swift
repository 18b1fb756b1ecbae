import FolioStorage
import Foundation

/// Transfers between portfolios. A transfer is a row leaving the source position and one row
/// per lot piece arriving in the target position, each keeping the piece's acquisition time and
/// cost basis. The pieces follow from how the source booked the row leaving it, so a change to
/// the source's history before a transfer can change them: `settleTransfers` writes them again
/// where they differ, and books the target again (and any transfer on from it).
extension Ledger {
  /// A piece of a transfer: the units of one lot that arrive, with their basis and date.
  struct Piece: Equatable {
    var quantity: ExactDecimal
    var cost: ExactDecimal
    var acquiredAt: String
  }

  /// The pieces that arrive for the transfer row `out` as the source booked it: one per lot it
  /// consumed, in acquisition order. The fee's units are taken from the last acquired pieces;
  /// the basis of a piece the fee empties passes to the piece before it, so the whole basis
  /// arrives.
  func pieces(of out: Trade) throws -> [Piece] {
    var pieces: [(piece: Piece, lot: Lot?)] = []
    for consumption in try derived.consumptions(sellTradeID: out.id) {
      let lot = try derived.lot(tradeID: consumption.lotTradeID)
      pieces.append(
        (
          Piece(
            quantity: consumption.quantity, cost: consumption.cost,
            acquiredAt: lot?.acquiredAt ?? out.executedAt),
          lot
        ))
    }
    // In the lots' own order, which comes from the trades, not from their row ids.
    pieces.sort { a, b in
      guard let x = a.lot, let y = b.lot else { return a.piece.acquiredAt < b.piece.acquiredAt }
      return PositionBook.precedes(x, y)
    }
    var result = pieces.map(\.piece)
    var fee = out.fee
    while fee.isPositive, let last = result.last {
      let take = min(fee, last.quantity)
      fee = try fee - take
      if take == last.quantity {
        result.removeLast()
        guard !result.isEmpty else { break }
        result[result.count - 1].cost = try result[result.count - 1].cost + last.cost
      } else {
        result[result.count - 1].quantity = try last.quantity - take
      }
    }
    return result
  }

  /// The rows `pieces` make in `target` for the transfer row `out` (not yet stored).
  func pieceRows(_ pieces: [Piece], of out: Trade, into target: Portfolio) -> [Trade] {
    pieces.map { piece in
      var row = Trade(
        portfolioID: target.id, executedAt: out.executedAt, side: .buy, coinID: out.coinID,
        quantity: piece.quantity, price: .zero, note: out.note, createdAt: out.createdAt)
      row.kind = .transfer
      row.amount = piece.cost
      row.acquiredAt = piece.acquiredAt
      row.linkID = out.id
      return row
    }
  }

  /// Writes the pieces of the booked transfer row `out` into `target` and books them; returns
  /// them with their ids.
  func writeTransferPieces(of out: Trade, into target: Portfolio) throws -> [Trade] {
    var rows = pieceRows(try pieces(of: out), of: out, into: target)
    try change(
      portfolio: target, coinID: out.coinID, from: TradeKey(executedAt: out.executedAt, id: 0)
    ) {
      for index in rows.indices {
        rows[index].id = try rows[index].insert(db) ?? 0
      }
    }
    return rows
  }

  /// Makes the arriving pieces of every transfer out of the position at or after `key` match
  /// how the position books it now, booking again each target position that changed.
  func settleTransfers(portfolio: Portfolio, coinID: String, after key: TradeKey, depth: Int = 0)
    throws
  {
    // A chain of transfers back and forth, each later than the one before, ends; the bound
    // only guards against a loop in hand-edited rows.
    guard depth < 64 else { return }
    for out in try Trade.transfersOut(portfolioID: portfolio.id, coinID: coinID, from: key, db) {
      let arrived = try Trade.linked(out.id, db).filter { $0.id != out.id }
      guard let first = arrived.first, let target = try Portfolio.find(id: first.portfolioID, db)
      else { continue }
      let expected = try pieces(of: out)
      let stored = arrived.map {
        Piece(quantity: $0.quantity, cost: $0.amount ?? .zero, acquiredAt: $0.acquisitionTime)
      }
      guard expected != stored || arrived.contains(where: { $0.coinID != out.coinID }) else {
        continue
      }
      var rows = pieceRows(expected, of: out, into: target)
      // The arriving rows keep their ids as far as their number allows: an export names a row
      // by its id (`folio-N`), and an edit before the transfer must not rename the rows, or a
      // file exported before it would import their pieces again. (Rows moved to another coin
      // by hand are replaced, as before.)
      let keep = arrived.allSatisfy { $0.coinID == out.coinID } ? arrived : []
      try change(
        portfolio: target, coinID: out.coinID, from: TradeKey(executedAt: out.executedAt, id: 0)
      ) {
        for row in arrived.dropFirst(min(keep.count, rows.count)) {
          try Trade.delete(id: row.id, db)
        }
        for index in rows.indices {
          if index < keep.count {
            rows[index].id = keep[index].id
            try rows[index].update(db)
          } else {
            rows[index].id = try rows[index].insert(db) ?? 0
          }
        }
      }
      try settleTransfers(
        portfolio: target, coinID: out.coinID, after: out.key, depth: depth + 1)
    }
  }
}
