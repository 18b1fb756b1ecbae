-- One valuation rule (issue 18): v_holdings no longer values a coin without a market quote
-- at its last trade's price. Such a coin has no price or value and is left out of the total,
-- as `folio holdings`, `stats` and `report` leave it out. The view's columns are unchanged.

DROP VIEW v_holdings;

-- Per portfolio and coin: what is held, what it cost, what it is worth at the latest price.
-- Every coin that has trades has a row, also when everything was sold (quantity '0').
--
-- The latest price is the one `folio holdings` uses: the newest cached market quote of the
-- coin in the portfolio's currency (the quote v_latest_quotes shows), at its snapshot's time,
-- with price_source 'market'. A coin without such a quote is valued by the rule of every
-- command (`folio holdings`, `stats`, `report`): price, price_at, price_source and the value,
-- profit and share columns are NULL, and it is left out of the portfolio's total (the share's
-- denominator); a position with nothing left is worth 0. The quote is looked up per position
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
      q.current_price AS price,
      CAST(q.current_price AS REAL) AS price_real,
      CASE WHEN q.current_price IS NOT NULL THEN s.fetched_at END AS price_at,
      CASE WHEN q.current_price IS NOT NULL THEN 'market' END AS price_source,
      CASE WHEN p.quantity = '0' THEN 0.0
        ELSE CAST(p.quantity AS REAL) * CAST(q.current_price AS REAL) END AS value_real,
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
