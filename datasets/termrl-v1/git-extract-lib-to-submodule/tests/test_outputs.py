import os
import random
import shutil
import subprocess
import tempfile
from fractions import Fraction

APP = "/app/calcapp"
LIB = "/app/parser-lib"
OLD_MAIN = "4edc53a69f1be8d2f8005b3b9ef9f01f917b9772"
# the commits of calcapp that changed the parser, oldest first, and the parser directory in each
PARSER_COMMITS = [
    ("fc63320d8168baa96195b5fab057d95b5ebb97f5", "parser"),
    ("7fb83a9e43aa3fb61971541868a7e06f451123f7", "parser"),
    ("7ee653c3274cff9641b58eadbb9f033cb70d5cd0", "parser"),
    ("1ff5ef4ee27d7183931694e8623284ffe1223147", "libs/parser"),
    ("a4306e71da06e44a64843b6f8264f5b876f4aacf", "libs/parser"),
]
TAGS = {"v0.1": "7ee653c3274cff9641b58eadbb9f033cb70d5cd0", "v0.2": "a4306e71da06e44a64843b6f8264f5b876f4aacf"}


def git(repo, *args, check=True):
    proc = subprocess.run(["git", "-c", "protocol.file.allow=always", "-C", repo, *args], capture_output=True,
                          text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} in {repo} failed: {proc.stderr}"
    return proc.stdout


def raw_message(repo, rev):
    text = git(repo, "cat-file", "commit", rev)
    return text.split("\n\n", 1)[1]


def lib_commits():
    return git(LIB, "rev-list", "--reverse", "main").split()


def test_lib_history_one_commit_per_parser_change():
    commits = lib_commits()
    assert len(commits) == len(PARSER_COMMITS), git(LIB, "log", "--oneline", "main")
    assert git(LIB, "rev-list", "--merges", "main").strip() == ""
    for new, (orig, _) in zip(commits, PARSER_COMMITS):
        assert raw_message(LIB, new) == raw_message(APP, orig)


def test_lib_trees_are_the_parser_directory():
    for new, (orig, path) in zip(lib_commits(), PARSER_COMMITS):
        assert git(LIB, "rev-parse", f"{new}^{{tree}}").strip() == git(APP, "rev-parse", f"{orig}:{path}").strip()


def test_lib_keeps_authors():
    fmt = "--format=%an%x00%ae%x00%ad"
    for new, (orig, _) in zip(lib_commits(), PARSER_COMMITS):
        assert git(LIB, "log", "-1", fmt, "--date=raw", new) == git(APP, "log", "-1", fmt, "--date=raw", orig)


def test_lib_tags():
    commits = lib_commits()
    index = {orig: i for i, (orig, _) in enumerate(PARSER_COMMITS)}
    for tag, orig in TAGS.items():
        assert git(LIB, "rev-parse", f"{tag}^{{commit}}").strip() == commits[index[orig]], tag


def test_app_history_kept_and_one_submodule_commit():
    assert git(APP, "rev-parse", "main^").strip() == OLD_MAIN
    assert git(APP, "rev-list", "--count", "main").strip() == "11"
    changed = set(git(APP, "diff", "--name-only", OLD_MAIN, "main").split())
    assert changed <= {".gitmodules", "libs/parser", "libs/parser/__init__.py", "libs/parser/lexer.py",
                       "libs/parser/parse.py"}, changed
    entry = git(APP, "ls-tree", "main", "libs/parser").split()
    assert entry[:2] == ["160000", "commit"], entry
    assert entry[2] == git(LIB, "rev-parse", "main").strip()
    url = git(APP, "config", "-f", ".gitmodules", "submodule.libs/parser.url").strip()
    path = git(APP, "config", "-f", ".gitmodules", "submodule.libs/parser.path").strip()
    assert (url, path) == ("/app/parser-lib", "libs/parser")


def model(expr):
    text = expr.replace("^", "**")
    out = []
    i = 0
    while i < len(text):
        if text[i].isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(f"Fraction({text[i:j]})")
            i = j
        else:
            out.append(text[i])
            i += 1
    return str(eval("".join(out), {"Fraction": Fraction}))


def random_expr(rng, depth=0):
    r = rng.random()
    if depth > 2 or r < 0.3:
        return str(rng.randint(1, 30))
    if r < 0.4:
        return "-" + random_expr(rng, depth + 1)
    if r < 0.5:
        return "(" + random_expr(rng, depth + 1) + ")"
    if r < 0.58:
        return f"{rng.randint(1, 5)}^{rng.randint(0, 3)}"
    return random_expr(rng, depth + 1) + rng.choice([" + ", " - ", "*", " / "]) + random_expr(rng, depth + 1)


def test_fresh_recursive_clone_runs_the_calculator():
    tmp = tempfile.mkdtemp()
    try:
        proc = subprocess.run(["git", "-c", "protocol.file.allow=always", "clone", "-q", "--recurse-submodules",
                               APP, f"{tmp}/clone"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert os.path.isfile(f"{tmp}/clone/libs/parser/parse.py")
        rng = random.Random()
        exprs, expected = [], []
        while len(exprs) < 40:
            e = random_expr(rng)
            try:
                expected.append(model(e))
            except ZeroDivisionError:
                continue
            exprs.append(e)
        proc = subprocess.run(["python3", "-m", "app.main"], cwd=f"{tmp}/clone", input="\n".join(exprs) + "\n",
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines() == expected, list(zip(exprs, proc.stdout.splitlines(), expected))
    finally:
        shutil.rmtree(tmp)


def test_clean_checkouts():
    assert git(APP, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(APP, "status", "--porcelain", "--untracked-files=all") == ""
    status = git(APP, "submodule", "status").split()
    assert status[0] == git(LIB, "rev-parse", "main").strip() and status[1] == "libs/parser", status
    assert git(LIB, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(LIB, "status", "--porcelain", "--untracked-files=all") == ""
    assert not git(LIB, "config", "--bool", "core.bare").strip() == "true"
