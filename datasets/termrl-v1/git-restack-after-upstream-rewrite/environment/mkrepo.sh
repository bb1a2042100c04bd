#!/bin/bash
# Builds /app/repo: a clone whose upstream was rewritten after two stacked feature branches were made.
set -euo pipefail
export GIT_CONFIG_GLOBAL=/tmp/mkrepo.gitconfig
git config --global init.defaultBranch main
git config --global user.name "Build"
git config --global user.email build@example.invalid
T=1700000000
commit() {  # commit <author name> <email> <message>
  T=$((T + 3600))
  GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_AUTHOR_DATE="@$T +0100" \
  GIT_COMMITTER_NAME="$1" GIT_COMMITTER_EMAIL="$2" GIT_COMMITTER_DATE="@$T +0100" \
    git commit -q -m "$3"
}
mkdir -p /srv/upstream && cd /srv/upstream && git init -q
mkdir calc
cat > README.md <<'X'
# calc

A tiny calculator.

Operations: add, sub.
X
cat > calc/ops.py <<'X'
def add(a, b):
    """Return a + b."""
    return a + b


def sub(a, b):
    """Return a - b."""
    return a - b
X
cat > calc/cli.py <<'X'
import sys

from calc import ops

OPS = {"add": ops.add, "sub": ops.sub}


def main(argv):
    op, a, b = argv[1], float(argv[2]), float(argv[3])
    print(OPS[op](a, b))


if __name__ == "__main__":
    main(sys.argv)
X
git add -A && commit "Ana Lima" ana@calc.example "Initial calculator"
U1=$(git rev-parse HEAD)
cat >> calc/ops.py <<'X'


def mul(a, b):
    """Return a * b."""
    return a * b
X
git add -A && commit "Ana Lima" ana@calc.example "Add mul"
cat >> calc/ops.py <<'X'


def div(a, b):
    """Return a / b."""
    return a / b
X
sed -i 's/Operations: add, sub./Operations: add, sub, mul, div./' README.md
git add -A && commit "Ana Lima" ana@calc.example "Add div"
OLD=$(git rev-parse HEAD)

# the developer's clone and stacked branches
git clone -q /srv/upstream /app/repo
cd /app/repo
git checkout -q -b feature-a
cat >> calc/ops.py <<'X'


def power(a, b):
    """Rasie a to the power b."""
    return a ** b
X
git add -A && commit "Dev Patel" dev@calc.example "Add power operation"
sed -i 's/OPS = {"add": ops.add, "sub": ops.sub}/OPS = {"add": ops.add, "sub": ops.sub, "pow": ops.power}/' calc/cli.py
git add -A && commit "Dev Patel" dev@calc.example "CLI: support pow"
cat >> README.md <<'X'

`pow a b` raises a to the power b.
X
git add -A && commit "Dev Patel" dev@calc.example "Docs: document pow"
git checkout -q -b feature-b
cat >> calc/ops.py <<'X'


def mod(a, b):
    """Return a modulo b."""
    return a % b
X
git add -A && commit "Kim Ode" kim@calc.example "Add mod operation"
sed -i 's/"pow": ops.power}/"pow": ops.power, "mod": ops.mod}/' calc/cli.py
git add -A && commit "Kim Ode" kim@calc.example "CLI: support mod"
cat > calc/test_mod.py <<'X'
from calc import ops


def test_mod():
    assert ops.mod(7, 3) == 1
X
git add -A && commit "Kim Ode" kim@calc.example "Test mod"

# upstream rewrites its history from the first commit on
cd /srv/upstream
git checkout -q -B rewritten "$U1"
cat >> calc/ops.py <<'X'


def mul(a, b):
    """Return a * b."""
    return a * b


def div(a, b):
    """Return a / b; dividing by zero raises ZeroDivisionError."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b
X
sed -i 's/Operations: add, sub./Operations: add, sub, mul, div./' README.md
git add -A && commit "Ana Lima" ana@calc.example "Add mul and div"
cat >> calc/ops.py <<'X'


def power(a, b):
    """Raise a to the power b."""
    return a ** b
X
git add -A && commit "Ana Lima" ana@calc.example "ops: power (picked from Dev's branch, docstring fixed)"
git mv calc/cli.py calc/main.py
sed -i 's/^from calc import ops$/from calc import ops  # operations table below/' calc/main.py
git add -A && commit "Ana Lima" ana@calc.example "Rename the CLI module to calc/main.py"
printf '0.2: mul, div, power\n' > CHANGES
git add -A && commit "Ana Lima" ana@calc.example "Add CHANGES"
git branch -q -f main rewritten && git checkout -q main && git branch -q -D rewritten

# the developer fetches the rewritten upstream
cd /app/repo
git fetch -q origin
git checkout -q feature-b
rm -rf /srv/upstream /tmp/mkrepo.gitconfig
