/*
 * wal.c — the write-ahead log file of the disk mode (region-format.md §12).
 *
 * A header (WAL_HEADER_SIZE bytes) and a ring of `capacity` bytes. A record of LSN x lies at
 * WAL_HEADER_SIZE + x mod capacity and never wraps: when the rest of the lap is too short for
 * it, a pad record (or, below a header's size, nothing) fills the rest and the record starts
 * the next lap. A record is valid when its magic, LSN, length, type and CRC match; the CRC is
 * seeded with the region's creation id and the log's epoch, so a record of an earlier epoch,
 * of another region, or left behind by an earlier lap (its LSN is a lap lower) is never
 * mistaken for one of this epoch. Records are written in LSN order and each fdatasync covers
 * everything written before it, so after a crash the valid records from the checkpoint on
 * are exactly the durable prefix of the log: replay stops at the first invalid one.
 *
 * The file is preallocated with zeros and never grows or shrinks while it is in use, so an
 * fdatasync of a record writes data only, never file metadata.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nvm_internal.h"
#include "wal.h"

static uint32_t get32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ------------------------------------------------------------------ file */

static int write_all(struct nvm_wal *w, const uint8_t *p, uint64_t len, uint64_t off) {
  while (len > 0) {
    ssize_t n = pwrite(w->fd, p, len, (off_t)off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return nvm_fail(NVM_EIO, "write-ahead log %s: write failed", w->path);
    p += n;
    off += (uint64_t)n;
    len -= (uint64_t)n;
  }
  return NVM_OK;
}

/* Zeros from `from` to `to`: the file's blocks are allocated and written before any record
 * needs them. */
static int zero_fill(struct nvm_wal *w, uint64_t from, uint64_t to) {
  const size_t chunk = 1u << 20;
  uint8_t *z = calloc(1, chunk);
  if (!z) return nvm_fail(NVM_EIO, "write-ahead log %s: out of memory", w->path);
  int rc = NVM_OK;
  for (uint64_t off = from; rc == NVM_OK && off < to; off += chunk)
    rc = write_all(w, z, to - off < chunk ? to - off : chunk, off);
  free(z);
  if (rc == NVM_OK && fdatasync(w->fd) != 0)
    rc = nvm_fail(NVM_EIO, "write-ahead log %s: fdatasync failed", w->path);
  return rc;
}

int nvm_wal_open_file(const char *path, uint64_t capacity, int create, struct nvm_wal **out) {
  *out = NULL;
  if (create && (capacity < NVM_WAL_MIN_CAPACITY || capacity % 4096))
    return nvm_fail(NVM_EINVAL,
                    "write-ahead log %s: capacity %llu is not a multiple of 4096 of "
                    "at least %d",
                    path, (unsigned long long)capacity, NVM_WAL_MIN_CAPACITY);
  struct nvm_wal *w = calloc(1, sizeof *w);
  if (!w || !(w->path = strdup(path))) {
    free(w);
    return nvm_fail(NVM_EIO, "write-ahead log %s: out of memory", path);
  }
  w->capacity = capacity;
  w->wrap_at = SIZE_MAX;
  w->fd = open(path, O_RDWR | (create ? O_CREAT : 0), 0600);
  int rc = NVM_OK;
  struct stat st;
  if (w->fd < 0)
    rc = nvm_fail(errno == ENOENT ? NVM_ELOG : NVM_EIO, "write-ahead log %s: cannot open it", path);
  else if (fstat(w->fd, &st) != 0)
    rc = nvm_fail(NVM_EIO, "write-ahead log %s: fstat failed", path);
  else if (create && (uint64_t)st.st_size != NVM_WAL_HEADER_SIZE + capacity) {
    if ((uint64_t)st.st_size > NVM_WAL_HEADER_SIZE + capacity &&
        ftruncate(w->fd, (off_t)(NVM_WAL_HEADER_SIZE + capacity)) != 0)
      rc = nvm_fail(NVM_EIO, "write-ahead log %s: cannot shorten it", path);
    else
      rc = zero_fill(w,
                     (uint64_t)st.st_size < NVM_WAL_HEADER_SIZE + capacity
                         ? (uint64_t)st.st_size
                         : NVM_WAL_HEADER_SIZE + capacity,
                     NVM_WAL_HEADER_SIZE + capacity);
  }
  if (rc) {
    nvm_wal_close(w);
    return rc;
  }
  *out = w;
  return NVM_OK;
}

int nvm_wal_check_header(struct nvm_wal *w, uint64_t region_id, uint32_t epoch) {
  uint8_t h[NVM_WH_CRC + 4];
  struct stat st;
  if (pread(w->fd, h, sizeof h, 0) != (ssize_t)sizeof h || fstat(w->fd, &st) != 0)
    return nvm_fail_at(NVM_ELOG, 0, "write-ahead log %s: cannot read its header", w->path);
  if (get64(h + NVM_WH_MAGIC) != NVM_WAL_MAGIC || get32(h + NVM_WH_VERSION) != NVM_WAL_VERSION ||
      get32(h + NVM_WH_CRC) != nvm_crc32c(0, h, NVM_WH_CRC_COVERED))
    return nvm_fail_at(NVM_ELOG, 0, "write-ahead log %s: not a write-ahead log of this version",
                       w->path);
  if (get64(h + NVM_WH_REGION_ID) != region_id || get32(h + NVM_WH_EPOCH) != epoch)
    return nvm_fail_at(NVM_ELOG, NVM_WH_REGION_ID,
                       "write-ahead log %s belongs to region 0x%016llx epoch %u, not to this "
                       "region (0x%016llx) epoch %u",
                       w->path, (unsigned long long)get64(h + NVM_WH_REGION_ID),
                       get32(h + NVM_WH_EPOCH), (unsigned long long)region_id, epoch);
  uint64_t cap = get64(h + NVM_WH_CAPACITY);
  if (cap < NVM_WAL_MIN_CAPACITY || cap % 4096 || (uint64_t)st.st_size != NVM_WAL_HEADER_SIZE + cap)
    return nvm_fail_at(NVM_ELOG, NVM_WH_CAPACITY,
                       "write-ahead log %s: capacity %llu does not match its size %llu", w->path,
                       (unsigned long long)cap, (unsigned long long)st.st_size);
  w->region_id = region_id;
  w->epoch = epoch;
  w->capacity = cap;
  return NVM_OK;
}

int nvm_wal_start_epoch(struct nvm_wal *w, uint64_t region_id, uint32_t epoch, uint64_t start) {
  uint8_t h[NVM_WAL_HEADER_SIZE];
  memset(h, 0, sizeof h);
  put64(h + NVM_WH_MAGIC, NVM_WAL_MAGIC);
  put32(h + NVM_WH_VERSION, NVM_WAL_VERSION);
  put64(h + NVM_WH_REGION_ID, region_id);
  put32(h + NVM_WH_EPOCH, epoch);
  put64(h + NVM_WH_CAPACITY, w->capacity);
  put64(h + NVM_WH_START_LSN, start);
  put32(h + NVM_WH_CRC, nvm_crc32c(0, h, NVM_WH_CRC_COVERED));
  int rc = write_all(w, h, sizeof h, 0);
  if (rc == NVM_OK && fdatasync(w->fd) != 0)
    rc = nvm_fail(NVM_EIO, "write-ahead log %s: fdatasync failed", w->path);
  if (rc) return rc;
  w->region_id = region_id;
  w->epoch = epoch;
  w->head = w->written = w->synced = start;
  __atomic_store_n(&w->tail, start, __ATOMIC_RELEASE);
  w->len = 0;
  w->wrap_at = SIZE_MAX;
  return NVM_OK;
}

void nvm_wal_close(struct nvm_wal *w) {
  if (!w) return;
  if (w->fd >= 0) close(w->fd);
  free(w->buf);
  free(w->path);
  free(w);
}

/* ---------------------------------------------------------------- records */

static uint64_t lap_left(const struct nvm_wal *w, uint64_t lsn) {
  return w->capacity - lsn % w->capacity;
}

uint64_t nvm_wal_room(const struct nvm_wal *w) {
  return w->capacity - (w->head - __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE));
}

uint64_t nvm_wal_place(const struct nvm_wal *w, uint64_t at, uint64_t payload_len) {
  uint64_t len = NVM_WR_PAYLOAD + payload_len, left = lap_left(w, at);
  return at + (len <= left ? len : left + len);
}

uint64_t nvm_wal_tail(const struct nvm_wal *w) {
  return __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
}

void nvm_wal_set_tail(struct nvm_wal *w, uint64_t lsn) {
  __atomic_store_n(&w->tail, lsn, __ATOMIC_RELEASE);
}

uint64_t nvm_wal_max_payload(const struct nvm_wal *w) { return w->capacity / 2 - NVM_WR_PAYLOAD; }

/* The CRC of a record: seeded with the region and the epoch, over its header from WR_LSN on
 * and its payload pieces. */
static uint32_t rec_crc(const struct nvm_wal *w, const uint8_t *hdr, const struct iovec *iov,
                        int iovcnt) {
  uint32_t c = nvm_crc32c(0, &w->region_id, 8);
  c = nvm_crc32c(c, &w->epoch, 4);
  c = nvm_crc32c(c, hdr + NVM_WR_LSN, NVM_WR_PAYLOAD - NVM_WR_LSN);
  for (int i = 0; i < iovcnt; i++) c = nvm_crc32c(c, iov[i].iov_base, iov[i].iov_len);
  return c;
}

static void make_room(struct nvm_wal *w, size_t more) {
  if (w->len + more <= w->cap) return;
  size_t cap = w->cap ? w->cap : 1u << 16;
  while (cap < w->len + more) cap *= 2;
  uint8_t *b = realloc(w->buf, cap);
  if (!b) abort(); /* bounded by the ring's capacity; nothing sensible to do without it */
  w->buf = b;
  w->cap = cap;
}

static void header(const struct nvm_wal *w, uint8_t *h, uint64_t lsn, uint32_t len, uint32_t type,
                   uint64_t seq, uint32_t count) {
  put32(h + NVM_WR_MAGIC, NVM_WAL_RECORD_MAGIC);
  put64(h + NVM_WR_LSN, lsn);
  put32(h + NVM_WR_LEN, len);
  put32(h + NVM_WR_TYPE, type);
  put64(h + NVM_WR_SEQ, seq);
  put32(h + NVM_WR_COUNT, count);
  put32(h + NVM_WR_RESERVED, 0);
  (void)w;
}

void nvm_wal_add(struct nvm_wal *w, uint64_t seq, uint32_t count, const struct iovec *iov,
                 int iovcnt) {
  uint64_t payload = 0;
  for (int i = 0; i < iovcnt; i++) payload += iov[i].iov_len;
  uint32_t len = (uint32_t)(NVM_WR_PAYLOAD + payload);
  uint64_t left = lap_left(w, w->head);
  if (len > left) { /* the rest of the lap: a pad record, or too short for one */
    if (left >= NVM_WR_PAYLOAD) {
      make_room(w, NVM_WR_PAYLOAD);
      uint8_t *h = w->buf + w->len;
      header(w, h, w->head, (uint32_t)left, NVM_WR_TYPE_PAD, 0, 0);
      put32(h + NVM_WR_CRC, rec_crc(w, h, NULL, 0));
      w->len += NVM_WR_PAYLOAD;
      w->pads++;
    }
    w->head += left;
    w->wrap_at = w->len; /* what follows starts the next lap, at the ring's start */
  }
  make_room(w, len);
  uint8_t *h = w->buf + w->len;
  header(w, h, w->head, len, NVM_WR_TYPE_GROUP, seq, count);
  put32(h + NVM_WR_CRC, rec_crc(w, h, iov, iovcnt));
  size_t at = w->len + NVM_WR_PAYLOAD;
  for (int i = 0; i < iovcnt; i++) {
    memcpy(w->buf + at, iov[i].iov_base, iov[i].iov_len);
    at += iov[i].iov_len;
  }
  w->len = at;
  w->head += len;
  w->records++;
}

static int write_extent(struct nvm_wal *w, const uint8_t *p, uint64_t len, uint64_t lsn) {
  uint64_t off = NVM_WAL_HEADER_SIZE + lsn % w->capacity;
  if (w->watch) w->watch->on_write(w->watch->ctx, off, p, len);
  w->bytes += len;
  return write_all(w, p, len, off);
}

int nvm_wal_write(struct nvm_wal *w) {
  if (w->len == 0) return NVM_OK;
  size_t first = w->wrap_at == SIZE_MAX ? w->len : w->wrap_at;
  int rc = first ? write_extent(w, w->buf, first, w->written) : NVM_OK;
  if (rc == NVM_OK && first < w->len) /* the second extent starts the lap after */
    rc = write_extent(w, w->buf + first, w->len - first, w->head - (w->len - first));
  w->len = 0;
  w->wrap_at = SIZE_MAX;
  if (rc == NVM_OK) w->written = w->head;
  return rc;
}

int nvm_wal_sync(struct nvm_wal *w) {
  if (w->watch && w->watch->on_sync(w->watch->ctx))
    return nvm_fail(NVM_ECRASHED, "write-ahead log %s: simulated power loss at sync %llu", w->path,
                    (unsigned long long)w->syncs + 1);
  uint64_t t0 = mono_ns();
  if (fdatasync(w->fd) != 0)
    return nvm_fail(NVM_EIO, "write-ahead log %s: fdatasync failed", w->path);
  w->sync_ns += mono_ns() - t0;
  w->syncs++;
  w->synced = w->written;
  return NVM_OK;
}

/* ----------------------------------------------------------------- replay */

/* Is there a valid record of this epoch at LSN x (map = the record area)? */
static int valid_at(const struct nvm_wal *w, const uint8_t *map, uint64_t x,
                    struct nvm_wal_rec *rec, uint32_t *len, uint32_t *type) {
  uint64_t left = lap_left(w, x);
  const uint8_t *h = map + x % w->capacity;
  *len = get32(h + NVM_WR_LEN);
  *type = get32(h + NVM_WR_TYPE);
  if (get32(h + NVM_WR_MAGIC) != NVM_WAL_RECORD_MAGIC || get64(h + NVM_WR_LSN) != x ||
      *len < NVM_WR_PAYLOAD || *len % 8 || *len > left || get32(h + NVM_WR_RESERVED) != 0)
    return 0;
  if (*type != NVM_WR_TYPE_GROUP && *type != NVM_WR_TYPE_PAD) return 0;
  struct iovec iov = {(void *)(h + NVM_WR_PAYLOAD),
                      *type == NVM_WR_TYPE_GROUP ? *len - NVM_WR_PAYLOAD : 0};
  if (get32(h + NVM_WR_CRC) != rec_crc(w, h, &iov, 1)) return 0;
  rec->lsn = x;
  rec->seq = get64(h + NVM_WR_SEQ);
  rec->count = get32(h + NVM_WR_COUNT);
  rec->payload = h + NVM_WR_PAYLOAD;
  rec->payload_len = (uint32_t)iov.iov_len;
  return 1;
}

int nvm_wal_replay(struct nvm_wal *w, uint64_t from,
                   int (*fn)(void *ctx, const struct nvm_wal_rec *rec), void *ctx, uint64_t *end) {
  *end = from;
  size_t len = (size_t)(NVM_WAL_HEADER_SIZE + w->capacity);
  uint8_t *map = mmap(NULL, len, PROT_READ, MAP_SHARED, w->fd, 0);
  if (map == MAP_FAILED) return nvm_fail(NVM_EIO, "write-ahead log %s: cannot map it", w->path);
  madvise(map, len, MADV_SEQUENTIAL);
  const uint8_t *area = map + NVM_WAL_HEADER_SIZE;
  uint64_t x = from;
  int rc = NVM_OK;
  while (x - from < w->capacity) {
    if (lap_left(w, x) < NVM_WR_PAYLOAD) { /* too short for a record: the lap ends here */
      x += lap_left(w, x);
      continue;
    }
    struct nvm_wal_rec rec;
    uint32_t rlen, type;
    if (!valid_at(w, area, x, &rec, &rlen, &type)) break; /* the end of the log */
    if (type == NVM_WR_TYPE_GROUP && (rc = fn(ctx, &rec))) break;
    x += rlen;
  }
  munmap(map, len);
  *end = x;
  return rc;
}
