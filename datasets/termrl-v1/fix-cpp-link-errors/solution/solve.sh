#!/bin/bash
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
# 5. construct-on-first-use registry (no static init order dependency)
cat > src/registry.cpp <<'C'
#include "registry.hpp"

Registry &registry() {
    static Registry r;
    return r;
}

bool register_shape(const std::string &name, Factory f) {
    registry().emplace_back(name, std::move(f));
    return true;
}
C
make clean >/dev/null
make
