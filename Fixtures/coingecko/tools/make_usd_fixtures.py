#!/usr/bin/env python3
"""Writes the synthetic USD fixtures of Fixtures/coingecko/ from the real EUR capture.

markets_usd.json: the 20 highest-ranked coins of captured/coins_markets_eur_100_nosparkline_
2024-01-24.json with money fields converted at 1 EUR = 1.0886 USD (rounded the way CoinGecko
writes them), plus the fields the app's request adds (sparkline_in_7d with 168 hourly prices,
price_change_percentage_24h_in_currency). The sparklines are seeded random walks that end at
the current price; they are made up, not recorded. Re-running gives the same bytes.
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RATE = 1.0886
MONEY = ["current_price", "market_cap", "fully_diluted_valuation", "total_volume", "high_24h",
         "low_24h", "price_change_24h", "market_cap_change_24h", "ath", "atl"]


def significant(value, digits=6):
    if value == 0:
        return 0
    exponent = math.floor(math.log10(abs(value)))
    rounded = round(value, digits - 1 - exponent)
    return int(rounded) if rounded == int(rounded) and abs(rounded) >= 1e5 else rounded


def main():
    with open(os.path.join(ROOT, "captured", "coins_markets_eur_100_nosparkline_2024-01-24.json")) as f:
        coins = json.load(f)
    coins = sorted(coins, key=lambda c: c["market_cap_rank"])[:20]
    rng = random.Random(20240124)
    out = []
    for coin in coins:
        usd = dict(coin)
        for key in MONEY:
            if usd.get(key) is not None:
                value = usd[key] * RATE
                usd[key] = round(value) if key in ("market_cap", "fully_diluted_valuation",
                                                   "total_volume") else significant(value)
        usd["price_change_percentage_24h_in_currency"] = coin["price_change_percentage_24h"]
        price = usd["current_price"]
        week = rng.uniform(-0.12, 0.09) if coin["id"] not in ("tether", "usd-coin", "dai") else 0.0
        start = price / (1 + week)
        # A Brownian bridge: noise that starts and ends at zero, on the line from start to price.
        walk = [0.0]
        for _ in range(167):
            walk.append(walk[-1] + rng.gauss(0, 0.004 if week else 0.0004))
        points = []
        for hour in range(168):
            line = start + (price - start) * hour / 167
            noise = walk[hour] - walk[-1] * hour / 167
            points.append(significant(line * (1 + noise), 8))
        points[-1] = price
        usd["sparkline_in_7d"] = {"price": points}
        out.append(usd)
    with open(os.path.join(ROOT, "markets_usd.json"), "w") as f:
        # Compact, as the API sends it.
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
