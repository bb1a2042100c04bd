#!/bin/bash
# Reference: a b-tree walker for the SQLite file format.
set -e
cat > /app/sqlread.py <<'PYEOF'
#!/usr/bin/env python3
"""Read SQLite database files without SQLite: list tables, columns, and dump rows as JSON lines."""
import json
import re
import struct
import sys


class DB:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        if self.data[:16] != b"SQLite format 3\x00":
            sys.exit("not a SQLite database")
        ps = struct.unpack(">H", self.data[16:18])[0]
        self.page_size = 65536 if ps == 1 else ps
        self.usable = self.page_size - self.data[20]
        enc = struct.unpack(">I", self.data[56:60])[0]
        self.encoding = {0: "utf-8", 1: "utf-8", 2: "utf-16-le", 3: "utf-16-be"}[enc]

    def page(self, n):
        return self.data[(n - 1) * self.page_size:n * self.page_size]

    @staticmethod
    def varint(buf, i):
        v = 0
        for k in range(8):
            b = buf[i + k]
            v = (v << 7) | (b & 0x7F)
            if b < 0x80:
                return v, i + k + 1
        v = (v << 8) | buf[i + 8]
        return v, i + 9

    def payload(self, page, i, size, index):
        u = self.usable
        x = u - 35 if not index else (u - 12) * 64 // 255 - 23
        if size <= x:
            return page[i:i + size]
        m = (u - 12) * 32 // 255 - 23
        k = m + (size - m) % (u - 4)
        local = k if k <= x else m
        out = bytearray(page[i:i + local])
        nxt = struct.unpack(">I", page[i + local:i + local + 4])[0]
        while len(out) < size:
            op = self.page(nxt)
            nxt = struct.unpack(">I", op[:4])[0]
            out += op[4:4 + min(u - 4, size - len(out))]
        return bytes(out)

    def walk(self, root):
        """Yield (rowid or None, payload bytes) in b-tree order."""
        yield from self._walk(root)

    def _walk(self, pno):
        page = self.page(pno)
        h = 100 if pno == 1 else 0
        kind = page[h]
        ncell = struct.unpack(">H", page[h + 3:h + 5])[0]
        hdr = 8 if kind in (10, 13) else 12
        ptrs = [struct.unpack(">H", page[h + hdr + 2 * j:h + hdr + 2 * j + 2])[0] for j in range(ncell)]
        if kind == 13:
            for p in ptrs:
                size, i = self.varint(page, p)
                rowid, i = self.varint(page, i)
                if rowid >= 1 << 63:
                    rowid -= 1 << 64
                yield rowid, self.payload(page, i, size, False)
        elif kind == 5:
            for p in ptrs:
                yield from self._walk(struct.unpack(">I", page[p:p + 4])[0])
            yield from self._walk(struct.unpack(">I", page[h + 8:h + 12])[0])
        elif kind == 10:
            for p in ptrs:
                size, i = self.varint(page, p)
                yield None, self.payload(page, i, size, True)
        elif kind == 2:
            for p in ptrs:
                yield from self._walk(struct.unpack(">I", page[p:p + 4])[0])
                size, i = self.varint(page, p + 4)
                yield None, self.payload(page, i, size, True)
            yield from self._walk(struct.unpack(">I", page[h + 8:h + 12])[0])
        else:
            sys.exit(f"bad page type {kind} on page {pno}")

    def record(self, buf):
        hsize, i = self.varint(buf, 0)
        types = []
        while i < hsize:
            t, i = self.varint(buf, i)
            types.append(t)
        out = []
        pos = hsize
        for t in types:
            if t == 0:
                out.append(None)
            elif 1 <= t <= 6:
                n = [0, 1, 2, 3, 4, 6, 8][t]
                out.append(int.from_bytes(buf[pos:pos + n], "big", signed=True))
                pos += n
            elif t == 7:
                out.append(struct.unpack(">d", buf[pos:pos + 8])[0])
                pos += 8
            elif t in (8, 9):
                out.append(t - 8)
            elif t >= 12 and t % 2 == 0:
                n = (t - 12) // 2
                out.append(bytes(buf[pos:pos + n]))
                pos += n
            elif t >= 13:
                n = (t - 13) // 2
                out.append(bytes(buf[pos:pos + n]).decode(self.encoding, errors="replace"))
                pos += n
            else:
                sys.exit(f"bad serial type {t}")
        return out

    def schema(self):
        rows = []
        for _, p in self.walk(1):
            rows.append(self.record(p))
        return rows


def split_top(s):
    """Split a column/constraint list at top-level commas (outside quotes and parentheses)."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(s):
        c = s[i]
        if c in "'\"`[":
            end = {"'": "'", '"': '"', "`": "`", "[": "]"}[c]
            j = i + 1
            while True:
                j = s.index(end, j)
                if end != "]" and j + 1 < len(s) and s[j + 1] == end:
                    j += 2
                    continue
                break
            cur.append(s[i:j + 1])
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


TOKEN = re.compile(r"""\s*(?:("(?:[^"]|"")*")|(`(?:[^`]|``)*`)|(\[[^\]]*\])|('(?:[^']|'')*')|([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?)|([A-Za-z_][\w$]*)|(.))""", re.S)


def tokens(s):
    out = []
    pos = 0
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        if m.group(1):
            out.append(("id", m.group(1)[1:-1].replace('""', '"')))
        elif m.group(2):
            out.append(("id", m.group(2)[1:-1].replace("``", "`")))
        elif m.group(3):
            out.append(("id", m.group(3)[1:-1]))
        elif m.group(4):
            out.append(("str", m.group(4)[1:-1].replace("''", "'")))
        elif m.group(5):
            out.append(("num", m.group(5)))
        elif m.group(6):
            out.append(("word", m.group(6)))
        elif m.group(7).strip():
            out.append(("op", m.group(7)))
    return out


CONSTRAINT_WORDS = {"CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE",
                    "REFERENCES", "GENERATED", "AS"}
TABLE_CONSTRAINTS = {"CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"}


def parse_table(sql):
    body = sql[sql.index("(") + 1:sql.rindex(")")]
    tail = sql[sql.rindex(")") + 1:].upper()
    without_rowid = "WITHOUT" in tail and "ROWID" in tail
    cols, table_pk = [], []
    for part in split_top(body):
        toks = tokens(part)
        if not toks:
            continue
        if toks[0][0] == "word" and toks[0][1].upper() in TABLE_CONSTRAINTS:
            words = [t[1].upper() if t[0] == "word" else None for t in toks]
            if "PRIMARY" in words:
                i = words.index("PRIMARY")
                j = i + 2
                assert toks[j] == ("op", "(")
                depth, names, j = 1, [], j + 1
                while depth:
                    t = toks[j]
                    if t == ("op", "("):
                        depth += 1
                    elif t == ("op", ")"):
                        depth -= 1
                    elif depth == 1 and t[0] in ("id", "word") and (not names or toks[j - 1] == ("op", ",") or toks[j - 1] == ("op", "(")):
                        names.append(t[1])
                    j += 1
                table_pk = names
            continue
        name = toks[0][1]
        i, typ = 1, []
        while i < len(toks) and not (toks[i][0] == "word" and toks[i][1].upper() in CONSTRAINT_WORDS):
            if toks[i] == ("op", "("):
                while toks[i] != ("op", ")"):
                    typ.append(toks[i][1])
                    i += 1
                typ.append(")")
                i += 1
                continue
            typ.append(toks[i][1])
            i += 1
        col = {"name": name, "type": " ".join(typ), "pk": False, "desc": False, "default": None}
        while i < len(toks):
            t = toks[i]
            w = t[1].upper() if t[0] == "word" else None
            if w == "PRIMARY":
                col["pk"] = True
                if i + 2 < len(toks) and toks[i + 2][0] == "word" and toks[i + 2][1].upper() == "DESC":
                    col["desc"] = True
                i += 2
            elif w == "DEFAULT":
                i += 1
                sign = ""
                if toks[i] in (("op", "-"), ("op", "+")):
                    sign = toks[i][1]
                    i += 1
                v = toks[i]
                if v[0] == "num":
                    txt = sign + v[1]
                    col["default"] = float(txt) if re.search(r"[.eE]", txt) else int(txt)
                elif v[0] == "str":
                    col["default"] = v[1]
                elif v[0] == "word" and v[1].upper() == "NULL":
                    col["default"] = None
                elif v[0] == "word" and v[1].upper() in ("TRUE", "FALSE"):
                    col["default"] = int(v[1].upper() == "TRUE")
                elif v[0] == "word":
                    col["default"] = v[1]
                i += 1
            else:
                i += 1
        cols.append(col)
    if not table_pk:
        table_pk = [c["name"] for c in cols if c["pk"]]
    return cols, table_pk, without_rowid


def affinity(typ):
    t = typ.upper()
    if "INT" in t:
        return "INTEGER"
    if "CHAR" in t or "CLOB" in t or "TEXT" in t:
        return "TEXT"
    if "BLOB" in t or not t.strip():
        return "BLOB"
    if "REAL" in t or "FLOA" in t or "DOUB" in t:
        return "REAL"
    return "NUMERIC"


def apply_affinity(v, aff):
    """What SQLite does to a column DEFAULT literal when it fills in a missing trailing field."""
    if aff == "TEXT" and isinstance(v, (int, float)):
        return str(v)
    if aff in ("INTEGER", "NUMERIC", "REAL") and isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            try:
                v = float(v.strip())
            except ValueError:
                return v
    if aff in ("INTEGER", "NUMERIC") and isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 63:
        return int(v)
    if aff == "REAL" and isinstance(v, int):
        return float(v)
    return v


def find_table(db, name):
    for row in db.schema():
        if row[0] == "table" and row[1].lower() == name.lower():
            return row
    sys.exit(f"no such table: {name}")


def dump(db, name):
    _, _, _, root, sql = find_table(db, name)
    cols, pk, without_rowid = parse_table(sql)
    names = [c["name"].lower() for c in cols]
    alias = None
    if not without_rowid and len(pk) == 1:
        c = cols[names.index(pk[0].lower())]
        if c["type"].upper() == "INTEGER" and not c["desc"]:
            alias = names.index(pk[0].lower())
    if without_rowid:
        pk_idx = [names.index(p.lower()) for p in pk]
        order = pk_idx + [i for i in range(len(cols)) if i not in pk_idx]
    else:
        order = list(range(len(cols)))
    real = [affinity(c["type"]) == "REAL" for c in cols]
    out = sys.stdout
    for rowid, payload in db.walk(root):
        rec = db.record(payload)
        row = [None] * len(cols)
        for k, ci in enumerate(order):
            row[ci] = rec[k] if k < len(rec) else apply_affinity(cols[ci]["default"], affinity(cols[ci]["type"]))
        if alias is not None:
            row[alias] = rowid
        for ci, v in enumerate(row):
            if real[ci] and isinstance(v, int):
                row[ci] = float(v)
            elif isinstance(v, bytes):
                row[ci] = {"blob": v.hex()}
        out.write(json.dumps(row) + "\n")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: sqlread.py DB tables | columns TABLE | dump TABLE")
    db = DB(sys.argv[1])
    cmd = sys.argv[2]
    if cmd == "tables":
        names = sorted(r[1] for r in db.schema() if r[0] == "table" and not r[1].startswith("sqlite_"))
        print("\n".join(names)) if names else None
    elif cmd == "columns":
        for c in parse_table(find_table(db, sys.argv[3])[4])[0]:
            print(c["name"])
    elif cmd == "dump":
        dump(db, sys.argv[3])
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
PYEOF

# Mistake: interior index pages are walked like interior table pages, so the rows kept in interior cells of WITHOUT ROWID tables are lost.
python3 - <<'PYEOF'
from pathlib import Path
p = Path("/app/sqlread.py")
s = p.read_text()
old = '                size, i = self.varint(page, p + 4)\n                yield None, self.payload(page, i, size, True)\n'
new = ''
assert old in s
p.write_text(s.replace(old, new))
PYEOF
