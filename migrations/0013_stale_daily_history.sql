-- A saved day goes stale when its figures no longer follow from the trades: a trade dated on
-- or before it is added, changed or removed, or its portfolio's cost-basis method changes.
-- The triggers mark such days in the same statement as the change; folio recomputes them
-- before the transaction commits (from the prices of the day's end), so a stale day is seen
-- only after a change made outside folio (sqlite3): reports and returns leave it out, and
-- 'folio db check' lists it, until the next folio command that writes recomputes it.
ALTER TABLE portfolio_daily ADD COLUMN stale INTEGER NOT NULL DEFAULT 0
  CONSTRAINT stale_is_0_or_1 CHECK (stale IN (0, 1));

CREATE INDEX portfolio_daily_stale ON portfolio_daily (portfolio_id, day) WHERE stale = 1;

CREATE TRIGGER portfolio_daily_stale_on_insert AFTER INSERT ON trades
BEGIN
  UPDATE portfolio_daily SET stale = 1
  WHERE portfolio_id = NEW.portfolio_id AND day >= substr(NEW.executed_at, 1, 10) AND stale = 0;
END;

CREATE TRIGGER portfolio_daily_stale_on_delete AFTER DELETE ON trades
BEGIN
  UPDATE portfolio_daily SET stale = 1
  WHERE portfolio_id = OLD.portfolio_id AND day >= substr(OLD.executed_at, 1, 10) AND stale = 0;
END;

-- A note, an id or a location changes no figure.
CREATE TRIGGER portfolio_daily_stale_on_update
AFTER UPDATE OF portfolio_id, executed_at, side, coin_id, quantity, price, fee, kind,
  income_type, amount, acquired_at, link_id ON trades
BEGIN
  UPDATE portfolio_daily SET stale = 1
  WHERE portfolio_id = OLD.portfolio_id AND day >= substr(OLD.executed_at, 1, 10) AND stale = 0;
  UPDATE portfolio_daily SET stale = 1
  WHERE portfolio_id = NEW.portfolio_id AND day >= substr(NEW.executed_at, 1, 10) AND stale = 0;
END;

CREATE TRIGGER portfolio_daily_stale_on_method AFTER UPDATE OF method ON portfolios
WHEN OLD.method IS NOT NEW.method
BEGIN
  UPDATE portfolio_daily SET stale = 1 WHERE portfolio_id = NEW.id AND stale = 0;
END;
