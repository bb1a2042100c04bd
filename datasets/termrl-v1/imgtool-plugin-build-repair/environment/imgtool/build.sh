#!/bin/sh
# Builds everything into out/:
#   out/lib/libcore.so.1 (+ libcore.so), out/lib/libcore.a, out/bin/imgtool, out/bin/imgstat,
#   out/lib/imgtool/plugins/<file>.so for every filter in filters.def
set -e
cd "$(dirname "$0")"
mkdir -p out/bin out/lib/imgtool/plugins build gen
[ -f gen/filters_table.h ] || sh tools/gen_table.sh filters.def > gen/filters_table.h
CFLAGS="-O2 -Wall -Iinclude -Igen"
for f in pgm util stats; do
    gcc $CFLAGS -c src/core/$f.c -o build/$f.o
done
ar rcs out/lib/libcore.a build/pgm.o build/util.o build/stats.o
gcc -shared -Wl,-soname,libcore.so.1 -o out/lib/libcore.so.1 build/pgm.o build/util.o build/stats.o -lm
ln -sf libcore.so.1 out/lib/libcore.so
gcc $CFLAGS -o out/bin/imgtool src/host/main.c -Lout/lib -lcore -ldl "-Wl,-rpath,$ORIGIN/../lib"
gcc $CFLAGS -o out/bin/imgstat src/imgstat.c -lm out/lib/libcore.a
for p in invert brighten threshold; do
    gcc $CFLAGS -fPIC -shared -o out/lib/imgtool/plugins/$p.so plugins/$p.c
done
