import random
import re
import subprocess

import pytest

EXAMPLE = """## 2.0.0 (2024-05-01)

### BREAKING CHANGES

- **api:** drop the v1 endpoints (c0ffee1)

### Features

- **parser:** support nested tables (3f2a9c1)
- **api:** drop the v1 endpoints (c0ffee1)

### Bug Fixes

- crash on empty input (a1b2c3d)
- **parser:** handle CRLF line endings (77aa88b)

### Performance

- **io:** buffer writes (1234abc)
"""


def ref(lines, version, date):
    secs = {"BREAKING CHANGES": [], "Features": [], "Bug Fixes": [], "Performance": []}
    seen = set()
    for raw in lines:
        m = re.fullmatch(r"([0-9a-fA-F]{7,40}) (.*)", raw)
        if not m:
            continue
        s = re.fullmatch(r"([a-z]+)(?:\(([^()]*)\))?(!)?: +(.*\S)\s*", m.group(2))
        if not s:
            continue
        typ, scope, bang, desc = s.groups()
        e = f"- **{scope}:** {desc.strip()} ({m.group(1)[:7]})" if scope is not None else f"- {desc.strip()} ({m.group(1)[:7]})"
        for t in (["BREAKING CHANGES"] if bang else []) + {"feat": ["Features"], "fix": ["Bug Fixes"], "perf": ["Performance"]}.get(typ, []):
            if (t, typ, scope, desc.strip()) not in seen:
                seen.add((t, typ, scope, desc.strip()))
                secs[t].append(e)
    out = f"## {version} ({date})\n"
    for t, es in secs.items():
        if es:
            out += f"\n### {t}\n\n" + "".join(x + "\n" for x in es)
    return out


def run(tmp_path, text, version="1.0.0", date="2024-01-01"):
    p = tmp_path / "c.txt"
    p.write_text(text)
    r = subprocess.run(["python3", "/app/changelog.py", str(p), version, date], capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_example():
    r = subprocess.run(["python3", "/app/changelog.py", "/app/commits.txt", "2.0.0", "2024-05-01"],
                       capture_output=True, text=True, timeout=20)
    assert r.stdout == EXAMPLE


def test_edge_cases(tmp_path):
    text = ("\n"
            "abcdef1 feat(ui) : not conventional\n"
            "abcdef2 Feat: capitalised type\n"
            "abcdef3 fix(): empty scope\n"
            "abcdef4 fix:missing space\n"
            "abcdef5 fix:   spaced   out   \n"
            "xyz1234 feat: bad hash\n"
            "abcde6 feat: short hash\n"
            "abcdef7 chore(deps)!: drop node 14\n"
            "abcdef8 fix(): empty scope\n")
    assert run(tmp_path, text) == ("## 1.0.0 (2024-01-01)\n\n### BREAKING CHANGES\n\n- **deps:** drop node 14 (abcdef7)\n\n"
                                   "### Bug Fixes\n\n- **:** empty scope (abcdef3)\n- spaced   out (abcdef5)\n")


def test_nothing(tmp_path):
    assert run(tmp_path, "abcdef1 docs: x\n") == "## 1.0.0 (2024-01-01)\n"


@pytest.mark.parametrize("seed", range(5))
def test_generated(tmp_path, seed):
    rng = random.Random(seed)
    lines = []
    for _ in range(60):
        h = "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice([7, 8, 12, 40])))
        typ = rng.choice(["feat", "fix", "perf", "docs", "chore", "refactor"])
        scope = rng.choice(["", "(core)", "(cli)", "(a b)"])
        bang = "!" if rng.random() < 0.15 else ""
        desc = rng.choice(["add thing", "remove thing", "speed up", "fix typo", "add thing"])
        lines.append(f"{h} {typ}{scope}{bang}: {desc}" if rng.random() > 0.1 else f"{h} random message")
    assert run(tmp_path, "\n".join(lines) + "\n", "3.1.4", "2025-12-31") == ref(lines, "3.1.4", "2025-12-31")
