"""Protein FASTA inputs for the tests: families of related sequences (substitutions, insertions,
deletions), repeated motifs (so several cells reach the best score), messy FASTA formatting."""
import random

AMINO = "ARNDCQEGHILKMFPSTWYV"
RARE = "BZX"
UNKNOWN = "UOJ"  # not in the matrix: the program reads them as X


def protein(rng, n):
    s = [rng.choice(AMINO) for _ in range(n)]
    for _ in range(n // 60):
        s[rng.randrange(n)] = rng.choice(RARE + UNKNOWN)
    return "".join(s)


def mutate(rng, seq, rate):
    out = []
    for c in seq:
        r = rng.random()
        if r < rate * 0.6:
            out.append(rng.choice(AMINO))
        elif r < rate * 0.8:
            continue
        elif r < rate:
            out.append(c)
            out.extend(rng.choice(AMINO) for _ in range(rng.randint(1, 6)))
        else:
            out.append(c)
    return "".join(out) or rng.choice(AMINO)


def families(rng, n_seqs, lo, hi):
    seeds = [protein(rng, rng.randint(lo, hi)) for _ in range(max(2, n_seqs // 4))]
    seqs = []
    for k in range(n_seqs):
        base = rng.choice(seeds)
        kind = rng.random()
        if kind < 0.2:
            seqs.append(protein(rng, rng.randint(lo, hi)))
        elif kind < 0.4:
            # a motif present twice: the best score is reached in more than one cell
            motif = base[:rng.randint(15, 40)]
            gap = protein(rng, rng.randint(5, 60))
            seqs.append((protein(rng, rng.randint(0, 40)) + motif + gap + motif + protein(rng, rng.randint(0, 40)))[:hi])
        else:
            seqs.append(mutate(rng, base, rng.uniform(0.05, 0.5))[:hi])
    return seqs


def write_fasta(rng, path, seqs, prefix, messy=True):
    lines = []
    for k, s in enumerate(seqs):
        desc = f" sp|{rng.randint(10000, 99999)}| protein {k}" if rng.random() < 0.7 else ""
        lines.append(f">{prefix}{k}{desc}")
        if messy and rng.random() < 0.3:
            s = "".join(c.lower() if rng.random() < 0.3 else c for c in s)
        width = rng.choice([60, 70, 80, 1000])
        for a in range(0, len(s), width):
            chunk = s[a:a + width]
            if messy and rng.random() < 0.1:
                chunk = chunk[:len(chunk) // 2] + " " + chunk[len(chunk) // 2:]
            lines.append(chunk)
        if messy and rng.random() < 0.1:
            lines.append("")
    if messy:
        heads = [k for k, line in enumerate(lines) if line.startswith(">")] + [len(lines)]
        lines.insert(rng.choice(heads), f">{prefix}empty no residues")
    eol = "\r\n" if messy and rng.random() < 0.3 else "\n"
    with open(path, "w", newline="") as fh:
        fh.write(eol.join(lines) + eol)


def matrix_file(rng, path, symmetric):
    letters = list("ARNDCQEGHILKMFPSTWYVBZX*")
    order = letters[:]
    rng.shuffle(order)
    m = {}
    for a in letters:
        for b in letters:
            if a == b:
                m[a, b] = rng.randint(3, 12) if a not in "X*" else rng.randint(-2, 1)
            else:
                m[a, b] = rng.choice([-5, -4, -3, -2, -2, -1, -1, 0, 0, 1, 2, 3, 4])
    if symmetric:
        for a in letters:
            for b in letters:
                m[b, a] = m[a, b] if letters.index(a) < letters.index(b) else m[b, a]
    with open(path, "w") as fh:
        fh.write("# generated\n\n" + "    ".join([""] + order) + "\n")
        for a in order:
            fh.write(a + "\t" + " ".join(str(m[a, b]) for b in order) + "\n")
