import csv
import hashlib
import json
import os

EXPECTED = {
    "payroll-2026.csv": "9fc8a5abc59a83910e6732c8a0c9798eec65fcfde906a214362b5928966a0fab",
    "contracts/acme-renewal.txt": "93f5a8d1d6b42eb355a876b74194301f0f67e6ce44d25c0bf5e2812d9e7baad4",
    "contracts/nda-globex.txt": "a849bb9fc83e43503b72f0a3666a8c7cf41f3988fa6a61fd85bac39d3b17be3e",
}
OUT = "/app/exfil"


def sha(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()


def report():
    r = json.load(open("/app/exfil.json"))
    assert isinstance(r, dict) and set(r) == {"client", "domain", "session", "chunks"}, r
    return r


def test_exactly_the_stolen_files_are_recovered():
    found = []
    for d, dirs, files in os.walk(OUT):
        for n in files:
            found.append(os.path.relpath(os.path.join(d, n), OUT))
    assert sorted(found) == sorted(EXPECTED)


def test_payroll_is_intact():
    p = os.path.join(OUT, "payroll-2026.csv")
    rows = list(csv.reader(open(p, newline="")))
    assert rows[0] == ["employee_id", "name", "department", "iban", "gross_monthly_eur"]
    assert len(rows) == 91 and rows[-1][0] == "E1089", "the file is truncated or reordered"
    assert sha(p) == EXPECTED["payroll-2026.csv"], "content differs from the stolen file"


def test_contracts_are_intact():
    for name in ("contracts/acme-renewal.txt", "contracts/nda-globex.txt"):
        p = os.path.join(OUT, name)
        assert open(p, "rb").read().startswith(b"Renewal agreement" if "acme" in name else b"Mutual NDA"), name
        assert sha(p) == EXPECTED[name], name


def test_report_names_the_channel():
    r = report()
    assert r["client"] == "10.0.0.8"
    assert r["domain"] == "cdn-metrics.example"


def test_report_names_the_complete_transfer():
    r = report()
    assert r["session"] == "b7e204", "that is not the transfer that carried the complete data"
    assert r["chunks"] == 88 and type(r["chunks"]) is int


def test_evidence_untouched():
    assert sha("/srv/evidence/web03/root/.bash_history") == "b3a4326873c00f9e2af53a81583f71004187635a9518f770e517dad76ae31ae5"
    assert sha("/srv/evidence/dns01/query.log") == "988cf73c2a792abe674ed5e18963182d519caf1c196166b0dba3ae597d7a45a1"
