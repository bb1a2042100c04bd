"""Independent check by value iteration: the least k such that a side can force its win within k plies."""
COP, ROB = 0, 1


def outcomes(n, adj, exits, limit=None):
    cops = [c for c in range(n) if c not in exits]
    states = [(c, r, t) for c in cops for r in range(n) for t in (COP, ROB)]

    def moves(c, r, t):
        if t == COP:
            return [(d, r, ROB) for d in adj[c] + [c] if d not in exits]
        return [(c, d, COP) for d in adj[r]]

    def term(s):
        c, r, t = s
        if c == r:
            return COP
        if r in exits:
            return ROB
        if not moves(*s):
            return COP if t == ROB else ROB
        return None

    best = {}
    for side in (COP, ROB):
        win = {s: 0 for s in states if term(s) == side}
        k = 0
        limit = limit or 2 * len(states) + 2
        while k < limit:
            k += 1
            new = {}
            for s in states:
                if s in win or term(s) is not None:
                    continue
                ms = moves(*s)
                if s[2] == side:
                    ok = any(m in win for m in ms)
                else:
                    ok = all(m in win for m in ms)
                if ok:
                    new[s] = k
            if not new:
                break
            win.update(new)
        for s, d in win.items():
            best[s] = (side, d)
    return best
