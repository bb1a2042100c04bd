#!/bin/sh
# builds libgeo into ../dist (run from this directory)
set -e
cd "$(dirname "$0")"
OUT=/app/dist
rm -rf "$OUT" build
mkdir -p build "$OUT/lib" "$OUT/include"
for f in src/*.c; do
    gcc -O2 -fPIC -Wall -Iinclude -Isrc -c "$f" -o "build/$(basename "$f" .c).o"
done
gcc -shared -Wl,-soname,libgeo.so.2 -o "$OUT/lib/libgeo.so.2" build/*.o -lm
ln -sf libgeo.so.2 "$OUT/lib/libgeo.so"
cp include/geo.h "$OUT/include/"
