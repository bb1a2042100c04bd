"""Password-reset code issuer (ported 1:1 from the old Java service)."""
import time

MULT, ADD, MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


class JavaRandom:
    def __init__(self, seed):
        self.seed = (seed ^ MULT) & MASK

    def next(self, bits):
        self.seed = (self.seed * MULT + ADD) & MASK
        r = self.seed >> (48 - bits)
        return r - (1 << bits) if r >= 1 << (bits - 1) and bits == 32 else r

    def next_int(self, bound):
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + m < 2 ** 31:
                return r
            u = self.next(31)


_rng = JavaRandom(int(time.time() * 1000))


def issue_code():
    return "%06d" % _rng.next_int(1000000)
