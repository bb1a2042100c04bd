"""Simulated primary: concurrent transactions with row locks, savepoints and DDL, written to a changelog.
The truth at any LSN is rebuilt from the transactions the simulation knows committed."""
import json
import random
import sqlite3
from pathlib import Path

SCHEMA = [
    "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, balance INTEGER NOT NULL DEFAULT 0, note BLOB)",
    "CREATE TABLE tags (acct INTEGER NOT NULL, tag TEXT NOT NULL, weight REAL, PRIMARY KEY (acct, tag)) WITHOUT ROWID",
]
PK = {"accounts": ("id",), "tags": ("acct", "tag")}


def enc(v):
    return {"$blob": v.hex()} if isinstance(v, bytes) else v


class Tx:
    def __init__(self, txid):
        self.id = txid
        self.ops = []            # (lsn, op dict) of data/ddl ops still in effect
        self.overlay = {}        # (table, key) -> row dict or None (deleted)
        self.savepoints = []     # (name, len(ops), overlay copy)
        self.locks = set()
        self.ddl = False


class Primary:
    def __init__(self, rng, savepoint_rate=0.08, ddl=True):
        self.rng = rng
        self.lsn = 0
        self.records = []        # log records in LSN order
        self.committed = []      # (commit lsn, [op dicts]) in commit order
        self.rows = {t: {} for t in PK}   # committed state: table -> key -> row
        self.cols = {t: None for t in PK}
        self.open = {}
        self.next_tx = 100
        self.next_id = 1
        self.sp_rate = savepoint_rate
        self.ddl_allowed = ddl
        self.extra_cols = 0
        self.events = {"straddle": 0, "rollback_to": 0, "pk_change": 0, "ddl": 0, "rollback": 0}

    def log(self, tx, op, **kw):
        self.lsn += 1
        rec = {"lsn": self.lsn, "tx": tx.id, "op": op, **kw}
        self.records.append(rec)
        return rec

    def view(self, tx, table, key):
        if (table, key) in tx.overlay:
            return tx.overlay[(table, key)]
        return self.rows[table].get(key)

    def free(self, tx, table, key):
        return not any((table, key) in o.locks for o in self.open.values() if o is not tx)

    def value_row(self, table, key):
        r = self.rng
        if table == "accounts":
            row = {"id": key[0], "owner": "".join(r.choice("abcdeéz中 '") for _ in range(r.randint(1, 12))),
                   "balance": r.randint(-10 ** 6, 10 ** 12), "note": r.choice([None, bytes(r.randrange(256) for _ in range(r.randint(0, 20)))])}
            for i in range(self.extra_cols):
                row[f"x{i}"] = r.choice([None, r.randint(0, 9), "v" * r.randint(0, 4)])
            return row
        return {"acct": key[0], "tag": key[1], "weight": r.choice([None, r.uniform(-5, 5), float(r.randint(0, 9))])}

    def pick(self, tx, table):
        """A random row this transaction can see and lock, or None."""
        ks = list(self.rows[table]) + [k for (t, k) in tx.overlay if t == table]
        for _ in range(12):
            if not ks:
                return None
            k = self.rng.choice(ks)
            if self.view(tx, table, k) is not None and self.free(tx, table, k):
                return k
        return None

    def data_op(self, tx):
        r = self.rng
        table = r.choice(["accounts", "accounts", "tags"])
        existing = self.pick(tx, table)
        kind = r.choice(["insert", "insert", "update", "update", "update", "delete"]) if existing else "insert"
        if kind == "insert":
            if table == "accounts":
                key = (self.next_id,)
                self.next_id += r.choice([1, 1, 2, 7])
            else:
                key = (r.randint(1, 60), r.choice(["red", "blue", "vip", "new", "Δ", "x y"]) + str(r.randint(0, 30)))
                if self.view(tx, table, key) is not None or not self.free(tx, table, key):
                    return
            row = self.value_row(table, key)
            tx.locks.add((table, key))
            tx.overlay[(table, key)] = row
            tx.ops.append(self.log(tx, "insert", table=table, row={k: enc(v) for k, v in row.items()}))
            return
        key = existing
        tx.locks.add((table, key))
        keyd = dict(zip(PK[table], key))
        if kind == "delete":
            tx.overlay[(table, key)] = None
            tx.ops.append(self.log(tx, "delete", table=table, key=keyd))
            return
        row = dict(self.view(tx, table, key))
        new = self.value_row(table, key)
        cols = [c for c in new if c not in PK[table]]
        changes = {c: new[c] for c in r.sample(cols, r.randint(1, len(cols)))}
        newkey = key
        if table == "accounts" and r.random() < 0.1:
            newkey = (self.next_id,)
            self.next_id += 1
            changes["id"] = newkey[0]
            self.events["pk_change"] += 1
        row.update(changes)
        tx.overlay[(table, key)] = None if newkey != key else row
        if newkey != key:
            tx.overlay[(table, newkey)] = row
            tx.locks.add((table, newkey))
        tx.ops.append(self.log(tx, "update", table=table, key=keyd, set={k: enc(v) for k, v in changes.items()}))

    def step(self):
        r = self.rng
        ddl_open = any(t.ddl for t in self.open.values())
        if not self.open or (len(self.open) < 4 and not ddl_open and r.random() < 0.25):
            tx = Tx(self.next_tx)
            self.next_tx += r.choice([1, 1, 3])
            if self.ddl_allowed and not self.open and r.random() < 0.06:
                tx.ddl = True
            self.open[tx.id] = tx
            self.log(tx, "begin")
            if tx.ddl:
                self.events["ddl"] += 1
                sql = f"ALTER TABLE accounts ADD COLUMN x{self.extra_cols} {r.choice(['INTEGER', 'TEXT', ''])}"
                self.extra_cols += 1
                tx.ops.append(self.log(tx, "ddl", sql=sql))
            return
        tx = self.open[r.choice(sorted(self.open))]
        x = r.random()
        if x < 0.06 and tx.ops and not tx.ddl:
            del self.open[tx.id]
            self.log(tx, "rollback")
            self.events["rollback"] += 1
        elif x < 0.16 and not (tx.ddl and any(t is not tx for t in self.open.values())):
            del self.open[tx.id]
            rec = self.log(tx, "commit")
            self.committed.append((rec["lsn"], [op for op in tx.ops]))
            for (table, key), row in tx.overlay.items():
                if row is None:
                    self.rows[table].pop(key, None)
                else:
                    self.rows[table][key] = row
        elif x < 0.16 + self.sp_rate:
            name = r.choice(["a", "b", "sp", "outer"])
            tx.savepoints.append((name, len(tx.ops), dict(tx.overlay)))
            self.log(tx, "savepoint", name=name)
        elif x < 0.16 + 2 * self.sp_rate and tx.savepoints:
            i = r.randrange(len(tx.savepoints))
            name = tx.savepoints[i][0]
            i = max(j for j, s in enumerate(tx.savepoints) if s[0] == name)
            if r.random() < 0.6:
                _, n, overlay = tx.savepoints[i]
                del tx.ops[n:]
                tx.overlay = dict(overlay)
                del tx.savepoints[i + 1:]
                self.log(tx, "rollback_to", name=name)
                self.events["rollback_to"] += 1
            else:
                del tx.savepoints[i:]
                self.log(tx, "release", name=name)
        else:
            self.data_op(tx)

    def run(self, n):
        for _ in range(n):
            self.step()

    def finish(self):
        """Commit or roll back whatever is still open."""
        while self.open:
            tx = self.open[min(self.open)]
            del self.open[tx.id]
            rec = self.log(tx, "commit")
            self.committed.append((rec["lsn"], list(tx.ops)))
            for (table, key), row in tx.overlay.items():
                if row is None:
                    self.rows[table].pop(key, None)
                else:
                    self.rows[table][key] = row

    def open_counts(self):
        """counts[lsn] = how many transactions are open just after record lsn."""
        counts, cur = [0], 0
        for rec in self.records:
            if rec["op"] == "begin":
                cur += 1
            elif rec["op"] in ("commit", "rollback"):
                cur -= 1
            counts.append(cur)
        return counts

    # --- the truth -----------------------------------------------------------------------------------
    def state_db(self, path, lsn):
        """A database holding exactly the transactions committed at or before lsn, stamped with lsn."""
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.execute("BEGIN")
        for s in SCHEMA:
            con.execute(s)
        con.execute("CREATE TABLE _replica (lsn INTEGER NOT NULL)")
        con.execute("INSERT INTO _replica VALUES (?)", (lsn,))
        for clsn, ops in self.committed:
            if clsn > lsn:
                break
            for op in ops:
                apply_op(con, op)
        con.execute("COMMIT")
        con.execute("PRAGMA journal_mode = DELETE")
        con.close()
        return path

    def write_log(self, folder, per_segment):
        folder.mkdir(parents=True, exist_ok=True)
        segs = []
        for i in range(0, len(self.records), per_segment):
            p = folder / f"{len(segs) + 1:06d}.log"
            p.write_text("".join(json.dumps(rec, ensure_ascii=self.rng.random() < 0.5) + "\n"
                                 for rec in self.records[i:i + per_segment]))
            segs.append(p)
        return segs


def dec(v):
    return bytes.fromhex(v["$blob"]) if isinstance(v, dict) else v


def apply_op(con, op):
    t = op["op"]
    if t == "ddl":
        con.execute(op["sql"])
    elif t == "insert":
        cols = list(op["row"])
        con.execute(f"INSERT INTO {op['table']} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    [dec(op["row"][c]) for c in cols])
    elif t == "update":
        sets = list(op["set"])
        keys = list(op["key"])
        con.execute(f"UPDATE {op['table']} SET {', '.join(c + ' = ?' for c in sets)} WHERE "
                    + " AND ".join(k + " = ?" for k in keys), [dec(op["set"][c]) for c in sets] + [op["key"][k] for k in keys])
    elif t == "delete":
        keys = list(op["key"])
        con.execute(f"DELETE FROM {op['table']} WHERE " + " AND ".join(k + " = ?" for k in keys), [op["key"][k] for k in keys])


def snapshot(path):
    """Schema and rows of every table, to compare databases."""
    con = sqlite3.connect(path)
    out = {}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        cols = [r[1:] for r in con.execute(f"PRAGMA table_info({name})")]
        rows = sorted(con.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
        out[name] = (cols, rows)
    con.close()
    return out
