import FolioStorage
import Foundation
import Testing

@testable import FolioService

/// The booking engine against the rule each method states, checked by a plain scan over every
/// open lot on a long random history with many equal unit costs (HIFO's tie rule: the
/// earliest of the dearest lots).
@Suite struct BookingTests {
  /// What the reference keeps of a lot: its trade id, unit cost and remaining units.
  struct Open {
    let id: Int64
    let quantity: ExactDecimal
    let unitCost: ExactDecimal
    var remaining: ExactDecimal

    /// The documented order of lots acquired at one moment: quantity, then cost (here
    /// quantity × unit cost), then the row id.
    func precedes(_ other: Open) -> Bool {
      if quantity != other.quantity { return quantity < other.quantity }
      if unitCost != other.unitCost { return unitCost < other.unitCost }
      return id < other.id
    }
  }

  /// The lot each method sells from next, by a scan over all open lots.
  func next(_ open: [Open], _ method: CostMethod) -> Int {
    switch method {
    case .fifo, .average: return 0
    case .lifo: return open.count - 1
    case .hifo:
      var best = 0
      for index in open.indices where open[index].unitCost > open[best].unitCost { best = index }
      return best
    }
  }

  @Test(arguments: [CostMethod.fifo, .lifo, .hifo])
  func consumesTheLotsTheMethodNames(method: CostMethod) throws {
    var random = SystemRandomNumberGenerator()
    var book = PositionBook(method: method)
    var open: [Open] = []
    var sells = 0
    for id in Int64(1)...3000 {
      let isSell = !open.isEmpty && Int.random(in: 0..<10, using: &random) < 4
      let trade = Trade(
        id: id, portfolioID: 1, executedAt: "2024-01-01T00:00:00Z", side: isSell ? .sell : .buy,
        coinID: "bitcoin", quantity: dec("\(Int.random(in: 1...4, using: &random))"),
        price: dec("\(Int.random(in: 1...6, using: &random) * 10)"), createdAt: "")
      guard isSell else {
        _ = try book.buy(trade)
        let lot = Open(
          id: id, quantity: trade.quantity, unitCost: trade.price, remaining: trade.quantity)
        open.insert(lot, at: open.firstIndex { lot.precedes($0) } ?? open.count)
        continue
      }
      let held = try open.reduce(ExactDecimal.zero) { try $0 + $1.remaining }
      guard trade.quantity <= held else { continue }
      sells += 1
      var expected: [Int64] = []
      var left = trade.quantity
      while left.isPositive {
        let index = next(open, method)
        let take = min(left, open[index].remaining)
        expected.append(open[index].id)
        open[index].remaining = try open[index].remaining - take
        left = try left - take
        if open[index].remaining.isZero { open.remove(at: index) }
      }
      #expect(try book.sell(trade).consumptions.map(\.lotTradeID) == expected, "sell #\(id)")
      // HIFO keeps its lots in the order they came (its heap orders them); the others in the
      // order of lots.
      let booked = book.openLots.map(\.lot.tradeID)
      #expect(
        method == .hifo ? booked.sorted() == open.map(\.id).sorted() : booked == open.map(\.id),
        "after sell #\(id)")
    }
    #expect(sells > 500)
  }

  /// HIFO's tie rule when the lots were not acquired in the order they were booked (deposits
  /// carrying an earlier acquisition time), over enough sells that the book compacts its lots
  /// and rebuilds its heap several times.
  @Test func hifoBreaksTiesByAcquisitionTimeThroughCompactions() throws {
    struct Held {
      let id: Int64
      let acquired: String
      let quantity: ExactDecimal
      let unitCost: ExactDecimal
      var remaining: ExactDecimal

      /// The book's order: acquisition time, quantity, cost, row id.
      func precedes(_ other: Held) -> Bool {
        (acquired, quantity, unitCost, id) < (
          other.acquired, other.quantity, other.unitCost, other.id
        )
      }
    }
    var random = SystemRandomNumberGenerator()
    var book = PositionBook(method: .hifo)
    var open: [Held] = []
    var (sells, emptied) = (0, 0)
    for id in Int64(1)...12_000 {
      let isSell = open.count > 50 && Int.random(in: 0..<10, using: &random) < 5
      let quantity = dec("\(Int.random(in: 1...3, using: &random))")
      let unitCost = dec("\(Int.random(in: 1...3, using: &random) * 10)")
      var trade = Trade(
        id: id, portfolioID: 1, executedAt: "2025-01-01T00:00:00Z", side: isSell ? .sell : .buy,
        coinID: "bitcoin", quantity: quantity, price: unitCost, createdAt: "")
      guard isSell else {
        // Every other buy is a deposit of units first acquired on an earlier day.
        if id % 2 == 0 {
          trade.kind = .deposit
          trade.amount = try quantity * unitCost
          trade.acquiredAt = String(format: "2024-%02d-01T00:00:00Z", Int.random(in: 1...12))
        }
        _ = try book.buy(trade)
        open.append(
          Held(
            id: id, acquired: trade.acquisitionTime, quantity: quantity, unitCost: unitCost,
            remaining: quantity))
        continue
      }
      sells += 1
      var expected: [Int64] = []
      var left = trade.quantity
      while left.isPositive {
        var best = 0
        for index in open.indices {
          let (a, b) = (open[index], open[best])
          if a.unitCost > b.unitCost
            || (a.unitCost == b.unitCost && a.precedes(b))
          {
            best = index
          }
        }
        let take = min(left, open[best].remaining)
        expected.append(open[best].id)
        open[best].remaining = try open[best].remaining - take
        left = try left - take
        if open[best].remaining.isZero {
          open.remove(at: best)
          emptied += 1
        }
      }
      #expect(try book.sell(trade).consumptions.map(\.lotTradeID) == expected, "sell #\(id)")
    }
    #expect(book.openLots.map(\.lot.tradeID) == open.map(\.id))
    // The book compacts once more than 1,024 lots are empty: this history passes that often.
    #expect(sells > 4000 && emptied > 3 * 1024)
  }
}
