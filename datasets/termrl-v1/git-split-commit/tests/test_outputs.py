import subprocess

REPO = "/app/repo"
BASE = "5d6cf98d39cb00cc9e04c22bff9628d3cf57dfcb"  # "Add CSV export", must stay untouched
# Tree hashes depend only on file contents.
TREE_AFTER_FIX = "4d47107ef55daa4dbe6135373cdfb7984cf800b8"
TREE_AFTER_DOCS = "58f305851c7082062aed7b73e0771f6ccf08934c"
TREE_AFTER_JSON = "b0756a9c7d70e85402f3dc5ea278b73532ca16b4"
TREE_FINAL = "d30d538eb009cd56891467bb535e09f5d5fae6b2"


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def commits():
    out = git("log", "--reverse", "--format=%H|%T|%an|%ae|%ad|%B%x00", "--date=iso-strict", "main").stdout
    rows = []
    for chunk in out.split("\x00"):
        chunk = chunk.strip("\n")
        if chunk:
            h, t, an, ae, ad, body = chunk.split("|", 5)
            rows.append(dict(hash=h, tree=t, author=(an, ae, ad), message=body.strip()))
    return rows


def test_subjects_in_order():
    assert [c["message"] for c in commits()] == [
        "Initial parser", "Add CSV export", "Fix header parsing in parser", "Document export options",
        "Add JSON export", "Document JSON export",
    ]


def test_earlier_history_untouched():
    assert commits()[1]["hash"] == BASE
    assert git("rev-parse", "main~4").stdout.strip() == BASE


def test_split_contents():
    rows = commits()
    assert rows[2]["tree"] == TREE_AFTER_FIX, "the first new commit must contain only the parser fix"
    assert rows[3]["tree"] == TREE_AFTER_DOCS, "the second new commit must contain only the README change"
    changed = git("diff", "--name-only", "main~4", "main~3").stdout.split()
    assert changed == ["src/parser.py"]
    assert git("diff", "--name-only", "main~3", "main~2").stdout.split() == ["README.md"]


def test_parser_fixed_at_fix_commit():
    src = git("show", "main~3:src/parser.py").stdout
    ns = {}
    exec(src, ns)
    assert ns["parse"]("HEADER\nname: kv\nsize: 3\n") == {"name": "kv", "size": "3"}


def test_authorship_kept():
    rows = commits()
    expected = ("Lena Fischer", "lena@example.com", "2025-03-05T15:20:00+00:00")
    assert rows[2]["author"] == expected
    assert rows[3]["author"] == expected
    assert rows[4]["author"] == ("Lena Fischer", "lena@example.com", "2025-03-06T09:00:00+00:00")
    assert rows[5]["author"] == ("Lena Fischer", "lena@example.com", "2025-03-07T09:45:00+00:00")


def test_later_commits_and_final_tree():
    rows = commits()
    assert rows[4]["tree"] == TREE_AFTER_JSON
    assert rows[5]["tree"] == TREE_FINAL


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    gitdir = git("rev-parse", "--git-dir").stdout.strip()
    import os
    path = gitdir if os.path.isabs(gitdir) else os.path.join(REPO, gitdir)
    assert not os.path.exists(os.path.join(path, "rebase-merge"))
    assert not os.path.exists(os.path.join(path, "rebase-apply"))
