#!/usr/bin/env python3
"""All-against-all local alignment scores for two protein FASTA files (pure Python).

    python3 align_batch.py QUERIES.fa TARGETS.fa OUT.tsv [--matrix FILE] [--gap-open N]
                           [--gap-extend N] [--min-score N]

For every (query, target) pair: the best local alignment score (Smith-Waterman with affine gaps,
Gotoh's three-matrix recurrence) and where the best alignment ends. Defaults: --matrix next to this
file (scores.txt), --gap-open 11, --gap-extend 1, --min-score 0.

OUT.tsv: a header line, then one line per pair whose score is >= --min-score, tab-separated:
    query  target  score  q_end  t_end
sorted by score (high first), then by the query's position in QUERIES.fa, then by the target's
position in TARGETS.fa.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_matrix(path):
    """A BLAST-style matrix: '#' comments, a header row of residue letters, then one row per letter."""
    letters, rows = None, {}
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if letters is None:
                letters = parts
                continue
            rows[parts[0]] = dict(zip(letters, (int(v) for v in parts[1:])))
    return rows


def read_fasta(path, alphabet):
    """(id, sequence) records in file order. The id is the first word after '>'. Sequence lines are
    joined, spaces dropped and letters upper-cased; a letter missing from the matrix becomes 'X'.
    Records whose sequence ends up empty are skipped."""
    records, name, chunks = [], None, []

    def flush():
        if name is not None:
            seq = "".join(chunks).replace(" ", "").upper()
            seq = "".join(c if c in alphabet else "X" for c in seq)
            if seq:
                records.append((name, seq))

    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n").rstrip("\r")
            if line.startswith(">"):
                flush()
                words = line[1:].split()
                name, chunks = (words[0] if words else ""), []
            elif name is not None:
                chunks.append(line.strip())
    flush()
    return records


def local_align(a, b, matrix, gap_open, gap_extend):
    """Best local score of a against b and the 1-based end (i in a, j in b) of the first cell, in
    row-major order (i, then j), that reaches it; (0, 0, 0) when nothing scores above 0.

    H[i][j]: best score of an alignment ending with a[i] paired to b[j] (or 0);
    E[i][j]: ending with a gap in a (b[j] against nothing); F[i][j]: ending with a gap in b.
    A gap of length k costs gap_open + (k - 1) * gap_extend."""
    n, m = len(a), len(b)
    neg = -(1 << 30)
    h_prev = [0] * (m + 1)
    f_prev = [neg] * (m + 1)
    best, best_i, best_j = 0, 0, 0
    for i in range(1, n + 1):
        row_scores = matrix[a[i - 1]]
        h_cur = [0] * (m + 1)
        f_cur = [neg] * (m + 1)
        e = neg
        for j in range(1, m + 1):
            e = max(e - gap_extend, h_cur[j - 1] - gap_open)
            f = max(f_prev[j] - gap_extend, h_prev[j] - gap_open)
            h = max(0, h_prev[j - 1] + row_scores[b[j - 1]], e, f)
            h_cur[j] = h
            f_cur[j] = f
            if h > best:
                best, best_i, best_j = h, i, j
        h_prev, f_prev = h_cur, f_cur
    return best, best_i, best_j


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queries")
    ap.add_argument("targets")
    ap.add_argument("out")
    ap.add_argument("--matrix", default=os.path.join(HERE, "scores.txt"))
    ap.add_argument("--gap-open", type=int, default=11)
    ap.add_argument("--gap-extend", type=int, default=1)
    ap.add_argument("--min-score", type=int, default=0)
    args = ap.parse_args(argv)

    matrix = read_matrix(args.matrix)
    queries = read_fasta(args.queries, matrix)
    targets = read_fasta(args.targets, matrix)

    hits = []
    for qi, (qname, qseq) in enumerate(queries):
        for ti, (tname, tseq) in enumerate(targets):
            score, q_end, t_end = local_align(qseq, tseq, matrix, args.gap_open, args.gap_extend)
            if score >= args.min_score:
                hits.append((-score, qi, ti, qname, tname, score, q_end, t_end))
    hits.sort()
    with open(args.out, "w") as out:
        out.write("query\ttarget\tscore\tq_end\tt_end\n")
        for *_, qname, tname, score, q_end, t_end in hits:
            out.write(f"{qname}\t{tname}\t{score}\t{q_end}\t{t_end}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
