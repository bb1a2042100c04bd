import os
import subprocess

MONO = "/app/mono"
EXPECTED_TIP = "f6138d8bd1a87915242c13ac1dc3e0835867c7d5"
SOURCES = {"frontend": "280e2c0195e65b66ed8b99ca33f1816ad06e8089", "backend": "ad12d457fe870ad96855ec7cff9ee3c606a82b54"}


def git(repo, *args, check=True):
    proc = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def source_commits():
    rows = []
    for side in SOURCES:
        out = git(f"/app/{side}", "log", "--format=%at|%H|%an|%ae|%ad|%s", "--date=iso-strict", "main").stdout
        for line in out.splitlines():
            at, sha, an, ae, ad, s = line.split("|", 5)
            rows.append((int(at), side, sha, an, ae, ad, s))
    return sorted(rows)


def mono_commits():
    out = git(MONO, "log", "--reverse", "--format=%H|%P|%an|%ae|%ad|%cn|%ce|%cd|%s", "--date=iso-strict", "main").stdout
    return [line.split("|", 8) for line in out.splitlines()]


def tree_listing(repo, rev, prefix=""):
    out = git(repo, "ls-tree", "-r", rev).stdout
    rows = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        rows.append((prefix + path, meta))
    return rows


def test_sources_untouched():
    for side, sha in SOURCES.items():
        assert git(f"/app/{side}", "rev-parse", "main").stdout.strip() == sha
        assert git(f"/app/{side}", "status", "--porcelain").stdout == ""


def test_linear_interleaved_history():
    rows = mono_commits()
    src = source_commits()
    assert len(rows) == len(src) == 11
    for i, r in enumerate(rows):
        parents = r[1].split()
        assert len(parents) == (0 if i == 0 else 1)
        if i:
            assert parents[0] == rows[i - 1][0]
    assert [r[8] for r in rows] == [s[6] for s in src]


def test_authors_and_committers_preserved():
    for r, s in zip(mono_commits(), source_commits()):
        _, _, an, ae, ad, cn, ce, cd, _ = r
        assert (an, ae, ad) == (s[3], s[4], s[5])
        assert (cn, ce, cd) == (an, ae, ad)


def test_each_tree_is_union_of_latest_states():
    latest = {}
    for r, s in zip(mono_commits(), source_commits()):
        latest[s[1]] = s[2]
        expected = []
        for side, sha in latest.items():
            expected += tree_listing(f"/app/{side}", sha, side + "/")
        assert sorted(tree_listing(MONO, r[0])) == sorted(expected), r[8]


def test_exact_tip_hash():
    assert git(MONO, "rev-parse", "main").stdout.strip() == EXPECTED_TIP


def test_checkout_clean():
    assert git(MONO, "symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git(MONO, "status", "--porcelain", "--untracked-files=all").stdout == ""
    assert os.access(os.path.join(MONO, "frontend", "serve.sh"), os.X_OK)
    assert not os.path.exists(os.path.join(MONO, "backend", "requirements.txt"))
    assert git(MONO, "rev-parse", "--is-bare-repository").stdout.strip() == "false"
