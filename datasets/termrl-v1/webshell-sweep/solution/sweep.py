#!/usr/bin/env python3
"""Sweep a web root for PHP backdoor indicators (rules in the task)."""
import json
import os
import re
import sys

PHP_EXT = (".php", ".phtml", ".inc")
DECODERS = ("base64_decode", "gzinflate", "gzuncompress", "str_rot13")
DANGER = ("system", "exec", "shell_exec", "passthru", "popen", "proc_open", "assert")
SUPER = re.compile(r"\$_(GET|POST|REQUEST|COOKIE)\b")


def lex(text):
    """(comments blanked, comments+strings blanked, backtick spans) with positions preserved."""
    kept, code, ticks = list(text), list(text), []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j, n - 1)
            for k in range(i + 1, j):
                code[k] = " "
            if c == "`":
                ticks.append((i, j))
            i = j + 1
        elif text.startswith("//", i) or c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                kept[k] = code[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    kept[k] = code[k] = " "
            i = j
        else:
            i += 1
    return "".join(kept), "".join(code), ticks


def closing(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(code)


def calls(code, names):
    """(name, index of '(') for direct calls of any of names."""
    pattern = re.compile(r"(?<![\w$>:\\])(" + "|".join(names) + r")\s*\(", re.I)
    for m in pattern.finditer(code):
        before = code[:m.start()].rstrip()
        if before.endswith(("->", "::", "function")):
            continue
        yield m.group(1).lower(), m.end() - 1


def literal_value(expr):
    parts = re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", expr)
    return "".join(re.sub(r"\\(.)", r"\1", a or b) for a, b in parts)


def php_rules(text):
    kept, code, ticks = lex(text)
    found = set()
    for _, paren in calls(code, ["eval"]):
        m = re.match(r"\s*@?\s*(" + "|".join(DECODERS) + r")\s*\(", code[paren + 1:], re.I)
        if m:
            found.add("eval-decode")
    for _, paren in calls(code, DANGER):
        if SUPER.search(kept[paren:closing(code, paren) + 1]):
            found.add("request-exec")
    for start, end in ticks:
        if SUPER.search(kept[start:end + 1]):
            found.add("request-exec")
    lit = r"(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
    for m in re.finditer(r"\$(\w+)\s*=\s*(" + lit + r"(?:\s*\.\s*" + lit + r")*)\s*;", kept):
        if literal_value(m.group(2)).lower() in DANGER:
            if re.search(r"\$" + re.escape(m.group(1)) + r"\s*\(", code[m.end():]):
                found.add("variable-function")
    return found


def htaccess(text):
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].lower() in ("addtype", "addhandler") and "php" in parts[1].lower():
            if any(ext.lower() not in (".php", ".phtml") for ext in parts[2:]):
                return True
    return False


def main():
    root = sys.argv[1]
    findings = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            full = os.path.join(dirpath, name)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            data = open(full, "rb").read()
            text = data.decode("latin-1")
            rules = set()
            if name.lower().endswith(PHP_EXT):
                rules |= php_rules(text)
            if "uploads" in rel.split("/")[:-1] and (
                    name.lower().endswith(PHP_EXT + (".phar",)) or b"<?php" in data.lower()):
                rules.add("php-in-upload")
            if name == ".htaccess" and htaccess(text):
                rules.add("htaccess-handler")
            findings += [{"path": rel, "rule": r} for r in rules]
    findings.sort(key=lambda f: (f["path"], f["rule"]))
    print(json.dumps(findings, indent=1))


if __name__ == "__main__":
    main()
