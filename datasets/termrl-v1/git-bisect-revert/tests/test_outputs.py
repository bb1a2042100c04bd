import os
import subprocess
import tempfile

REPO = "/app/repo"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def commit_by_subject(subject, rev="main"):
    lines = git("log", "--format=%H%x09%s", rev).stdout.splitlines()
    hits = [h for h, s in (l.split("\t", 1) for l in lines) if s == subject]
    assert len(hits) == 1, hits
    return hits[0]


def run_invoice(csv_text):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as fh:
        fh.write(csv_text)
    try:
        proc = subprocess.run(["python3", "-m", "invoice", fh.name], cwd=REPO, capture_output=True, text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_first_bad_commit_identified():
    with open("/app/first_bad_commit.txt") as fh:
        value = fh.read().strip()
    assert value == commit_by_subject("Simplify money helpers", "v1.0..main^")


def test_history_kept_and_revert_on_top():
    original_tip = commit_by_subject("Update changelog (48)")
    assert git("merge-base", "--is-ancestor", original_tip, "main", check=False).returncode == 0
    assert git("rev-list", "--count", "main").stdout.strip() != "49"
    assert git("rev-list", "--count", f"{original_tip}..main").stdout.strip() in {"1", "2"}


def test_rounding_restored_on_new_inputs():
    out = run_invoice("a, 1, 0.125, ZERO\nb, 1, 1.005, ZERO\nc, 3, 0.115, ZERO\nd, 1, 2.5, RED\n")
    lines = [l.split() for l in out.splitlines()]
    assert lines[0] == ["a", "0.13"]
    assert lines[1] == ["b", "1.01"]
    assert lines[2] == ["c", "0.35"]
    assert lines[3] == ["d", "2.63"]
    assert lines[4] == ["TOTAL", "4.12"]


def test_later_changes_kept():
    taxes = git("show", "main:invoice/taxes.py").stdout
    for code in ("RED", "SPRT", "DIG", "WINE"):
        assert f'"{code}"' in taxes
    assert 'strftime("%Y-%m-%d")' in git("show", "main:invoice/dates.py").stdout
    out = run_invoice("x, 2, 10, SPRT\n")
    assert out.splitlines()[-1].split() == ["TOTAL", "21.80"]
    changelog = git("show", "main:CHANGELOG.md").stdout
    assert "maintenance release note 48" in changelog and "headers use ISO dates" in changelog


def test_sample_total():
    out = subprocess.run(["python3", "-m", "invoice", "sample.csv"], cwd=REPO, capture_output=True, text=True).stdout
    assert "TOTAL                    31.11" in out.splitlines()


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain").stdout == ""
    assert not os.path.exists(os.path.join(REPO, ".git", "BISECT_LOG"))
