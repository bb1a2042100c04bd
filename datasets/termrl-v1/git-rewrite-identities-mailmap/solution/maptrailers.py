"""stdin: a commit message; stdout: the same message with the identities in its trailers mapped."""
import re
import subprocess
import sys

TRAILER = re.compile(r"^(Signed-off-by|Co-authored-by|Reviewed-by): (.*)$")


def canonical(ident):
    return subprocess.run(["git", "-c", "mailmap.file=/app/identities.mailmap", "check-mailmap", ident],
                          check=True, capture_output=True, text=True).stdout.strip()


out = []
for line in sys.stdin.read().split("\n"):
    m = TRAILER.match(line)
    out.append(f"{m.group(1)}: {canonical(m.group(2))}" if m else line)
sys.stdout.write("\n".join(out))
