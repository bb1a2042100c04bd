"""Adapters that run termrl's tasks, agent and rewards inside existing distributed RL engines.

``termrl.integrations.trl``: TRL's ``GRPOTrainer`` (``rollout_func``), with accelerate, DeepSpeed
ZeRO-3 / FSDP and TRL's vLLM server. Step-wise engines (SkyRL, verl) will read the same episode rows
through ``termrl.rollout.sequences.episode_to_turn_rows``.
"""
