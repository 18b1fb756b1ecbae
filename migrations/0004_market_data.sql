-- Market data from CoinGecko (API v3): the coins it knows, a snapshot per fetch of
-- /coins/markets with one quote row per coin, snapshots of /global and coin details from
-- /coins/{id}. Snapshots are history: a new fetch adds rows, it never overwrites older ones;
-- `folio market prune` removes old snapshots but always keeps the latest.
--
-- Numbers from the API are canonical decimal TEXT holding the JSON number exactly as it was
-- written (an exponent such as 7.53314e-7 is written out: 0.000000753314). Values with more
-- than 18 fractional digits are rounded half-to-even to 18; magnitudes beyond about 1.7e20 are
-- stored as NULL (the import warns). Times are UTC ISO-8601 TEXT such as 2024-03-01T12:00:00Z.

-- The coins CoinGecko knows, by CoinGecko id (such as 'bitcoin'). Updated by every fetch
-- that is newer than the one that last wrote the row.
CREATE TABLE coins (
  id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
  symbol TEXT NOT NULL CHECK (length(symbol) <= 100),
  name TEXT NOT NULL CHECK (length(name) <= 200),
  image_url TEXT,
  updated_at TEXT NOT NULL CHECK (
    updated_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z')
) STRICT;

CREATE INDEX coins_by_symbol ON coins (symbol COLLATE NOCASE);

-- One fetch (or import) of /coins/markets in one vs-currency. Several pages fetched together,
-- or files imported with the same time, form one snapshot.
CREATE TABLE market_snapshots (
  id INTEGER PRIMARY KEY,
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  source TEXT NOT NULL CHECK (length(source) > 0),
  vs_currency TEXT NOT NULL CHECK (length(vs_currency) BETWEEN 2 AND 10 AND vs_currency NOT GLOB '*[^a-z]*'),
  UNIQUE (vs_currency, fetched_at)
) STRICT;

-- One coin's row of a /coins/markets snapshot: every field the API returns. A coin whose
-- current_price was null is not stored (the import or refresh warns instead).
-- sparkline_7d is a JSON array of the hourly prices of the last 7 days (numbers or null).
CREATE TABLE market_quotes (
  snapshot_id INTEGER NOT NULL REFERENCES market_snapshots (id) ON DELETE CASCADE,
  coin_id TEXT NOT NULL REFERENCES coins (id),
  current_price TEXT NOT NULL CHECK (
    ltrim(current_price, '-') GLOB '[0-9]*' AND ltrim(current_price, '-') NOT GLOB '*[^0-9.]*'
    AND current_price NOT GLOB '--*' AND current_price NOT GLOB '*.*.*' AND current_price NOT GLOB '*.' AND current_price NOT GLOB '*.*0'
    AND ltrim(current_price, '-') NOT GLOB '0[0-9]*' AND current_price <> '-0'
    AND (instr(current_price, '.') = 0 OR length(current_price) - instr(current_price, '.') <= 18)),
  market_cap TEXT CHECK (market_cap IS NULL OR (
    ltrim(market_cap, '-') GLOB '[0-9]*' AND ltrim(market_cap, '-') NOT GLOB '*[^0-9.]*'
    AND market_cap NOT GLOB '--*' AND market_cap NOT GLOB '*.*.*' AND market_cap NOT GLOB '*.' AND market_cap NOT GLOB '*.*0'
    AND ltrim(market_cap, '-') NOT GLOB '0[0-9]*' AND market_cap <> '-0'
    AND (instr(market_cap, '.') = 0 OR length(market_cap) - instr(market_cap, '.') <= 18))),
  market_cap_rank INTEGER,
  fully_diluted_valuation TEXT CHECK (fully_diluted_valuation IS NULL OR (
    ltrim(fully_diluted_valuation, '-') GLOB '[0-9]*' AND ltrim(fully_diluted_valuation, '-') NOT GLOB '*[^0-9.]*'
    AND fully_diluted_valuation NOT GLOB '--*' AND fully_diluted_valuation NOT GLOB '*.*.*' AND fully_diluted_valuation NOT GLOB '*.' AND fully_diluted_valuation NOT GLOB '*.*0'
    AND ltrim(fully_diluted_valuation, '-') NOT GLOB '0[0-9]*' AND fully_diluted_valuation <> '-0'
    AND (instr(fully_diluted_valuation, '.') = 0 OR length(fully_diluted_valuation) - instr(fully_diluted_valuation, '.') <= 18))),
  total_volume TEXT CHECK (total_volume IS NULL OR (
    ltrim(total_volume, '-') GLOB '[0-9]*' AND ltrim(total_volume, '-') NOT GLOB '*[^0-9.]*'
    AND total_volume NOT GLOB '--*' AND total_volume NOT GLOB '*.*.*' AND total_volume NOT GLOB '*.' AND total_volume NOT GLOB '*.*0'
    AND ltrim(total_volume, '-') NOT GLOB '0[0-9]*' AND total_volume <> '-0'
    AND (instr(total_volume, '.') = 0 OR length(total_volume) - instr(total_volume, '.') <= 18))),
  high_24h TEXT CHECK (high_24h IS NULL OR (
    ltrim(high_24h, '-') GLOB '[0-9]*' AND ltrim(high_24h, '-') NOT GLOB '*[^0-9.]*'
    AND high_24h NOT GLOB '--*' AND high_24h NOT GLOB '*.*.*' AND high_24h NOT GLOB '*.' AND high_24h NOT GLOB '*.*0'
    AND ltrim(high_24h, '-') NOT GLOB '0[0-9]*' AND high_24h <> '-0'
    AND (instr(high_24h, '.') = 0 OR length(high_24h) - instr(high_24h, '.') <= 18))),
  low_24h TEXT CHECK (low_24h IS NULL OR (
    ltrim(low_24h, '-') GLOB '[0-9]*' AND ltrim(low_24h, '-') NOT GLOB '*[^0-9.]*'
    AND low_24h NOT GLOB '--*' AND low_24h NOT GLOB '*.*.*' AND low_24h NOT GLOB '*.' AND low_24h NOT GLOB '*.*0'
    AND ltrim(low_24h, '-') NOT GLOB '0[0-9]*' AND low_24h <> '-0'
    AND (instr(low_24h, '.') = 0 OR length(low_24h) - instr(low_24h, '.') <= 18))),
  price_change_24h TEXT CHECK (price_change_24h IS NULL OR (
    ltrim(price_change_24h, '-') GLOB '[0-9]*' AND ltrim(price_change_24h, '-') NOT GLOB '*[^0-9.]*'
    AND price_change_24h NOT GLOB '--*' AND price_change_24h NOT GLOB '*.*.*' AND price_change_24h NOT GLOB '*.' AND price_change_24h NOT GLOB '*.*0'
    AND ltrim(price_change_24h, '-') NOT GLOB '0[0-9]*' AND price_change_24h <> '-0'
    AND (instr(price_change_24h, '.') = 0 OR length(price_change_24h) - instr(price_change_24h, '.') <= 18))),
  price_change_percentage_24h TEXT CHECK (price_change_percentage_24h IS NULL OR (
    ltrim(price_change_percentage_24h, '-') GLOB '[0-9]*' AND ltrim(price_change_percentage_24h, '-') NOT GLOB '*[^0-9.]*'
    AND price_change_percentage_24h NOT GLOB '--*' AND price_change_percentage_24h NOT GLOB '*.*.*' AND price_change_percentage_24h NOT GLOB '*.' AND price_change_percentage_24h NOT GLOB '*.*0'
    AND ltrim(price_change_percentage_24h, '-') NOT GLOB '0[0-9]*' AND price_change_percentage_24h <> '-0'
    AND (instr(price_change_percentage_24h, '.') = 0 OR length(price_change_percentage_24h) - instr(price_change_percentage_24h, '.') <= 18))),
  market_cap_change_24h TEXT CHECK (market_cap_change_24h IS NULL OR (
    ltrim(market_cap_change_24h, '-') GLOB '[0-9]*' AND ltrim(market_cap_change_24h, '-') NOT GLOB '*[^0-9.]*'
    AND market_cap_change_24h NOT GLOB '--*' AND market_cap_change_24h NOT GLOB '*.*.*' AND market_cap_change_24h NOT GLOB '*.' AND market_cap_change_24h NOT GLOB '*.*0'
    AND ltrim(market_cap_change_24h, '-') NOT GLOB '0[0-9]*' AND market_cap_change_24h <> '-0'
    AND (instr(market_cap_change_24h, '.') = 0 OR length(market_cap_change_24h) - instr(market_cap_change_24h, '.') <= 18))),
  market_cap_change_percentage_24h TEXT CHECK (market_cap_change_percentage_24h IS NULL OR (
    ltrim(market_cap_change_percentage_24h, '-') GLOB '[0-9]*' AND ltrim(market_cap_change_percentage_24h, '-') NOT GLOB '*[^0-9.]*'
    AND market_cap_change_percentage_24h NOT GLOB '--*' AND market_cap_change_percentage_24h NOT GLOB '*.*.*' AND market_cap_change_percentage_24h NOT GLOB '*.' AND market_cap_change_percentage_24h NOT GLOB '*.*0'
    AND ltrim(market_cap_change_percentage_24h, '-') NOT GLOB '0[0-9]*' AND market_cap_change_percentage_24h <> '-0'
    AND (instr(market_cap_change_percentage_24h, '.') = 0 OR length(market_cap_change_percentage_24h) - instr(market_cap_change_percentage_24h, '.') <= 18))),
  circulating_supply TEXT CHECK (circulating_supply IS NULL OR (
    ltrim(circulating_supply, '-') GLOB '[0-9]*' AND ltrim(circulating_supply, '-') NOT GLOB '*[^0-9.]*'
    AND circulating_supply NOT GLOB '--*' AND circulating_supply NOT GLOB '*.*.*' AND circulating_supply NOT GLOB '*.' AND circulating_supply NOT GLOB '*.*0'
    AND ltrim(circulating_supply, '-') NOT GLOB '0[0-9]*' AND circulating_supply <> '-0'
    AND (instr(circulating_supply, '.') = 0 OR length(circulating_supply) - instr(circulating_supply, '.') <= 18))),
  total_supply TEXT CHECK (total_supply IS NULL OR (
    ltrim(total_supply, '-') GLOB '[0-9]*' AND ltrim(total_supply, '-') NOT GLOB '*[^0-9.]*'
    AND total_supply NOT GLOB '--*' AND total_supply NOT GLOB '*.*.*' AND total_supply NOT GLOB '*.' AND total_supply NOT GLOB '*.*0'
    AND ltrim(total_supply, '-') NOT GLOB '0[0-9]*' AND total_supply <> '-0'
    AND (instr(total_supply, '.') = 0 OR length(total_supply) - instr(total_supply, '.') <= 18))),
  max_supply TEXT CHECK (max_supply IS NULL OR (
    ltrim(max_supply, '-') GLOB '[0-9]*' AND ltrim(max_supply, '-') NOT GLOB '*[^0-9.]*'
    AND max_supply NOT GLOB '--*' AND max_supply NOT GLOB '*.*.*' AND max_supply NOT GLOB '*.' AND max_supply NOT GLOB '*.*0'
    AND ltrim(max_supply, '-') NOT GLOB '0[0-9]*' AND max_supply <> '-0'
    AND (instr(max_supply, '.') = 0 OR length(max_supply) - instr(max_supply, '.') <= 18))),
  ath TEXT CHECK (ath IS NULL OR (
    ltrim(ath, '-') GLOB '[0-9]*' AND ltrim(ath, '-') NOT GLOB '*[^0-9.]*'
    AND ath NOT GLOB '--*' AND ath NOT GLOB '*.*.*' AND ath NOT GLOB '*.' AND ath NOT GLOB '*.*0'
    AND ltrim(ath, '-') NOT GLOB '0[0-9]*' AND ath <> '-0'
    AND (instr(ath, '.') = 0 OR length(ath) - instr(ath, '.') <= 18))),
  ath_change_percentage TEXT CHECK (ath_change_percentage IS NULL OR (
    ltrim(ath_change_percentage, '-') GLOB '[0-9]*' AND ltrim(ath_change_percentage, '-') NOT GLOB '*[^0-9.]*'
    AND ath_change_percentage NOT GLOB '--*' AND ath_change_percentage NOT GLOB '*.*.*' AND ath_change_percentage NOT GLOB '*.' AND ath_change_percentage NOT GLOB '*.*0'
    AND ltrim(ath_change_percentage, '-') NOT GLOB '0[0-9]*' AND ath_change_percentage <> '-0'
    AND (instr(ath_change_percentage, '.') = 0 OR length(ath_change_percentage) - instr(ath_change_percentage, '.') <= 18))),
  ath_date TEXT CHECK (ath_date IS NULL OR ath_date GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  atl TEXT CHECK (atl IS NULL OR (
    ltrim(atl, '-') GLOB '[0-9]*' AND ltrim(atl, '-') NOT GLOB '*[^0-9.]*'
    AND atl NOT GLOB '--*' AND atl NOT GLOB '*.*.*' AND atl NOT GLOB '*.' AND atl NOT GLOB '*.*0'
    AND ltrim(atl, '-') NOT GLOB '0[0-9]*' AND atl <> '-0'
    AND (instr(atl, '.') = 0 OR length(atl) - instr(atl, '.') <= 18))),
  atl_change_percentage TEXT CHECK (atl_change_percentage IS NULL OR (
    ltrim(atl_change_percentage, '-') GLOB '[0-9]*' AND ltrim(atl_change_percentage, '-') NOT GLOB '*[^0-9.]*'
    AND atl_change_percentage NOT GLOB '--*' AND atl_change_percentage NOT GLOB '*.*.*' AND atl_change_percentage NOT GLOB '*.' AND atl_change_percentage NOT GLOB '*.*0'
    AND ltrim(atl_change_percentage, '-') NOT GLOB '0[0-9]*' AND atl_change_percentage <> '-0'
    AND (instr(atl_change_percentage, '.') = 0 OR length(atl_change_percentage) - instr(atl_change_percentage, '.') <= 18))),
  atl_date TEXT CHECK (atl_date IS NULL OR atl_date GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  roi_times TEXT CHECK (roi_times IS NULL OR (
    ltrim(roi_times, '-') GLOB '[0-9]*' AND ltrim(roi_times, '-') NOT GLOB '*[^0-9.]*'
    AND roi_times NOT GLOB '--*' AND roi_times NOT GLOB '*.*.*' AND roi_times NOT GLOB '*.' AND roi_times NOT GLOB '*.*0'
    AND ltrim(roi_times, '-') NOT GLOB '0[0-9]*' AND roi_times <> '-0'
    AND (instr(roi_times, '.') = 0 OR length(roi_times) - instr(roi_times, '.') <= 18))),
  roi_currency TEXT,
  roi_percentage TEXT CHECK (roi_percentage IS NULL OR (
    ltrim(roi_percentage, '-') GLOB '[0-9]*' AND ltrim(roi_percentage, '-') NOT GLOB '*[^0-9.]*'
    AND roi_percentage NOT GLOB '--*' AND roi_percentage NOT GLOB '*.*.*' AND roi_percentage NOT GLOB '*.' AND roi_percentage NOT GLOB '*.*0'
    AND ltrim(roi_percentage, '-') NOT GLOB '0[0-9]*' AND roi_percentage <> '-0'
    AND (instr(roi_percentage, '.') = 0 OR length(roi_percentage) - instr(roi_percentage, '.') <= 18))),
  last_updated TEXT CHECK (last_updated IS NULL OR last_updated GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  price_change_percentage_24h_in_currency TEXT CHECK (price_change_percentage_24h_in_currency IS NULL OR (
    ltrim(price_change_percentage_24h_in_currency, '-') GLOB '[0-9]*' AND ltrim(price_change_percentage_24h_in_currency, '-') NOT GLOB '*[^0-9.]*'
    AND price_change_percentage_24h_in_currency NOT GLOB '--*' AND price_change_percentage_24h_in_currency NOT GLOB '*.*.*' AND price_change_percentage_24h_in_currency NOT GLOB '*.' AND price_change_percentage_24h_in_currency NOT GLOB '*.*0'
    AND ltrim(price_change_percentage_24h_in_currency, '-') NOT GLOB '0[0-9]*' AND price_change_percentage_24h_in_currency <> '-0'
    AND (instr(price_change_percentage_24h_in_currency, '.') = 0 OR length(price_change_percentage_24h_in_currency) - instr(price_change_percentage_24h_in_currency, '.') <= 18))),
  sparkline_7d TEXT CHECK (sparkline_7d IS NULL OR sparkline_7d GLOB '[[]*]'),
  PRIMARY KEY (snapshot_id, coin_id)
) STRICT;

CREATE INDEX market_quotes_by_coin ON market_quotes (coin_id, snapshot_id);

-- One fetch (or import) of /global. updated_at is the API's own time for the data.
CREATE TABLE global_snapshots (
  id INTEGER PRIMARY KEY,
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  source TEXT NOT NULL CHECK (length(source) > 0),
  updated_at TEXT CHECK (updated_at IS NULL OR updated_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  market_cap_change_percentage_24h_usd TEXT CHECK (market_cap_change_percentage_24h_usd IS NULL OR (
    ltrim(market_cap_change_percentage_24h_usd, '-') GLOB '[0-9]*' AND ltrim(market_cap_change_percentage_24h_usd, '-') NOT GLOB '*[^0-9.]*'
    AND market_cap_change_percentage_24h_usd NOT GLOB '--*' AND market_cap_change_percentage_24h_usd NOT GLOB '*.*.*' AND market_cap_change_percentage_24h_usd NOT GLOB '*.' AND market_cap_change_percentage_24h_usd NOT GLOB '*.*0'
    AND ltrim(market_cap_change_percentage_24h_usd, '-') NOT GLOB '0[0-9]*' AND market_cap_change_percentage_24h_usd <> '-0'
    AND (instr(market_cap_change_percentage_24h_usd, '.') = 0 OR length(market_cap_change_percentage_24h_usd) - instr(market_cap_change_percentage_24h_usd, '.') <= 18))),
  active_cryptocurrencies INTEGER,
  markets INTEGER,
  UNIQUE (fetched_at)
) STRICT;

-- total_market_cap and total_volume of a /global snapshot, one row per currency.
CREATE TABLE global_totals (
  snapshot_id INTEGER NOT NULL REFERENCES global_snapshots (id) ON DELETE CASCADE,
  currency TEXT NOT NULL CHECK (length(currency) BETWEEN 1 AND 20),
  total_market_cap TEXT CHECK (total_market_cap IS NULL OR (
    ltrim(total_market_cap, '-') GLOB '[0-9]*' AND ltrim(total_market_cap, '-') NOT GLOB '*[^0-9.]*'
    AND total_market_cap NOT GLOB '--*' AND total_market_cap NOT GLOB '*.*.*' AND total_market_cap NOT GLOB '*.' AND total_market_cap NOT GLOB '*.*0'
    AND ltrim(total_market_cap, '-') NOT GLOB '0[0-9]*' AND total_market_cap <> '-0'
    AND (instr(total_market_cap, '.') = 0 OR length(total_market_cap) - instr(total_market_cap, '.') <= 18))),
  total_volume TEXT CHECK (total_volume IS NULL OR (
    ltrim(total_volume, '-') GLOB '[0-9]*' AND ltrim(total_volume, '-') NOT GLOB '*[^0-9.]*'
    AND total_volume NOT GLOB '--*' AND total_volume NOT GLOB '*.*.*' AND total_volume NOT GLOB '*.' AND total_volume NOT GLOB '*.*0'
    AND ltrim(total_volume, '-') NOT GLOB '0[0-9]*' AND total_volume <> '-0'
    AND (instr(total_volume, '.') = 0 OR length(total_volume) - instr(total_volume, '.') <= 18))),
  PRIMARY KEY (snapshot_id, currency)
) STRICT, WITHOUT ROWID;

-- market_cap_percentage of a /global snapshot: each large coin's share, by symbol ('btc').
CREATE TABLE global_market_cap_percentages (
  snapshot_id INTEGER NOT NULL REFERENCES global_snapshots (id) ON DELETE CASCADE,
  symbol TEXT NOT NULL CHECK (length(symbol) BETWEEN 1 AND 100),
  percentage TEXT NOT NULL CHECK (
    ltrim(percentage, '-') GLOB '[0-9]*' AND ltrim(percentage, '-') NOT GLOB '*[^0-9.]*'
    AND percentage NOT GLOB '--*' AND percentage NOT GLOB '*.*.*' AND percentage NOT GLOB '*.' AND percentage NOT GLOB '*.*0'
    AND ltrim(percentage, '-') NOT GLOB '0[0-9]*' AND percentage <> '-0'
    AND (instr(percentage, '.') = 0 OR length(percentage) - instr(percentage, '.') <= 18)),
  PRIMARY KEY (snapshot_id, symbol)
) STRICT, WITHOUT ROWID;

-- What /coins/{id} said about a coin at one time. description has its HTML tags stripped;
-- homepage is links.homepage[0].
CREATE TABLE coin_details (
  id INTEGER PRIMARY KEY,
  coin_id TEXT NOT NULL REFERENCES coins (id),
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  source TEXT NOT NULL CHECK (length(source) > 0),
  block_time_in_minutes TEXT CHECK (block_time_in_minutes IS NULL OR (
    ltrim(block_time_in_minutes, '-') GLOB '[0-9]*' AND ltrim(block_time_in_minutes, '-') NOT GLOB '*[^0-9.]*'
    AND block_time_in_minutes NOT GLOB '--*' AND block_time_in_minutes NOT GLOB '*.*.*' AND block_time_in_minutes NOT GLOB '*.' AND block_time_in_minutes NOT GLOB '*.*0'
    AND ltrim(block_time_in_minutes, '-') NOT GLOB '0[0-9]*' AND block_time_in_minutes <> '-0'
    AND (instr(block_time_in_minutes, '.') = 0 OR length(block_time_in_minutes) - instr(block_time_in_minutes, '.') <= 18))),
  hashing_algorithm TEXT,
  description TEXT,
  homepage TEXT,
  subreddit_url TEXT,
  UNIQUE (coin_id, fetched_at)
) STRICT;
