"""Random SQLite schemas, data and target schemas for the schema-sync task (example and tests).

A schema is a dict: tables (name -> dict(cols=[(name, decl, notnull, default)], pk=..., fks=[...], checks=[...],
uniques=[...], without_rowid=bool)), indexes, triggers, views; to_sql() renders it."""
import copy
import random
import sqlite3


def base_schema(r):
    s = {"tables": {}, "indexes": {}, "triggers": {}, "views": {}}
    s["tables"]["customers"] = dict(cols=[("id", "INTEGER", False, None), ("code", "TEXT", True, None), ("name", "TEXT", False, None),
                                          ("score", "INTEGER", True, "0"), ("city", "TEXT", False, None)],
                                    pk="id", fks=[], checks=[], uniques=[], without_rowid=False)
    s["tables"]["orders"] = dict(cols=[("id", "INTEGER", False, None), ("customer_id", "INTEGER", False, None), ("qty", "INTEGER", True, "1"),
                                       ("status", "TEXT", True, "'new'"), ("memo", "TEXT", False, None)],
                                 pk="id", fks=[("customer_id", "customers", "id", "CASCADE")], checks=[], uniques=[], without_rowid=False)
    s["tables"]["tags"] = dict(cols=[("tag", "TEXT", True, None), ("order_id", "INTEGER", True, None), ("weight", "REAL", False, None)],
                               pk="tag, order_id", fks=[("order_id", "orders", "id", "CASCADE")], checks=[], uniques=[], without_rowid=r.random() < 0.5)
    s["indexes"]["orders_customer"] = ("orders", "customer_id")
    s["indexes"]["customers_city"] = ("customers", "city, name")
    s["triggers"]["orders_qty_guard"] = ("orders", "BEFORE UPDATE OF qty ON orders WHEN NEW.qty < 0 BEGIN SELECT RAISE(ABORT, 'negative qty'); END")
    s["views"]["big_orders"] = "SELECT o.id, c.code, o.qty FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.qty > 5"
    return s


def table_sql(name, t):
    parts = []
    for c, decl, nn, dflt in t["cols"]:
        d = f"  {c} {decl}"
        if t["pk"] == c:
            d += " PRIMARY KEY"
        if nn:
            d += " NOT NULL"
        if dflt is not None:
            d += f" DEFAULT {dflt}"
        parts.append(d)
    if "," in t["pk"]:
        parts.append(f"  PRIMARY KEY ({t['pk']})")
    for col, ref, refcol, action in t["fks"]:
        parts.append(f"  FOREIGN KEY ({col}) REFERENCES {ref}({refcol}) ON DELETE {action}")
    for u in t["uniques"]:
        parts.append(f"  UNIQUE ({u})")
    for ch in t["checks"]:
        parts.append(f"  CHECK ({ch})")
    return f"CREATE TABLE {name} (\n" + ",\n".join(parts) + "\n)" + (" WITHOUT ROWID" if t["without_rowid"] else "") + ";"


def to_sql(s):
    out = [table_sql(n, t) for n, t in s["tables"].items()]
    out += [f"CREATE INDEX {n} ON {tbl}({cols});" for n, (tbl, cols) in s["indexes"].items()]
    out += [f"CREATE TRIGGER {n} {body};" for n, (tbl, body) in s["triggers"].items()]
    out += [f"CREATE VIEW {n} AS {body};" for n, body in s["views"].items()]
    return "\n\n".join(out) + "\n"


def fill(path, s, r, n=60):
    con = sqlite3.connect(path)
    con.executescript(to_sql(s))
    cities = ["Oslo", "Lima", None, "Pune"]
    for i in range(1, n + 1):
        con.execute("INSERT INTO customers (id, code, name, score, city) VALUES (?,?,?,?,?)",
                    (i, f"C{i:04d}", r.choice([None, f"Name {i}", "O'Brien"]), r.randint(0, 99), r.choice(cities)))
    for i in range(1, 3 * n + 1):
        con.execute("INSERT INTO orders (id, customer_id, qty, status, memo) VALUES (?,?,?,?,?)",
                    (i, r.choice([None, r.randint(1, n)]), r.randint(0, 9), r.choice(["new", "paid"]), r.choice([None, "m"])))
    for i in range(1, 2 * n + 1):
        con.execute("INSERT OR IGNORE INTO tags (tag, order_id, weight) VALUES (?,?,?)", (r.choice(["red", "blue", "vip"]), r.randint(1, 3 * n), r.choice([None, 0.5, 2.0])))
    con.commit()
    con.close()


MUTATIONS = ["add_col", "add_col_notnull", "drop_col", "fk_action", "add_check", "add_unique", "index_change", "drop_index",
             "new_table", "trigger_change", "view_change", "reorder_cols", "drop_tags"]


def mutate(s, r, kinds):
    t = copy.deepcopy(s)
    notes = []
    for k in kinds:
        if k == "add_col":
            tbl = r.choice(["customers", "orders"])
            t["tables"][tbl]["cols"].append((f"extra_{r.randint(1, 99)}", "TEXT", False, r.choice([None, "'none'"])))
        elif k == "add_col_notnull":
            t["tables"]["customers"]["cols"].append(("level", "INTEGER", True, "3"))
        elif k == "drop_col":
            tbl = r.choice(["customers", "orders"])
            droppable = [c for c in t["tables"][tbl]["cols"] if c[0] in ("city", "memo", "name")]
            if droppable:
                c = r.choice(droppable)
                t["tables"][tbl]["cols"].remove(c)
                for n, (it, cols) in list(t["indexes"].items()):
                    if it == tbl and c[0] in cols:
                        del t["indexes"][n]
        elif k == "fk_action":
            t["tables"]["orders"]["fks"] = [("customer_id", "customers", "id", "SET NULL")]
        elif k == "add_check":
            t["tables"]["orders"]["checks"].append("qty >= 0")
        elif k == "add_unique":
            t["tables"]["customers"]["uniques"].append("code")
        elif k == "index_change":
            t["indexes"]["orders_status"] = ("orders", "status, qty")
        elif k == "drop_index":
            t["indexes"].pop("orders_customer", None)
        elif k == "new_table":
            t["tables"]["notes"] = dict(cols=[("id", "INTEGER", False, None), ("order_id", "INTEGER", True, None), ("body", "TEXT", True, "''")],
                                        pk="id", fks=[("order_id", "orders", "id", "CASCADE")], checks=[], uniques=[], without_rowid=False)
        elif k == "trigger_change":
            t["triggers"]["orders_qty_guard"] = ("orders", "BEFORE UPDATE OF qty ON orders WHEN NEW.qty < 0 OR NEW.qty > 1000 BEGIN SELECT RAISE(ABORT, 'bad qty'); END")
        elif k == "view_change":
            t["views"]["big_orders"] = "SELECT o.id, c.code, o.qty, o.status FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.qty > 3"
        elif k == "drop_tags":
            t["tables"].pop("tags", None)
        elif k == "reorder_cols":
            cols = t["tables"]["customers"]["cols"]
            t["tables"]["customers"]["cols"] = cols[:1] + list(reversed(cols[1:]))
    return t
