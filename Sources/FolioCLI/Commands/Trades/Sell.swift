/// `folio sell COIN QUANTITY --price PRICE`.
enum Sell {
  static let spec = TradeCommand.spec(for: .sell)
}
