"""run_pipeline.sh night after night on export files generated here (other seeds than the sample), and on
small hand-made cases; reports compared with PIPELINE.md computed independently (ordersgen.expected)."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ordersgen  # noqa: E402

RUN = "/app/pipeline/run_pipeline.sh"
HDR_O = "order_id,status,amount_minor,currency,email,first_seen_at,updated_at,version\n"
FX = "date,currency,eur_per_unit\n2025-12-31,USD,0.9\n2025-12-31,GBP,1.2\n2025-12-31,JPY,0.006\n"


class Pipe:
    def __init__(self, tmp, fx=FX):
        self.inbox, self.db, self.out, self.fx = tmp / "inbox", tmp / "wh.db", tmp / "out", tmp / "fx.csv"
        self.inbox.mkdir()
        self.fx.write_text(fx)

    def night(self, files, ok=True):
        for name, body in files.items():
            (self.inbox / name).write_text(body)
        shutil.rmtree(self.out, ignore_errors=True)
        r = subprocess.run(["bash", RUN, str(self.inbox), str(self.db), str(self.out), str(self.fx)],
                           capture_output=True, text=True, timeout=600)
        if ok:
            assert r.returncode == 0, r.stderr[-2000:]
            return (self.out / "orders.csv").read_text(), (self.out / "daily_revenue.csv").read_text()
        return r


def diff(got, exp):
    g, e = got.splitlines(), exp.splitlines()
    bad = [(a, b) for a, b in zip(g, e) if a != b]
    return f"{len(g)} rows vs {len(e)} expected; first difference: got {bad[0][0]!r} expected {bad[0][1]!r}" \
        if bad else f"{len(g)} rows vs {len(e)} expected"


@pytest.mark.parametrize("seed", [5, 808])
def test_nightly_runs_match_spec(tmp_path, seed):
    nights, fx = ordersgen.generate(seed)
    p = Pipe(tmp_path, fx)
    for i, files in enumerate(nights):
        orders, revenue = p.night({name: body for name, body, _ in files})
        exp_o, exp_r = ordersgen.expected(nights[:i + 1], fx)
        assert orders == exp_o, f"night {i + 1}, orders.csv: " + diff(orders, exp_o)
        assert revenue == exp_r, f"night {i + 1}, daily_revenue.csv: " + diff(revenue, exp_r)


def app_line(order, rev, ms, state, value, ccy, email="a@x.org"):
    return json.dumps({"id": f"a{order}{rev}", "order": order, "rev": rev, "at": ms, "state": state,
                       "total": {"value": value, "ccy": ccy}, "customer": {"email": email}}) + "\n"


V1H = "order_id,event_id,ts,status,amount,currency,email,version\n"
V2H = "event_id,order_id,version,ts_utc,status,currency,amount_minor,email\n"
DAY = 86400 * 1000
T0 = 1767225600000  # 2026-01-01T00:00:00Z


def test_exact_minor_units(tmp_path):
    p = Pipe(tmp_path)
    app = "".join(app_line(f"J{i}", 1, T0 + i, "paid", v, c) for i, (v, c) in
                  enumerate([("19.99", "EUR"), ("0.29", "USD"), ("1.15", "GBP"), ("1500", "JPY"), ("4.35", "EUR"),
                             ("70", "JPY"), ("1005.13", "EUR")]))
    web = V1H + "W1,e1,2026-01-01 01:00:00+00:00,paid,0.57,EUR,b@x.org,1\n" \
                "W2,e2,2026-01-01 01:00:00+00:00,paid,98765,JPY,b@x.org,1\n"
    orders, _ = p.night({"app-1.jsonl": app, "web-1.csv": web})
    amounts = {ln.split(",")[0]: ln.split(",")[2] for ln in orders.splitlines()[1:]}
    assert amounts == {"J0": "1999", "J1": "29", "J2": "115", "J3": "1500", "J4": "435", "J5": "70",
                       "J6": "100513", "W1": "57", "W2": "98765"}
    # close 2026-01-01 and check the conversion: JPY has no minor digits
    _, rev = p.night({"app-2.jsonl": app_line("K", 1, T0 + 2 * DAY, "placed", "1", "EUR")})
    # 19.99 + 0.26 + 1.38 + 9.00 + 4.35 + 0.42 + 1005.13 + 0.57 + 592.59
    assert rev == "day,orders,revenue_eur\n2026-01-01,9,1633.69\n", rev


def test_v2_layout_and_versions_past_nine(tmp_path):
    p = Pipe(tmp_path)
    n1 = V2H + "ev10,A7,10,2026-01-01T10:00:00Z,paid,EUR,2500,a@x.org\n" \
               "ev3,A7,3,2026-01-01T05:00:00Z,placed,EUR,2000,a@x.org\n"
    n2 = V2H + "ev9,A7,9,2026-01-01T09:00:00Z,refunded,EUR,2400,a@x.org\n" \
               "ev2,A7,2,2026-01-01T04:00:00Z,placed,EUR,1900,a@x.org\n"
    p.night({"web-20260102-01.csv": n1})
    orders, _ = p.night({"web-20260103-01.csv": n2})
    assert orders == HDR_O + "A7,paid,2500,EUR,a@x.org,2026-01-01T04:00:00Z,2026-01-01T10:00:00Z,10\n"


def test_offsets_and_normalisation_decide_day(tmp_path):
    p = Pipe(tmp_path)
    web = V1H + "B1,e1,2026-01-02 01:30:00+02:00,paid,10,EUR, Mixed.Case@X.ORG ,1\n\n" \
                "B2,e2,2026-01-01 20:30:00-05:00,paid,20,EUR,b@x.org,1\n" \
                "B3,e3,2026-01-01 23:59:59+00:00,paid,40,EUR,c@x.org,1\n"
    app = app_line("B4", 1, T0 + DAY + 999, "paid", "80", "EUR", "  UPPER@Y.COM")
    orders, _ = p.night({"web-1.csv": web.replace("\n", "\r\n"), "app-1.jsonl": "\n" + app + "\n\n"})
    assert orders == HDR_O + ("B1,paid,1000,EUR,mixed.case@x.org,2026-01-01T23:30:00Z,2026-01-01T23:30:00Z,1\n"
                              "B2,paid,2000,EUR,b@x.org,2026-01-02T01:30:00Z,2026-01-02T01:30:00Z,1\n"
                              "B3,paid,4000,EUR,c@x.org,2026-01-01T23:59:59Z,2026-01-01T23:59:59Z,1\n"
                              "B4,paid,8000,EUR,upper@y.com,2026-01-02T00:00:00Z,2026-01-02T00:00:00Z,1\n")
    _, rev = p.night({"app-2.jsonl": app_line("Z", 1, T0 + 3 * DAY + 2 * 3600 * 1000, "placed", "1", "EUR")})
    assert rev == "day,orders,revenue_eur\n2026-01-01,2,50.00\n2026-01-02,2,100.00\n", rev


def test_watermark_never_goes_back(tmp_path):
    p = Pipe(tmp_path)
    first = "".join(app_line(f"C{d}", 1, T0 + d * DAY + 3600_000, "paid", "10", "EUR") for d in range(6))
    _, rev1 = p.night({"app-20260107-01.jsonl": first})
    assert rev1.count("\n") == 1 + 4, rev1  # watermark 01-06T01:00Z: 01-01 .. 01-04 are closed
    late = app_line("C0", 2, T0 + 4000_000, "refunded", "10", "EUR") + app_line("L", 1, T0 + 5000, "paid", "3", "EUR")
    _, rev2 = p.night({"app-20260108-01.jsonl": late})
    assert rev2 == rev1.replace("2026-01-01,1,10.00", "2026-01-01,1,3.00"), rev2


def test_fx_rate_on_or_before_the_day(tmp_path):
    fx = "date,currency,eur_per_unit\n2026-01-09,USD,0.95\n2026-01-05,USD,0.90\n2026-01-12,USD,0.99\n"
    p = Pipe(tmp_path, fx)
    evs = "".join(app_line(f"F{d}", 1, T0 + d * DAY, "paid", "100", "USD") for d in (4, 8, 9, 10, 12))
    _, rev = p.night({"app-1.jsonl": evs + app_line("Z", 1, T0 + 20 * DAY, "placed", "1", "EUR")})
    assert rev == ("day,orders,revenue_eur\n2026-01-05,1,90.00\n2026-01-09,1,95.00\n2026-01-10,1,95.00\n"
                   "2026-01-11,1,95.00\n2026-01-13,1,99.00\n"), rev


@pytest.mark.parametrize("bad", ["header", "json"])
def test_failed_file_is_retried_next_night(tmp_path, bad):
    p = Pipe(tmp_path)
    good1 = app_line("D1", 1, T0, "paid", "5", "EUR")
    good3 = V2H + "x,D3,1,2026-01-01T03:00:00Z,paid,EUR,700,d@x.org\n"
    if bad == "header":
        broken = "order,ts,amount\nD2,2026-01-01T02:00:00Z,6\n"
        name = "web-20260102-02.csv"
        fixed = V2H + "y,D2,1,2026-01-01T02:00:00Z,paid,EUR,600,d@x.org\n"
    else:
        name = "app-20260102-02.jsonl"
        fixed = app_line("D2", 1, T0 + 7200_000, "paid", "6", "EUR")
        broken = fixed + fixed[:40] + "\n"
    r = p.night({"app-20260102-01.jsonl": good1, name: broken, "web-20260102-03.csv": good3}, ok=False)
    assert r.returncode != 0, "the run must fail on the broken file"
    assert not (p.out / "orders.csv").exists() and not (p.out / "daily_revenue.csv").exists(), \
        "no reports may be written by a failed run"
    orders, _ = p.night({name: fixed})
    ids = [ln.split(",")[0] for ln in orders.splitlines()[1:]]
    assert ids == ["D1", "D2", "D3"], orders
