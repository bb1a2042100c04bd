"""Builds /app/repo deterministically: a project whose files were committed from several systems with mixed
line endings, plus binary files that must never be converted."""
import os
import struct
import subprocess
import zlib
from pathlib import Path

REPO = Path("/app/repo")
ENV = dict(os.environ, GIT_AUTHOR_NAME="Kenji Mori", GIT_AUTHOR_EMAIL="kenji@example.jp",
           GIT_COMMITTER_NAME="Kenji Mori", GIT_COMMITTER_EMAIL="kenji@example.jp")
tick = [0]


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True).stdout


def write(path, data):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)


def crlf(text):
    return text.replace("\n", "\r\n").encode()


def lf(text):
    return text.encode()


def commit(msg):
    tick[0] += 1
    date = f"2025-04-{tick[0]:02d}T11:00:00 +0900"
    ENV.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    git("add", "-A")
    git("commit", "-q", "-m", msg)


def png(width, height, seed):
    raw = b"".join(b"\x00" + bytes(((x * 13 + y * 7 + seed) % 256) for x in range(width * 3)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
git("config", "core.autocrlf", "false")
write("README.md", lf("# tally\n\nCounts things. Build with `make`, run `scripts/run.sh`.\n"))
write("src/tally.py", crlf('import sys\n\n\ndef main():\n    print(len(sys.stdin.read().split()))\n\n\nif __name__ == "__main__":\n    main()\n'))
write("src/util.py", lf("def words(text):\n    return text.split()\n"))
write("Makefile", crlf("all:\n\tpython3 -m py_compile src/tally.py\n"))
write("scripts/run.sh", crlf('#!/bin/sh\nexec python3 "$(dirname "$0")/../src/tally.py" "$@"\n'))
write("scripts/run.bat", lf("@echo off\r\npython %~dp0\\..\\src\\tally.py %*\n"))   # mixed: one CRLF, one LF
write("scripts/setup.cmd", lf("@echo off\nset TALLY_HOME=%~dp0\n"))
write("docs/logo.png", png(16, 8, 3))
write("fixtures/crlf-input.txt", b"alpha\r\nbeta\r\ngamma\r\n")          # test data: the CRLFs are the point
write("fixtures/mixed.csv", b"id,name\r\n1,a\n2,b\r\n")
write("data/table.bin", bytes((i * 37 + 13) % 256 for i in range(600)).replace(b"\x00", b"\r\n"))
write("docs/spec.pdf", b"%PDF-1.4\r\n%\xe2\xe3\xcf\xd3\r\n1 0 obj\r\n<< /Length 12 >>\r\nstream\r\n\x00\x01\x02BT /F1 Tf ET\r\nendstream\r\n%%EOF\r\n")
write("docs/notes-utf16.txt", "Notes\r\nline two\r\n".encode("utf-16"))  # has NUL bytes: git sees binary
commit("Initial import from the old SVN tree")
write("src/util.py", crlf("def words(text):\n    return text.split()\n\n\ndef lines(text):\n    return text.splitlines()\n"))
write("docs/usage.md", crlf("# Usage\n\n    scripts/run.sh < file\n"))
commit("Add lines() and usage docs (from a Windows laptop)")
write("CHANGELOG.md", lf("# Changelog\n\n- 0.1: first version\n"))
write("scripts/build.sh", lf("#!/bin/sh\nmake\n"))
commit("Add changelog and build script")
