#!/usr/bin/env python3
"""bpe.py - byte-pair-encoding (BPE) subword trainer and encoder.

    python3 bpe.py train CORPUS NUM_MERGES MODEL.json
    python3 bpe.py encode MODEL.json  < text  > tokens

Model file: {"version": 1, "merges": [[left, right], ...]} in merge order.
"""
import json
import sys
from collections import Counter, defaultdict

EOW = "</w>"
MODEL_VERSION = 1


# ---------------------------------------------------------------- helpers

def word_symbols(word):
    """Initial segmentation: one symbol per character, end-of-word marker on the last."""
    return list(word[:-1]) + [word[-1] + EOW]


def merge_symbols(symbols, pair):
    """Replace every occurrence of `pair`, left to right, by the joined symbol."""
    a, b = pair
    joined = " ".join(symbols)
    joined = joined.replace(a + " " + b, a + b)
    return joined.split(" ")


def pair_counts(symbols):
    return Counter(zip(symbols, symbols[1:]))


# ---------------------------------------------------------------- corpus

def read_corpus(path):
    """Word frequencies of the corpus (words are separated by whitespace)."""
    freq = Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            for w in line.rstrip("\n").split(" "):
                if w:
                    freq[w] += 1
    return freq


# ---------------------------------------------------------------- training

class Trainer:
    def __init__(self, freq):
        self.words = list(freq.keys())
        self.freq = [freq[w] for w in self.words]
        self.symbols = [word_symbols(w) for w in self.words]
        self.stats = Counter()
        self.where = defaultdict(set)          # pair -> ids of words that contain it
        for i, sym in enumerate(self.symbols):
            for p, c in pair_counts(sym).items():
                self.stats[p] += c * self.freq[i]
                self.where[p].add(i)

    def best_pair(self):
        live = {p: c for p, c in self.stats.items() if c > 0}
        if not live:
            return None
        # most frequent pair
        return max(live.items(), key=lambda kv: kv[1])[0]

    def apply(self, pair):
        for i in sorted(self.where.pop(pair, ())):
            old = self.symbols[i]
            new = merge_symbols(old, pair)
            if new == old:
                continue
            f = self.freq[i]
            for p in set(zip(old, old[1:])):
                self.stats[p] -= f
            for p, c in pair_counts(new).items():
                self.stats[p] += c * f
                self.where[p].add(i)
            self.symbols[i] = new
        self.stats.pop(pair, None)

    def train(self, num_merges):
        merges = []
        while len(merges) < num_merges:
            pair = self.best_pair()
            if pair is None:
                break
            merges.append(pair)
            self.apply(pair)
        return merges


def save_model(path, merges):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"version": MODEL_VERSION, "merges": [list(p) for p in merges]},
                  f, ensure_ascii=False)
        f.write("\n")


def load_model(path):
    with open(path, encoding="utf-8") as f:
        model = json.load(f)
    if model.get("version") != MODEL_VERSION:
        raise SystemExit(f"bpe: unsupported model version in {path}")
    return [tuple(p) for p in model["merges"]]


# ---------------------------------------------------------------- encoding

class Encoder:
    def __init__(self, merges):
        self.ranks = {p: i for i, p in enumerate(merges)}
        self.cache = {}

    def encode_word(self, word):
        hit = self.cache.get(word)
        if hit is not None:
            return hit
        symbols = word_symbols(word)
        while len(symbols) > 1:
            ranked = [(self.ranks[p], p) for p in zip(symbols, symbols[1:]) if p in self.ranks]
            if not ranked:
                break
            symbols = merge_symbols(symbols, min(ranked)[1])
        self.cache[word] = symbols
        return symbols

    def encode_line(self, line):
        out = []
        for w in line.split():
            out.extend(self.encode_word(w))
        return " ".join(out)


# ---------------------------------------------------------------- CLI

def main(argv):
    if len(argv) == 5 and argv[1] == "train":
        try:
            n = int(argv[3])
        except ValueError:
            n = -1
        if n < 0:
            print("bpe: NUM_MERGES must be a non-negative integer", file=sys.stderr)
            return 2
        merges = Trainer(read_corpus(argv[2])).train(n)
        save_model(argv[4], merges)
        return 0
    if len(argv) == 3 and argv[1] == "encode":
        enc = Encoder(load_model(argv[2]))
        for line in sys.stdin:
            sys.stdout.write(enc.encode_line(line) + "\n")
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
