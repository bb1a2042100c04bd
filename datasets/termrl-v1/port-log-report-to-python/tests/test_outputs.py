import os
import random
import subprocess

import pytest

REFERENCE = r'''#!/bin/bash
set -eu
export LC_ALL=C
top=3
while getopts "n:" o; do
  case $o in
    n) top=$OPTARG ;;
    *) echo "usage: report.sh [-n N] LOGFILE" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: report.sh [-n N] LOGFILE" >&2; exit 2; }
log=$1
[ -r "$log" ] || { echo "cannot read $log" >&2; exit 1; }
lines=$(grep -c . "$log" || true)
echo "requests: $lines"
echo "unique_ips: $(awk 'NF{print $1}' "$log" | sort -u | wc -l)"
awk 'NF{b=$10; if (b == "-") b = 0; s += b} END{printf "bytes: %d\n", s}' "$log"
echo "top_paths:"
awk 'NF{print $7}' "$log" | sort | uniq -c | sort -k1,1nr -k2,2 | head -n "$top" | awk '{printf "  %s %d\n", $2, $1}'
echo "status:"
awk 'NF{print substr($9, 1, 1) "xx"}' "$log" | sort | uniq -c | awk '{printf "  %s %d\n", $2, $1}'
'''


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    p = tmp_path_factory.mktemp("ref") / "report.sh"
    p.write_text(REFERENCE)
    os.chmod(p, 0o755)
    return str(p)


def both(ref, args):
    a = subprocess.run(["bash", ref, *args], capture_output=True, timeout=30)
    b = subprocess.run(["python3", "/app/report.py", *args], capture_output=True, timeout=30)
    return a, b


def gen_log(rng, n, blanks=False, trailing_nl=True):
    paths = ["/", "/index.html", "/api/items", "/API/items", "/login", "/a_b", "/a-b", "/z"]
    out = []
    for i in range(n):
        if blanks and rng.random() < 0.15:
            out.append(rng.choice(["", "   ", "\t", " \t "]))
            continue
        ip = f"192.168.{rng.randint(0, 2)}.{rng.randint(1, 9)}"
        b = rng.choice(["-", str(rng.randint(0, 99999))])
        out.append(f'{ip} - - [01/Feb/2024:0{rng.randint(0,9)}:00:00 +0100] "{rng.choice(["GET","POST"])} '
                   f'{rng.choice(paths)} HTTP/1.1" {rng.choice([200, 201, 301, 304, 404, 418, 500, 503])} {b}')
    text = "\n".join(out)
    return text + ("\n" if trailing_nl and out else "")


def check(ref, tmp_path, text, extra=()):
    p = tmp_path / "log.txt"
    p.write_text(text)
    a, b = both(ref, [*extra, str(p)])
    assert b.returncode == a.returncode, b.stderr
    assert b.stdout == a.stdout, (text, extra)


def test_sample_log(ref):
    for extra in ([], ["-n", "1"], ["-n", "10"]):
        a, b = both(ref, [*extra, "/app/sample.log"])
        assert b.returncode == 0 and b.stdout == a.stdout


def test_random_logs(ref, tmp_path):
    rng = random.Random(42)
    for _ in range(25):
        check(ref, tmp_path, gen_log(rng, rng.randint(1, 80)), ["-n", str(rng.randint(0, 6))])


def test_blank_and_whitespace_lines(ref, tmp_path):
    rng = random.Random(7)
    for _ in range(15):
        check(ref, tmp_path, gen_log(rng, rng.randint(5, 60), blanks=True))
    check(ref, tmp_path, "   \n\t\n\n")


def test_no_trailing_newline_and_empty(ref, tmp_path):
    rng = random.Random(8)
    check(ref, tmp_path, gen_log(rng, 10, trailing_nl=False))
    check(ref, tmp_path, "")


def test_ties_sorted(ref, tmp_path):
    lines = [f'1.1.1.1 - - [x +0] "GET /{p} HTTP/1.1" 200 1' for p in ["b", "a", "c", "B", "a", "b", "c", "_"]]
    check(ref, tmp_path, "\n".join(lines) + "\n", ["-n", "4"])
    check(ref, tmp_path, "\n".join(lines) + "\n", ["-n0"])


def test_errors(ref, tmp_path):
    for args in ([], ["/nonexistent/file.log"], [str(tmp_path), str(tmp_path)], ["-x", "/app/sample.log"]):
        a, b = both(ref, list(args))
        assert b.returncode == a.returncode, args
        assert b.stdout == b"", args
