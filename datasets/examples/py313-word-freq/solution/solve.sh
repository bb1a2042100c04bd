#!/bin/bash
set -euo pipefail
cat > /app/wordfreq.py <<'PY'
"""Print the most frequent words of a text file."""

import argparse
import re
import sys
from collections import Counter

WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")


def read_stopwords(path):
    words = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                words.add(line.lower())
    return words


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("-n", type=int, default=10)
    parser.add_argument("--stopwords")
    args = parser.parse_args(argv)

    stop = read_stopwords(args.stopwords) if args.stopwords else set()
    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"wordfreq: {exc}", file=sys.stderr)
        return 1

    counts = Counter(w for w in (m.lower() for m in WORD.findall(text)) if w not in stop)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    for word, count in ranked[: args.n]:
        print(f"{word}\t{count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
PY
python3 /app/wordfreq.py /app/sample.txt -n 5 --stopwords /app/stopwords.txt > /app/top5.txt
cat /app/top5.txt
