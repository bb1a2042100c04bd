"""/app/normalize.py on order events generated here (every app generation, mixed), compared with the
canonical rows the retired normaliser produced; and the three history exports reproduced."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import driftgen  # noqa: E402

TOOL = "/app/normalize.py"
RNG = random.Random(random.getrandbits(64))


def run(tmp_path, text):
    src, out = tmp_path / "events.jsonl", tmp_path / "out.csv"
    src.write_text(text, encoding="utf-8")
    r = subprocess.run(["python3", TOOL, str(src), str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return out.read_bytes().decode("utf-8")


def compare(got, want, what):
    g, w = got.splitlines(), want.splitlines()
    for i, (a, b) in enumerate(zip(g, w)):
        assert a == b, f"{what}, line {i + 1}:\n got      {a}\n expected {b}"
    assert len(g) == len(w), f"{what}: {len(g) - 1} rows, expected {len(w) - 1}"
    assert got == want, f"{what}: same lines, different bytes (line endings?)"


def test_history_reproduced(tmp_path):
    for k in (1, 2, 3):
        d = Path("/app/history")
        compare(run(tmp_path, (d / f"export-{k}.jsonl").read_text(encoding="utf-8")),
                (d / f"export-{k}.csv").read_text(encoding="utf-8"), f"export-{k}")


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
def test_each_generation(tmp_path, version):
    text, want = driftgen.batch(RNG, 60, versions=(version,))
    compare(run(tmp_path, text), want, f"generation {version} events")


def test_mixed_nights(tmp_path):
    for k in range(3):
        d = tmp_path / str(k)
        d.mkdir()
        text, want = driftgen.batch(RNG, RNG.randint(100, 400))
        compare(run(d, text), want, f"mixed export {k}")


def test_redeliveries_and_events_without_email(tmp_path):
    import json
    a = {"order_id": "00004711", "ts": "2024-02-29T23:59:59Z", "amount_cents": 1999, "currency": "chf",
         "customer_name": "Zoë Ärger", "customer_email": " Zoe@Example.COM", "express": False}
    b = {"ts_ms": 1709251199999, "order_id": "ORD-12", "customer": {"id": "C1"}, "shipping": {"method": "express"},
         "items": [{"sku": "S", "qty": 1, "price": "1.00"}]}
    c = {"orderId": 5, "ts": 1709251200, "amount": 100, "currency": "EUR",
         "customer": {"name": "Bo", "email": "bo@example.com"}, "express": "N"}
    text = "\n".join(json.dumps(x) for x in (a, b, c, a, c)) + "\n"
    compare(run(tmp_path, text),
            "order_id,placed_at,customer_email,customer_name,amount_cents,currency,express,items\n"
            "5,2024-03-01 00:00:00,bo@example.com,Bo,100,EUR,0,\n"
            "4711,2024-02-29 23:59:59,zoe@example.com,Zoë Ärger,1999,CHF,0,\n", "hand-made events")
