"""What an image holds in the places the integrity step protects, taken once per image.

Taken inside a sandbox right after it starts, before any agent command runs (the container is
then exactly its image), through the control shell: a ``find`` over the PATH, library and Python
folders and one short Python run per interpreter. Cached in memory and on disk, keyed by the
image's layers and PATH, so each image is listed once per machine (about a second). When a
verifier meets an image without one, a short-lived container of the image takes it instead.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

log = logging.getLogger(__name__)

CACHE_DIR = Path(os.environ.get("TERMRL_CACHE", Path.home() / ".cache" / "termrl")) / "integrity"
INVENTORY_VERSION = 4

STD_PATH_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin", "/root/.local/bin")
LIB_DIRS = ("/lib", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/local/lib")
TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
TOOLING = frozenset({"pytest", "_pytest", "pluggy", "py", "iniconfig", "packaging", "pygments", "exceptiongroup",
                     "tomli", "colorama", "pip", "_distutils_hack", "setuptools", "pkg_resources", "xdist",
                     "execnet", "coverage", "uv", "attr", "attrs", "more_itertools", "wheel"})
CUSTOMIZE = frozenset({"sitecustomize", "usercustomize"})

_PY_INVENTORY = r"""
import json, os, sys, site, sysconfig
info = {"exe": os.path.realpath(sys.executable), "version": "%d.%d" % sys.version_info[:2]}
paths = sysconfig.get_paths()
info["stdlib"] = sorted({p for p in (paths.get("stdlib"), paths.get("platstdlib")) if p})
info["path"] = [p for p in sys.path if p and os.path.isdir(p)]
info["site"] = [p for p in site.getsitepackages() if os.path.isdir(p)]
info["stdlib_names"] = sorted(getattr(sys, "stdlib_module_names", ()))
mods = {}
for d in info["path"]:
    try:
        names = os.listdir(d)
    except OSError:
        continue
    for n in names:
        mods.setdefault(n.split(".")[0].split("-")[0].lower(), []).append(d)
info["modules"] = mods
print("#PY " + json.dumps(info))
"""

_INVENTORY_SH = r"""
echo "#PATH $PATH"
for l in TOP_LINKS; do [ -L "$l" ] && echo "#LINK $l"; done
roots=""
for d in $(echo "$PATH" | tr ':' ' ') STD_PATH_DIRS; do [ -d "$d" ] && [ ! -L "$d" ] && roots="$roots $d"; done
for d in $roots; do echo "#PATHDIR $d"; done
find $roots -mindepth 1 -maxdepth 1 ! -type d 2>/dev/null | sed 's/^/#PROG /'
libs=""
for d in LIB_DIRS; do [ -d "$d" ] && [ ! -L "$d" ] && libs="$libs $d"; done
find $libs -xdev -type d 2>/dev/null | sed 's/^/#DIR /'
find $libs -xdev ! -type d \( -name '*.so' -o -name '*.so.*' \) 2>/dev/null | sed 's/^/#SO /'
for d in /etc/python3* /root/.local; do [ -d "$d" ] && find "$d" -xdev -type d | sed 's/^/#DIR /'; done
seen=""
for p in $(find $roots -mindepth 1 -maxdepth 1 -name 'python*' 2>/dev/null); do
  case "$(basename "$p")" in *-config|*m-config) continue ;; esac
  r=$(readlink -f "$p"); case " $seen " in *" $r "*) continue ;; esac; seen="$seen $r"
  PYTHONDONTWRITEBYTECODE=1 "$p" -I -c "$PYINV" 2>/dev/null
done
true
"""


@dataclass
class Inventory:
    """What the image holds in the places the integrity step protects (cached per image id)."""

    path_dirs: list[str]
    programs: dict[str, list[str]]
    """basename -> full paths, over the image's PATH directories."""
    top_links: list[str]
    dirs: set[str]
    """Every directory under the library and Python trees (a C entry on one is not a change of a file)."""
    sonames: set[str]
    stdlib_dirs: list[str]
    site_dirs: list[str]
    modules: dict[str, list[str]]
    """Top-level module name -> the Python path directories that hold it."""
    shadowable: set[str]
    """Top-level modules a pytest run imports (or the standard library's, without pytest)."""
    env_path: str

    def program(self, name: str) -> str | None:
        paths = self.programs.get(name)
        return paths[0] if paths else None

    def to_json(self) -> dict:
        return {"v": INVENTORY_VERSION, "path_dirs": self.path_dirs, "programs": self.programs,
                "top_links": self.top_links, "dirs": sorted(self.dirs), "sonames": sorted(self.sonames),
                "stdlib_dirs": self.stdlib_dirs, "site_dirs": self.site_dirs, "modules": self.modules,
                "shadowable": sorted(self.shadowable), "env_path": self.env_path}

    @classmethod
    def from_json(cls, data: dict) -> "Inventory":
        return cls(data["path_dirs"], data["programs"], data["top_links"], set(data["dirs"]), set(data["sonames"]),
                   data["stdlib_dirs"], data["site_dirs"], data["modules"], set(data["shadowable"]),
                   data["env_path"])


def parse_inventory(text: str) -> Inventory:
    path_dirs, top_links, dirs, sonames = [], [], set(), set()
    programs: dict[str, list[str]] = {}
    stdlib, site_dirs, modules, shadowable, stdlib_names = [], [], {}, set(), set()
    env_path = ""
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "#PATH":
            env_path = rest
        elif tag == "#LINK":
            top_links.append(rest)
        elif tag == "#PATHDIR":
            path_dirs.append(rest)
        elif tag == "#PROG":
            programs.setdefault(PurePosixPath(rest).name, []).append(rest)
        elif tag == "#DIR":
            dirs.add(rest)
        elif tag == "#SO":
            sonames.add(PurePosixPath(rest).name)
        elif tag == "#PY":
            info = json.loads(rest)
            for d in info["stdlib"]:
                if d not in stdlib:
                    stdlib.append(d)
                    stdlib.append(d + "/lib-dynload")
            for d in info["site"] + [p for p in info["path"] if "-packages" in p]:
                if d not in site_dirs and d not in stdlib:
                    site_dirs.append(d)
            for name, where in info["modules"].items():
                modules.setdefault(name, [])
                modules[name].extend(w for w in where if w not in modules[name])
            stdlib_names.update(info["stdlib_names"])
            stdlib_names.update(n for n, where in info["modules"].items()  # Python < 3.10
                                if any(w in info["stdlib"] or w.endswith("lib-dynload") for w in where))
    # Anything the tests or pytest may import from the standard library or the test tooling.
    shadowable = (stdlib_names | TOOLING | CUSTOMIZE) - {"test", "tests", "__main__"}
    path_dirs += [d for d in STD_PATH_DIRS if d not in path_dirs]
    return Inventory(path_dirs, programs, top_links, dirs, sonames, stdlib, site_dirs, modules, shadowable,
                     env_path)


_memory: dict[str, Inventory] = {}
_lock = threading.Lock()


def inventory_key(client, image: str, env_path: str) -> str:
    """Images with the same layers and PATH hold the same files: one inventory serves them all."""
    attrs = client.images.get(image).attrs
    layers = (attrs.get("RootFS") or {}).get("Layers") or [attrs["Id"]]
    return hashlib.sha256(("\n".join(layers) + "\n" + env_path).encode()).hexdigest()[:32]


def script() -> str:
    return (_INVENTORY_SH.replace("TOP_LINKS", " ".join(TOP_LINKS)).replace("STD_PATH_DIRS", " ".join(STD_PATH_DIRS))
            .replace("LIB_DIRS", " ".join(LIB_DIRS)))


def cached(key: str) -> Inventory | None:
    with _lock:
        if key in _memory:
            return _memory[key]
    path = CACHE_DIR / f"{key}.json"
    try:
        data = json.loads(path.read_text())
        if data.get("v") != INVENTORY_VERSION:
            return None
        inv = Inventory.from_json(data)
    except (OSError, ValueError, KeyError):
        return None
    with _lock:
        _memory[key] = inv
    return inv


def store(key: str, inv: Inventory) -> Inventory:
    with _lock:
        _memory[key] = inv
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        path = CACHE_DIR / f"{key}.json"
        tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(json.dumps(inv.to_json()))
        tmp.replace(path)
    except OSError as exc:
        log.warning("could not cache the integrity inventory: %s", exc)
    return inv


def inventory(client, image: str, env_path: str) -> Inventory:
    """The image's inventory: from memory, the disk cache, or a short-lived container of the image."""
    key = inventory_key(client, image, env_path)
    return cached(key) or store(key, parse_inventory(_run_inventory(client, image)))


def _run_inventory(client, image: str) -> str:
    from termrl.errors import SandboxError
    from termrl.sandbox.reaper import LABEL, owner_labels

    labels = {LABEL: "1", **owner_labels(), f"{LABEL}.created": str(int(time.time())), f"{LABEL}.role": "inventory"}
    try:
        out = client.containers.run(image, ["sh", "-c", script()], environment={"PYINV": _PY_INVENTORY},
                                    labels=labels, network_disabled=True, remove=True, stdout=True, stderr=False)
    except Exception as exc:  # docker.errors.ContainerError / APIError
        raise SandboxError(f"cannot take the integrity inventory of image {image[:19]}: {exc}") from exc
    return out.decode(errors="replace")
