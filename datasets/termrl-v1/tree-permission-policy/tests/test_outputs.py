"""/app/permpolicy on trees and policies generated here. Expected targets: patterns by an independent
matcher written here, modes by running the real chmod (umask 0) on scratch entries."""
import os
import random
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/permpolicy"
SCRATCH = tempfile.mkdtemp()


def run(policy, root, check=False):
    args = [TOOL, str(policy), str(root)] + (["--check"] if check else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def chmod_like(mode, is_dir, spec, _cache={}):
    key = (mode, is_dir, spec)
    if key not in _cache:
        p = os.path.join(SCRATCH, "d" if is_dir else "f")
        if not os.path.exists(p):
            os.mkdir(p) if is_dir else open(p, "w").close()
        os.chmod(p, mode)
        subprocess.run(f"umask 0; chmod -- '{spec}' '{p}'", shell=True, check=True)
        _cache[key] = stat.S_IMODE(os.stat(p).st_mode)
    return _cache[key]


def comp_match(pat, name):
    """* and ? within one path component (no '/')."""
    if not pat:
        return not name
    if pat[0] == "*":
        return any(comp_match(pat[1:], name[i:]) for i in range(len(name) + 1))
    return bool(name) and (pat[0] == "?" or pat[0] == name[0]) and comp_match(pat[1:], name[1:])


def parts_match(pp, np):
    if not pp:
        return not np
    if pp[0] == "**":
        if len(pp) == 1:
            return len(np) >= 1
        return any(parts_match(pp[1:], np[i:]) for i in range(len(np) + 1))
    return bool(np) and comp_match(pp[0], np[0]) and parts_match(pp[1:], np[1:])


def pattern_matches(pat, rel, is_dir):
    if pat.endswith("/"):
        if not is_dir:
            return False
        pat = pat[:-1]
    if "/" not in pat:
        return comp_match(pat, rel.split("/")[-1]) if pat != "**" else True
    return parts_match(pat.lstrip("/").split("/"), rel.split("/"))


def targets(rules, root):
    """{rel: (current, target)} for every entry; states are (uid, gid, mode or None)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            link, isdir = stat.S_ISLNK(st.st_mode), stat.S_ISDIR(st.st_mode)
            cur = (st.st_uid, st.st_gid, None if link else stat.S_IMODE(st.st_mode))
            u, g, m = cur
            for pat, owner, mode in rules:
                if not pattern_matches(pat, rel, isdir):
                    continue
                if owner != "-":
                    a, _, b = owner.partition(":")
                    u = int(a) if a else u
                    g = int(b) if b else g
                if mode != "-" and not link:
                    m = chmod_like(m, isdir, mode)
            out[rel] = (cur, (u, g, m))
    return out


def fmt(s):
    return f"{s[0]}:{s[1]}:{'-' if s[2] is None else format(s[2], '04o')}"


def report(t):
    return "".join(f"{rel} {fmt(c)} -> {fmt(w)}\n" for rel, (c, w) in sorted(t.items()) if c != w)


def state(root):
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_uid, st.st_gid,
                                             None if stat.S_ISLNK(st.st_mode) else stat.S_IMODE(st.st_mode))
    return out


NAMES = ["a", "b", "src", "lib", "docs", "x.py", "y.sh", "z.txt", "notes.md", "run", "k.py"]


def random_tree(root):
    root.mkdir()
    dirs = [root]
    for i in range(30):
        parent = RNG.choice(dirs)
        name = RNG.choice(NAMES) + ("" if RNG.random() < 0.5 else str(i))
        p = parent / name
        if p.exists() or p.is_symlink():
            continue
        r = RNG.random()
        if r < 0.3:
            p.mkdir()
            os.chmod(p, RNG.choice([0o755, 0o2775, 0o700, 0o1777, 0o750]))
            dirs.append(p)
        elif r < 0.9:
            p.write_text(name)
            os.chmod(p, RNG.choice([0o644, 0o755, 0o600, 0o4755, 0o2711, 0o640, 0o777]))
        else:
            os.symlink(RNG.choice(["/etc/passwd", "x.py", ".."]), p)
        mode = None if p.is_symlink() else stat.S_IMODE(p.stat().st_mode)
        os.lchown(p, RNG.choice([0, 1000, 1001]), RNG.choice([0, 2000, 2001]))
        if mode is not None:
            os.chmod(p, mode)


PATTERNS = ["*", "**", "*.py", "*.sh", "src/", "lib", "src/**", "**/lib/*", "a/**/*.py", "*/", "docs/*", "?.txt",
            "/b", "b/**/", "x*", "run*", "notes.md", "a/*/"]
MODES = ["-", "-", "644", "0755", "2770", "600", "u+x", "go-w", "a=rX", "u=rwX,g=rX,o=", "g=u", "o-rwx", "+t",
         "a-x,a+X", "ug+s", "u-s", "g+w,o+r"]


def random_policy():
    rules = []
    for _ in range(RNG.randint(3, 7)):
        owner = RNG.choice(["-", "-", "1234", "1234:2345", ":2345", "0:0", "1000"])
        rules.append((RNG.choice(PATTERNS), owner, RNG.choice(MODES)))
    text = "# generated\n\n" + "".join(f"{p}{RNG.choice([' ', '  ', chr(9)])}{o} {m}\n" for p, o, m in rules)
    return rules, text


@pytest.mark.parametrize("round_", range(3))
def test_random_check_changes_nothing(tmp_path, round_):
    root = tmp_path / "t"
    random_tree(root)
    rules, text = random_policy()
    pol = tmp_path / "p.policy"
    pol.write_text(text)
    before = state(root)
    want = report(targets(rules, root))
    r = run(pol, root, check=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == want, text
    assert state(root) == before


@pytest.mark.parametrize("round_", range(3))
def test_random_apply(tmp_path, round_):
    root = tmp_path / "t"
    random_tree(root)
    rules, text = random_policy()
    pol = tmp_path / "p.policy"
    pol.write_text(text)
    t = targets(rules, root)
    r = run(pol, root)
    assert r.returncode == 0, r.stderr
    assert r.stdout == report(t), text
    assert state(root) == {rel: w for rel, (c, w) in t.items()}
    r = run(pol, root, check=True)
    assert r.returncode == 0 and r.stdout == ""


def test_pattern_rules(tmp_path):
    root = tmp_path / "r"
    for d in ["lib", "src/lib", "src/lib/deep", "a/b/c", "a/lib.d"]:
        (root / d).mkdir(parents=True)
    for f in ["lib.py", "src/lib/m.py", "src/lib/deep/n.py", "a/b/c/x.py", "a/x.py", "a/b/lib", "src/l.py"]:
        (root / f).write_text("x")
        os.chmod(root / f, 0o600)
    for d in ["lib", "src/lib", "src/lib/deep", "a/b/c", "a/lib.d", "src", "a", "a/b"]:
        os.chmod(root / d, 0o700)
    rules = [("lib/", "-", "701"), ("/lib", "-", "o+r"), ("a/**/*.py", "-", "g+r"), ("src/**", "-", "u+x"),
             ("**/deep/*", "-", "o+w"), ("lib.?", "-", "g+x"), ("a/*/", "-", "+t")]
    pol = tmp_path / "p"
    pol.write_text("".join(f"{a} {b} {c}\n" for a, b, c in rules))
    r = run(pol, root, check=True)
    assert r.returncode == 0, r.stderr
    got = {line.split()[0]: line.split()[3].split(":")[2] for line in r.stdout.splitlines()}
    assert got == {"lib": "0705", "src/lib": "0701", "a/x.py": "0640", "a/b/c/x.py": "0640", "src/lib/m.py": "0700",
                   "src/lib/deep/n.py": "0702", "src/l.py": "0700", "a/lib.d": "1710", "a/b": "1700"}
    assert r.stdout == report(targets(rules, root))


def test_setid_bits_survive_owner_change(tmp_path):
    root = tmp_path / "s"
    (root / "d").mkdir(parents=True)
    os.chmod(root / "d", 0o2775)
    (root / "tool").write_text("x")
    os.chmod(root / "tool", 0o6755)
    os.symlink("/etc/shadow", root / "link")
    pol = tmp_path / "p"
    pol.write_text("tool 1234:2345 -\nd 1234 0750\nlink 77:88 0777\n")
    r = run(pol, root)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("d 0:0:2775 -> 1234:0:2750\nlink 0:0:- -> 77:88:-\ntool 0:0:6755 -> 1234:2345:6755\n")
    assert state(root) == {"d": (1234, 0, 0o2750), "tool": (1234, 2345, 0o6755), "link": (77, 88, None)}
    assert os.stat("/etc/shadow").st_uid == 0 and stat.S_IMODE(os.stat("/etc/shadow").st_mode) == 0o640


@pytest.mark.parametrize("line", ["*.py 1000 u+q", "*.py nosuchuser 644", "*.py :nosuchgroup 644", "*.py 644",
                                  "*.py 1000 644 extra", "*.py 1000 8888"])
def test_bad_policy_changes_nothing(tmp_path, line):
    root = tmp_path / "e"
    root.mkdir()
    (root / "a.py").write_text("x")
    os.chmod(root / "a.py", 0o600)
    pol = tmp_path / "p"
    pol.write_text(f"# ok\n* 1000 640\n{line}\n")
    r = run(pol, root)
    assert r.returncode == 2 and r.stderr.startswith("error: line 3:"), r.stderr
    assert state(root) == {"a.py": (0, 0, 0o600)}


def test_site_enforced():
    S = "/srv/site"
    want = {
        ".git": (1501, 1500, 0o2755), ".git/config": (1501, 1500, 0o700), ".git/objects": (1501, 1500, 0o2700),
        ".git/objects/ab12": (1501, 1500, 0o700), "README.md": (1501, 1500, 0o444), "app": (1501, 1500, 0o2755),
        "app/app.ini": (1501, 1500, None), "app/bin": (1501, 1500, 0o2755), "app/bin/migrate": (0, 1500, 0o4750),
        "app/bin/run.sh": (1501, 1500, 0o755), "app/lib": (1501, 1500, 0o2755), "app/lib/core.py": (1501, 1500, 0o755),
        "app/lib/util.py": (1501, 1500, 0o755), "config": (1501, 1500, 0o2755), "config/app.ini": (1501, 1500, 0o755),
        "config/secrets.env": (0, 33, 0o640), "logs": (1501, 1500, 0o2750), "logs/access.log": (1501, 1500, 0o644),
        "logs/old": (1501, 1500, 0o2755), "logs/old/access.log.1": (1501, 1500, 0o644), "public": (1501, 1500, 0o2755),
        "public/css": (1501, 1500, 0o2755), "public/css/site.css": (1501, 1500, 0o755),
        "public/index.html": (1501, 1500, 0o644), "public/passwd-link": (1501, 1500, None),
        "public/uploads": (33, 1500, 0o3770), "public/uploads/2026": (33, 1500, 0o2770),
        "public/uploads/2026/cat.jpg": (33, 1500, 0o770)}
    assert state(S) == want
    r = run("/app/site.policy", S, check=True)
    assert r.returncode == 0 and r.stdout == ""
