#!/bin/bash
# Builds /app/repo deterministically (fixed identities and dates give fixed hashes), with four stashes that
# were then wiped by `git stash clear`, plus unreachable commits that are not stashes.
set -euo pipefail
export GIT_AUTHOR_NAME="Lena Brandt" GIT_AUTHOR_EMAIL="lena@example.de"
export GIT_COMMITTER_NAME="Lena Brandt" GIT_COMMITTER_EMAIL="lena@example.de"
git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
n=0
at() { n=$((n + 1)); d=$(printf '2025-03-%02dT%02d:%02d:00 +0100' $((1 + n / 6)) $((8 + n % 6)) $(( (n * 7) % 60 ))); export GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d"; }
c() { at; git add -A; git commit -q -m "$1"; }

mkdir -p units tests
cat > units/convert.py <<'PY'
"""Unit conversion helpers."""

FACTORS = {
    ("m", "cm"): 100,
    ("km", "m"): 1000,
    ("kg", "g"): 1000,
}


def convert(value, src, dst):
    if src == dst:
        return value
    if (src, dst) in FACTORS:
        return value * FACTORS[(src, dst)]
    if (dst, src) in FACTORS:
        return value / FACTORS[(dst, src)]
    raise KeyError(f"no conversion {src} -> {dst}")
PY
cat > units/cli.py <<'PY'
import sys

from units.convert import convert


def main():
    value, src, dst = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    print(f"{convert(value, src, dst):g} {dst}")


if __name__ == "__main__":
    main()
PY
printf '' > units/__init__.py
printf '# units\n\nSmall unit converter: `python3 -m units.cli 3 km m`.\n' > README.md
printf 'from units.convert import convert\n\n\ndef test_km():\n    assert convert(2, "km", "m") == 2000\n' > tests/test_convert.py
printf '__pycache__/\n*.pyc\n' > .gitignore
c "Initial converter"
printf '# Changelog\n\n- 0.1: first release\n' > CHANGELOG.md
c "Add changelog"
git tag v0.1

# stash 1 (oldest): plain WIP stash on main, with a staged part and an unstaged part
sed -i 's/    ("kg", "g"): 1000,/    ("kg", "g"): 1000,\n    ("t", "kg"): 1000,/' units/convert.py
git add units/convert.py
printf '\n\ndef test_tonne():\n    assert convert(3, "t", "kg") == 3000\n' >> tests/test_convert.py
at; git stash -q

# a real commit, then an amended version of it (the first version becomes unreachable)
printf '# Changelog\n\n- 0.2: WIP on main: inches\n- 0.1: first release\n' > CHANGELOG.md
c "WIP on main: document inches"
printf '# Changelog\n\n- 0.2: inches and feet\n- 0.1: first release\n' > CHANGELOG.md
at; git add -A; git commit -q --amend -m "Document inches and feet"

git checkout -q -b feature/temperature
cat > units/temperature.py <<'PY'
"""Temperature conversion (affine, so it does not fit FACTORS)."""


def c_to_f(c):
    return c * 9 / 5 + 32
PY
c "Add temperature module"

# stash 2: named stash on the feature branch, including an untracked file (-u)
cat >> units/temperature.py <<'PY'


def f_to_c(f):
    return (f - 32) * 5 / 9
PY
printf 'from units.temperature import f_to_c\n\n\ndef test_boiling():\n    assert f_to_c(212) == 100\n' > tests/test_temperature.py
at; git stash push -q -u -m "fahrenheit to celsius, untested edge cases"

# a side branch merged and then thrown away with reset --hard (an unreachable two-parent commit)
git checkout -q -b tmp/kelvin
printf '\n\ndef c_to_k(c):\n    return c + 273.15\n' >> units/temperature.py
c "Add kelvin"
git checkout -q feature/temperature
at; git merge -q --no-ff -m "Merge branch 'tmp/kelvin' into feature/temperature" tmp/kelvin
git reset -q --hard HEAD^
git branch -q -D tmp/kelvin

git checkout -q main
# stash 3: WIP stash on main, only unstaged changes
sed -i 's/Small unit converter/Small, dependency-free unit converter/' README.md
printf 'Supported: m, cm, km, kg, g.\n' >> README.md
at; git stash -q

# a commit made and then dropped with reset --hard
sed -i 's/    print(f"{convert(value, src, dst):g} {dst}")/    print(f"{convert(value, src, dst):.3f} {dst}")/' units/cli.py
c "Print three decimals"
git reset -q --hard HEAD^

git checkout -q feature/temperature
# stash 4 (newest): named stash, everything staged
cat > units/__init__.py <<'PY'
from units.convert import convert
from units.temperature import c_to_f

__all__ = ["convert", "c_to_f"]
PY
git add units/__init__.py
at; git stash push -q -m "export public API"

printf '# Changelog\n\n- unreleased: temperature module\n- 0.2: inches and feet\n- 0.1: first release\n' > CHANGELOG.md
c "Changelog for temperature"
git checkout -q main

# the accident
git stash clear
# ... and a tidy-up that forgot everything the branches no longer reach
git reflog expire --expire-unreachable=now --all
