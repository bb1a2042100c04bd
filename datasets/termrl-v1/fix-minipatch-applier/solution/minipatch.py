"""minipatch - apply a unified diff (as written by `diff -u` or `git diff`) to a directory tree.

Usage:
    python3 minipatch.py [-pN] [-d DIR] [PATCHFILE]      (the patch is read from stdin without PATCHFILE)

Input
    One or more file sections. Every line that is not part of a section (for example `diff --git ...`,
    `index ...`, `new file mode ...`, or any commentary) is ignored. A section is a `--- OLD` line directly
    followed by a `+++ NEW` line (anything after a TAB in these lines, such as a timestamp, is not part of
    the name), then one or more hunks.

Names
    -pN strips the N leading components (up to and including the N-th `/`) from both names (default N=0).
    The file patched is NEW, or OLD when NEW is `/dev/null`. `/dev/null` as OLD means the file is created
    (missing parent directories are created too; if the file already exists, the hunk fails); `/dev/null`
    as NEW means the file is deleted once its hunks have applied.

Hunks
    `@@ -A[,B] +C[,D] @@ ...` - a count that is left out (`-A` instead of `-A,B`) is 1. The body holds the
    hunk's lines: ` ` context (in both versions), `-` only in the old version, `+` only in the new one;
    B counts the ` ` and `-` lines, D the ` ` and `+` lines. A line `\\ No newline at end of file` says that
    the body line just before it has no final newline - in the version(s) that line belongs to (both for
    ` `, the old version for `-`, the new version for `+`).
    A is the number of the first old line of the hunk (1-based); when B is 0 (nothing is removed and there
    is no context), A is the line *after which* the new lines go (0: at the start).

Placement
    A hunk applies where its old lines (` ` and `-`, with their exact line endings) equal consecutive lines of
    the file as it was before patching. Its expected position is where its header says, moved by the offset
    at which the previous hunk of the same file applied (the first hunk: no offset). If the old lines do not
    match there, the positions at distance 1, 2, 3, ... from it are tried, for each distance first the later
    position and then the earlier one; the first match wins. A hunk may not start before the end of the
    previous hunk's old lines (hunks apply in order and never overlap). If nothing matches, the hunk fails.

Result
    Prints `patching file NAME` for every file section. A file is written only when every hunk of its section
    applied; otherwise the file stays exactly as it was, `NAME: hunk #K FAILED` is printed to stderr (K counts
    from 1 within the section) and the next section is processed.
    Exit status: 0 when everything applied, 1 when any hunk failed, 2 when the patch text is malformed
    (a bad hunk header, a hunk shorter than its header says, a body line with an unknown prefix); in that
    case no file is touched at all.
"""
import os
import re
import sys

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
NO_NEWLINE = "\\ No newline at end of file"


class PatchError(Exception):
    pass


def drop_newline(line):
    return line[:-1] if line.endswith("\n") else line


def parse(text):
    lines = text.splitlines(keepends=True)
    sections = []
    i = 0
    while i < len(lines):
        if not (lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")):
            i += 1
            continue
        old_name = lines[i][4:].rstrip("\n").split("\t")[0]
        new_name = lines[i + 1][4:].rstrip("\n").split("\t")[0]
        i += 2
        hunks = []
        while i < len(lines) and lines[i].startswith("@@"):
            m = HUNK_RE.match(lines[i])
            if not m:
                raise PatchError(f"bad hunk header: {lines[i].rstrip()}")
            a = int(m.group(1))
            b = 1 if m.group(2) is None else int(m.group(2))
            d = 1 if m.group(4) is None else int(m.group(4))
            i += 1
            old, new, last = [], [], None
            while len(old) < b or len(new) < d or (i < len(lines) and lines[i].startswith("\\")):
                if i >= len(lines):
                    raise PatchError("hunk shorter than its header says")
                line = lines[i]
                i += 1
                if line.startswith("\\"):
                    if last in ("both", "old"):
                        old[-1] = drop_newline(old[-1])
                    if last in ("both", "new"):
                        new[-1] = drop_newline(new[-1])
                    continue
                tag, body = line[:1], line[1:]
                if tag == " ":
                    old.append(body)
                    new.append(body)
                    last = "both"
                elif tag == "-":
                    old.append(body)
                    last = "old"
                elif tag == "+":
                    new.append(body)
                    last = "new"
                else:
                    raise PatchError(f"unexpected line in hunk: {line.rstrip()}")
                if len(old) > b or len(new) > d:
                    raise PatchError("hunk longer than its header says")
            hunks.append((a, b, old, new))
        sections.append((old_name, new_name, hunks))
    return sections


def strip(name, n):
    if name == "/dev/null":
        return None
    parts = name.split("/")
    if n >= len(parts):
        raise PatchError(f"cannot strip {n} components from {name}")
    return "/".join(parts[n:])


def locate(lines, old, expected, lowest):
    def fits(p):
        return lowest <= p and p + len(old) <= len(lines) and lines[p:p + len(old)] == old

    if fits(expected):
        return expected
    for dist in range(1, len(lines) + abs(expected) + 2):
        if fits(expected + dist):
            return expected + dist
        if fits(expected - dist):
            return expected - dist
    return None


def apply_hunks(lines, hunks):
    out, done, offset = [], 0, 0
    for k, (a, b, old, new) in enumerate(hunks, 1):
        start = a if b == 0 else a - 1
        where = locate(lines, old, start + offset, done)
        if where is None:
            return None, k
        out.extend(lines[done:where])
        out.extend(new)
        done = where + len(old)
        offset = where - start
    out.extend(lines[done:])
    return out, None


def main(argv):
    strip_n, root, source = 0, ".", None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg.startswith("-p"):
            strip_n = int(arg[2:] or args.pop(0))
        elif arg == "-d":
            root = args.pop(0)
        else:
            source = arg
    text = open(source, encoding="utf-8", newline="").read() if source else sys.stdin.read()
    try:
        sections = parse(text)
        plans = [(strip(o, strip_n), strip(n, strip_n), hunks) for o, n, hunks in sections]
    except PatchError as exc:
        print(f"minipatch: {exc}", file=sys.stderr)
        return 2
    status = 0
    for old_name, new_name, hunks in plans:
        name = new_name if new_name is not None else old_name
        path = os.path.join(root, name)
        print(f"patching file {name}")
        if old_name is None:
            lines = None if os.path.exists(path) else []
        else:
            with open(path, encoding="utf-8", newline="") as fh:
                lines = fh.read().splitlines(keepends=True)
        result, failed = (None, 1) if lines is None else apply_hunks(lines, hunks)
        if result is None:
            print(f"{name}: hunk #{failed} FAILED", file=sys.stderr)
            status = 1
            continue
        if new_name is None:
            os.remove(path)
            continue
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write("".join(result))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
