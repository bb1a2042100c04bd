"""Builds /app/repo deterministically: fixed identities and dates give fixed hashes."""
import os
import subprocess
from pathlib import Path

REPO = Path("/app/repo")
ENV = dict(os.environ, GIT_AUTHOR_NAME="Mateo Silva", GIT_AUTHOR_EMAIL="mateo@example.net",
           GIT_COMMITTER_NAME="Mateo Silva", GIT_COMMITTER_EMAIL="mateo@example.net")
tick = [0]


def git(*args):
    subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, stdout=subprocess.DEVNULL)


def write(path, text):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def commit(msg):
    tick[0] += 1
    day, hour = divmod(tick[0], 8)
    date = f"2025-02-{1 + day:02d}T{9 + hour:02d}:15:00 +0000"
    ENV["GIT_AUTHOR_DATE"] = ENV["GIT_COMMITTER_DATE"] = date
    git("add", "-A")
    git("commit", "-q", "-m", msg)


MONEY_GOOD = '''from decimal import ROUND_HALF_UP, Decimal


def to_cents(amount):
    """Round a Decimal amount to whole cents, halves away from zero."""
    return Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def fmt(amount):
    return f"{to_cents(amount):.2f}"
'''

MONEY_BAD = '''from decimal import Decimal


def to_cents(amount):
    """Round an amount to whole cents."""
    return Decimal(str(round(float(amount), 2)))


def fmt(amount):
    return f"{to_cents(amount):.2f}"
'''

CLI = '''import sys
from decimal import Decimal

from invoice.money import fmt, to_cents
from invoice.taxes import RATES


def line_total(qty, price, code):
    return to_cents(Decimal(qty) * Decimal(price) * (1 + RATES[code]))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    total = Decimal("0")
    with open(argv[0]) as fh:
        for raw in fh:
            raw = raw.strip()
            if not raw or raw.startswith("#"):
                continue
            item, qty, price, code = [f.strip() for f in raw.split(",")]
            line = line_total(qty, price, code)
            print(f"{item:<20}{fmt(line):>10}")
            total += line
    print(f"{'TOTAL':<20}{fmt(total):>10}")


if __name__ == "__main__":
    main()
'''

DATES_OLD = '''import datetime


def header_date(d: datetime.date) -> str:
    return d.strftime("%d/%m/%Y")
'''

TEST_DATES = '''import datetime

from invoice.dates import header_date


def test_header_date():
    assert header_date(datetime.date(2025, 3, 9)) == "09/03/2025"
'''

TEST_MONEY = '''from decimal import Decimal

from invoice.money import fmt


def test_fmt_plain():
    assert fmt(Decimal("12.3")) == "12.30"
'''

git_init = subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")

taxes = {"STD": "0.20", "ZERO": "0"}


def write_taxes():
    body = "from decimal import Decimal\n\nRATES = {\n"
    body += "".join(f'    "{k}": Decimal("{v}"),\n' for k, v in taxes.items())
    body += "}\n"
    write("invoice/taxes.py", body)


write("invoice/__init__.py", "")
write("invoice/money.py", MONEY_GOOD)
write("invoice/__main__.py", "from invoice.cli import main\n\nmain()\n")
write("invoice/cli.py", CLI)
write("invoice/dates.py", DATES_OLD)
write_taxes()
write("tests/test_money.py", TEST_MONEY)
write("tests/test_dates.py", TEST_DATES)
write("sample.csv", "# item, qty, unit price, tax code\nwidget, 1, 0.125, ZERO\ngadget, 3, 2.675, ZERO\n"
      "bolt, 7, 0.35, STD\ncable, 2, 10.005, ZERO\n")
write(".gitignore", "__pycache__/\n*.pyc\n.pytest_cache/\n")
write("README.md", "# invoice\n\nRun `python3 -m invoice sample.csv`.\n")
write("CHANGELOG.md", "# Changelog\n")
commit("Initial invoice calculator")
git("tag", "v1.0")

new_codes = [("RED", "0.05"), ("SUPER", "0.025"), ("LUX", "0.30"), ("FOOD", "0.07"), ("BOOK", "0.06"),
             ("KIDS", "0.04"), ("MED", "0.02"), ("AUTO", "0.19"), ("FUEL", "0.16"), ("TOUR", "0.10"),
             ("ART", "0.12"), ("WINE", "0.22"), ("BEER", "0.21"), ("TOBA", "0.35"), ("EDU", "0.01"),
             ("GOV", "0.00"), ("EXP", "0.00"), ("IMP", "0.08"), ("DIG", "0.17"), ("SPRT", "0.09")]
changelog = ["# Changelog"]


def log_change(line):
    changelog.append(f"- {line}")
    write("CHANGELOG.md", "\n".join(changelog) + "\n")


step = 0
for i in range(1, 49):
    if i == 24:
        # A broken work-in-progress commit: the CLI does not even import.
        write("invoice/cli.py", CLI.replace("def main(argv=None):", "def main(argv=None)"))
        commit("WIP: start refactoring the CLI")
        continue
    if i == 25:
        write("invoice/cli.py", CLI)
        commit("Finish CLI refactoring")
        continue
    if i == 20:
        write("invoice/dates.py", DATES_OLD.replace('"%d/%m/%Y"', '"%Y-%m-%d"'))
        log_change("headers use ISO dates")
        commit("Use ISO dates in headers")
        continue
    if i == 31:
        write("invoice/money.py", MONEY_BAD)
        commit("Simplify money helpers")
        continue
    if i % 2 == 0 and step < len(new_codes):
        code, rate = new_codes[step]
        step += 1
        taxes[code] = rate
        write_taxes()
        commit(f"Add tax code {code}")
    else:
        log_change(f"maintenance release note {i}")
        commit(f"Update changelog ({i})")
