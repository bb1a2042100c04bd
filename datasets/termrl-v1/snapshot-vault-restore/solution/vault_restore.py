import os
import shutil
import sys
import urllib.parse
import zlib


def read_object(vault, name):
    raw = open(os.path.join(vault, "objects", name[:2], name[2:]), "rb").read()
    kind, flag, payload = raw[:1], raw[1:2], raw[2:]
    if flag == b"z":
        payload = zlib.decompress(payload)
    if kind == b"B":
        return payload
    return b"".join(read_object(vault, payload[i:i + 32].hex()) for i in range(0, len(payload), 32))


def load_index(vault, n):
    text = zlib.decompress(open(os.path.join(vault, "snaps", f"{n:06d}"), "rb").read()).decode()
    head, entries = {}, []
    for line in text.splitlines()[1:]:
        parts = line.split(" ")
        if parts[0] in ("snap", "parent", "time"):
            head[parts[0]] = parts[1]
        else:
            entries.append(parts)
    return head, entries


def state_at(vault, n):
    head, entries = load_index(vault, n)
    if head["parent"] == "-":
        state = {}
    else:
        state = state_at(vault, int(head["parent"]))
    when = int(head["time"])
    unq = urllib.parse.unquote
    for e in entries:
        if e[0] == "X":
            p = unq(e[1])
            for k in [k for k in state if k == p or k.startswith(p + "/")]:
                del state[k]
        elif e[0] == "F":
            state[unq(e[4])] = ("F", int(e[1], 8), when - int(e[2]), e[3])
        elif e[0] == "P":
            k = unq(e[2])
            state[k] = ("F", int(e[1], 8)) + state[k][2:]
        elif e[0] == "D":
            state[unq(e[2])] = ("D", int(e[1], 8))
        elif e[0] == "L":
            state[unq(e[2])] = ("L", unq(e[1]))
    return state


def main():
    vault, n, dest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if not os.path.exists(os.path.join(vault, "snaps", f"{n:06d}")) or n < 1:
        print(f"no snapshot {n} in {vault}", file=sys.stderr)
        return 2
    state = state_at(vault, n)
    os.makedirs(dest, exist_ok=True)
    for rel in sorted(state, key=lambda k: k.count("/")):
        e, p = state[rel], os.path.join(dest, rel)
        if e[0] == "D":
            os.makedirs(p, exist_ok=True)
        elif e[0] == "L":
            os.symlink(e[1], p)
        else:
            with open(p, "wb") as f:
                f.write(read_object(vault, e[3]))
    for rel in sorted(state, key=lambda k: -k.count("/")):
        e, p = state[rel], os.path.join(dest, rel)
        if e[0] == "F":
            os.chmod(p, e[1])
            os.utime(p, (e[2], e[2]))
        elif e[0] == "D":
            os.chmod(p, e[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
