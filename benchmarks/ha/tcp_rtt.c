/*
 * tcp_rtt — round-trip time of a request/response over TCP on loopback (TCP_NODELAY): a client
 * sends SIZE bytes, the server echoes an 8-byte acknowledgement; COUNT round trips after 1,000
 * warm-up ones. Prints the median, p90 and p99 in microseconds. Server and client are two
 * processes (fork), as an active NameNode and its standby or JournalNode would be.
 *
 *   tcp_rtt SIZE COUNT
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) {
  perror(what);
  exit(1);
}

static void full(int fd, char *buf, size_t n, int writing) {
  for (size_t done = 0; done < n;) {
    ssize_t r = writing ? write(fd, buf + done, n - done) : read(fd, buf + done, n - done);
    if (r <= 0) die(writing ? "write" : "read");
    done += (size_t)r;
  }
}

#include "timing.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: tcp_rtt SIZE COUNT\n");
    return 64;
  }
  size_t size = strtoul(argv[1], NULL, 10);
  int count = atoi(argv[2]), warm = 1000, one = 1;
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t al = sizeof a;
  if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
      getsockname(ls, (struct sockaddr *)&a, &al))
    die("listen");
  char *buf = calloc(1, size < 8 ? 8 : size);
  pid_t pid = fork();
  if (pid == 0) { /* server: read a request, answer 8 bytes */
    int c = accept(ls, NULL, NULL);
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (int i = 0; i < warm + count; i++) {
      full(c, buf, size, 0);
      full(c, buf, 8, 1);
    }
    _exit(0);
  }
  int c = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(c, (struct sockaddr *)&a, sizeof a)) die("connect");
  setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  double *us = malloc(sizeof(double) * count);
  for (int i = 0; i < warm + count; i++) {
    double t0 = now_us();
    full(c, buf, size, 1);
    full(c, buf, 8, 0);
    if (i >= warm) us[i - warm] = now_us() - t0;
  }
  waitpid(pid, NULL, 0);
  qsort(us, count, sizeof(double), cmp_double);
  printf(
      "tcp_rtt loopback: %zu-byte request + 8-byte answer, %d round trips: median %.1f us, p90 "
      "%.1f us, p99 %.1f us\n",
      size, count, us[count / 2], us[count * 9 / 10], us[count * 99 / 100]);
  return 0;
}
