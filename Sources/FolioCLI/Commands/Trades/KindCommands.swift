import FolioService
import FolioStorage
import Foundation

/// What `income`, `deposit`, `withdraw`, `transfer` and `swap` share: the row's date, note and
/// id, and the output format.
struct TransactionOptions: ParsableArguments {
  enum Format: String, OutputFormat { case text, json }

  @Option(help: "YYYY-MM-DD or ISO-8601 with offset (default: now).") var date: String?
  @Flag(help: "Accept a --date more than a day in the future.") var allowFuture: Bool
  @Option(valueName: "text", help: "A free-text note.") var note: String?
  @Option(
    name: "id", valueName: "external-id",
    help: "Your own id for the row that gives units up or brings them in, unique in the portfolio.")
  var externalID: String?
  @Option var format = Format.text

  var draft: TransactionDraft {
    var draft = TransactionDraft(date: date, note: note, externalID: externalID)
    draft.allowFuture = allowFuture
    return draft
  }

  /// Prints the rows written: their ids, one a line, or their JSON (an array when several).
  func print(_ rows: [Trade], _ context: Context) throws {
    switch format {
    case .text:
      for row in rows { context.print(String(row.id)) }
    case .json:
      let items = try rows.map { try TradeRendering.json($0, context) }
      context.print((items.count == 1 ? items[0] : JSONValue.array(items)).rendered())
    }
  }
}

extension IncomeType: ExpressibleByArgument {
  static var expected: String { "staking, interest, airdrop, mining, gift or other" }
}

/// `folio income COIN QUANTITY --price PRICE --kind KIND`.
struct IncomeCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "income", abstract: "Record coins received as income (staking, interest, ...).",
    discussion: """
      An acquisition at market value: a lot of QUANTITY × --price (the price per unit in the
      portfolio's currency when received), counted as income, not as money put in. Prints the
      new row's id.
      """, createsDatabase: true)

  @Argument(help: "The CoinGecko coin id or symbol.") var coin: String
  @Argument(help: "How many units were received.") var quantity: String
  @Option(help: "The market price per unit when received (required).") var price: String
  @Option(help: "What the income was.") var kind: IncomeType
  @OptionGroup var options: TransactionOptions

  func run(_ context: Context) throws {
    let row = try TransactionService(context.store()).income(
      coin: coin, quantity: quantity, price: price, type: kind, options.draft,
      in: context.portfolio(), now: context.now)
    try options.print([row], context)
  }
}

/// `folio deposit COIN QUANTITY --cost COST [--acquired DATE]`.
struct DepositCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "deposit", abstract: "Record coins entering from outside the tracked portfolios.",
    discussion: """
      Coins that come in without a purchase here (from a wallet folio does not track): a lot
      of QUANTITY at the total --cost, acquired at --acquired (default: the deposit's date), so
      the cost methods and gains treat it as bought then. Prints the new row's id.
      """, createsDatabase: true)

  @Argument(help: "The CoinGecko coin id or symbol.") var coin: String
  @Argument(help: "How many units came in.") var quantity: String
  @Option(help: "Their total cost basis in the portfolio's currency (required).") var cost: String
  @Option(valueName: "date", help: "When they were first acquired (default: --date).")
  var acquired: String?
  @OptionGroup var options: TransactionOptions

  func run(_ context: Context) throws {
    let row = try TransactionService(context.store()).deposit(
      coin: coin, quantity: quantity, cost: cost, acquired: acquired, options.draft,
      in: context.portfolio(), now: context.now)
    try options.print([row], context)
  }
}

/// `folio withdraw COIN QUANTITY`.
struct WithdrawCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "withdraw", abstract: "Record coins leaving the tracked portfolios without a sale.",
    discussion: """
      Removes QUANTITY from the lots in the order the portfolio's method picks and realizes
      nothing (their cost basis leaves with them). Refused when the portfolio holds less then.
      Prints the new row's id.
      """)

  @Argument(help: "The CoinGecko coin id or symbol.") var coin: String
  @Argument(help: "How many units left.") var quantity: String
  @OptionGroup var options: TransactionOptions

  func run(_ context: Context) throws {
    let row = try TransactionService(context.store()).withdraw(
      coin: coin, quantity: quantity, options.draft, in: context.portfolio(), now: context.now)
    try options.print([row], context)
  }
}

/// `folio transfer COIN QUANTITY --from P --to Q [--fee F]`.
struct TransferCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "transfer", abstract: "Move coins from one portfolio to another.",
    discussion: """
      QUANTITY leaves --from; QUANTITY − --fee (in units of the coin) arrives in --to. The lots
      that leave (in the order --from's method picks) arrive with their acquisition dates and
      their whole cost basis, so nothing is realized: the fee's units come off the last
      acquired of them, and their basis stays with what arrives. Both portfolios must use the
      same currency. Prints the id of the row leaving --from, then those arriving in --to.
      """)

  @Argument(help: "The CoinGecko coin id or symbol.") var coin: String
  @Argument(help: "How many units leave --from (the fee included).") var quantity: String
  @Option(valueName: "portfolio", help: "The portfolio the coins leave (required).")
  var from: String
  @Option(valueName: "portfolio", help: "The portfolio they arrive in (required).") var to: String
  @Option(help: "Units of the coin the transfer cost (default: 0).") var fee: String?
  @OptionGroup var options: TransactionOptions

  func run(_ context: Context) throws {
    let portfolios = try PortfolioService(context.store())
    let rows = try TransactionService(context.store()).transfer(
      coin: coin, quantity: quantity, fee: fee, from: portfolios.resolve(from),
      to: portfolios.resolve(to), options.draft, now: context.now)
    try options.print(rows, context)
  }
}

/// `folio swap QUANTITY COIN for QUANTITY COIN [--value V] [--fee F COIN]`.
struct SwapCommand: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "swap", abstract: "Record one coin given for another.",
    discussion: """
      One event: disposes of the first coin and acquires the second at the same value, --value
      in the portfolio's currency, else the cached quote of either coin nearest the swap's time
      within --max-age (quantity × price). Refused when neither is there. The quantities are what
      left and what arrived; --fee F COIN (COIN one of the two, written after the amount)
      records what the swap cost in that coin. Prints the ids of the two rows.
      """)

  @Argument(help: "QUANTITY COIN for QUANTITY COIN (then the fee's coin, with --fee).")
  var words: [String]
  @Option(help: "The value of the swap in the portfolio's currency.") var value: String?
  @Option(help: "The fee, followed by its coin: --fee 0.5 eth.") var fee: String?
  @Option(help: "How far from the swap a cached quote may be (default 1d; e.g. 6h).")
  var maxAge: TimeInterval = 86_400
  @OptionGroup var options: TransactionOptions

  func run(_ context: Context) throws {
    var words = words
    var feeCoin: String?
    var feeAmount = fee
    if let fee, fee.contains(" ") {
      let parts = fee.split(separator: " ").map(String.init)
      (feeAmount, feeCoin) = (parts.first, parts.count == 2 ? parts[1] : nil)
    } else if fee != nil, words.count == 6 {
      feeCoin = words.removeLast()
    }
    guard words.count == 5, words[2].lowercased() == "for" else {
      throw UsageError(
        "expected QUANTITY COIN for QUANTITY COIN, such as 'folio swap 1 btc for 20 eth'",
        commandPath: ["folio", "swap"])
    }
    if fee != nil, feeCoin == nil {
      throw UsageError(
        "--fee takes an amount and its coin, such as '--fee 0.5 eth'",
        commandPath: ["folio", "swap"])
    }
    let rows = try TransactionService(context.store()).swap(
      give: words[1], giveQuantity: words[0], get: words[4], getQuantity: words[3],
      value: value, fee: feeAmount, feeCoin: feeCoin, maxAge: Int64(maxAge), options.draft,
      in: context.portfolio(), now: context.now)
    try options.print(rows, context)
  }
}
