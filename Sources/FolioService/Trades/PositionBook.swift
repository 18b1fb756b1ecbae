import FolioStorage
import Foundation

/// A sell that would take a position below zero.
public struct OversellError: LocalizedError, ClassifiedError, Equatable {
  public let tradeID: Int64
  public let coinID: String
  public let executedAt: String
  public let quantity: ExactDecimal
  public let held: ExactDecimal
  /// What the row giving the units up is: a sell for cash, a withdrawal, a transfer or a swap.
  public var rowKind: TradeKind = .trade

  public var kind: FailureKind { .badData }

  /// The same error about a trade that was never stored.
  var withoutTradeID: OversellError {
    OversellError(
      tradeID: 0, coinID: coinID, executedAt: executedAt, quantity: quantity, held: held,
      rowKind: rowKind)
  }

  /// How much more would have to be held for the sell to be possible.
  public var shortfall: ExactDecimal { (try? quantity - held) ?? quantity }

  public var errorDescription: String? {
    let noun =
      switch rowKind {
      case .trade, .income, .deposit: "sell"
      case .withdrawal, .transfer, .swap: rowKind.rawValue
      }
    let what = tradeID > 0 ? "\(noun) #\(tradeID)" : "the \(noun)"
    return
      "\(what) of \(quantity) \(coinID) on \(executedAt) exceeds the \(held) held at that time "
      + "(short by \(shortfall)); nothing was written"
  }
}

/// A sell its stored position covers but its stored open lots do not: the position or its
/// lots were changed by hand (the two always agree as folio writes them).
public struct StoredLotsShortError: LocalizedError, ClassifiedError, Equatable {
  public let coinID: String
  public let quantity: ExactDecimal

  public var kind: FailureKind { .badData }

  public var errorDescription: String? {
    "the stored open lots of \(coinID) hold less than its stored position, so the \(quantity) "
      + "sold cannot be taken from them (a row changed by hand?); nothing was written: "
      + "'folio db check' names the rows, 'folio db rebuild' recomputes them"
  }
}

/// The effects of booking one sell.
struct SellResult {
  let consumptions: [LotConsumption]
  let disposal: Disposal
  /// Lots the sell emptied, with their final state.
  let closedLots: [BookLot]
}

/// A lot as the booking engine keeps it, with whether its row exists in the database yet.
struct BookLot {
  var lot: Lot
  /// The lot's row exists (it was loaded, or inserted already).
  var stored: Bool
  /// The lot changed since it was loaded.
  var changed: Bool
}

/// The lot-matching engine for one coin in one portfolio: applies trades in time order and
/// says which lots each sell consumed, at what cost, and the realized profit.
///
/// Buy fees add to cost basis; sell fees reduce proceeds. Each sell costs O(log n) in the open
/// lots, whatever the method: FIFO takes from the front, LIFO from the back, HIFO from a heap.
struct PositionBook {
  let method: CostMethod
  /// Lots in acquisition order. Lots before `head` are consumed; under HIFO a lot emptied
  /// after `head` stays in place, with nothing remaining, until the next compaction.
  private var lots: [BookLot] = []
  private var head = 0
  /// HIFO only: how many lots after `head` are empty.
  private var emptied = 0
  /// HIFO only: the indices of the open lots by unit cost, highest first, earliest first
  /// among equals.
  private var highest = LotHeap()
  private(set) var quantity: ExactDecimal = .zero
  private(set) var costBasis: ExactDecimal = .zero
  private(set) var realized: ExactDecimal = .zero

  init(
    method: CostMethod, openLots: [Lot] = [], quantity: ExactDecimal = .zero,
    costBasis: ExactDecimal = .zero, realized: ExactDecimal = .zero
  ) {
    self.method = method
    self.lots = openLots.sorted(by: Self.precedes).map {
      BookLot(lot: $0, stored: true, changed: false)
    }
    if method == .hifo { highest = LotHeap(lots) }
    self.quantity = quantity
    self.costBasis = costBasis
    self.realized = realized
  }

  /// The lots still holding units, oldest first.
  var openLots: [BookLot] { lots[head...].filter { !$0.lot.remaining.isZero } }

  /// Books a row that brings units in: a new lot whose cost is the row's `amount` (a deposit, a
  /// swap, a transferred piece), else quantity × price + fee, acquired at the row's
  /// `acquisitionTime`. The lots stay in their order (`precedes`), so a lot acquired
  /// before lots already booked (a deposit's `--acquired`, a transferred lot) takes its place
  /// among them; under HIFO the heap breaks ties by the same order.
  mutating func buy(_ trade: Trade) throws(DecimalError) -> Lot {
    let cost: ExactDecimal
    if let amount = trade.amount {
      cost = amount
    } else {
      cost = try trade.quantity * trade.price + trade.fee
    }
    let lot = Lot(
      tradeID: trade.id, acquiredAt: trade.acquisitionTime, quantity: trade.quantity, cost: cost,
      remaining: trade.quantity, remainingCost: cost)
    let entry = BookLot(lot: lot, stored: false, changed: true)
    if method == .hifo {
      lots.append(entry)
      highest.push(lots.count - 1, in: lots)
    } else {
      var index = lots.count
      while index > head, Self.precedes(lot, lots[index - 1].lot) { index -= 1 }
      if index == lots.count { lots.append(entry) } else { lots.insert(entry, at: index) }
    }
    quantity = try quantity + trade.quantity
    costBasis = try costBasis + cost
    return lot
  }

  /// The order of lots: by acquisition time; lots acquired at the same moment by quantity,
  /// then by cost, smaller first, so the order comes from the trades themselves and not from
  /// when their rows were written (the same trades typed in another order, or exported and
  /// imported, book the same). Lots equal in all three are interchangeable: their row ids
  /// only make the order total.
  static func precedes(_ a: Lot, _ b: Lot) -> Bool {
    if a.acquiredAt != b.acquiredAt { return a.acquiredAt < b.acquiredAt }
    if a.quantity != b.quantity { return a.quantity < b.quantity }
    if a.cost != b.cost { return a.cost < b.cost }
    return a.tradeID < b.tradeID
  }

  /// Books `trade`, a buy or a sell, discarding what it produced (no consumptions are kept).
  mutating func book(_ trade: Trade) throws {
    switch trade.side {
    case .buy: _ = try buy(trade)
    case .sell: _ = try sell(trade, recording: false)
    }
  }

  /// Books a row that takes units out against the open lots by the method; throws
  /// `OversellError` when the position holds less than its quantity. A sell's proceeds are
  /// quantity × price − fee, a swap's its value (`amount`); a transfer or a withdrawal realizes
  /// nothing (its proceeds are the cost basis that left). With `recording` false the result
  /// lists no consumptions and no closed lots, for a replay that needs only the totals.
  mutating func sell(_ trade: Trade, recording: Bool = true) throws -> SellResult {
    guard trade.quantity <= quantity else {
      throw OversellError(
        tradeID: trade.id, coinID: trade.coinID, executedAt: trade.executedAt,
        quantity: trade.quantity, held: quantity, rowKind: trade.kind)
    }
    // Under average cost the whole sell leaves at the pool's average cost.
    let averageCost: ExactDecimal? =
      method == .average
      ? (trade.quantity == quantity
        ? costBasis : try ExactDecimal.scaled(costBasis, by: trade.quantity, dividedBy: quantity))
      : nil
    var left = trade.quantity
    var consumed = ExactDecimal.zero
    var consumptions: [LotConsumption] = []
    var closed: [BookLot] = []
    while left.isPositive {
      // The lot is changed in place: a copy of it (and of its Strings) per piece was a tenth
      // of booking a sell.
      guard let index = nextLotIndex() else {
        throw StoredLotsShortError(coinID: trade.coinID, quantity: trade.quantity)
      }
      let (remaining, remainingCost) = (lots[index].lot.remaining, lots[index].lot.remainingCost)
      let take = min(left, remaining)
      let pieceCost: ExactDecimal
      if let averageCost {
        let isLast = take == left
        pieceCost =
          isLast
          ? try averageCost - consumed
          : try ExactDecimal.scaled(averageCost, by: take, dividedBy: trade.quantity)
      } else {
        pieceCost =
          take == remaining
          ? remainingCost : try ExactDecimal.scaled(remainingCost, by: take, dividedBy: remaining)
      }
      lots[index].lot.remaining = try remaining - take
      lots[index].lot.remainingCost = try remainingCost - pieceCost
      lots[index].changed = true
      if recording {
        consumptions.append(
          LotConsumption(
            sellTradeID: trade.id, lotTradeID: lots[index].lot.tradeID, quantity: take,
            cost: pieceCost))
      }
      consumed = try consumed + pieceCost
      left = try left - take
      if take == remaining {
        if recording { closed.append(lots[index]) }
        remove(at: index)
      }
    }
    let proceeds =
      switch trade.kind {
      case .transfer, .withdrawal: consumed
      default: try trade.amount ?? (trade.quantity * trade.price - trade.fee)
      }
    let profit = try proceeds - consumed
    quantity = try quantity - trade.quantity
    costBasis = try costBasis - consumed
    realized = try realized + profit
    let disposal = Disposal(
      tradeID: trade.id, disposedAt: trade.executedAt, quantity: trade.quantity, proceeds: proceeds,
      costBasis: consumed, realized: profit, method: method)
    return SellResult(consumptions: consumptions, disposal: disposal, closedLots: closed)
  }

  /// Records that every open lot's row now exists and matches.
  mutating func markWritten() {
    for index in head..<lots.count {
      lots[index].stored = true
      lots[index].changed = false
    }
  }

  /// The index of the lot the method sells from next; nil when no lot is open, which only a
  /// book loaded from lots edited by hand meets before its quantity says so.
  private func nextLotIndex() -> Int? {
    switch method {
    case .fifo, .average:
      return head < lots.count ? head : nil
    case .lifo:
      return lots.count > head ? lots.count - 1 : nil
    case .hifo:
      return highest.top
    }
  }

  /// Takes the emptied lot at `index` out of the open lots.
  private mutating func remove(at index: Int) {
    if method == .lifo {
      lots.removeLast()
      return
    }
    if method == .hifo {
      highest.pop(in: lots)
      emptied += 1
    }
    while head < lots.count && lots[head].lot.remaining.isZero {
      head += 1
      if method == .hifo { emptied -= 1 }
    }
    // Compact now and then so consumed lots do not pile up in memory. In place (the open lots
    // are moved, not copied, and the array keeps its room for the lots still to come) unless
    // the open lots would fill less than a quarter of that room: then into an array of their
    // size, so a position sold down does not keep the room of its largest day.
    if head + emptied > 1024 && (head + emptied) * 2 > lots.count {
      if (lots.count - head - emptied) * 4 < lots.capacity {
        lots = lots[head...].filter { !$0.lot.remaining.isZero }
      } else {
        // Every lot before `head` is empty.
        lots.removeAll { $0.lot.remaining.isZero }
      }
      head = 0
      emptied = 0
      if method == .hifo { highest = LotHeap(lots) }
    }
  }
}

/// A binary max-heap of lot indices by unit cost (cost including the buy fee ÷ quantity);
/// among equal costs the lot first in the book's order (`PositionBook.precedes`) is on top
/// (HIFO's tie rule). Unit costs are compared
/// exactly without dividing, cost × other quantity against other cost × quantity in 256 bits,
/// so a lot whose unit cost is beyond the decimal range is simply the most expensive.
///
/// An item holds no reference: a tie is broken by reading the two lots in the book's array,
/// which every call is given, so moving items costs no retain or release.
struct LotHeap {
  private var items: [(cost: ExactDecimal, quantity: ExactDecimal, number: Int)] = []

  init() {}

  /// The heap of `lots` by index, leaving out empty ones.
  init(_ lots: [BookLot]) {
    for index in lots.indices where !lots[index].lot.remaining.isZero {
      push(index, in: lots)
    }
  }

  /// The index of the lot HIFO sells from next.
  var top: Int? { items.first?.number }

  private func above(_ a: Int, _ b: Int, in lots: [BookLot]) -> Bool {
    // Costs and quantities are never negative: lot costs are quantity × price + fee.
    func cross(_ x: ExactDecimal, _ y: ExactDecimal) -> (UInt128, UInt128) {
      let product = x.units.magnitude.multipliedFullWidth(by: y.units.magnitude)
      return (product.high, product.low)
    }
    let (left, right) = (
      cross(items[a].cost, items[b].quantity), cross(items[b].cost, items[a].quantity)
    )
    if left != right { return left > right }
    return PositionBook.precedes(lots[items[a].number].lot, lots[items[b].number].lot)
  }

  /// Adds the lot at `number` in `lots`.
  mutating func push(_ number: Int, in lots: [BookLot]) {
    items.append((lots[number].lot.cost, lots[number].lot.quantity, number))
    var child = items.count - 1
    while child > 0, above(child, (child - 1) / 2, in: lots) {
      items.swapAt(child, (child - 1) / 2)
      child = (child - 1) / 2
    }
  }

  /// Takes the top lot out; `lots` is the array the heap was built over.
  mutating func pop(in lots: [BookLot]) {
    guard !items.isEmpty else { return }
    items.swapAt(0, items.count - 1)
    items.removeLast()
    var parent = 0
    while true {
      let (left, right) = (2 * parent + 1, 2 * parent + 2)
      var best = parent
      if left < items.count && above(left, best, in: lots) { best = left }
      if right < items.count && above(right, best, in: lots) { best = right }
      if best == parent { return }
      items.swapAt(parent, best)
      parent = best
    }
  }
}
