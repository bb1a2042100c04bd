#!/bin/bash
set -euo pipefail
cd /app
printf 'CC = gcc\nCFLAGS = -O2 -Wall -Iinclude\nDEPFLAGS = -MMD -MP\n\nSRCS = $(wildcard src/*.c)\nOBJS = $(SRCS:src/%%.c=build/%%.o)\nDEPS = $(OBJS:.o=.d)\n\nall: build/greeter\n\nbuild/greeter: $(OBJS)\n\t$(CC) -o $@ $^\n\nbuild/%%.o: src/%%.c | build\n\t$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@\n\nbuild:\n\tmkdir -p build\n\nclean:\n\trm -rf build\n\n-include $(DEPS)\n\n.PHONY: all clean\n' > Makefile
make
