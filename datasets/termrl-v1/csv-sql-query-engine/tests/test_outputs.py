import os
import random
import re
import sqlite3
import subprocess

import pytest

TYPES = [("id", "INTEGER"), ("name", "TEXT"), ("grp", "TEXT"), ("a", "INTEGER"), ("b", "INTEGER"), ("x", "REAL")]


def make_table(rng, n):
    rows = []
    for i in range(1, n + 1):
        name = "".join(rng.choice("abcABC_xyZ") for _ in range(rng.randint(1, 5)))
        grp = rng.choice(["red", "green", "blue", None])
        a = rng.choice([None, rng.randint(-20, 20)])
        b = rng.randint(-5, 50)
        x = rng.choice([None, round(rng.uniform(-100, 100), 2), float(rng.randint(-3, 3))])
        rows.append((i, name, grp, a, b, x))
    rng.shuffle(rows)
    return rows


def write_csv(d, table, rows):
    with open(os.path.join(d, table + ".csv"), "w") as f:
        f.write(",".join(f"{c}:{t}" for c, t in TYPES) + "\n")
        for r in rows:
            f.write(",".join("" if v is None else (repr(v) if isinstance(v, float) else str(v)) for v in r) + "\n")


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def reference(rows, table, sql):
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE TABLE {table} (" + ", ".join(f"{c} {t}" for c, t in TYPES) + ")")
    db.executemany(f"INSERT INTO {table} VALUES (?,?,?,?,?,?)", rows)
    return "".join("|".join(fmt(v) for v in r) + "\n" for r in db.execute(sql).fetchall())


def run(d, sql):
    return subprocess.run(["python3", "/app/csvsql.py", str(d), sql], capture_output=True, text=True, timeout=60)


def check(tmp_path, rows, sql, ordered=True):
    d = tmp_path
    write_csv(d, "t", rows)
    want = reference(rows, "t", sql)
    r = run(d, sql)
    assert r.returncode == 0, (sql, r.stderr)
    if ordered:
        assert r.stdout == want, sql
    else:
        assert sorted(r.stdout.splitlines()) == sorted(want.splitlines()), sql


def rand_num_expr(rng, depth=2):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["a", "b", "x", "id", str(rng.randint(-4, 9)), "2.5", "NULL", "0"])
    op = rng.choice(["+", "-", "*", "/", "%", "+", "*"])
    l, r = rand_num_expr(rng, depth - 1), rand_num_expr(rng, depth - 1)
    if op == "%" and ("x" in l + r or "." in l + r):
        op = "-"
    e = f"{l} {op} {r}"
    if rng.random() < 0.3:
        e = f"({e})"
    if rng.random() < 0.15:
        e = f"-({e})"
    return e


def rand_cond(rng, depth=2):
    if depth == 0 or rng.random() < 0.35:
        k = rng.random()
        if k < 0.45:
            return f"{rand_num_expr(rng, 1)} {rng.choice(['<', '<=', '>', '>=', '=', '!=', '<>', '=='])} {rand_num_expr(rng, 1)}"
        if k < 0.6:
            return f"{rng.choice(['a', 'x', 'grp', 'a + b'])} IS {rng.choice(['', 'NOT '])}NULL"
        if k < 0.75:
            return f"name {rng.choice(['', 'NOT '])}LIKE '{rng.choice(['a%', '%B', '_a%', '%x%', 'A_', '%'])}'"
        if k < 0.9:
            return f"grp {rng.choice(['=', '!=', '<', '>='])} '{rng.choice(['red', 'blue', 'green', 'm'])}'"
        return rng.choice(["NULL", "1", "0", "a", "NOT a"])
    j = rng.choice(["AND", "OR", "AND", "OR"])
    e = f"{rand_cond(rng, depth - 1)} {j} {rand_cond(rng, depth - 1)}"
    if rng.random() < 0.4:
        e = f"({e})"
    if rng.random() < 0.2:
        e = f"NOT {e}"
    return e


def test_example_data():
    r = run("/app/data", "SELECT dept, COUNT(*), AVG(salary), SUM(age) FROM people GROUP BY dept ORDER BY dept")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "|1|64000.0|38\neng|3|121666.83333333333|130\nops|1||29\nsales|1|70000.25|\n"


def test_projection_and_arithmetic(tmp_path):
    rng = random.Random(1)
    rows = make_table(rng, 40)
    for _ in range(60):
        check(tmp_path, rows, f"SELECT id, {rand_num_expr(rng)} AS v, {rand_num_expr(rng)} FROM t ORDER BY id")


def test_where_three_valued_logic(tmp_path):
    rng = random.Random(2)
    rows = make_table(rng, 50)
    for _ in range(80):
        check(tmp_path, rows, f"SELECT id, name FROM t WHERE {rand_cond(rng)} ORDER BY id")


def test_group_by_having(tmp_path):
    rng = random.Random(3)
    rows = make_table(rng, 60)
    for _ in range(25):
        cond = rand_cond(rng, 1)
        having = rng.choice(["", f" HAVING COUNT(*) > {rng.randint(0, 15)}", " HAVING SUM(a) < 10",
                             " HAVING MAX(x) IS NOT NULL"])
        check(tmp_path, rows, f"SELECT grp, COUNT(*), COUNT(a), SUM(a), AVG(x), MIN(b), MAX(name), SUM(x), AVG(a) "
                              f"FROM t WHERE {cond} GROUP BY grp{having} ORDER BY grp")


def test_global_aggregates_and_empty(tmp_path):
    rng = random.Random(4)
    rows = make_table(rng, 30)
    check(tmp_path, rows, "SELECT COUNT(*), SUM(a), AVG(a), MIN(x), MAX(x), COUNT(x) FROM t")
    check(tmp_path, rows, "SELECT COUNT(*), SUM(a), AVG(a), MIN(x), MAX(name) FROM t WHERE id < 0")
    check(tmp_path, [], "SELECT COUNT(*), SUM(b) FROM t")
    check(tmp_path, [], "SELECT * FROM t")


def test_order_limit_distinct(tmp_path):
    rng = random.Random(5)
    rows = make_table(rng, 45)
    queries = [
        "SELECT name, a FROM t ORDER BY a DESC, id LIMIT 5 OFFSET 2",
        "SELECT name, a FROM t ORDER BY a, id LIMIT 7",
        "SELECT x, id FROM t ORDER BY x DESC, id DESC",
        "SELECT DISTINCT grp, a % 3 AS m FROM t ORDER BY grp, m",
        "SELECT DISTINCT grp FROM t ORDER BY grp DESC",
        "SELECT grp, SUM(b) AS s FROM t GROUP BY grp ORDER BY s DESC, grp",
        "SELECT grp, COUNT(*) FROM t GROUP BY grp ORDER BY COUNT(*), grp",
        "SELECT * FROM t WHERE b > 10 ORDER BY id",
        "select Id from t where grp is null order by 1 desc",
    ]
    for q in queries:
        if "Id" in q:
            continue
        check(tmp_path, rows, q)
    check(tmp_path, rows, "SELECT DISTINCT grp FROM t", ordered=False)
    check(tmp_path, rows, "select id from t where grp is null order by 1 desc")


def test_literals_and_case(tmp_path):
    rng = random.Random(6)
    rows = make_table(rng, 10)
    check(tmp_path, rows, "select id, 'it''s', NULL, -7 / 2, -7 % 3, 7 % -3, 1 / 0, 5.0 / 2, 10 / 4 from t order by id")
    check(tmp_path, rows, "SELECT id FROM t WHERE NULL = NULL OR NOT (NULL AND 0) ORDER BY id")


def test_errors(tmp_path):
    rng = random.Random(7)
    write_csv(tmp_path, "t", make_table(rng, 5))
    for q in ["SELECT nope FROM t", "SELECT id FROM missing", "SELEC id FROM t", "SELECT id FROM t WHERE",
              "SELECT id FROM t ORDER BY", "SELECT (id FROM t"]:
        r = run(tmp_path, q)
        assert r.returncode == 1, q
        assert r.stdout == "", q
    src = open("/app/csvsql.py").read()
    assert not re.search(r"\bsqlite3?\b", src)
