import argparse
import sys

from acme.core import __version__
from acme.core.registry import formats


def run(argv=None):
    p = argparse.ArgumentParser(prog="acme-convert")
    p.add_argument("--version", action="store_true")
    p.add_argument("--list-formats", action="store_true")
    p.add_argument("--from", dest="src")
    p.add_argument("--to", dest="dst")
    a = p.parse_args(argv)
    if a.version:
        print(f"acme-convert {__version__}")
        return 0
    fm = formats()
    if a.list_formats:
        for name in sorted(fm):
            print(name)
        return 0
    if a.src not in fm or a.dst not in fm:
        print(f"acme-convert: unknown format (have: {', '.join(sorted(fm)) or 'none'})", file=sys.stderr)
        return 2
    records = fm[a.src]().read(sys.stdin)
    fm[a.dst]().write(records, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(run())
