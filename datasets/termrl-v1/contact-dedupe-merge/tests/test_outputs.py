import csv
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import dd_gen  # noqa: E402
import dd_ref  # noqa: E402

COLS = ["person_id", "first_name", "last_name", "email", "phone", "city", "sources", "record_count"]


def run(tmp_path, src):
    p, m = tmp_path / "people.csv", tmp_path / "map.csv"
    r = subprocess.run(["python3", "/app/dedupe.py", str(src), str(p), str(m)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return list(csv.reader(open(p, newline="", encoding="utf-8"))), list(csv.reader(open(m, newline="", encoding="utf-8")))


def check(tmp_path, src):
    people, mapping = run(tmp_path, src)
    ep, em = dd_ref.run(str(src))
    assert mapping[0] == ["source", "source_id", "person_id"]
    assert mapping[1:] == em
    assert people[0] == COLS
    assert people[1:] == [[p[c] for c in COLS] for p in ep]


def test_example(tmp_path):
    check(tmp_path, "/app/contacts.csv")


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_generated(tmp_path, seed):
    src = tmp_path / "c.csv"
    dd_gen.gen(str(src), seed, 80)
    check(tmp_path, src)


def test_transitive_and_rules(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text(
        "source,source_id,first_name,last_name,email,phone,city,updated_at\n"
        "webshop,W1,Ann,Lee,A.Lee+x@GoogleMail.com,,Oslo,2024-01-01T00:00:00\n"
        "crm,C9,Ann ,LEE,alee@gmail.com,(555) 010-2030,,2024-01-02T00:00:00\n"
        "newsletter,N1,Annie,lee,,1-555-010-2030,Bergen,2024-01-02T00:00:00\n"
        "crm,C1,Bob,Stone,,5550102030,Rome,2024-01-03T00:00:00\n"
        "webshop,W2,Cy,Ng,bad@nodot,555 010 2030 1,,2024-01-04T00:00:00\n")
    people, mapping = run(tmp_path, src)
    assert people[1:] == [
        ["P0001", "Bob", "Stone", "", "5550102030", "Rome", "crm", "1"],
        ["P0002", "Ann", "LEE", "alee@gmail.com", "5550102030", "Bergen", "crm;newsletter;webshop", "3"],
        ["P0003", "Cy", "Ng", "", "", "", "webshop", "1"],
    ]
    assert mapping[1:] == [["crm", "C1", "P0001"], ["crm", "C9", "P0002"], ["newsletter", "N1", "P0002"],
                           ["webshop", "W1", "P0002"], ["webshop", "W2", "P0003"]]
