-- Kinds of transaction (issue 15): besides buys and sells for cash, a trade row can be a
-- transfer between portfolios, income (staking, interest, ...), a swap of one coin for another,
-- a deposit or a withdrawal. `side` keeps saying which way the units go (buy: into the
-- position, sell: out of it); `kind` says what the row is. Rows written before this migration
-- are buys and sells for cash (kind 'trade'). docs/trades.md gives the rules of each kind.

ALTER TABLE trades ADD COLUMN kind TEXT NOT NULL DEFAULT 'trade' CHECK (
  kind IN ('trade', 'transfer', 'income', 'swap', 'deposit', 'withdrawal')
  AND (kind NOT IN ('income', 'deposit') OR side = 'buy')
  AND (kind <> 'withdrawal' OR side = 'sell'));

-- What an income row was: set on income rows and only on them.
ALTER TABLE trades ADD COLUMN income_type TEXT CHECK (
  (income_type IS NULL) = (kind <> 'income')
  AND (income_type IS NULL
    OR income_type IN ('staking', 'interest', 'airdrop', 'mining', 'gift', 'other')));

-- The exact total in the portfolio's currency of a row whose value is given as a whole: a
-- deposit's cost, a swap's value, the cost basis a transfer brings in. NULL on the other rows,
-- whose total is quantity × price (± fee).
ALTER TABLE trades ADD COLUMN amount TEXT CHECK (
  amount IS NULL OR (
    amount NOT GLOB '*[^0-9.]*' AND amount GLOB '[0-9]*' AND amount NOT GLOB '*.*.*'
    AND amount NOT GLOB '*.' AND amount NOT GLOB '*.*0' AND amount NOT GLOB '0[0-9]*'
    AND (instr(amount, '.') = 0 OR length(amount) - instr(amount, '.') <= 18))
  AND (amount IS NULL) = (kind IN ('trade', 'income', 'withdrawal')
    OR (kind = 'transfer' AND side = 'sell')));

-- When the units of a row that brings units in were first acquired, when that is before the row
-- itself: a deposit's --acquired, the acquisition date a transferred lot keeps. NULL: the row's
-- own time.
ALTER TABLE trades ADD COLUMN acquired_at TEXT CHECK (
  acquired_at IS NULL OR (side = 'buy' AND kind IN ('deposit', 'transfer')
    AND acquired_at GLOB
      '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'));

-- The rows of one transfer or swap share the id of the row that gives the units up (its own id
-- on that row, set just after it is inserted). NULL on the other kinds.
ALTER TABLE trades ADD COLUMN link_id INTEGER CHECK (
  link_id IS NULL OR kind IN ('transfer', 'swap'));

CREATE INDEX trades_by_link ON trades (link_id) WHERE link_id IS NOT NULL;

-- The views that show trades show their kind too.
DROP VIEW v_trades;
DROP VIEW v_lots;
DROP VIEW v_realized;

-- Every trade with its portfolio and location. `amount` is what a buy cost (its lot's cost:
-- quantity × price + fee for a buy, the given total for a deposit, a swap or a transfer) or what
-- a sell brought in (its disposal's proceeds; for a transfer or a withdrawal, the cost basis
-- that left, so that it realizes nothing). `value` is the total the row itself records (a
-- deposit's cost, a swap's value, a transferred piece's basis), NULL on the other kinds.
CREATE VIEW v_trades AS
SELECT
  t.id AS trade_id,
  t.portfolio_id,
  p.name AS portfolio,
  p.currency,
  t.executed_at,
  substr(t.executed_at, 1, 10) AS day,
  t.side,
  t.kind,
  t.income_type,
  t.coin_id,
  t.quantity,
  CAST(t.quantity AS REAL) AS quantity_real,
  t.price,
  CAST(t.price AS REAL) AS price_real,
  t.fee,
  CAST(t.fee AS REAL) AS fee_real,
  coalesce(l.cost, d.proceeds) AS amount,
  CAST(coalesce(l.cost, d.proceeds) AS REAL) AS amount_real,
  t.amount AS value,
  CAST(t.amount AS REAL) AS value_real,
  coalesce(t.acquired_at, t.executed_at) AS acquired_at,
  t.link_id,
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

-- One row per row that brought units in (a buy, income, a deposit, the acquired side of a swap,
-- a transferred piece): the lot it opened and what is left of it. acquired_at is when the units
-- were first acquired (a transferred lot keeps its date).
CREATE VIEW v_lots AS
SELECT
  l.trade_id,
  l.portfolio_id,
  p.name AS portfolio,
  p.currency,
  l.coin_id,
  t.kind,
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

-- One row per row that gave units up (a sell, the disposed side of a swap, a transfer out, a
-- withdrawal): proceeds, the cost basis that left with the units, the realized profit and the
-- cost-basis method that chose the lots. A transfer or a withdrawal realizes nothing: its
-- proceeds are the basis that left.
CREATE VIEW v_realized AS
SELECT
  d.trade_id,
  d.portfolio_id,
  p.name AS portfolio,
  p.currency,
  d.coin_id,
  t.kind,
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
