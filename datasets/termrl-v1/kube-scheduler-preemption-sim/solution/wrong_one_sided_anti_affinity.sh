#!/bin/bash
# only the incoming pod's anti-affinity terms are checked; running pods' terms do not repel it
set -euo pipefail
cat > /app/ksched <<'PY'
#!/usr/bin/env python3
"""ksched: place pods on nodes like a (simplified) Kubernetes scheduler, with preemption. Reference."""
import json
import re
import sys
from decimal import Decimal, ROUND_CEILING

SUFFIX = {"": 1, "m": Decimal("0.001"), "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15,
          "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
QTY = re.compile(r"(\d+(?:\.\d+)?|\.\d+)(m|k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?")


class Fail(Exception):
    pass


def qty(v, scale):
    if isinstance(v, bool):
        raise Fail(f"bad quantity {v!r}")
    if isinstance(v, int):
        v = str(v)
    if not isinstance(v, str):
        raise Fail(f"bad quantity {v!r}")
    m = QTY.fullmatch(v)
    if not m:
        raise Fail(f"bad quantity {v!r}")
    d = Decimal(m.group(1)) * Decimal(SUFFIX[m.group(2) or ""]) * scale
    return int(d.to_integral_value(rounding=ROUND_CEILING))


def expr_match(e, labels):
    key, op, vals = e["key"], e["operator"], e.get("values", [])
    has = key in labels
    if op == "In":
        return has and labels[key] in vals
    if op == "NotIn":
        return not has or labels[key] not in vals
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    if op in ("Gt", "Lt"):
        if not has or len(vals) != 1:
            return False
        if not (isinstance(vals[0], str) and re.fullmatch(r"-?[0-9]+", labels[key]) and re.fullmatch(r"-?[0-9]+", vals[0])):
            return False
        a, b = int(labels[key]), int(vals[0])
        return a > b if op == "Gt" else a < b
    raise Fail(f"unknown operator {op}")


def tolerates(tols, taint):
    for t in tols:
        eff = t.get("effect", "")
        if eff and eff != taint["effect"]:
            continue
        op = t.get("operator", "Equal")
        if op == "Exists":
            if not t.get("key", "") or t.get("key") == taint["key"]:
                return True
        elif op == "Equal":
            if t.get("key", "") == taint["key"] and t.get("value", "") == taint.get("value", ""):
                return True
        else:
            raise Fail(f"unknown toleration operator {op}")
    return False


def main(argv):
    if len(argv) != 1:
        raise Fail("usage: ksched CLUSTER.json")
    with open(argv[0], encoding="utf-8") as f:
        data = json.load(f)
    nodes = {}
    for n in data.get("nodes", []):
        nm = n["name"]
        if nm in nodes:
            raise Fail(f"duplicate node {nm}")
        a = n.get("allocatable", {})
        pods_cap = a.get("pods", 110)
        if not isinstance(pods_cap, int) or isinstance(pods_cap, bool):
            raise Fail("bad pods")
        for t in n.get("taints", []):
            if t.get("effect") not in ("NoSchedule", "PreferNoSchedule", "NoExecute"):
                raise Fail("bad taint effect")
        nodes[nm] = {"name": nm, "cpu": qty(a.get("cpu", "0"), 1000), "mem": qty(a.get("memory", "0"), 1),
                     "podcap": pods_cap, "labels": n.get("labels", {}), "taints": n.get("taints", []),
                     "unsched": bool(n.get("unschedulable", False))}
    pods, order = {}, []
    for k, p in enumerate(data.get("pods", [])):
        nm = p["name"]
        if nm in pods:
            raise Fail(f"duplicate pod {nm}")
        r = p.get("requests", {})
        aff = p.get("affinity", {})
        if not isinstance(p.get("priority", 0), int) or isinstance(p.get("priority", 0), bool):
            raise Fail("bad priority")
        pod = {"name": nm, "idx": k, "prio": p.get("priority", 0), "cpu": qty(r.get("cpu", "0"), 1000),
               "mem": qty(r.get("memory", "0"), 1), "labels": p.get("labels", {}),
               "sel": p.get("nodeSelector", {}), "tols": p.get("tolerations", []),
               "required": aff.get("required"), "preferred": aff.get("preferred", []),
               "anti": aff.get("antiAffinity", []), "bound": p.get("nodeName")}
        for t in pod["tols"]:
            if t.get("operator", "Equal") not in ("Equal", "Exists"):
                raise Fail("bad toleration operator")
        for term in (pod["required"] or []):
            for e in term:
                expr_match(e, {})
        for pt in pod["preferred"]:
            for e in pt.get("expressions", []):
                expr_match(e, {})
        if pod["bound"] is not None and pod["bound"] not in nodes:
            raise Fail(f"pod {nm} bound to unknown node")
        pods[nm] = pod
        order.append(pod)

    where = {}      # pod name -> node name
    seq = {}        # pod name -> placement sequence number
    on = {n: [] for n in nodes}
    counter = [0]

    def place(p, n):
        where[p["name"]] = n
        counter[0] += 1
        seq[p["name"]] = counter[0]
        on[n].append(p)

    def used(n, members):
        return (sum(q["cpu"] for q in members), sum(q["mem"] for q in members), len(members))

    def fits(p, n, members):
        c, m, k = used(n, members)
        N = nodes[n]
        return c + p["cpu"] <= N["cpu"] and m + p["mem"] <= N["mem"] and k + 1 <= N["podcap"]

    def same_domain(n1, n2, key):
        l1, l2 = nodes[n1]["labels"], nodes[n2]["labels"]
        return key in l1 and key in l2 and l1[key] == l2[key]

    def sel_match(sel, labels):
        return all(labels.get(k) == v for k, v in sel.items())

    def static_ok(p, n):
        N = nodes[n]
        if N["unsched"]:
            return False
        if not sel_match(p["sel"], N["labels"]):
            return False
        if p["required"] is not None and p["required"] != []:
            if not any(term and all(expr_match(e, N["labels"]) for e in term) for term in p["required"]):
                return False
        for t in N["taints"]:
            if t["effect"] in ("NoSchedule", "NoExecute") and not tolerates(p["tols"], t):
                return False
        return True

    def anti_ok(p, n):
        for t in p["anti"]:
            for m in nodes:
                if not same_domain(n, m, t["topologyKey"]):
                    continue
                if any(sel_match(t.get("matchLabels", {}), q["labels"]) for q in on[m]):
                    return False
        return True

    def score(p, n):
        N = nodes[n]
        c, m, _ = used(n, on[n])
        s = []
        for alloc, u in ((N["cpu"], c + p["cpu"]), (N["mem"], m + p["mem"])):
            s.append(0 if alloc == 0 else (alloc - u) * 100 // alloc)
        least = (s[0] + s[1]) // 2
        pref = sum(t["weight"] for t in p["preferred"]
                   if all(expr_match(e, N["labels"]) for e in t.get("expressions", [])))
        pen = 10 * sum(1 for t in N["taints"] if t["effect"] == "PreferNoSchedule" and not tolerates(p["tols"], t))
        return least + pref - pen

    for p in order:
        if p["bound"] is not None:
            place(p, p["bound"])
    queue = sorted((p for p in order if p["bound"] is None), key=lambda p: (-p["prio"], p["idx"]))
    preempted = []
    for p in queue:
        feasible = [n for n in sorted(nodes) if static_ok(p, n) and anti_ok(p, n) and fits(p, n, on[n])]
        if feasible:
            best = sorted(feasible, key=lambda n: (-score(p, n), n))[0]
            place(p, best)
            continue
        cands = []
        for n in sorted(nodes):
            if not (static_ok(p, n) and anti_ok(p, n)):
                continue
            lower = [q for q in on[n] if q["prio"] < p["prio"]]
            keep = [q for q in on[n] if q["prio"] >= p["prio"]]
            if not fits(p, n, keep):
                continue
            lower.sort(key=lambda q: (q["prio"], -seq[q["name"]]))
            removed, remaining = [], list(on[n])
            for q in lower:
                if fits(p, n, remaining):
                    break
                remaining.remove(q)
                removed.append(q)
            for q in sorted(removed, key=lambda q: (-q["prio"], seq[q["name"]])):
                if fits(p, n, remaining + [q]):
                    remaining.append(q)
                    removed.remove(q)
            victims = removed
            cands.append(((max(q["prio"] for q in victims), len(victims), sum(q["prio"] for q in victims), n), n, victims))
        if not cands:
            where[p["name"]] = None
            continue
        cands.sort(key=lambda c: c[0])
        _, n, victims = cands[0]
        for q in victims:
            on[n].remove(q)
            where[q["name"]] = None
            preempted.append(q["name"])
        place(p, n)
    result = {"placements": {p["name"]: where.get(p["name"]) for p in order}, "preempted": preempted}
    print(json.dumps(result, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (Fail, OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        print(f"ksched: {e}", file=sys.stderr)
        sys.exit(1)
PY
chmod +x /app/ksched
