#!/bin/bash
# Merges overlapping ranges but not merely touching ones ([1,3)+[3,5) stays split).
set -euo pipefail
cat > /app/interval_set.hpp <<'CPP'
#ifndef INTERVAL_SET_HPP
#define INTERVAL_SET_HPP
#include <cstddef>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

template <typename T>
class IntervalSet {
public:
    IntervalSet() = default;

    void add(T lo, T hi) {
        if (!(lo < hi)) return;
        auto it = m_.upper_bound(lo);
        if (it != m_.begin()) {
            auto prev = std::prev(it);
            if (lo < prev->second) {  // prev overlaps
                lo = prev->first;
                if (hi < prev->second) hi = prev->second;
                it = m_.erase(prev);
            }
        }
        while (it != m_.end() && it->first < hi) {
            if (hi < it->second) hi = it->second;
            it = m_.erase(it);
        }
        m_.emplace(lo, hi);
    }

    void remove(T lo, T hi) {
        if (!(lo < hi)) return;
        auto it = m_.upper_bound(lo);
        if (it != m_.begin()) {
            auto prev = std::prev(it);
            if (lo < prev->second) {
                T plo = prev->first, phi = prev->second;
                m_.erase(prev);
                if (plo < lo) m_.emplace(plo, lo);
                if (hi < phi) { m_.emplace(hi, phi); return; }
            }
        }
        it = m_.lower_bound(lo);
        while (it != m_.end() && it->first < hi) {
            if (hi < it->second) {
                T ehi = it->second;
                m_.erase(it);
                m_.emplace(hi, ehi);
                return;
            }
            it = m_.erase(it);
        }
    }

    bool contains(T x) const {
        auto it = m_.upper_bound(x);
        if (it == m_.begin()) return false;
        --it;
        return x < it->second;
    }

    std::size_t range_count() const { return m_.size(); }

    T total() const {
        T t = T();
        for (const auto &kv : m_) t += kv.second - kv.first;
        return t;
    }

    std::vector<std::pair<T, T>> ranges() const { return {m_.begin(), m_.end()}; }

    bool empty() const { return m_.empty(); }

private:
    std::map<T, T> m_;
};
#endif
CPP
