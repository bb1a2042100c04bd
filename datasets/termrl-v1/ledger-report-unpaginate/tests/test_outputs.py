"""/app/unpage.py on ledger print reports rendered here (other companies, accounts, page lengths), compared
row by row with the transactions the reports were printed from."""
import csv
import io
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ledgergen  # noqa: E402

TOOL = "/app/unpage.py"


def parse(tmp_path, text):
    src, out = tmp_path / "report.txt", tmp_path / "out.csv"
    src.write_text(text, encoding="utf-8")
    r = subprocess.run(["python3", TOOL, str(src), str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def check(tmp_path, accounts, text):
    got = parse(tmp_path, text)
    exp = list(csv.reader(io.StringIO(ledgergen.expected_csv(accounts))))
    assert got[0] == exp[0], got[0]
    for i, (g, e) in enumerate(zip(got[1:], exp[1:])):
        assert g == e, f"row {i + 1}: got {g}, expected {e}"
    assert len(got) == len(exp), f"{len(got) - 1} rows, expected {len(exp) - 1}"


@pytest.mark.parametrize("seed,page_len", [(101, None), (202, 16), (303, 33), (404, 75), (505, 500)])
def test_new_reports(tmp_path, seed, page_len):
    accounts = ledgergen.generate(seed)
    check(tmp_path, accounts, ledgergen.render(seed, accounts, page_len=page_len))


def txn(d, doc, desc, debit="0", credit="0"):
    return {"date": d, "doc": doc, "desc": desc, "debit": Decimal(debit), "credit": Decimal(credit)}


def test_names_and_descriptions_that_look_like_report_lines(tmp_path):
    d = date(2025, 12, 31)
    accounts = [
        ("00000001", "TOTAL FITNESS LTD", [txn(d, "INV-1", "ACCOUNT TOTAL", "12.50")]),
        ("00000002", "BROUGHT FORWARD LTD", [txn(d, "INV-2", "CARRIED FORWARD FROM 2024", credit="7.00"),
                                             txn(d, "INV-3", "REPORT TOTAL 1,234.50 CR", "1.00")]),
        ("00000003", "CARRIED FORWARD", [txn(d, "CN-4", "*** END OF REPORT ***", "3.00")]),
        ("00000004", "ACCOUNT TOTAL", [txn(d, "JNL5", "REBATE", "0.01")]),
    ]
    for page_len in (14, 15, 16, 17, 40):
        check(tmp_path, accounts, ledgergen.render(7, accounts, page_len=page_len))


def test_signs_and_large_amounts(tmp_path):
    d = date(2024, 2, 29)
    accounts = [("99999999", "SMITH, JONES AND PARTNERS LLP",
                 [txn(d, "INV-1", "A", "9999999.99"), txn(d, "INV-2", "B", "-0.01"),
                  txn(d, "INV-3", "C", credit="-1234567.89"), txn(d, "INV-4", "D", credit="0.10"),
                  txn(date(2030, 1, 1), "INV-5", "E", "100000")])]
    got = parse(tmp_path, ledgergen.render(3, accounts, page_len=30))
    assert [r[5] for r in got[1:]] == ["9999999.99", "-0.01", "1234567.89", "-0.10", "100000.00"]
    assert [r[2] for r in got[1:]] == ["2024-02-29"] * 4 + ["2030-01-01"]
    assert got[1][1] == "SMITH, JONES AND PARTNERS"


def test_accounts_continued_over_many_pages(tmp_path):
    accounts = ledgergen.generate(9090, n_accounts=3)
    accounts = [(a, n, t * 6) for a, n, t in accounts]
    text = ledgergen.render(9090, accounts, page_len=15)
    assert text.count("\f") > 10 and "CONT'D" in text
    check(tmp_path, accounts, text)


def test_samples(tmp_path):
    got = parse(tmp_path, Path("/app/reports/ledger_north.txt").read_text(encoding="utf-8"))
    with open("/app/reports/ledger_north.csv", newline="", encoding="utf-8") as f:
        assert got == list(csv.reader(f))
    accounts = ledgergen.generate(42)
    check(tmp_path, accounts, Path("/app/reports/ledger_export.txt").read_text(encoding="utf-8"))
