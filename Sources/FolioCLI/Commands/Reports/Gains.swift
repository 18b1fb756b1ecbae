import FolioService
import FolioStorage
import Foundation

/// `folio gains`: capital gains by tax year, one row per disposed lot piece.
struct Gains: FolioCommand {
  static let configuration = CommandConfiguration(
    name: "gains",
    abstract: "List capital gains: one row per disposed lot piece, with totals by term.",
    discussion: """
      Each sell is split into the lot pieces it took (by the portfolio's method, or --method):
      coin, quantity, date acquired, date disposed, proceeds (the sell's, shared by quantity),
      cost basis, gain, and short or long term (long when held more than one year by calendar
      date: bought 2023-03-01, long from a sale on 2024-03-02; with --long-term-days N, when
      held more than N days instead). --year Y is 1 January through 31 December of Y (the default is the
      current year); --since and --until take inclusive UTC days instead. The CSV follows the
      order of a capital-gains form: description, date acquired, date sold, proceeds, cost
      basis, gain, then term. Income received in the range follows in its own section, at
      its value when received (CSV: term 'income', the value in the last column). A swap
      disposes of the coin given up; a transferred lot keeps the day it was first acquired.
      --portfolio all combines every portfolio of one currency.
      Exit codes: 0 ok, 64 usage (such as --year with --since), 65 --since after --until or
      portfolios of different currencies, 66 no database.
      """)

  enum Format: String, OutputFormat { case text, csv, json }

  struct Year: ExpressibleByArgument {
    let value: Int
    init?(argument: String) {
      guard argument.count == 4, let year = Int(argument), (1970...9999).contains(year) else {
        return nil
      }
      value = year
    }
    static let expected = "a year from 1970 to 9999"
    static let placeholder: String? = "yyyy"
  }

  struct DayCount: ExpressibleByArgument {
    let value: Int
    init(_ value: Int) { self.value = value }
    init?(argument: String) {
      guard let days = Int(argument), (0...36_500).contains(days) else { return nil }
      value = days
    }
    static let expected = "a whole number of days from 0 to 36500"
    static let placeholder: String? = "n"
  }

  @Option(help: "The tax year: its disposals from 1 January through 31 December (UTC).")
  var year: Year?
  @Option(help: "The first day of disposals to list.") var since: CalendarDay?
  @Option(help: "The last day of disposals to list.") var until: CalendarDay?
  @Option(help: "Held more than this many days is long term (default: more than one year).")
  var longTermDays: DayCount?
  @Option(help: "Compute with this method instead.") var method: CostMethod?
  @Option var format = Format.text

  func validate() throws {
    if year != nil && (since != nil || until != nil) {
      throw ValidationError(
        "--year cannot be combined with --since or --until; give one or the other")
    }
  }

  func run(_ context: Context) throws {
    let store = try context.existingStore()
    let portfolios = try context.portfolios()
    let today = CalendarDay(containing: context.now)
    let first: CalendarDay
    let last: CalendarDay
    if since != nil || until != nil {
      first = since ?? CalendarDay(ordinal: 0)
      last = until ?? today
    } else {
      let base = year.flatMap { CalendarDay(String(format: "%04d-01-01", $0.value)) }
      first = base ?? today.firstOfYear
      last = first.adding(days: 400).firstOfYear.adding(days: -1)
    }
    let report = try GainsService(store).gains(
      portfolios, since: first, until: last, method: method,
      longTermRule: longTermDays.map { .moreThanDays($0.value) } ?? .moreThanOneYear)
    switch format {
    case .text:
      Self.writeText(report, to: context.out, useColor: context.useColor, width: context.width)
    case .csv: Self.writeCSV(report, to: context.out)
    case .json: Self.writeJSON(report, to: context.out)
    }
  }

  static func label(_ report: GainsReport) -> String {
    report.portfolios.count == 1
      ? "portfolio '\(report.portfolios.first?.name ?? "")'"
      : "portfolios " + report.portfolios.map { "'\($0.name)'" }.joined(separator: ", ")
  }

  /// The text: a line saying what is listed, the disposals' table (measured, then written a
  /// row at a time: each row's cells are made twice rather than a million held), the totals
  /// by term and the income.
  static func writeText(_ report: GainsReport, to out: TextSink, useColor: Bool, width: Int) {
    let currency = report.currency
    out.write(
      ReportText.paragraphs(
        [
          "Capital gains of \(label(report)) (\(currency.uppercased()), "
            + "\(Formatting.method(report.method))), disposed \(report.since) through \(report.until); "
            + "long term: held more than \(termText(report.longTermRule))"
        ], width: width))
    guard !report.rows.isEmpty else {
      out.write(
        "no disposals in that range\n" + incomeText(report, useColor: useColor, width: width))
      return
    }
    var table = TextTable(
      headers: [
        "COIN", "QUANTITY", "ACQUIRED", "DISPOSED", "PROCEEDS", "COST BASIS", "GAIN", "TERM",
      ], shortenable: [0: 8], dropOrder: [1, 7, 5, 2])
    table.rightAligned = [1, 4, 5, 6]
    func cells(_ row: GainRow) -> [String] {
      [
        row.coinID, Formatting.quantity(row.quantity), row.acquired, row.disposed,
        Formatting.money(row.proceeds, in: currency),
        Formatting.money(row.costBasis, in: currency),
        Formatting.money(row.gain, in: currency, sign: .nonZero),
        row.longTerm ? "long" : "short",
      ]
    }
    var measure = TextTable.Measure(headers: table.headers)
    for row in report.rows { measure.add(cells(row)) }
    let layout = table.layout(measure, width: width)
    out.write("\n" + layout.header)
    for row in report.rows {
      out.write(
        layout.line(
          cells(row), [nil, nil, nil, nil, nil, nil, MarketFormat.direction(row.gain)],
          useColor: useColor))
    }
    out.write(layout.footer + "\n")
    var totals = TextTable(headers: ["TERM", "PROCEEDS", "COST BASIS", "GAIN"])
    totals.rightAligned = [1, 2, 3]
    for (name, sum) in [
      ("Short", report.shortTerm), ("Long", report.longTerm), ("Total", report.total),
    ] {
      totals.append(
        [
          name, Formatting.money(sum.proceeds, in: currency),
          Formatting.money(sum.costBasis, in: currency),
          Formatting.money(sum.gain, in: currency, sign: .nonZero),
        ], directions: [nil, nil, nil, MarketFormat.direction(sum.gain)])
    }
    out.write(
      totals.rendered(useColor: useColor, width: width)
        + incomeText(report, useColor: useColor, width: width))
  }

  static func termText(_ rule: LongTermRule) -> String {
    switch rule {
    case .moreThanOneYear: "one year"
    case .moreThanDays(let days): "\(days) days"
    }
  }

  /// The income section of the text: one row per income at its value when received, and the
  /// total; nothing when no income was received in the range.
  static func incomeText(_ report: GainsReport, useColor: Bool, width: Int) -> String {
    guard !report.income.isEmpty else { return "" }
    let currency = report.currency
    var table = TextTable(
      headers: ["COIN", "QUANTITY", "RECEIVED", "KIND", "PRICE", "VALUE"], shortenable: [0: 8],
      dropOrder: [4, 3, 1])
    table.rightAligned = [1, 4, 5]
    for row in report.income {
      table.append([
        row.coinID, Formatting.quantity(row.quantity), row.received, row.type.rawValue,
        Formatting.money(row.price, .ledger, in: currency),
        Formatting.money(row.value, in: currency),
      ])
    }
    table.append(["Total", "", "", "", "", Formatting.money(report.incomeTotal, in: currency)])
    return "\nIncome received (at its value when received; not a disposal)\n\n"
      + table.rendered(useColor: useColor, width: width)
  }

  /// The columns of a capital-gains form, in its order, then the term and the figures a
  /// script may want apart.
  static let csvHeader = [
    "description", "date_acquired", "date_sold", "proceeds", "cost_basis", "gain", "term",
    "coin", "quantity", "portfolio", "income",
  ]

  /// The disposals, then the income: term `income`, the day received as date_acquired, its
  /// value when received in `income`, and the disposal figures empty.
  static func writeCSV(_ report: GainsReport, to out: TextSink) {
    out.write(CSVWriter.line(csvHeader))
    for row in report.rows {
      out.write(
        CSVWriter.line([
          "\(row.quantity) \(row.coinID)", row.acquired, row.disposed, row.proceeds.description,
          row.costBasis.description, row.gain.description, row.longTerm ? "long" : "short",
          row.coinID, row.quantity.description, row.portfolio, "",
        ]))
    }
    for row in report.income {
      out.write(
        CSVWriter.line([
          "\(row.quantity) \(row.coinID) (\(row.type.rawValue))", row.received, "", "", "", "",
          "income", row.coinID, row.quantity.description, row.portfolio, row.value.description,
        ]))
    }
  }

  /// The JSON, written a disposal at a time.
  static func writeJSON(_ report: GainsReport, to out: TextSink) {
    func totals(_ sum: GainTotals) -> JSONValue {
      .object([
        ("proceeds", .decimal(sum.proceeds)), ("cost_basis", .decimal(sum.costBasis)),
        ("gain", .decimal(sum.gain)),
      ])
    }
    var object = JSONObjectWriter(out)
    object.member("portfolios", .array(report.portfolios.map { .string($0.name) }))
    object.member("currency", .string(report.currency))
    for (name, value) in Formatting.methodMembers(report.method) { object.member(name, value) }
    object.member("since", .string(report.since))
    object.member("until", .string(report.until))
    switch report.longTermRule {
    case .moreThanOneYear: object.member("long_term", .string("more than one year"))
    case .moreThanDays(let days): object.member("long_term", .string("more than \(days) days"))
    }
    object.member("disposals") { array in
      for row in report.rows {
        array.append(
          .object([
            ("portfolio", .string(row.portfolio)), ("coin", .string(row.coinID)),
            ("quantity", .decimal(row.quantity)), ("date_acquired", .string(row.acquired)),
            ("date_sold", .string(row.disposed)), ("proceeds", .decimal(row.proceeds)),
            ("cost_basis", .decimal(row.costBasis)), ("gain", .decimal(row.gain)),
            ("term", .string(row.longTerm ? "long" : "short")),
          ]))
      }
    }
    object.member(
      "totals",
      .object([
        ("short", totals(report.shortTerm)), ("long", totals(report.longTerm)),
        ("total", totals(report.total)),
      ]))
    object.member("income") { array in
      for row in report.income {
        array.append(
          .object([
            ("portfolio", .string(row.portfolio)), ("coin", .string(row.coinID)),
            ("quantity", .decimal(row.quantity)), ("date_received", .string(row.received)),
            ("kind", .string(row.type.rawValue)), ("price", .decimal(row.price)),
            ("value", .decimal(row.value)),
          ]))
      }
    }
    object.member("income_total", .decimal(report.incomeTotal))
    object.finish()
  }
}
