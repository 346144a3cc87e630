/*
 * fsync_latency — what a journal append costs: append SIZE bytes to a file in DIR and fdatasync
 * it, COUNT times after 100 warm-up ones (the file is preallocated by the warm-up's appends, as an
 * edit-log segment is). Prints median, p90 and p99 in microseconds, then removes the file.
 *
 *   fsync_latency DIR SIZE COUNT
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: fsync_latency DIR SIZE COUNT\n");
    return 64;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/fsync_latency.%d", argv[1], (int)getpid());
  size_t size = strtoul(argv[2], NULL, 10);
  int count = atoi(argv[3]), warm = 100;
  int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_APPEND, 0600);
  if (fd < 0) {
    perror(path);
    return 1;
  }
  char *buf = malloc(size);
  memset(buf, 'x', size);
  double *us = malloc(sizeof(double) * count);
  for (int i = 0; i < warm + count; i++) {
    double t0 = now_us();
    if (write(fd, buf, size) != (ssize_t)size || fdatasync(fd)) {
      perror("write/fdatasync");
      return 1;
    }
    if (i >= warm) us[i - warm] = now_us() - t0;
  }
  close(fd);
  unlink(path);
  qsort(us, count, sizeof(double), cmp_double);
  printf(
      "fsync_latency %s: append %zu bytes + fdatasync, %d times: median %.1f us, p90 %.1f us, p99 "
      "%.1f us\n",
      argv[1], size, count, us[count / 2], us[count * 9 / 10], us[count * 99 / 100]);
  return 0;
}
