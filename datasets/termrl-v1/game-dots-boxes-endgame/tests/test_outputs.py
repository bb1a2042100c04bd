import os
import random
import subprocess
import tempfile


# ---------- independent reference: negamax over the set of undrawn edges ----------

class Board:
    def __init__(self, W, H):
        self.W, self.H = W, H
        self.edges = [(r, c) for r in range(2 * H + 1) for c in range(2 * W + 1) if (r + c) % 2]
        self.boxes = [frozenset({(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)})
                      for r in range(1, 2 * H, 2) for c in range(1, 2 * W, 2)]
        self.memo = {}

    def completed(self, undrawn, e):
        left = undrawn - {e}
        return sum(1 for b in self.boxes if e in b and not (b & left))

    def best(self, undrawn):
        if not undrawn:
            return 0
        if undrawn not in self.memo:
            self.memo[undrawn] = max(self.after(undrawn, e) for e in undrawn)
        return self.memo[undrawn]

    def after(self, undrawn, e):
        got = self.completed(undrawn, e)
        rest = self.best(undrawn - {e})
        return got + rest if got else -rest

    def render(self, undrawn, strip=False):
        rows = []
        for r in range(2 * self.H + 1):
            line = ""
            for c in range(2 * self.W + 1):
                if r % 2 == 0 and c % 2 == 0:
                    line += "+"
                elif (r + c) % 2 == 0:
                    line += " "
                elif (r, c) in undrawn:
                    line += " "
                else:
                    line += "-" if r % 2 == 0 else "|"
            rows.append(line.rstrip() if strip else line)
        return f"{self.W} {self.H}\n" + "\n".join(rows) + "\n"

    def expected(self, undrawn):
        return [f"{r} {c} {self.after(undrawn, (r, c))}" for r, c in self.edges if (r, c) in undrawn]


def run(text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
    try:
        proc = subprocess.run(["python3", "/app/dots.py", fh.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [" ".join(ln.split()) for ln in proc.stdout.split("\n") if ln.strip()]


def check(W, H, undrawn, strip=False):
    b = Board(W, H)
    undrawn = frozenset(undrawn)
    text = b.render(undrawn, strip)
    want = b.expected(undrawn)
    got = run(text)
    assert got == want, f"\n{text}expected {want}\ngot {got}"
    return want


def random_undrawn(rng, W, H, k):
    return rng.sample(Board(W, H).edges, k)


def test_example():
    text = open("/app/examples/pos1.txt").read()
    assert run(text) == ["1 2 3", "2 1 3"]


def test_small_boards():
    rng = random.Random(5501)
    for _ in range(25):
        W, H = rng.randint(1, 3), rng.randint(1, 2)
        n = len(Board(W, H).edges)
        check(W, H, random_undrawn(rng, W, H, rng.randint(1, min(n, 10))))


def test_three_by_three_endgames():
    rng = random.Random(5502)
    for _ in range(6):
        check(3, 3, random_undrawn(rng, 3, 3, rng.randint(10, 14)))


def test_extra_turns_and_sacrifices():
    rng = random.Random(5503)
    negative = positive = 0
    for _ in range(14):
        want = check(4, 2, random_undrawn(rng, 4, 2, rng.randint(8, 12)))
        values = [int(x.split()[2]) for x in want]
        negative += min(values) < 0
        positive += max(values) > 0
    assert negative >= 3 and positive >= 3


def test_edges_closing_two_boxes():
    # a 3x1 strip with only the two inner separators missing: each of them closes two boxes at once
    b = Board(3, 1)
    want = check(3, 1, [(1, 2), (1, 4)])
    assert want == ["1 2 3", "1 4 3"]
    rng = random.Random(5504)
    for _ in range(6):
        inner = [e for e in Board(2, 2).edges if 0 < e[0] < 4 and 0 < e[1] < 4]
        check(2, 2, inner + random_undrawn(rng, 2, 2, 3))


def test_long_strips_and_trimmed_lines():
    rng = random.Random(5505)
    for W, H in ((5, 1), (1, 5), (6, 1), (2, 4)):
        n = len(Board(W, H).edges)
        check(W, H, random_undrawn(rng, W, H, min(n, rng.randint(9, 13))), strip=True)


def test_sixteen_undrawn_edges():
    rng = random.Random(5506)
    check(3, 3, random_undrawn(rng, 3, 3, 16))
    check(5, 2, random_undrawn(rng, 5, 2, 16))
