-- Daily history: a portfolio's figures as saved by `folio report --save` (or backfilled),
-- one row per portfolio and day, as of the end of that day (UTC). Decimals are canonical
-- TEXT in the portfolio's currency (NULL when no price was known); snapshot_at is the market
-- snapshot the prices came from. Derived: it can be deleted and written again, but not
-- recomputed from the trades alone, because it records the prices of each day.
CREATE TABLE portfolio_daily (
  portfolio_id INTEGER NOT NULL REFERENCES portfolios (id),
  day TEXT NOT NULL CONSTRAINT day_is_a_real_date_yyyy_mm_dd CHECK (
    day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND date(day, '+0 days') IS day),
  value TEXT CONSTRAINT value_is_a_canonical_decimal CHECK (
    value IS NULL OR (
      substr(value, 1 + (value GLOB '-?*')) NOT GLOB '*[^0-9.]*'
      AND substr(value, 1 + (value GLOB '-?*')) GLOB '[0-9]*'
      AND substr(value, 1 + (value GLOB '-?*')) NOT GLOB '*.*.*'
      AND substr(value, 1 + (value GLOB '-?*')) NOT GLOB '*.'
      AND substr(value, 1 + (value GLOB '-?*')) NOT GLOB '*.*0'
      AND substr(value, 1 + (value GLOB '-?*')) NOT GLOB '0[0-9]*'
      AND (instr(value, '.') = 0 OR length(value) - instr(value, '.') <= 18)
      AND value <> '-0')),
  cost_basis TEXT CONSTRAINT cost_basis_is_a_canonical_decimal CHECK (
    cost_basis IS NULL OR (
      substr(cost_basis, 1 + (cost_basis GLOB '-?*')) NOT GLOB '*[^0-9.]*'
      AND substr(cost_basis, 1 + (cost_basis GLOB '-?*')) GLOB '[0-9]*'
      AND substr(cost_basis, 1 + (cost_basis GLOB '-?*')) NOT GLOB '*.*.*'
      AND substr(cost_basis, 1 + (cost_basis GLOB '-?*')) NOT GLOB '*.'
      AND substr(cost_basis, 1 + (cost_basis GLOB '-?*')) NOT GLOB '*.*0'
      AND substr(cost_basis, 1 + (cost_basis GLOB '-?*')) NOT GLOB '0[0-9]*'
      AND (instr(cost_basis, '.') = 0 OR length(cost_basis) - instr(cost_basis, '.') <= 18)
      AND cost_basis <> '-0')),
  unrealized_pnl TEXT CONSTRAINT unrealized_pnl_is_a_canonical_decimal CHECK (
    unrealized_pnl IS NULL OR (
      substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) NOT GLOB '*[^0-9.]*'
      AND substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) GLOB '[0-9]*'
      AND substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) NOT GLOB '*.*.*'
      AND substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) NOT GLOB '*.'
      AND substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) NOT GLOB '*.*0'
      AND substr(unrealized_pnl, 1 + (unrealized_pnl GLOB '-?*')) NOT GLOB '0[0-9]*'
      AND (instr(unrealized_pnl, '.') = 0
        OR length(unrealized_pnl) - instr(unrealized_pnl, '.') <= 18)
      AND unrealized_pnl <> '-0')),
  realized_pnl TEXT CONSTRAINT realized_pnl_is_a_canonical_decimal CHECK (
    realized_pnl IS NULL OR (
      substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) NOT GLOB '*[^0-9.]*'
      AND substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) GLOB '[0-9]*'
      AND substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) NOT GLOB '*.*.*'
      AND substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) NOT GLOB '*.'
      AND substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) NOT GLOB '*.*0'
      AND substr(realized_pnl, 1 + (realized_pnl GLOB '-?*')) NOT GLOB '0[0-9]*'
      AND (instr(realized_pnl, '.') = 0
        OR length(realized_pnl) - instr(realized_pnl, '.') <= 18)
      AND realized_pnl <> '-0')),
  snapshot_at TEXT CONSTRAINT snapshot_at_is_utc_iso8601 CHECK (
    snapshot_at IS NULL
    OR snapshot_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  saved_at TEXT NOT NULL CONSTRAINT saved_at_is_utc_iso8601 CHECK (
    saved_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  PRIMARY KEY (portfolio_id, day)
) STRICT;
