"""Local base images built from Debian packages, for machines without a container registry.

``mmdebstrap`` makes a minimal Debian root file system from the host's apt mirror,
``docker import`` turns it into an image. Each base carries python3, pip, venv, pytest,
uv, curl, git, tmux, procps and ca-certificates, and trusts the host's extra CA
certificates (``/usr/local/share/ca-certificates``) so HTTPS to the package registries
works inside. Like the ``python:*-slim`` images, pip may install into the system Python.
"""

from __future__ import annotations

import hashlib
import logging
import re
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import docker

from termrl.errors import ImageError

log = logging.getLogger(__name__)

BASE_REPO = "termrl/base"
LOCAL_CA_DIR = Path("/usr/local/share/ca-certificates")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"

PACKAGES = (
    "bash", "python3", "python3-pip", "python3-venv", "python3-pytest", "python-is-python3",
    "curl", "git", "tmux", "procps", "ca-certificates", "less", "patch", "xz-utils", "unzip",
    # Enough to build and inspect things without a package install in every task image.
    "gcc", "g++", "make", "libc6-dev", "sqlite3", "jq", "file", "bc",
)
SCIENTIFIC = ("python3-numpy", "python3-pandas", "python3-scipy", "python3-sklearn")

IMAGE_ENV = {
    "LANG": "C.UTF-8",
    "PATH": "/root/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    # Trust the system store (which holds the host's extra CAs) in every client we ship.
    "SSL_CERT_FILE": CA_BUNDLE,
    "REQUESTS_CA_BUNDLE": CA_BUNDLE,
    "PIP_CERT": CA_BUNDLE,
    "UV_NATIVE_TLS": "1",
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

    @property
    def tag(self) -> str:
        return f"{BASE_REPO}:{self.suite}" + (f"-{self.variant}" if self.variant else "")


BASES = {
    "bookworm": BaseImage("bookworm", "3.11"),
    "trixie": BaseImage("trixie", "3.13"),
    # numpy, pandas, scipy, scikit-learn from Debian: data-science tasks build offline and fast.
    "bookworm-sci": BaseImage("bookworm", "3.11", "sci", SCIENTIFIC),
}


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


def recipe_hash(base: BaseImage) -> str:
    """Changes whenever what goes into the image changes; a stale image is rebuilt."""
    h = hashlib.sha256()
    h.update(repr((base, PACKAGES, sorted(IMAGE_ENV.items()), 3)).encode())
    for crt in sorted(LOCAL_CA_DIR.glob("*.crt")):
        h.update(crt.read_bytes())
    return h.hexdigest()[:16]


def base_image_ready(client: docker.DockerClient, base: BaseImage) -> bool:
    try:
        image = client.images.get(base.tag)
    except docker.errors.ImageNotFound:
        return False
    return (image.labels or {}).get("termrl.recipe") == recipe_hash(base)


def build_base_image(client: docker.DockerClient, base: BaseImage, *, force: bool = False) -> str:
    """Build one base image unless an up-to-date one exists; returns its tag."""
    if not force and base_image_ready(client, base):
        log.info("%s is up to date", base.tag)
        return base.tag
    if shutil.which("mmdebstrap") is None:
        raise ImageError("mmdebstrap is not installed -- fix: apt-get install -y mmdebstrap (make test does it)")
    with tempfile.TemporaryDirectory(prefix="termrl-base-") as tmp:
        work = Path(tmp)
        uv, uvx = _uv_binaries(work)
        tarball = work / "rootfs.tar"
        hooks = [f"--customize-hook=copy-in {uv} {uvx} /usr/local/bin/"]
        cas = sorted(LOCAL_CA_DIR.glob("*.crt"))
        if cas:
            hooks.append(f"--customize-hook=copy-in {' '.join(map(str, cas))} /usr/local/share/ca-certificates/")
        hooks += [
            '--customize-hook=chroot "$1" update-ca-certificates',
            '--customize-hook=rm -f "$1"/usr/lib/python3*/EXTERNALLY-MANAGED',
            '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
        ]
        cmd = ["mmdebstrap", "--variant=minbase", f"--include={','.join(PACKAGES + base.extra)}", *hooks, base.suite,
               str(tarball)]
        if base.suite != "bookworm":
            cmd.append(_apt_mirror())
        log.info("building %s: %s", base.tag, " ".join(cmd))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ImageError(f"mmdebstrap for {base.tag} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        changes = [f"ENV {k}={v}" for k, v in IMAGE_ENV.items()]
        changes += [f"LABEL termrl.recipe={recipe_hash(base)} termrl.python={base.python}",
                    'CMD ["bash"]', "WORKDIR /"]
        repo, tag = base.tag.split(":")
        try:
            old_id = client.images.get(base.tag).id
        except docker.errors.ImageNotFound:
            old_id = None
        client.api.import_image_from_file(str(tarball), repository=repo, tag=tag, changes=changes)
        if old_id and old_id != client.images.get(base.tag).id:
            try:  # the replaced base is garbage unless task images still build on it
                client.images.remove(old_id)
            except docker.errors.APIError:
                pass
    if not base_image_ready(client, base):
        raise ImageError(f"docker import of {base.tag} did not produce the image")
    return base.tag


def build_base_images(client: docker.DockerClient, suites: list[str] | None = None, *, force: bool = False) -> list[str]:
    names = suites or list(BASES)
    unknown = [s for s in names if s not in BASES]
    if unknown:
        raise ImageError(f"unknown base {unknown} -- fix: choose from {', '.join(BASES)}")
    return [build_base_image(client, BASES[s], force=force) for s in names]
