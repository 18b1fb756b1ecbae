-- The least a Folio-like import must store, as a lower bound for Benchmarks/trades.sh: the
-- trades, one index to find a position's trades in time order, each lot consumption, each
-- lot's remainder and each sell's proceeds, cost and profit. No CHECKs, no triggers, no second
-- index, no duplicated columns. `done` is a database folio has already imported into; the rows
-- are copied from it with INSERT … SELECT, SQLite's cheapest way to write rows.
CREATE TABLE trades (
  id INTEGER PRIMARY KEY, portfolio_id INTEGER NOT NULL, executed_at TEXT NOT NULL,
  side TEXT NOT NULL, coin_id TEXT NOT NULL, quantity TEXT NOT NULL, price TEXT NOT NULL,
  fee TEXT NOT NULL, note TEXT, external_id TEXT, created_at TEXT NOT NULL, location_id INTEGER
) STRICT;
CREATE TABLE lots (
  trade_id INTEGER PRIMARY KEY, remaining TEXT NOT NULL, remaining_cost TEXT NOT NULL
) STRICT;
CREATE TABLE lot_consumptions (
  sell_trade_id INTEGER NOT NULL, lot_trade_id INTEGER NOT NULL, quantity TEXT NOT NULL,
  cost TEXT NOT NULL, PRIMARY KEY (sell_trade_id, lot_trade_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE disposals (
  trade_id INTEGER PRIMARY KEY, proceeds TEXT NOT NULL, cost_basis TEXT NOT NULL,
  realized_pnl TEXT NOT NULL
) STRICT;
BEGIN;
INSERT INTO trades SELECT id, portfolio_id, executed_at, side, coin_id, quantity, price, fee,
  note, external_id, created_at, location_id FROM done.trades;
INSERT INTO lots SELECT trade_id, remaining, remaining_cost FROM done.lots;
INSERT INTO lot_consumptions SELECT * FROM done.lot_consumptions;
INSERT INTO disposals SELECT trade_id, proceeds, cost_basis, realized_pnl FROM done.disposals;
CREATE INDEX trades_by_position ON trades (portfolio_id, coin_id, executed_at);
COMMIT;
