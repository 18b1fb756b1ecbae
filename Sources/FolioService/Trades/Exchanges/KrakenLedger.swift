import FolioStorage
import Foundation

/// Kraken's ledger export, `ledgers.csv`: `"txid","refid","time","type","subtype","aclass",
/// "asset","amount","fee","balance"` (newer exports add columns, read by name). One row per
/// balance change; the rows of one trade share their `refid`. `amount` is gross: the balance
/// moves by `amount − fee`. Rows without a `txid` are the pending copies Kraken lists next to
/// the final rows, and are left out.
enum KrakenLedger {
  enum Operation {
    case trade, deposit, withdrawal, internalMove
    case income(IncomeType)

    /// Whether its rows become trades (an internal move's are only counted).
    var isStored: Bool {
      if case .internalMove = self { false } else { true }
    }
  }

  /// Types (lowercased), or `type/subtype` where the subtype decides.
  static let operations: [String: Operation] = [
    "trade": .trade, "spend": .trade, "receive": .trade, "deposit": .deposit,
    "withdrawal": .withdrawal, "staking": .income(.staking), "earn/reward": .income(.staking),
    "transfer": .internalMove, "earn/allocation": .internalMove,
    "earn/deallocation": .internalMove, "earn/migration": .internalMove,
    "earn/autoallocation": .internalMove,
  ]

  /// Kraken's legacy four-letter names (`XXBT`, `ZEUR`) and its own tickers, as everyone
  /// else writes them.
  static let legacyNames: [String: String] = [
    "XXBT": "BTC", "XBT": "BTC", "XXDG": "DOGE", "XDG": "DOGE", "XETH": "ETH", "ETH2": "ETH",
    "XLTC": "LTC", "XXRP": "XRP", "XXLM": "XLM", "XXMR": "XMR", "XZEC": "ZEC", "XETC": "ETC",
    "XMLN": "MLN", "XREP": "REP", "ZUSD": "USD", "ZEUR": "EUR", "ZGBP": "GBP", "ZCAD": "CAD",
    "ZJPY": "JPY", "ZAUD": "AUD",
  ]

  /// The ticker of a Kraken asset: staked and earning variants (`XBT.M`, `DOT.S`, `ETH2.S`,
  /// `SOL.F`) are the coin itself.
  static func ticker(_ asset: String) -> String {
    let base = String(asset.uppercased().split(separator: ".").first ?? "")
    return legacyNames[base] ?? base
  }

  static func parse(
    _ next: () throws -> CSVRecord?, header: CSVRecord, source: String
  ) throws -> ParsedExport {
    let columns = ExchangeColumns(header)
    var parsed = ParsedExport()
    var trades:
      [String: (
        time: Timestamp, line: Int, received: [Movement], spent: [Movement],
        fees: [Movement], type: String
      )] = [:]
    var order: [String] = []
    try parsed.readRows(next, source: source) { record, parsed in
      let type = columns.field(record, "type").lowercased()
      let subtype = columns.field(record, "subtype").lowercased()
      let time = try ExchangeFields.time(columns.field(record, "time"))
      parsed.saw(time)
      let txid = columns.field(record, "txid")
      if txid.isEmpty {
        parsed.internalRows += 1
        return
      }
      guard try parsed.isFirst(record, id: txid, column: "txid") else { return }
      guard let operation = operations["\(type)/\(subtype)"] ?? operations[type] else {
        parsed.unknown.append(
          (record.line, subtype.isEmpty ? type : "\(type) (\(subtype))"))
        return
      }
      let refid = columns.field(record, "refid")
      let asset = ticker(columns.field(record, "asset"))
      let amount = try ExchangeFields.decimal(columns.field(record, "amount"), field: "amount")
      let feeText = columns.field(record, "fee")
      let fee = feeText.isEmpty ? .zero : try ExchangeFields.decimal(feeText, field: "fee")
      // A fee paid back would be booked as one paid: the cost would be wrong. (The rows of an
      // internal move are not stored, whatever their fee.)
      if fee.isNegative, operation.isStored {
        throw TradeInputError(
          field: "fee", reason: "a fee must not be below zero (folio books fees paid, not rebates)")
      }
      let id = "kraken:\(refid.isEmpty ? txid : refid)"
      func event(_ kind: ExchangeEventKind) -> ExchangeEvent {
        ExchangeEvent(kind: kind, time: time, id: id, line: record.line, operation: type)
      }
      switch operation {
      case .trade:
        if trades[id] == nil {
          trades[id] = (time, record.line, [], [], [], type)
          order.append(id)
        }
        if amount.isPositive {
          trades[id]?.received.append(Movement(asset: asset, quantity: amount))
        } else if amount.isNegative {
          trades[id]?.spent.append(Movement(asset: asset, quantity: amount.magnitude))
        }
        if fee.isPositive { trades[id]?.fees.append(Movement(asset: asset, quantity: fee)) }
      case .deposit:
        let net = try amount - fee
        guard net.isPositive else { throw reason("a deposit's amount must exceed its fee") }
        parsed.events.append(event(.deposit(Movement(asset: asset, quantity: net))))
      case .withdrawal:
        guard amount.isNegative else { throw reason("a withdrawal's amount is below zero") }
        let total = try amount.magnitude + fee
        parsed.events.append(event(.withdrawal(Movement(asset: asset, quantity: total))))
      case .income(let type):
        let net = try amount - fee
        guard net.isPositive else { throw reason("a reward's amount must exceed its fee") }
        parsed.events.append(event(.income(Movement(asset: asset, quantity: net), type)))
      case .internalMove:
        parsed.internalRows += 1
      }
    }
    for id in order {
      guard let trade = trades[id] else { continue }
      parsed.events.append(
        ExchangeEvent(
          kind: .trade(received: trade.received, spent: trade.spent, fees: trade.fees),
          time: trade.time, id: id, line: trade.line, operation: trade.type))
    }
    return parsed
  }

  private static func reason(_ text: String) -> TradeInputError {
    TradeInputError(field: "amount", reason: text)
  }
}
