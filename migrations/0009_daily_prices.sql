-- Daily closing prices of coins (issue 21), fetched by `folio market history` from CoinGecko's
-- /coins/{id}/market_chart/range or imported from saved market_chart responses by
-- `folio market import FILE --coin ID --vs CUR`. One row per coin, currency and UTC day: the
-- price at the end of that day (the last point of the series after the day's start and at or
-- before the next day's 00:00:00Z, kept only once the series reaches the end of the day).
-- Backfill, past-date reports and `report history` value a day at these prices
-- (docs/market-data.md, "Daily prices"). Like the market snapshots this is history nothing
-- else can recompute: `db rebuild` leaves it alone.
CREATE TABLE daily_prices (
  coin_id TEXT NOT NULL REFERENCES coins (id),
  vs_currency TEXT NOT NULL CHECK (
    length(vs_currency) BETWEEN 2 AND 10 AND vs_currency NOT GLOB '*[^a-z]*'),
  day TEXT NOT NULL CHECK (
    day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND date(day, '+0 days') IS day),
  -- A canonical decimal above zero.
  price TEXT NOT NULL CHECK (
    price GLOB '[0-9]*' AND price NOT GLOB '*[^0-9.]*' AND price NOT GLOB '*.*.*'
    AND price NOT GLOB '*.' AND price NOT GLOB '*.*0' AND price NOT GLOB '0[0-9]*'
    AND price GLOB '*[1-9]*'
    AND (instr(price, '.') = 0 OR length(price) - instr(price, '.') <= 18)),
  -- The time of the point the price is: after the day's start, at most the next day's 00:00.
  priced_at TEXT NOT NULL CHECK (
    priced_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  -- The API root it was fetched from, or `import:` and the file path as given.
  source TEXT NOT NULL CHECK (length(source) > 0),
  -- When it was fetched or imported.
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  PRIMARY KEY (coin_id, vs_currency, day)
) STRICT, WITHOUT ROWID;

-- The days `folio market history` asked CoinGecko for and got an answer about, one row per
-- request: a day inside such a range is not asked for again, also when the answer held no
-- price for it (before the coin was listed, or a gap in CoinGecko's data).
CREATE TABLE daily_price_fetches (
  id INTEGER PRIMARY KEY,
  coin_id TEXT NOT NULL REFERENCES coins (id),
  vs_currency TEXT NOT NULL CHECK (
    length(vs_currency) BETWEEN 2 AND 10 AND vs_currency NOT GLOB '*[^a-z]*'),
  first_day TEXT NOT NULL CHECK (
    first_day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND date(first_day, '+0 days') IS first_day),
  last_day TEXT NOT NULL CHECK (
    last_day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND date(last_day, '+0 days') IS last_day),
  source TEXT NOT NULL CHECK (length(source) > 0),
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  CHECK (first_day <= last_day)
) STRICT;

CREATE INDEX daily_price_fetches_by_coin ON daily_price_fetches (coin_id, vs_currency, first_day);

-- For sqlite3 users: every daily price with the coin's symbol and name, and a REAL twin.
CREATE VIEW v_daily_prices AS
SELECT
  p.coin_id,
  c.symbol,
  c.name,
  p.vs_currency,
  p.day,
  p.price,
  CAST(p.price AS REAL) AS price_real,
  p.priced_at,
  p.source,
  p.fetched_at
FROM daily_prices AS p
JOIN coins AS c ON c.id = p.coin_id;
