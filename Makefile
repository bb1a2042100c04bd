# Both targets do all set-up first (idempotent): Debian packages, dockerd, .venv, base images.
.PHONY: setup test run examples validate-dataset bench clean

setup:
	bash scripts/setup.sh

test: setup
	.venv/bin/python -m pytest -q -ra

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
