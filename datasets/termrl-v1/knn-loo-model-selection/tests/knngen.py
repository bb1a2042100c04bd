"""Data sets for the tests: classes as blobs in feature space, overlapping, with label noise; coarse
variants (features 0-3) where many distances tie and rows repeat with different labels."""


def dataset(rng, n, d, classes, coarse=False, labels=None):
    labels = labels or rng.sample(range(0, 40), classes)
    centres = {c: [rng.uniform(40, 215) for _ in range(d)] for c in labels}
    rows = []
    for _ in range(n):
        c = rng.choice(labels)
        if coarse:
            feats = [min(3, max(0, int(v / 64) + rng.choice([-1, 0, 0, 0, 1]))) for v in centres[c]]
        else:
            feats = [min(255, max(0, int(rng.gauss(v, 45)))) for v in centres[c]]
        if rng.random() < 0.08:
            c = rng.choice(labels)
        rows.append((c, feats))
    if coarse:  # exact duplicates, some relabelled
        for _ in range(n // 10):
            c, f = rng.choice(rows)
            rows.insert(rng.randrange(len(rows) + 1), (rng.choice(labels) if rng.random() < 0.5 else c, list(f)))
    return rows, labels


def write(path, rows):
    d = len(rows[0][1])
    with open(path, "w") as fh:
        fh.write("label," + ",".join(f"f{i}" for i in range(d)) + "\n")
        for c, f in rows:
            fh.write(f"{c}," + ",".join(map(str, f)) + "\n")
