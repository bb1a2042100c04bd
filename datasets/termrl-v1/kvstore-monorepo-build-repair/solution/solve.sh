#!/bin/bash
set -euo pipefail
cd /app
cp /solution/Makefile Makefile
cp /solution/lib_core_module.mk lib/core/module.mk
cp /solution/lib_kv_module.mk lib/kv/module.mk
cp /solution/apps_module.mk apps/module.mk
cp /solution/kv.pc.in kv.pc.in
make clean
make -j4
