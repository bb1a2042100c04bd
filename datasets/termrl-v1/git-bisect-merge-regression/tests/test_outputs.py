import json
import os
import random
import shutil
import subprocess
import tempfile
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal

REPO = "/app/shop"
OLD_MAIN = "a8e55c51e2d621807be546097a5d53137e8d8765"
CULPRIT = "b611ae4a9b4a0dc8625ad853ed4229cf7037656d"     # the merge of feature/decimal
CULPRIT_PARENT = "42e2006a0ff020a289109cf759f881ac11e2ca8b"
TEST_FILE = "tests/test_coupon_regression.py"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def run_regression_test_at(rev):
    """Run main's regression test against the code of `rev`; returns pytest's exit status."""
    test = git("show", f"main:{TEST_FILE}")
    tmp = tempfile.mkdtemp()
    try:
        archive = subprocess.run(["git", "-C", REPO, "archive", rev], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        os.makedirs(f"{tmp}/tests", exist_ok=True)
        with open(f"{tmp}/{TEST_FILE}", "w") as fh:
            fh.write(test)
        proc = subprocess.run(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST_FILE], cwd=tmp,
                              capture_output=True, text=True)
        return proc.returncode, proc.stdout[-1500:]
    finally:
        shutil.rmtree(tmp)


def model(order):
    sub = sum((Decimal(i["price"]) * i["qty"] for i in order["items"]), Decimal(0))
    code = order.get("coupon")
    if code and code.startswith("FIXED"):
        sub = max(sub - Decimal(code[5:]), Decimal(0))
    elif code:
        sub -= (sub * int(code[3:]) / 100).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)
    return "TOTAL " + str(sub.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def quotes(orders):
    code = "import json, sys\nfrom pricing.quote import quote\nfor o in json.load(sys.stdin):\n    print(quote(o))\n"
    proc = subprocess.run(["python3", "-c", code], cwd=REPO, input=json.dumps(orders), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_first_bad_commit():
    with open("/app/first_bad_commit.txt") as fh:
        assert fh.read().strip() == CULPRIT


def test_regression_test_tells_culprit_from_parent():
    assert TEST_FILE in git("ls-tree", "-r", "--name-only", "main").split()
    rc, out = run_regression_test_at(CULPRIT)
    assert rc == 1, f"the regression test must fail (not error) on the first bad commit:\n{out}"
    rc, out = run_regression_test_at(CULPRIT_PARENT)
    assert rc == 0, f"the regression test must pass on the first bad commit's first parent:\n{out}"
    rc, out = run_regression_test_at("main")
    assert rc == 0, out


def test_coupons_fixed_on_main():
    rng = random.Random()
    orders = []
    for _ in range(150):
        items = [{"sku": f"s{k}", "price": f"{rng.randint(0, 300)}.{rng.randint(0, 99):02d}", "qty": rng.randint(1, 6)}
                 for k in range(rng.randint(1, 4))]
        orders.append({"items": items, "coupon": rng.choice([None, "FIXED5", "FIXED20", "PCT10", "PCT25"])})
    got = quotes(orders)
    want = [model(o) for o in orders]
    bad = [(o, g, w) for o, g, w in zip(orders, got, want) if g != w]
    assert not bad, bad[:5]


def test_decimal_amounts_kept():
    got = quotes([{"items": [{"sku": "a", "price": "0.125", "qty": 3}]},
                  {"items": [{"sku": "b", "price": "2.005", "qty": 1}, {"sku": "c", "price": "1.10", "qty": 2}]}])
    assert got == ["TOTAL 0.38", "TOTAL 4.21"]
    assert "Decimal" in git("show", "main:pricing/money.py")


def test_history_kept_and_suite_passes():
    assert subprocess.run(["git", "-C", REPO, "merge-base", "--is-ancestor", OLD_MAIN, "main"]).returncode == 0
    assert git("rev-parse", "main").strip() != OLD_MAIN
    proc = subprocess.run(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git("status", "--porcelain") == ""
    assert not os.path.exists(os.path.join(REPO, ".git", "BISECT_LOG"))
