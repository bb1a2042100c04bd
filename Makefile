# Both targets do all set-up first (idempotent): Debian packages, dockerd, .venv, base images.
.PHONY: setup test run bench clean

setup:
	bash scripts/setup.sh

test: setup
	.venv/bin/python -m pytest -q -ra

run: setup
	.venv/bin/termrl run --agent oracle datasets/examples --out runs/examples

bench: setup
	.venv/bin/python bench/exec_latency.py

clean:
	-.venv/bin/termrl clean
