#!/bin/bash
# Mistake: modes computed by hand; an octal mode replaces all bits (GNU chmod keeps a directory's
# set-ID bits unless they are given), and X is decided on the mode before the whole mode string.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/permpolicy.py").read()
a = src.index("    def apply(self, mode, is_dir, spec):")
b = src.index("def parse_policy(")
src = src[:a] + '''    def apply(self, mode, is_dir, spec):
        if re.fullmatch(r"[0-7]{1,4}", spec):
            return int(spec, 8)
        orig, new = mode, mode
        for clause in spec.split(","):
            m = re.fullmatch(r"([ugoa]*)([-+=])([rwxXst]*|[ugo])", clause)
            if not m:
                raise PolicyError(f"invalid mode {spec}")
            who, op, perms = m.groups()
            who = who or "a"
            if who == "a":
                who = "ugo"
            shift = {"u": 6, "g": 3, "o": 0}
            bits = 0
            if perms in ("u", "g", "o"):
                src_bits = (new >> shift[perms]) & 7
                for w in who:
                    bits |= src_bits << shift[w]
            else:
                for w in who:
                    for p in perms:
                        if p == "r":
                            bits |= 4 << shift[w]
                        elif p == "w":
                            bits |= 2 << shift[w]
                        elif p == "x" or (p == "X" and (is_dir or orig & 0o111)):
                            bits |= 1 << shift[w]
                        elif p == "s" and w in "ug":
                            bits |= 0o4000 if w == "u" else 0o2000
                        elif p == "t":
                            bits |= 0o1000
            if op == "+":
                new |= bits
            elif op == "-":
                new &= ~bits
            else:
                mask = 0
                for w in who:
                    mask |= 7 << shift[w]
                    mask |= {"u": 0o4000, "g": 0o2000, "o": 0o1000}[w]
                new = (new & ~mask) | bits
        return new


''' + src[b:]
open("/app/permpolicy", "w").write(src)
PY
chmod +x /app/permpolicy
/app/permpolicy /app/site.policy /srv/site
