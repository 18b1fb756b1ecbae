import FolioStorage
import Foundation

/// One row `import exchange` stores, or with `--dry-run` would store: a row of folio's own
/// import format (docs/trades.md), with the line of the export it comes from.
public struct PlannedRow: Sendable, Equatable {
  /// The line of the export's (first) row it comes from.
  public let line: Int
  public let date: String
  public let side: TradeSide
  public let kind: TradeKind
  public let incomeType: IncomeType?
  /// A CoinGecko id of the coin directory.
  public let coin: String
  public let quantity: ExactDecimal
  public let price: ExactDecimal
  public let fee: ExactDecimal
  /// A deposit's cost or a swap's value.
  public let amount: ExactDecimal?
  /// The external id: the exchange's id of the event, with a suffix for its other rows.
  public let id: String
  /// On the rows of a swap: the id of the row giving units up.
  public let link: String?
  public let note: String

  /// The columns of folio's import format the rows fill, in the order `fields` gives them.
  static let header = [
    "date", "side", "coin", "quantity", "price", "fee", "note", "id", "kind", "income_type",
    "amount", "link",
  ]

  var fields: [String] {
    [
      date, side.rawValue, coin, quantity.description, price.description, fee.description, note,
      id, kind.rawValue, incomeType?.rawValue ?? "", amount?.description ?? "", link ?? "",
    ]
  }
}

/// Why an event cannot be mapped onto folio's kinds.
struct PlanError: LocalizedError {
  let reason: String
  var errorDescription: String? { reason }
}

/// Maps the events of an export onto folio's kinds (docs/import.md): cash in the portfolio's
/// currency is the cash leg of a buy or a sell; a trade against another fiat currency is a buy
/// or sell at the coin's market value; a trade of one coin for another is a swap; a fee in a
/// third coin is a disposal of that coin at its market value, whose value is part of what the
/// coin bought (or received in a swap) cost; a swap's fee in cash buys its share of the coin
/// received. Values the export does not give come from the cached quotes (`market refresh`,
/// `market import`, `market history`).
struct ExchangePlanner {
  let db: Database
  let directory: CoinDirectory
  /// The portfolio's currency as a ticker, such as `USD`.
  let currency: String
  let exchange: ExchangeFormat
  let source: String
  /// Each ticker resolved once.
  private var coins: [String: Result<String, CoinError>] = [:]
  private(set) var notes: [String] = []
  /// Problems with their lines, in the order met (`problems` gives them in file order).
  private var found: [(line: Int, text: String)] = []
  /// Problems, each `FILE:LINE: reason`, in file order.
  var problems: [String] { found.sorted { $0.line < $1.line }.map(\.text) }
  /// Events that moved only cash (fiat deposits and withdrawals, fiat conversions).
  private(set) var cashEvents = 0
  /// Trades against another fiat currency than the portfolio's, by currency: booked as buys
  /// and sells at the coin's market value (`otherFiat`).
  private(set) var otherFiatTrades: [String: Int] = [:]
  /// The coins whose prices were missing, and the earliest day one was needed.
  private var missingCoins: Set<String> = []
  private var missingSince: String?
  private var missingEvents = 0

  /// The one command that fetches every price found missing, when more than one event
  /// missed one (one problem names its own command).
  var fetchMissing: String? {
    guard missingEvents > 1 else { return nil }
    return missingSince.map {
      "folio market history --coins \(missingCoins.sorted().joined(separator: ",")) --since \($0)"
    }
  }

  init(store: Store, currency: String, exchange: ExchangeFormat, source: String) {
    db = store.database
    directory = CoinDirectory(store)
    self.currency = currency.uppercased()
    self.exchange = exchange
    self.source = source
  }

  /// The rows of `event`; a problem is kept (`problems`) and gives no rows.
  mutating func plan(_ event: ExchangeEvent) -> [PlannedRow] {
    do {
      return try rows(event)
    } catch let error as CoinError {
      found.append(
        (
          event.line,
          ExchangeFields.problem(Self.unknownCoin(error), source: source, line: event.line)
        ))
    } catch {
      found.append(
        (
          event.line,
          ExchangeFields.problem(
            error, source: source, line: event.line, unknown: "cannot be mapped")
        ))
    }
    return []
  }

  private func isFiat(_ asset: String) -> Bool { asset == currency || Fiat.codes.contains(asset) }

  private mutating func rows(_ event: ExchangeEvent) throws -> [PlannedRow] {
    var note = "\(exchange.rawValue): \(event.operation)"
    func row(
      _ side: TradeSide, _ kind: TradeKind, _ coin: String, _ quantity: ExactDecimal,
      price: ExactDecimal, fee: ExactDecimal = .zero, amount: ExactDecimal? = nil,
      suffix: String = "", link: String? = nil, income: IncomeType? = nil
    ) -> PlannedRow {
      PlannedRow(
        line: event.line, date: event.time.description, side: side, kind: kind,
        incomeType: income, coin: coin, quantity: quantity, price: price, fee: fee,
        amount: amount, id: event.id + suffix, link: link, note: note)
    }
    /// The value the export gives, when it is in the portfolio's currency.
    let given = event.valueCurrency == currency ? event.value : nil
    switch event.kind {
    case .income(let coin, let type):
      if isFiat(coin.asset) { return cash() }
      let id = try coinID(coin.asset)
      let price =
        try given.map { try ExactDecimal.scaled($0, by: .one, dividedBy: coin.quantity) }
        ?? quote(id, coin.asset, event, need: "this income")
      return [row(.buy, .income, id, coin.quantity, price: price, income: type)]
    case .deposit(let coin):
      if isFiat(coin.asset) { return cash() }
      let id = try coinID(coin.asset)
      let cost =
        try given ?? coin.quantity * quote(id, coin.asset, event, need: "this deposit's cost")
      return [row(.buy, .deposit, id, coin.quantity, price: .zero, amount: cost)]
    case .withdrawal(let coin):
      if isFiat(coin.asset) { return cash() }
      return [row(.sell, .withdrawal, try coinID(coin.asset), coin.quantity, price: .zero)]
    case .trade(let received, let spent, let fees):
      let received = Self.merged(received)
      let spent = Self.merged(spent)
      var fees = Self.merged(fees)
      if (received + spent + fees).allSatisfy({ isFiat($0.asset) }) { return cash() }
      guard received.count == 1, let got = received.first, !spent.isEmpty else {
        throw PlanError(
          reason: "the rows at \(event.time) do not make one trade (received: "
            + "\(Self.list(received)); spent: \(Self.list(spent))); folio cannot pair them")
      }
      if spent.count > 1 {
        return try conversion(event, spent: spent, got: got, fees: fees, note: note)
      }
      let gave = spent[0]
      guard gave.asset != got.asset else {
        throw PlanError(reason: "a trade of \(got.asset) for itself")
      }
      // Fees: in the portfolio's currency, in either coin traded, or in a third coin (a
      // disposal of that coin at its market value, whose value is a fee of the trade).
      func take(_ asset: String) -> ExactDecimal {
        guard let index = fees.firstIndex(where: { $0.asset == asset }) else { return .zero }
        return fees.remove(at: index).quantity
      }
      let feeInCash = take(currency)
      let feeInGot = take(got.asset)
      let feeInGave = take(gave.asset)
      // Fees in a third coin, each at its market value.
      var third: [(fee: Movement, id: String, price: ExactDecimal, value: ExactDecimal)] = []
      var thirdValue = ExactDecimal.zero
      for fee in fees {
        guard !isFiat(fee.asset) else {
          throw PlanError(
            reason: "a fee in \(fee.asset), neither \(currency) nor a currency of the trade")
        }
        let id = try coinID(fee.asset)
        let price = try quote(id, fee.asset, event, need: "the fee paid in \(fee.asset)")
        let value = try fee.quantity * price
        third.append((fee, id, price, value))
        thirdValue = try thirdValue + value
      }
      // On a buy or a sell, a fee in a third coin is a sell of it (a disposal at its market
      // value) whose value is a fee of the trade.
      var disposals = third.map {
        row(.sell, .trade, $0.id, $0.fee.quantity, price: $0.price, suffix: ":fee-\($0.fee.asset)")
      }
      var main: [PlannedRow]
      if gave.asset == currency || (isFiat(gave.asset) && !isFiat(got.asset)) {
        // A buy: for cash, or for another fiat currency at the coin's market value.
        let id = try coinID(got.asset)
        if gave.asset != currency { note += otherFiat(gave) }
        let cost =
          gave.asset == currency
          ? gave.quantity
          : try given ?? got.quantity * quote(id, got.asset, event, need: "this buy's cost")
        // What rounding the price down leaves out is in the fee: the lot costs exactly the
        // cash paid and the fees (net × price + fee).
        let price = try Self.priceRoundedDown(cost, got.quantity)
        let net = try got.quantity - feeInGot
        guard net.isPositive else {
          throw PlanError(reason: "the fee takes all of the \(got.quantity) \(got.asset) bought")
        }
        // A fee in the other fiat currency, at the trade's own rate.
        let feeInFiat =
          gave.asset == currency
          ? ExactDecimal.zero
          : try ExactDecimal.scaled(cost, by: feeInGave, dividedBy: gave.quantity)
        let fee = try cost - net * price + feeInCash + feeInFiat + thirdValue
        main = [row(.buy, .trade, id, net, price: price, fee: fee)]
      } else if isFiat(got.asset) {
        // A sell: for cash, or for another fiat currency at the coin's market value.
        let id = try coinID(gave.asset)
        if got.asset != currency { note += otherFiat(got) }
        let proceeds =
          got.asset == currency
          ? got.quantity
          : try given ?? gave.quantity * quote(id, gave.asset, event, need: "this sell's proceeds")
        // The price rounded up, and what rounding adds is in the fee: the proceeds are
        // exactly the cash that arrived less the fees (quantity × price − fee).
        var price = try ExactDecimal.scaled(proceeds, by: .one, dividedBy: gave.quantity)
        if try gave.quantity * price < proceeds { price = try price + Self.step }
        let sold = try gave.quantity + feeInGave
        let feeInFiat =
          got.asset == currency
          ? ExactDecimal.zero
          : try ExactDecimal.scaled(proceeds, by: feeInGot, dividedBy: got.quantity)
        let fee = try sold * price - proceeds + feeInCash + feeInFiat + thirdValue
        main = [row(.sell, .trade, id, sold, price: price, fee: fee)]
      } else {
        // A swap of one coin for another, at one value.
        let outID = try coinID(gave.asset)
        let inID = try coinID(got.asset)
        let value: ExactDecimal
        if let given {
          value = given
        } else if let price = try price(outID, event.time) {
          value = try gave.quantity * price
        } else if let price = try price(inID, event.time) {
          value = try got.quantity * price
        } else {
          throw missingPrice(
            "\(outID) (\(gave.asset)) or \(inID) (\(got.asset))", ids: "\(outID),\(inID)", event,
            need: "this swap's value")
        }
        let left = try gave.quantity + feeInGave
        let arrived = try got.quantity - feeInGot
        guard arrived.isPositive else {
          throw PlanError(reason: "the fee takes all of the \(got.quantity) \(got.asset) received")
        }
        // On a swap, a fee in the portfolio's currency or in a third coin is given for the
        // coin received too, for the share of what arrived that its value is of the whole
        // (value + fees): a fee in cash is a buy of that share, a fee in a third coin a swap
        // of its own (the fee coin is disposed of at its market value). So the coin received
        // costs what was given for it, the fees included, as a buy's lot does.
        let whole = try value + feeInCash + thirdValue
        var kept = arrived
        func shareArrived(for fee: ExactDecimal, paid: String) throws -> ExactDecimal {
          let share = try ExactDecimal.scaled(arrived, by: fee, dividedBy: whole)
          kept = try kept - share
          guard share.isPositive, fee.isPositive else {
            throw PlanError(
              reason: "the fee of \(paid) is too small a part of "
                + "the \(arrived) \(got.asset) received to record its share")
          }
          guard kept.isPositive else {
            throw PlanError(
              reason: "the fees take all of the \(arrived) \(got.asset) received: none is left "
                + "for the \(gave.quantity) \(gave.asset) given")
          }
          return share
        }
        disposals = []
        if !feeInCash.isZero {
          let share = try shareArrived(for: feeInCash, paid: "\(feeInCash) \(currency)")
          let price = try Self.priceRoundedDown(feeInCash, share)
          disposals.append(
            row(
              .buy, .trade, inID, share, price: price, fee: try feeInCash - share * price,
              suffix: ":fee-\(currency)"))
        }
        for fee in third {
          let share = try shareArrived(for: fee.value, paid: "\(fee.fee.quantity) \(fee.fee.asset)")
          let suffix = ":fee-\(fee.fee.asset)"
          disposals += [
            row(
              .sell, .swap, fee.id, fee.fee.quantity,
              price: try ExactDecimal.scaled(fee.value, by: .one, dividedBy: fee.fee.quantity),
              amount: fee.value, suffix: suffix, link: event.id + suffix),
            row(
              .buy, .swap, inID, share,
              price: try ExactDecimal.scaled(fee.value, by: .one, dividedBy: share),
              amount: fee.value, suffix: suffix + ":in", link: event.id + suffix),
          ]
        }
        main = [
          row(
            .sell, .swap, outID, left,
            price: try ExactDecimal.scaled(value, by: .one, dividedBy: left),
            fee: feeInGave, amount: value, link: event.id),
          row(
            .buy, .swap, inID, kept,
            price: try ExactDecimal.scaled(value, by: .one, dividedBy: kept), fee: feeInGot,
            amount: value, suffix: ":in", link: event.id),
        ]
      }
      return main + disposals
    }
  }

  /// Several coins given up for one (a dust conversion): one swap per coin given up, the coin
  /// received shared out in proportion to the market value of each.
  private mutating func conversion(
    _ event: ExchangeEvent, spent: [Movement], got: Movement, fees: [Movement], note: String
  ) throws -> [PlannedRow] {
    guard fees.allSatisfy({ $0.asset == got.asset }) else {
      throw PlanError(reason: "a conversion's fee must be in \(got.asset), the coin received")
    }
    var received = got.quantity
    for fee in fees { received = try received - fee.quantity }
    guard received.isPositive, spent.allSatisfy({ !isFiat($0.asset) }) else {
      throw PlanError(reason: "a conversion must give coins and receive more than its fee")
    }
    let inID = try coinID(got.asset)
    var values: [(movement: Movement, id: String, value: ExactDecimal)] = []
    for movement in spent {
      let id = try coinID(movement.asset)
      let price = try quote(id, movement.asset, event, need: "its share of the \(got.asset)")
      values.append((movement, id, try movement.quantity * price))
    }
    var total = ExactDecimal.zero
    for value in values { total = try total + value.value }
    guard total.isPositive else {
      throw PlanError(reason: "the coins converted have no market value")
    }
    var rows: [PlannedRow] = []
    var shared = ExactDecimal.zero
    for (index, value) in values.enumerated() {
      let share =
        index == values.count - 1
        ? try received - shared
        : try ExactDecimal.scaled(received, by: value.value, dividedBy: total)
      shared = try shared + share
      guard share.isPositive, value.value.isPositive else {
        throw PlanError(
          reason: "\(value.movement.asset)'s share of the \(got.asset) received is too small to "
            + "record")
      }
      let outID = "\(event.id):\(value.movement.asset)"
      rows.append(
        PlannedRow(
          line: event.line, date: event.time.description, side: .sell, kind: .swap,
          incomeType: nil, coin: value.id, quantity: value.movement.quantity,
          price: try ExactDecimal.scaled(value.value, by: .one, dividedBy: value.movement.quantity),
          fee: .zero, amount: value.value, id: outID, link: outID, note: note))
      rows.append(
        PlannedRow(
          line: event.line, date: event.time.description, side: .buy, kind: .swap,
          incomeType: nil, coin: inID, quantity: share,
          price: try ExactDecimal.scaled(value.value, by: .one, dividedBy: share), fee: .zero,
          amount: value.value, id: outID + ":in", link: outID, note: note))
    }
    return rows
  }

  /// Counts a trade against another fiat currency than the portfolio's, and says in its
  /// note what it was paid or sold for and how it is valued: folio tracks coins, not cash, so
  /// that currency is not held (it has no coin of the directory and no cached price to value
  /// it by); the trade is a buy or a sell at the coin's market value in the portfolio's.
  private mutating func otherFiat(_ cash: Movement) -> String {
    otherFiatTrades[cash.asset, default: 0] += 1
    return " (\(cash.quantity) \(cash.asset), at the coin's \(currency.lowercased()) market value)"
  }

  /// The smallest step of an `ExactDecimal`, 10⁻¹⁸.
  private static let step = ExactDecimal(units: 1)

  /// The price of `quantity` bought for `cost`, rounded down so that quantity × price never
  /// passes the cost; what it leaves out, cost − quantity × price, goes in the row's fee.
  private static func priceRoundedDown(_ cost: ExactDecimal, _ quantity: ExactDecimal) throws
    -> ExactDecimal
  {
    let price = try ExactDecimal.scaled(cost, by: .one, dividedBy: quantity)
    return try quantity * price > cost ? price - step : price
  }

  private mutating func cash() -> [PlannedRow] {
    cashEvents += 1
    return []
  }

  /// The CoinGecko id of an exchange's ticker, resolved as `folio buy` resolves a symbol.
  private mutating func coinID(_ ticker: String) throws -> String {
    if let known = coins[ticker] { return try known.get() }
    do {
      let coin = try directory.resolve(ticker.lowercased(), unknown: .known)
      if let note = coin.note(
        choosing: "to book a trade under another, change its coin with 'folio tx edit ID "
          + "--coin COIN' after the import")
      {
        notes.append("\(source): \(note)")
      }
      coins[ticker] = .success(coin.id)
      return coin.id
    } catch let error as CoinError {
      coins[ticker] = .failure(error)
      throw error
    }
  }

  /// The problem of a ticker the coin directory does not know, and how to add it.
  static func unknownCoin(_ error: CoinError) -> PlanError {
    PlanError(
      reason: (error.errorDescription ?? "unknown coin")
        + "; add it to the coin directory with 'folio market refresh' (CoinGecko's /coins/list) "
        + "or 'folio market import' of a saved /coins/list file, then import again")
  }

  /// The cached price of `coinID` in the portfolio's currency at `time`: the snapshot quote
  /// nearest it within a day, else the daily close of its UTC day.
  private func price(_ coinID: String, _ time: Timestamp) throws -> ExactDecimal? {
    let vs = currency.lowercased()
    if let quote = try MarketRecords.nearestPrice(
      db, coinID: coinID, vsCurrency: vs, time: time.description, maxSeconds: 86_400)
    {
      return quote.price
    }
    let day = String(time.description.prefix(10))
    return try DailyPriceRecords.prices(db, coinIDs: [coinID], vsCurrency: vs, day: day)[coinID]?
      .price
  }

  /// `price`, or a problem that says which price is missing and how to get it.
  private mutating func quote(
    _ coinID: String, _ ticker: String, _ event: ExchangeEvent, need: String
  )
    throws -> ExactDecimal
  {
    if let price = try price(coinID, event.time) { return price }
    throw missingPrice("\(coinID) (\(ticker))", ids: coinID, event, need: need)
  }

  /// The problem of a price not cached: which coins, when, what for, and how to get it.
  private mutating func missingPrice(
    _ coins: String, ids: String, _ event: ExchangeEvent, need: String
  ) -> PlanError {
    let day = String(event.time.description.prefix(10))
    for id in ids.split(separator: ",") { missingCoins.insert(String(id)) }
    missingSince = min(missingSince ?? day, day)
    missingEvents += 1
    return PlanError(
      reason: "no \(currency.lowercased()) price of \(coins) cached for \(event.time) (a quote "
        + "within a day, or the day's close), needed for \(need): fetch it with 'folio market "
        + "history --coins \(ids) --since \(day)'")
  }

  /// Movements summed by asset, in the order each asset first appears.
  static func merged(_ movements: [Movement]) -> [Movement] {
    var result: [Movement] = []
    for movement in movements {
      if let index = result.firstIndex(where: { $0.asset == movement.asset }),
        let sum = try? result[index].quantity + movement.quantity
      {
        result[index].quantity = sum
      } else {
        result.append(movement)
      }
    }
    return result
  }

  private static func list(_ movements: [Movement]) -> String {
    movements.isEmpty
      ? "nothing" : movements.map { "\($0.quantity) \($0.asset)" }.joined(separator: ", ")
  }
}
