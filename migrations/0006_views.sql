-- The database as an interface: stable views for people who query the file with sqlite3, and
-- triggers that make SQLite itself refuse hand-typed rows
-- that break the invariants it can see. docs/schema.md documents every table and view.
--
-- In every view a numeric column comes twice: the exact canonical decimal TEXT as stored
-- (`quantity`) and a REAL twin for arithmetic in SQL (`quantity_real`). A figure the view has to
-- compute (a product, a quotient) exists only as `<name>_real`: SQLite has no exact decimal
-- arithmetic, and `folio holdings` gives those figures exactly.

-- MARK: Guard rails for hand edits
--
-- The trades table already refuses a bad side, a non-positive quantity and malformed decimal
-- text (CHECKs in 0002), and its foreign keys refuse an unknown portfolio or location whenever
-- foreign keys are on (every folio connection, and `folio db shell`; the plain sqlite3 shell
-- leaves them off unless told `PRAGMA foreign_keys = ON`). The triggers below close that gap for
-- updates and deletes, and add rules a CHECK cannot express because they read other tables.
--
-- trades_guard_insert applies the same rules to new rows. Any INSERT trigger makes SQLite keep
-- a statement journal for every inserted row (measured 40-90% slower inserts), so `folio import
-- trades`, which checks every row itself on a connection with foreign keys on, drops it for the
-- length of its transaction and creates it again before committing. There is no INSERT trigger
-- on the derived tables (lots, lot_consumptions, disposals, positions): folio writes them, and
-- `folio db check` reports hand-inserted rows that disagree with the trades.

CREATE TRIGGER trades_guard_insert BEFORE INSERT ON trades
WHEN NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id)
  OR NEW.coin_id GLOB '*[^a-z0-9._-]*'
  OR strftime('%Y-%m-%dT%H:%M:%SZ', NEW.executed_at, '+0 days') IS NOT NEW.executed_at
  OR NEW.created_at NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'
  OR (NEW.location_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM locations WHERE id = NEW.location_id))
BEGIN
  SELECT RAISE(ABORT, 'trades.portfolio_id names no portfolio (SELECT id, name FROM portfolios lists them)')
  WHERE NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id);
  SELECT RAISE(ABORT, 'trades.coin_id must be a CoinGecko id: lowercase letters, digits, ''-'', ''_'' or ''.''')
  WHERE NEW.coin_id GLOB '*[^a-z0-9._-]*';
  SELECT RAISE(ABORT, 'trades.executed_at must be a real UTC time written as 2024-03-01T12:00:00Z')
  WHERE strftime('%Y-%m-%dT%H:%M:%SZ', NEW.executed_at, '+0 days') IS NOT NEW.executed_at;
  SELECT RAISE(ABORT, 'trades.created_at must be a UTC time written as 2024-03-01T12:00:00Z')
  WHERE NEW.created_at NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z';
  SELECT RAISE(ABORT, 'trades.location_id names no location (SELECT id, name, city FROM locations lists them)')
  WHERE NEW.location_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM locations WHERE id = NEW.location_id);
END;

CREATE TRIGGER trades_guard_update
BEFORE UPDATE OF portfolio_id, coin_id, executed_at, created_at, location_id ON trades
WHEN NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id)
  OR NEW.coin_id GLOB '*[^a-z0-9._-]*'
  OR strftime('%Y-%m-%dT%H:%M:%SZ', NEW.executed_at, '+0 days') IS NOT NEW.executed_at
  OR NEW.created_at NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'
  OR (NEW.location_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM locations WHERE id = NEW.location_id))
BEGIN
  SELECT RAISE(ABORT, 'trades.portfolio_id names no portfolio (SELECT id, name FROM portfolios lists them)')
  WHERE NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id);
  SELECT RAISE(ABORT, 'trades.coin_id must be a CoinGecko id: lowercase letters, digits, ''-'', ''_'' or ''.''')
  WHERE NEW.coin_id GLOB '*[^a-z0-9._-]*';
  SELECT RAISE(ABORT, 'trades.executed_at must be a real UTC time written as 2024-03-01T12:00:00Z')
  WHERE strftime('%Y-%m-%dT%H:%M:%SZ', NEW.executed_at, '+0 days') IS NOT NEW.executed_at;
  SELECT RAISE(ABORT, 'trades.created_at must be a UTC time written as 2024-03-01T12:00:00Z')
  WHERE NEW.created_at NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z';
  SELECT RAISE(ABORT, 'trades.location_id names no location (SELECT id, name, city FROM locations lists them)')
  WHERE NEW.location_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM locations WHERE id = NEW.location_id);
END;

-- A trade whose lot or disposal still exists cannot go: the derived rows would point at nothing.
-- `folio tx delete` removes them together; by hand, delete the derived rows first and run
-- `folio db rebuild`.
CREATE TRIGGER trades_guard_delete BEFORE DELETE ON trades
WHEN EXISTS (SELECT 1 FROM lots WHERE trade_id = OLD.id)
  OR EXISTS (SELECT 1 FROM disposals WHERE trade_id = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'this trade has derived rows in lots or disposals; delete it with ''folio tx delete ID'', or delete those rows first and run ''folio db rebuild''');
END;

CREATE TRIGGER portfolios_guard_delete BEFORE DELETE ON portfolios
WHEN EXISTS (SELECT 1 FROM trades WHERE portfolio_id = OLD.id)
  OR EXISTS (SELECT 1 FROM positions WHERE portfolio_id = OLD.id)
  OR EXISTS (SELECT 1 FROM portfolio_daily WHERE portfolio_id = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'this portfolio still has trades or derived rows; delete it with ''folio portfolio delete NAME --force''');
END;

CREATE TRIGGER portfolios_guard_id BEFORE UPDATE OF id ON portfolios
WHEN NEW.id IS NOT OLD.id
  AND (EXISTS (SELECT 1 FROM trades WHERE portfolio_id = OLD.id)
    OR EXISTS (SELECT 1 FROM positions WHERE portfolio_id = OLD.id)
    OR EXISTS (SELECT 1 FROM portfolio_daily WHERE portfolio_id = OLD.id))
BEGIN
  SELECT RAISE(ABORT, 'the id of a portfolio with trades or derived rows cannot change; rename it with ''folio portfolio rename''');
END;

CREATE TRIGGER locations_guard_delete BEFORE DELETE ON locations
WHEN EXISTS (SELECT 1 FROM trades WHERE location_id = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'trades still point at this location; use ''folio locations delete ID --force'' to detach them');
END;

CREATE TRIGGER locations_guard_id BEFORE UPDATE OF id ON locations
WHEN NEW.id IS NOT OLD.id
  AND (EXISTS (SELECT 1 FROM trades WHERE location_id = OLD.id)
    OR EXISTS (SELECT 1 FROM location_images WHERE location_id = OLD.id))
BEGIN
  SELECT RAISE(ABORT, 'the id of a location with trades or images cannot change');
END;

CREATE TRIGGER portfolio_daily_guard_insert BEFORE INSERT ON portfolio_daily
WHEN NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id)
BEGIN
  SELECT RAISE(ABORT, 'portfolio_daily.portfolio_id names no portfolio (SELECT id, name FROM portfolios lists them)');
END;

CREATE TRIGGER portfolio_daily_guard_update BEFORE UPDATE OF portfolio_id ON portfolio_daily
WHEN NOT EXISTS (SELECT 1 FROM portfolios WHERE id = NEW.portfolio_id)
BEGIN
  SELECT RAISE(ABORT, 'portfolio_daily.portfolio_id names no portfolio (SELECT id, name FROM portfolios lists them)');
END;

-- A snapshot's rows go with it even when foreign keys are off (the sqlite3 shell's default),
-- as ON DELETE CASCADE does when they are on. Left behind, they would attach themselves to the
-- next snapshot that reuses the deleted id.
CREATE TRIGGER market_quotes_follow_snapshot AFTER DELETE ON market_snapshots
BEGIN
  DELETE FROM market_quotes WHERE snapshot_id = OLD.id;
END;

CREATE TRIGGER global_rows_follow_snapshot AFTER DELETE ON global_snapshots
BEGIN
  DELETE FROM global_totals WHERE snapshot_id = OLD.id;
  DELETE FROM global_market_cap_percentages WHERE snapshot_id = OLD.id;
END;

-- MARK: Views

-- Every trade with its portfolio and location. `amount` is what a buy cost (quantity × price +
-- fee, its lot's cost) or a sell brought in (quantity × price − fee, its disposal's proceeds).
CREATE VIEW v_trades AS
SELECT
  t.id AS trade_id,
  t.portfolio_id,
  p.name AS portfolio,
  p.currency,
  t.executed_at,
  substr(t.executed_at, 1, 10) AS day,
  t.side,
  t.coin_id,
  t.quantity,
  CAST(t.quantity AS REAL) AS quantity_real,
  t.price,
  CAST(t.price AS REAL) AS price_real,
  t.fee,
  CAST(t.fee AS REAL) AS fee_real,
  coalesce(l.cost, d.proceeds) AS amount,
  CAST(coalesce(l.cost, d.proceeds) AS REAL) AS amount_real,
  t.note,
  t.external_id,
  t.location_id,
  CASE WHEN loc.id IS NOT NULL THEN loc.name || ', ' || loc.city END AS location,
  t.created_at
FROM trades AS t
JOIN portfolios AS p ON p.id = t.portfolio_id
LEFT JOIN lots AS l ON l.trade_id = t.id
LEFT JOIN disposals AS d ON d.trade_id = t.id
LEFT JOIN locations AS loc ON loc.id = t.location_id;

-- The newest cached market quote of every coin in every vs-currency: the row of the newest
-- market snapshot of that currency that holds the coin (a coin missing from the latest
-- snapshot keeps its quote from an older one). This is the price `folio holdings` and
-- `folio coins list` use. A snapshot is identified by its currency and time
-- (UNIQUE (vs_currency, fetched_at)), so the newest one is never a tie.
CREATE VIEW v_latest_quotes AS
WITH newest (coin_id, vs_currency, fetched_at) AS (
  SELECT q.coin_id, s.vs_currency, max(s.fetched_at)
  FROM market_quotes AS q
  JOIN market_snapshots AS s ON s.id = q.snapshot_id
  GROUP BY q.coin_id, s.vs_currency
)
SELECT
  q.coin_id,
  c.symbol,
  c.name,
  s.vs_currency,
  s.id AS snapshot_id,
  s.fetched_at,
  s.source,
  q.current_price,
  CAST(q.current_price AS REAL) AS current_price_real,
  q.market_cap,
  CAST(q.market_cap AS REAL) AS market_cap_real,
  q.market_cap_rank,
  q.fully_diluted_valuation,
  CAST(q.fully_diluted_valuation AS REAL) AS fully_diluted_valuation_real,
  q.total_volume,
  CAST(q.total_volume AS REAL) AS total_volume_real,
  q.high_24h,
  CAST(q.high_24h AS REAL) AS high_24h_real,
  q.low_24h,
  CAST(q.low_24h AS REAL) AS low_24h_real,
  q.price_change_24h,
  CAST(q.price_change_24h AS REAL) AS price_change_24h_real,
  q.price_change_percentage_24h,
  CAST(q.price_change_percentage_24h AS REAL) AS price_change_percentage_24h_real,
  q.market_cap_change_24h,
  CAST(q.market_cap_change_24h AS REAL) AS market_cap_change_24h_real,
  q.market_cap_change_percentage_24h,
  CAST(q.market_cap_change_percentage_24h AS REAL) AS market_cap_change_percentage_24h_real,
  q.circulating_supply,
  CAST(q.circulating_supply AS REAL) AS circulating_supply_real,
  q.total_supply,
  CAST(q.total_supply AS REAL) AS total_supply_real,
  q.max_supply,
  CAST(q.max_supply AS REAL) AS max_supply_real,
  q.ath,
  CAST(q.ath AS REAL) AS ath_real,
  q.ath_change_percentage,
  CAST(q.ath_change_percentage AS REAL) AS ath_change_percentage_real,
  q.ath_date,
  q.atl,
  CAST(q.atl AS REAL) AS atl_real,
  q.atl_change_percentage,
  CAST(q.atl_change_percentage AS REAL) AS atl_change_percentage_real,
  q.atl_date,
  q.roi_times,
  CAST(q.roi_times AS REAL) AS roi_times_real,
  q.roi_currency,
  q.roi_percentage,
  CAST(q.roi_percentage AS REAL) AS roi_percentage_real,
  q.last_updated,
  q.price_change_percentage_24h_in_currency,
  CAST(q.price_change_percentage_24h_in_currency AS REAL) AS price_change_percentage_24h_in_currency_real,
  q.sparkline_7d
FROM newest AS n
JOIN market_snapshots AS s ON s.vs_currency = n.vs_currency AND s.fetched_at = n.fetched_at
JOIN market_quotes AS q ON q.snapshot_id = s.id AND q.coin_id = n.coin_id
JOIN coins AS c ON c.id = q.coin_id;

-- Per portfolio and coin: what is held, what it cost, what it is worth at the latest price.
-- Every coin that has trades has a row, also when everything was sold (quantity '0').
--
-- The latest price is the one `folio holdings` uses: the newest cached market quote of the
-- coin in the portfolio's currency (the quote v_latest_quotes shows), at its snapshot's time,
-- with price_source 'market'; without such a quote, the price of the position's latest trade
-- at that trade's time, with price_source 'last trade'. The quote is looked up per position
-- through the indexes; a join with v_latest_quotes would read every stored quote.
CREATE VIEW v_holdings AS
WITH
  valued AS (
    SELECT
      p.portfolio_id,
      f.name AS portfolio,
      f.currency,
      p.method,
      p.coin_id,
      p.quantity,
      CAST(p.quantity AS REAL) AS quantity_real,
      p.cost_basis,
      CAST(p.cost_basis AS REAL) AS cost_basis_real,
      CASE WHEN p.quantity <> '0'
        THEN CAST(p.cost_basis AS REAL) / CAST(p.quantity AS REAL) END AS average_cost_real,
      coalesce(q.current_price, p.last_price) AS price,
      CAST(coalesce(q.current_price, p.last_price) AS REAL) AS price_real,
      CASE WHEN q.current_price IS NULL THEN p.last_trade_at ELSE s.fetched_at END AS price_at,
      CASE WHEN q.current_price IS NULL THEN 'last trade' ELSE 'market' END AS price_source,
      CAST(p.quantity AS REAL) * CAST(coalesce(q.current_price, p.last_price) AS REAL)
        AS value_real,
      p.realized_pnl,
      CAST(p.realized_pnl AS REAL) AS realized_pnl_real,
      p.last_trade_at
    FROM positions AS p
    JOIN portfolios AS f ON f.id = p.portfolio_id
    LEFT JOIN market_snapshots AS s ON s.id = (
      SELECT n.id
      FROM market_quotes AS nq
      JOIN market_snapshots AS n ON n.id = nq.snapshot_id
      JOIN coins AS c ON c.id = nq.coin_id
      WHERE nq.coin_id = p.coin_id AND n.vs_currency = f.currency
      ORDER BY n.fetched_at DESC, n.id DESC
      LIMIT 1)
    LEFT JOIN market_quotes AS q ON q.snapshot_id = s.id AND q.coin_id = p.coin_id
  )
SELECT
  portfolio_id,
  portfolio,
  currency,
  method,
  coin_id,
  quantity,
  quantity_real,
  cost_basis,
  cost_basis_real,
  average_cost_real,
  price,
  price_real,
  price_at,
  price_source,
  value_real,
  value_real - cost_basis_real AS unrealized_pnl_real,
  realized_pnl,
  realized_pnl_real,
  100.0 * value_real / nullif(sum(value_real) OVER (PARTITION BY portfolio_id), 0) AS share_real,
  last_trade_at
FROM valued;

-- One row per buy: the lot it opened and what is left of it.
CREATE VIEW v_lots AS
SELECT
  l.trade_id,
  l.portfolio_id,
  p.name AS portfolio,
  p.currency,
  l.coin_id,
  l.acquired_at,
  l.quantity,
  CAST(l.quantity AS REAL) AS quantity_real,
  t.price,
  CAST(t.price AS REAL) AS price_real,
  t.fee,
  CAST(t.fee AS REAL) AS fee_real,
  l.cost,
  CAST(l.cost AS REAL) AS cost_real,
  CAST(l.cost AS REAL) / CAST(l.quantity AS REAL) AS unit_cost_real,
  l.remaining,
  CAST(l.remaining AS REAL) AS remaining_real,
  l.remaining_cost,
  CAST(l.remaining_cost AS REAL) AS remaining_cost_real,
  l.remaining <> '0' AS is_open
FROM lots AS l
JOIN portfolios AS p ON p.id = l.portfolio_id
LEFT JOIN trades AS t ON t.id = l.trade_id;

-- One row per sell: proceeds, the cost basis that left with the units, the realized profit and
-- the cost-basis method that chose the lots.
CREATE VIEW v_realized AS
SELECT
  d.trade_id,
  d.portfolio_id,
  p.name AS portfolio,
  p.currency,
  d.coin_id,
  d.disposed_at,
  substr(d.disposed_at, 1, 10) AS day,
  d.quantity,
  CAST(d.quantity AS REAL) AS quantity_real,
  t.price,
  CAST(t.price AS REAL) AS price_real,
  t.fee,
  CAST(t.fee AS REAL) AS fee_real,
  d.proceeds,
  CAST(d.proceeds AS REAL) AS proceeds_real,
  d.cost_basis,
  CAST(d.cost_basis AS REAL) AS cost_basis_real,
  d.realized_pnl,
  CAST(d.realized_pnl AS REAL) AS realized_pnl_real,
  d.method
FROM disposals AS d
JOIN portfolios AS p ON p.id = d.portfolio_id
LEFT JOIN trades AS t ON t.id = d.trade_id;

-- The daily history of each portfolio, as the report saved it.
CREATE VIEW v_portfolio_daily AS
SELECT
  d.portfolio_id,
  p.name AS portfolio,
  p.currency,
  d.day,
  d.value,
  CAST(d.value AS REAL) AS value_real,
  d.cost_basis,
  CAST(d.cost_basis AS REAL) AS cost_basis_real,
  d.unrealized_pnl,
  CAST(d.unrealized_pnl AS REAL) AS unrealized_pnl_real,
  d.realized_pnl,
  CAST(d.realized_pnl AS REAL) AS realized_pnl_real,
  d.snapshot_at,
  d.saved_at
FROM portfolio_daily AS d
JOIN portfolios AS p ON p.id = d.portfolio_id;

-- Every location with its images (a JSON array, in display order) and how many trades
-- happened there. Coordinates are stored as REAL degrees, so they have no TEXT twin.
CREATE VIEW v_locations AS
SELECT
  l.id AS location_id,
  l.name,
  l.city,
  l.name || ', ' || l.city AS reference,
  l.latitude,
  l.longitude,
  l.description,
  l.link,
  (SELECT json_group_array(name)
    FROM (SELECT i.name FROM location_images AS i WHERE i.location_id = l.id ORDER BY i.position)
  ) AS images,
  (SELECT count(*) FROM location_images AS i WHERE i.location_id = l.id) AS image_count,
  (SELECT count(*) FROM trades AS t WHERE t.location_id = l.id) AS trade_count,
  l.created_at,
  l.updated_at
FROM locations AS l;
