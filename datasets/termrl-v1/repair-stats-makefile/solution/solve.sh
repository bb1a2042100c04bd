#!/bin/bash
set -euo pipefail
cd /app
printf 'CC = gcc\nCFLAGS = -O2 -Wall -Iinclude\nLDLIBS = -lm\n\nOBJS = obj/main.o obj/readnum.o obj/stats.o\n\nall: bin/stats-tool\n\nbin/stats-tool: $(OBJS)\n\t@mkdir -p bin\n\t$(CC) -o $@ $(OBJS) $(LDLIBS)\n\nobj/%%.o: src/%%.c\n\t@mkdir -p obj\n\t$(CC) $(CFLAGS) -c $< -o $@\n\nclean:\n\trm -rf obj bin\n\n.PHONY: all clean\n' > Makefile
make clean && make
