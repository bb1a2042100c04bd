"""`termrl report`: a static HTML report of one run or several side by side.

The output is one self-contained folder that works from ``file://`` with no server and no
network (no CDN; the plots are SVG drawn by the report's own small script):

- ``index.html``, ``report.js``, ``report.css`` -- the viewer (overview, training curves,
  per-task table, episode list, trajectory viewer; pages are ``#hash`` routes);
- ``data/index.js`` -- every run's config, metrics, summaries and one compact line per episode;
- ``episodes/<id>.js`` -- one episode's full row each, loaded on demand through a ``<script>``
  tag (``fetch()`` of ``file://`` is blocked by browsers; a script tag is not), so a run of
  10,000 episodes opens as fast as a run of ten.
"""

from __future__ import annotations

import json
import shutil
import time
from importlib import resources
from pathlib import Path
from typing import Any

from termrl.eval.runs import SOURCES, RunData, end_reason, error_boundary, num, summarize, tampered

ASSETS = ("index.html", "report.js", "report.css")

# The columns of one compact episode line in data/index.js (the viewer reads them by these names).
EPISODE_COLUMNS = ("id", "run", "source", "step", "index", "task", "reward", "test", "judge", "resolved", "turns",
                   "tokens", "end", "error", "tampered", "duration")


def _compact(episode_id: int, run_index: int, source: str, row: dict[str, Any]) -> list[Any]:
    def rounded(key: str) -> float | None:
        value = num(row, key)
        return None if value is None else round(value, 4)

    return [episode_id, run_index, SOURCES.index(source), row.get("step"), row.get("index"), str(row.get("task", "?")),
            rounded("reward"), rounded("test_score"), rounded("judge_score"), int(bool(row.get("resolved"))),
            row.get("n_turns"), row.get("n_tokens"), end_reason(row), error_boundary(row) or "", int(tampered(row)),
            rounded("duration_s")]


def _numeric_metrics(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Metric rows reduced to their numbers (the plots need nothing else)."""
    out = []
    for row in rows:
        kept = {k: v for k, v in row.items()
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")}
        if "step" in kept:
            out.append(kept)
    return out


def _jsonp(callback: str, *args: Any) -> str:
    return f"{callback}({', '.join(json.dumps(a, ensure_ascii=False) for a in args)});\n"


def write_report(runs: list[RunData], out: str | Path) -> Path:
    """Write the report of ``runs`` into ``out`` (created; a previous report there is replaced).

    Returns the path of ``index.html``.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for stale in ("episodes", "data"):
        shutil.rmtree(out / stale, ignore_errors=True)
    (out / "episodes").mkdir()
    (out / "data").mkdir()
    for name in ASSETS:
        (out / name).write_text(resources.files("termrl.eval").joinpath("report_assets", name).read_text())
    episodes: list[list[Any]] = []
    run_entries = []
    for run_index, run in enumerate(runs):
        sources = {}
        for source in SOURCES:
            rows = run.rows(source)
            if not rows:
                continue
            sources[source] = summarize(rows)
            for row in rows:
                episode_id = len(episodes)
                episodes.append(_compact(episode_id, run_index, source, row))
                detail = {**row, "_run": run.name, "_source": source}
                (out / "episodes" / f"{episode_id}.js").write_text(_jsonp("termrlEpisode", episode_id, detail),
                                                                    encoding="utf-8")
        agents = sorted({str(r.get("agent")) for r in run.rows() if r.get("agent")})
        policies = sorted({str(r.get("policy")) for r in run.rows() if r.get("policy")})
        run_entries.append({"name": run.name, "path": str(run.path), "config": run.config, "agents": agents,
                            "policies": policies, "sources": sources, "metrics": _numeric_metrics(run.metrics),
                            "skipped_lines": run.skipped_lines})
    data = {"generated": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "runs": run_entries, "sources": list(SOURCES),
            "columns": list(EPISODE_COLUMNS), "episodes": episodes}
    (out / "data" / "index.js").write_text(_jsonp("termrlData", data), encoding="utf-8")
    return out / "index.html"
