import subprocess

REPO = "/app/repo"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def subjects(rev_range):
    return git("log", "--reverse", "--format=%s", rev_range).stdout.splitlines()


def test_branch_holds_three_hotfix_commits_on_tag():
    assert git("rev-parse", "--verify", "refs/heads/hotfix-1.2", check=False).returncode == 0
    assert subjects("v1.2..hotfix-1.2") == [
        "Raise ValueError for unknown units",
        "Add convert_all helper",
        "Support feet",
    ]


def test_tip_is_original_commit_object():
    # The original commits carry their original dates and are children of v1.2 directly.
    fmt = git("log", "-1", "--format=%an|%ad|%cd", "--date=iso-strict", "hotfix-1.2").stdout.strip()
    assert fmt == "Priya Raman|2025-01-17T15:10:00+00:00|2025-01-17T15:10:00+00:00"
    first = git("rev-list", "--reverse", "v1.2..hotfix-1.2").stdout.split()[0]
    parent = git("rev-parse", first + "^").stdout.strip()
    assert parent == git("rev-parse", "v1.2^{commit}").stdout.strip()
    # Exactly the commit that HEAD pointed to when the work was abandoned.
    reflog = git("log", "-g", "--format=%H %s", "HEAD").stdout.splitlines()
    originals = [line.split(" ", 1)[0] for line in reflog if line.split(" ", 1)[1] == "Support feet"]
    assert git("rev-parse", "hotfix-1.2").stdout.strip() in originals


def test_hotfix_content():
    src = git("show", "hotfix-1.2:units.py").stdout
    ns = {}
    exec(src, ns)
    assert abs(ns["convert"](3, "ft", "in") - 36.0) < 1e-9
    assert ns["convert_all"]([1, 2], "km", "m") == [1000.0, 2000.0]
    try:
        ns["convert"](1, "yd", "m")
    except ValueError:
        pass
    else:
        raise AssertionError("unknown unit must raise ValueError")


def test_existing_refs_unchanged():
    assert subjects("main") == [
        "Initial unit converter", "Support inches", "List supported units", "Add license note",
    ]
    assert subjects("experiment") == [
        "Initial unit converter", "Support inches", "List supported units",
        "Experiment with output formats", "Try engineering notation",
    ]
    assert subjects("v1.2") == ["Initial unit converter", "Support inches"]
    assert git("cat-file", "-t", "v1.2").stdout.strip() == "tag"


def test_main_checked_out_and_clean():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
