"""Write a git repository as plain files, byte for byte reproducible, without running git.

Loose objects, refs and an index (version 2, zeroed stat data: git re-hashes the files once and
then sees a clean tree) are enough for every porcelain command. Running git instead would stamp
the index with inode numbers and times, and the generators must give identical folders per seed.
"""

from __future__ import annotations

import hashlib
import struct
import zlib

AUTHOR = "Repo Maintainer <maintainer@example.com>"
CONFIG = ("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
          "[user]\n\tname = Repo Maintainer\n\temail = maintainer@example.com\n")


class RepoWriter:
    """Collects objects; :meth:`files` lays out ``<root>/.git`` plus the checked-out tree."""

    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}

    def _store(self, kind: str, data: bytes) -> str:
        raw = f"{kind} {len(data)}\0".encode() + data
        sha = hashlib.sha1(raw).hexdigest()
        self.objects[sha] = zlib.compress(raw)
        return sha

    def tree(self, files: dict[str, str]) -> str:
        """Store a tree (and its blobs and sub-trees) for ``path -> text``; return its id."""
        entries: dict[str, tuple[bytes, str]] = {}
        subdirs: dict[str, dict[str, str]] = {}
        for path, text in files.items():
            head, sep, rest = path.partition("/")
            if sep:
                subdirs.setdefault(head, {})[rest] = text
            else:
                entries[head] = (b"100644", self._store("blob", text.encode()))
        for name, sub in subdirs.items():
            entries[name] = (b"40000", self.tree(sub))
        # git orders entries by name, comparing a directory as if its name ended in "/".
        order = sorted(entries, key=lambda n: n + "/" if entries[n][0] == b"40000" else n)
        data = b"".join(entries[n][0] + b" " + n.encode() + b"\0" + bytes.fromhex(entries[n][1]) for n in order)
        return self._store("tree", data)

    def commit(self, files: dict[str, str], parents: list[str], message: str, when: int) -> str:
        lines = [f"tree {self.tree(files)}"] + [f"parent {p}" for p in parents]
        lines += [f"author {AUTHOR} {when} +0000", f"committer {AUTHOR} {when} +0000", "", message, ""]
        return self._store("commit", "\n".join(lines).encode())

    def files(self, root: str, checkout: dict[str, str], refs: dict[str, str], head: str = "main"
              ) -> dict[str, str | bytes]:
        """The repository as ``path -> content``: .git (objects, refs, config, index) and the work tree."""
        out: dict[str, str | bytes] = {f"{root}/.git/HEAD": f"ref: refs/heads/{head}\n",
                                       f"{root}/.git/config": CONFIG,
                                       f"{root}/.git/description": "generated repository\n"}
        for sha, data in self.objects.items():
            out[f"{root}/.git/objects/{sha[:2]}/{sha[2:]}"] = data
        for name, sha in refs.items():
            out[f"{root}/.git/refs/heads/{name}"] = sha + "\n"
        out[f"{root}/.git/index"] = self._index(checkout)
        for path, text in checkout.items():
            out[f"{root}/{path}"] = text
        return out

    def _index(self, checkout: dict[str, str]) -> bytes:
        body = b"DIRC" + struct.pack(">II", 2, len(checkout))
        for path in sorted(checkout, key=str.encode):
            data = checkout[path].encode()
            sha = hashlib.sha1(f"blob {len(data)}\0".encode() + data).digest()
            name = path.encode()
            entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, len(data)) + sha
            entry += struct.pack(">H", min(len(name), 0xFFF)) + name
            body += entry + b"\0" * (8 - len(entry) % 8)
        return body + hashlib.sha1(body).digest()
