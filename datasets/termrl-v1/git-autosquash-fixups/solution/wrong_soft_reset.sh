#!/bin/bash
# Mistake: squashes the whole branch and re-commits file by file, losing authorship and dates.
set -euo pipefail
cd /app/repo
git checkout -q feature
git reset -q --soft main
git reset -q
git add calc/tokenizer.py && git commit -q -m "Add tokenizer"
git add calc/parser.py && git commit -q -m "Add parser"
git add calc/evaluate.py && git commit -q -m "Add evaluator"
