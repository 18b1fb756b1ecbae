-- Daily history: a portfolio's figures as saved by `folio report --save` (or backfilled),
-- one row per portfolio and day. Derived: `folio report backfill` can compute it again.
CREATE TABLE portfolio_daily (
  portfolio_id INTEGER NOT NULL REFERENCES portfolios (id),
  -- The day reported on, YYYY-MM-DD (UTC); figures are as of the end of that day.
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
  -- Decimal TEXT in the portfolio's currency; NULL when no price was known.
  value TEXT,
  cost_basis TEXT,
  unrealized_pnl TEXT,
  realized_pnl TEXT,
  -- The market snapshot the prices came from (UTC ISO-8601), NULL for last-trade prices.
  snapshot_at TEXT,
  saved_at TEXT NOT NULL,
  PRIMARY KEY (portfolio_id, day)
) STRICT;
