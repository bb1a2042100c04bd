import csv
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import nb_data  # noqa: E402
import nb_ref  # noqa: E402


def run(tmp_path, train, test, alpha=None):
    out = tmp_path / "out.csv"
    cmd = ["python3", "/app/nb.py", str(train), str(test), "/app/stopwords.txt", str(out)]
    if alpha is not None:
        cmd += ["--alpha", str(alpha)]
    r = subprocess.run(cmd, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return list(csv.reader(open(out, newline="", encoding="utf-8")))


def check(rows, train, test, alpha):
    classes, exp = nb_ref.run(str(train), str(test), "/app/stopwords.txt", alpha)
    assert rows[0] == ["id", "label"] + [f"logp_{c}" for c in classes]
    assert len(rows) - 1 == len(exp)
    for row, (i, lab, lp) in zip(rows[1:], exp):
        assert row[0] == i
        assert row[1] == lab, i
        for c, v in zip(classes, row[2:]):
            assert float(v) == pytest.approx(lp[c], rel=1e-9, abs=1e-9), (i, c)


@pytest.mark.parametrize("seed,alpha", [(11, None), (12, 0.5), (13, 2.0)])
def test_generated(tmp_path, seed, alpha):
    test = tmp_path / "test.csv"
    nb_data.make(str(test), seed, 200, labelled=False)
    rows = run(tmp_path, "/app/train.csv", test, alpha)
    check(rows, "/app/train.csv", test, 1.0 if alpha is None else alpha)


def test_accuracy_reasonable(tmp_path):
    test = tmp_path / "lab.csv"
    nb_data.make(str(test), 77, 300, labelled=True)
    rows = run(tmp_path, "/app/train.csv", test)
    truth = [r["label"] for r in csv.DictReader(open(test))]
    acc = sum(a[1] == b for a, b in zip(rows[1:], truth)) / len(truth)
    assert acc > 0.8


def test_tokenisation_and_ties(tmp_path):
    train = tmp_path / "tr.csv"
    train.write_text("id,text,label\n1,\"Don't stop, DON'T!\",b\n2,the cafe x86_64,a\n3,zzz,b\n4,yyy,a\n")
    test = tmp_path / "te.csv"
    test.write_text("id,text\nq1,nothing known here\nq2,don't don't\nq3,café x86\n")
    rows = run(tmp_path, train, test)
    check(rows, train, test, 1.0)
    assert rows[1][1] == "a"  # equal priors, no known tokens -> tie -> smallest label
