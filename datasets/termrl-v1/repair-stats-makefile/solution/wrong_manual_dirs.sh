#!/bin/bash
# Fixes the recipe but creates the output directories by hand instead of in the Makefile.
set -euo pipefail
cd /app
printf 'CC = gcc\nCFLAGS = -O2 -Wall -Iinclude\nLDLIBS = -lm\n\nOBJS = obj/main.o obj/readnum.o obj/stats.o\n\nall: bin/stats-tool\n\nbin/stats-tool: $(OBJS)\n\t$(CC) -o $@ $(OBJS) $(LDLIBS)\n\nobj/%%.o: src/%%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n\nclean:\n\trm -rf obj bin\n\n.PHONY: all clean\n' > Makefile
mkdir -p obj bin
make
