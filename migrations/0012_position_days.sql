-- A report's returns (net flow, market gain, TWR and XIRR over 1d to all time) need every cash
-- flow since the first trade, and the value of past days needs what was held then. Reading
-- every trade for that cost a report on a million trades seconds; these rows keep the same
-- sums per position and UTC day, so a report reads a few rows a day instead (issue 17).

-- Derived, as lots and positions are (written by folio from the trades, rebuilt by
-- `folio db rebuild`, checked by `folio db check`): what one position's trades moved on one UTC
-- day (YYYY-MM-DD). quantity_change is the units its rows brought in less those they took out
-- (signed). cash_in and cash_out are the money its buys and sells for cash paid in and took
-- out (a buy pays quantity × price + fee; a sell takes out quantity × price − fee, or pays in
-- the difference when its fee is larger); each *_weight is the sum of those amounts, each
-- times the seconds since midnight of its time (exact), which places the day's money within
-- the day for Modified Dietz and XIRR. cash_too_large is 1 when those sums would pass the
-- largest exact decimal (about 1.7e20): the four cash columns then hold 0 and mean nothing, and
-- a report gives the returns of periods holding that day as too large to compute. cost_change is the cost of the
-- lots its rows opened less the cost basis its sells took out of lots, and realized the profit
-- its sells realized (by the position's method, as the other derived tables). Flows at market value
-- (deposits, withdrawals, transfers) are priced when a report runs, from the rows themselves.
CREATE TABLE position_days (
  portfolio_id INTEGER NOT NULL,
  coin_id TEXT NOT NULL,
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
  quantity_change TEXT NOT NULL,
  cash_in TEXT NOT NULL,
  cash_in_weight TEXT NOT NULL,
  cash_out TEXT NOT NULL,
  cash_out_weight TEXT NOT NULL,
  cash_too_large INTEGER NOT NULL CHECK (cash_too_large IN (0, 1)),
  cost_change TEXT NOT NULL,
  realized TEXT NOT NULL,
  PRIMARY KEY (portfolio_id, coin_id, day)
) STRICT, WITHOUT ROWID;

-- The rows whose cash flow is their units at market value, which a report reads one by one.
-- Written with OR, not IN: SQLite builds a temporary table for an IN list each time it tests a
-- new row against it, which made every insert of a trade several times dearer.
CREATE INDEX trades_at_market_value ON trades (portfolio_id, executed_at, id)
  WHERE (kind = 'deposit' OR kind = 'withdrawal' OR kind = 'transfer');

-- The rows of existing positions are written by folio in the transaction that applies this
-- migration (SQL cannot add exact decimals).
