#!/usr/bin/env python3
"""Enforce (or report drift from) an ownership/permission policy over a tree."""
import grp
import os
import pwd
import re
import stat
import subprocess
import sys
import tempfile


class PolicyError(Exception):
    pass


def pattern_regex(pat):
    dir_only = pat.endswith("/")
    pat = pat.rstrip("/")
    anchored = "/" in pat
    pat = pat.lstrip("/")
    parts = pat.split("/")
    rx = ""
    for i, comp in enumerate(parts):
        last = i == len(parts) - 1
        if comp == "**":
            rx += ".*" if last else "(?:[^/]+/)*"
            continue
        rx += "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in comp)
        if not last:
            rx += "/"
    if not anchored:
        rx = "(?:.*/)?" + rx
    return re.compile(rx), dir_only


class Modes:
    """Applies chmod mode strings exactly as chmod(1) does, on scratch entries (umask 0)."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.file = os.path.join(self.tmp.name, "f")
        self.dir = os.path.join(self.tmp.name, "d")
        open(self.file, "w").close()
        os.mkdir(self.dir)
        self.cache = {}

    def apply(self, mode, is_dir, spec):
        key = (mode, is_dir, spec)
        if key not in self.cache:
            p = self.dir if is_dir else self.file
            os.chmod(p, mode)
            r = subprocess.run(["chmod", "--", spec, p], capture_output=True, text=True,
                               preexec_fn=lambda: os.umask(0))
            if r.returncode != 0:
                raise PolicyError(r.stderr.strip())
            self.cache[key] = stat.S_IMODE(os.stat(p).st_mode)
        return self.cache[key]


def parse_policy(path, modes):
    rules = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            try:
                if len(fields) != 3:
                    raise PolicyError("expected PATTERN OWNER MODE")
                pat, owner, mode = fields
                uid = gid = None
                if owner != "-":
                    user, _, group = owner.partition(":")
                    if user:
                        uid = int(user) if user.isdigit() else lookup(pwd.getpwnam, user, "user")
                    if group:
                        gid = int(group) if group.isdigit() else lookup(grp.getgrnam, group, "group")
                    if not user and not group:
                        raise PolicyError("empty owner")
                if mode != "-":
                    modes.apply(0o644, False, mode)  # validates the mode
                rx, dir_only = pattern_regex(pat)
                rules.append((rx, dir_only, uid, gid, None if mode == "-" else mode))
            except PolicyError as e:
                raise PolicyError(f"error: line {n}: {e}")
    return rules


def lookup(fn, name, what):
    try:
        return fn(name)[2]
    except KeyError:
        raise PolicyError(f"unknown {what} {name}")


def fmt(uid, gid, mode):
    return f"{uid}:{gid}:{'-' if mode is None else format(mode, '04o')}"


def main(argv):
    args = [a for a in argv[1:] if a != "--check"]
    check = "--check" in argv[1:]
    if len(args) != 2:
        print("usage: permpolicy POLICY ROOT [--check]", file=sys.stderr)
        return 2
    policy, root = args
    modes = Modes()
    try:
        rules = parse_policy(policy, modes)
    except PolicyError as e:
        print(e, file=sys.stderr)
        return 2
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            entries.append((os.path.relpath(p, root).replace(os.sep, "/"), p))
    for rel, p in sorted(entries):
        st = os.lstat(p)
        is_link, is_dir = stat.S_ISLNK(st.st_mode), stat.S_ISDIR(st.st_mode)
        uid, gid = st.st_uid, st.st_gid
        mode = None if is_link else stat.S_IMODE(st.st_mode)
        cur = (uid, gid, mode)
        for rx, dir_only, ruid, rgid, rmode in rules:
            if dir_only and not is_dir:
                continue
            if not rx.fullmatch(rel):
                continue
            uid = ruid if ruid is not None else uid
            gid = rgid if rgid is not None else gid
            if rmode is not None and not is_link:
                mode = modes.apply(mode, is_dir, rmode)
        if (uid, gid, mode) == cur:
            continue
        print(f"{rel} {fmt(*cur)} -> {fmt(uid, gid, mode)}")
        if not check:
            if (uid, gid) != cur[:2]:
                os.lchown(p, uid, gid)
            if not is_link:
                os.chmod(p, mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
