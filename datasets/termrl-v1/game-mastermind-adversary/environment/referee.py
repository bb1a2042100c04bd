#!/usr/bin/env python3
"""Practice referee: plays N games with random secret codes against a codebreaker program."""
import argparse
import random
import subprocess
import sys
from collections import Counter


def score(guess, code):
    black = sum(a == b for a, b in zip(guess, code))
    cg, cc = Counter(guess), Counter(code)
    return black, sum(min(cg[c], cc[c]) for c in cg) - black


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int)
    ap.add_argument("program")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bot = subprocess.Popen([args.program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    worst = 0
    for game in range(1, args.games + 1):
        code = "".join(rng.choice("123456") for _ in range(4))
        bot.stdin.write("new\n")
        bot.stdin.flush()
        for n in range(1, 11):
            guess = bot.stdout.readline().strip()
            if len(guess) != 4 or any(c not in "123456" for c in guess):
                sys.exit(f"game {game}: bad guess {guess!r}")
            b, w = score(guess, code)
            bot.stdin.write(f"{b} {w}\n")
            bot.stdin.flush()
            if b == 4:
                break
        print(f"game {game}: code {code} solved in {n} guesses")
        worst = max(worst, n)
    bot.stdin.write("end\n")
    bot.stdin.flush()
    print(f"worst game: {worst} guesses; bot exit status {bot.wait(timeout=30)}")


if __name__ == "__main__":
    main()
