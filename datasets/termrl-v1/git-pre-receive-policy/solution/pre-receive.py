#!/usr/bin/env python3
"""pre-receive policy hook: conventional subjects, no big or secret files, protected main and release tags."""
import re
import subprocess
import sys

ZERO = "0" * 40
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
SUBJECT = re.compile(r"(feat|fix|docs|chore|refactor|test)(\([a-z0-9-]+\))?: .*\S.*")
LIMIT = 102400


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def message_first_line(commit):
    raw = git("cat-file", "commit", commit)
    return raw.split("\n\n", 1)[1].split("\n", 1)[0] if "\n\n" in raw else ""


def parents(commit):
    return git("rev-list", "--parents", "-n", "1", commit).split()[1:]


def secret(path):
    name = path.rsplit("/", 1)[-1]
    return name.endswith((".pem", ".key")) or name.startswith("id_rsa")


def check_commit(ref, commit, problems):
    ps = parents(commit)
    if len(ps) <= 1:
        line = message_first_line(commit)
        if len(line) > 72 or not SUBJECT.fullmatch(line):
            problems.append(f"policy: {ref} {commit}: subject does not follow the convention: {line!r}")
    base = ps[0] if ps else EMPTY_TREE
    out = git("diff-tree", "-r", "--no-renames", "-z", base, commit)
    fields = out.split("\0")
    i = 0
    while i + 1 < len(fields):
        meta, path = fields[i].lstrip(":"), fields[i + 1]
        i += 2
        parts = meta.split()
        if len(parts) < 5:
            continue
        new_mode, new_sha, status = parts[1], parts[3], parts[4]
        if status[0] not in "AMT" or new_mode == "160000":
            continue
        if secret(path):
            problems.append(f"policy: {ref} {commit}: secret-looking file {path}")
        if int(git("cat-file", "-s", new_sha)) > LIMIT:
            problems.append(f"policy: {ref} {commit}: file {path} is larger than {LIMIT} bytes")


def main():
    updates = [line.split() for line in sys.stdin if line.strip()]
    problems, seen = [], set()
    for old, new, ref in updates:
        if ref == "refs/heads/main":
            if new == ZERO:
                problems.append(f"policy: {ref}: main may not be deleted")
            elif old != ZERO and subprocess.run(["git", "merge-base", "--is-ancestor", old, new]).returncode:
                problems.append(f"policy: {ref}: non-fast-forward update of main")
        if ref.startswith("refs/tags/v"):
            if old != ZERO:
                problems.append(f"policy: {ref}: release tags may not be moved or deleted")
            if new != ZERO and git("cat-file", "-t", new).strip() != "tag":
                problems.append(f"policy: {ref}: release tags must be annotated")
        if new == ZERO:
            continue
        for commit in git("rev-list", new, "--not", "--all").split():
            if (ref, commit) not in seen:
                seen.add((ref, commit))
                check_commit(ref, commit, problems)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
