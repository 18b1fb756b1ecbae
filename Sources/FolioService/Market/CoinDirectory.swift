import FolioStorage
import Foundation

/// What a coin typed by the user resolved to.
public struct CoinResolution: Equatable, Sendable {
  /// What the user typed.
  public let typed: String
  /// The CoinGecko id the trade is recorded with.
  public let id: String
  /// When `typed` is the symbol of several coins: the coin chosen (the best rank) and the
  /// others, best rank first; empty otherwise.
  public let chosen: DirectoryCoin?
  public let others: [DirectoryCoin]
  /// True when the coin was not in the directory and was added to it (`--new-coin`).
  public let added: Bool

  /// "'btc' is the symbol of 2 coins; chose bitcoin (Bitcoin, rank 1) over …", when the
  /// symbol was ambiguous.
  public var note: String? { note(choosing: "give the id to choose another") }

  /// The note, ending with `choosing`: how the user of the command picks another coin.
  public func note(choosing: String) -> String? {
    guard let chosen, !others.isEmpty else { return nil }
    return "'\(typed)' is the symbol of \(others.count + 1) coins; chose "
      + CoinDirectory.describe(chosen) + " over "
      + others.prefix(3).map(CoinDirectory.describe).joined(separator: ", ")
      + (others.count > 3 ? " and \(others.count - 3) more" : "") + "; \(choosing)"
  }
}

/// A coin that cannot be resolved.
public enum CoinError: LocalizedError, ClassifiedError, Equatable {
  /// Text that is neither a coin of the directory, nor its symbol, with the closest coins of
  /// the directory; `canAdd` when `--new-coin` would record it anyway (66: a named record
  /// that does not exist).
  case unknown(String, suggestions: [DirectoryCoin], canAdd: Bool)
  /// Text that cannot be a CoinGecko id (64: it does not parse).
  case invalid(String)

  public var kind: FailureKind {
    switch self {
    case .unknown: return .inputMissing
    case .invalid: return .malformed
    }
  }

  public var errorDescription: String? {
    switch self {
    case .unknown(let text, let suggestions, let canAdd):
      var message = "unknown coin '\(text)'"
      if !suggestions.isEmpty {
        message +=
          "; did you mean " + suggestions.map(CoinDirectory.describe).joined(separator: " or ")
          + "?"
      } else {
        message += " (not an id or symbol of the coin directory)"
      }
      if canAdd { message += "; give --new-coin to add it as a new coin" }
      return message
    case .invalid(let text):
      return "'\(text)' is not a known coin symbol or a CoinGecko id (ids are lowercase "
        + "letters, digits, '-', '_' or '.', such as 'bitcoin')"
    }
  }
}

/// The coins trades may name (the `coins` table): CoinGecko id, symbol, name and market-cap
/// rank. A new database gets the list built into folio; `market refresh` adds CoinGecko's
/// /coins/list. Coins typed by the user resolve here: an id, else the symbol of the coin with
/// the best rank.
public struct CoinDirectory {
  /// What to do with text that is not in the directory.
  public enum Unknown: Sendable {
    /// Refuse it with a did-you-mean (`buy`, `sell`, `import trades`, `tx edit --coin`).
    case refuse
    /// Add it to the directory if it is shaped like an id (`--new-coin`).
    case add
    /// Take it as an id without adding it (filters and market commands, which may name a
    /// coin the directory has not heard of yet).
    case accept
    /// Refuse it with a did-you-mean and no `--new-coin` hint (`market import --coin`, which
    /// stores prices only under a coin of the directory).
    case known
  }

  /// How old the newest /coins/list may be before `market refresh` fetches it again.
  public static let listMaxAge: TimeInterval = 86_400

  /// True when the newest /coins/list fetch is `listMaxAge` old or older (or there is none).
  func listIsDue(now: Date) throws -> Bool {
    guard let latest = try CoinDirectoryRecords.latestListFetch(database),
      let time = try? Timestamp(parsing: latest, .lenient).date
    else { return true }
    return now.timeIntervalSince(time) >= Self.listMaxAge
  }

  /// Stores a fetched coin list at `fetchedAt` (inside the caller's transaction): new coins are
  /// added, known ones get CoinGecko's symbol and name (ranks stay, they come from
  /// /coins/markets).
  func store(list coins: [DirectoryCoin], fetchedAt: String, source: String) throws {
    for coin in coins {
      try MarketRecords.upsertCoin(
        database, id: coin.id, symbol: coin.symbol, name: coin.name, imageURL: nil,
        rank: coin.rank, at: fetchedAt)
    }
    try CoinDirectoryRecords.recordListFetch(
      database, fetchedAt: fetchedAt, source: source, coinCount: coins.count)
  }

  /// The built-in list: the fixture and the time it was captured.
  static let builtInFile = "coingecko/coins_list.json"
  static let builtInTime = "2024-01-24T00:00:00Z"

  let database: Database

  public init(_ store: Store) { database = store.database }

  /// What a coin may be typed as, for shell completion: every id, best rank first, then every
  /// symbol (as stored, each once) that is not also an id; `resolve` accepts both.
  public func idsAndSymbols() throws -> [String] {
    var ids: [String] = []
    var symbols: [String] = []
    try CoinDirectoryRecords.each(database) { coin in
      ids.append(coin.id)
      if !coin.symbol.isEmpty { symbols.append(coin.symbol) }
    }
    var seen = Set(ids)
    return ids + symbols.filter { seen.insert($0).inserted }
  }
  init(_ database: Database) { self.database = database }

  /// Resolves what the user typed for a coin (see `Unknown`). Surrounding spaces are ignored;
  /// an id matches in any case, then a symbol (any case) picks the coin of the best rank.
  /// Without `suggest`, an unknown coin is refused without looking for the closest ones.
  public func resolve(_ text: String, unknown: Unknown = .refuse, suggest: Bool = true) throws
    -> CoinResolution
  {
    let typed = text.trimmingCharacters(in: .whitespaces)
    guard !typed.isEmpty else { throw CoinError.invalid(text) }
    let lower = typed.lowercased()
    if try CoinDirectoryRecords.coin(database, id: lower) != nil {
      return CoinResolution(typed: typed, id: lower, chosen: nil, others: [], added: false)
    }
    let bySymbol = try CoinDirectoryRecords.coins(database, symbol: typed)
    if let best = bySymbol.first {
      let others = Array(bySymbol.dropFirst())
      return CoinResolution(
        typed: typed, id: best.id, chosen: others.isEmpty ? nil : best, others: others,
        added: false)
    }
    switch unknown {
    case .refuse, .known:
      guard TradeInput.isCoinID(lower) else { throw CoinError.invalid(text) }
      throw CoinError.unknown(
        typed, suggestions: suggest ? try suggestions(for: lower) : [], canAdd: unknown == .refuse)
    case .accept:
      guard TradeInput.isCoinID(lower) else { throw CoinError.invalid(text) }
      return CoinResolution(typed: typed, id: lower, chosen: nil, others: [], added: false)
    case .add:
      guard TradeInput.isCoinID(lower) else { throw CoinError.invalid(text) }
      // False only when another process added the coin since it was looked up.
      let added = try database.write {
        try CoinDirectoryRecords.addIfMissing(
          database, DirectoryCoin(id: lower, symbol: "", name: lower, rank: nil))
      }
      return CoinResolution(typed: typed, id: lower, chosen: nil, others: [], added: added)
    }
  }

  /// The coins closest to `text` by id, symbol or name (a typo away: see
  /// `EditDistance.isTypo`), closest first, then by rank; at most three.
  public func suggestions(for text: String) throws -> [DirectoryCoin] {
    let typed = text.lowercased()
    var found: [(distance: Int, order: Int, coin: DirectoryCoin)] = []
    var order = 0
    try CoinDirectoryRecords.each(database) { coin in
      order += 1
      let distance = [coin.id, coin.symbol.lowercased(), coin.name.lowercased()]
        .filter { !$0.isEmpty && abs($0.count - typed.count) <= max(1, typed.count / 3) }
        .map { EditDistance.between($0, typed) }.min()
      if let distance, EditDistance.isTypo(distance, length: typed.count) {
        found.append((distance, order, coin))
      }
    }
    return found.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(3).map(
      \.coin)
  }

  /// "'bitcoin' (Bitcoin, BTC)".
  static func describe(_ coin: DirectoryCoin) -> String {
    var parts: [String] = []
    if !coin.name.isEmpty && coin.name != coin.id { parts.append(coin.name) }
    if !coin.symbol.isEmpty { parts.append(coin.symbol.uppercased()) }
    if let rank = coin.rank { parts.append("rank \(rank)") }
    return "'\(coin.id)'" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
  }

  // MARK: Filling the directory

  /// Stores the built-in coin list unless this database already has it.
  static func addBuiltInList(_ database: Database) throws {
    guard try !CoinDirectoryRecords.hasBuiltInList(database) else { return }
    let coins = try builtInList()
    try database.write {
      guard try !CoinDirectoryRecords.hasBuiltInList(database) else { return }
      for coin in coins { try CoinDirectoryRecords.addIfMissing(database, coin) }
      try CoinDirectoryRecords.recordListFetch(
        database, fetchedAt: builtInTime, source: CoinDirectoryRecords.builtInSource,
        coinCount: coins.count)
    }
  }

  /// The list built into folio (Fixtures/coingecko/coins_list.json).
  static func builtInList() throws -> [DirectoryCoin] {
    let bytes = try DemoBuilder.fixture(builtInFile)
    do {
      var notes = PayloadNotes()
      return try CoinListPayload.read(JSONValue.parse(bytes), notes: &notes)
    } catch {
      throw DemoError.brokenFixture(builtInFile, reason: String(describing: error))
    }
  }
}

/// A `/coins/list` response: `[{"id": …, "symbol": …, "name": …}, …]`. An element may carry a
/// `market_cap_rank` (the built-in list does); other keys (`platforms`) are ignored. An element
/// folio cannot use (not an object, an id that is not a CoinGecko id, a missing symbol or name,
/// a repeated id, a symbol or name too long for the coins table) is skipped with a warning, as a
/// markets row without a price is: one odd coin among thousands must not stop a refresh.
enum CoinListPayload {
  /// True when `items` look like /coins/list rather than a /coins/markets page: the first
  /// object has an id, a symbol and a name but none of the markets fields.
  static func isCoinList(_ items: [JSONValue]) -> Bool {
    guard let first = items.lazy.compactMap(\.objectValue).first else { return false }
    let marketKeys = ["current_price", "market_cap", "total_volume", "last_updated"]
    return ["id", "symbol", "name"].allSatisfy { first[$0] != nil }
      && !marketKeys.contains { first[$0] != nil }
  }

  static func read(_ value: JSONValue, notes: inout PayloadNotes) throws(PayloadError)
    -> [DirectoryCoin]
  {
    guard case .array(let items) = value.kind else {
      throw PayloadError("expected a /coins/list array, found \(value.kindName)")
    }
    if items.isEmpty { throw PayloadError("the /coins/list array is empty") }
    var coins: [DirectoryCoin] = []
    var seen: Set<String> = []
    for (index, item) in items.enumerated() {
      do throws(PayloadError) {
        guard case .object(let object) = item.kind else {
          throw PayloadError("element \(index) is \(item.kindName), expected a coin object")
        }
        var reader = FieldReader(object: object, context: "element \(index)")
        let id = try reader.requiredString("id")
        guard TradeInput.isCoinID(id) else {
          throw PayloadError("element \(index): \(CoinGeckoDocument.badID)")
        }
        reader.context = "coin '\(id)' (element \(index))"
        guard seen.insert(id).inserted else {
          throw PayloadError("\(reader.context) appears twice")
        }
        let symbol = try reader.requiredString(
          "symbol", allowEmpty: true, maxLength: MarketRecords.symbolLimit)
        let name = try reader.requiredString(
          "name", allowEmpty: true, maxLength: MarketRecords.nameLimit)
        coins.append(
          DirectoryCoin(
            id: id, symbol: symbol, name: name,
            rank: try reader.integer("market_cap_rank").flatMap { $0 >= 1 ? $0 : nil }))
      } catch {
        notes.warnings.append(error.reason + "; skipped")
      }
    }
    if coins.isEmpty {
      throw PayloadError(
        "no element of the /coins/list array is a coin folio can use"
          + (notes.warnings.first.map { " (\($0))" } ?? ""))
    }
    return coins
  }
}
