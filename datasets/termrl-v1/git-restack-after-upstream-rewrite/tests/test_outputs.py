import os
import subprocess

REPO = "/app/repo"


def git(*args):
    return subprocess.run(["git", "-C", REPO, *args], check=True, capture_output=True, text=True).stdout.strip()


def subjects(rng):
    return git("log", "--format=%s", rng).splitlines()


OWN = {
    "CLI: support pow": ("Dev Patel", "dev@calc.example", "1700018000 +0100", ["calc/main.py"]),
    "Docs: document pow": ("Dev Patel", "dev@calc.example", "1700021600 +0100", ["README.md"]),
    "Add mod operation": ("Kim Ode", "kim@calc.example", "1700025200 +0100", ["calc/ops.py"]),
    "CLI: support mod": ("Kim Ode", "kim@calc.example", "1700028800 +0100", ["calc/main.py"]),
    "Test mod": ("Kim Ode", "kim@calc.example", "1700032400 +0100", ["calc/test_mod.py"]),
}


def tree(ref):
    return dict(line.split(" ", 2)[2].split("\t")[::-1] for line in git("ls-tree", "-r", ref).splitlines())


def test_upstream_unchanged_and_main_moved():
    assert subjects("origin/main") == ["Add CHANGES", "Rename the CLI module to calc/main.py",
                                       "ops: power (picked from Dev's branch, docstring fixed)", "Add mul and div",
                                       "Initial calculator"]
    assert git("rev-parse", "origin/main") == "8235c86786d99c0a08d85fe41ed22b2341d3b822"   # the build is deterministic
    assert git("rev-parse", "main") == git("rev-parse", "origin/main")


def test_feature_a_restacked():
    assert git("rev-parse", "feature-a~2") == git("rev-parse", "origin/main")
    assert subjects("origin/main..feature-a") == ["Docs: document pow", "CLI: support pow"]


def test_feature_b_restacked():
    assert git("rev-parse", "feature-b~3") == git("rev-parse", "feature-a")
    assert subjects("feature-a..feature-b") == ["Test mod", "CLI: support mod", "Add mod operation"]
    assert git("merge-base", "--is-ancestor", "origin/main", "feature-b") == ""


def test_authorship_and_own_changes_kept():
    for c in git("rev-list", "origin/main..feature-b").splitlines():
        s = git("log", "-1", "--format=%s", c)
        name, email, date, files = OWN[s]
        assert git("log", "-1", "--format=%an|%ae|%ad", "--date=raw", c) == f"{name}|{email}|{date}", s
        assert git("diff", "--name-only", f"{c}~1", c).splitlines() == files, s


def test_tip_contents():
    assert tree("feature-a") == {
        "CHANGES": "0e7c0ae363b78e1f1739ac624997e0a17fcfb183",
        "README.md": "608a0154d0af8547c5260c909bfc0ef2ad9d35e4",
        "calc/main.py": "61a4962137401482712763a462d8cbc521a8be0c",
        "calc/ops.py": "d3ac4d15aa78383425e516aa3e47ceccb31838e6",
    }
    assert tree("feature-b") == {
        "CHANGES": "0e7c0ae363b78e1f1739ac624997e0a17fcfb183",
        "README.md": "608a0154d0af8547c5260c909bfc0ef2ad9d35e4",
        "calc/main.py": "561ce234e856492adeb6b355f177d347784dca7b",
        "calc/ops.py": "f88c744f6f772161d010e6a4bdec8cfd89ace8b2",
        "calc/test_mod.py": "d7bec98c1ced500a7afdadaab1f259af50d8bbbf",
    }
    assert "Rasie" not in git("log", "-p", "origin/main..feature-b")


def test_checked_out_and_clean():
    assert git("symbolic-ref", "HEAD") == "refs/heads/feature-b"
    assert git("status", "--porcelain", "--untracked-files=no") == ""
    gitdir = os.path.join(REPO, ".git")
    for d in ("rebase-merge", "rebase-apply", "MERGE_HEAD", "CHERRY_PICK_HEAD"):
        assert not os.path.exists(os.path.join(gitdir, d)), d
    assert sorted(n for n in os.listdir(os.path.join(REPO, "calc")) if n != "__pycache__") == ["main.py", "ops.py", "test_mod.py"]
    out = subprocess.run(["python3", "-c", "from calc import ops; print(ops.mod(7, 3), ops.power(2, 5))"],
                         cwd=REPO, capture_output=True, text=True)
    assert out.stdout.split() == ["1", "32"], out.stderr
