"""Reference agents used to validate tasks: ``oracle`` runs the reference solution, ``nop`` does nothing."""

from __future__ import annotations

from termrl.errors import AgentError, TaskError
from termrl.plugins import load_plugin
from termrl.sandbox.base import Sandbox
from termrl.types import OUTPUT_TAIL_CHARS, AgentOutcome, Task


class OracleAgent:
    """Copies ``solution/`` to /solution and runs the reference solution in the persistent shell."""

    name = "oracle"

    def __init__(self, script: str | None = None):
        """``script``: run ``solution/<script>`` instead of the reference (e.g. a wrong_*.sh)."""
        self.script = script
        if script:
            self.name = f"oracle:{script}"

    def run(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        if task.solution_script is None:
            raise TaskError(task.path, "no reference solution", "add solution/solve.sh (Harbor) or solution.sh")
        if task.solution_dir is not None:
            sandbox.upload_dir(task.solution_dir, "/solution")
        script = f"bash /solution/{self.script}\n" if self.script else task.solution_script
        sandbox.write_file("/solution/.termrl-oracle.sh", script, 0o755)
        result = sandbox.exec("bash /solution/.termrl-oracle.sh", timeout=task.agent_timeout_sec)
        return AgentOutcome(
            terminated=not result.timed_out,
            truncated=result.timed_out,
            end_reason="timeout" if result.timed_out else "finished",
            exit_code=result.exit_code,
            output_tail=result.output[-OUTPUT_TAIL_CHARS:],
        )


class NopAgent:
    """Does nothing: the tests must fail on the untouched environment."""

    name = "nop"

    def run(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        return AgentOutcome(terminated=True, truncated=False, end_reason="finished")


AGENTS = {"oracle": OracleAgent, "nop": NopAgent}


def get_agent(name: str) -> object:
    """An agent by short name, or ``package.module:Class`` for a plugin."""
    if name in AGENTS:
        return AGENTS[name]()
    if ":" in name:
        try:
            cls = load_plugin(name)
        except ValueError as exc:
            raise AgentError(f"cannot load agent {name!r}: {exc}") from exc
        return cls()
    raise AgentError(f"unknown agent {name!r} -- fix: use one of {', '.join(AGENTS)} or module:Class")
