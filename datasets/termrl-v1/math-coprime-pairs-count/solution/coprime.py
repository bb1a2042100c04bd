import sys
from math import isqrt


def mertens_table(limit):
    is_comp = bytearray(limit + 1)
    primes = []
    mu_val = [0] * (limit + 1)
    mu_val[1] = 1
    for i in range(2, limit + 1):
        if not is_comp[i]:
            primes.append(i)
            mu_val[i] = -1
        for p in primes:
            ip = i * p
            if ip > limit:
                break
            is_comp[ip] = 1
            if i % p == 0:
                mu_val[ip] = 0
                break
            mu_val[ip] = -mu_val[i]
    pref = [0] * (limit + 1)
    s = 0
    for i in range(1, limit + 1):
        s += mu_val[i]
        pref[i] = s
    return pref


class Mertens:
    def __init__(self, nmax):
        self.limit = max(10, int(round(nmax ** (2 / 3))) + 1)
        self.small = mertens_table(self.limit)
        self.big = {}

    def __call__(self, n):
        if n <= self.limit:
            return self.small[n]
        if n in self.big:
            return self.big[n]
        # sum_{d=1..n} M(n // d) = 1
        res = 1
        d = 2
        while d <= n:
            q = n // d
            d2 = n // q
            res -= (d2 - d + 1) * self(q)
            d = d2 + 1
        self.big[n] = res
        return res


def count(a, b, M):
    if a > b:
        a, b = b, a
    total = 0
    d = 1
    while d <= a:
        qa, qb = a // d, b // d
        d2 = min(a // qa, b // qb)
        total += (M(d2) - M(d - 1)) * qa * qb
        d = d2 + 1
    return total


def main():
    nums = open(sys.argv[1]).read().split()
    q = int(nums[0])
    pairs = [(int(nums[1 + 2 * i]), int(nums[2 + 2 * i])) for i in range(q)]
    M = Mertens(max([1] + [min(a, b) for a, b in pairs]))
    for a, b in pairs:
        print(count(a, b, M))


if __name__ == "__main__":
    main()
