import csv
import io
import random
import re
import subprocess

import pytest


def ref(text, maxw=None):
    rows = list(csv.reader(io.StringIO(text)))
    h, data = rows[0], rows[1:]
    n = len(h)
    data = [(r + [""] * n)[:n] for r in data]
    num = [any(r[j] for r in data) and all(re.fullmatch(r"-?\d+(\.\d+)?", r[j]) for r in data if r[j]) for j in range(n)]
    c = (lambda s: s) if maxw is None else (lambda s: s if len(s) <= maxw else s[:maxw - 1] + "~")
    h = [c(x) for x in h]
    data = [[c(x) for x in r] for r in data]
    w = [max(len(x) for x in [h[j]] + [r[j] for r in data]) for j in range(n)]
    sep = "+" + "+".join("-" * (x + 2) for x in w) + "+\n"
    s = sep + "|" + "|".join(" " + h[j].ljust(w[j]) + " " for j in range(n)) + "|\n" + sep
    for r in data:
        s += "|" + "|".join(" " + (r[j].rjust(w[j]) if num[j] else r[j].ljust(w[j])) + " " for j in range(n)) + "|\n"
    return s + sep


def run(tmp_path, text, extra=()):
    p = tmp_path / "t.csv"
    p.write_text(text, encoding="utf-8")
    r = subprocess.run(["python3", "/app/table.py", str(p), *extra], capture_output=True, timeout=20)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode("utf-8")


def test_cities():
    r = subprocess.run(["python3", "/app/table.py", "/app/cities.csv"], capture_output=True, timeout=20)
    assert r.stdout.decode() == (
        "+------------------+---------+------------+----------+\n"
        "| city             | country | population | area_km2 |\n"
        "+------------------+---------+------------+----------+\n"
        "| Oslo             | Norway  |     709037 |      454 |\n"
        "| Washington, D.C. | USA     |     689545 |      177 |\n"
        "| Reykjavík        | Iceland |     139875 |          |\n"
        "| Lima             | Peru    |   10004000 |   2672.3 |\n"
        "+------------------+---------+------------+----------+\n")


def test_max_width(tmp_path):
    text = "identifier,longheadername,v\nabcdefghij,x,12345678\nab,yy,-1.5\n"
    assert run(tmp_path, text, ["--max-width", "5"]) == ref(text, 5)
    assert "| iden~ | long~ | v     |" in run(tmp_path, text, ["--max-width", "5"])


def test_ragged_and_empty_columns(tmp_path):
    text = "a,b,c\n1\n2,,x,extra\n,,\n"
    assert run(tmp_path, text) == ref(text)
    assert run(tmp_path, "only,header\n") == ref("only,header\n")


@pytest.mark.parametrize("seed", range(4))
def test_generated(tmp_path, seed):
    rng = random.Random(seed)
    cols = rng.randint(1, 6)
    lines = [[rng.choice(["id", "name", "amount", "note", "x"]) + str(k) for k in range(cols)]]
    kinds = [rng.choice(["int", "float", "text", "mixed", "empty"]) for _ in range(cols)]
    for _ in range(rng.randint(0, 15)):
        row = []
        for k in kinds:
            v = {"int": str(rng.randint(-999, 99999)), "float": f"{rng.uniform(-50, 5000):.{rng.randint(1, 3)}f}",
                 "text": rng.choice(["alpha", "beta gamma", "δέλτα", "a,b", 'q"uote']),
                 "mixed": rng.choice(["12", "1e5", "7"]), "empty": ""}[k]
            row.append(v if rng.random() > 0.15 else "")
        lines.append(row)
    buf = io.StringIO()
    csv.writer(buf).writerows(lines)
    text = buf.getvalue()
    mw = rng.choice([None, 3, 6])
    assert run(tmp_path, text, [] if mw is None else ["--max-width", str(mw)]) == ref(text, mw)
