import argparse
import sys

from . import __version__
from .core import top_words


def main(argv=None):
    ap = argparse.ArgumentParser(prog="textstats")
    ap.add_argument("--version", action="version", version=f"textstats {__version__}")
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--keep-stopwords", action="store_true")
    args = ap.parse_args(argv)
    for word, count in top_words(sys.stdin.read(), args.n, not args.keep_stopwords):
        print(f"{count} {word}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
