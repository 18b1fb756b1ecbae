-- Trades: portfolios, the trade journal, and the tables derived from it (lots, lot
-- consumption, disposals, positions). Decimals are canonical decimal TEXT: no exponent,
-- no trailing fractional zeros, at most 18 fractional digits. Timestamps are UTC
-- ISO-8601 TEXT such as 2024-03-01T12:00:00Z.

CREATE TABLE portfolios (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^A-Za-z0-9._-]*'),
  currency TEXT NOT NULL DEFAULT 'usd' CHECK (length(currency) BETWEEN 2 AND 10 AND currency NOT GLOB '*[^a-z]*'),
  method TEXT NOT NULL DEFAULT 'fifo' CHECK (method IN ('fifo', 'lifo', 'hifo', 'average')),
  created_at TEXT NOT NULL
) STRICT;

INSERT INTO portfolios (name, currency, method, created_at)
VALUES ('main', 'usd', 'fifo', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));

-- The journal: one row per buy or sell, as the user recorded it. The only source of truth;
-- every table below is derived from it and can be rebuilt (`folio db rebuild`), so the
-- derived tables carry no foreign keys: folio writes them only from the trades.
CREATE TABLE trades (
  id INTEGER PRIMARY KEY,
  portfolio_id INTEGER NOT NULL REFERENCES portfolios (id),
  executed_at TEXT NOT NULL CHECK (
    executed_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  coin_id TEXT NOT NULL CHECK (length(coin_id) BETWEEN 1 AND 100),
  quantity TEXT NOT NULL CHECK (
    quantity NOT GLOB '*[^0-9.]*' AND quantity GLOB '[0-9]*' AND quantity NOT GLOB '*.*.*'
    AND quantity NOT GLOB '*.' AND quantity NOT GLOB '*.*0' AND quantity NOT GLOB '0[0-9]*'
    AND (instr(quantity, '.') = 0 OR length(quantity) - instr(quantity, '.') <= 18)
    AND quantity <> '0'),
  price TEXT NOT NULL CHECK (
    price NOT GLOB '*[^0-9.]*' AND price GLOB '[0-9]*' AND price NOT GLOB '*.*.*'
    AND price NOT GLOB '*.' AND price NOT GLOB '*.*0' AND price NOT GLOB '0[0-9]*'
    AND (instr(price, '.') = 0 OR length(price) - instr(price, '.') <= 18)),
  fee TEXT NOT NULL DEFAULT '0' CHECK (
    fee NOT GLOB '*[^0-9.]*' AND fee GLOB '[0-9]*' AND fee NOT GLOB '*.*.*'
    AND fee NOT GLOB '*.' AND fee NOT GLOB '*.*0' AND fee NOT GLOB '0[0-9]*'
    AND (instr(fee, '.') = 0 OR length(fee) - instr(fee, '.') <= 18)),
  note TEXT,
  external_id TEXT CHECK (external_id IS NULL OR length(external_id) BETWEEN 1 AND 200),
  created_at TEXT NOT NULL
) STRICT;

CREATE INDEX trades_by_position ON trades (portfolio_id, coin_id, executed_at, id);
CREATE INDEX trades_by_time ON trades (portfolio_id, executed_at, id);
CREATE UNIQUE INDEX trades_external_id ON trades (portfolio_id, external_id)
  WHERE external_id IS NOT NULL;

-- Derived: one lot per buy. cost = quantity × price + fee. remaining and remaining_cost are
-- what is left after the sells that consumed it (remaining_cost = cost − Σ consumed cost).
CREATE TABLE lots (
  trade_id INTEGER PRIMARY KEY,
  portfolio_id INTEGER NOT NULL,
  coin_id TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  quantity TEXT NOT NULL,
  cost TEXT NOT NULL,
  remaining TEXT NOT NULL,
  remaining_cost TEXT NOT NULL
) STRICT;

CREATE INDEX lots_open ON lots (portfolio_id, coin_id) WHERE remaining <> '0';

-- Derived: which lots each sell consumed, how much, and the cost basis that left with it.
CREATE TABLE lot_consumptions (
  sell_trade_id INTEGER NOT NULL,
  lot_trade_id INTEGER NOT NULL,
  quantity TEXT NOT NULL,
  cost TEXT NOT NULL,
  PRIMARY KEY (sell_trade_id, lot_trade_id)
) STRICT, WITHOUT ROWID;

-- Derived: realized profit per sell. proceeds = quantity × price − fee.
CREATE TABLE disposals (
  trade_id INTEGER PRIMARY KEY,
  portfolio_id INTEGER NOT NULL,
  coin_id TEXT NOT NULL,
  disposed_at TEXT NOT NULL,
  quantity TEXT NOT NULL,
  proceeds TEXT NOT NULL,
  cost_basis TEXT NOT NULL,
  realized_pnl TEXT NOT NULL,
  method TEXT NOT NULL
) STRICT;

-- Derived: the current position per portfolio and coin after all its trades; last_price is
-- the price of its latest trade.
CREATE TABLE positions (
  portfolio_id INTEGER NOT NULL REFERENCES portfolios (id),
  coin_id TEXT NOT NULL,
  quantity TEXT NOT NULL,
  cost_basis TEXT NOT NULL,
  realized_pnl TEXT NOT NULL,
  last_trade_at TEXT NOT NULL,
  last_trade_id INTEGER NOT NULL,
  last_price TEXT NOT NULL,
  method TEXT NOT NULL,
  PRIMARY KEY (portfolio_id, coin_id)
) STRICT, WITHOUT ROWID;
