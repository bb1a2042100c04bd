"""/app/fselect on trees and rule sets generated here; the expected selection follows the instruction's
rules, implemented independently below (a backtracking matcher, not regular expressions)."""
import os
import random
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/fselect"


def run(src, rules):
    r = subprocess.run([TOOL, str(src), str(rules)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def glob(p, s):
    if not p:
        return not s
    if p.startswith("**"):
        return any(glob(p[2:], s[i:]) for i in range(len(s) + 1))
    if p[0] == "*":
        i = 0
        while True:
            if glob(p[1:], s[i:]):
                return True
            if i >= len(s) or s[i] == "/":
                return False
            i += 1
    if not s:
        return False
    if p[0] == "?":
        return s[0] != "/" and glob(p[1:], s[1:])
    return p[0] == s[0] and glob(p[1:], s[1:])


def pat_match(pat, path, is_dir):
    if pat.endswith("/***"):
        parts = path.split("/")
        return any(pat_match(pat[:-4], "/".join(parts[:k]), True) for k in range(1, len(parts) + 1))
    if pat.endswith("/"):
        if not is_dir:
            return False
        pat = pat[:-1]
    if pat.startswith("/"):
        return glob(pat[1:], path)
    if "/" in pat or "**" in pat:
        comps = path.split("/")
        return any(glob(pat, "/".join(comps[k:])) for k in range(len(comps)))
    return glob(pat, path.split("/")[-1])


def read_rules(text):
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def expected(src, rules_text):
    src = Path(src)
    top = read_rules(rules_text)
    while "!" in top:
        top = top[top.index("!") + 1:]

    def merged(dirs, name):
        """dirs: list of relative dir paths from SRC ('') down to the parent; returns [(sign, pat, base)]."""
        acc = []
        for d in dirs:
            f = src / d / name if d else src / name
            own = []
            if f.is_file():
                for line in read_rules(f.read_text()):
                    if line == "!":
                        own, acc = [], []
                    else:
                        own.append((line[0], line[2:].strip(), d))
            acc = own + acc
        return acc

    out = []

    def walk(rel_dir, dirs):
        for name in sorted(os.listdir(src / rel_dir if rel_dir else src)):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            p = src / rel
            is_dir = p.is_dir() and not p.is_symlink()
            decision = True
            rules = []
            for line in top:
                if line[0] == ":":
                    rules += merged(dirs, line[1:].strip())
                else:
                    rules.append((line[0], line[1:].strip(), ""))
            for sign, pat, base in rules:
                if base and not rel.startswith(base + "/"):
                    continue
                sub = rel[len(base) + 1:] if base else rel
                if pat_match(pat, sub, is_dir):
                    decision = sign == "+"
                    break
            if decision:
                out.append(rel + ("/" if is_dir else ""))
                if is_dir:
                    walk(rel, dirs + [rel])

    walk("", [""])
    return "".join(x + "\n" for x in out)


NAMES = ["src", "lib", "build", "a.c", "a.o", "b.txt", "cache", ".cache", ".git", "x.tmp", "docs", "core", "img.png",
         "n?me", "sub", "deep", "main.c"]
PATS = ["*.o", "*.tmp", "build/", "/build", "cache", ".*", "src/**", "lib/*.o", "**/deep/**", "/src/***", "docs/***",
        "?.c", "*/sub/", "a.*", "**.c", "sub/*", "/*/cache", "core", "n?me", "deep/"]


def random_tree(root):
    root.mkdir()
    dirs = [root]
    for i in range(45):
        parent = RNG.choice(dirs)
        name = RNG.choice(NAMES)
        p = parent / name
        if p.exists() or p.is_symlink():
            continue
        if RNG.random() < 0.35 and "." not in name:
            p.mkdir()
            dirs.append(p)
        elif RNG.random() < 0.9:
            p.write_text(name)
        else:
            os.symlink(RNG.choice(["..", "/etc"]), p)
    return dirs


def random_rules(k):
    return [f"{RNG.choice('+--')} {RNG.choice(PATS)}" for _ in range(k)]


def setup(tmp_path):
    src = tmp_path / "src"
    dirs = random_tree(src)
    top = random_rules(RNG.randint(3, 6))
    top.insert(RNG.randint(0, len(top)), ": .flt")
    if RNG.random() < 0.3:
        top.insert(RNG.randint(0, len(top)), "!")
    for d in RNG.sample(dirs, min(len(dirs), RNG.randint(1, 4))):
        rules = random_rules(RNG.randint(1, 3))
        if RNG.random() < 0.3:
            rules.insert(RNG.randint(0, len(rules)), "!")
        (d / ".flt").write_text("# per-dir\n" + "\n".join(rules) + "\n")
    rules_file = tmp_path / "rules"
    rules_file.write_text("# top\n\n" + "\n".join(top) + "\n")
    return src, rules_file


@pytest.mark.parametrize("round_", range(8))
def test_random_trees(tmp_path, round_):
    src, rules = setup(tmp_path)
    assert run(src, rules) == expected(src, rules.read_text()), rules.read_text()


def test_saved_selection():
    want = """alice/
alice/etc-link
alice/notes.txt
alice/photos/
alice/photos/a.jpg
alice/src/
alice/src/.backup-filter
alice/src/app/
alice/src/app/main.c
alice/src/lib/
alice/src/lib/util.c
bob/
bob/.backup-filter
bob/mail/
bob/mail/.backup-filter
bob/mail/inbox
bob/shared-link
bob/todo.md
bob/vm/
bob/vm/config.xml
shared/
shared/build/
shared/build/log
shared/docs/
shared/docs/build/
shared/docs/build/index.html
shared/docs/guide.md
shared/readme.md
weird name [x].txt
"""
    assert Path("/app/selection.txt").read_text() == want
    assert run("/srv/data", "/app/backup.rules") == want


def mk(root, files):
    for f in files:
        p = root / f
        p.parent.mkdir(parents=True, exist_ok=True)
        if not f.endswith("/"):
            p.write_text(f)


def test_patterns(tmp_path):
    s = tmp_path / "s"
    mk(s, ["a/lib/x.so", "lib/y.so", "opt/lib/z.so", "opt/lib/sub/w.so", "build/f", "x/build/g", "k/keep/1",
           "k/keep/deep/2", "k/other", "q.c", "r/q.c", "r/qq.c"])
    (s / "y").mkdir()
    (s / "y" / "build").mkdir()
    rules = tmp_path / "r"
    rules.write_text("- lib/*.so\n- /build\n- build/\n+ k/keep/***\n- k/*\n- /?.c\n")
    got = run(s, rules)
    assert got == "".join(x + "\n" for x in [
        "a/", "a/lib/", "k/", "k/keep/", "k/keep/1", "k/keep/deep/", "k/keep/deep/2", "lib/", "opt/", "opt/lib/",
        "opt/lib/sub/", "opt/lib/sub/w.so", "r/", "r/q.c", "r/qq.c", "x/", "y/"])
    assert got == expected(s, rules.read_text())


def test_merge_precedence_clear_and_relative_anchor(tmp_path):
    s = tmp_path / "s"
    mk(s, ["p/a.log", "p/b.log", "p/q/a.log", "p/q/c.log", "p/q/r/a.log", "p/q/r/d.log", "p/top", "top", "p/q/top"])
    (s / "p" / ".f").write_text("+ a.log\n- *.log\n- /top\n")
    (s / "p" / "q" / ".f").write_text("- a.log\n+ c.log\n")
    (s / "p" / "q" / "r" / ".f").write_text("!\n+ d.log\n")
    rules = tmp_path / "r"
    rules.write_text("- .f\n: .f\n- c.log\n")
    got = run(s, rules)
    assert got == "".join(x + "\n" for x in [
        "p/", "p/a.log", "p/q/", "p/q/c.log", "p/q/r/", "p/q/r/a.log", "p/q/r/d.log", "p/q/top", "top"])
    assert got == expected(s, rules.read_text())
    rules.write_text("- *.log\n!\n: .f\n")
    got = run(s, rules)
    assert "p/b.log" not in got and "p/q/c.log" in got and "p/.f" in got
    assert got == expected(s, rules.read_text())


def test_excluded_dirs_are_pruned_and_links_not_followed(tmp_path):
    s = tmp_path / "s"
    mk(s, ["skip/inner.c", "keep/inner.c", "keep/x.txt"])
    os.symlink(s / "keep", s / "link-dir")
    rules = tmp_path / "r"
    rules.write_text("+ *.c\n+ */\n- skip\n- *\n")
    got = run(s, rules)
    assert got == "keep/\nkeep/inner.c\nskip/\nskip/inner.c\n"  # "+ */" wins before "- skip"; the link is no dir
    assert got == expected(s, rules.read_text())
    rules.write_text("- skip/\n+ *.c\n+ */\n- *\n")
    got = run(s, rules)
    assert got == "keep/\nkeep/inner.c\n"
    assert got == expected(s, rules.read_text())
