import sys

from .interp import run_source
from .errors import ToyError


def main():
    if len(sys.argv) != 2:
        print("usage: python3 -m toylang FILE", file=sys.stderr)
        return 2
    src = open(sys.argv[1]).read()
    try:
        run_source(src, sys.stdout)
    except ToyError as e:
        sys.stdout.flush()
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


sys.exit(main())
