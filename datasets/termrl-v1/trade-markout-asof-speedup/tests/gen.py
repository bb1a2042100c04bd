"""Quote and trade files for the tests: random walks of bid/ask per symbol, bursts of quotes sharing a
millisecond, crossed and locked quotes, late (out-of-order) lines, trades at exactly a quote's time
and exactly 60 s before one, trades before the first quote."""
from decimal import Decimal


def fmt_time(ms, rng, coarse=False):
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, frac = divmod(rest, 1000)
    base = f"{h:02d}:{m:02d}:{s:02d}"
    if frac == 0 and (coarse or rng.random() < 0.5):
        return base
    text = f"{frac:03d}"
    if rng.random() < 0.3:
        text = text.rstrip("0") or "0"
    return base + "." + text


def market(rng, n_quotes, n_trades, n_symbols=6, span_ms=6 * 3_600_000, start_ms=9 * 3_600_000 + 1_800_000):
    symbols = rng.sample(["ACME", "BOLT", "CRAN", "DYNA", "ECHO", "FLUX", "GRIT", "HALO", "IONX", "JADE"],
                         n_symbols)
    state = {s: rng.randint(500, 50000) for s in symbols}   # mid in units of 0.0025
    quotes = []
    first_at = {}
    for _ in range(n_quotes):
        sym = rng.choice(symbols)
        t = start_ms + rng.randrange(span_ms)
        if quotes and rng.random() < 0.15:
            t = rng.choice(quotes)[0]                       # same millisecond as another quote
            sym = rng.choice([sym, first_at[t]])
        state[sym] = max(40, state[sym] + rng.randint(-6, 6))
        half = rng.choice([1, 1, 2, 3, 4, 8])
        bid = Decimal(state[sym] - half) * Decimal("0.0025")
        ask = Decimal(state[sym] + half) * Decimal("0.0025")
        r = rng.random()
        if r < 0.04:
            bid, ask = ask, bid                             # crossed
        elif r < 0.07:
            bid = ask                                       # locked
        quotes.append((t, sym, bid, ask))
        first_at.setdefault(t, sym)
    quotes.sort(key=lambda q: q[0])
    for k in range(len(quotes) // 50):                      # late lines
        i = rng.randrange(len(quotes))
        j = min(len(quotes) - 1, i + rng.randint(1, 40))
        quotes.insert(j, quotes.pop(i))
    trades = []
    for k in range(n_trades):
        sym = rng.choice(symbols + ["ZZZZ"] * (rng.random() < 0.02))
        r = rng.random()
        if r < 0.2 and quotes:
            q = rng.choice(quotes)
            t = q[0] - (60_000 if rng.random() < 0.3 else 0)
            sym = q[1]
        elif r < 0.23:
            t = start_ms - rng.randint(1, 600_000)
        else:
            t = start_ms + rng.randrange(span_ms)
        px = Decimal(state[sym] + rng.randint(-30, 30) if sym in state else rng.randint(100, 900)) * Decimal("0.0025")
        trades.append((f"T{k:06d}" if rng.random() < 0.9 else f"x{rng.randrange(10 ** 9)}", t, sym,
                       rng.choice("BS"), px, rng.choice([1, 5, 10, 100, rng.randint(1, 5000)])))
    rng.shuffle(trades)
    qtext = "time,symbol,bid,ask\n" + "".join(f"{fmt_time(t, rng)},{s},{b},{a}\n" for t, s, b, a in quotes)
    ttext = "id,time,symbol,side,price,qty\n" + "".join(
        f"{i},{fmt_time(t, rng)},{s},{side},{p},{q}\n" for i, t, s, side, p, q in trades)
    return qtext, ttext
