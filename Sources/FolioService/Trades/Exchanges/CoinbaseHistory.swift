import FolioStorage
import Foundation

/// Coinbase's transaction history CSV: a few lines about the account, then the header
/// `[ID,]Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at
/// Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes`
/// (newer exports: `Price Currency`, `Price at Transaction`, amounts such as `$1,234.50` and
/// sells with negative quantities). One row per transaction; Subtotal, Total and Fees are in
/// the spot price's currency.
enum CoinbaseHistory {
  enum Operation {
    case buy, sell, convert, deposit, withdrawal, internalMove
    case income(IncomeType)
  }

  static let operations: [String: Operation] = [
    "buy": .buy, "advanced trade buy": .buy, "sell": .sell, "advanced trade sell": .sell,
    "convert": .convert, "receive": .deposit, "deposit": .deposit,
    "pro withdrawal": .deposit, "exchange withdrawal": .deposit,
    "send": .withdrawal, "withdrawal": .withdrawal, "pro deposit": .withdrawal,
    "exchange deposit": .withdrawal,
    "rewards income": .income(.staking), "staking income": .income(.staking),
    "inflation reward": .income(.staking), "interest": .income(.interest),
    "coinbase earn": .income(.other), "learning reward": .income(.other),
    "retail staking transfer": .internalMove, "retail unstaking transfer": .internalMove,
    "retail eth2 deprecation": .internalMove,
  ]

  static func parse(
    _ next: () throws -> CSVRecord?, header: CSVRecord, source: String
  ) throws -> ParsedExport {
    let columns = ExchangeColumns(header)
    var parsed = ParsedExport()
    try parsed.readRows(next, source: source) { record, parsed in
      let type = columns.field(record, "transaction type")
      let time = try ExchangeFields.time(columns.field(record, "timestamp"))
      parsed.saw(time)
      let rowID = columns.field(record, "id")
      if !rowID.isEmpty, try !parsed.isFirst(record, id: rowID, column: "ID") { return }
      guard let operation = operations[type.lowercased()] else {
        parsed.unknown.append((record.line, type))
        return
      }
      let asset = columns.field(record, "asset").uppercased()
      let quantity = try ExchangeFields.decimal(
        columns.field(record, "quantity transacted"), field: "Quantity Transacted", money: true
      ).magnitude
      guard quantity.isPositive else {
        throw TradeInputError(field: "Quantity Transacted", reason: "must not be zero")
      }
      let currency = columns.field(record, "spot price currency", "price currency").uppercased()
      func money(_ names: String...) throws -> ExactDecimal? {
        for name in names where columns.has(name) {
          let text = columns.field(record, name)
          return text.isEmpty
            ? nil : try ExchangeFields.decimal(text, field: name, money: true).magnitude
        }
        return nil
      }
      let spot = try money("spot price at transaction", "price at transaction")
      let fee = try money("fees and/or spread", "fees") ?? .zero
      let subtotal = try money("subtotal") ?? spot.map { try quantity * $0 }
      // What a coin received alone (income, a deposit) was worth: the spot price times the
      // quantity, not the subtotal, which is rounded to the cent (a reward of 0.00004 SOL at
      // $130 has the subtotal $0.01).
      let worth = try spot.map { try quantity * $0 } ?? subtotal
      let id =
        rowID.isEmpty
        ? ExchangeFields.madeUpID(prefix: "coinbase", time: time, rows: [record.fields])
        : "coinbase:\(rowID)"
      var event = ExchangeEvent(
        kind: .deposit(Movement(asset: asset, quantity: quantity)), time: time, id: id,
        line: record.line, operation: type, value: subtotal,
        valueCurrency: currency.isEmpty ? nil : currency)
      let coin = Movement(asset: asset, quantity: quantity)
      func cash(_ amount: ExactDecimal?) throws -> Movement {
        guard let amount, amount.isPositive, !currency.isEmpty else {
          throw TradeInputError(
            field: "Subtotal", reason: "a \(type) needs its subtotal and currency")
        }
        return Movement(asset: currency, quantity: amount)
      }
      let fees =
        fee.isPositive && !currency.isEmpty
        ? [Movement(asset: currency, quantity: fee)] : []
      switch operation {
      case .buy:
        if let paid = try other(columns.field(record, "notes"), than: currency) {
          // Paid in a crypto (USDC): the fee, a value, is taken in that coin.
          let fee = try inUnits(fee, of: paid, worth: subtotal)
          event.kind = .trade(received: [coin], spent: [paid], fees: fee)
        } else {
          event.kind = .trade(received: [coin], spent: [try cash(subtotal)], fees: fees)
        }
      case .sell:
        if let got = try other(columns.field(record, "notes"), than: currency) {
          let fee = try inUnits(fee, of: got, worth: subtotal)
          event.kind = .trade(received: [got], spent: [coin], fees: fee)
        } else {
          event.kind = .trade(received: [try cash(subtotal)], spent: [coin], fees: fees)
        }
      case .convert:
        guard let got = try counterpart(columns.field(record, "notes"), word: "to") else {
          throw TradeInputError(
            field: "Notes",
            reason: "a Convert's note must say what was received ('Converted 0.5 ETH to "
              + "0.02 BTC')")
        }
        // The value given up is the Total (the coin converted at the spot price); what
        // arrived is worth that less the spread (Fees and/or Spread, else Total − Subtotal).
        // The spread is recorded as a fee in units of the coin received, at the rate the
        // conversion gave, and the swap is valued at what was given: the coin received costs
        // it, spread included, as a buy's lot includes its fee.
        let total = try money(
          "total (inclusive of fees and/or spread)", "total (inclusive of fees)")
        let atSpot = try spot.map { try quantity * $0 }
        guard let given = total ?? atSpot ?? subtotal, given.isPositive
        else {
          throw TradeInputError(field: "Total", reason: "a Convert needs its value")
        }
        let rest = try given - (subtotal ?? given)
        let spread = fee.isPositive ? fee : max(.zero, rest)
        guard spread < given else {
          throw TradeInputError(
            field: "Fees and/or Spread",
            reason: "the spread \(spread) takes all of the \(given) converted")
        }
        let withheld = try ExactDecimal.scaled(
          got.quantity, by: spread, dividedBy: try given - spread)
        event.value = given
        event.kind = .trade(
          received: [Movement(asset: got.asset, quantity: try got.quantity + withheld)],
          spent: [coin],
          fees: withheld.isPositive ? [Movement(asset: got.asset, quantity: withheld)] : [])
      case .deposit:
        event.kind = .deposit(coin)
        event.value = worth
      case .withdrawal:
        event.kind = .withdrawal(coin)
      case .income(let type):
        event.kind = .income(coin, type)
        event.value = worth
      case .internalMove:
        parsed.internalRows += 1
        return
      }
      parsed.events.append(event)
    }
    return parsed
  }

  /// A fee Coinbase gives as a value (`worth` being what `coin` is worth) in units of `coin`,
  /// at that rate; none when the fee is zero.
  static func inUnits(_ fee: ExactDecimal, of coin: Movement, worth: ExactDecimal?) throws
    -> [Movement]
  {
    guard fee.isPositive else { return [] }
    guard let worth, worth.isPositive else {
      throw TradeInputError(field: "Subtotal", reason: "a fee needs the subtotal it is part of")
    }
    return [
      Movement(
        asset: coin.asset,
        quantity: try ExactDecimal.scaled(fee, by: coin.quantity, dividedBy: worth))
    ]
  }

  /// What an Advanced Trade's note says was paid or received, when it is not the spot price's
  /// currency (a trade against a crypto such as USDC); nil otherwise.
  static func other(_ notes: String, than currency: String) throws -> Movement? {
    guard let found = try counterpart(notes, word: "for"), found.asset != currency else {
      return nil
    }
    return found
  }

  /// The other side of a trade as the note gives it: `Converted 0.5 ETH to 0.02 BTC`
  /// (word `to`), or an Advanced Trade's `Bought 0.01 BTC for 400 USDC on BTC-USDC` (word
  /// `for`): the quantity and asset after the word; nil when the note does not say.
  static func counterpart(_ notes: String, word: String) throws -> Movement? {
    let words = notes.split(separator: " ").map(String.init)
    guard let at = words.firstIndex(of: word), at + 2 < words.count,
      ["Converted", "Bought", "Sold"].contains(words.first ?? "")
    else { return nil }
    let quantity = try ExchangeFields.decimal(words[at + 1], field: "Notes", money: true)
    let asset = words[at + 2].trimmingCharacters(in: .punctuationCharacters).uppercased()
    guard quantity.isPositive, !asset.isEmpty else { return nil }
    return Movement(asset: asset, quantity: quantity)
  }
}
