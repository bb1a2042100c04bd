#!/usr/bin/env python3
"""Trade cost report, fast: per symbol the uncrossed quotes sorted by time (stably, so file order
breaks ties) and the prevailing quote found by binary search.  usage: markouts.py QUOTES.csv TRADES.csv OUT.csv"""
import sys
from bisect import bisect_right
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


def book(quotes):
    """Per symbol: its uncrossed quotes sorted by time, file order kept among equal times (a stable
    sort), and their times, so that the prevailing quote at T is the last one with time <= T."""
    by = {}
    for q in quotes:
        if q[2] <= q[3]:
            by.setdefault(q[1], []).append(q)
    out = {}
    for sym, qs in by.items():
        qs.sort(key=lambda q: q[0])
        out[sym] = ([q[0] for q in qs], qs)
    return out


def prevailing(books, symbol, t):
    entry = books.get(symbol)
    if entry is None:
        return None
    i = bisect_right(entry[0], t)
    return entry[1][i - 1] if i else None


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: markouts.py QUOTES.csv TRADES.csv OUT.csv")
    quotes = book(read_quotes(sys.argv[1]))
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
