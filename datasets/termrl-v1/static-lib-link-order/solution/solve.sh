#!/bin/bash
set -euo pipefail
cd /app
# util's private verbosity must not clash with the log module's global
sed -i 's/^int log_level = 0;   \/\* verbosity of the util module \*\//static int log_level = 0;   \/* verbosity of the util module *\//' src/util/util.c
grep -q '^static int log_level' src/util/util.c
cat > Makefile <<'MK'
CC = gcc
CFLAGS = -O2 -Wall -Iinclude
LIBS = build/libutil.a build/libparse.a build/liblog.a
LINKLIBS = -Lbuild -Wl,--start-group -lparse -lutil -llog -Wl,--end-group

all: build/app

build/util.o: src/util/util.c include/util.h include/parse.h
build/parse.o: src/parse/parse.c include/parse.h include/util.h include/log.h
build/log.o: src/log/log.c include/log.h
build/main.o: src/main.c include/log.h include/parse.h include/util.h
build/test_parse.o: tests/test_parse.c include/log.h include/parse.h include/util.h

build/%.o:
	@mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@

build/libutil.a: build/util.o
build/libparse.a: build/parse.o
build/liblog.a: build/log.o
build/lib%.a:
	rm -f $@
	ar rcs $@ $^

build/app: build/main.o $(LIBS)
	$(CC) -o $@ build/main.o $(LINKLIBS)

build/test_parse: build/test_parse.o $(LIBS)
	$(CC) -o $@ build/test_parse.o $(LINKLIBS)

check: build/test_parse
	./build/test_parse

clean:
	rm -rf build

.PHONY: all check clean
MK
make clean >/dev/null
make
make check
