#!/usr/bin/env python3
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MULT, ADD, MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


def next_int(state):
    state = (state * MULT + ADD) & MASK
    u = state >> 17
    while True:
        r = u % 1000000
        if u - r + 999999 < 2 ** 31:
            return state, r
        state = (state * MULT + ADD) & MASK
        u = state >> 17


def main():
    obs = [l.strip() for l in open(sys.argv[1]) if l.strip()]
    n = int(sys.argv[2])
    out = subprocess.run([os.path.join(HERE, "lcg_crack")] + [str(int(o)) for o in obs[:8]],
                         capture_output=True, text=True, check=True).stdout
    state = int(out.strip())
    for _ in obs[1:]:
        state, _r = next_int(state)
    for _ in range(n):
        state, r = next_int(state)
        print("%06d" % r)


if __name__ == "__main__":
    main()
