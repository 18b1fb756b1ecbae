/// `folio buy COIN QUANTITY --price PRICE`.
enum Buy {
  static let spec = TradeCommand.spec(for: .buy)
}
