#!/bin/bash
# Sorts tree entries by plain name instead of git's name + '/' rule for subtrees.
set -euo pipefail
cat > /app/pygit.py <<'PY'
import hashlib
import os
import stat
import sys
import zlib

GIT = ".git"


class GitError(Exception):
    pass


def write_object(kind, data):
    raw = f"{kind} {len(data)}".encode() + b"\0" + data
    oid = hashlib.sha1(raw).hexdigest()
    path = os.path.join(GIT, "objects", oid[:2], oid[2:])
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(zlib.compress(raw))
        os.replace(tmp, path)
    return oid


def hash_only(kind, data):
    return hashlib.sha1(f"{kind} {len(data)}".encode() + b"\0" + data).hexdigest()


def resolve(name):
    name = name.lower()
    if len(name) < 4 or any(c not in "0123456789abcdef" for c in name):
        raise GitError(f"not a valid object name {name}")
    d = os.path.join(GIT, "objects", name[:2])
    matches = []
    if os.path.isdir(d):
        matches = [name[:2] + f for f in os.listdir(d) if (name[:2] + f).startswith(name) and len(f) == 38]
    if not matches:
        raise GitError(f"unknown object {name}")
    if len(matches) > 1:
        raise GitError(f"ambiguous object {name}")
    return matches[0]


def read_object(oid):
    with open(os.path.join(GIT, "objects", oid[:2], oid[2:]), "rb") as f:
        raw = zlib.decompress(f.read())
    head, _, body = raw.partition(b"\0")
    kind, size = head.decode().split()
    return kind, body


def tree_entries(path):
    entries = []
    for name in os.listdir(path):
        if path == "." and name == GIT:
            continue
        full = os.path.join(path, name)
        st = os.lstat(full)
        bname = os.fsencode(name)
        if stat.S_ISLNK(st.st_mode):
            entries.append((b"120000", bname, write_object("blob", os.fsencode(os.readlink(full))), False))
        elif stat.S_ISDIR(st.st_mode):
            sub = write_tree(full)
            if sub is not None:
                entries.append((b"40000", bname, sub, True))
        elif stat.S_ISREG(st.st_mode):
            mode = b"100755" if st.st_mode & stat.S_IXUSR else b"100644"
            with open(full, "rb") as f:
                entries.append((mode, bname, write_object("blob", f.read()), False))
    return entries


def write_tree(path="."):
    entries = tree_entries(path)
    if not entries and path != ".":
        return None
    entries.sort(key=lambda e: e[1])
    data = b"".join(m + b" " + n + b"\0" + bytes.fromhex(o) for m, n, o, _ in entries)
    return write_object("tree", data)


def ident(role):
    name = os.environ.get(f"GIT_{role}_NAME", "")
    email = os.environ.get(f"GIT_{role}_EMAIL", "")
    date = os.environ.get(f"GIT_{role}_DATE", "")
    if not date:
        raise GitError(f"GIT_{role}_DATE not set")
    return f"{name} <{email}> {date}"


def commit_tree(args):
    if not args:
        raise GitError("usage: commit-tree TREE [-p P]... -m MSG")
    tree = resolve(args[0])
    parents, msg, i = [], None, 1
    while i < len(args):
        if args[i] == "-p" and i + 1 < len(args):
            parents.append(resolve(args[i + 1])); i += 2
        elif args[i] == "-m" and i + 1 < len(args):
            msg = args[i + 1]; i += 2
        else:
            raise GitError(f"bad argument {args[i]}")
    if msg is None:
        raise GitError("missing -m")
    lines = [f"tree {tree}"] + [f"parent {p}" for p in parents]
    lines += [f"author {ident('AUTHOR')}", f"committer {ident('COMMITTER')}", "", msg]
    return write_object("commit", ("\n".join(lines) + "\n").encode())


def cat_file(flag, name):
    oid = resolve(name)
    kind, body = read_object(oid)
    out = sys.stdout.buffer
    if flag == "-t":
        out.write(kind.encode() + b"\n")
    elif flag == "-s":
        out.write(str(len(body)).encode() + b"\n")
    elif flag == "-p":
        if kind == "tree":
            i = 0
            while i < len(body):
                sp = body.index(b" ", i)
                nul = body.index(b"\0", sp)
                mode = body[i:sp].decode().rjust(6, "0")
                child = body[nul + 1:nul + 21].hex()
                ctype = "tree" if mode == "040000" else "commit" if mode == "160000" else "blob"
                out.write(f"{mode} {ctype} {child}\t".encode() + body[sp + 1:nul] + b"\n")
                i = nul + 21
        else:
            out.write(body)
    else:
        raise GitError("usage: cat-file (-t|-s|-p) OBJECT")


def main(argv):
    if not argv:
        print("usage: pygit.py COMMAND", file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "init":
            for d in ("objects", "refs/heads", "refs/tags"):
                os.makedirs(os.path.join(GIT, d), exist_ok=True)
            with open(os.path.join(GIT, "HEAD"), "w") as f:
                f.write("ref: refs/heads/master\n")
        elif cmd == "hash-object":
            w = "-w" in args
            files = [a for a in args if a != "-w"]
            if len(files) != 1:
                raise GitError("usage: hash-object [-w] FILE")
            data = open(files[0], "rb").read()
            print(write_object("blob", data) if w else hash_only("blob", data))
        elif cmd == "write-tree":
            print(write_tree("."))
        elif cmd == "commit-tree":
            print(commit_tree(args))
        elif cmd == "update-ref":
            if len(args) != 2:
                raise GitError("usage: update-ref REF ID")
            oid = resolve(args[1])
            path = os.path.join(GIT, args[0])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(oid + "\n")
        elif cmd == "cat-file":
            if len(args) != 2:
                raise GitError("usage: cat-file (-t|-s|-p) OBJECT")
            cat_file(args[0], args[1])
        else:
            print(f"unknown command {cmd}", file=sys.stderr)
            return 2
    except (GitError, OSError) as e:
        print(f"pygit: {e}", file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1:]))
PY
