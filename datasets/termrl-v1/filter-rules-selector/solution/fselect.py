#!/usr/bin/env python3
"""Preview an rsync-style filter selection: first-match rules, per-directory merge files, pruning."""
import os
import re
import sys


def compile_pat(p):
    rx = ""
    i = 0
    while i < len(p):
        if p.startswith("**", i):
            rx += ".*"
            i += 2
        elif p[i] == "*":
            rx += "[^/]*"
            i += 1
        elif p[i] == "?":
            rx += "[^/]"
            i += 1
        else:
            rx += re.escape(p[i])
            i += 1
    return re.compile(rx, re.S)


class Rule:
    def __init__(self, kind, pat, base):
        self.kind, self.base = kind, base  # base: directory (relative to SRC, '' = SRC) paths are relative to
        self.tree = pat.endswith("/***")
        if self.tree:
            pat = pat[:-4]
        self.dir_only = not self.tree and pat.endswith("/")
        if self.dir_only:
            pat = pat[:-1]
        self.anchored = pat.startswith("/")
        if self.anchored:
            pat = pat[1:]
        self.suffix = not self.anchored and ("/" in pat or "**" in pat)
        self.rx = compile_pat(pat)

    def simple(self, path):
        if self.anchored:
            return self.rx.fullmatch(path) is not None
        if self.suffix:
            if self.rx.fullmatch(path):
                return True
            return any(self.rx.fullmatch(path[i + 1:]) for i, c in enumerate(path) if c == "/")
        return self.rx.fullmatch(path.rsplit("/", 1)[-1]) is not None

    def matches(self, rel, is_dir):
        if self.base:
            if not rel.startswith(self.base + "/"):
                return False
            rel = rel[len(self.base) + 1:]
        if self.tree:
            parts = rel.split("/")
            return any(self.simple("/".join(parts[:k])) for k in range(1, len(parts) + 1))
        if self.dir_only and not is_dir:
            return False
        return self.simple(rel)


def parse(text, base, allow_merge):
    rules = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s == "!":
            rules = []
            rules.append(("clear",))
            continue
        kind, _, arg = s.partition(" ")
        arg = arg.strip()
        if kind in "+-" and len(kind) == 1 and arg:
            rules.append(("rule", Rule(kind, arg, base)))
        elif kind == ":" and allow_merge and arg:
            rules.append(("merge", arg))
        else:
            raise SystemExit(f"error: bad rule line: {line}")
    return rules


class Selector:
    def __init__(self, src, rules_path):
        self.src = src
        with open(rules_path, encoding="utf-8") as f:
            self.top = parse(f.read(), "", True)
        self.cache = {}

    def dir_rules(self, rel_dir, name):
        """Merge-file rules in effect for entries of directory rel_dir (deepest first)."""
        key = (rel_dir, name)
        if key in self.cache:
            return self.cache[key]
        inherited = self.dir_rules(rel_dir.rsplit("/", 1)[0] if "/" in rel_dir else "", name) if rel_dir else []
        own, cleared = [], False
        path = os.path.join(self.src, rel_dir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                for item in parse(f.read(), rel_dir, False):
                    if item[0] == "clear":
                        own, cleared = [], True
                    else:
                        own.append(item[1])
        res = own + ([] if cleared else inherited)
        self.cache[key] = res
        return res

    def rules_for(self, parent):
        out = []
        for item in self.top:
            if item[0] == "rule":
                out.append(item[1])
            elif item[0] == "merge":
                out += self.dir_rules(parent, item[1])
        return out

    def included(self, rel, is_dir, parent):
        for r in self.rules_for(parent):
            if r.matches(rel, is_dir):
                return r.kind == "+"
        return True

    def walk(self, parent, out):
        full = os.path.join(self.src, parent)
        for name in sorted(os.listdir(full)):
            rel = f"{parent}/{name}" if parent else name
            p = os.path.join(self.src, rel)
            is_dir = os.path.isdir(p) and not os.path.islink(p)
            if not self.included(rel, is_dir, parent):
                continue
            out.append(rel + ("/" if is_dir else ""))
            if is_dir:
                self.walk(rel, out)


def main(argv):
    if len(argv) != 3:
        print("usage: fselect SRC RULES", file=sys.stderr)
        return 2
    sel = Selector(argv[1], argv[2])
    out = []
    sel.walk("", out)
    sys.stdout.write("".join(x + "\n" for x in out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
