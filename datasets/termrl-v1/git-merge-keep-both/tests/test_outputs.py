import os
import re
import subprocess
import sys

import pytest

REPO = "/app/repo"
MAIN_TIP = "Add sales tax"
FEATURE_TIP = "Support discount codes"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def load_total():
    src = git("show", "main:shop/pricing.py").stdout
    ns = {}
    exec(compile(src, "pricing.py", "exec"), ns)
    return ns


def test_real_merge_commit():
    parents = git("log", "-1", "--format=%P", "main").stdout.split()
    assert len(parents) == 2
    subj = [git("log", "-1", "--format=%s", p).stdout.strip() for p in parents]
    assert subj == [MAIN_TIP, FEATURE_TIP]
    assert git("log", "-1", "--format=%s", "feature/discounts").stdout.strip() == FEATURE_TIP
    assert git("rev-parse", "feature/discounts").stdout.strip() == parents[1]


def test_discount_then_tax():
    ns = load_total()
    total = ns["total"]
    assert total([(10.0, 2)], 0.2, "SAVE10") == 21.6
    assert total([(19.99, 3), (0.5, 7)], tax_rate=0.07, discount="HALF") == round((59.97 + 3.5) * 0.5 * 1.07, 2)
    assert total([(3.0, 3)], discount="SAVE10") == 8.1
    assert total([(3.0, 3)], tax_rate=0.1) == 9.9
    assert total([]) == 0.0
    assert ns["DISCOUNT_CODES"] == {"SAVE10": 0.10, "HALF": 0.50}


def test_validation_from_both_branches():
    total = load_total()["total"]
    with pytest.raises(ValueError):
        total([(1.0, 1)], discount="FREE")
    with pytest.raises(ValueError):
        total([(1.0, 1)], tax_rate=-0.1)
    with pytest.raises(ValueError):
        total([(1.0, -2)])


def test_repository_tests_pass_and_kept():
    tests = git("show", "main:tests/test_pricing.py").stdout
    for name in ("test_total_plain", "test_discount_codes", "test_tax"):
        assert f"def {name}" in tests
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]
    # the three tests of both branches run and pass; extra tests of the agent's own are allowed
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) >= 3, proc.stdout[-2000:]


def test_changelog_has_both_entries():
    text = git("show", "main:CHANGELOG.md").stdout
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    section = text.split("## Unreleased", 1)[1]
    assert "- Sales tax via tax_rate" in section
    assert "- Discount codes SAVE10 and HALF" in section


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    assert not os.path.exists(os.path.join(REPO, ".git", "MERGE_HEAD"))
