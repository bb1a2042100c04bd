"""Builds /app/shop deterministically: a price calculator whose fixed-amount coupons broke in a merge whose
two sides each worked (amounts in cents on one side, Decimal euros on the other)."""
import os
import subprocess
from pathlib import Path

REPO = Path("/app/shop")
ENV = dict(os.environ)
tick = [0]
PEOPLE = [("Lea Schulz", "lea@example.de"), ("Omar Farouk", "omar@example.eg")]


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True, text=True).stdout.strip()


def write(path, text):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def stamp(who):
    tick[0] += 1
    d = f"2025-09-{1 + tick[0] // 4:02d}T{9 + tick[0] % 4 * 2:02d}:{(tick[0] * 13) % 60:02d}:00 +0200"
    ENV.update(GIT_AUTHOR_NAME=who[0], GIT_AUTHOR_EMAIL=who[1], GIT_COMMITTER_NAME=who[0],
               GIT_COMMITTER_EMAIL=who[1], GIT_AUTHOR_DATE=d, GIT_COMMITTER_DATE=d)


def commit(msg, who=0, files=None):
    for path, text in (files or {}).items():
        write(path, text)
    stamp(PEOPLE[who])
    git("add", "-A")
    git("commit", "-q", "-m", msg)


CLI = '''import json
import sys

from pricing.quote import quote


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "quote":
        sys.exit("usage: python3 -m pricing quote ORDER.json")
    with open(sys.argv[2]) as fh:
        order = json.load(fh)
    print(quote(order))


main()
'''
QUOTE_CENTS = '''from pricing.money import fmt, to_cents


def subtotal(order):
    return sum(to_cents(item["price"]) * item["qty"] for item in order["items"])


def quote(order):
    return "TOTAL " + fmt(subtotal(order))
'''
MONEY_CENTS = '''def to_cents(text):
    """'12.50' -> 1250"""
    euros, _, cents = text.partition(".")
    return int(euros) * 100 + int((cents + "00")[:2])


def fmt(cents):
    return f"{cents // 100}.{cents % 100:02d}"
'''
COUPONS = '''"""Coupon codes. Fixed amounts are in cents, like every amount in this package."""

COUPONS = {
    "FIXED5": ("fixed", 500),
    "FIXED20": ("fixed", 2000),
    "PCT10": ("percent", 10),
    "PCT25": ("percent", 25),
}


def apply_coupon(amount, code):
    if code is None:
        return amount
    kind, value = COUPONS[code]
    if kind == "fixed":
        return max(amount - value, 0)
    return amount - amount * value // 100
'''
QUOTE_COUPONS = '''from pricing.coupons import apply_coupon
from pricing.money import fmt, to_cents


def subtotal(order):
    return sum(to_cents(item["price"]) * item["qty"] for item in order["items"])


def quote(order):
    return "TOTAL " + fmt(apply_coupon(subtotal(order), order.get("coupon")))
'''
MONEY_DECIMAL = '''from decimal import ROUND_HALF_UP, Decimal


def to_amount(text):
    """'12.50' -> Decimal('12.50') (euros)"""
    return Decimal(text)


def fmt(amount):
    return str(Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
'''
QUOTE_DECIMAL = '''from pricing.money import fmt, to_amount


def subtotal(order):
    return sum((to_amount(item["price"]) * item["qty"] for item in order["items"]), start=0)


def quote(order):
    return "TOTAL " + fmt(subtotal(order))
'''
QUOTE_MERGED = '''from pricing.coupons import apply_coupon
from pricing.money import fmt, to_amount


def subtotal(order):
    return sum((to_amount(item["price"]) * item["qty"] for item in order["items"]), start=0)


def quote(order):
    return "TOTAL " + fmt(apply_coupon(subtotal(order), order.get("coupon")))
'''

subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
commit("Price calculator", 0, {"pricing/__init__.py": "", "pricing/__main__.py": CLI, "pricing/quote.py": QUOTE_CENTS,
                              "pricing/money.py": MONEY_CENTS, ".gitignore": "__pycache__/\n",
                              "README.md": "# shop pricing\n\n`python3 -m pricing quote order.json`\n",
                              "tests/test_money.py": "from pricing.money import fmt\n\n\ndef test_fmt():\n    assert fmt(1250) == '12.50'\n"})
commit("Add example order", 1, {"examples/order.json": '{"items": [{"sku": "mug", "price": "8.90", "qty": 2}]}\n'})
git("tag", "v1.0")
base = git("rev-parse", "HEAD")

# the decimal branch starts here
git("checkout", "-q", "-b", "feature/decimal")
commit("Use Decimal euros instead of integer cents", 1, {"pricing/money.py": MONEY_DECIMAL, "pricing/quote.py": QUOTE_DECIMAL,
       "tests/test_money.py": "from decimal import Decimal\n\nfrom pricing.money import fmt\n\n\ndef test_fmt():\n    assert fmt(Decimal('12.5')) == '12.50'\n"})
commit("Round half up when printing", 1, {"README.md": "# shop pricing\n\n`python3 -m pricing quote order.json`\n\nAmounts are Decimal euros.\n"})
commit("Accept prices with more decimals", 1, {"tests/test_prices.py": "from pricing.money import to_amount\n\n\ndef test_three_decimals():\n    assert str(to_amount('0.125')) == '0.125'\n"})

# meanwhile on main
git("checkout", "-q", "main")
commit("Coupon codes", 0, {"pricing/coupons.py": COUPONS, "pricing/quote.py": QUOTE_COUPONS,
       "tests/test_coupons.py": "from pricing.coupons import apply_coupon\n\n\ndef test_fixed():\n    assert apply_coupon(1000, 'FIXED5') == 500\n\n\ndef test_percent():\n    assert apply_coupon(1000, 'PCT10') == 900\n"})
commit("Document coupons", 0, {"README.md": "# shop pricing\n\n`python3 -m pricing quote order.json`\n\nOrders may carry a `coupon` code.\n"})
commit("Example order with a coupon", 0, {"examples/coupon.json": '{"items": [{"sku": "mug", "price": "8.90", "qty": 2}], "coupon": "FIXED5"}\n'})
# the merge: README conflicts and is resolved by hand; quote.py is resolved to the decimal version + coupons
stamp(PEOPLE[1])
subprocess.run(["git", "merge", "-q", "--no-ff", "-m", "Merge branch 'feature/decimal'", "feature/decimal"],
               cwd=REPO, env=ENV, capture_output=True)
write("README.md", "# shop pricing\n\n`python3 -m pricing quote order.json`\n\nAmounts are Decimal euros. "
      "Orders may carry a `coupon` code.\n")
write("pricing/quote.py", QUOTE_MERGED)
write("tests/test_money.py", "from decimal import Decimal\n\nfrom pricing.money import fmt\n\n\ndef test_fmt():\n    assert fmt(Decimal('12.5')) == '12.50'\n")
git("add", "-A")
git("commit", "-q", "--no-edit")
git("branch", "-q", "-D", "feature/decimal")
# later work on main
commit("Add CHANGELOG", 0, {"CHANGELOG.md": "# Changelog\n\n- 2.0: Decimal amounts, coupons\n"})
git("tag", "v2.0")
commit("WIP: split the CLI", 1, {"pricing/__main__.py": CLI.replace("def main():", "def main()")})   # does not even run
commit("Finish splitting the CLI", 1, {"pricing/__main__.py": CLI})
commit("Add a second example", 0, {"examples/big.json": '{"items": [{"sku": "desk", "price": "249.00", "qty": 1}, {"sku": "lamp", "price": "19.99", "qty": 3}], "coupon": "PCT10"}\n'})
commit("Tidy README", 1, {"README.md": "# shop pricing\n\nQuote an order: `python3 -m pricing quote order.json`.\n\nAmounts are Decimal euros. Orders may carry a `coupon` code.\n"})
