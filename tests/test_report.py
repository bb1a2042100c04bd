"""`termrl report` in a real browser: headless Chromium renders the report of real runs (oracle and the
termrl agent on example tasks, in real containers) and of 10,000 synthetic episodes; the tests read
what the pages show and save a screenshot of each under tests/artifacts/report/."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from browser import render
from conftest import EXAMPLES

TERMRL = [str(Path(sys.executable).with_name("termrl"))]
TASKS = ("organize-files", "tb1-reverse-lines")


def termrl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TERMRL, *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "COLUMNS": "200"})


def _xml_replies(task: str) -> list[str]:
    """What a careful agent would reply on each task: plan, note, act, check, finish (one task solved,
    the other attempted wrongly)."""
    if task == "organize-files":
        solve = (EXAMPLES / task / "solution" / "solve.sh").read_text()
        body = "\n".join("  " + line for line in solve.splitlines())
        return [
            "Let me look first.\n<todo>\nop: add\ntext: sort the inbox by extension\n</todo>\n"
            "<bash>\ncommand: ls -la /app/inbox\n</bash>",
            "<scratchpad>\nop: add\ntext: hidden files keep their leading dot\n</scratchpad>\n"
            f"<bash>\ncommand: |\n{body}\n</bash>",
            "<todo>\nop: complete\nid: 1\n</todo>\n<bash>\ncommand: find /app/sorted -type f | sort\n</bash>",
            "<finish>\nmessage: sorted every file into /app/sorted/<ext>/\n</finish>",
        ]
    return ["<bash>\ncommand: cat /app/input.txt 2>/dev/null | head -3; ls /app\n</bash>",
            "<finish>\nmessage: done\n</finish>"]


@pytest.fixture(scope="module")
def real_runs(tmp_path_factory):
    """Two real runs on the same example tasks: the oracle (through the CLI) and the termrl agent driven
    by a scripted policy (the real agent loop, tools, verifier and rubric judge)."""
    from termrl.agent.loop import AgentConfig, TermAgent
    from termrl.policies.scripted import ScriptedPolicy
    from termrl.rewards.judges import get_judge
    from termrl.rollout.episode import EpisodeConfig, EpisodeLog, run_episode
    from termrl.sandbox.docker import DockerProvider
    from termrl.tasks import load_task

    root = tmp_path_factory.mktemp("runs")
    oracle = root / "oracle"
    proc = termrl("run", "--agent", "oracle", *(str(EXAMPLES / t) for t in TASKS), "--out", str(oracle))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    agent = root / "agent"
    log = EpisodeLog(agent / "episodes.jsonl")
    provider = DockerProvider()
    config = EpisodeConfig(judge=get_judge("rubric"))
    for name in TASKS:
        policy = ScriptedPolicy(_xml_replies(name))
        # a small observation budget, so the listing of turn 1 reaches the model cut
        agent_config = AgentConfig(action_format="xml", observation_budget=400)
        result = run_episode(load_task(EXAMPLES / name), TermAgent(policy, agent_config), provider, config)
        assert result.error is None, result.error
        log.append(result)
    return oracle, agent


def _episode_id(page, run: str, task: str) -> str:
    for tr in page.find("table", id="episode-table").find_all("tr", cls="click"):
        cells = [td.text for td in tr.find_all("td")]
        if cells[1] == run and cells[4] == task:
            return tr.attrs["data-id"]
    raise AssertionError(f"no episode of {task} in run {run} listed")


def test_report_of_real_runs_in_a_browser(real_runs, tmp_path):
    oracle, agent = real_runs
    out = tmp_path / "report"
    proc = termrl("report", str(oracle), str(agent), "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    url = (out / "index.html").resolve().as_uri()

    overview = render(url, "report/overview.png")
    cards = overview.find_all(cls="run-card")
    assert [c.find("h3").text.strip("■ ") for c in cards] == ["oracle", "agent"]
    oracle_card = cards[0].text
    assert "2 episodes, 2 tasks" in oracle_card and "100.0%resolved rate" in oracle_card
    assert "errors by boundarynone" in oracle_card

    tasks = render(url + "#tasks", "report/tasks.png").find("table", id="task-table")
    rows = {r[0]: r for r in tasks.rows()}
    assert set(rows) == set(TASKS)
    # columns: task | oracle: episodes, resolved, pass@1, pass@1, reward | agent: the same | delta reward, delta pass@1
    assert rows["organize-files"][1:3] == ["1", "1"] and rows["organize-files"][6:8] == ["1", "1"]
    assert rows["tb1-reverse-lines"][7] == "0" and rows["tb1-reverse-lines"][-1] == "-1.000"
    assert "Δ agent − oracle" in tasks.find("thead").text

    # sorted by the agent's mean reward, highest first; filtered to one task
    sorted_rows = render(url + "#tasks?sort=1:mean_reward&desc=1").find("table", id="task-table").rows()
    assert [r[0] for r in sorted_rows] == ["organize-files", "tb1-reverse-lines"]
    filtered = render(url + "#tasks?q=reverse").find("table", id="task-table").rows()
    assert [r[0] for r in filtered] == ["tb1-reverse-lines"]

    listing = render(url + "#episodes", "report/episodes.png")
    assert "4 episodes" in listing.find(id="page-info").text
    episode = _episode_id(listing, "agent", "organize-files")

    page = render(url + f"#episode/{episode}", "report/episode.png", height=2400)
    viewer = page.find(id="episode")
    assert viewer.find(id="episode-title").text.startswith("organize-files")
    turns = viewer.find_all(cls="turn")
    assert [t.attrs["data-turn"] for t in turns] == ["1", "2", "3", "4"]
    assert "ls -la /app/inbox" in turns[0].find(cls="action").text or any(
        "ls -la /app/inbox" in a.text for a in turns[0].find_all(cls="action"))
    assert "sort the inbox by extension" in turns[0].find("pre", cls="reply").text
    observations = [p.text for t in turns for p in t.find_all("pre") if p.classes & {"obs-ok", "obs-bad"}]
    assert any("/app/sorted/" in o for o in observations)  # the find of turn 3, as the model saw it
    # turn 1's listing: cut as the model saw it, the tool's whole output on demand
    listing_obs = turns[0].find_all("pre", cls="obs-ok")[-1].text
    assert "characters omitted" in listing_obs and "v1.2.3.log" in listing_obs
    assert turns[0].find("button", cls="show-tool-output").text.startswith("show the tool's whole output (")
    whole = render(url + f"#episode/{episode}?full=1").find(id="episode").find_all(cls="turn")[0]
    full_text = whole.find("pre", cls="obs-full").text
    assert "characters omitted" not in full_text and "README.md" in full_text and "notes.txt" in full_text
    assert "☑ sort the inbox by extension" in viewer.find("ul", id="todos").text
    assert "hidden files keep their leading dot" in viewer.find("ul", id="scratchpad").text
    tests = viewer.find("table", id="tests").rows()
    assert tests and all(r[0] == "PASS" for r in tests)
    criteria = {r[0]: float(r[1]) for r in viewer.find("table", id="judge").rows()[1:]}
    assert {"action_success", "task_management", "phase_adherence", "tool_use"} <= set(criteria)
    assert viewer.find("ul", id="judge-reasons").text
    facts = viewer.find(cls="facts").text
    assert "turns4" in facts and "endedfinished" in facts and "tests passed" in facts

    oracle_episode = render(url + f"#episode/{_episode_id(listing, 'oracle', 'tb1-reverse-lines')}")
    assert "No trajectory: a reference agent (oracle)" in oracle_episode.find(id="episode").text


def _synthetic_run(folder: Path, n: int) -> None:
    """A training-like run of ``n`` episodes (rollouts.jsonl with trajectories, metrics.jsonl, config.json)."""
    folder.mkdir(parents=True)
    rng = random.Random(0)
    with open(folder / "rollouts.jsonl", "w") as fh:
        for i in range(n):
            step, task, ok = i // 16, f"task-{i % 40:03d}", rng.random() < 0.3
            lines = 200 if i == n - 1 else 3  # the last episode's observation is long (opened below)
            long_output = "\n".join(f"line {k} of {task}" for k in range(lines))
            trajectory = {
                "messages": [{"role": "system", "content": "tools..."}, {"role": "user", "content": f"Solve {task}."}],
                "steps": [{"turn": 0, "reply": f"```bash\ncat /app/{task}.log\n```",
                           "actions": [{"tool": "bash", "args": {"command": f"cat /app/{task}.log"}}],
                           "observations": [{"tool": "bash", "output": long_output, "ok": True, "truncated": True}],
                           "generate_s": 0.4, "act_s": 0.1, "n_prompt_tokens": 120, "n_completion_tokens": 14}],
                "segments": [], "finish_message": None, "end_reason": "max_turns", "todos": [], "n_tokens": 134}
            fh.write(json.dumps({
                "key": f"{step}:{task}:{i % 4}", "step": step, "index": i % 4, "task": task, "agent": "termrl",
                "reward": 0.9 if ok else 0.1, "resolved": ok, "tests": {"test_a": ok}, "terminated": False,
                "truncated": True, "error": None if i % 97 else {"boundary": "sandbox", "message": "container died"},
                "duration_s": 2.5, "policy": "hf", "test_score": float(ok), "judge_score": 0.5, "n_turns": 1,
                "n_tokens": 134, "end_reason": "max_turns", "trajectory": trajectory}) + "\n")
    with open(folder / "metrics.jsonl", "w") as fh:
        for step in range(1, n // 16 + 1):
            fh.write(json.dumps({"step": step, "time": float(step), "train/reward_mean": 0.2 + step / 2000,
                                 "train/resolved_rate": 0.1 + step / 2000, "kl": 0.01, "clip_fraction": 0.02,
                                 "entropy": 1.5 - step / 1000, "tokens_per_s": 300.0, "loss": 0.1}) + "\n")
            if step % 100 == 0:
                fh.write(json.dumps({"step": step, "time": float(step), "eval/reward_mean": step / 1000}) + "\n")
    (folder / "config.json").write_text(json.dumps({"steps": n // 16, "grpo": {"group_size": 4}}))
    with open(folder / "rollouts.jsonl", "a") as fh:
        fh.write('{"key": "625:task-0')  # a crash mid-write: skipped, and said so


def test_report_of_10000_episodes_stays_responsive(tmp_path):
    run = tmp_path / "big-run"
    _synthetic_run(run, 10_000)
    out = tmp_path / "report"
    proc = termrl("report", str(run), "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # The page loads one small index; each episode is its own file, loaded only when opened.
    assert len(list((out / "episodes").iterdir())) == 10_000
    assert (out / "data" / "index.js").stat().st_size < 3_000_000
    url = (out / "index.html").resolve().as_uri()

    listing = render(url + "#episodes?page=200", "report/scale-episodes.png")
    assert listing.find(id="page-info").text == "page 200 of 200 · 10000 episodes"
    rows = listing.find("table", id="episode-table").rows()
    assert len(rows) == 50 and rows[-1][0] == "9999" and rows[-1][4] == "task-039"

    page = render(url + "#episode/9999", "report/scale-episode.png")
    viewer = page.find(id="episode")
    assert viewer.find(id="episode-title").text.startswith("task-039")
    assert "step 624" in viewer.text
    obs = viewer.find("pre", cls="obs-ok")
    assert obs.text.startswith("line 0 of task-039") and "line 199" not in obs.text  # cut for display
    assert viewer.find("button", cls="show-full").text == "show full text (4089 characters)"

    curves = render(url + "#curves", "report/curves.png", height=1600)
    charts = {f.attrs["data-title"]: f for f in curves.find_all("figure", cls="chart")}
    assert {"Reward", "Resolved rate", "KL", "Clip fraction", "Entropy", "Tokens/s", "Held-out evaluation",
            "loss"} <= set(charts)
    reward = charts["Reward"]
    assert len(reward.find_all("circle")) == 625 and reward.find("polyline")  # a point per step, joined
    assert "train/reward_mean (625 pts)" in reward.find(cls="legend").text
    assert "(6 pts)" in charts["Held-out evaluation"].find(cls="legend").text

    overview = render(url).find(cls="run-card").text
    assert "sandbox: 104" in overview and "max_turns: 10000" in overview
    assert "unreadable lines skipped: rollouts.jsonl: 1" in overview


def test_report_of_a_folder_that_is_not_a_run(tmp_path):
    proc = termrl("report", str(tmp_path))
    assert proc.returncode == 2
    message = " ".join(proc.stderr.split())
    assert "not a run folder" in message and "--out folder of termrl run" in message


def test_export_to_hf_round_trips(real_runs, tmp_path):
    from datasets import load_from_disk

    oracle, agent = real_runs
    proc = termrl("export", str(agent), "--to", "hf", str(tmp_path / "ds"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ds = load_from_disk(str(tmp_path / "ds"))
    rows = [json.loads(line) for line in (agent / "episodes.jsonl").read_text().splitlines()]
    assert len(ds) == len(rows) == 2
    for record, row in zip(ds, rows):
        assert record["task"] == row["task"] and record["source"] == "episodes" and record["run"] == "agent"
        assert record["reward"] == pytest.approx(row["reward"]) and record["judge_score"] == pytest.approx(row["judge_score"])
        assert {t["name"]: t["passed"] for t in record["tests"]} == row["tests"]
        assert {p["criterion"]: p["score"] for p in record["judge_parts"]} == pytest.approx(row["judge_parts"])
        messages = row["trajectory"]["messages"]
        assert [(m["role"], m["content"]) for m in record["messages"]] == [(m["role"], m["content"]) for m in messages]
        assert record["n_turns"] == row["n_turns"] and record["end_reason"] == row["end_reason"] == "finished"
        assert json.loads(record["verifier"])["reward_source"] == row["verifier"]["reward_source"]

    sft = tmp_path / "sft"
    assert termrl("export", str(agent), "--to", "hf", str(sft), "--resolved-only").returncode == 0
    sft_ds = load_from_disk(str(sft))
    assert sft_ds["task"] == ["organize-files"]  # the one resolved episode
    assert set(sft_ds.column_names) == {"messages", "task", "reward", "source", "key"}
    assert [m["role"] for m in sft_ds[0]["messages"]][:3] == ["system", "user", "assistant"]

    # the oracle run has no trajectories: nothing to learn from, said plainly
    proc = termrl("export", str(oracle), "--to", "hf", str(tmp_path / "none"), "--resolved-only")
    assert proc.returncode == 2 and "no resolved episodes with a trajectory to export" in " ".join(proc.stderr.split())
