#!/bin/bash
# Objects do not depend on VERSION: bumping the version leaves a stale binary.
set -euo pipefail
cat > /app/Makefile <<'MK'
BUILD ?= release
CONFIGS := debug release asan
ifeq ($(filter $(BUILD),$(CONFIGS)),)
$(error BUILD must be one of: $(CONFIGS) (got '$(BUILD)'))
endif

CC ?= cc
VERSION := $(shell cat VERSION)
NAME := rangesum
OUT := build/$(BUILD)
OBJDIR := $(OUT)/obj

CFLAGS_debug := -O0 -g
CFLAGS_release := -O2 -DNDEBUG
CFLAGS_asan := -O1 -g -fsanitize=address,undefined
LDFLAGS_asan := -fsanitize=address,undefined

ALL_CFLAGS := -Wall -Iinclude $(CFLAGS_$(BUILD)) -DAPP_VERSION='"$(VERSION)"' -DAPP_CONFIG='"$(BUILD)"' -MMD -MP
SRCS := $(wildcard src/*.c)
OBJS := $(SRCS:src/%.c=$(OBJDIR)/%.o)

all: $(OUT)/$(NAME)

$(OUT)/$(NAME): $(OBJS)
	$(CC) $(LDFLAGS_$(BUILD)) -o $@ $(OBJS)

$(OBJDIR)/%.o: src/%.c Makefile
	@mkdir -p $(OBJDIR)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

-include $(OBJS:.o=.d)

DISTNAME := $(NAME)-$(VERSION)
dist:
	rm -rf dist/$(DISTNAME)
	mkdir -p dist/$(DISTNAME)
	cp -r Makefile VERSION src include dist/$(DISTNAME)/
	tar -C dist -czf dist/$(DISTNAME).tar.gz $(DISTNAME)
	rm -rf dist/$(DISTNAME)

clean:
	rm -rf build dist

.PHONY: all dist clean
MK
cd /app && make clean >/dev/null && make
