"""CPython built from source for a Debian suite, as the official ``python:*`` images carry it.

The ``python:X.Y-*`` images have their interpreter at ``/usr/local`` (``python``, ``python3``,
``pip`` in ``/usr/local/bin``), built from upstream source against the libraries of the Debian
release the tag names, and no distro-owned Python packages. Debian ships one or two Python
versions per release (bookworm 3.11, trixie 3.13), so a ``python:3.13-slim-bookworm`` needs a
3.13 that Debian never built for bookworm.

The upstream source comes from the Debian archive (the ``.orig.tar.xz`` of the Debian source
package, fetched with ``apt-get source`` so apt checks it against the signed release files).
It is compiled inside a throwaway mmdebstrap chroot of the *target* suite, so it links against
that suite's libc and libraries, with ``--prefix=/usr/local``, then packed as a tarball in
``~/.cache/termrl/cpython/`` (``$TERMRL_CACHE``) next to the list of Debian packages its shared
objects need at run time. Every later image build unpacks the cached tarball in seconds.
No profile-guided optimisation or LTO, ``-O2``, no test modules: the interpreter is some 10-30%
slower than the official build, and the build takes minutes instead of most of an hour on 2 cores.
"""

from __future__ import annotations

import fcntl
import logging
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from termrl.cache import CACHE_DIR
from termrl.errors import ImageError

log = logging.getLogger(__name__)

CPYTHON_CACHE = CACHE_DIR / "cpython"

SOURCE_SUITE = {"3.11": "bookworm", "3.13": "trixie", "3.14": "forky"}
"""Debian suite whose source package ``python3.X`` holds the upstream tarball of each version.
Versions Debian does not carry (3.9, 3.10, 3.12) cannot be built here (no python.org access)."""

BUILD_DEPS = (
    "gcc", "make", "libc6-dev", "dpkg-dev", "pkg-config", "xz-utils", "ca-certificates",
    "libssl-dev", "zlib1g-dev", "libffi-dev", "libsqlite3-dev", "libbz2-dev", "liblzma-dev",
    "libreadline-dev", "libncurses-dev", "uuid-dev", "libgdbm-dev", "libexpat1-dev",
)

RECIPE_VERSION = 2
"""Bump when the build below changes: cached tarballs of another recipe are rebuilt."""

_BUILD_SCRIPT = r"""
set -eu
V="{version}"
mkdir -p /tmp/src /tmp/out
cd /tmp/src
apt-get source --download-only -q "python$V" >/tmp/out/fetch.log 2>&1 || {{ cat /tmp/out/fetch.log; exit 1; }}
tar xf python"$V"_*.orig.tar.xz
cd "$(find . -maxdepth 1 -type d -name 'Python-*' | head -1)"
# -O2 without -g (stripped anyway): a good third faster to compile than the default -g -O3
./configure --prefix=/usr/local --enable-shared --enable-loadable-sqlite-extensions \
    --with-system-expat --with-ensurepip=install --disable-test-modules \
    OPT="-DNDEBUG -O2 -Wall" LDFLAGS="-Wl,-rpath,/usr/local/lib -Wl,--strip-all" >/tmp/out/configure.log 2>&1 \
  || {{ tail -40 /tmp/out/configure.log; exit 1; }}
make -j"$(nproc)" >/tmp/out/make.log 2>&1 || {{ tail -60 /tmp/out/make.log; exit 1; }}
make install >/tmp/out/install.log 2>&1 || {{ tail -60 /tmp/out/install.log; exit 1; }}
# like the official images: no test suites, and unversioned names next to the versioned ones
find /usr/local/lib -depth -type d \( -name test -o -name tests -o -name idle_test \) -exec rm -rf '{{}}' +
cd /usr/local/bin
for src in idle3 pip3 pydoc3 python3 python3-config; do [ -e "$src" ] && ln -sfT "$src" "${{src%3}}"; done
/usr/local/bin/python3 -c 'import ssl, sqlite3, ctypes, lzma, bz2, zlib, readline, uuid, dbm.gnu, pyexpat, venv'
/usr/local/bin/pip --version
# the Debian packages whose libraries the build links against: the image must carry them
find /usr/local -type f \( -perm -u+x -o -name '*.so*' \) -exec ldd '{{}}' + 2>/dev/null \
  | awk '$2 == "=>" && $3 ~ /^\// {{print $3}}' | grep -v '^/usr/local/' | sort -u > /tmp/out/libs
: > /tmp/out/packages
while read -r lib; do
  dpkg-query --search "$lib" 2>/dev/null || dpkg-query --search "$(realpath "$lib")" 2>/dev/null || true
done < /tmp/out/libs | sed 's/^diversion by \([^ ]*\) .*/\1/' | cut -d: -f1 | sort -u > /tmp/out/packages
/usr/local/bin/python3 -c 'import platform; print(platform.python_version())' > /tmp/out/version
tar -C / -czf /tmp/out/cpython.tar.gz usr/local
"""


@dataclass(frozen=True)
class CPython:
    """One cached build: ``tarball`` unpacks at ``/``; ``packages`` are its run-time Debian packages."""

    version: str
    """Full version, e.g. 3.13.5."""
    suite: str
    tarball: Path
    packages: tuple[str, ...]

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])


def _paths(minor: str, suite: str) -> tuple[Path, Path, Path]:
    stem = f"cpython-{minor}-{suite}-r{RECIPE_VERSION}"
    return CPYTHON_CACHE / f"{stem}.tar.gz", CPYTHON_CACHE / f"{stem}.packages", CPYTHON_CACHE / f"{stem}.version"


def cached_cpython(minor: str, suite: str) -> CPython | None:
    tarball, packages, version = _paths(minor, suite)
    if not (tarball.is_file() and packages.is_file() and version.is_file()):
        return None
    # ("diversion by P from/to" lines: dpkg's notes on files P moved; P is still the owner)
    names = [ln.split()[2] if ln.startswith("diversion by ") else ln.strip()
             for ln in packages.read_text().splitlines() if ln.strip()]
    names = list(dict.fromkeys(names))
    return CPython(version.read_text().strip(), suite, tarball, tuple(names))


def build_cpython(minor: str, suite: str, mirror: str, *, force: bool = False) -> CPython:
    """The cached CPython ``minor`` (e.g. ``3.13``) for ``suite``, compiled first if absent.

    Raises:
        ImageError: the version has no Debian source, mmdebstrap is missing, or the build failed
            (with the tail of the failing step's log).
    """
    if minor not in SOURCE_SUITE:
        raise ImageError(f"no source for Python {minor} in the Debian archive (known: {', '.join(SOURCE_SUITE)}) "
                         f"-- fix: choose one of those versions")
    if shutil.which("mmdebstrap") is None:
        raise ImageError("mmdebstrap is not installed -- fix: apt-get install -y mmdebstrap (make test does it)")
    CPYTHON_CACHE.mkdir(parents=True, exist_ok=True)
    with open(CPYTHON_CACHE / f"cpython-{minor}-{suite}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two set-ups at once: the second waits, then finds the first's build
        found = None if force else cached_cpython(minor, suite)
        return found or _build(minor, suite, mirror)


def _build(minor: str, suite: str, mirror: str) -> CPython:
    tarball, packages, version = _paths(minor, suite)
    started = time.monotonic()
    log.info("building CPython %s for %s from the Debian source of python%s (%s); once, several minutes",
             minor, suite, minor, SOURCE_SUITE[minor])
    with tempfile.TemporaryDirectory(prefix="termrl-cpython-") as tmp:
        work = Path(tmp)
        script = work / "build-cpython.sh"
        script.write_text(_BUILD_SCRIPT.format(version=minor))
        out = work / "out"
        out.mkdir()
        sources = [f"deb {mirror} {suite} main", f"deb-src {mirror} {SOURCE_SUITE[minor]} main"]
        cmd = ["mmdebstrap", "--variant=minbase", f"--include={','.join(BUILD_DEPS)}",
               f"--customize-hook=copy-in {script} /tmp/",
               '--customize-hook=chroot "$1" sh /tmp/build-cpython.sh',
               *[f"--customize-hook=copy-out /tmp/out/{name} {out}/"
                 for name in ("cpython.tar.gz", "packages", "version")],
               suite, "/dev/null", *sources]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ImageError(f"building CPython {minor} for {suite} failed (exit {proc.returncode}):\n"
                             f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
        full = (out / "version").read_text().strip()
        if not re.fullmatch(rf"{re.escape(minor)}\.\d+", full):
            raise ImageError(f"the CPython build for {suite} reports version {full!r}, expected {minor}.x")
        # never leave a half-copied tarball in the cache: write beside it, then rename
        for src, dst in ((out / "cpython.tar.gz", tarball), (out / "packages", packages), (out / "version", version)):
            shutil.copyfile(src, f"{dst}.partial")
        for dst in (tarball, packages, version):
            Path(f"{dst}.partial").rename(dst)
    log.info("built CPython %s for %s in %.0f s: %s", full, suite, time.monotonic() - started, tarball)
    built = cached_cpython(minor, suite)
    assert built is not None
    return built
