import json
import os
import random
import re
import subprocess
import tempfile

REPO = "/app/repo"
MAIN = "7505fa4f4b68bc9c0bcae0d2fbff35944036ceb4"
OLD_TIPS = {"release/1.x": "ffbe2192be44a6560173f3130e66e4c3437cb145",
            "release/2.x": "503979556b1dd45ccdd89121f7de55b9b9c6e609"}
M_UPPER = "858ec683bbe61cd2440addc10698683d8850d853"
M_SIGN = "4b96238fe627767098896b9a94400cb97e8567c9"
M_REJECT = "63ae71efbd8056a889e40037c279ab4a3591c249"
M_UNKNOWN = "675bc94dd20435caff45638cdc588f59b730864e"
M_WHOLE = "e45efea6ec5ab1001a06a277c76dca085bb9b778"
EXPECTED = {"release/1.x": [M_UPPER, M_SIGN, M_UNKNOWN],
            "release/2.x": [M_UPPER, M_SIGN, M_REJECT, M_UNKNOWN, M_WHOLE]}


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def new_commits(branch):
    return git("rev-list", "--reverse", f"{OLD_TIPS[branch]}..{branch}").split()


def check_backports(branch):
    commits = new_commits(branch)
    assert git("rev-list", "--merges", f"{OLD_TIPS[branch]}..{branch}").strip() == ""
    sources = []
    for c in commits:
        body = git("log", "-1", "--format=%B", c)
        refs = [l[len("(cherry picked from commit "):-1] for l in body.splitlines()
                if l.startswith("(cherry picked from commit ") and l.endswith(")")]
        assert len(refs) == 1, f"{c} must say once where it was cherry-picked from:\n{body}"
        sources.append(refs[0])
        assert git("log", "-1", "--format=%s", c) == git("log", "-1", "--format=%s", refs[0])
    assert sources == EXPECTED[branch]


def run_module(branch, module, func, inputs):
    tmp = tempfile.mkdtemp()
    os.makedirs(f"{tmp}/qty")
    open(f"{tmp}/qty/__init__.py", "w").close()
    with open(f"{tmp}/qty/{module}.py", "w") as fh:
        fh.write(git("show", f"{branch}:qty/{module}.py"))
    code = f"""
import json, sys
from qty.{module} import {func} as f
out = []
for x in json.load(sys.stdin):
    try:
        out.append(["ok", f(x)])
    except Exception as e:
        out.append(["err", type(e).__name__])
print(json.dumps(out))
"""
    proc = subprocess.run(["python3", "-c", code], cwd=tmp, input=json.dumps(inputs), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def model_size(n, units, whole_bytes, percent_style):
    value, sign, i = abs(n), "-" if n < 0 else "", 0
    while value >= 1024 and i < len(units) - 1:
        value /= 1024
        i += 1
    if whole_bytes and i == 0:
        return f"{sign}{value} B"
    return "%s%.1f %s" % (sign, value, units[i]) if percent_style else f"{sign}{value:.1f} {units[i]}"


def model_duration(text, strict):
    factors = {"h": 3600, "m": 60, "s": 1}
    total, num = 0, ""
    for ch in text.lower():
        if ch.isdigit():
            num += ch
        else:
            if ch not in factors or not num:
                return ["err", "ValueError"]
            total += int(num) * factors[ch]
            num = ""
    if strict and (num or not text):
        return ["err", "ValueError"]
    return ["ok", total]


def size_inputs():
    rng = random.Random()
    xs = [0, 1, 512, 1023, 1024, -1024, 1025, 1536, -2048, 1024 ** 2, 1024 ** 3, 1024 ** 4, 5 * 1024 ** 5, -7]
    xs += [rng.randint(-10 ** 6, 10 ** 6) for _ in range(30)]
    xs += [rng.randint(-2 ** 62, 2 ** 62) for _ in range(30)]
    xs += [rng.choice([-1, 1]) * rng.randint(1, 9) * 1024 ** rng.randint(0, 5) for _ in range(20)]
    return xs


def duration_inputs():
    rng = random.Random()
    xs = ["1h30m", "45s", "2M", "1H30M5S", "5m30", "90", "", "5x", "1h 30m", "250ms", "m", "10d", "3S"]
    for _ in range(60):
        parts = [str(rng.randint(0, 99)) + rng.choice("hmsHMS") for _ in range(rng.randint(1, 4))]
        kind = rng.random()
        if kind < 0.2:
            parts.append(str(rng.randint(1, 99)))
        elif kind < 0.35:
            parts.insert(rng.randrange(len(parts) + 1), str(rng.randint(1, 9)) + rng.choice("xdwq"))
        xs.append("".join(parts))
    return xs


def test_release_1x_backports():
    check_backports("release/1.x")


def test_release_2x_backports():
    check_backports("release/2.x")


def test_history_kept():
    assert git("rev-parse", "main").strip() == MAIN
    for branch, tip in OLD_TIPS.items():
        proc = subprocess.run(["git", "-C", REPO, "merge-base", "--is-ancestor", tip, branch])
        assert proc.returncode == 0, branch
    assert git("rev-parse", "v1.0.1^{commit}").strip() == OLD_TIPS["release/1.x"]
    assert git("rev-parse", "v2.0^{commit}").strip() == OLD_TIPS["release/2.x"]


def test_size_behaviour_on_both_branches():
    xs = size_inputs()
    got1 = run_module("release/1.x", "size", "human_size", xs)
    assert got1 == [["ok", model_size(x, ["B", "KiB", "MiB", "GiB"], False, True)] for x in xs]
    got2 = run_module("release/2.x", "size", "human_size", xs)
    assert got2 == [["ok", model_size(x, ["B", "KiB", "MiB", "GiB", "TiB", "PiB"], True, False)] for x in xs]


def test_duration_behaviour_on_both_branches():
    xs = duration_inputs()
    got1 = run_module("release/1.x", "duration", "parse_duration", xs)
    assert got1 == [model_duration(x, strict=False) for x in xs], list(zip(xs, got1))
    got2 = run_module("release/2.x", "duration", "parse_duration", xs)
    assert got2 == [model_duration(x, strict=True) for x in xs], list(zip(xs, got2))


def test_changelogs():
    assert git("show", "release/1.x:CHANGELOG.md") == (
        "# Changelog\n\n## Unreleased\n- Raise ValueError for unknown duration units\n"
        "- Keep the sign of negative sizes in human_size\n- Accept uppercase unit letters in parse_duration\n\n"
        "## 1.0.1\n- Fix exact powers of 1024 in human_size\n- Support Python 3.5: no f-strings\n\n"
        "## 1.0\n- First release\n")
    assert git("show", "release/2.x:CHANGELOG.md") == (
        "# Changelog\n\n## Unreleased\n- Print whole bytes without a decimal point\n"
        "- Raise ValueError for unknown duration units\n- Reject durations that end in a number or are empty\n"
        "- Keep the sign of negative sizes in human_size\n- Accept uppercase unit letters in parse_duration\n\n"
        "## 2.0\n- Fix exact powers of 1024 in human_size\n- Add TiB and PiB units\n\n## 1.0\n- First release\n")


def test_nothing_else_leaks():
    for branch, tip in OLD_TIPS.items():
        changed = set(git("diff", "--name-only", tip, branch).split())
        assert changed <= {"qty/size.py", "qty/duration.py", "CHANGELOG.md"}, (branch, changed)
        assert "import re" not in git("show", f"{branch}:qty/duration.py")
    for module in ("size", "duration"):  # release/1.x still supports Python 3.5: no f-strings
        text = git("show", f"release/1.x:qty/{module}.py")
        assert not re.search(r"(?<![\w])[fF][rR]?[\"']", text), text


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all") == ""
    assert not os.path.exists(os.path.join(REPO, ".git", "CHERRY_PICK_HEAD"))
    assert not os.path.exists(os.path.join(REPO, ".git", "sequencer"))
