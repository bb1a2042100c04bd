"""Headless Chromium for the report tests: render a page, read back what a person would see, screenshot it.

The DOM Chromium dumps after running the page's scripts is parsed into a small tree, so tests ask
for the visible text of elements (a table's cells, a chart's caption) rather than grep the HTML
the report generator wrote.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
"""Screenshots of the pages the tests rendered (gitignored)."""

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=10000"]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list = field(default_factory=list)  # Node | str

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, *, id: str | None = None, cls: str | None = None,
                 **attrs: str) -> list["Node"]:
        return [n for n in self.iter() if (tag is None or n.tag == tag) and (id is None or n.attrs.get("id") == id)
                and (cls is None or cls in n.classes) and all(n.attrs.get(k.replace("_", "-")) == v
                                                              for k, v in attrs.items())]

    def find(self, tag: str | None = None, **kw) -> "Node":
        found = self.find_all(tag, **kw)
        assert found, f"no <{tag or '*'} {kw}> on the page"
        return found[0]

    def rows(self) -> list[list[str]]:
        """A table's body rows as lists of cell texts."""
        body = self.find_all("tbody") or [self]
        return [[td.text.strip() for td in tr.children if isinstance(td, Node) and td.tag in ("td", "th")]
                for tr in body[0].find_all("tr")]


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    return builder.root


def render(url: str, screenshot: str | None = None, width: int = 1280, height: int = 1000) -> Node:
    """Load ``url`` in headless Chromium, run its scripts, return the resulting DOM; save a screenshot
    of the page under tests/artifacts/ when ``screenshot`` names one."""
    assert CHROMIUM, "chromium is not installed: run scripts/setup.sh (Debian package chromium)"
    with tempfile.TemporaryDirectory(prefix="termrl-chromium-") as profile:
        base = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]
        proc = subprocess.run([*base, "--dump-dom", url], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and "<html" in proc.stdout, proc.stderr[-2000:]
        if screenshot:
            target = ARTIFACTS / screenshot
            target.parent.mkdir(parents=True, exist_ok=True)
            shot = subprocess.run([*base, f"--screenshot={target}", url], capture_output=True, text=True,
                                  timeout=120)
            assert shot.returncode == 0 and target.is_file(), shot.stderr[-2000:]
    return parse(proc.stdout)
