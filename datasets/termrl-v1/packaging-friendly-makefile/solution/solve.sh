#!/bin/bash
set -euo pipefail
cat > /app/Makefile <<'MK'
CC ?= cc
ifeq ($(origin CC),default)
CC = cc
endif
CFLAGS ?= -O2 -Wall
CPPFLAGS ?=
LDFLAGS ?=
LDLIBS ?=
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DESTDIR ?=
ALL_CPPFLAGS = -Iinclude $(CPPFLAGS)

all: greet

greet.o: src/greet.c include/greet.h
	$(CC) $(ALL_CPPFLAGS) $(CFLAGS) -c $< -o $@

main.o: src/main.c include/greet.h
	$(CC) $(ALL_CPPFLAGS) $(CFLAGS) -c $< -o $@

libgreet.a: greet.o
	$(AR) rcs $@ $^

greet: main.o libgreet.a
	$(CC) $(LDFLAGS) -o $@ main.o libgreet.a $(LDLIBS)

greet.pc: greet.pc.in
	sed 's|@PREFIX@|$(PREFIX)|g' $< > $@

install: all greet.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	install -m 755 greet $(DESTDIR)$(BINDIR)/greet
	install -m 644 libgreet.a $(DESTDIR)$(LIBDIR)/libgreet.a
	install -m 644 include/greet.h $(DESTDIR)$(INCLUDEDIR)/greet.h
	install -m 644 greet.pc $(DESTDIR)$(LIBDIR)/pkgconfig/greet.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/greet $(DESTDIR)$(LIBDIR)/libgreet.a $(DESTDIR)$(INCLUDEDIR)/greet.h $(DESTDIR)$(LIBDIR)/pkgconfig/greet.pc

clean:
	rm -f *.o libgreet.a greet greet.pc

.PHONY: all install uninstall clean greet.pc
MK
cd /app && make clean >/dev/null && make
