import itertools
import os
import random
import subprocess
import tempfile

PROG = "/app/treedist.py"
WORDS = ["Homo sapiens", "Pan", "Gorilla", "Mus musculus", "Rattus", "Danio rerio", "Gallus", "Xenopus",
         "Drosophila", "Canis lupus", "Felis", "Bos taurus", "Sus", "Equus", "Ovis", "Capra", "Macaca",
         "Pongo", "Hylobates", "Lemur", "Tarsius", "Loxodonta", "Orycteropus", "Dasypus"]


# ---------- random trees: nested lists, leaves are taxon names; every node carries a length ----------
def random_tree(rng, taxa, max_children=2, root_children=None):
    nodes = [{"leaf": t, "len": rng.choice([None, round(rng.uniform(0.001, 2), 4)])} for t in taxa]
    rng.shuffle(nodes)
    while len(nodes) > (root_children or 2):
        k = min(len(nodes) - 1, rng.randint(2, max_children)) if len(nodes) > 2 else 2
        k = max(2, min(k, len(nodes) - (root_children or 2) + 1))
        group, nodes = nodes[:k], nodes[k:]
        nodes.append({"kids": group, "len": rng.choice([None, round(rng.uniform(0.001, 2), 4)]),
                      "ilabel": rng.choice([None, None, str(rng.randint(50, 100)), "0.87", "cladeX"])})
        rng.shuffle(nodes)
    return {"kids": nodes, "len": None, "ilabel": None}


def enc_label(rng, name, style):
    if style == "plain" or (style == "mixed" and rng.random() < 0.5):
        if "'" in name or "_" in name:
            return "'" + name.replace("'", "''") + "'"
        return name.replace(" ", "_")
    return "'" + name.replace("'", "''") + "'"


def ws(rng, noise):
    if not noise:
        return ""
    return rng.choice(["", "", " ", "\n", "\t ", "  [a comment (with, specials; inside)] ", "[&R]"])


def fmt_len(rng, v):
    if v is None:
        return ""
    return ":" + rng.choice([f"{v}", f"{v:.6e}", f"{v:E}", f"{v:.10f}"])


def newick(rng, node, style="mixed", noise=False):
    w = lambda: ws(rng, noise)
    if "leaf" in node:
        s = w() + enc_label(rng, node["leaf"], style) + w()
    else:
        s = w() + "(" + ",".join(newick(rng, c, style, noise) for c in node["kids"]) + ")" + w()
        if node.get("ilabel"):
            s += node["ilabel"] + w()
    if node["len"] is not None:
        s += fmt_len(rng, node["len"]) + w()
    return s


# ---------- references ----------
def leaf_sets(node, out):
    if "leaf" in node:
        return frozenset([node["leaf"]])
    s = frozenset().union(*[leaf_sets(c, out) for c in node["kids"]])
    out.append(s)
    return s


def ref_splits(tree):
    clusters = []
    allset = leaf_sets(tree, clusters)
    n = len(allset)
    ref = min(allset)
    res = set()
    for c in clusters:
        if c == allset or len(c) < 2 or len(c) > n - 2:
            continue
        res.add(c if ref not in c else allset - c)
    return res


def ref_patristic(tree):
    paths = {}

    def walk(node, path):
        if "leaf" in node:
            paths[node["leaf"]] = path
            return
        for i, c in enumerate(node["kids"]):
            walk(c, path + [((id(node), i), c["len"] or 0.0)])

    walk(tree, [])
    out = []
    for a, b in itertools.combinations(sorted(paths), 2):
        pa, pb = paths[a], paths[b]
        k = 0
        while k < min(len(pa), len(pb)) and pa[k][0] == pb[k][0]:
            k += 1
        out.append((a, b, sum(x[1] for x in pa[k:]) + sum(x[1] for x in pb[k:])))
    return out


# ---------- running ----------
def run(cmd, text):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "t.nwk")
    with open(p, "w") as fh:
        fh.write(text)
    return subprocess.run(["python3", PROG, cmd, p], capture_output=True, text=True, timeout=300)


def check_rf(rng, trees, style="mixed", noise=False):
    text = "\n".join(newick(rng, t, style, noise) + ";" for t in trees) + "\n"
    p = run("rf", text)
    assert p.returncode == 0, p.stderr[-1000:]
    sp = [ref_splits(t) for t in trees]
    want = [[len(a ^ b) for b in sp] for a in sp]
    got = [[int(v) for v in line.split()] for line in p.stdout.strip().splitlines()]
    assert got == want, f"RF matrix {got}, expected {want}\ninput:\n{text[:1500]}"


def check_patristic(rng, tree, style="mixed", noise=False, extra=""):
    text = newick(rng, tree, style, noise) + ";" + extra + "\n"
    p = run("patristic", text)
    assert p.returncode == 0, p.stderr[-1000:]
    want = ref_patristic(tree)
    got = [l.split("\t") for l in p.stdout.strip().splitlines()]
    assert [g[:2] for g in got] == [[a, b] for a, b, _ in want], \
        f"pairs {[tuple(g[:2]) for g in got][:6]}, expected {[w[:2] for w in want][:6]}"
    for g, (a, b, d) in zip(got, want):
        assert abs(float(g[2]) - d) <= 1e-9 * (1 + d), f"{a} - {b}: {g[2]}, expected {d}"


# ---------- tests ----------
def test_rf_binary_trees():
    rng = random.Random(1)
    taxa = rng.sample(WORDS, 12)
    check_rf(rng, [random_tree(rng, taxa) for _ in range(6)], style="plain")


def test_rf_polytomies_and_root_degree():
    rng = random.Random(2)
    for _ in range(3):
        taxa = rng.sample(WORDS, rng.randint(6, 16))
        trees = [random_tree(rng, taxa, max_children=rng.choice([2, 3, 4]), root_children=rng.choice([2, 2, 3, 4]))
                 for _ in range(5)]
        check_rf(rng, trees)


def test_label_encodings_are_the_same_taxon():
    rng = random.Random(3)
    taxa = rng.sample(WORDS, 8) + ["O'Brien's vole", "snake_case_taxon"]
    trees = [random_tree(rng, taxa, max_children=3) for _ in range(4)]
    check_rf(rng, trees, style="mixed")
    check_patristic(rng, trees[0], style="mixed")


def test_patristic_lengths():
    rng = random.Random(4)
    for _ in range(3):
        taxa = rng.sample(WORDS, rng.randint(5, 14))
        check_patristic(rng, random_tree(rng, taxa, max_children=3, root_children=rng.choice([2, 3])),
                        extra="\n((x,y),z);")


def test_comments_and_whitespace():
    rng = random.Random(5)
    taxa = rng.sample(WORDS, 10)
    trees = [random_tree(rng, taxa, max_children=3) for _ in range(4)]
    check_rf(rng, trees, noise=True)
    check_patristic(rng, trees[1], noise=True)


def test_errors():
    ok = run("rf", "((A,B),(C,D));\n((A,C),(B,D));\n")
    assert ok.returncode == 0 and ok.stdout.split() == ["0", "2", "2", "0"], \
        f"a valid file must work before the error cases count: {ok.stdout!r} {ok.stderr[-300:]}"
    bad = [("rf", "((A,B),(C,D);"), ("rf", "((A,B),(C,D))"), ("rf", "((A,B),('C,D));"),
           ("rf", "((A,B)[open comment,(C,D));"), ("patristic", "((A,B),(A,D));"),
           ("rf", "((A,B),(C,D));\n((A,B),(C,E));"), ("patristic", "((A:1,B:2):1,(C,D)));")]
    for cmd, text in bad:
        p = run(cmd, text)
        assert p.returncode == 2, f"{cmd} on {text!r}: exit {p.returncode}, expected 2"
        assert p.stdout.strip() == "" and p.stderr.strip(), f"{cmd} on {text!r}: message on stderr only"
