#pragma once
#include <vector>
template <typename T> T mean(const std::vector<T> &v);
