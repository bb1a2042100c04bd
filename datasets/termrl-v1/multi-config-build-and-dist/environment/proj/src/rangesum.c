#include <assert.h>
#include "rangesum.h"

long range_sum(const long *v, int n, int lo, int hi) {
    assert(0 <= lo && lo <= hi && hi <= n);   /* caller contract, checked in debug builds */
    long s = 0;
    for (int i = lo; i < hi && i < n; i++) s += v[i];
    return s;
}
