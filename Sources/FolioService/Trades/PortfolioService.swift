import FolioStorage
import Foundation

/// Why a portfolio operation was refused.
public enum PortfolioError: LocalizedError, ClassifiedError, Equatable {
  case notFound(String, known: [String])
  case exists(String)
  case invalidName(String)
  /// `all`, which `--portfolio all` reads as every portfolio, for a new or renamed portfolio.
  case reservedName(String)
  case invalidCurrency(String)
  case invalidMethod(String)
  case holdsTrades(String, Int)
  case isDefault(String)
  /// `--portfolio all` over portfolios of different currencies: `name (CUR)` of each.
  case mixedCurrencies([String])
  /// `--portfolio all` for a command that works on one portfolio: the portfolios' names.
  case oneNeeded(known: [String])

  public var kind: FailureKind {
    switch self {
    case .notFound: .inputMissing
    case .oneNeeded: .malformed
    default: .badData
    }
  }

  public var errorDescription: String? {
    switch self {
    case .notFound(let name, let known):
      return "there is no portfolio named '\(name)'; the portfolios are: "
        + known.joined(separator: ", ")
    case .exists(let name): return "a portfolio named '\(name)' already exists"
    case .invalidName(let name):
      return
        "'\(name)' is not a valid portfolio name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    case .reservedName(let name):
      return
        "'\(name)' is not a portfolio name folio gives: --portfolio \(name) stands for every "
        + "portfolio; choose another name"
    case .invalidCurrency(let currency):
      return "'\(currency)' is not a currency code: use 2 to 10 lowercase letters such as 'usd'"
    case .invalidMethod(let method):
      return "'\(method)' is not a cost-basis method: use fifo, lifo, hifo or average"
    case .holdsTrades(let name, let count):
      return
        "portfolio '\(name)' holds \(count) trade(s); use --force to delete it with its trades"
    case .isDefault(let name):
      return "'\(name)' is the default portfolio and cannot be deleted"
    case .oneNeeded(let known):
      return "'all' stands for every portfolio, and this command works on one: name it with "
        + "--portfolio NAME (the portfolios are: " + known.joined(separator: ", ") + ")"
    case .mixedCurrencies(let names):
      return "--portfolio all combines portfolios of one currency, but theirs differ: "
        + names.joined(separator: ", ") + "; name one portfolio with --portfolio NAME"
    }
  }
}

/// A portfolio with a summary of its trades.
public struct PortfolioSummary: Sendable, Equatable {
  public let portfolio: Portfolio
  public let tradeCount: Int
  public let coinCount: Int
  public let isDefault: Bool
}

/// Portfolios: create, list, rename, change the method, delete, and resolve the one in use.
public struct PortfolioService {
  let store: Store
  var db: Database { store.database }

  public init(_ store: Store) { self.store = store }

  /// The name of the default portfolio ('main' unless renamed).
  public func defaultName() throws -> String {
    try Setting.get("default_portfolio", db) ?? "main"
  }

  /// The portfolio to use: `name` (from --portfolio or FOLIO_PORTFOLIO), else the default.
  public func resolve(_ name: String?) throws -> Portfolio {
    let wanted = try (name.flatMap { $0.isEmpty ? nil : $0 }) ?? defaultName()
    guard let portfolio = try Portfolio.named(wanted, db) else {
      let known = try Portfolio.all(db).map(\.name)
      if wanted == "all" { throw PortfolioError.oneNeeded(known: known) }
      throw PortfolioError.notFound(wanted, known: known)
    }
    return portfolio
  }

  /// The portfolios `name` stands for: `all` is every portfolio (unless one is named `all`),
  /// which must share one currency unless `oneCurrency` is false (a listing of the trades adds
  /// nothing up); any other name is that portfolio alone.
  public func resolveMany(_ name: String?, oneCurrency: Bool = true) throws -> [Portfolio] {
    guard name == "all", try Portfolio.named("all", db) == nil else {
      return [try resolve(name)]
    }
    let portfolios = try Portfolio.all(db)
    if oneCurrency, Set(portfolios.map(\.currency)).count > 1 {
      throw PortfolioError.mixedCurrencies(
        portfolios.map { "\($0.name) (\($0.currency.uppercased()))" })
    }
    return portfolios
  }

  /// Parses a method name.
  public static func method(_ text: String) throws -> CostMethod {
    guard let method = CostMethod(rawValue: text.lowercased()) else {
      throw PortfolioError.invalidMethod(text)
    }
    return method
  }

  /// Creates a portfolio.
  public func add(name: String, currency: String = "usd", method: CostMethod = .fifo, now: Date)
    throws -> Portfolio
  {
    try Self.validateNew(name: name)
    let code = currency.lowercased()
    guard (2...10).contains(code.count), code.allSatisfy({ $0 >= "a" && $0 <= "z" }) else {
      throw PortfolioError.invalidCurrency(currency)
    }
    return try db.write {
      guard try Portfolio.named(name, db) == nil else { throw PortfolioError.exists(name) }
      return try Portfolio.insert(
        name: name, currency: code, method: method, createdAt: Timestamp.format(now), db)
    }
  }

  /// A name for a new or renamed portfolio: a valid name (`validate(name:)`) other than `all`.
  /// (A database from before this rule may hold a portfolio named `all`: `resolveMany` then
  /// reads `--portfolio all` as that portfolio.)
  static func validateNew(name: String) throws {
    try validate(name: name)
    guard name != "all" else { throw PortfolioError.reservedName(name) }
  }

  static func validate(name: String) throws {
    let allowed = name.unicodeScalars.allSatisfy {
      $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
    }
    // A leading '.' would hide the daily job's report files ('..html'); a leading '-' reads as an option.
    let first = name.unicodeScalars.first.map { CharacterSet.alphanumerics.contains($0) } ?? false
    guard (1...64).contains(name.count), allowed, first else {
      throw PortfolioError.invalidName(name)
    }
  }

  /// Every portfolio with its trade and coin counts.
  public func list() throws -> [PortfolioSummary] {
    let defaultName = try defaultName()
    return try Portfolio.all(db).map { try summary($0, defaultName: defaultName) }
  }

  /// One portfolio with its counts.
  public func show(_ name: String?) throws -> PortfolioSummary {
    try summary(resolve(name), defaultName: defaultName())
  }

  private func summary(_ portfolio: Portfolio, defaultName: String) throws -> PortfolioSummary {
    PortfolioSummary(
      portfolio: portfolio, tradeCount: try Portfolio.tradeCount(id: portfolio.id, db),
      coinCount: try Trade.coins(portfolioID: portfolio.id, db).count,
      isDefault: portfolio.name == defaultName)
  }

  /// Renames a portfolio (and keeps it the default if it was).
  public func rename(_ old: String, to new: String) throws -> Portfolio {
    try Self.validateNew(name: new)
    return try db.write {
      let portfolio = try resolve(old)
      guard try Portfolio.named(new, db) == nil else { throw PortfolioError.exists(new) }
      if try defaultName() == portfolio.name { try Setting.set("default_portfolio", new, db) }
      try Portfolio.rename(id: portfolio.id, to: new, db)
      return try resolve(new)
    }
  }

  /// Changes the cost-basis method and rebuilds the portfolio's lots with it.
  public func setMethod(_ name: String, _ method: CostMethod) throws -> Portfolio {
    try db.write {
      let portfolio = try resolve(name)
      try Portfolio.setMethod(id: portfolio.id, method, db)
      let updated = try resolve(name)
      try Ledger(db).rebuild(portfolio: updated)
      return updated
    }
  }

  /// Deletes a portfolio; one that holds trades only with `force` (its trades go with it).
  public func delete(_ name: String, force: Bool) throws -> Int {
    try db.write {
      let portfolio = try resolve(name)
      guard portfolio.name != (try defaultName()) else { throw PortfolioError.isDefault(name) }
      let count = try Portfolio.tradeCount(id: portfolio.id, db)
      guard count == 0 || force else { throw PortfolioError.holdsTrades(name, count) }
      try Portfolio.delete(id: portfolio.id, db)
      return count
    }
  }
}

extension Portfolio {
  /// `portfolio` as stored now: its method, currency and name read again by id. A write calls
  /// it inside its `BEGIN IMMEDIATE` transaction, so what it books with cannot have changed
  /// since it was read (a `portfolio set --method` that committed meanwhile is seen). Refused
  /// (65) when the portfolio was deleted meanwhile.
  static func current(_ portfolio: Portfolio, _ db: Database) throws -> Portfolio {
    guard let stored = try Portfolio.find(id: portfolio.id, db) else {
      throw PortfolioError.notFound(portfolio.name, known: try Portfolio.all(db).map(\.name))
    }
    return stored
  }
}
