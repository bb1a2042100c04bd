import json
import os
import sys

from .errors import EnvError
from .parser import load


def main(argv):
    if len(argv) != 2:
        print("usage: python3 -m envload FILE", file=sys.stderr)
        return 2
    try:
        values = load(argv[1], dict(os.environ))
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except EnvError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    json.dump(values, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


sys.exit(main(sys.argv))
