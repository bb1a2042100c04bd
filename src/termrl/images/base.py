"""Local base images built from Debian packages, for machines without a container registry.

``mmdebstrap`` makes a minimal Debian root file system from the host's apt mirror,
``docker import`` turns it into an image (``termrl/rootfs:<suite>``); source-built CPython
(:mod:`termrl.images.cpython`) is added in Docker layers on it. Two kinds:

- ``termrl/base:<suite>`` (bookworm, trixie): Debian's python3 (3.11 on bookworm, 3.13 on trixie)
  with pip, venv, and pytest installed *by pip* (so ``pip install pytest==...`` can replace it;
  Debian's ``python3-pytest`` could not be uninstalled by pip), uv/uvx from the PyPI wheel plus
  ``$HOME/.local/bin/env`` (what uv's online install script leaves), a source-built CPython 3.13
  under its versioned names where Debian has none (bookworm) so ``uvx -p 3.13`` finds one offline,
  curl, git, tmux, procps, gcc, ca-certificates. They stand in for ``debian:*`` and ``ubuntu:*``.
- ``termrl/python:<X.Y>-<suite>``: what ``python:X.Y-*`` images are: that base plus CPython X.Y
  built from source for the suite (:mod:`termrl.images.cpython`) at ``/usr/local`` with
  ``python``, ``python3``, ``pip`` in ``/usr/local/bin`` and nothing pip-installed but pip.

Every image trusts the host's extra CA certificates (``/usr/local/share/ca-certificates``) so
HTTPS to the package registries works inside. Like the ``python:*-slim`` images, pip may install
into the system Python.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import docker

from termrl.errors import ImageError
from termrl.images.cpython import SOURCE_SUITE, CPython, build_cpython, cached_cpython

log = logging.getLogger(__name__)

BASE_REPO = "termrl/base"
PYTHON_REPO = "termrl/python"
ROOTFS_REPO = "termrl/rootfs"
LOCAL_CA_DIR = Path("/usr/local/share/ca-certificates")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"

PACKAGES = (
    "bash", "python3", "python3-pip", "python3-venv", "python-is-python3",
    "curl", "git", "tmux", "procps", "ca-certificates", "less", "patch", "xz-utils", "unzip",
    # Enough to build and inspect things without a package install in every task image.
    "gcc", "g++", "make", "libc6-dev", "sqlite3", "jq", "file", "bc",
)
PYTEST = "pytest==8.3.5"
"""Installed with pip into the Debian python3 of each base (the version trixie packages)."""
SCIENTIFIC = ("python3-numpy", "python3-pandas", "python3-scipy", "python3-sklearn")

IMAGE_ENV = {
    "LANG": "C.UTF-8",
    "PATH": "/root/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    # Trust the system store (which holds the host's extra CAs) in every client we ship.
    "SSL_CERT_FILE": CA_BUNDLE,
    "REQUESTS_CA_BUNDLE": CA_BUNDLE,
    "PIP_CERT": CA_BUNDLE,
    "UV_SYSTEM_CERTS": "1",  # (UV_NATIVE_TLS before uv 0.13)
    # No registry for Python builds here: uv must use the image's Python.
    "UV_PYTHON_DOWNLOADS": "never",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}


@dataclass(frozen=True)
class BaseImage:
    suite: str
    """Debian suite: bookworm (Python 3.11) or trixie (Python 3.13)."""
    python: str
    variant: str = ""
    extra: tuple[str, ...] = ()
    cpython: tuple[str, ...] = ()
    """Source-built CPython versions added at /usr/local under versioned names only
    (``python3.13``, ``pip3.13``): found by ``uv -p 3.13``, never shadowing Debian's ``python3``."""

    @property
    def tag(self) -> str:
        return f"{BASE_REPO}:{self.suite}" + (f"-{self.variant}" if self.variant else "")

    @property
    def rootfs_tag(self) -> str:
        """The imported Debian root file system the base is a layer on."""
        return f"{ROOTFS_REPO}:{self.suite}" + (f"-{self.variant}" if self.variant else "")


BASES = {
    "bookworm": BaseImage("bookworm", "3.11", cpython=("3.13",)),
    "trixie": BaseImage("trixie", "3.13"),
    # numpy, pandas, scipy, scikit-learn from Debian: data-science tasks build offline and fast.
    "bookworm-sci": BaseImage("bookworm", "3.11", "sci", SCIENTIFIC, cpython=("3.13",)),
}


@dataclass(frozen=True)
class PythonImage:
    """The stand-in for ``python:<minor>-*-<suite>``: a base plus CPython at /usr/local."""

    minor: str
    suite: str

    @property
    def tag(self) -> str:
        return f"{PYTHON_REPO}:{self.minor}-{self.suite}"

    @property
    def key(self) -> str:
        return f"py{self.minor}-{self.suite}"

    @property
    def base(self) -> BaseImage:
        return BASES[self.suite]


PYTHON_IMAGES = {p.key: p for p in (PythonImage("3.13", "bookworm"), PythonImage("3.13", "trixie"))}
"""Built by default (``termrl images build``): what the default FROM aliases need. Others on request:
``termrl images build --suite py3.11-trixie`` (any version in :data:`termrl.images.cpython.SOURCE_SUITE`)."""


def python_image(key: str) -> PythonImage | None:
    """``py3.11-trixie`` -> PythonImage("3.11", "trixie"); None for a name of another form."""
    match = re.fullmatch(r"py(3\.\d+)-(bookworm|trixie)", key)
    return PythonImage(match.group(1), match.group(2)) if match else None


def _apt_mirror() -> str:
    """The Debian mirror the host's apt uses (never hard-coded: the host decides)."""
    texts = []
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        if path.is_file():
            texts.append(path.read_text(errors="replace"))
    text = "\n".join(texts)
    for match in re.finditer(r"^\s*URIs:\s*(\S+)", text, re.M):
        uri = match.group(1)
        if uri.rstrip("/").endswith("/debian"):
            return uri
    for match in re.finditer(r"^\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+\S+\s+main", text, re.M):
        if match.group(1).rstrip("/").endswith("/debian"):
            return match.group(1)
    raise ImageError("no Debian mirror found in /etc/apt/sources.list{,.d} -- "
                     "fix: configure apt with a Debian mirror (mmdebstrap uses it)")


def _uv_binaries(workdir: Path) -> list[Path]:
    """uv and uvx, taken from the PyPI wheel (the binary the wheel ships)."""
    wheels = workdir / "wheels"
    cmd = ["python3", "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-d", str(wheels), "uv"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(wheels.glob("uv-*.whl"))
    if proc.returncode != 0 or not found:
        raise ImageError(f"`{' '.join(cmd)}` failed: {proc.stderr[-1000:]} -- fix: make PyPI reachable")
    out = []
    with zipfile.ZipFile(found[0]) as zf:
        for name in zf.namelist():
            if re.search(r"\.data/scripts/(uv|uvx)$", name):
                target = workdir / Path(name).name
                target.write_bytes(zf.read(name))
                target.chmod(0o755)
                out.append(target)
    if len(out) != 2:
        raise ImageError(f"uv wheel {found[0].name} has no uv/uvx binaries")
    return out


UV_ENV_SCRIPT = """\
# Written by termrl in place of uv's online installer (which cannot reach its server here):
# like the installer's own env script, it puts ~/.local/bin (uv, uvx) on PATH once.
case ":${PATH}:" in
    *:"$HOME/.local/bin":*) ;;
    *) export PATH="$HOME/.local/bin:$PATH" ;;
esac
"""

# Unversioned names a source build installs; a base keeps Debian's python3 in front of them.
_UNVERSIONED = ("python", "python3", "pip", "pip3", "idle", "idle3", "pydoc", "pydoc3",
                "python-config", "python3-config")


def _cpython_id(minor: str, suite: str) -> str:
    found = cached_cpython(minor, suite)
    if found is None:
        return f"{minor}-{suite}-missing"
    stat = found.tarball.stat()
    return f"{found.version}-{suite}-{stat.st_size}-{stat.st_mtime_ns}"


def rootfs_recipe(base: BaseImage) -> str:
    """Changes whenever what goes into the root file system changes; a stale one is rebuilt."""
    h = hashlib.sha256()
    h.update(repr((base.suite, base.extra, PACKAGES, PYTEST, sorted(IMAGE_ENV.items()), UV_ENV_SCRIPT, 4)).encode())
    for crt in sorted(LOCAL_CA_DIR.glob("*.crt")):
        h.update(crt.read_bytes())
    return h.hexdigest()[:16]


def recipe_hash(base: BaseImage) -> str:
    """The base: its root file system's recipe and the source builds layered on it."""
    h = hashlib.sha256()
    h.update(repr((rootfs_recipe(base), base.python, [_cpython_id(m, base.suite) for m in base.cpython], 1)).encode())
    return h.hexdigest()[:16]


def python_recipe_hash(image: PythonImage) -> str:
    h = hashlib.sha256()
    h.update(repr((image, recipe_hash(image.base), _cpython_id(image.minor, image.suite), 1)).encode())
    return h.hexdigest()[:16]


def _ready(client: docker.DockerClient, tag: str, recipe: str) -> bool:
    try:
        image = client.images.get(tag)
    except docker.errors.ImageNotFound:
        return False
    return (image.labels or {}).get("termrl.recipe") == recipe


def base_image_ready(client: docker.DockerClient, base: BaseImage) -> bool:
    return _ready(client, base.tag, recipe_hash(base))


def python_image_ready(client: docker.DockerClient, image: PythonImage) -> bool:
    return _ready(client, image.tag, python_recipe_hash(image))


def _replace_old(client: docker.DockerClient, tag: str, old_id: str | None) -> None:
    if old_id and old_id != client.images.get(tag).id:
        try:  # the replaced image is garbage unless task images still build on it
            client.images.remove(old_id)
        except docker.errors.APIError:
            pass


def _image_id(client: docker.DockerClient, tag: str) -> str | None:
    try:
        return client.images.get(tag).id
    except docker.errors.ImageNotFound:
        return None


def _docker_build(client: docker.DockerClient, tag: str, dockerfile: str, files: dict[str, Path]) -> None:
    """``docker build`` of ``dockerfile`` with ``files`` (name -> path) as its context; replaces ``tag``."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        data = dockerfile.encode()
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for name, path in files.items():
            tar.add(str(path), arcname=name)
    old_id = _image_id(client, tag)
    lines: list[str] = []
    for chunk in client.api.build(fileobj=io.BytesIO(buf.getvalue()), custom_context=True, tag=tag,
                                  rm=True, forcerm=True, pull=False, decode=True):
        lines.append(chunk.get("stream", ""))
        if "error" in chunk:
            raise ImageError(f"building {tag} failed: {chunk['error'].strip()}\n{''.join(lines[-20:])}")
    _replace_old(client, tag, old_id)


def build_rootfs(client: docker.DockerClient, base: BaseImage, *, force: bool = False) -> str:
    """The Debian root file system of ``base`` (mmdebstrap + docker import) unless up to date; its tag."""
    if not force and _ready(client, base.rootfs_tag, rootfs_recipe(base)):
        return base.rootfs_tag
    if shutil.which("mmdebstrap") is None:
        raise ImageError("mmdebstrap is not installed -- fix: apt-get install -y mmdebstrap (make test does it)")
    mirror = None if base.suite == "bookworm" else _apt_mirror()  # bookworm: mmdebstrap's default sources
    with tempfile.TemporaryDirectory(prefix="termrl-base-") as tmp:
        work = Path(tmp)
        uv, uvx = _uv_binaries(work)
        env_script = work / "env"
        env_script.write_text(UV_ENV_SCRIPT)
        tarball = work / "rootfs.tar"
        hooks = [f"--customize-hook=copy-in {uv} {uvx} /usr/local/bin/"]
        cas = sorted(LOCAL_CA_DIR.glob("*.crt"))
        if cas:
            hooks.append(f"--customize-hook=copy-in {' '.join(map(str, cas))} /usr/local/share/ca-certificates/")
        hooks += [
            '--customize-hook=chroot "$1" update-ca-certificates',
            '--customize-hook=rm -f "$1"/usr/lib/python3*/EXTERNALLY-MANAGED',
            # pytest by pip (into /usr/local/lib/python3.X/dist-packages, with a RECORD): replaceable by pip
            f'--customize-hook=chroot "$1" python3 -m pip install -q --no-cache-dir --cert {CA_BUNDLE} '
            f'--disable-pip-version-check --root-user-action=ignore {PYTEST}',
            # what uv's online installer leaves behind: uv, uvx and an env script in ~/.local/bin
            '--customize-hook=mkdir -p "$1"/root/.local/bin',
            f"--customize-hook=copy-in {env_script} /root/.local/bin/",
            '--customize-hook=ln -sf /usr/local/bin/uv /usr/local/bin/uvx "$1"/root/.local/bin/',
            '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
        ]
        cmd = ["mmdebstrap", "--variant=minbase", f"--include={','.join(PACKAGES + base.extra)}", *hooks,
               base.suite, str(tarball)]
        if mirror:
            cmd.append(mirror)
        log.info("building %s: %s", base.rootfs_tag, " ".join(cmd))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ImageError(f"mmdebstrap for {base.tag} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        changes = [f"ENV {k}={v}" for k, v in IMAGE_ENV.items()]
        changes += [f"LABEL termrl.recipe={rootfs_recipe(base)} termrl.python={base.python}",
                    'CMD ["bash"]', "WORKDIR /"]
        repo, tag = base.rootfs_tag.split(":")
        old_id = _image_id(client, base.rootfs_tag)
        client.api.import_image_from_file(str(tarball), repository=repo, tag=tag, changes=changes)
        _replace_old(client, base.rootfs_tag, old_id)
    if not _ready(client, base.rootfs_tag, rootfs_recipe(base)):
        raise ImageError(f"docker import of {base.rootfs_tag} did not produce the image")
    return base.rootfs_tag


def _needs_packages(py: CPython) -> str:
    """A shell check that the image holds the Debian packages ``py``'s libraries come from."""
    names = " ".join(py.packages)
    return (f'missing=$(for p in {names}; do dpkg-query -W -f="\\${{Status}}" "$p" 2>/dev/null '
            f'| grep -q "ok installed" || echo "$p"; done); '
            f'if [ -n "$missing" ]; then echo "CPython {py.version} needs Debian packages: $missing '
            f'-- fix: add them to PACKAGES in termrl/images/base.py" >&2; exit 1; fi')


def build_base_image(client: docker.DockerClient, base: BaseImage, *, force: bool = False) -> str:
    """Build one base image unless an up-to-date one exists; returns its tag.

    The root file system comes first (it needs no compiler run); then the source-built CPython
    versions of ``base.cpython`` (compiled once, cached) are layered on it under versioned names."""
    rootfs = build_rootfs(client, base, force=force)
    pythons = [build_cpython(minor, base.suite, _apt_mirror()) for minor in base.cpython]
    if not force and base_image_ready(client, base):
        log.info("%s is up to date", base.tag)
        return base.tag
    lines = [f"FROM {rootfs}"]
    for py in pythons:
        lines += [f"ADD cpython-{py.minor}.tar.gz /",
                  f"RUN set -e; {_needs_packages(py)}; cd /usr/local/bin; rm -f {' '.join(_UNVERSIONED)}; "
                  "rm -f /usr/local/lib/pkgconfig/python3.pc /usr/local/lib/pkgconfig/python3-embed.pc; "
                  f'python{py.minor} -c "import ssl, sqlite3, ctypes, lzma, bz2, zlib, readline, uuid, pyexpat"']
    lines.append(f"LABEL termrl.recipe={recipe_hash(base)} termrl.python={base.python}")
    log.info("building %s on %s", base.tag, rootfs)
    _docker_build(client, base.tag, "\n".join(lines) + "\n", {f"cpython-{py.minor}.tar.gz": py.tarball for py in pythons})
    if not base_image_ready(client, base):
        raise ImageError(f"building {base.tag} did not produce the image")
    return base.tag


_PYTHON_DOCKERFILE = """\
FROM {base}
# the whole build (bookworm's base holds its versioned files already: one code path for every suite)
ADD cpython.tar.gz /
RUN set -e; {needs}; cd /usr/local/bin; \\
    ln -sfT python{minor} python3; ln -sfT python{minor}-config python3-config; ln -sfT pip{minor} pip3; \\
    ln -sfT idle{minor} idle3; ln -sfT pydoc{minor} pydoc3; \\
    ln -sfT python3 python; ln -sfT python3-config python-config; ln -sfT pip3 pip; \\
    ln -sfT idle3 idle; ln -sfT pydoc3 pydoc; \\
    test "$(python -c 'import sys; print(sys.prefix)')" = /usr/local; \\
    python3 -c 'import ssl, sqlite3, ctypes, lzma, bz2, zlib, readline, uuid, dbm.gnu, pyexpat, venv'; \\
    python3 --version; pip --version
ENV PATH=/usr/local/bin:{path} PYTHON_VERSION={version}
LABEL termrl.recipe={recipe} termrl.python={minor}
CMD ["python3"]
"""


def build_python_image(client: docker.DockerClient, image: PythonImage, *, force: bool = False) -> str:
    """Build ``termrl/python:<minor>-<suite>`` (its base and CPython first, if needed); returns the tag."""
    if image.minor not in SOURCE_SUITE:
        raise ImageError(f"no Python {image.minor} can be built here (Debian carries the source of "
                         f"{', '.join(SOURCE_SUITE)}) -- fix: choose one of those")
    build_base_image(client, image.base, force=False)
    py = build_cpython(image.minor, image.suite, _apt_mirror())
    if not force and python_image_ready(client, image):
        log.info("%s is up to date", image.tag)
        return image.tag
    path = IMAGE_ENV["PATH"].replace("/usr/local/bin:", "")
    dockerfile = _PYTHON_DOCKERFILE.format(base=image.base.tag, minor=image.minor, version=py.version, path=path,
                                           recipe=python_recipe_hash(image), needs=_needs_packages(py))
    log.info("building %s on %s (CPython %s)", image.tag, image.base.tag, py.version)
    _docker_build(client, image.tag, dockerfile, {"cpython.tar.gz": py.tarball})
    if not python_image_ready(client, image):
        raise ImageError(f"building {image.tag} did not produce the image")
    return image.tag


def build_base_images(client: docker.DockerClient, suites: list[str] | None = None, *, force: bool = False) -> list[str]:
    """Build the named images (``bookworm``, ``trixie``, ``bookworm-sci``, ``py3.13-bookworm``, ...);
    by default every base and the default Python images."""
    names = suites or [*BASES, *PYTHON_IMAGES]
    unknown = [s for s in names if s not in BASES and python_image(s) is None]
    if unknown:
        raise ImageError(f"unknown image {unknown} -- fix: choose from {', '.join([*BASES, *PYTHON_IMAGES])} "
                         f"or py<X.Y>-<bookworm|trixie> with X.Y in {', '.join(SOURCE_SUITE)}")
    tags = []
    for name in names:
        if name in BASES:
            tags.append(build_base_image(client, BASES[name], force=force))
        else:
            image = python_image(name)
            assert image is not None
            tags.append(build_python_image(client, image, force=force))
    return tags
