#!/bin/bash
# TEST_DIR is set by the harness (/tests).
cd /app
python3 -m pytest -rA "$TEST_DIR/test_outputs.py"
