import FolioService
import FolioStorage
import Foundation

/// The daily report as one self-contained XHTML page: inline CSS (light and dark schemes, a
/// layout that fits a phone) and inline SVG charts (value over time, allocation, 7-day
/// sparklines). No scripts, no fonts or images fetched from anywhere. The page is well-formed
/// XML, so it can be checked with any XML parser.
enum ReportHTML {
  static func render(_ report: DailyReport) -> String {
    let currency = report.portfolio.currency
    var body: [String] = []
    body.append("<header>")
    body.append(
      "<h1>\(escape(report.portfolio.name)) <span class=\"muted\">· \(report.day)</span></h1>")
    body.append(
      "<p class=\"muted\">Folio daily report · \(currency.uppercased()) · cost basis by "
        + "\(report.method.rawValue) · \(escape(ReportFormat.snapshotLine(report)))</p>")
    body.append("</header>")
    if let warning = ReportFormat.staleWarning(report) {
      body.append("<p class=\"warning\"><strong>Warning:</strong> \(escape(warning))</p>")
    }

    // Statistics cards.
    body.append("<section class=\"cards\" aria-label=\"Statistics\">")
    for statistic in ReportFormat.statistics(report.statistics) {
      var card = "<div class=\"card\"><div class=\"label\">\(statistic.label)</div>"
      card += "<div class=\"figure\">\(escape(statistic.figure))</div>"
      if let change = statistic.change {
        card += "<div class=\"\(tone(statistic.direction))\">\(escape(change)) 24h</div>"
      }
      body.append(card + "</div>")
    }
    body.append("</section>")
    let notes = ReportFormat.notes(report.statistics)
    if !notes.isEmpty {
      body.append(
        "<ul class=\"notes\">" + notes.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
    }

    // Value over time.
    body.append("<section class=\"panel\">")
    body.append("<h2>Value over the last \(report.historyDays) days</h2>")
    let daily = ReportFormat.dailyValues(report)
    if let chart = valueChart(daily, currency: currency) {
      body.append(chart)
      if let summary = ReportFormat.historySummary(report) {
        body.append("<p class=\"muted\">\(escape(summary))</p>")
      }
    } else {
      body.append(
        "<p class=\"muted\">Not enough saved history: save a day with "
          + "<code>folio report --save</code> or fill the past with "
          + "<code>folio report backfill --since DAY</code>.</p>")
    }
    body.append("</section>")

    // Holdings and allocation.
    body.append("<section class=\"panel\">")
    body.append("<h2>Holdings</h2>")
    if report.holdings.isEmpty {
      body.append("<p class=\"muted\">No coins held at the end of \(report.day).</p>")
    } else {
      body.append(allocation(report))
      var rows: [String] = []
      for holding in report.holdings {
        let name = holding.name.map { "<span class=\"muted name\">\(escape($0))</span>" } ?? ""
        rows.append(
          "<tr><td><strong>\(escape(holding.label))</strong> \(name)</td>"
            + "<td>\(escape(Formatting.quantity(holding.quantity)))</td>"
            + "<td>\(escape(ReportFormat.holdingPrice(holding, report)))</td>"
            + "<td>\(escape(Formatting.money(holding.value, in: currency)))</td>"
            + cell(Formatting.percent(holding.change24h), holding.change24h)
            + "<td class=\"spark\">\(sparkline(holding.sparkline))</td>"
            + "<td>\(escape(Formatting.percent(holding.share, .share, missing: "")))</td>"
            + "<td>\(escape(Formatting.money(holding.costBasis, in: currency)))</td>"
            + cell(
              Formatting.money(holding.unrealized, in: currency, sign: .nonZero), holding.unrealized
            )
            + "</tr>")
      }
      rows.append(
        "<tr class=\"total\"><td>Total</td><td></td><td></td>"
          + "<td>\(escape(Formatting.money(report.statistics.portfolioValue.value, in: currency)))</td>"
          + cell(
            Formatting.percent(report.statistics.portfolioChange24h.value),
            report.statistics.portfolioChange24h.value)
          + "<td></td><td></td>"
          + "<td>\(escape(Formatting.money(report.totalCostBasis, in: currency)))</td>"
          + cell(
            Formatting.money(report.totalUnrealized, in: currency, sign: .nonZero),
            report.totalUnrealized)
          + "</tr>")
      body.append(
        table(
          [
            "Coin", "Quantity", "Price", "Value", "24h", "7 days", "Share", "Cost basis",
            "Unrealized",
          ],
          rows))
      if let older = ReportFormat.olderPrices(report) {
        body.append("<p class=\"muted\">\(escape(older))</p>")
      }
    }
    body.append("</section>")

    // Realized profit and top movers side by side on wide screens.
    body.append("<div class=\"columns\">")
    body.append("<section class=\"panel\"><h2>Realized profit</h2>")
    body.append(
      table(
        ["Period", "Realized"],
        ReportText.periods(report).map { label, value in
          "<tr><td>\(label)</td>"
            + cell(Formatting.money(value, in: currency, sign: .nonZero), value) + "</tr>"
        }))
    body.append("</section>")
    body.append("<section class=\"panel\"><h2>Top movers (24h)</h2>")
    if report.movers.isEmpty {
      body.append("<p class=\"muted\">None: no held coin has a 24h change.</p>")
    } else {
      body.append(
        table(
          ["Coin", "24h", "Value change"],
          report.movers.map { mover in
            "<tr><td>\(escape(mover.label))</td>"
              + cell(Formatting.percent(mover.change24h, missing: "—"), mover.change24h)
              + cell(
                Formatting.money(mover.valueChange, in: currency, sign: .nonZero),
                mover.valueChange) + "</tr>"
          }))
    }
    body.append("</section></div>")

    // The day's trades.
    body.append("<section class=\"panel\"><h2>Trades on \(report.day)</h2>")
    if report.trades.isEmpty {
      body.append("<p class=\"muted\">None.</p>")
    } else {
      body.append(
        table(
          ["Time (UTC)", "Side", "Coin", "Quantity", "Price", "Fee", "Realized", "Location"],
          text: [1, 2, 7],
          report.trades.map { entry in
            let trade = entry.trade
            return "<tr><td>\(ReportFormat.time(trade.executedAt))</td>"
              + "<td class=\"text\">\(trade.side.rawValue)</td>"
              + "<td class=\"text\">\(escape(ReportText.label(trade.coinID, report)))</td>"
              + "<td>\(escape(Formatting.quantity(trade.quantity)))</td>"
              + "<td>\(escape(Formatting.money(trade.price, .price, in: currency)))</td>"
              + "<td>\(escape(Formatting.money(trade.fee, in: currency)))</td>"
              + cell(
                Formatting.money(entry.realized, in: currency, sign: .nonZero, missing: ""),
                entry.realized)
              + "<td class=\"text\">\(escape(entry.location ?? ""))</td></tr>"
          }))
    }
    body.append("</section>")
    body.append(
      "<footer class=\"muted\">Generated by folio \(folioVersion) at \(report.generatedAt). "
        + "Amounts in \(currency.uppercased()); market cap and volume abbreviated "
        + "(K thousand, M million, Bn billion, Tr trillion).</footer>")

    let title = "Folio daily report: \(report.portfolio.name), \(report.day)"
    return """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <meta name="color-scheme" content="light dark"/>
      <title>\(escape(title))</title>
      <style>
      \(style)
      </style>
      </head>
      <body>
      <main>
      \(body.joined(separator: "\n"))
      </main>
      </body>
      </html>

      """
  }

  // MARK: - Pieces

  static let style = """
    :root { --bg: #f6f7f9; --fg: #17181c; --muted: #61646b; --panel: #ffffff; --line: #dfe1e6;
      --up: #1a7f37; --down: #c62828; --accent: #2f5bd3; --fill: rgba(47, 91, 211, 0.14);
      --warn-bg: #fff4d6; --warn-fg: #6b4e00; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #111318; --fg: #e9eaee; --muted: #9ca0aa; --panel: #1b1e25; --line: #30343d;
        --up: #3fb950; --down: #ff6b6b; --accent: #7ea2ff; --fill: rgba(126, 162, 255, 0.18);
        --warn-bg: #3a3015; --warn-fg: #ffd97a; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif; }
    main { max-width: 980px; margin: 0 auto; padding: 16px; }
    h1 { font-size: 24px; margin: 8px 0 4px; }
    h2 { font-size: 17px; margin: 0 0 10px; }
    p { margin: 6px 0; }
    code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 13px; }
    .muted { color: var(--muted); }
    .up { color: var(--up); }
    .down { color: var(--down); }
    .warning { background: var(--warn-bg); color: var(--warn-fg); border-radius: 10px;
      padding: 10px 12px; }
    .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px;
      margin: 16px 0 8px; }
    .card, .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 12px;
      padding: 12px 14px; }
    .panel { margin: 14px 0; min-width: 0; }
    .card .label { color: var(--muted); font-size: 13px; }
    .card .figure { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; }
    .notes { color: var(--muted); font-size: 13px; margin: 4px 0 0; padding-left: 18px; }
    .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr));
      column-gap: 14px; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
    th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: right;
      white-space: nowrap; }
    th { color: var(--muted); font-weight: 600; font-size: 13px; }
    th:first-child, td:first-child, .text { text-align: left; }
    td:first-child, th:first-child { position: sticky; left: 0; background: var(--panel); }
    tr.total td { font-weight: 650; border-bottom: none; }
    .name { display: block; font-size: 12px; white-space: normal; max-width: 160px; }
    .chart { width: 100%; height: 190px; display: block; }
    .chart .area { fill: var(--fill); }
    .chart .line { fill: none; stroke: var(--accent); stroke-width: 2.5;
      stroke-linejoin: round; stroke-linecap: round; }
    .chart .grid { stroke: var(--line); stroke-width: 1; stroke-dasharray: 4 4; }
    .range, .axis { display: flex; justify-content: space-between; gap: 12px; font-size: 13px;
      margin: 4px 0; }
    .allocation { display: flex; flex-wrap: wrap; align-items: center; gap: 16px;
      margin-bottom: 10px; }
    .allocation svg { width: 132px; height: 132px; flex: none; }
    .legend { list-style: none; margin: 0; padding: 0; display: grid;
      grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 4px 16px; flex: 1;
      min-width: 200px; }
    .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 3px;
      margin-right: 6px; }
    .spark svg { width: 84px; height: 22px; display: block; margin-left: auto; }
    .spark .line { fill: none; stroke-width: 1.6; }
    .spark .up { stroke: var(--up); }
    .spark .down { stroke: var(--down); }
    .spark .flat { stroke: var(--muted); }
    footer { font-size: 12px; margin: 18px 0 8px; }
    @media (max-width: 560px) {
      main { padding: 10px; }
      h1 { font-size: 20px; }
      .card .figure { font-size: 19px; }
      th, td { padding: 5px 6px; }
    }
    """

  /// The colours of the allocation chart, one per coin in order (then repeating).
  static let palette = [
    "#2f5bd3", "#f59f00", "#2b8a3e", "#c2255c", "#7048e8", "#0c8599", "#e8590c", "#5c940d",
  ]

  /// A table inside a horizontally scrolling box (wide tables stay usable on a phone; the
  /// first column stays in view). Columns in `text` are left-aligned, the others right.
  static func table(_ headers: [String], text: Set<Int> = [], _ rows: [String]) -> String {
    "<div class=\"scroll\"><table><thead><tr>"
      + headers.enumerated().map { index, header in
        text.contains(index)
          ? "<th class=\"text\">\(escape(header))</th>" : "<th>\(escape(header))</th>"
      }.joined() + "</tr></thead><tbody>" + rows.joined() + "</tbody></table></div>"
  }

  /// A right-aligned cell coloured by the sign of `value`.
  static func cell(_ text: String, _ value: ExactDecimal?) -> String {
    let direction = MarketFormat.direction(value)
    return direction == nil
      ? "<td>\(escape(text))</td>" : "<td class=\"\(tone(direction))\">\(escape(text))</td>"
  }

  static func tone(_ direction: Bool?) -> String {
    switch direction {
    case true?: return "up"
    case false?: return "down"
    case nil: return "muted"
    }
  }

  /// The value-over-time line chart with its high, low and first and last day; nil when
  /// fewer than two days have a value. The SVG stretches to the panel's width (lines keep
  /// their thickness); the labels are HTML, so they stay readable on a phone.
  static func valueChart(_ daily: [(day: String, value: ExactDecimal?)], currency: String)
    -> String?
  {
    let known = daily.enumerated().compactMap { index, entry in
      entry.value.map { (index, $0.doubleValue, $0) }
    }
    guard known.count >= 2, let high = known.map(\.2).max(), let low = known.map(\.2).min(),
      let first = daily.first, let last = daily.last
    else { return nil }
    let width = 600.0
    let height = 200.0
    let span = high.doubleValue - low.doubleValue
    let padding = span > 0 ? span * 0.08 : max(abs(high.doubleValue) * 0.05, 1)
    let minimum = low.doubleValue - padding
    let maximum = high.doubleValue + padding
    let steps = Double(max(daily.count - 1, 1))
    func x(_ index: Int) -> Double { width * Double(index) / steps }
    func y(_ value: Double) -> Double { height * (1 - (value - minimum) / (maximum - minimum)) }
    let points = known.map { "\(number(x($0.0))),\(number(y($0.1)))" }
    let area =
      "M\(number(x(known[0].0))),\(number(height)) L" + points.joined(separator: " L")
      + " L\(number(x(known[known.count - 1].0))),\(number(height)) Z"
    var svg =
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) "
      + "\(Int(height))\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"Portfolio "
      + "value from \(first.day) to \(last.day), between \(escape(Formatting.money(low, in: currency))) "
      + "and \(escape(Formatting.money(high, in: currency)))\">"
    for value in [high, low] {
      let level = number(y(value.doubleValue))
      svg +=
        "<line class=\"grid\" x1=\"0\" y1=\"\(level)\" x2=\"\(Int(width))\" y2=\"\(level)\" "
        + "vector-effect=\"non-scaling-stroke\"/>"
    }
    svg += "<path class=\"area\" d=\"\(area)\"/>"
    svg +=
      "<polyline class=\"line\" points=\"\(points.joined(separator: " "))\" "
      + "vector-effect=\"non-scaling-stroke\"/></svg>"
    return "<p class=\"range\"><span>High <strong>\(escape(Formatting.money(high, in: currency)))"
      + "</strong></span><span>Low <strong>\(escape(Formatting.money(low, in: currency)))"
      + "</strong></span></p>" + svg
      + "<p class=\"axis muted\"><span>\(first.day)</span><span>\(last.day)</span></p>"
  }

  /// A donut of each priced holding's share, with a legend.
  static func allocation(_ report: DailyReport) -> String {
    let shares = report.holdings.compactMap { holding in
      holding.share.map { (holding.label, $0) }
    }.filter { $0.1.isPositive }
    guard !shares.isEmpty else { return "" }
    let radius = 15.915_494_309  // circumference 100, so dash lengths are percentages
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 42 42\" role=\"img\" "
      + "aria-label=\"Allocation by value\">"
    svg +=
      "<circle cx=\"21\" cy=\"21\" r=\"\(radius)\" fill=\"none\" stroke=\"currentColor\" "
      + "stroke-opacity=\"0.12\" stroke-width=\"7\"/>"
    var offset = 25.0  // start at the top
    var legend: [String] = []
    for (index, (label, share)) in shares.enumerated() {
      let colour = palette[index % palette.count]
      let length = share.doubleValue
      svg +=
        "<circle cx=\"21\" cy=\"21\" r=\"\(radius)\" fill=\"none\" stroke=\"\(colour)\" "
        + "stroke-width=\"7\" stroke-dasharray=\"\(number(length)) \(number(100 - length))\" "
        + "stroke-dashoffset=\"\(number(offset))\"/>"
      offset -= length
      legend.append(
        "<li><span class=\"swatch\" style=\"background: \(colour)\"></span>"
          + "\(escape(label)) <span class=\"muted\">"
          + "\(escape(Formatting.percent(share, .share, missing: "")))</span></li>"
      )
    }
    svg += "</svg>"
    return "<div class=\"allocation\">\(svg)<ul class=\"legend\">\(legend.joined())</ul></div>"
  }

  /// A 7-day sparkline, green when the week ended up, red when down.
  static func sparkline(_ points: [ExactDecimal?]) -> String {
    let values = points.map { $0?.doubleValue }
    let known = values.compactMap { $0 }
    guard known.count >= 2, let low = known.min(), let high = known.max() else { return "" }
    let span = high - low
    let steps = Double(max(values.count - 1, 1))
    var coordinates: [String] = []
    for (index, value) in values.enumerated() {
      guard let value else { continue }
      let x = 84 * Double(index) / steps
      let y = span > 0 ? 20 - 18 * (value - low) / span : 11
      coordinates.append("\(number(x)),\(number(y))")
    }
    let direction = ReportText.sparklineDirection(points)
    let tone = direction == nil ? "flat" : tone(direction)
    return
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 84 22\" aria-hidden=\"true\">"
      + "<polyline class=\"line \(tone)\" points=\"\(coordinates.joined(separator: " "))\"/></svg>"
  }

  /// A coordinate with one decimal.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    return String(format: "%.1f", value)
  }

  /// Text escaped for XHTML content and attribute values.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\n": result.append(character)
      default:
        // Control and invisible formatting characters are shown, as on a terminal.
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first, scalar.isASCII, scalar.value >= 0x20,
          scalar.value < 0x7F
        {
          result.append(character)
        } else {
          result += FolioCLI.visible(String(character))
        }
      }
    }
    return result
  }
}
