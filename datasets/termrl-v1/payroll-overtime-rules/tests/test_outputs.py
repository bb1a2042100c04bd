import csv
import json
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import pay_gen  # noqa: E402
import pay_ref  # noqa: E402

HEADER = ["emp_id", "regular_hours", "overtime_hours", "double_hours", "gross", "federal_tax", "state_tax", "net"]


def run(tmp_path, d):
    out = tmp_path / "out.csv"
    r = subprocess.run(["python3", "/app/payroll.py", f"{d}/employees.csv", f"{d}/timesheets.csv", f"{d}/period.json", str(out)],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return list(csv.reader(open(out, newline="")))


def test_example(tmp_path):
    rows = run(tmp_path, "/app/payroll")
    assert rows[0] == HEADER
    assert rows[1:] == pay_ref.run("/app/payroll/employees.csv", "/app/payroll/timesheets.csv", "/app/payroll/period.json")


@pytest.mark.parametrize("seed", [41, 42, 43])
def test_generated(tmp_path, seed):
    pay_gen.gen(str(tmp_path), seed)
    rows = run(tmp_path, tmp_path)
    assert rows[1:] == pay_ref.run(f"{tmp_path}/employees.csv", f"{tmp_path}/timesheets.csv", f"{tmp_path}/period.json")


def test_handpicked(tmp_path):
    (tmp_path / "employees.csv").write_text(
        "emp_id,name,hourly_rate,type,annual_salary,state\n"
        "A,Ann,20.00,hourly,,NY\n"
        "S,Sal,,salaried,52000,CA\n")
    ts = "emp_id,date,clock_in,clock_out\n"
    # Mon 2024-03-04 .. Sun 2024-03-10: five 9h30 shifts (9h after break) = 45h, plus Sunday 22:00-11:00 (13h -> 12.5h)
    for d in range(4, 9):
        ts += f"A,2024-03-{d:02d},08:00,17:30\n"
    ts += "A,2024-03-10,22:00,11:00\nA,2024-03-10,22:00,11:00\nA,2024-03-11,09:00,12:07\nA,2024-03-12,09:00,12:08\n"
    (tmp_path / "timesheets.csv").write_text(ts)
    (tmp_path / "period.json").write_text(json.dumps({"start": "2024-03-04", "end": "2024-03-17"}))
    rows = run(tmp_path, tmp_path)
    # week 1: 45 + 12 (day capped) = 57 non-double -> 40 reg + 17 OT; 0.5 double; Sunday 12.5h premium
    # week 2: 3.0 + 3.25 = 6.25 reg
    gross = 20 * (40 + 6.25) + 30 * 17 + 40 * 0.5 + 2 * 12.5
    assert rows[1][:5] == ["A", "46.25", "17.00", "0.50", f"{gross:.2f}"]
    assert rows[1][5:] == [f"{gross * 0.12:.2f}", f"{gross * 0.06:.2f}", f"{gross - round(gross * 0.12, 2) - round(gross * 0.06, 2):.2f}"]
    assert rows[2] == ["S", "0.00", "0.00", "0.00", "2000.00", "240.00", "100.00", "1660.00"]
