"""A shop database whose three application generations write orders, with late commits (test side only)."""
import random
import sqlite3
from datetime import datetime, timedelta, timezone

SOURCE_SCHEMA = """
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL,
                     total_cents INTEGER NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT);
"""
CUSTOMERS = ["Anna", "Ben", "Chloé", "Dmitri", "Eve", "Farah", "Gustav", "Hana"]
STATUSES = ["new", "paid", "packed", "shipped", "returned"]


def render(rng, t, style=None):
    """t: aware UTC datetime -> one of the three writers' formats."""
    style = style or rng.choice(["plain", "zulu", "offset"])
    if style == "plain":
        return t.strftime("%Y-%m-%d %H:%M:%S")
    if style == "zulu":
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    off = rng.choice([60, 120, -300, 330, -60, 0])
    local = t + timedelta(minutes=off)
    digits = rng.randint(0, 6)
    frac = ("." + f"{local.microsecond:06d}"[:digits]) if digits else ""
    sign = "+" if off >= 0 else "-"
    return local.strftime("%Y-%m-%dT%H:%M:%S") + frac + f"{sign}{abs(off) // 60:02d}:{abs(off) % 60:02d}"


def to_utc(ts):
    dt = datetime.fromisoformat(ts.strip().replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Shop:
    def __init__(self, path, rng, style=None):
        self.path, self.rng, self.style = path, rng, style
        self.con = sqlite3.connect(path)
        self.con.executescript(SOURCE_SCHEMA)
        self.now = datetime(2025, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), tzinfo=timezone.utc)
        self.seen_max = None   # the latest visible updated_at when the extract last ran (as a UTC datetime)
        self.next_id = rng.randint(1, 1000)
        self.live = []

    def stamp(self, late=False):
        self.now += timedelta(milliseconds=self.rng.randint(1, 3000))
        t = self.now
        if late and self.seen_max is not None:
            # a transaction that started before the last extract's newest row but committed after the extract
            t = self.seen_max - timedelta(milliseconds=self.rng.randint(0, 3900))
        return render(self.rng, t, self.style)

    def insert(self, late=False):
        oid = self.next_id
        self.next_id += self.rng.randint(1, 3)
        self.con.execute("INSERT INTO orders VALUES (?,?,?,?,?,NULL)",
                         (oid, self.rng.choice(CUSTOMERS), "new", self.rng.randint(100, 99999), self.stamp(late)))
        self.live.append(oid)

    def update(self, late=False):
        if not self.live:
            return self.insert(late)
        oid = self.rng.choice(self.live)
        self.con.execute("UPDATE orders SET status = ?, total_cents = total_cents + ?, updated_at = ? WHERE id = ?",
                         (self.rng.choice(STATUSES), self.rng.randint(-500, 500), self.stamp(late), oid))

    def delete(self, late=False):
        if not self.live:
            return self.insert(late)
        oid = self.rng.choice(self.live)
        self.live.remove(oid)
        ts = self.stamp(late)
        self.con.execute("UPDATE orders SET deleted_at = ?, updated_at = ? WHERE id = ?", (ts, ts, oid))

    def step(self, late_share=0.15):
        late = self.rng.random() < late_share
        self.rng.choices([self.insert, self.update, self.delete], [4, 5, 1])[0](late)

    def commit(self):
        self.con.commit()

    def extracted(self):
        """Call right after an extract run: remember what it could see, return what dw_orders must hold."""
        self.commit()
        rows = self.con.execute("SELECT id, customer, status, total_cents, updated_at, deleted_at FROM orders").fetchall()
        if rows:
            newest = max(datetime.fromisoformat(to_utc(r[4]).replace("Z", "+00:00")) for r in rows)
            self.seen_max = newest if self.seen_max is None else max(self.seen_max, newest)
        return sorted((r[0], r[1], r[2], r[3], to_utc(r[4])) for r in rows if r[5] is None)
