import json
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import fifo_gen  # noqa: E402
import fifo_ref  # noqa: E402


def run(tmp_path, src):
    out = tmp_path / "report.json"
    r = subprocess.run(["python3", "/app/fifo.py", str(src), str(out)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return json.loads(out.read_text())


def compare(got, exp):
    assert sorted(got) == ["cogs_by_month", "rejected", "skus"]
    assert got["rejected"] == [int(x) for x in exp["rejected"]]
    assert sorted(got["skus"]) == sorted(exp["skus"])
    for sku, e in exp["skus"].items():
        g = got["skus"][sku]
        assert g["on_hand"] == e["on_hand"], sku
        for k in ("inventory_value", "cogs", "revenue", "gross_margin", "shrinkage_cost"):
            assert g[k] == pytest.approx(e[k], abs=0.011), (sku, k)
    assert sorted(got["cogs_by_month"]) == sorted(exp["cogs_by_month"])
    for m, v in exp["cogs_by_month"].items():
        assert got["cogs_by_month"][m] == pytest.approx(v, abs=0.011), m


def test_example_file(tmp_path):
    compare(run(tmp_path, "/app/inventory/transactions.csv"), fifo_ref.run("/app/inventory/transactions.csv"))


@pytest.mark.parametrize("seed", [101, 202, 303, 404])
def test_generated(tmp_path, seed):
    src = tmp_path / "tx.csv"
    fifo_gen.gen(str(src), seed)
    compare(run(tmp_path, src), fifo_ref.run(str(src)))


def test_partial_layers_and_rejection(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("txn_id,date,sku,type,qty,unit_price\n"
                   "10,2024-01-02,A,SELL,4,9.99\n"
                   "2,2024-01-01,A,BUY,3,1.00\n"
                   "3,2024-01-01,A,BUY,5,2.00\n"
                   "11,2024-01-02,A,SELL,20,9.99\n"
                   "12,2024-01-03,A,ADJUST,-2,\n"
                   "13,2024-01-04,A,ADJUST,4,\n"
                   "14,2024-02-01,A,SELL,5,3.00\n")
    got = run(tmp_path, src)
    # sell 4: 3@1 + 1@2 = 5; write-off 2@2 = 4; left 2@2; found 4 @2 -> 6@2; sell 5 @2 = 10
    assert got["rejected"] == [11]
    a = got["skus"]["A"]
    assert a["on_hand"] == 1
    assert a["cogs"] == pytest.approx(15.0) and a["shrinkage_cost"] == pytest.approx(4.0)
    assert a["revenue"] == pytest.approx(4 * 9.99 + 15.0)
    assert a["inventory_value"] == pytest.approx(2.0)
    assert got["cogs_by_month"] == {"2024-01": pytest.approx(5.0), "2024-02": pytest.approx(10.0)}
