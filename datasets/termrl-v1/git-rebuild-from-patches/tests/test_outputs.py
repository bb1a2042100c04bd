import os
import subprocess

REPO = "/app/geodist"
EXPECTED_TIP = "adbf322f2eb069229f0d78f822d47cdb0598a4ca"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def test_trunk_tip_is_the_original_commit():
    assert git("rev-parse", "trunk").stdout.strip() == EXPECTED_TIP


def test_history_order_and_authors():
    out = git("log", "--reverse", "--format=%s|%an|%cn|%ad|%cd", "--date=iso-strict", "trunk").stdout.splitlines()
    subjects = [l.split("|")[0] for l in out]
    assert subjects == ["Import project", "Document usage", "Add initial bearing", "Use the IUGG mean Earth radius",
                        "Add unit conversions", "Add midpoint helper", "Release 1.0"]
    for line in out:
        _, an, cn, ad, cd = line.split("|")
        assert cn == "Release Bot" and ad == cd


def test_tag_points_to_release():
    assert git("cat-file", "-t", "refs/tags/v1.0").stdout.strip() == "commit", "v1.0 must be a lightweight tag"
    assert git("rev-parse", "v1.0").stdout.strip() == EXPECTED_TIP


def test_working_tree_matches_and_runs():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "trunk"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    assert os.access(os.path.join(REPO, "bin", "geodist"), os.X_OK)
    out = subprocess.run([os.path.join(REPO, "bin", "geodist"), "0", "0", "0", "1"], capture_output=True, text=True)
    assert out.stdout.strip() == "111.195"
    with open(os.path.join(REPO, "VERSION")) as fh:
        assert fh.read() == "1.0\n"


def test_recovery_untouched_and_not_bare():
    assert git("rev-parse", "--is-bare-repository").stdout.strip() == "false"
    names = sorted(os.listdir("/app/recovery/patches"))
    assert len(names) == 6 and all(n.endswith(".patch") for n in names)
    with open("/app/recovery/NOTES.md") as fh:
        assert EXPECTED_TIP in fh.read()
