import os
import subprocess

REPO = "/app/project"
TIP = "a1cd7007305e37f7f5bf36b451ea98d470e4df2f"
BACKUP_TIP = "95d1541856980a330cd93d01e47397d86045b2e2"


def git(repo, *args, check=True):
    proc = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr[-2000:]}"
    return proc


def test_fsck_clean():
    proc = git(REPO, "fsck", "--full", "--no-dangling", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (proc.stdout + proc.stderr).lower()
    assert "missing" not in text and "corrupt" not in text and "error" not in text


def test_history_unchanged():
    assert git(REPO, "rev-parse", "main").stdout.strip() == TIP
    subjects = git(REPO, "log", "--format=%s", "main").stdout.splitlines()
    assert subjects == ["Add division", "Describe features", "Add multiplication", "Add a test", "Add usage notes",
                        "Add subtraction", "Add docs", "Add calculator"]


def test_all_contents_readable():
    proc = git(REPO, "log", "-p", "main")
    assert 'raise ZeroDivisionError("b is zero")' in proc.stdout
    assert git(REPO, "show", "main~5:src/calc.py").stdout == "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    assert "tests/test_calc.py" in git(REPO, "ls-tree", "-r", "--name-only", "main~3").stdout


def test_self_contained():
    alt = os.path.join(REPO, ".git", "objects", "info", "alternates")
    assert not os.path.exists(alt) or open(alt).read().strip() == ""
    # an independent copy of just the .git directory must be complete on its own
    subprocess.run(["rm", "-rf", "/tmp/copycheck"], check=True)
    subprocess.run(["cp", "-r", os.path.join(REPO, ".git"), "/tmp/copycheck"], check=True)
    proc = subprocess.run(["git", "--git-dir=/tmp/copycheck", "fsck", "--full", "--no-dangling"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_backup_untouched_and_clean_checkout():
    assert git("/app/backup", "rev-parse", "main").stdout.strip() == BACKUP_TIP
    assert git(REPO, "symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git(REPO, "status", "--porcelain", "--untracked-files=all").stdout == ""
