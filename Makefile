# Both targets do all set-up first (idempotent): Debian packages, dockerd, .venv, base images.
.PHONY: setup test unit run examples validate-dataset bench clean

setup:
	bash scripts/setup.sh

# Unit and integration tests (real Docker, real model): the whole suite.
test: setup
	.venv/bin/python -m pytest -q -ra --durations=30

# Unit tests only: no Docker, no model load, under a minute (tests/conftest.py marks the rest `integration`).
unit:
	.venv/bin/python -m pytest -q -ra -m "not integration"

# The main job: GRPO training of the embedded SmolLM2 on CPU (configs/cpu-smollm2.yaml, <= 60 min).
run: setup
	.venv/bin/termrl train --config configs/cpu-smollm2.yaml

# The reference agent over the example tasks, with a results table.
examples: setup
	.venv/bin/termrl run --agent oracle datasets/examples --out runs/examples

# Full validation of the dataset (3 repeats), updating datasets/termrl-v1/VALIDATION.md.
validate-dataset: setup
	.venv/bin/termrl tasks validate datasets/termrl-v1 --repeats 3 --report

bench: setup
	.venv/bin/python bench/exec_latency.py
	.venv/bin/python bench/warm_pool.py
	.venv/bin/python bench/verifier_integrity.py

clean:
	-.venv/bin/termrl clean
