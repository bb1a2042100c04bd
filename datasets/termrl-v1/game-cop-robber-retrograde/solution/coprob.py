import sys
from collections import deque

COP, ROB = 0, 1


def solve(n, adj, exits):
    """result[(c, r, turn)] = (winner, plies) for every position; missing = draw."""
    def moves(c, r, t):
        if t == COP:
            return [(d, r, ROB) for d in adj[c] + [c] if d not in exits]
        return [(c, d, COP) for d in adj[r]]

    cop_ok = [c for c in range(n) if c not in exits]
    preds = {}
    count = {}
    res = {}
    q = deque()
    for c in cop_ok:
        for r in range(n):
            for t in (COP, ROB):
                s = (c, r, t)
                if c == r:
                    res[s] = (COP, 0)
                    q.append(s)
                elif r in exits:
                    res[s] = (ROB, 0)
                    q.append(s)
                else:
                    ms = moves(c, r, t)
                    count[s] = len(ms)
                    for m in ms:
                        preds.setdefault(m, []).append(s)
                    if not ms:                     # the mover is stuck and loses
                        res[s] = (COP if t == ROB else ROB, 0)
                        q.append(s)
    while q:
        s = q.popleft()
        winner, d = res[s]
        for p in preds.get(s, ()):
            if p in res:
                continue
            mover = p[2]
            if mover == winner:
                res[p] = (winner, d + 1)
                q.append(p)
            else:
                count[p] -= 1
                if count[p] == 0:
                    res[p] = (winner, d + 1)
                    q.append(p)
    return res


def main():
    tok = open(sys.argv[1]).read().split()
    it = iter(tok)
    n, m = int(next(it)), int(next(it))
    adj = [[] for _ in range(n)]
    for _ in range(m):
        u, v = int(next(it)), int(next(it))
        adj[u].append(v)
        adj[v].append(u)
    k = int(next(it))
    exits = {int(next(it)) for _ in range(k)}
    res = solve(n, adj, exits)
    qn = int(next(it))
    for _ in range(qn):
        c, r, t = int(next(it)), int(next(it)), next(it)
        w = res.get((c, r, COP if t == "C" else ROB))
        if w is None:
            print("DRAW")
        else:
            print(("COP " if w[0] == COP else "ROBBER ") + str(w[1]))


if __name__ == "__main__":
    main()
