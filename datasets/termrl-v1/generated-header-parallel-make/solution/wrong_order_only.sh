#!/bin/bash
# Makes the generated header an order-only prerequisite without dependency tracking: parallel builds work, but objects are not rebuilt when opcodes.def changes.
set -euo pipefail
cd /app
cat > Makefile <<'MK'
CC = gcc
CFLAGS = -O2 -Wall -Isrc -Igen
DEPFLAGS =
SRCS = $(wildcard src/*.c)
OBJS = $(SRCS:src/%.c=build/%.o)
GEN = gen/opcodes.h

all: build/opinfo

build/opinfo: $(OBJS)
	$(CC) -o $@ $(OBJS)

# every object may include the generated header: it must exist (and be current) first
build/%.o: src/%.c | $(GEN)
	@mkdir -p build
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(GEN): opcodes.def tools/gen_opcodes.py
	@mkdir -p gen
	python3 tools/gen_opcodes.py opcodes.def $@.tmp
	mv $@.tmp $@

clean:
	rm -rf build gen

-include $(OBJS:.o=.d)

.PHONY: all clean
MK
make clean >/dev/null
make -j8
