#!/usr/bin/env python3
"""Trade cost report: each trade against the quote prevailing when it was done, and a markout one
minute later.

usage: markouts.py QUOTES.csv TRADES.csv OUT.csv

QUOTES.csv: header "time,symbol,bid,ask", then one quote per line.  TRADES.csv: header
"id,time,symbol,side,price,qty", side B (buy) or S (sell).  Times are "HH:MM:SS" or "HH:MM:SS.fff"
(one trading day; compared in milliseconds); prices are decimals, qty a positive integer.  Files need
not be in time order.  A quote is crossed when bid > ask; crossed quotes are ignored.

The quote prevailing for a symbol at time T is, among that symbol's quotes that are not crossed and
have time <= T, the one with the latest time; when several share that time, the one that comes last
in QUOTES.csv.

For every trade, in file order, one line "id,symbol,mid,spread_bps,slippage_bps,markout_bps":
    q0 = the quote prevailing at the trade's time, q1 = the one prevailing 60 seconds later
    mid = (bid + ask) / 2 of q0, spread_bps = (ask - bid) / mid * 10000 (of q0)
    slippage_bps = s * (price - mid) / mid * 10000, with s = +1 for B and -1 for S
    markout_bps = s * (mid1 - price) / price * 10000, mid1 the mid of q1
    computed in decimal arithmetic (28 digits), mid printed with 5 decimals and the bps values with 2
    (round half to even); "-" for all four when there is no q0
then one line per symbol with trades, symbols in sorted order:
    "summary,<symbol>,<trades>,<trades with a quote>,<qty-weighted mean slippage_bps>,<their total qty>"
    (the mean over the trades with a quote, from the unrounded values, 2 decimals; "-" if none)
Exit status 1 with "PATH:LINE: ..." on stderr for a malformed line.
"""
import sys
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation, localcontext

BPS = Decimal(10000)
MID = Decimal("0.00001")
TWO = Decimal("0.01")
MARKOUT_MS = 60_000


def fail(path, lineno, why):
    sys.stderr.write(f"markouts.py: {path}:{lineno}: {why}\n")
    sys.exit(1)


def parse_time(text):
    hms, dot, frac = text.partition(".")
    h, m, s = hms.split(":")
    if len(h) != 2 or len(m) != 2 or len(s) != 2 or (dot and not 1 <= len(frac) <= 3):
        raise ValueError(text)
    ms = int(frac.ljust(3, "0")) if dot else 0
    h, m, s = int(h), int(m), int(s)
    if not (0 <= h < 24 and 0 <= m < 60 and 0 <= s < 60) or ms < 0:
        raise ValueError(text)
    return ((h * 60 + m) * 60 + s) * 1000 + ms


def price(text):
    d = Decimal(text)
    if not d.is_finite() or d <= 0:
        raise ValueError(text)
    return d


def rows(path, header):
    with open(path) as f:
        first = f.readline().rstrip("\n")
        if first != header:
            fail(path, 1, f"expected the header {header!r}")
        for lineno, line in enumerate(f, 2):
            line = line.rstrip("\n")
            if line:
                yield lineno, line.split(",")


def read_quotes(path):
    quotes = []
    for lineno, f in rows(path, "time,symbol,bid,ask"):
        try:
            if len(f) != 4 or not f[1]:
                raise ValueError
            quotes.append((parse_time(f[0]), f[1], price(f[2]), price(f[3])))
        except (ValueError, InvalidOperation):
            fail(path, lineno, "expected 'time,symbol,bid,ask'")
    return quotes


def read_trades(path):
    trades = []
    for lineno, f in rows(path, "id,time,symbol,side,price,qty"):
        try:
            if len(f) != 6 or not f[0] or not f[2] or f[3] not in ("B", "S") or not f[5].isdigit() or int(f[5]) < 1:
                raise ValueError
            trades.append((f[0], parse_time(f[1]), f[2], f[3], price(f[4]), int(f[5])))
        except (ValueError, InvalidOperation):
            fail(path, lineno, "expected 'id,time,symbol,side,price,qty'")
    return trades


def prevailing(quotes, symbol, t):
    best = None
    for q in quotes:
        if q[1] == symbol and q[0] <= t and q[2] <= q[3] and (best is None or q[0] >= best[0]):
            best = q
    return best


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    quotes = read_quotes(sys.argv[1])
    trades = read_trades(sys.argv[2])
    lines = []
    stats = {}
    with localcontext(Context(prec=28, rounding=ROUND_HALF_EVEN)):
        for ident, t, symbol, side, px, qty in trades:
            st = stats.setdefault(symbol, [0, 0, Decimal(0), 0])
            st[0] += 1
            q0 = prevailing(quotes, symbol, t)
            if q0 is None:
                lines.append(f"{ident},{symbol},-,-,-,-\n")
                continue
            s = 1 if side == "B" else -1
            mid = (q0[2] + q0[3]) / 2
            spread = (q0[3] - q0[2]) / mid * BPS
            slip = s * (px - mid) / mid * BPS
            q1 = prevailing(quotes, symbol, t + MARKOUT_MS)
            mid1 = (q1[2] + q1[3]) / 2
            markout = s * (mid1 - px) / px * BPS
            st[1] += 1
            st[2] += slip * qty
            st[3] += qty
            lines.append(f"{ident},{symbol},{mid.quantize(MID)},{spread.quantize(TWO)},{slip.quantize(TWO)},"
                         f"{markout.quantize(TWO)}\n")
        for symbol in sorted(stats):
            n, matched, wsum, wqty = stats[symbol]
            mean = (wsum / wqty).quantize(TWO) if wqty else "-"
            lines.append(f"summary,{symbol},{n},{matched},{mean},{wqty}\n")
    with open(sys.argv[3], "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
