"""The integrity step: after the agent phase, find and undo every change to the verification toolchain.

Threat model (README, "Threat model"): the agent is root in its container and adversarial. The
verifier must not run anything the agent could have replaced, and the tests must see the same
interpreters, shells, utilities, loader and Python import machinery the image shipped, while
every *legitimate* change (packages installed, files written anywhere, services started) stays.

How: Docker lists every path the container added (A), changed (C) or deleted (D) against its
image (``container.diff()``, read through the API: nothing runs in the container to learn it).
``plan`` sorts those paths by the rules below into *tampered* (scored 0, restored or removed),
*neutralised* (undone silently: caches, stray bytecode) and legitimate (left alone). ``enforce``
then copies the image's own files back from a never-started container of the same image
(``get_archive`` -> ``put_archive``: no program in the container runs to do it) and removes
added paths with the image's ``rm`` called by absolute path.

Policy (what is *tampered*):

* programs: the verification plumbing in PATH -- interpreters, shells, ``env``, pip/pytest/uv
  and the core utilities test scripts use (``CORE_PROGRAMS``) -- changed or deleted, or a new
  file of such a name put in PATH where the image has its own (any python/pip/pytest/uv/bash/
  sh/env name always). Other programs (the task's own scripts, compilers, git, ...) are the
  task's domain: changing them is legitimate.
* the dynamic loader: ``/etc/ld.so.preload`` created or changed; ``/etc/ld.so.cache``
  re-pointing a library name the image resolves to another file; an image shared library
  changed or deleted; a new file named like an image library in a library directory;
  ``LD_PRELOAD``/``LD_LIBRARY_PATH``/``LD_AUDIT`` added to a shell or PAM environment file.
* Python: an image file of the standard library changed or deleted (bytecode included); in
  site-packages, an image file of the test tooling (pytest, _pytest, pluggy, py, iniconfig,
  packaging, pip, setuptools, ...) changed or deleted; a new ``.pth`` file with an ``import``
  line; a new sitecustomize/usercustomize; a new top-level module named like test tooling the
  image has (pytest, _pytest, pluggy and py always); a new pytest plugin (an
  ``entry_points.txt`` with a ``[pytest11]`` section) anywhere.
* shadowing in the working directory: a new module in the image's WORKDIR, /app or / named like
  a module that a pytest run imports (``python -m`` puts the working directory first on
  sys.path); pytest configuration or conftest.py created or changed at /.
* package-manager configuration: pip/uv configuration files created or changed.

Neutralised without a verdict: new or changed files in pip's and uv's caches and uv's managed
Pythons (removed or restored: a cache is only a cache), bytecode added next to image modules.

Everything else is legitimate: pip installs of other packages (numpy, flask, ...), apt installs
that add files, ``ld.so.conf.d`` entries, files written anywhere, shell start-up files without
loader variables. A tampered episode still runs its tests on the restored toolchain (the output
shows what the tests saw) but scores 0.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import struct
import tarfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from termrl.sandbox.inventory import CUSTOMIZE, LIB_DIRS, STD_PATH_DIRS, TOOLING, Inventory  # noqa: F401

log = logging.getLogger(__name__)



# Programs a test script or the verifier may run: a new file of this name earlier in PATH than
# the image's own is a replacement, not a new program.
TOOL_RE = re.compile(r"^(python[0-9.]*(-config)?|pip[0-9.]*|pytest[0-9.-]*|py\.test|uvx?|bash|sh|dash|env|busybox)$")
CORE_PROGRAMS = frozenset("""
[ awk base64 basename cat chmod chown cmp comm cp curl cut date dd diff dirname echo egrep env expr false fgrep
find grep head id install kill ln ls mawk gawk md5sum mkdir mktemp mv nice nohup od paste printenv printf ps pwd
readlink realpath rm rmdir sed seq setsid sha1sum sha256sum sort stat stdbuf tail tee test timeout touch tr true
uname uniq wc wget which xargs yes sleep
""".split())
CORE_TOOLING = frozenset({"pytest", "_pytest", "pluggy", "py"})
PYTEST_CONFIGS = ("/conftest.py", "/pytest.ini", "/pyproject.toml", "/tox.ini", "/setup.cfg", "/.pytest.ini")
PKG_CONFIGS = ("/etc/pip.conf", "/etc/xdg/pip/pip.conf", "/root/.pip/pip.conf", "/root/.config/pip/pip.conf",
               "/etc/uv/uv.toml", "/root/.config/uv/uv.toml", "/root/.pydistutils.cfg", "/root/.pypirc")
ENV_FILES = ("/etc/environment", "/etc/profile", "/etc/bash.bashrc", "/root/.bashrc", "/root/.profile",
             "/root/.bash_profile", "/root/.bash_login", "/etc/security/pam_env.conf", "/root/.pam_environment")
ENV_DIRS = ("/etc/profile.d",)
LOADER_VARS = re.compile(rb"\bLD_(PRELOAD|LIBRARY_PATH|AUDIT)\b")
CACHES = ("/root/.cache/pip", "/root/.cache/uv", "/root/.local/share/uv")
UV_PYTHONS = ("/root/.local/share/uv/python", "/root/.local/share/uv/tools")
UV_NAMES = ("uv", "uvx")
WORK_DIRS_ALWAYS = ("/app", "/")

# --- the plan ----------------------------------------------------------------------------


@dataclass
class Plan:
    tampered: dict[str, str] = field(default_factory=dict)
    """path -> why it counts as tampering."""
    neutralised: list[str] = field(default_factory=list)
    restore: list[str] = field(default_factory=list)
    """Paths to copy back from the image."""
    remove: list[str] = field(default_factory=list)
    """Added paths to delete."""
    check_type: list[str] = field(default_factory=list)
    """Image folders reported changed: check they are still folders (not a link put in their place)."""

    def flag(self, path: str, why: str, *, restore: bool) -> None:
        self.tampered.setdefault(path, why)
        (self.restore if restore else self.remove).append(path)

    def quiet(self, path: str, *, restore: bool) -> None:
        self.neutralised.append(path)
        (self.restore if restore else self.remove).append(path)


def _under(path: str, root: str) -> bool:
    return root == "/" or path == root or path.startswith(root.rstrip("/") + "/")


def _deepest(path: str, roots: list[str]) -> str | None:
    best = None
    for root in roots:
        if _under(path, root) and path != root and (best is None or len(root) > len(best)):
            best = root
    return best


def module_name(entry: str) -> str:
    """``pytest-8.0.dist-info`` -> pytest, ``_ssl.cpython-311-x86_64-linux-gnu.so`` -> _ssl, ``x.py`` -> x."""
    name = entry.split(".")[0]
    if entry.endswith((".dist-info", ".egg-info")):
        name = entry.split("-")[0]
    return name.lower().replace("-", "_")


def _pyc_of_image_module(path: str, inv: Inventory) -> bool:
    p = PurePosixPath(path)
    return p.parent.name == "__pycache__" and str(p.parent.parent) in inv.dirs


def plan(changes: list[tuple[str, str]], inv: Inventory, read, *, workdirs: tuple[str, ...] = ()) -> Plan:
    """Sort the container's changes (``(path, "A"|"C"|"D")``) into tampered / neutralised / legitimate.

    ``read(path) -> bytes | None`` reads a file's current content (through the Docker API).
    """
    out = Plan()
    kinds = dict(changes)
    parents = {str(PurePosixPath(p).parent) for p in kinds}
    added_dirs = {p for p, k in changes if k == "A" and p in parents}
    python_roots = inv.stdlib_dirs + inv.site_dirs
    work = tuple(dict.fromkeys((*workdirs, *WORK_DIRS_ALWAYS)))

    def covered(path: str) -> bool:  # already restored/removed with a parent
        return any(_under(path, q) and path != q for q in out.restore + out.remove)

    for path, kind in sorted(changes, key=lambda c: (c[0].count("/"), c[0])):
        if covered(path):
            continue
        is_dir = path in inv.dirs or path in added_dirs
        name = PurePosixPath(path).name
        parent = str(PurePosixPath(path).parent)

        # The top-level links (/bin -> usr/bin on merged-/usr systems): any change is a swap.
        if path in inv.top_links or any(_under(path, link) for link in inv.top_links):
            top = next(link for link in inv.top_links if _under(path, link))
            out.flag(top, "replaced a top-level link of the image (/bin, /lib, ...)", restore=True)
            continue

        # Programs in PATH.
        if parent in inv.path_dirs and (name in UV_NAMES or path == "/root/.local/bin/env"):
            # uv's own installer puts uv, uvx and this env file in ~/.local/bin: an agent may install uv
            # for its own use. The tests get the image's (restored, or the agent's copies removed).
            if not is_dir:
                out.quiet(path, restore=kind != "A")
            continue
        if parent in inv.path_dirs:
            plumbing = bool(TOOL_RE.match(name)) or name in CORE_PROGRAMS
            if kind in "CD" and not is_dir and plumbing:
                out.flag(path, f"{'changed' if kind == 'C' else 'deleted'} the image's {name}", restore=True)
                continue
            if kind == "A" and (TOOL_RE.match(name) or (name in inv.programs and name in CORE_PROGRAMS)):
                out.flag(path, f"put a program named {name!r} in PATH, where the image has its own", restore=False)
                continue
        if kind == "D" and path in inv.path_dirs:
            out.flag(path, "deleted a PATH directory of the image", restore=True)
            continue

        # The dynamic loader.
        if path == "/etc/ld.so.preload":
            out.flag(path, "preloads a library into every program", restore=kind != "A")
            continue
        if path == "/etc/ld.so.cache":
            if kind == "D":
                out.quiet(path, restore=True)
            # kind C: enforce() compares it with the image's cache (read from the pristine image)
            continue
        if path in ENV_FILES or any(_under(path, d) and path != d for d in ENV_DIRS):
            if kind in "AC":
                content = read(path) or b""
                if LOADER_VARS.search(content):
                    out.flag(path, "sets a dynamic-loader variable (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT)",
                             restore=kind == "C")
            continue

        # Debian keeps the interpreter's sitecustomize in /etc/python3.X (linked from the stdlib).
        if path.startswith("/etc/python") and path.count("/") >= 3 and not is_dir:
            if kind in "CD" or module_name(name) in CUSTOMIZE:
                out.flag(path, "changed the Python interpreter's site configuration", restore=kind != "A")
            continue

        # Package-manager and pytest configuration.
        if path in PKG_CONFIGS and kind in "AC":
            out.flag(path, "changed pip/uv configuration (where the tests install from)", restore=kind == "C")
            continue
        if path in PYTEST_CONFIGS and kind in "AC":
            out.flag(path, "put pytest configuration at /, above the tests", restore=kind == "C")
            continue

        # pytest plugins registered anywhere.
        if name == "entry_points.txt" and kind in "AC":
            content = read(path) or b""
            if re.search(rb"^\s*\[pytest11\]", content, re.M):
                out.flag(path, "registers a pytest plugin", restore=kind == "C")
                continue

        # Caches and uv-managed Pythons.
        if any(_under(path, c) for c in CACHES):
            if kind == "A":
                out.quiet(path, restore=False)
            elif not is_dir:
                if any(_under(path, u) for u in UV_PYTHONS):
                    out.flag(path, "changed a uv-managed Python", restore=True)
                else:
                    out.quiet(path, restore=True)
            continue

        # Python: the standard library and site-packages of every image interpreter.
        root = _deepest(path, python_roots) if path not in python_roots else None
        if root is not None or path in python_roots:
            if path in python_roots:
                if kind == "D":
                    out.flag(path, "deleted a Python library directory", restore=True)
                elif kind == "C":
                    out.check_type.append(path)
                continue
            rel = path[len(root.rstrip("/")) + 1:]
            top = rel.split("/")[0]
            mod = module_name(top)
            top_path = f"{root.rstrip('/')}/{top}"
            stdlib = root in inv.stdlib_dirs
            if name.endswith(".pyc") and (kind in "AD" or not stdlib):
                if kind in "CD":  # Python rewrites stale bytecode itself: put the image's back, no verdict
                    out.quiet(path, restore=True)  # bytecode is rebuilt anyway; put the image's back
                elif _pyc_of_image_module(path, inv):
                    out.quiet(path, restore=False)
                continue
            if kind in "CD":
                if is_dir:
                    if kind == "C":
                        out.check_type.append(path)
                    else:
                        out.flag(path, "deleted a folder of the Python library", restore=True)
                    continue
                if stdlib:
                    out.flag(path, "changed the Python standard library" if kind == "C"
                             else "deleted part of the Python standard library", restore=True)
                elif mod in TOOLING or mod.startswith(("pytest", "_pytest")) or mod in CUSTOMIZE or top.endswith(".pth"):
                    out.flag(path, f"changed installed test tooling ({mod})", restore=True)
                continue
            # Added.
            if path != top_path:
                continue  # inside a package: judged by its top-level entry
            if top.endswith(".pth") and not stdlib:
                content = read(path) or b""
                if re.search(rb"^import[ \t]", content, re.M):
                    out.flag(path, "added a .pth file that runs code at every Python start", restore=False)
                continue
            if mod in CUSTOMIZE:
                out.flag(path, f"added {mod} (runs at every Python start)", restore=False)
            elif mod in CORE_TOOLING or ((mod in TOOLING or mod.startswith(("pytest_", "_pytest")))
                                         and mod in inv.modules and top.split(".")[-1] not in ("dist-info",
                                                                                               "egg-info")):
                out.flag(path, f"shadows the test tooling module {mod!r}", restore=False)
            elif stdlib and mod in inv.modules and any(d not in inv.stdlib_dirs for d in inv.modules[mod]):
                out.flag(path, f"shadows the module {mod!r} from the standard library folder", restore=False)
            continue

        # Shared libraries.
        if any(_under(path, d) for d in LIB_DIRS) and not is_dir:
            if kind in "CD" and (".so" in name or name.startswith("ld-")):
                out.flag(path, "changed a shared library of the image" if kind == "C"
                         else "deleted a shared library of the image", restore=True)
            elif kind == "A" and name in inv.sonames:
                out.flag(path, f"added a library named like the image's {name}", restore=False)
            continue
        if kind == "D" and path in inv.dirs:
            out.flag(path, "deleted a library directory of the image", restore=True)
            continue

        # Modules in the working directory that shadow what a pytest run imports.
        if parent in work and kind in "AC":
            mod = module_name(name)
            if (name.endswith((".py", ".pyc", ".so")) or path in added_dirs) and mod in inv.shadowable:
                if path in added_dirs and not any(f"{path}/__init__{ext}" in kinds for ext in (".py", ".pyc")):
                    continue  # a folder without __init__: a namespace portion, never chosen over a module
                out.flag(path, f"shadows the module {mod!r} in the working directory {parent}", restore=kind == "C")
                continue
    return out


def _cache_entries(data: bytes | None) -> dict[str, set[str]]:
    """Parse glibc's ``ld.so.cache`` (new format): library name -> the paths it resolves to."""
    if not data:
        return {}
    magic = b"glibc-ld.so.cache1.1"
    start = data.find(magic)
    if start < 0:
        return {}
    try:
        nlibs, _len_strings = struct.unpack_from("<II", data, start + 20)
        header = start + 20 + 8 + 4 + 4 + 12  # flags+pad, extension_offset, unused[3]
        entries: dict[str, set[str]] = {}

        def cstr(off: int) -> str:  # string offsets count from the start of the new-format header
            end = data.index(b"\0", start + off)
            return data[start + off:end].decode(errors="replace")
        for i in range(nlibs):
            _flags, key, value, _os, _hw = struct.unpack_from("<iIIIQ", data, header + 24 * i)
            entries.setdefault(cstr(key), set()).add(cstr(value))
        return entries
    except (struct.error, ValueError):
        return {}


def _cache_remapped(current: bytes | None, inv: Inventory) -> str | None:
    image = getattr(inv, "ld_cache", None)
    if not image:
        return None
    now = _cache_entries(current)
    for name, paths in image.items():
        extra = now.get(name, set()) - set(paths)
        if extra:
            return f"{name} to {sorted(extra)[0]}"
    return None


# --- enforcement ---------------------------------------------------------------------------


def read_from_tar(archive: bytes | None) -> bytes | None:
    if archive is None:
        return None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        member = tar.next()
        if member is None or not member.isfile():
            return None
        handle = tar.extractfile(member)
        return handle.read() if handle else None


@dataclass
class IntegrityReport:
    tampered: dict[str, str] = field(default_factory=dict)
    neutralised: list[str] = field(default_factory=list)
    restored: int = 0
    removed: int = 0
    restored_paths: dict[str, float] = field(default_factory=dict)
    """path -> when it was copied back (its copy then shows as changed in later diffs)."""
    passes: int = 0
    seconds: float = 0.0


def enforce(sandbox, inv: Inventory, report: IntegrityReport | None = None, *,
            workdirs: tuple[str, ...] = ()) -> IntegrityReport:
    """One pass: diff, plan, copy image files back, delete added ones. Accumulates into ``report``."""
    report = report or IntegrityReport()
    t0 = time.monotonic()
    if not hasattr(inv, "ld_cache"):
        inv.ld_cache = None  # filled lazily from the pristine image
    changes = [c for c in sandbox.changes() if not _our_restore(sandbox, c[0], report.restored_paths)]
    the_plan = plan(changes, inv, lambda p: read_from_tar(sandbox.read_archive(p)), workdirs=workdirs)
    need_cache = any(p == "/etc/ld.so.cache" and k == "C" for p, k in changes)
    restore = list(dict.fromkeys(the_plan.restore))
    with_pristine = bool(restore or need_cache or the_plan.check_type)
    if with_pristine:
        with sandbox.pristine() as image:
            if need_cache and inv.ld_cache is None:
                inv.ld_cache = _cache_entries(read_from_tar(image.archive("/etc/ld.so.cache")))
                moved = _cache_remapped(read_from_tar(sandbox.read_archive("/etc/ld.so.cache")), inv)
                if moved:
                    the_plan.flag("/etc/ld.so.cache", f"the loader cache re-points {moved}", restore=True)
                    restore.append("/etc/ld.so.cache")
            for path in the_plan.check_type:
                if not sandbox.is_dir(path):
                    the_plan.flag(path, "replaced a library folder with something else", restore=True)
                    restore.append(path)
            for path in restore:
                archive = image.archive(path)
                if archive is None:
                    the_plan.remove.append(path)
                    continue
                sandbox.put_archive(str(PurePosixPath(path).parent), archive)
                report.restored += 1
                report.restored_paths[path] = time.time()
    if "/etc/ld.so.preload" in the_plan.remove:  # blank it before anything runs, then delete it
        sandbox.put_archive("/etc", _one_file_tar("ld.so.preload", b""))
    remove = [p for p in dict.fromkeys(the_plan.remove)]
    if remove:
        rm = inv.program("rm") or "/bin/rm"
        for i in range(0, len(remove), 200):
            sandbox.run([rm, "-rf", "--", *remove[i:i + 200]], timeout=60, raw=True)
        report.removed += len(remove)
    for path, why in the_plan.tampered.items():
        report.tampered.setdefault(path, why)
    report.neutralised.extend(the_plan.neutralised)
    report.passes += 1
    report.seconds += time.monotonic() - t0
    return report


def _our_restore(sandbox, path: str, restored: dict[str, float]) -> bool:
    """Whether ``path`` is (under) a copy this step put back, untouched since."""
    root = next((r for r in restored if path == r or path.startswith(r.rstrip("/") + "/")), None)
    if root is None:
        return False
    changed = sandbox.changed_since(path, restored[root]) if hasattr(sandbox, "changed_since") else False
    return not changed


def _one_file_tar(name: str, data: bytes, mode: int = 0o644) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = len(data), mode, int(time.time())
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()
