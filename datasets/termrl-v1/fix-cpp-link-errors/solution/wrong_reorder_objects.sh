#!/bin/bash
# Fixes the link errors but papers over the static-init-order bug by reordering objects in the Makefile.
set -euo pipefail
cd /app
# 1. link with the C++ driver
sed -i 's/\t$(CC) -o $@ $(OBJS)/\t$(CXX) -o $@ $(OBJS)/' Makefile
# 2. header function must be inline (ODR)
sed -i 's/^double clamp_positive/inline double clamp_positive/' src/util.hpp
# 3. template definition must be visible (move to header)
cat > src/stats.hpp <<'H'
#pragma once
#include <vector>
template <typename T> T mean(const std::vector<T> &v) {
    T s = T();
    for (const T &x : v) s += x;
    return v.empty() ? T() : s / static_cast<T>(v.size());
}
H
cat > src/stats.cpp <<'C'
#include "stats.hpp"
// explicit instantiation kept for users that link against it
template double mean<double>(const std::vector<double> &);
C
# 4. C linkage for the legacy header
cat > legacy/crc8.h <<'H'
#ifndef CRC8_H
#define CRC8_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
unsigned crc8(const unsigned char *data, size_t len);
#ifdef __cplusplus
}
#endif
#endif
H
# 5. "fix" init order by linking registry.o first
sed -i 's#^OBJS = .*#OBJS = build/registry.o build/main.o build/shapes.o build/stats.o build/crc8.o#' Makefile
make clean >/dev/null
make
