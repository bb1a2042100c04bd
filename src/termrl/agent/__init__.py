"""Agents: what acts in the sandbox during the agent phase."""

from termrl.agent.base import Agent
from termrl.agent.reference import NopAgent, OracleAgent, get_agent

__all__ = ["Agent", "NopAgent", "OracleAgent", "get_agent"]
