/* Shared by the HA-estimate probes: a monotonic clock in microseconds and a qsort order for
 * doubles. */
#ifndef HA_TIMING_H
#define HA_TIMING_H
#include <time.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
#endif
