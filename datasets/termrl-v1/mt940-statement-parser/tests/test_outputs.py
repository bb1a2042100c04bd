"""/app/mt940.py on MT940 files generated here and on hand-made statements; the expected transactions are
the generated ones, not the output of a second parser."""
import csv
import io
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import mtgen  # noqa: E402

TOOL = "/app/mt940.py"
RNG = random.Random(random.getrandbits(64))


def run(tmp_path, data):
    src, out = tmp_path / "statements.sta", tmp_path / "out.csv"
    src.write_bytes(data)
    r = subprocess.run(["python3", TOOL, str(src), str(out)], capture_output=True, text=True, timeout=120)
    assert out.exists(), f"no {out} written (exit {r.returncode}): {r.stderr[-1500:]}"
    return r, out.read_bytes().decode("utf-8")


def compare(got, want):
    g = list(csv.reader(io.StringIO(got, newline="")))
    w = list(csv.reader(io.StringIO(want, newline="")))
    for i, (a, b) in enumerate(zip(g, w)):
        assert a == b, f"row {i}:\n got      {a}\n expected {b}"
    assert len(g) == len(w), f"{len(g) - 1} transactions, expected {len(w) - 1}"
    assert got == want, "same rows, but not written as Python's csv module writes them with \\n line ends"


def unbalanced(r):
    return sorted(l.strip() for l in r.stderr.splitlines() if l.startswith("unbalanced:"))


def test_generated_statements(tmp_path):
    for k in range(4):
        d = tmp_path / str(k)
        d.mkdir()
        data, want, bad = mtgen.file(RNG, RNG.randint(1, 6))
        r, got = run(d, data)
        assert r.returncode == 0, f"exit {r.returncode} for balanced statements: {r.stderr[-1500:]}"
        assert unbalanced(r) == []
        compare(got, want)


def test_unbalanced_statements_are_reported(tmp_path):
    while True:
        data, want, bad = mtgen.file(RNG, 8, unbalanced_share=0.4)
        if bad:
            break
    r, got = run(tmp_path, data)
    assert r.returncode == 1, f"exit {r.returncode}, expected 1 for unbalanced statements"
    assert unbalanced(r) == bad
    compare(got, want)


def test_large_file(tmp_path):
    data, want, bad = mtgen.file(RNG, 250)
    r, got = run(tmp_path, data)
    assert r.returncode == 0 and unbalanced(r) == [], r.stderr[-1500:]
    compare(got, want)


HEAD = "account,statement,booking_date,value_date,amount,currency,type,reference,bank_reference,counterparty,purpose\n"


def test_marks_funds_codes_and_year_boundaries(tmp_path):
    text = "\r\n".join([
        ":20:STARTUMS", ":25:DE89370400440532013000", ":28C:7/2", ":60M:D241230EUR1000,",
        ":61:2412311231C100,NTRFNONREF",            # credit
        ":61:2412310102D0,50NCHGNONREF//CHG1",      # debit booked 2 Jan of the next year
        ":61:2501011230RC20,00NTRFREF-1//B1",       # reversal of a credit: money goes out; booked the year before
        ":61:250101RD3,NMSCREF-2",                  # reversal of a debit: money comes in
        "/OCMT/EUR3,/",
        ":61:2501020102CR12,34NTRFKREF+7//99",      # credit with funds code R
        ":61:2501020103DR1,NDDTEREF/1/2//",         # debit with funds code R, empty bank reference
        ":61:2501020101RCR5,5NTRFNONREF",           # reversal of a credit, funds code R, one decimal digit
        ":62M:D250102EUR911,66",
        "-", ""])
    r, got = run(tmp_path, text.encode("latin-1"))
    assert r.returncode == 0 and unbalanced(r) == [], r.stderr[-1500:]
    a = "DE89370400440532013000,7/2"
    compare(got, HEAD + "\n".join([
        f"{a},2024-12-31,2024-12-31,100.00,EUR,NTRF,NONREF,,,",
        f"{a},2025-01-02,2024-12-31,-0.50,EUR,NCHG,NONREF,CHG1,,",
        f"{a},2024-12-30,2025-01-01,-20.00,EUR,NTRF,REF-1,B1,,",
        f"{a},2025-01-01,2025-01-01,3.00,EUR,NMSC,REF-2,,,",
        f"{a},2025-01-02,2025-01-02,12.34,EUR,NTRF,KREF+7,99,,",
        f"{a},2025-01-03,2025-01-02,-1.00,EUR,NDDT,EREF/1/2,,,",
        f"{a},2025-01-01,2025-01-02,-5.50,EUR,NTRF,NONREF,,,"]) + "\n")


def test_wrapped_details_and_latin1(tmp_path):
    text = "\n".join([
        ":20:MT940-1", ":25:50010517/648489890", ":28C:00001/001", ":60F:C250301EUR0,",
        ":61:2503030303C1500,00NTRFNONREF//B77",
        ":86:166?00GUTSCHRIFT?101234?20Miete M", "ärz Wohnung 3?21 OG links?", "30COLSDE33XXX?31DE1234?32Müller & Söhne Gm",
        "bH Immobilienverwal?33tung",
        ":61:2503040304D19,99NDDTNONREF",
        ":86:Kartenzahlung 17.03. 12:40 B", "äckerei ?20 not a subfield",
        ":61:2503050305D0,01NCHGNONREF",
        ":86:805?00ENTGELT?20?21Geb", "ühr?32",
        ":62F:C250305EUR1480,00", ":64:C250305EUR1480,00",
        "-", ""])
    r, got = run(tmp_path, text.encode("latin-1"))
    assert r.returncode == 0 and unbalanced(r) == [], r.stderr[-1500:]
    a = "50010517/648489890,00001/001"
    compare(got, HEAD + "\n".join([
        f"{a},2025-03-03,2025-03-03,1500.00,EUR,NTRF,NONREF,B77,Müller & Söhne GmbH Immobilienverwaltung,Miete März Wohnung 3 OG links",
        f"{a},2025-03-04,2025-03-04,-19.99,EUR,NDDT,NONREF,,,Kartenzahlung 17.03. 12:40 Bäckerei ?20 not a subfield",
        f"{a},2025-03-05,2025-03-05,-0.01,EUR,NCHG,NONREF,,,Gebühr"]) + "\n")
