-- A report reads the realized profit of a day, a month and a year from the stored disposals
-- of that period (instead of booking every trade again): index them by portfolio and time.
CREATE INDEX disposals_by_time ON disposals (portfolio_id, disposed_at, trade_id);
