import FolioStorage
import Foundation

/// Binance's transaction history statement: `User_ID,UTC_Time,Account,Operation,Coin,Change,
/// Remark`, one row per balance change, newest first. A trade is several rows at one time (what
/// was bought, what was spent, the fee, often in BNB); a dust conversion is one row per small
/// balance given up and the BNB received, at one time.
enum BinanceStatement {
  /// What each operation (lowercased) is.
  enum Operation {
    case trade, fee, dust, deposit, withdrawal, internalMove
    case income(IncomeType)
  }

  static let operations: [String: Operation] = [
    "buy": .trade, "sell": .trade, "transaction buy": .trade, "transaction spend": .trade,
    "transaction sold": .trade, "transaction revenue": .trade,
    "fee": .fee, "transaction fee": .fee,
    "small assets exchange bnb": .dust,
    "deposit": .deposit, "fiat deposit": .deposit,
    "withdraw": .withdrawal, "fiat withdraw": .withdrawal,
    "staking rewards": .income(.staking), "eth 2.0 staking rewards": .income(.staking),
    "pos savings interest": .income(.staking),
    "simple earn flexible interest": .income(.interest),
    "simple earn locked rewards": .income(.interest), "savings interest": .income(.interest),
    "launchpool interest": .income(.airdrop), "distribution": .income(.airdrop),
    "airdrop assets": .income(.airdrop),
    "simple earn flexible subscription": .internalMove,
    "simple earn flexible redemption": .internalMove,
    "simple earn locked subscription": .internalMove,
    "simple earn locked redemption": .internalMove, "staking purchase": .internalMove,
    "staking redemption": .internalMove, "savings purchase": .internalMove,
    "savings principal redemption": .internalMove, "pos savings purchase": .internalMove,
    "pos savings redemption": .internalMove, "transfer_in": .internalMove,
    "transfer_out": .internalMove, "transfer between main and funding wallet": .internalMove,
  ]

  static func parse(
    _ next: () throws -> CSVRecord?, header: CSVRecord, source: String
  ) throws -> ParsedExport {
    let columns = ExchangeColumns(header)
    var parsed = ParsedExport()
    // Trade and dust rows, grouped by time and account, in the order their groups appear.
    var groups: [String: (line: Int, time: Timestamp, dust: Bool, rows: [CSVRecord])] = [:]
    var order: [String] = []
    try parsed.readRows(next, source: source) { record, parsed in
      let operationText = columns.field(record, "operation")
      let account = columns.field(record, "account")
      let time = try ExchangeFields.time(columns.field(record, "utc_time"), shortYear: true)
      parsed.saw(time)
      guard let operation = operations[operationText.lowercased()] else {
        parsed.unknown.append((record.line, operationText))
        return
      }
      let change = try ExchangeFields.decimal(columns.field(record, "change"), field: "Change")
      let coin = columns.field(record, "coin").uppercased()
      let id = ExchangeFields.madeUpID(
        prefix: "binance", time: time, rows: [rowText(record, columns)])
      func event(_ kind: ExchangeEventKind) -> ExchangeEvent {
        ExchangeEvent(
          kind: kind, time: time, id: id, line: record.line, operation: operationText)
      }
      switch operation {
      case .trade, .fee, .dust:
        if case .fee = operation, change.isPositive {
          // A fee paid back would be booked as one paid: the cost would be wrong.
          throw reason("a fee's Change must be below zero (folio books fees paid, not rebates)")
        }
        let dust = if case .dust = operation { true } else { false }
        let key = "\(time.description)|\(account)|\(dust)"
        if groups[key] == nil {
          groups[key] = (record.line, time, dust, [])
          order.append(key)
        }
        groups[key]?.rows.append(record)
      case .deposit:
        guard change.isPositive else { throw reason("a deposit's Change must be above zero") }
        parsed.events.append(event(.deposit(Movement(asset: coin, quantity: change))))
      case .withdrawal:
        guard change.isNegative else { throw reason("a withdrawal's Change must be below zero") }
        parsed.events.append(
          event(.withdrawal(Movement(asset: coin, quantity: change.magnitude))))
      case .income(let type):
        guard change.isPositive else { throw reason("income's Change must be above zero") }
        parsed.events.append(event(.income(Movement(asset: coin, quantity: change), type)))
      case .internalMove:
        parsed.internalRows += 1
      }
    }
    for key in order {
      guard let group = groups[key] else { continue }
      var received: [Movement] = []
      var spent: [Movement] = []
      var fees: [Movement] = []
      for record in group.rows {
        // Parsed above without error, or the import is refused anyway.
        guard
          let change = try? ExchangeFields.decimal(columns.field(record, "change"), field: "")
        else { continue }
        let coin = columns.field(record, "coin").uppercased()
        let isFee = operations[columns.field(record, "operation").lowercased()].map {
          if case .fee = $0 { true } else { false }
        }
        if change.isZero { continue }
        if isFee == true {
          fees.append(Movement(asset: coin, quantity: change.magnitude))
        } else if change.isPositive {
          received.append(Movement(asset: coin, quantity: change))
        } else {
          spent.append(Movement(asset: coin, quantity: change.magnitude))
        }
      }
      let first = group.rows.first.map { columns.field($0, "operation") } ?? ""
      parsed.events.append(
        ExchangeEvent(
          kind: .trade(received: received, spent: spent, fees: fees), time: group.time,
          id: ExchangeFields.madeUpID(
            prefix: "binance", time: group.time, rows: group.rows.map { rowText($0, columns) }),
          line: group.rows.map(\.line).min() ?? group.line,
          operation: group.dust ? first : "Trade"))
    }
    return parsed
  }

  /// The fields that say what a row is (not User_ID), for made-up ids.
  private static func rowText(_ record: CSVRecord, _ columns: ExchangeColumns) -> [String] {
    ["account", "operation", "coin", "change", "remark"].map { columns.field(record, $0) }
  }

  private static func reason(_ text: String) -> TradeInputError {
    TradeInputError(field: "Change", reason: text)
  }
}
