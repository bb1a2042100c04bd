#!/usr/bin/env python3
import argparse
import os
import re
import sys


def glob_re(pat, slash_ok):
    out, i = "", 0
    any_ch = "." if slash_ok else "[^/]"
    while i < len(pat):
        c = pat[i]
        if c == "*":
            out += any_ch + "*"
        elif c == "?":
            out += any_ch
        elif c == "[":
            j = pat.find("]", i + 2 if i + 1 < len(pat) and pat[i + 1] in "!^" else i + 1)
            if j < 0:
                out += re.escape(c)
            else:
                body = pat[i + 1:j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out += "[" + body.replace("\\", "\\\\") + "]"
                i = j
        else:
            out += re.escape(c)
        i += 1
    return re.compile(out + r"\Z", re.S)


def split_list(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


class Policy:
    def __init__(self, d):
        self.dir = d
        self.groups = {}
        gf = os.path.join(d, "group")
        if os.path.exists(gf):
            for line in open(gf):
                f = line.rstrip("\n").split(":")
                if len(f) >= 4:
                    self.groups[f[0]] = {m for m in f[3].split(",") if m}
        self.aliases = {"User_Alias": {}, "Runas_Alias": {}, "Host_Alias": {}, "Cmnd_Alias": {}}
        self.rules = []
        self.read(os.path.join(d, "sudoers"))

    def lines(self, path):
        buf = ""
        for raw in open(path):
            raw = raw.rstrip("\n")
            if raw.startswith("#includedir"):
                yield raw
                continue
            if buf == "" and raw.lstrip().startswith("#"):
                continue
            line = raw.split("#", 1)[0] if not raw.startswith("#include") else raw
            if line.rstrip().endswith("\\"):
                buf += line.rstrip()[:-1] + " "
                continue
            buf += line
            if buf.strip():
                yield buf.strip()
            buf = ""
        if buf.strip():
            yield buf.strip()

    def read(self, path):
        for line in self.lines(path):
            if line.startswith("#includedir"):
                d = line.split(None, 1)[1].strip()
                if not os.path.isabs(d):
                    d = os.path.join(self.dir, d)
                for name in sorted(os.listdir(d)):
                    if "." in name or name.endswith("~"):
                        continue
                    self.read(os.path.join(d, name))
                continue
            if line.startswith("Defaults"):
                continue
            kind = line.split(None, 1)[0]
            if kind in self.aliases:
                rest = line[len(kind):]
                for part in rest.split(":"):
                    name, _, items = part.partition("=")
                    self.aliases[kind][name.strip()] = split_list(items)
                continue
            self.parse_rule(line)

    def parse_rule(self, line):
        lhs, _, rhs = line.partition("=")
        users_hosts = lhs.strip()
        # users are everything up to the last whitespace-separated token group = hosts
        m = re.match(r"^(.*?)\s+(\S+(?:\s*,\s*\S+)*)$", users_hosts)
        users, hosts = split_list(m.group(1)), split_list(m.group(2))
        cmds = []
        runas, tag = None, "PASSWD"
        for item in split_list(rhs):
            rm = re.match(r"^\(([^)]*)\)\s*(.*)$", item)
            if rm:
                runas = split_list(rm.group(1))
                item = rm.group(2)
            while True:
                tm = re.match(r"^(NOPASSWD|PASSWD)\s*:\s*(.*)$", item)
                if not tm:
                    break
                tag, item = tm.group(1), tm.group(2)
            cmds.append((runas, tag, item.strip()))
        self.rules.append((users, hosts, cmds))

    @staticmethod
    def neg(item):
        n = 0
        while item.startswith("!"):
            n += 1
            item = item[1:].strip()
        return n % 2 == 1, item

    def list_result(self, items, kind, pred):
        """True (match), False (negated match), None (no match)."""
        res = None
        for raw in items:
            negated, item = self.neg(raw)
            if item in self.aliases.get(kind, {}):
                r = self.list_result(self.aliases[kind][item], kind, pred)
                if r is None:
                    continue
                hit = r
            else:
                if not pred(item):
                    continue
                hit = True
            res = (not hit) if negated else hit
        return res

    def user_pred(self, user):
        def p(item):
            if item == "ALL":
                return True
            if item.startswith("%"):
                return user in self.groups.get(item[1:], set())
            return item == user
        return p

    @staticmethod
    def cmd_match(item, path, args):
        if item == "ALL":
            return True
        spec_path, _, spec_args = item.partition(" ")
        spec_args = spec_args.strip()
        if spec_path.endswith("/"):
            return os.path.dirname(path) + "/" == spec_path
        if not glob_re(spec_path, False).match(path):
            return False
        if spec_args == "":
            return True
        if spec_args == '""':
            return not args
        return bool(glob_re(spec_args, True).match(" ".join(args)))

    def decide(self, user, host, runas, path, args):
        final = None
        for users, hosts, cmds in self.rules:
            if self.list_result(users, "User_Alias", self.user_pred(user)) is not True:
                continue
            if self.list_result(hosts, "Host_Alias", lambda h: h == "ALL" or h == host) is not True:
                continue
            outcome = None
            for rlist, tag, item in cmds:
                rl = rlist if rlist is not None else ["root"]
                if self.list_result(rl, "Runas_Alias", self.user_pred(runas)) is not True:
                    continue
                r = self.list_result([item], "Cmnd_Alias", lambda c: self.cmd_match(c, path, args))
                if r is None:
                    continue
                outcome = ("ALLOW " + tag) if r else "DENY"
            if outcome is not None:
                final = outcome
        return final or "DENY"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", default="/app/policy")
    ap.add_argument("--host", required=True)
    ap.add_argument("--runas", default="root")
    ap.add_argument("user")
    ap.add_argument("path")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    res = Policy(a.policy).decide(a.user, a.host, a.runas, a.path, a.args)
    print(res)
    return 0 if res.startswith("ALLOW") else 1


if __name__ == "__main__":
    sys.exit(main())
