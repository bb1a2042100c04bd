#ifndef RANGESUM_H
#define RANGESUM_H
long range_sum(const long *v, int n, int lo, int hi);
#endif
