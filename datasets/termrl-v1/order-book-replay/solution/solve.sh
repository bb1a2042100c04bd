#!/bin/bash
set -euo pipefail
cat > /app/replay.py <<'PY'
import csv
import json
import sys


class Book:
    def __init__(self):
        self.orders = {}  # id -> [side, price, qty, prio]
        self.seen = set()
        self.prio = 0
        self.trades = []
        self.rejected = []

    def _best(self, side):
        cands = [(o[1], o[3], oid) for oid, o in self.orders.items() if o[0] == side]
        if not cands:
            return None
        if side == "SELL":
            return min(cands)[2]
        return min(cands, key=lambda c: (-c[0], c[1]))[2]

    def _match(self, seq, oid, side, price, qty):
        other = "SELL" if side == "BUY" else "BUY"
        while qty > 0:
            best = self._best(other)
            if best is None:
                break
            r = self.orders[best]
            if price is not None and ((side == "BUY" and r[1] > price) or (side == "SELL" and r[1] < price)):
                break
            q = min(qty, r[2])
            buy, sell = (oid, best) if side == "BUY" else (best, oid)
            self.trades.append([len(self.trades) + 1, seq, buy, sell, r[1], q])
            qty -= q
            r[2] -= q
            if r[2] == 0:
                del self.orders[best]
        return qty

    def _rest(self, oid, side, price, qty):
        self.prio += 1
        self.orders[oid] = [side, price, qty, self.prio]

    def event(self, e):
        seq, typ, oid = int(e["seq"]), e["type"], e["order_id"]
        if typ in ("LIMIT", "MARKET"):
            side = e["side"]
            qty = int(e["qty"])
            if oid in self.seen or qty <= 0 or side not in ("BUY", "SELL"):
                self.rejected.append(seq)
                return
            price = int(e["price"]) if typ == "LIMIT" else None
            if typ == "LIMIT" and price <= 0:
                self.rejected.append(seq)
                return
            self.seen.add(oid)
            left = self._match(seq, oid, side, price, qty)
            if left and typ == "LIMIT":
                self._rest(oid, side, price, left)
        elif typ == "CANCEL":
            if oid not in self.orders:
                self.rejected.append(seq)
                return
            del self.orders[oid]
        elif typ == "MODIFY":
            if oid not in self.orders:
                self.rejected.append(seq)
                return
            o = self.orders[oid]
            price, qty = int(e["price"]), int(e["qty"])
            if qty <= 0 or price <= 0:
                self.rejected.append(seq)
                return
            if price == o[1] and qty <= o[2]:
                o[2] = qty
                return
            side = o[0]
            del self.orders[oid]
            left = self._match(seq, oid, side, price, qty)
            if left:
                self._rest(oid, side, price, left)
        else:
            self.rejected.append(seq)

    def levels(self, side):
        lv = {}
        for o in self.orders.values():
            if o[0] == side:
                t = lv.setdefault(o[1], [o[1], 0, 0])
                t[1] += o[2]
                t[2] += 1
        return sorted(lv.values(), key=lambda t: -t[0] if side == "BUY" else t[0])


def replay(path):
    b = Book()
    with open(path, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: int(r["seq"]))
    for e in rows:
        b.event(e)
    return b


if __name__ == "__main__":
    b = replay(sys.argv[1])
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["trade_id", "seq", "buy_order", "sell_order", "price", "qty"])
        w.writerows(b.trades)
    with open(sys.argv[3], "w") as f:
        json.dump({"bids": b.levels("BUY"), "asks": b.levels("SELL"), "rejected": sorted(b.rejected)}, f, indent=1)
PY
