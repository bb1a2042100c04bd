import subprocess
from pathlib import Path

import pytest

MULT, ADD, MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


class JavaRandom:
    def __init__(self, seed):
        self.seed = (seed ^ MULT) & MASK

    def next31(self):
        self.seed = (self.seed * MULT + ADD) & MASK
        return self.seed >> 17

    def code(self):
        u = self.next31()
        while True:
            r = u % 1000000
            if u - r + 999999 < 2 ** 31:
                return "%06d" % r
            u = self.next31()


def test_predicted_file():
    assert Path("/app/predicted.txt").read_text().split() == ["932170", "797775", "339043", "914274", "958000"]


@pytest.mark.parametrize("seed,skip,nobs", [(1700000000000, 0, 8), (1234567890123, 50, 7), (1762000000777, 3, 6)])
def test_predictor_on_fresh_streams(tmp_path, seed, skip, nobs):
    g = JavaRandom(seed)
    for _ in range(skip):
        g.code()
    obs = [g.code() for _ in range(nobs)]
    want = [g.code() for _ in range(10)]
    f = tmp_path / "obs.txt"
    f.write_text("\n".join(obs) + "\n")
    r = subprocess.run(["/app/predict", str(f), "10"], capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == want
