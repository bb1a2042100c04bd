#!/bin/bash
set -euo pipefail
cd /app
mkdir -p patches
cat > patches/0001-tinyjson-posix-configure-and-install.patch <<'PATCH'
diff -ru a/tinyjson-0.9/Makefile.in b/tinyjson-0.9/Makefile.in
--- a/Makefile.in	2024-01-01 00:00:00.000000000 +0000
+++ b/Makefile.in	2026-11-29 20:02:17.115638560 +0000
@@ -11,7 +11,7 @@
 	ar rcs $@ src/tj.o
 
 install: all
-	install -d $(PREFIX)/lib
+	install -d $(PREFIX)/lib $(PREFIX)/include
 	install -m 644 libtinyjson.a $(PREFIX)/lib/
 	install -m 644 src/tj.h $(PREFIX)/include/
 
diff -ru a/tinyjson-0.9/configure b/tinyjson-0.9/configure
--- a/configure	2024-01-01 00:00:00.000000000 +0000
+++ b/configure	2026-11-29 20:02:17.094212575 +0000
@@ -9,7 +9,7 @@
     *) echo "unknown option $arg" >&2; exit 1 ;;
   esac
 done
-if [[ -z "$prefix" ]]; then echo "empty prefix" >&2; exit 1; fi
+if [ -z "$prefix" ]; then echo "empty prefix" >&2; exit 1; fi
 echo "checking for a C compiler... $cc"
 echo 'int main(void){return 0;}' > conftest.c
 if ! $cc conftest.c -o conftest 2>/dev/null; then echo "no working compiler" >&2; exit 1; fi
PATCH
cat > Makefile <<'MK'
# Builds the vendored tinyjson library from its release tarball, then jsonstat.
TJ = tinyjson-0.9
DEPS = $(CURDIR)/build/deps
PATCHES = $(sort $(wildcard patches/*.patch))
LIB = build/deps/lib/libtinyjson.a

all: build/bin/jsonstat

# unpack + patch, recorded by a stamp file
build/$(TJ)/.patched: vendor/$(TJ).tar.gz $(PATCHES)
	rm -rf build/$(TJ)
	mkdir -p build
	tar -C build -xzf vendor/$(TJ).tar.gz
	for p in $(PATCHES); do patch -d build/$(TJ) -p1 < $$p || exit 1; done
	touch $@

build/$(TJ)/.configured: build/$(TJ)/.patched
	cd build/$(TJ) && ./configure --prefix=$(DEPS)
	touch $@

$(LIB): build/$(TJ)/.configured
	$(MAKE) -C build/$(TJ) install
	touch $@

build/bin/jsonstat: src/jsonstat.c $(LIB)
	mkdir -p build/bin
	gcc -O2 -Wall -Ibuild/deps/include src/jsonstat.c -o $@ $(LIB)

clean:
	rm -rf build

.PHONY: all clean
MK
make clean >/dev/null
make
