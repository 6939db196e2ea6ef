/* Wall-clock timing for the benchmarks: monotonic seconds and medians. */
#ifndef G16_DIAG_TIMING_H
#define G16_DIAG_TIMING_H

#include <stddef.h>

double g16_now_seconds(void);
/* Sorts v in place and returns its median. */
double g16_median(double *v, size_t n);

#endif
