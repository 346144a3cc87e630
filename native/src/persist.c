/*
 * persist.c — flush / drain (one drain = one counted persist barrier), mode
 * resolution, and the test-only crash hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <libpmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvm_internal.h"

/* Store len bytes at off of the media (nvm_store_into). */
void nvm_store(nvm_region *r, uint64_t off, const void *src, uint32_t len) {
  nvm_store_into(r->base, off, src, len);
}

/* Generated from NVM_MODES (nvmns.h). */
const char *nvm_mode_name(int mode) {
  switch (mode) {
#define NVM_X_CASE(name, value, config) \
  case NVM_MODE_##name: return config;
    NVM_MODES(NVM_X_CASE)
#undef NVM_X_CASE
    default: return "unknown";
  }
}

int nvm_resolve_mode(const char *path, int requested, int is_pmem, int *resolved) {
  switch (requested) {
    case NVM_MODE_DISK:
    case NVM_MODE_EMULATED: *resolved = requested; return NVM_OK;
    case NVM_MODE_PMEM:
      if (!is_pmem)
        return nvm_fail(NVM_EMODE,
                        "%s is not persistent memory (pmem_is_pmem=0); use persist mode "
                        "'emulated' or 'disk'",
                        path);
      *resolved = NVM_MODE_PMEM;
      return NVM_OK;
    case NVM_MODE_AUTO: {
      const char *force = getenv("PMEM_IS_PMEM_FORCE");
      if (!is_pmem)
        *resolved = NVM_MODE_DISK;
      else if (force && strcmp(force, "1") == 0)
        *resolved = NVM_MODE_EMULATED;
      else
        *resolved = NVM_MODE_PMEM;
      return NVM_OK;
    }
    default: return nvm_fail(NVM_EINVAL, "unknown persistence mode %d", requested);
  }
}

static void hook_record(nvm_region *r, const void *addr, size_t len) {
  struct nvm_crash_hook *h = &r->hook;
  if (h->nranges == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 64;
    struct nvm_range *n = realloc(h->ranges, cap * sizeof *n);
    if (!n) abort(); /* test-only path: out of memory is not recoverable here */
    h->ranges = n;
    h->cap = cap;
  }
  h->ranges[h->nranges].off = (uint64_t)((const uint8_t *)addr - r->base);
  h->ranges[h->nranges].len = len;
  h->nranges++;
}

/* Disk mode: a range to write back at the next drain (the drain merges them). These are the
 * library's own writes to the region file (creation, recovery, upgrades); a group commit in
 * the disk mode goes through the write-ahead log instead (commit_disk.c). */
static void msync_later(nvm_region *r, const void *addr, size_t len) {
  if (r->npending == r->pending_cap) {
    size_t cap = r->pending_cap ? r->pending_cap * 2 : 64;
    struct nvm_range *n = realloc(r->pending, cap * sizeof *n);
    if (!n) { /* cannot defer it: write it back now */
      if (pmem_msync(addr, len) != 0 && !r->flush_errno) r->flush_errno = errno ? errno : EIO;
      return;
    }
    r->pending = n;
    r->pending_cap = cap;
  }
  r->pending[r->npending].off = (uint64_t)((const uint8_t *)addr - r->base);
  r->pending[r->npending].len = len;
  r->npending++;
}

void nvm_flush(nvm_region *r, const void *addr, size_t len) {
  if (r->crashed || len == 0) return;
  if (r->hook.countdown || r->hook.capture) hook_record(r, addr, len);
  if (r->mode == NVM_MODE_DISK)
    msync_later(r, addr, len);
  else
    pmem_flush(addr, len);
}

int nvm_media_sync(nvm_region *r, uint64_t off, uint64_t len) {
  if (r->media_watch && r->media_watch->on_sync(r->media_watch->ctx, off, len)) {
    r->crashed = 1;
    return nvm_fail(NVM_ECRASHED, "region %s: simulated power loss at a sync of the region file",
                    r->path);
  }
  int bad = len == 0 ? fdatasync(r->fd) : pmem_msync(r->base + off, len);
  if (bad) return nvm_fail(NVM_EIO, "region %s: %s failed", r->path, len ? "msync" : "fdatasync");
  return NVM_OK;
}

/* Disk mode's barrier: ONE msync (MS_SYNC: written back and waited for) over the span of
 * the ranges flushed since the last barrier. Every msync of a file on disk may cost a
 * journal commit and a cache flush of the device, while the pages in the span that no
 * range dirtied are clean and skipped cheaply, so one call beats one per range. */
static void msync_pending(nvm_region *r) {
  if (r->npending == 0) return;
  uint64_t start = UINT64_MAX, end = 0;
  for (size_t i = 0; i < r->npending; i++) {
    if (r->pending[i].off < start) start = r->pending[i].off;
    if (r->pending[i].off + r->pending[i].len > end) end = r->pending[i].off + r->pending[i].len;
  }
  r->npending = 0;
  if (nvm_media_sync(r, start, end - start) != NVM_OK && !r->flush_errno)
    r->flush_errno = r->crashed ? ECANCELED : errno ? errno : EIO;
}

void nvm_pending_free(nvm_region *r) {
  free(r->pending);
  r->pending = NULL;
  r->npending = r->pending_cap = 0;
}

void nvm_hook_free(nvm_region *r) {
  free(r->hook.prefix);
  free(r->hook.shadow);
  free(r->hook.ranges);
  memset(&r->hook, 0, sizeof r->hook);
}

static int write_image(const char *prefix, const char *suffix, const uint8_t *src, uint64_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s", prefix, suffix);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return -1;
  uint64_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, src + done, len - done);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    done += (uint64_t)n;
  }
  return close(fd);
}

/* The fatal barrier: the shadow holds exactly what earlier barriers made
 * durable; the mapping holds every store issued. */
static int hook_fire(nvm_region *r) {
  int ok = write_image(r->hook.prefix, ".lost", r->hook.shadow, r->size) == 0 &&
           write_image(r->hook.prefix, ".present", r->base, r->size) == 0;
  r->crashed = 1;
  int code = ok ? nvm_fail(NVM_ECRASHED,
                           "simulated crash at persist barrier %llu (images %s.lost/.present)",
                           (unsigned long long)r->barriers, r->hook.prefix)
                : nvm_fail(NVM_ECRASHED,
                           "simulated crash at persist barrier %llu; writing images %s.* failed",
                           (unsigned long long)r->barriers, r->hook.prefix);
  nvm_hook_free(r);
  return code;
}

#define NVM_LINE 64u
#define NVM_CAPTURE_MAX_LINES 64u /* more lines than this in one interval: a sample of them */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The distinct cache lines flushed since the last barrier, sorted; more than `max` of them:
 * `max` spread evenly over them (the first and the last among them). Returns how many, or
 * SIZE_MAX when memory runs out. */
static size_t flushed_lines(const struct nvm_crash_hook *h, uint64_t *lines, size_t max) {
  size_t n = 0, cap = 0;
  uint64_t *all = NULL;
  for (size_t i = 0; i < h->nranges; i++) {
    for (uint64_t l = h->ranges[i].off / NVM_LINE;
         l <= (h->ranges[i].off + h->ranges[i].len - 1) / NVM_LINE; l++) {
      if (n == cap) {
        cap = cap ? 2 * cap : 256;
        uint64_t *p = realloc(all, cap * sizeof *all);
        if (!p) {
          free(all);
          return SIZE_MAX;
        }
        all = p;
      }
      all[n++] = l;
    }
  }
  if (n) qsort(all, n, sizeof *all, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (u == 0 || all[u - 1] != all[i]) all[u++] = all[i];
  size_t out = u <= max ? u : max;
  for (size_t j = 0; j < out; j++)
    lines[j] = all[u <= max || max < 2 ? j : j * (u - 1) / (max - 1)];
  free(all);
  return out;
}

/* Shadow with line `l` taken from the mapping (present = 1) or the mapping
 * with line `l` taken from the shadow (present = 0), written as one image. */
static int write_line_image(nvm_region *r, const char *prefix, uint64_t l, int present, size_t j) {
  uint8_t save[NVM_LINE];
  uint64_t off = l * NVM_LINE, len = off + NVM_LINE > r->size ? r->size - off : NVM_LINE;
  uint8_t *dst = present ? r->hook.shadow : r->base;
  const uint8_t *src = present ? r->base : r->hook.shadow;
  char suffix[64];
  snprintf(suffix, sizeof suffix, ".line%zu-%s", j, present ? "only" : "missing");
  memcpy(save, dst + off, len);
  memcpy(dst + off, src + off, len);
  int rc = write_image(prefix, suffix, dst, r->size);
  memcpy(dst + off, save, len);
  return rc;
}

/*
 * Capture mode: the images a crash at this barrier would leave, then go on.
 * .lost and .present are the two ends; when several cache lines were flushed
 * since the last barrier, the hardware may have written back any subset of
 * them, so each line alone (.line<j>-only) and all but each line
 * (.line<j>-missing) are written too (of more than NVM_CAPTURE_MAX_LINES lines,
 * that many spread evenly: a chained redo record's pages among them). The mapping is modified only
 * for the duration of one write and restored (the handle's lock is held).
 */
static int hook_capture(nvm_region *r) {
  char prefix[4096];
  snprintf(prefix, sizeof prefix, "%s.%llu", r->hook.prefix,
           (unsigned long long)++r->hook.captured);
  int bad = write_image(prefix, ".lost", r->hook.shadow, r->size) != 0 ||
            write_image(prefix, ".present", r->base, r->size) != 0;
  uint64_t lines[NVM_CAPTURE_MAX_LINES];
  size_t n = flushed_lines(&r->hook, lines, NVM_CAPTURE_MAX_LINES);
  bad |= n == SIZE_MAX;
  if (n > 1 && n != SIZE_MAX)
    for (size_t j = 0; j < n && !bad; j++)
      bad = write_line_image(r, prefix, lines[j], 1, j) != 0 ||
            write_line_image(r, prefix, lines[j], 0, j) != 0;
  if (bad)
    return nvm_fail(NVM_EIO, "capture at persist barrier %llu: writing images %s.* failed",
                    (unsigned long long)r->barriers, prefix);
  return NVM_OK;
}

int nvm_hook_capture_applied(nvm_region *r) {
  char prefix[4096];
  snprintf(prefix, sizeof prefix, "%s.%llu", r->hook.prefix, (unsigned long long)r->hook.captured);
  if (write_image(prefix, ".applied", r->base, r->size) != 0)
    return nvm_fail(NVM_EIO, "capture: writing image %s.applied failed", prefix);
  return NVM_OK;
}

int nvm_drain(nvm_region *r) {
  if (r->crashed)
    return nvm_fail(NVM_ECRASHED, "region %s: simulated crash already happened", r->path);
  r->barriers++;
  struct nvm_crash_hook *h = &r->hook;
  if (h->countdown || h->capture) {
    if (h->countdown && --h->countdown == 0) return hook_fire(r);
    if (h->capture) {
      int rc = hook_capture(r);
      if (rc) return rc;
    }
    /* the barrier completes: what was flushed since the last one is now durable */
    for (size_t i = 0; i < h->nranges; i++)
      memcpy(h->shadow + h->ranges[i].off, r->base + h->ranges[i].off, h->ranges[i].len);
    h->nranges = 0;
  }
  if (r->mode == NVM_MODE_DISK)
    msync_pending(r);
  else
    pmem_drain();
  if (r->flush_errno) {
    errno = r->flush_errno;
    r->flush_errno = 0;
    if (r->crashed) return nvm_fail(NVM_ECRASHED, "region %s: simulated power loss", r->path);
    return nvm_fail(NVM_EIO, "region %s: pmem_msync failed", r->path);
  }
  r->redo_undrained = 0; /* every store flushed so far is durable */
  return NVM_OK;
}

uint64_t nvm_barrier_count(const nvm_region *r) { return r->barriers; }

int nvm_debug_crashed(const nvm_region *r) { return r->crashed; }

/* Shared by both hook kinds: a fresh shadow equal to the mapping (everything so far is durable). */
static int hook_arm(nvm_region *r, const char *prefix) {
  r->hook.prefix = strdup(prefix);
  r->hook.shadow = malloc(r->size);
  if (!r->hook.prefix || !r->hook.shadow) {
    nvm_hook_free(r);
    return nvm_fail(NVM_EIO, "crash hook: cannot allocate a %llu-byte shadow",
                    (unsigned long long)r->size);
  }
  memcpy(r->hook.shadow, r->base, r->size);
  /* The last redo record's in-place stores were flushed, not drained (region-format.md §7.3):
   * they are not durable yet. Put the bytes they replaced back into the shadow, newest first,
   * and count them as flushed since the last barrier, so that the images of the next barrier
   * may lose or keep each of their lines. */
  if (r->redo_undrained) {
    size_t n = 0, pos = 0;
    while (pos < r->redo_pre_len) { /* count, then walk backwards */
      uint32_t len;
      memcpy(&len, r->redo_pre + pos + 8, 4);
      pos += 16 + ((len + 7) & ~(size_t)7);
      n++;
    }
    for (size_t k = n; k > 0; k--) {
      size_t i = 0;
      pos = 0;
      for (; i + 1 < k; i++) {
        uint32_t len;
        memcpy(&len, r->redo_pre + pos + 8, 4);
        pos += 16 + ((len + 7) & ~(size_t)7);
      }
      uint64_t target;
      uint32_t len;
      memcpy(&target, r->redo_pre + pos, 8);
      memcpy(&len, r->redo_pre + pos + 8, 4);
      memcpy(r->hook.shadow + target, r->redo_pre + pos + 16, len);
      hook_record(r, r->base + target, len);
    }
  }
  return NVM_OK;
}

int nvm_debug_capture(nvm_region *r, const char *snapshot_prefix, uint64_t *captured) {
  int rc = NVM_OK;
  pthread_mutex_lock(&r->persist_lock); /* the hook is the committers' (group.c) */
  pthread_mutex_lock(&r->lock);
  if (captured) *captured = r->hook.captured;
  if (r->crashed)
    rc = nvm_fail(NVM_ECRASHED, "region %s: simulated crash already happened", r->path);
  else if (r->readonly)
    rc = nvm_fail(NVM_EINVAL, "region %s is open read-only", r->path);
  else if (r->hook.countdown)
    rc = nvm_fail(NVM_EINVAL, "region %s: a crash is armed; disarm it first", r->path);
  if (rc == NVM_OK) {
    nvm_hook_free(r);
    if (snapshot_prefix && (rc = hook_arm(r, snapshot_prefix)) == NVM_OK) r->hook.capture = 1;
  }
  pthread_mutex_unlock(&r->lock);
  pthread_mutex_unlock(&r->persist_lock);
  return rc;
}

int nvm_debug_crash_at(nvm_region *r, uint64_t n, const char *snapshot_prefix) {
  int rc = NVM_OK;
  pthread_mutex_lock(&r->persist_lock); /* the hook is the committers' (group.c) */
  pthread_mutex_lock(&r->lock);
  if (r->crashed)
    rc = nvm_fail(NVM_ECRASHED, "region %s: simulated crash already happened", r->path);
  else if (r->readonly)
    rc = nvm_fail(NVM_EINVAL, "region %s is open read-only", r->path);
  else if (n > 0 && !snapshot_prefix)
    rc = nvm_fail(NVM_EINVAL, "crash hook needs a snapshot prefix");
  if (rc == NVM_OK) {
    nvm_hook_free(r);
    if (n > 0 && (rc = hook_arm(r, snapshot_prefix)) == NVM_OK) r->hook.countdown = n;
  }
  pthread_mutex_unlock(&r->lock);
  pthread_mutex_unlock(&r->persist_lock);
  return rc;
}
