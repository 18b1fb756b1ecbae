-- The coin directory: the coins table of 0004 is the list of coins a trade may name. A fresh
-- database gets the coins folio carries (Fixtures/coingecko/coins_list.json, built into the
-- binary) when it is first opened; `folio market refresh` adds CoinGecko's whole /coins/list
-- at most once a day, and every /coins/markets page it stores updates the ranks.
-- `buy btc` resolves the symbol to the coin of the best (lowest) market_cap_rank.

-- CoinGecko's market-cap rank from the newest /coins/markets data (or the built-in list);
-- NULL when unknown. A coin that leaves the ranking keeps its last rank.
ALTER TABLE coins ADD COLUMN market_cap_rank INTEGER CHECK (
  market_cap_rank IS NULL OR market_cap_rank >= 1);

CREATE INDEX coins_by_name ON coins (name COLLATE NOCASE);

-- Each time the directory was filled from a whole coin list: the built-in one (source
-- 'built-in', once per database) and every /coins/list fetch. The newest fetch decides
-- whether `market refresh` fetches the list again (at most once a day).
CREATE TABLE coin_list_fetches (
  id INTEGER PRIMARY KEY,
  fetched_at TEXT NOT NULL CHECK (
    fetched_at GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z'),
  source TEXT NOT NULL CHECK (length(source) > 0),
  coin_count INTEGER NOT NULL CHECK (coin_count >= 0)
) STRICT;
