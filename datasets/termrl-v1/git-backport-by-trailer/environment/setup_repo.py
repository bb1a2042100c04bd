"""Builds /app/repo deterministically: main plus two release branches; main's commits carry Backport trailers."""
import os
import re
import subprocess
from pathlib import Path

REPO = Path("/app/repo")
AUTHORS = [("Ines Duarte", "ines@example.pt"), ("Tomas Berg", "tomas@example.se"), ("Ana Kovac", "ana@example.hr")]
ENV = dict(os.environ)
tick = [0]


def git(*args, out=False):
    proc = subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True, text=True)
    return proc.stdout.strip() if out else None


def write(path, text):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def read(path):
    return (REPO / path).read_text()


def commit(msg, author=0):
    tick[0] += 1
    date = f"2025-05-{1 + tick[0] // 4:02d}T{9 + 2 * (tick[0] % 4):02d}:{(tick[0] * 13) % 60:02d}:00 +0200"
    name, mail = AUTHORS[author]
    ENV.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=mail, GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=mail,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    git("add", "-A")
    git("commit", "-q", "-m", msg)
    return git("rev-parse", "HEAD", out=True)


def log_main(subject):
    text = read("CHANGELOG.md")
    if "## Unreleased\n" not in text:
        text = text.replace("# Changelog\n\n", "# Changelog\n\n## Unreleased\n\n", 1)
    text = text.replace("## Unreleased\n", f"## Unreleased\n- {subject}\n", 1)
    write("CHANGELOG.md", text)


def sub(path, old, new):
    text = read(path)
    assert old in text, (path, old)
    write(path, text.replace(old, new, 1))


SIZE = '''UNITS = ["B", "KiB", "MiB", "GiB"]


def human_size(n):
    """Format a byte count for humans: 1536 -> '1.5 KiB'."""
    value = n
    i = 0
    while value > 1024 and i < len(UNITS) - 1:
        value /= 1024
        i += 1
    return f"{value:.1f} {UNITS[i]}"
'''

DURATION = '''FACTORS = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    """'1h30m', '45s', '2m' -> seconds"""
    total = 0
    num = ""
    for ch in text:
        if ch.isdigit():
            num += ch
        else:
            total += int(num) * FACTORS[ch]
            num = ""
    return total
'''

subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
write("qty/__init__.py", "")
write("qty/size.py", SIZE)
write("qty/duration.py", DURATION)
write("README.md", "# qty\n\nHuman-readable sizes and durations: `qty.size.human_size`, `qty.duration.parse_duration`.\n")
write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n\n## 1.0\n- First release\n")
write(".gitignore", "__pycache__/\n")
commit("First release")
sub("CHANGELOG.md", "## Unreleased\n\n## 1.0", "## 1.0")
commit("Release 1.0")
git("tag", "v1.0")

# ---- main, part 1
m = {}
sub("qty/size.py", '"GiB"]', '"GiB", "TiB", "PiB"]')
log_main("Add TiB and PiB units")
m[1] = commit("Add TiB and PiB units", 1)
FIX_POW = "Fix exact powers of 1024 in human_size"
sub("qty/size.py", "while value > 1024", "while value >= 1024")
log_main(FIX_POW)
m[2] = commit(f"{FIX_POW}\n\n1024 bytes printed as '1024.0 B'.\n\nBackport: 1.x\n", 0)
sub("CHANGELOG.md", "## Unreleased\n", "## 2.0\n")
m[3] = commit("Release 2.0", 2)
git("tag", "v2.0")
git("branch", "release/2.x")

# ---- release/1.x (from v1.0)
git("checkout", "-q", "-b", "release/1.x", "v1.0")
sub("qty/size.py", 'return f"{value:.1f} {UNITS[i]}"', 'return "%.1f %s" % (value, UNITS[i])')
write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n- Support Python 3.5: no f-strings\n\n## 1.0\n- First release\n")
commit("Support Python 3.5: no f-strings", 2)
sub("qty/size.py", "while value > 1024", "while value >= 1024")
sub("CHANGELOG.md", "## Unreleased\n", f"## Unreleased\n- {FIX_POW}\n")
commit(f"{FIX_POW}\n\n1024 bytes printed as '1024.0 B'.\n", 0)   # backported by hand earlier, without -x
sub("CHANGELOG.md", "## Unreleased\n", "## 1.0.1\n")
commit("Release 1.0.1", 2)
git("tag", "v1.0.1")

# ---- main, part 2
git("checkout", "-q", "main")
S = "Accept uppercase unit letters in parse_duration"
sub("qty/duration.py", "    for ch in text:", "    for ch in text.lower():")
log_main(S)
m[4] = commit(f"{S}\n\n'1H30M' raised KeyError.\n\nBackport: 1.x, 2.x\nReviewed-by: Ana Kovac <ana@example.hr>\n", 1)

S = "Add milliseconds to parse_duration"
write("qty/duration.py", '''import re

FACTORS = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}


def parse_duration(text):
    """'1h30m', '45s', '250ms' -> seconds"""
    total = 0
    for number, unit in re.findall(r"(\\d+)([a-z]+)", text.lower()):
        total += int(number) * FACTORS[unit]
    return total
''')
log_main(S)
m[5] = commit(f"{S}\n\nRewritten with a regular expression, units may now be longer than one letter.\n\n"
              "No-Backport: 1.x, 2.x (a feature)\n", 0)

S = "Keep the sign of negative sizes in human_size"
sub("qty/size.py", "    value = n\n", "    value = abs(n)\n    sign = \"-\" if n < 0 else \"\"\n")
sub("qty/size.py", 'return f"{value:.1f} {UNITS[i]}"', 'return f"{sign}{value:.1f} {UNITS[i]}"')
log_main(S)
m[6] = commit(f"{S}\n\nNegative deltas were never scaled: -2048 gave '-2048.0 B'.\n\nBackport: 1.x, 2.x\n", 2)

S = "Reject durations that end in a number or are empty"
sub("qty/duration.py", '''    total = 0
    for number, unit in re.findall(r"(\\d+)([a-z]+)", text.lower()):''', '''    text = text.lower()
    parts = re.findall(r"(\\d+)([a-z]+)", text)
    if not text or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"bad duration: {text!r}")
    total = 0
    for number, unit in parts:''')
log_main(S)
m[7] = commit(f"{S}\n\n'5m30' silently meant 5 minutes.\n\nBackport: 2.x\n", 1)

S = "Treat a bare number as seconds"
sub("qty/duration.py", '''    text = text.lower()
''', '''    text = text.lower()
    if text.isdigit():
        return int(text)
''')
log_main(S)
m[8] = commit(f"{S}\n\nBackport: 1.x, 2.x\n", 0)

S = "Document the accepted units"
write("README.md", read("README.md") + "\nSizes use binary units (KiB = 1024 B). Durations accept h, m, s and ms.\n")
log_main(S)
m[9] = commit(f"{S}\n\nThe 1.x documentation is frozen, so this stays on main:\n"
              "Backport: 1.x would only confuse readers of the old docs.\n\nThe 2.x docs are generated elsewhere.\n", 2)

# revert m8 (a bare number is ambiguous after all); done by hand because CHANGELOG.md moved on since
write("qty/duration.py", git("show", f"{m[8]}^:qty/duration.py", out=True) + "\n")
text = read("CHANGELOG.md").replace("- Treat a bare number as seconds\n", "")
text = text.replace("## Unreleased\n", "## Unreleased\n- Revert: a bare number is not a duration\n", 1)
write("CHANGELOG.md", text)
m[10] = commit(f'Revert "Treat a bare number as seconds"\n\nThis reverts commit {m[8]}.\n\n'
               "A bare number is ambiguous: users meant minutes as often as seconds.\n", 0)

S = "Raise ValueError for unknown duration units"
sub("qty/duration.py", '''    for number, unit in parts:
''', '''    for number, unit in parts:
        if unit not in FACTORS:
            raise ValueError(f"unknown unit {unit!r} in {text!r}")
''')
log_main(S)
m[11] = commit(f"{S}\n\nCallers catch ValueError, not KeyError.\n\nBackport: 1.x, 2.x\n", 1)

S = "Print whole bytes without a decimal point"
sub("qty/size.py", '    return f"{sign}{value:.1f} {UNITS[i]}"',
    '    if i == 0:\n        return f"{sign}{value} B"\n    return f"{sign}{value:.1f} {UNITS[i]}"')
log_main(S)
m[12] = commit(f"{S}\n\n'512.0 B' looks odd.\n\nBackport: 2.x\n", 0)

S = "Speed up human_size with bit_length"
sub("qty/size.py", '"""Format a byte count for humans: 1536 -> \'1.5 KiB\'."""\n',
    '"""Format a byte count for humans: 1536 -> \'1.5 KiB\'."""\n    # the loop is fast enough; see benchmarks/size.txt\n')
log_main(S)
m[13] = commit(f"{S}\n\nOnly a comment for now, the benchmark showed no gain.\n", 2)
for k, v in m.items():
    print(k, v)
