#include "stats.hpp"

template <typename T> T mean(const std::vector<T> &v) {
    T s = T();
    for (const T &x : v) s += x;
    return v.empty() ? T() : s / static_cast<T>(v.size());
}
