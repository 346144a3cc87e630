/*
 * powerloss.c — test only: the disk mode's power-loss model (region-format.md §12.6).
 *
 * What a power loss leaves of the two files, at any moment:
 *   - the write-ahead log: everything its last completed fdatasync covered, plus any subset
 *     of the 512-byte sectors of the writes issued since (a device writes sectors, not files);
 *   - the region file: its content at its last sync, with any subset of the pages written
 *     since replaced by their newer content (the kernel writes dirty pages back whenever it
 *     likes, in any order), a page possibly torn at a sector.
 * Armed, the library keeps the durable content of both files (what the last syncs covered)
 * and, at every sync point — every fdatasync of the log, every msync or fdatasync of the
 * region file — writes image pairs <prefix>.<k>.<variant> (the region) and
 * <prefix>.<k>.<variant>.wal (the log) of the states a power loss during that sync could
 * leave, then lets the sync complete. The variants, for the log's sectors in flight S and the
 * region's pages that differ from their durable content P (up to NVM_PL_SAMPLE of each,
 * evenly spread when there are more):
 *   lost, present                 nothing / everything since the last syncs reached the disk
 *   region-only, log-only         one file's writes reached it, the other's did not
 *   sec<j>-only, sec<j>-missing   one sector of the log's writes alone / all but it
 *   page<j>-only, page<j>-missing one page of the region alone / all but it
 *   torn                          every page of P torn: its first half new, the rest old
 * After each group commit it writes <prefix>.<k>.applied, the region as the commit left it
 * with the log words cleared: the consistent state a recovery may return to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvm_internal.h"
#include "wal.h"

#define NVM_PL_SECTOR 512u
#define NVM_PL_SAMPLE 16u /* the default; at most this many of each kind, evenly spread */

struct nvm_powerloss {
  char *prefix;
  uint64_t captured;
  unsigned sample;  /* cases of each varying kind per point */
  uint8_t *region;  /* the region file's durable content */
  uint8_t *log;     /* the log file's durable content */
  uint8_t *log_now; /* the log file as written (durable plus in flight) */
  uint64_t log_size;
  uint8_t *inflight; /* 1 byte per log sector: written since the last fdatasync */
  uint8_t *img;      /* scratch images */
  uint8_t *img_log;
  int failed;
  pthread_mutex_t mu; /* the checkpointer syncs the region while the committer writes the log */
  nvm_region *r;
  struct nvm_wal_watch wal_watch;
  struct nvm_media_watch media_watch;
};

static int write_file(const char *path, const uint8_t *p, uint64_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return -1;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    p += n;
    len -= (uint64_t)n;
  }
  return close(fd);
}

static void write_pair(struct nvm_powerloss *pl, const char *variant) {
  char path[4200];
  snprintf(path, sizeof path, "%s.%llu.%s", pl->prefix, (unsigned long long)pl->captured, variant);
  if (write_file(path, pl->img, pl->r->size) != 0) pl->failed = 1;
  snprintf(path, sizeof path, "%s.%llu.%s.wal", pl->prefix, (unsigned long long)pl->captured,
           variant);
  if (write_file(path, pl->img_log, pl->log_size) != 0) pl->failed = 1;
}

/* Up to `want` indexes of the set bits in flags[0, n), evenly spread; returns how many. */
static size_t sample(const uint8_t *flags, size_t n, size_t want, size_t *out) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += flags[i] != 0;
  size_t k = 0, seen = 0;
  for (size_t i = 0; i < n && k < want; i++) {
    if (!flags[i]) continue;
    if (total <= want || seen * want / total != (seen + 1) * want / total || seen + 1 == total)
      out[k++] = i;
    seen++;
  }
  return k;
}

static void region_as(struct nvm_powerloss *pl, int fresh) {
  memcpy(pl->img, fresh ? pl->r->base : pl->region, pl->r->size);
}
static void log_as(struct nvm_powerloss *pl, int fresh) {
  memcpy(pl->img_log, fresh ? pl->log_now : pl->log, pl->log_size);
}
static void page_from(struct nvm_powerloss *pl, size_t page, int fresh, uint64_t len) {
  uint64_t off = (uint64_t)page * NVM_OS_PAGE;
  memcpy(pl->img + off, fresh ? pl->r->base + off : pl->region + off, len);
}
static void sector_from(struct nvm_powerloss *pl, size_t s, int fresh) {
  uint64_t off = (uint64_t)s * NVM_PL_SECTOR;
  uint64_t len = off + NVM_PL_SECTOR > pl->log_size ? pl->log_size - off : NVM_PL_SECTOR;
  memcpy(pl->img_log + off, fresh ? pl->log_now + off : pl->log + off, len);
}

/* The images of a power loss during this sync point (the list at the top of the file). */
static void capture(struct nvm_powerloss *pl) {
  nvm_region *r = pl->r;
  pl->captured++;
  size_t npages = (size_t)(r->size / NVM_OS_PAGE), nsec = (size_t)(pl->log_size / NVM_PL_SECTOR);
  uint8_t *dirty = calloc(npages ? npages : 1, 1);
  if (!dirty) abort();
  for (size_t p = 0; p < npages; p++)
    dirty[p] = memcmp(r->base + p * NVM_OS_PAGE, pl->region + p * NVM_OS_PAGE, NVM_OS_PAGE) != 0;
  size_t pages[NVM_PL_SAMPLE], secs[NVM_PL_SAMPLE];
  size_t np = sample(dirty, npages, pl->sample, pages),
         ns = sample(pl->inflight, nsec, pl->sample, secs);
  char name[64];
  region_as(pl, 0), log_as(pl, 0), write_pair(pl, "lost");
  region_as(pl, 1), log_as(pl, 1), write_pair(pl, "present");
  region_as(pl, 1), log_as(pl, 0), write_pair(pl, "region-only");
  region_as(pl, 0), log_as(pl, 1), write_pair(pl, "log-only");
  for (size_t j = 0; j < ns; j++) {
    region_as(pl, 0), log_as(pl, 0), sector_from(pl, secs[j], 1);
    snprintf(name, sizeof name, "sec%zu-only", j);
    write_pair(pl, name);
    region_as(pl, 1), log_as(pl, 1), sector_from(pl, secs[j], 0);
    snprintf(name, sizeof name, "sec%zu-missing", j);
    write_pair(pl, name);
  }
  for (size_t j = 0; j < np; j++) {
    region_as(pl, 0), log_as(pl, 0), page_from(pl, pages[j], 1, NVM_OS_PAGE);
    snprintf(name, sizeof name, "page%zu-only", j);
    write_pair(pl, name);
    region_as(pl, 1), log_as(pl, 1), page_from(pl, pages[j], 0, NVM_OS_PAGE);
    snprintf(name, sizeof name, "page%zu-missing", j);
    write_pair(pl, name);
  }
  if (np) {
    region_as(pl, 0), log_as(pl, 0);
    for (size_t p = 0; p < npages; p++)
      if (dirty[p]) page_from(pl, p, 1, NVM_OS_PAGE / 2);
    write_pair(pl, "torn");
  }
  free(dirty);
}

static void on_write(void *ctx, uint64_t off, const uint8_t *data, uint64_t len) {
  struct nvm_powerloss *pl = ctx;
  pthread_mutex_lock(&pl->mu);
  memcpy(pl->log_now + off, data, len);
  for (uint64_t s = off / NVM_PL_SECTOR; s <= (off + len - 1) / NVM_PL_SECTOR; s++)
    pl->inflight[s] = 1;
  pthread_mutex_unlock(&pl->mu);
}

static int on_log_sync(void *ctx) {
  struct nvm_powerloss *pl = ctx;
  pthread_mutex_lock(&pl->mu);
  capture(pl);
  memcpy(pl->log, pl->log_now, pl->log_size);
  memset(pl->inflight, 0, pl->log_size / NVM_PL_SECTOR);
  pthread_mutex_unlock(&pl->mu);
  return 0;
}

/* A region sync point. The committer may be storing a group into the mapping meanwhile: a
 * page caught half stored is a state the kernel's write-back can leave too. */
static int on_region_sync(void *ctx, uint64_t off, uint64_t len) {
  struct nvm_powerloss *pl = ctx;
  pthread_mutex_lock(&pl->mu);
  capture(pl);
  if (len == 0) len = pl->r->size - off;
  /* msync writes whole pages */
  uint64_t from = off - off % NVM_OS_PAGE, to = off + len;
  to += (NVM_OS_PAGE - to % NVM_OS_PAGE) % NVM_OS_PAGE;
  if (to > pl->r->size) to = pl->r->size;
  memcpy(pl->region + from, pl->r->base + from, to - from);
  pthread_mutex_unlock(&pl->mu);
  return 0;
}

static void pl_free(struct nvm_powerloss *pl) {
  if (!pl) return;
  pthread_mutex_destroy(&pl->mu);
  free(pl->prefix);
  free(pl->region);
  free(pl->log);
  free(pl->log_now);
  free(pl->inflight);
  free(pl->img);
  free(pl->img_log);
  free(pl);
}

void nvm_powerloss_applied(nvm_region *r) {
  struct nvm_powerloss *pl = r->powerloss;
  if (!pl) return;
  pthread_mutex_lock(&pl->mu);
  memcpy(pl->img, r->base, r->size);
  memset(pl->img + NVM_SB_WAL_EPOCH, 0, 24); /* needs no log: the state itself */
  char path[4200];
  snprintf(path, sizeof path, "%s.%llu.applied", pl->prefix, (unsigned long long)pl->captured);
  if (write_file(path, pl->img, r->size) != 0) pl->failed = 1;
  pthread_mutex_unlock(&pl->mu);
}

void nvm_powerloss_disarm(nvm_region *r) {
  if (r->wal) r->wal->watch = NULL;
  r->media_watch = NULL;
  pl_free(r->powerloss);
  r->powerloss = NULL;
}

static int arm(nvm_region *r, const char *prefix, unsigned sample_count) {
  struct nvm_powerloss *pl = calloc(1, sizeof *pl);
  if (!pl) return nvm_fail(NVM_EIO, "power-loss model: out of memory");
  pthread_mutex_init(&pl->mu, NULL);
  pl->r = r;
  pl->sample = sample_count && sample_count < NVM_PL_SAMPLE ? sample_count : NVM_PL_SAMPLE;
  pl->prefix = strdup(prefix);
  pl->log_size = NVM_WAL_HEADER_SIZE + r->wal->capacity;
  pl->region = malloc(r->size);
  pl->img = malloc(r->size);
  pl->log = malloc(pl->log_size);
  pl->log_now = malloc(pl->log_size);
  pl->img_log = malloc(pl->log_size);
  pl->inflight = calloc(pl->log_size / NVM_PL_SECTOR, 1);
  if (!pl->prefix || !pl->region || !pl->img || !pl->log || !pl->log_now || !pl->img_log ||
      !pl->inflight) {
    pl_free(pl);
    return nvm_fail(NVM_EIO, "power-loss model: out of memory");
  }
  /* a checkpoint first: then the region file's durable content is the mapping's */
  int rc = nvm_media_sync(r, 0, 0);
  if (rc) {
    pl_free(pl);
    return rc;
  }
  memcpy(pl->region, r->base, r->size);
  if (pread(r->wal->fd, pl->log, pl->log_size, 0) != (ssize_t)pl->log_size) {
    pl_free(pl);
    return nvm_fail(NVM_EIO, "power-loss model: cannot read the log %s", r->wal->path);
  }
  memcpy(pl->log_now, pl->log, pl->log_size);
  pl->wal_watch = (struct nvm_wal_watch){pl, on_write, on_log_sync};
  pl->media_watch = (struct nvm_media_watch){pl, on_region_sync};
  r->wal->watch = &pl->wal_watch;
  r->media_watch = &pl->media_watch;
  r->powerloss = pl;
  return NVM_OK;
}

int nvm_debug_powerloss(nvm_region *r, const char *prefix, unsigned sample, uint64_t *captured) {
  pthread_mutex_lock(&r->persist_lock);
  pthread_mutex_lock(&r->ckpt_lock);
  int rc = NVM_OK;
  if (captured) *captured = r->powerloss ? r->powerloss->captured : 0;
  if (r->powerloss && r->powerloss->failed)
    rc = nvm_fail(NVM_EIO, "power-loss model: writing images %s.* failed", r->powerloss->prefix);
  else if (!r->wal || r->readonly)
    rc = nvm_fail(NVM_EINVAL, "region %s: the power-loss model is the disk mode's", r->path);
  nvm_powerloss_disarm(r);
  if (rc == NVM_OK && prefix) rc = arm(r, prefix, sample);
  pthread_mutex_unlock(&r->ckpt_lock);
  pthread_mutex_unlock(&r->persist_lock);
  return rc;
}

uint64_t nvm_debug_powerloss_points(nvm_region *r) {
  pthread_mutex_lock(&r->persist_lock);
  uint64_t k = 0;
  if (r->powerloss) {
    pthread_mutex_lock(&r->powerloss->mu);
    k = r->powerloss->captured;
    pthread_mutex_unlock(&r->powerloss->mu);
  }
  pthread_mutex_unlock(&r->persist_lock);
  return k;
}
