#!/usr/bin/env python3
"""Writes the hostile-input corpus (csv/ and json/) next to this script.

The files are checked in; this script documents how each was made and rewrites them:
    python3 Tests/HostileInput/generate.py
cases.json says what folio must answer for each of them.
"""
import json
import os

os.chdir(os.path.dirname(os.path.abspath(__file__)))
os.makedirs("csv", exist_ok=True)
os.makedirs("json", exist_ok=True)


def w(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(name, "wb") as f:
        f.write(data)


H = "date,side,coin,quantity,price,fee,note\n"
ok = "2024-01-02T10:00:00Z,buy,bitcoin,0.5,40000,1,fine\n"

# MARK: CSV for `folio import trades`
c = "csv/"
w(c + "unknown-column.csv", "date,side,coin,quantity,price,colour\n2024-01-02,buy,bitcoin,1,1,red\n")
w(c + "missing-column.csv", "date,side,coin,quantity\n2024-01-02,buy,bitcoin,1\n")
w(c + "duplicate-column.csv", "date,side,coin,quantity,price,price\n2024-01-02,buy,bitcoin,1,1,2\n")
w(c + "too-few-fields.csv", H + ok + "2024-01-03T10:00:00Z,buy,bitcoin,0.5\n")
w(c + "too-many-fields.csv", H + ok + "2024-01-03T10:00:00Z,buy,bitcoin,0.5,40000,1,note,extra\n")
w(c + "bad-number.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,abc,40000,1,\n")
w(c + "thousands-separator.csv", H + '2024-01-03T10:00:00Z,buy,bitcoin,1,"40,000",1,\n')
w(c + "negative-quantity.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,-1,40000,1,\n")
w(c + "negative-price.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,-40000,1,\n")
w(c + "negative-fee.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,40000,-0.5,\n")
w(c + "zero-quantity.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,0,40000,1,\n")
w(c + "huge-number.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1000000000000000000000000000000,1,0,\n")
w(c + "ten-thousand-digits.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin," + "7" * 10000 + ",1,0,\n")
w(c + "ten-thousand-fraction-digits.csv",
  H + "2024-01-03T10:00:00Z,buy,bitcoin,0." + "0" * 9999 + "1,1,0,\n")
w(c + "nineteen-fraction-digits.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,0.0000000000000000001,1,0,\n")
w(c + "exponent-huge.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1e400,1,0,\n")
w(c + "exponent-long.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1e99999,1,0,\n")
w(c + "exponent-tiny.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1E-25,1,0,\n")
w(c + "exponent-malformed.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1e,1,0,\n")
w(c + "nan.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,NaN,1,0,\n")
w(c + "infinity.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,Infinity,0,\n")
w(c + "hex-number.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,0x10,1,0,\n")
w(c + "lookalike-digits-arabic.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,\u0661\u066b\u0665,1,0,\n")
w(c + "lookalike-digits-fullwidth.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,\uff11\uff12,1,0,\n")
w(c + "lookalike-minus.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,\u221240000,0,\n")
w(c + "bom-then-bad-row.csv", "\ufeff" + H + ok + "2024-01-03T10:00:00Z,buy,bitcoin,oops,1,0,\n")
w(c + "double-bom.csv", "\ufeff\ufeff" + H + ok)
w(c + "utf16-bom.csv", (H + ok).encode("utf-16"))
w(c + "crlf-then-bad-row.csv",
  (H + ok + "2024-01-03T10:00:00Z,buy,bitcoin,oops,1,0,\n").replace("\n", "\r\n"))
w(c + "lone-carriage-return.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,1,0,a\rb\n")
w(c + "quoted-comma-newline-then-bad-row.csv",
  H + '2024-01-02T10:00:00Z,buy,bitcoin,0.5,40000,1,"a, b\nand c"\n'
  + "2024-01-03T10:00:00Z,buy,bitcoin,oops,1,0,\n")
w(c + "unclosed-quote.csv", H + '2024-01-02T10:00:00Z,buy,bitcoin,0.5,40000,1,"never closed\n')
w(c + "quote-inside-field.csv", H + '2024-01-02T10:00:00Z,buy,bit"coin,0.5,40000,1,\n')
w(c + "text-after-quote.csv", H + '2024-01-02T10:00:00Z,buy,"bitcoin"x,0.5,40000,1,\n')
w(c + "nul-in-number.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1\x00,1,0,\n")
w(c + "nul-in-note.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,1,0,a\x00b\n")
w(c + "invalid-utf8.csv", H.encode() + b"2024-01-03T10:00:00Z,buy,bitcoin,1,1,0,caf\xc3\x28\n")
w(c + "empty.csv", "")
w(c + "header-only.csv", H)
w(c + "blank-lines-only.csv", "\n\n\n")
w(c + "bad-side.csv", H + "2024-01-03T10:00:00Z,hold,bitcoin,1,1,0,\n")
w(c + "oversell.csv", H + "2024-01-03T10:00:00Z,sell,bitcoin,1000,1,0,\n")
w(c + "unknown-portfolio.csv",
  "date,side,coin,quantity,price,portfolio\n2024-01-03T10:00:00Z,buy,bitcoin,1,1,nope\n")
w(c + "sql-coin.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin'; DROP TABLE trades;--,1,1,0,\n")
w(c + "long-note.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,1,1,0," + "n" * 1001 + "\n")
w(c + "impossible-date.csv", H + "2024-02-30T10:00:00Z,buy,bitcoin,1,1,0,\n")
w(c + "date-before-1970.csv", H + "1969-12-31T23:59:59Z,buy,bitcoin,1,1,0,\n")
w(c + "date-odd-offset.csv", H + "2024-01-03T10:00:00+25:00,buy,bitcoin,1,1,0,\n")
w(c + "escape-sequence.csv", H + "2024-01-03T10:00:00Z,buy,bitcoin,\x1b[31m1,1,0,\n")
w(c + "bad-row-after-many-good.csv",
  H + "".join(f"2024-01-02T10:{m:02d}:00Z,buy,bitcoin,0.001,40000,0,r{m}\n" for m in range(60))
  + "2024-01-03T10:00:00Z,buy,bitcoin,1..2,1,0,\n")
w(c + "duplicate-id-then-bad-row.csv",
  "date,side,coin,quantity,price,id\n2024-01-03T10:00:00Z,buy,bitcoin,1,1,x1\n"
  "2024-01-03T10:00:00Z,buy,bitcoin,1,1,x1\nbad,buy,bitcoin,1,1,x2\n")

# MARK: JSON for `folio market import`
j = "json/"
good = {"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 40000.5,
        "market_cap": 1, "last_updated": "2024-01-24T00:28:42.081Z"}
page = json.dumps([good, dict(good, id="ethereum", symbol="eth", name="Ethereum")], indent=1)
w(j + "markets-truncated.json", page[: len(page) // 2])
w(j + "markets-price-string.json", json.dumps([dict(good, current_price="abc")], indent=1))
w(j + "markets-id-number.json", json.dumps([dict(good, id=5)], indent=1))
w(j + "markets-price-object.json", json.dumps([dict(good, current_price={"usd": 1})], indent=1))
w(j + "markets-element-string.json", json.dumps(["bitcoin"], indent=1))
w(j + "deep-arrays.json", "[" * 100000 + "]" * 100000)
w(j + "deep-objects.json", '{"a":' * 1000 + "1" + "}" * 1000)
w(j + "deep-unclosed.json", "[" * 100000)
w(j + "markets-huge-price.json", json.dumps([good], indent=1).replace("40000.5", "1e400"))
w(j + "markets-10000-digit-price.json", json.dumps([good], indent=1).replace("40000.5", "9" * 10000))
w(j + "markets-duplicate-key.json",
  '[\n {"id": "bitcoin", "symbol": "btc", "name": "Bitcoin",\n  "current_price": 1, "current_price": 40000}\n]')
w(j + "global-duplicate-key.json",
  '{"data": {"total_market_cap": {"usd": 1},\n "total_market_cap": {"usd": 2}, "updated_at": 1706056200}}')
w(j + "empty.json", "")
w(j + "whitespace-only.json", "  \n\t\n")
w(j + "not-json.json", "hello, world\n")
w(j + "trailing-comma.json", '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":1,}]')
w(j + "nul-byte.json", b'[{"id":"bit\x00coin","symbol":"btc","name":"Bitcoin","current_price":1}]')
w(j + "invalid-utf8.json", b'[{"id":"bitcoin","symbol":"btc","name":"Bitc\xff\xfein","current_price":1}]')
w(j + "utf16.json", json.dumps([good]).encode("utf-16"))
w(j + "lone-surrogate.json", '[{"id":"bitcoin","symbol":"btc","name":"\\ud800","current_price":1}]')
w(j + "wrong-shape.json", '{"hello": "world"}')
w(j + "top-level-number.json", "1e999999")
w(j + "leading-zero.json", '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":0123}]')
w(j + "nan-literal.json", '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":NaN}]')

# MARK: JSON for `folio locations import`
loc = {"name": "Colosseum", "city": "Rome", "latitude": 41.8902, "longitude": 12.4922}
places = json.dumps([loc, dict(loc, name="Pantheon")], indent=1)
w(j + "locations-truncated.json", places[: len(places) // 2])
w(j + "locations-latitude-string.json", json.dumps([dict(loc, latitude="north")], indent=1))
w(j + "locations-latitude-out-of-range.json", json.dumps([dict(loc, latitude=91)], indent=1))
w(j + "locations-huge-number.json", json.dumps([loc], indent=1).replace("41.8902", "1e400"))
w(j + "locations-duplicate-key.json",
  '[\n {"name": "Colosseum", "city": "Rome", "latitude": 41.89, "latitude": 12, "longitude": 12.49}\n]')
w(j + "locations-deep.json", "[" * 600 + "]" * 600)
w(j + "locations-images-wrong-type.json", json.dumps([dict(loc, images="rome-1")], indent=1))
w(j + "locations-name-missing.json", json.dumps([{"city": "Rome", "latitude": 1, "longitude": 2}], indent=1))
w(j + "locations-empty.json", "")
