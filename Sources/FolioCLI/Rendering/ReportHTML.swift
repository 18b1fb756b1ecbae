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
    var body = [
      "<header>",
      "<h1>\(escape(report.portfolio.name)) <span class=\"muted\">· \(report.day)</span></h1>",
      "<p class=\"muted\">Folio daily report · \(currency.uppercased()) · cost basis by "
        + "\(escape(Formatting.method(report.method))) · \(escape(ReportFormat.snapshotLine(report)))</p>",
      "</header>",
    ]
    if let warning = ReportFormat.staleWarning(report) {
      body.append("<p class=\"warning\"><strong>Warning:</strong> \(escape(warning))</p>")
    }

    // Statistics cards.
    body.append("<section class=\"cards\" aria-label=\"Statistics\">")
    for cells in ReportFormat.statisticsTable(report.statistics).rows {
      var card = "<div class=\"card\"><div class=\"label\">\(cells[0].text)</div>"
      card += "<div class=\"figure\">\(escape(cells[1].text))</div>"
      if !cells[2].text.isEmpty {
        card += "<div class=\"\(tone(cells[2].direction))\">\(escape(cells[2].text)) 24h</div>"
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
    body += [
      "<section class=\"panel\">", "<h2>Value over the last \(report.historyDays) days</h2>",
    ]
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
    body += ["<section class=\"panel\">", "<h2>Holdings</h2>"]
    if report.holdings.isEmpty {
      body.append("<p class=\"muted\">No coins held at the end of \(report.day).</p>")
    } else {
      body.append(allocation(report))
      let holdings = ReportFormat.holdingsTable(report)
      var rows = zip(report.holdings, holdings.rows).map { holding, cells in
        let name = holding.name.map { "<span class=\"muted name\">\(escape($0))</span>" } ?? ""
        return "<tr><td><strong>\(escape(holding.label))</strong> \(name)</td>"
          + cells[1...4].map { td($0) }.joined()
          + "<td class=\"spark\">\(sparkline(holding.sparkline))</td>"
          + cells[6...].map { td($0) }.joined() + "</tr>"
      }
      if let total = holdings.total {
        rows.append("<tr class=\"total\"><td>Total</td>" + total.map { td($0) }.joined() + "</tr>")
      }
      body.append(table(holdings.headers, rows))
      if let older = ReportFormat.olderPrices(report) {
        body.append("<p class=\"muted\">\(escape(older))</p>")
      }
      let notes = ReportFormat.holdingNotes(report)
      if !notes.isEmpty {
        body.append(
          "<ul class=\"notes\">" + notes.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
      }
    }
    body.append("</section>")

    // Realized profit and top movers side by side on wide screens.
    body += [
      "<div class=\"columns\">", "<section class=\"panel\"><h2>Realized profit</h2>",
      table(ReportFormat.realizedTable(report)), "</section>",
      "<section class=\"panel\"><h2>Top movers (24h)</h2>",
    ]
    if report.movers.isEmpty {
      body.append("<p class=\"muted\">None: no held coin has a 24h change.</p>")
    } else {
      body.append(table(ReportFormat.moversTable(report)))
    }
    body.append("</section></div>")

    // Returns: net flow apart from market gain, TWR and XIRR.
    body += ["<section class=\"panel\"><h2>Returns</h2>", table(ReportFormat.returnsTable(report))]
    let returnNotes = ReportFormat.returnNotes(report)
    if !returnNotes.isEmpty {
      body.append(
        "<ul class=\"notes\">" + returnNotes.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
    }
    body.append("</section>")

    // The day's trades.
    body.append("<section class=\"panel\"><h2>Trades on \(report.day)</h2>")
    if report.trades.isEmpty {
      body.append("<p class=\"muted\">None.</p>")
    } else {
      body.append(table(ReportFormat.tradesTable(report), text: [1, 2, 7]))
    }
    body.append("</section>")
    body.append(
      "<footer class=\"muted\">Generated by folio \(folioVersion) at \(report.generatedAt). "
        + "Amounts in \(currency.uppercased()); market cap and volume abbreviated "
        + "(K thousand, M million, Bn billion, Tr trillion).</footer>")

    return page("Folio daily report: \(report.portfolio.name), \(report.day)", body)
  }

  /// `DIR/index.html` of `folio daily`: each portfolio's saved value over time, then the dated
  /// folders, newest first, with each portfolio's value and change linked to its files.
  static func index(_ index: DailyIndex, generatedAt: String) -> String {
    var body = [
      "<header><h1>Folio daily reports</h1>",
      "<p class=\"muted\">\(index.days.count) day(s) filed · generated at \(generatedAt)</p>",
      "</header>",
    ]
    for (portfolio, rows) in index.history {
      let chart = valueChart(rows.map { ($0.day, $0.value) }, currency: portfolio.currency)
      body.append(
        "<section class=\"panel\"><h2>\(escape(portfolio.name)) "
          + "<span class=\"muted\">· \(portfolio.currency.uppercased())</span></h2>"
          + (chart ?? "<p class=\"muted\">Fewer than two saved days.</p>") + "</section>")
    }
    let rows = index.days.map { day, entries in
      "<tr><td>\(day)</td>"
        + index.history.map { portfolio, _ in
          guard let entry = entries.first(where: { $0.portfolio.id == portfolio.id }) else {
            return "<td></td>"
          }
          let links = entry.files.map {
            "<a href=\"\(day)/\(escape($0))\">\(escape(String($0.split(separator: ".").last ?? "")))</a>"
          }
          let change = ReportFormat.Cell(
            Formatting.money(entry.change, in: portfolio.currency, sign: .always, missing: "")
              + (entry.changePercent.map { " (\(Formatting.percent($0)))" } ?? ""),
            direction: entry.change.map { !$0.isNegative })
          return "<td>\(escape(Formatting.money(entry.value, in: portfolio.currency)))"
            + "<br/><span class=\"\(tone(change.direction))\">\(escape(change.text))</span>"
            + "<br/><span class=\"muted\">\(links.joined(separator: " · "))</span></td>"
        }.joined() + "</tr>"
    }
    body.append(
      "<section class=\"panel\"><h2>Days</h2>"
        + table(["Day"] + index.history.map(\.portfolio.name), rows)
        + "<p class=\"muted\">Value and change in profit (unrealized plus realized: what the "
        + "market gained less fees) since the previous saved day.</p></section>")
    return page("Folio daily reports", body)
  }

  /// A whole self-contained page.
  static func page(_ title: String, _ body: [String]) -> String {
    """
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

  /// `table`'s rows in a `table`; columns in `text` are left-aligned.
  static func table(_ table: ReportFormat.Table, text: Set<Int> = []) -> String {
    Self.table(
      table.headers, text: text,
      table.rows.map { cells in
        "<tr>" + cells.enumerated().map { td($1, isText: text.contains($0)) }.joined() + "</tr>"
      })
  }

  /// A cell: left-aligned text, or a right-aligned figure coloured by its direction.
  static func td(_ cell: ReportFormat.Cell, isText: Bool = false) -> String {
    let style = isText ? "text" : cell.direction.map { tone($0) }
    return (style.map { "<td class=\"\($0)\">" } ?? "<td>") + escape(cell.text) + "</td>"
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
    let direction = ReportFormat.sparklineDirection(points)
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
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\n": result.append(character)
      // Control and invisible formatting characters are shown, as on a terminal.
      default: result += FolioCLI.visible(String(character))
      }
    }
    return result
  }
}
