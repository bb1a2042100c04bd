#!/bin/bash
set -euo pipefail
# Mistake: ends a quoted label at the first quote, without the '' escape.
cat > /app/treedist.py <<'PY'
import sys

SPECIAL = set("()[]':;,")


def fail(msg):
    print(f"treedist: {msg}", file=sys.stderr)
    sys.exit(2)


def tokenize(text):
    toks, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "[":
            j = text.find("]", i)
            if j < 0:
                fail("unterminated comment")
            i = j + 1
        elif c in "(),:;":
            toks.append((c, None))
            i += 1
        elif c == "'":
            buf, i = [], i + 1
            while True:
                if i >= n:
                    fail("unterminated quote")
                if text[i] == "'":
                    if False:
                        buf.append("'")
                        i += 2
                        continue
                    i += 1
                    break
                buf.append(text[i])
                i += 1
            toks.append(("label", "".join(buf)))
        elif c == "]":
            fail("stray ]")
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in SPECIAL:
                j += 1
            toks.append(("word", text[i:j]))
            i = j
    return toks


class Node:
    def __init__(self):
        self.children, self.label, self.length = [], None, 0.0


def parse_trees(text):
    toks = tokenize(text)
    pos = 0

    def peek():
        return toks[pos][0] if pos < len(toks) else None

    def node():
        nonlocal pos
        nd = Node()
        if peek() == "(":
            pos += 1
            while True:
                nd.children.append(node())
                t = peek()
                if t == ",":
                    pos += 1
                elif t == ")":
                    pos += 1
                    break
                else:
                    fail("unbalanced parentheses or missing ','")
        if peek() in ("word", "label"):
            kind, val = toks[pos]
            pos += 1
            nd.label = val.replace("_", " ") if kind == "word" else val
        if peek() == ":":
            pos += 1
            if peek() != "word":
                fail("missing branch length")
            try:
                nd.length = float(toks[pos][1])
            except ValueError:
                fail(f"bad branch length {toks[pos][1]!r}")
            pos += 1
        if not nd.children and nd.label is None:
            fail("leaf without a label")
        return nd

    trees = []
    while pos < len(toks):
        t = node()
        if peek() != ";":
            fail("missing ';' or unbalanced parentheses")
        pos += 1
        trees.append(t)
    if not trees:
        fail("no tree")
    return trees


def leaves_of(root):
    out = []
    stack = [root]
    while stack:
        nd = stack.pop()
        if nd.children:
            stack.extend(nd.children)
        else:
            out.append(nd.label)
    if len(out) != len(set(out)):
        fail("a leaf label occurs twice in one tree")
    return out


def splits(root, allleaves):
    ref = min(allleaves)
    total = len(allleaves)
    result = set()

    def walk(nd):
        if not nd.children:
            return frozenset([nd.label])
        s = frozenset().union(*[walk(c) for c in nd.children])
        if nd is not root and 2 <= len(s) <= total - 2:
            result.add(s if ref not in s else frozenset(allleaves) - s)
        return s

    walk(root)
    return result


def patristic(root):
    dist = []

    def walk(nd):
        if not nd.children:
            return [(nd.label, 0.0)]
        groups = [[(l, d + c.length) for l, d in walk(c)] for c in nd.children]
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                for a, da in groups[i]:
                    for b, db in groups[j]:
                        dist.append((min(a, b), max(a, b), da + db))
        return [x for g in groups for x in g]

    walk(root)
    return sorted(dist)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("rf", "patristic"):
        fail("usage: treedist.py rf|patristic FILE.nwk")
    with open(sys.argv[2]) as fh:
        trees = parse_trees(fh.read())
    leafsets = [leaves_of(t) for t in trees]
    if sys.argv[1] == "patristic":
        print("\n".join(f"{a}\t{b}\t{d!r}" for a, b, d in patristic(trees[0])))
        return
    base = set(leafsets[0])
    if any(set(l) != base for l in leafsets):
        fail("trees have different leaf sets")
    sp = [splits(t, sorted(base)) for t in trees]
    rows = [" ".join(str(len(a ^ b)) for b in sp) for a in sp]
    print("\n".join(rows))


main()
PY
