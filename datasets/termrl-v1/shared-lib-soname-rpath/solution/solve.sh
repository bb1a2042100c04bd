#!/bin/bash
set -euo pipefail
cd /app
cat > Makefile <<'MK'
CC = gcc
CFLAGS = -O2 -Wall -Iinclude
PREFIX ?= /usr/local
VERSION = 1.2.0
SOMAJOR = 1
LIB = build/libtally.so.$(VERSION)

all: $(LIB) build/libtally.so.$(SOMAJOR) build/libtally.so build/libtally.a build/tallyctl

build/tally.pic.o: src/tally.c include/tally.h
	@mkdir -p build
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

build/tally.o: src/tally.c include/tally.h
	@mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): build/tally.pic.o
	$(CC) -shared -Wl,-soname,libtally.so.$(SOMAJOR) -o $@ $<

build/libtally.so.$(SOMAJOR): $(LIB)
	ln -sf libtally.so.$(VERSION) $@

build/libtally.so: build/libtally.so.$(SOMAJOR)
	ln -sf libtally.so.$(SOMAJOR) $@

build/libtally.a: build/tally.o
	ar rcs $@ $<

build/tallyctl: tools/tallyctl.c build/libtally.so
	$(CC) $(CFLAGS) -o $@ $< -Lbuild -ltally -Wl,-rpath,'$$ORIGIN:$$ORIGIN/../lib'

install: all
	install -d $(PREFIX)/bin $(PREFIX)/lib $(PREFIX)/include
	install -m 755 build/tallyctl $(PREFIX)/bin/tallyctl
	install -m 644 include/tally.h $(PREFIX)/include/tally.h
	install -m 755 $(LIB) $(PREFIX)/lib/libtally.so.$(VERSION)
	ln -sf libtally.so.$(VERSION) $(PREFIX)/lib/libtally.so.$(SOMAJOR)
	ln -sf libtally.so.$(SOMAJOR) $(PREFIX)/lib/libtally.so
	install -m 644 build/libtally.a $(PREFIX)/lib/libtally.a

clean:
	rm -rf build

.PHONY: all install clean
MK
make
