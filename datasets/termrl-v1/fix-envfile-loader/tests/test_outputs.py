import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, "/tests")
from envref import RefError, parse as ref_parse  # noqa: E402

APP = "/app"

RUNNER = r"""
import json, sys
sys.path.insert(0, "/app")
import envload
cases = json.load(sys.stdin)
out = []
for text, environ in cases:
    try:
        out.append({"ok": envload.parse(text, environ)})
    except envload.EnvError as e:
        out.append({"err": e.line})
json.dump(out, sys.stdout)
"""


def expected(text, environ):
    try:
        return {"ok": ref_parse(text, environ)}
    except RefError as e:
        return {"err": e.line}


def check_cases(cases):
    r = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(cases), capture_output=True,
                       text=True, cwd=APP, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout)
    assert len(got) == len(cases)
    for (text, environ), g in zip(cases, got):
        want = expected(text, environ)
        assert g == want, f"file:\n{text!r}\nenviron={environ}\ngot {g}\nexpected {want}"
    return got


def test_quoted_values_with_hash():
    cases = [
        ('COLORS="#fff #000"\nNEXT=1\n', {}),
        ("PW='s3cr #t' # trailing comment\n", {}),
        ('A="x # y" # c\nB=plain # comment\nC=a#b\nD=#empty\n', {}),
        ('E="tab\t#x"\nF=v\t# c\n', {}),
        ('G="multi #\nline # kept" # c\n', {}),
        ("H='a #b' junk\n", {}),
    ]
    check_cases(cases)


def test_escapes_and_references_in_one_pass():
    env = {"WIN": "C:\\new\\tools", "HOME": "/home/u", "D": "$HOME", "Q": 'say "hi"'}
    cases = [
        ('P="$WIN"\n', env),
        ('P="${WIN}\\n$HOME"\n', env),
        ('A="\\$HOME costs \\$5"\n', env),
        ('A="\\\\$HOME"\n', env),
        ('A="$D and ${D}"\n', env),
        ('A="$Q"\nB="${Q:-x}\\t|"\n', env),
        ('A="\\x\\y\\\\z"\nB=C:\\new\\$HOME\n', env),
        ("W=$WIN\nX=\"$W\\\\n\"\n", env),
    ]
    check_cases(cases)


def test_lookup_precedence():
    env = {"HOST": "env-host", "PORT": "1", "EMPTY": "", "USER": "root"}
    cases = [
        ("HOST=file-host\nURL=http://$HOST:${PORT}/\n", env),
        ("URL=$HOST\nHOST=later\n", env),
        ("PORT=\nX=${PORT:-80}|$PORT|\n", env),
        ("X=${EMPTY:-dflt}|${USER:-nobody}|${NOPE:-none}|${NOPE}|\n", env),
        ("USER=a\nUSER=b\nX=$USER\nUSER=c\n", env),
        ("A=1\nB=\"$A$A\"\nA=2\nC=${A}${B}\n", env),
    ]
    check_cases(cases)


def test_error_lines_after_multiline_values():
    cases = [
        ('A="one\ntwo\nthree"\nB=ok\n9BAD=x\n', {}),
        ('A="one\n\n"\n  # c\nB="open\n', {}),
        ('\n\nA="x\ny" trailing\n', {}),
        ('A="x\ny"\nB="${unterminated\nz"\n', {}),
        ("A='a\nb'\n", {}),
        ('A="l1\nl2\nl3"\nB="l4\nl5"\nC=${1bad}\n', {}),
        ('A="a\\"\nb"\nnot an entry\n', {}),
    ]
    got = check_cases(cases)
    assert got[0] == {"err": 5} and got[2] == {"err": 3}


def test_cli(tmp_path):
    f = tmp_path / "app.env"
    f.write_text('export NAME="svc #1"\nHOME_DIR=$HOME/app\nMSG="hello\nworld"\r\nSHADOW=file\nS=$SHADOW\n')
    env = dict(os.environ, HOME="/home/cli", SHADOW="environ")
    r = subprocess.run([sys.executable, "-m", "envload", str(f)], capture_output=True, text=True, cwd=APP,
                       env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"NAME": "svc #1", "HOME_DIR": "/home/cli/app", "MSG": "hello\nworld",
                                    "SHADOW": "file", "S": "file"}
    f.write_text('A="x\ny\nz"\nB=1\n  bad line\n')
    r = subprocess.run([sys.executable, "-m", "envload", str(f)], capture_output=True, text=True, cwd=APP,
                       timeout=60)
    assert r.returncode == 1 and r.stdout.strip() == ""
    assert r.stderr.startswith("error: line 5:"), r.stderr
    r = subprocess.run([sys.executable, "-m", "envload", str(tmp_path / "missing.env")], capture_output=True,
                       text=True, cwd=APP, timeout=60)
    assert r.returncode == 2


NAMES = ["A", "B", "HOST", "PORT", "_x", "PATH2", "EMPTY"]
WORDS = ["abc", "#", " #", "\t#", "x#y", "$A", "${B}", "${HOST:-h}", "${EMPTY:-e}", "$", "$1", "\\", "\\n", "\\$",
         "\\\\", "\\t", "\\\"", "\\q", "C:\\new", "'", " ", "  ", "{", "}", "=", "end", "${NOPE:-n #}"]


def rand_value(rng):
    kind = rng.random()
    body = "".join(rng.choice(WORDS) for _ in range(rng.randint(0, 5)))
    if kind < 0.35:
        return body.replace("\n", "").replace("'", "").lstrip('"')
    if kind < 0.55:
        return "'" + body.replace("'", "").replace('"', "") + "'" + rng.choice(["", " # c", " junk", "  "])
    parts = [body]
    for _ in range(rng.choice([0, 0, 1, 2])):
        parts.append("".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3))))
    text = "\n".join(parts).replace('"', "")
    if text.endswith("\\") and not text.endswith("\\\\"):
        text += "z"
    close = "" if rng.random() < 0.04 else '"'
    return '"' + text + close + rng.choice(["", " # c", "\t", " x"] if close else [""])


def rand_file(rng):
    lines = []
    for _ in range(rng.randint(1, 9)):
        r = rng.random()
        if r < 0.1:
            lines.append(rng.choice(["", "   ", "# comment", "  # indented comment"]))
        elif r < 0.13:
            lines.append(rng.choice(["BAD LINE", "9X=1", "=v", "export"]))
        else:
            lead = rng.choice(["", "", "export ", "  ", "\t"])
            lines.append(lead + rng.choice(NAMES) + rng.choice(["=", " = ", "=\t"]) + rand_value(rng))
    return "\n".join(lines) + rng.choice(["\n", "", "\r\n"])


def test_random_files_against_reference():
    rng = random.Random(5150)
    cases = []
    for _ in range(400):
        env = {k: rng.choice(["", "env-" + k, "C:\\dir\\n", "$A", "v #1"]) for k in rng.sample(NAMES, 3)}
        cases.append((rand_file(rng), env))
    got = check_cases(cases)
    oks = sum("ok" in g for g in got)
    assert 100 <= oks <= 390
