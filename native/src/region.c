/*
 * region.c — create, open (validate before touching anything), close, and the
 * accessors of a region handle.
 */
#include <errno.h>
#include <fcntl.h>
#include <libpmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint.h"
#include "nvm_internal.h"
#include "wal.h"

static nvm_region *region_new(const char *path) {
  nvm_region *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->path = strdup(path);
  if (!r->path) {
    free(r);
    return NULL;
  }
  r->fd = -1;
  pthread_mutex_init(&r->lock, NULL);
  pthread_mutex_init(&r->persist_lock, NULL);
  pthread_mutex_init(&r->ckpt_lock, NULL);
  pthread_mutex_init(&r->ckpt_mu, NULL);
  pthread_cond_init(&r->ckpt_cond, NULL);
  pthread_mutex_init(&r->populate_mu, NULL);
  pthread_cond_init(&r->populate_cond, NULL);
  return r;
}

/* The options a read-write handle keeps (nvmns.h: nvm_options; region-format.md §12). */
static int apply_options(nvm_region *r, const nvm_options *opt) {
  static const nvm_options none;
  if (!opt) opt = &none;
  size_t n = strlen(r->path);
  r->log_path = opt->log_path ? strdup(opt->log_path) : malloc(n + 5);
  if (!r->log_path) return nvm_fail(NVM_EIO, "region %s: out of memory", r->path);
  if (!opt->log_path) {
    memcpy(r->log_path, r->path, n);
    memcpy(r->log_path + n, ".wal", 5);
  }
  uint64_t cap = opt->log_capacity ? opt->log_capacity : NVM_DEFAULT_LOG_CAPACITY;
  cap -= cap % 4096;
  if (cap < NVM_WAL_MIN_CAPACITY)
    return nvm_fail(NVM_EINVAL,
                    "region %s: a write-ahead log of %llu bytes is below the minimum "
                    "of %d",
                    r->path, (unsigned long long)cap, NVM_WAL_MIN_CAPACITY);
  r->log_capacity = cap;
  r->ckpt_bytes = opt->checkpoint_bytes ? opt->checkpoint_bytes : cap / 4;
  if (r->ckpt_bytes > cap / 2) r->ckpt_bytes = cap / 2; /* room for commits during a checkpoint */
  r->ckpt_ms = opt->checkpoint_ms ? opt->checkpoint_ms : NVM_DEFAULT_CHECKPOINT_MS;
  r->opt_flags = opt->flags;
  return NVM_OK;
}

/* Unmap, unlock (by closing our fd) and free; never writes to the region. */
static int region_destroy(nvm_region *r) {
  int rc = NVM_OK;
  nvm_ckpt_stop(r);
  nvm_populate_stop(r);
  nvm_powerloss_disarm(r);
  nvm_work_unmap(r);
  nvm_stage_free(r);
  nvm_wal_close(r->wal);
  r->wal = NULL;
  free(r->log_path);
  free(r->disk_iov);
  free(r->disk_seq);
  if (r->base) {
    int bad = r->pmem_mapped ? pmem_unmap(r->base, r->size) : munmap(r->base, r->size);
    if (bad) rc = nvm_fail(NVM_EIO, "region %s: unmap failed", r->path);
  }
  if (r->fd >= 0) close(r->fd);
  nvm_alloc_free(r);
  nvm_redo_free(r);
  nvm_hook_free(r);
  nvm_pending_free(r);
  free(r->inodes);
  free(r->strings);
  free(r->string_refs);
  free(r->record_offs);
  pthread_mutex_destroy(&r->lock);
  pthread_mutex_destroy(&r->persist_lock);
  pthread_mutex_destroy(&r->ckpt_lock);
  pthread_mutex_destroy(&r->ckpt_mu);
  pthread_cond_destroy(&r->ckpt_cond);
  pthread_mutex_destroy(&r->populate_mu);
  pthread_cond_destroy(&r->populate_cond);
  free(r->path);
  free(r);
  return rc;
}

static int lock_file(nvm_region *r, int shared) {
  if (flock(r->fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0) return NVM_OK;
  if (errno == EWOULDBLOCK)
    return nvm_fail(NVM_EBUSY, "region %s is in use by another process", r->path);
  return nvm_fail(NVM_EIO, "region %s: flock failed", r->path);
}

/* Map read-write with libpmem and resolve the persistence mode. */
static int map_rw(nvm_region *r, int mode) {
  size_t len = 0;
  int is_pmem = 0;
  r->base = pmem_map_file(r->path, 0, 0, 0, &len, &is_pmem);
  if (!r->base) return nvm_fail(NVM_EIO, "region %s: pmem_map_file failed", r->path);
  r->pmem_mapped = 1;
  if (len != r->size) {
    return nvm_fail(NVM_EIO, "region %s: mapped %zu bytes, expected %llu", r->path, len,
                    (unsigned long long)r->size);
  }
  r->is_pmem = is_pmem;
  return nvm_resolve_mode(r->path, mode, is_pmem, &r->mode);
}

static int map_ro(nvm_region *r, int mode) {
  void *p = mmap(NULL, r->size, PROT_READ, MAP_SHARED, r->fd, 0);
  if (p == MAP_FAILED) return nvm_fail(NVM_EIO, "region %s: mmap failed", r->path);
  r->base = p;
  r->is_pmem = pmem_is_pmem(p, r->size);
  return nvm_resolve_mode(r->path, mode, r->is_pmem, &r->mode);
}

/* ---------------------------------------------------------------- create */

static uint64_t random_id(void) {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) == (ssize_t)sizeof v) return v;
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd >= 0) {
    if (read(fd, &v, sizeof v) != (ssize_t)sizeof v) v = 0;
    close(fd);
  }
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return v ^ ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)getpid();
}

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void put32(uint8_t *h, int off, uint32_t v) { memcpy(h + off, &v, 4); }
static void put64(uint8_t *h, int off, uint64_t v) { memcpy(h + off, &v, 8); }

static void build_header(uint8_t *h, uint64_t size, const nvm_identity *id) {
  memset(h, 0, NVM_HEADER_SIZE);
  put64(h, NVM_HDR_MAGIC, NVM_REGION_MAGIC);
  put32(h, NVM_HDR_VERSION, NVM_FORMAT_VERSION);
  put32(h, NVM_HDR_HEADER_SIZE, NVM_HEADER_SIZE);
  put64(h, NVM_HDR_REGION_SIZE, size);
  put32(h, NVM_HDR_PAGE_SIZE, NVM_PAGE_SIZE);
  put64(h, NVM_HDR_DATA_OFFSET, NVM_DATA_OFFSET);
  put64(h, NVM_HDR_PAGE_COUNT, (size - NVM_DATA_OFFSET) / NVM_PAGE_SIZE);
  put64(h, NVM_HDR_CREATION_ID, random_id());
  put64(h, NVM_HDR_CREATION_TIME, now_ms());
  if (id) {
    put32(h, NVM_HDR_NAMESPACE_ID, (uint32_t)id->namespace_id);
    if (id->cluster_id) memcpy(h + NVM_HDR_CLUSTER_ID, id->cluster_id, strlen(id->cluster_id));
    if (id->blockpool_id)
      memcpy(h + NVM_HDR_BLOCKPOOL_ID, id->blockpool_id, strlen(id->blockpool_id));
  }
  put32(h, NVM_HDR_CRC, nvm_crc32c(0, h, NVM_HDR_CRC_COVERED));
}

/* Everything but the region magic first (barrier), then the magic (barrier):
 * a crash in between leaves a file that open() refuses as not-a-region. */
static int format_region(nvm_region *r, const nvm_identity *id) {
  uint8_t h[NVM_HEADER_SIZE];
  build_header(h, r->size, id);
  memcpy(r->base + 8, h + 8, NVM_HEADER_SIZE - 8);
  *(uint64_t *)(r->base + NVM_SB_MAGIC) = NVM_SUPER_MAGIC;
  r->scan_limit = r->page_count < NVM_SCAN_LIMIT_STEP ? r->page_count : NVM_SCAN_LIMIT_STEP;
  *(uint64_t *)(r->base + NVM_SB_SCAN_LIMIT) = nvm_scan_limit_word(r->scan_limit);
  /* a new region has every feature (region-format.md §11, §5.5): counters start checked */
  r->checksums = 1;
  r->records = 1;
  r->attrs = 1;
  r->symlinks = 1;
  r->redo = 1;
  r->wal_feature = 1;
  r->snapshots = 1;
  r->redo_chain = 1;
  *(uint64_t *)(r->base + NVM_SB_FEATURES) = nvm_features_word(NVM_FEATURES_ALL);
  for (uint64_t off = NVM_SB_LAST_INODE_ID; off; off = nvm_next_counter(r, off))
    *(uint64_t *)(r->base + off) = nvm_counter_word(off, 0);
  nvm_flush(r, r->base, NVM_HEADER_SIZE);
  nvm_flush(r, r->base + NVM_SB_MAGIC, NVM_SB_MASTER_KEY_ID + 8 - NVM_SB_MAGIC);
  int rc = nvm_drain(r);
  if (rc) return rc;
  __atomic_store_n((uint64_t *)(r->base + NVM_HDR_MAGIC), (uint64_t)NVM_REGION_MAGIC,
                   __ATOMIC_RELAXED);
  nvm_flush(r, r->base + NVM_HDR_MAGIC, 8);
  return nvm_drain(r);
}

static int check_create_args(const char *path, uint64_t size, const nvm_identity *id) {
  if (!path) return nvm_fail(NVM_EINVAL, "create: path is NULL");
  if (size < NVM_MIN_REGION_SIZE)
    return nvm_fail(NVM_EINVAL, "create %s: size %llu is below the minimum %d", path,
                    (unsigned long long)size, NVM_MIN_REGION_SIZE);
  if ((size - NVM_DATA_OFFSET) / NVM_PAGE_SIZE > NVM_MAX_PAGE_COUNT)
    return nvm_fail(NVM_EINVAL, "create %s: size %llu exceeds %llu pages", path,
                    (unsigned long long)size, NVM_MAX_PAGE_COUNT);
  const char *s[2] = {id ? id->cluster_id : NULL, id ? id->blockpool_id : NULL};
  const char *what[2] = {"cluster id", "block pool id"};
  for (int i = 0; i < 2; i++)
    if (s[i] && strlen(s[i]) > NVM_HDR_ID_STRING_MAX)
      return nvm_fail(NVM_ETOOLONG, "create %s: %s is %zu bytes, at most %d allowed", path, what[i],
                      strlen(s[i]), NVM_HDR_ID_STRING_MAX);
  return NVM_OK;
}

/* The disk mode, once the region needs no log: a new epoch of the log, the working copy, the
 * checkpointer (region-format.md §12.4). The memory modes: the working copy. */
static int start_writing(nvm_region *r) {
  int rc = r->mode == NVM_MODE_DISK ? nvm_ckpt_begin_epoch(r) : NVM_OK;
  if (rc == NVM_OK) rc = nvm_work_map(r); /* after every write of the open: the copy starts equal */
  if (rc == NVM_OK) rc = nvm_populate_start(r);
  if (rc == NVM_OK && r->mode == NVM_MODE_DISK) rc = nvm_ckpt_start(r);
  return rc;
}

static int create_steps(nvm_region *r, const nvm_identity *id, int mode, const nvm_options *opt) {
  int rc = lock_file(r, 0);
  if (rc || (rc = apply_options(r, opt))) return rc;
  int e = posix_fallocate(r->fd, 0, (off_t)r->size);
  if (e) {
    errno = e;
    return nvm_fail(NVM_EIO, "create %s: cannot allocate %llu bytes", r->path,
                    (unsigned long long)r->size);
  }
  if ((rc = map_rw(r, mode)) || (rc = nvm_alloc_init(r)) || (rc = format_region(r, id))) return rc;
  return start_writing(r);
}

int nvm_region_create(const char *path, uint64_t size, const nvm_identity *id, int mode,
                      nvm_region **out) {
  return nvm_region_create_with(path, size, id, mode, NULL, out);
}

int nvm_region_create_with(const char *path, uint64_t size, const nvm_identity *id, int mode,
                           const nvm_options *opt, nvm_region **out) {
  *out = NULL;
  size -= size % NVM_PAGE_SIZE;
  int rc = check_create_args(path, size, id);
  if (rc) return rc;
  nvm_region *r = region_new(path);
  if (!r) return nvm_fail(NVM_EIO, "create %s: out of memory", path);
  r->fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
  if (r->fd < 0) {
    rc = errno == EEXIST ? nvm_fail(NVM_EEXIST, "create %s: the file already exists", path)
                         : nvm_fail(NVM_EIO, "create %s: open failed", path);
    region_destroy(r);
    return rc;
  }
  r->size = size;
  r->page_count = (size - NVM_DATA_OFFSET) / NVM_PAGE_SIZE;
  rc = create_steps(r, id, mode, opt);
  if (rc && rc != NVM_ECRASHED) {
    unlink(path); /* we created it: a half-made file must not stay behind */
    region_destroy(r);
    return rc;
  }
  if (rc == NVM_OK) nvm_clear_error();
  *out = r;
  return rc;
}

/* ------------------------------------------------------------------ open */

static uint32_t get32(const uint8_t *h, int off) {
  uint32_t v;
  memcpy(&v, h + off, 4);
  return v;
}
static uint64_t get64(const uint8_t *h, int off) {
  uint64_t v;
  memcpy(&v, h + off, 8);
  return v;
}

static int check_format(const char *path, const uint8_t *h) {
  uint64_t magic = get64(h, NVM_HDR_MAGIC);
  if (magic != NVM_REGION_MAGIC)
    return nvm_fail_at(NVM_ENOTREGION, NVM_HDR_MAGIC,
                       "%s: not an NVM namespace region (bad magic 0x%016llx)", path,
                       (unsigned long long)magic);
  uint32_t ver = get32(h, NVM_HDR_VERSION), ps = get32(h, NVM_HDR_PAGE_SIZE);
  uint32_t hs = get32(h, NVM_HDR_HEADER_SIZE);
  uint64_t dof = get64(h, NVM_HDR_DATA_OFFSET);
  if (ver != NVM_FORMAT_VERSION || ps != NVM_PAGE_SIZE || hs != NVM_HEADER_SIZE ||
      dof != NVM_DATA_OFFSET)
    return nvm_fail_at(
        NVM_EVERSION, /* the first field that differs */
        ver != NVM_FORMAT_VERSION ? NVM_HDR_VERSION
        : ps != NVM_PAGE_SIZE     ? NVM_HDR_PAGE_SIZE
        : hs != NVM_HEADER_SIZE   ? NVM_HDR_HEADER_SIZE
                                  : NVM_HDR_DATA_OFFSET,
        "%s: unsupported region format (version %u, page size %u, header size %u, data "
        "offset %llu; this library supports version %d, page size %d, header size %d, "
        "data offset %d)",
        path, ver, ps, hs, (unsigned long long)dof, NVM_FORMAT_VERSION, NVM_PAGE_SIZE,
        NVM_HEADER_SIZE, NVM_DATA_OFFSET);
  uint32_t stored = get32(h, NVM_HDR_CRC), crc = nvm_crc32c(0, h, NVM_HDR_CRC_COVERED);
  if (stored != crc) /* a CRC cannot tell which covered byte changed: the CRC field */
    return nvm_fail_at(NVM_ECORRUPT, NVM_HDR_CRC,
                       "%s: header checksum mismatch (stored 0x%08x, computed 0x%08x)", path,
                       stored, crc);
  return NVM_OK;
}

static int check_geometry(const char *path, const uint8_t *h, uint64_t file_size) {
  uint64_t size = get64(h, NVM_HDR_REGION_SIZE), pages = get64(h, NVM_HDR_PAGE_COUNT);
  if (size > file_size) /* at the first missing byte */
    return nvm_fail_at(NVM_ETRUNCATED, file_size,
                       "%s: truncated: header says %llu bytes, file has %llu", path,
                       (unsigned long long)size, (unsigned long long)file_size);
  if (size < file_size)
    return nvm_fail_at(NVM_ECORRUPT, NVM_HDR_REGION_SIZE,
                       "%s: header says %llu bytes but the file has %llu", path,
                       (unsigned long long)size, (unsigned long long)file_size);
  int bad_size = size < NVM_MIN_REGION_SIZE || size % NVM_PAGE_SIZE;
  if (bad_size || pages != (size - NVM_DATA_OFFSET) / NVM_PAGE_SIZE || pages > NVM_MAX_PAGE_COUNT)
    return nvm_fail_at(NVM_ECORRUPT, bad_size ? NVM_HDR_REGION_SIZE : NVM_HDR_PAGE_COUNT,
                       "%s: page count %llu inconsistent with region size %llu", path,
                       (unsigned long long)pages, (unsigned long long)size);
  return NVM_OK;
}

/* Read and validate the header with pread: nothing is mapped yet. */
static int check_header(nvm_region *r) {
  struct stat st;
  if (fstat(r->fd, &st) != 0) return nvm_fail(NVM_EIO, "%s: fstat failed", r->path);
  uint64_t fsize = (uint64_t)st.st_size;
  if (fsize < 256) /* too short to be a region: reported at the magic, like a wrong one */
    return nvm_fail_at(
        NVM_ENOTREGION, NVM_HDR_MAGIC,
        "%s: not an NVM namespace region (file is %llu bytes, smaller than a header)", r->path,
        (unsigned long long)fsize);
  uint8_t h[256];
  ssize_t n = pread(r->fd, h, sizeof h, 0);
  if (n != (ssize_t)sizeof h) return nvm_fail(NVM_EIO, "%s: cannot read the header", r->path);
  int rc = check_format(r->path, h);
  if (rc == NVM_OK) rc = check_geometry(r->path, h, fsize);
  if (rc == NVM_OK) {
    r->size = get64(h, NVM_HDR_REGION_SIZE);
    r->page_count = get64(h, NVM_HDR_PAGE_COUNT);
  }
  return rc;
}

static int open_steps(nvm_region *r, int mode, unsigned flags, const nvm_options *opt) {
  int rc = lock_file(r, r->readonly);
  if (rc || (!r->readonly && (rc = apply_options(r, opt))) || (rc = check_header(r))) return rc;
  rc = r->readonly ? map_ro(r, mode) : map_rw(r, mode);
  if (rc) return rc;
  uint64_t sb = nvm_ld64(r, NVM_SB_MAGIC);
  if (sb != NVM_SUPER_MAGIC)
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_MAGIC, "%s: bad superblock magic 0x%016llx", r->path,
                       (unsigned long long)sb);
  uint32_t wal_epoch;
  uint64_t wal_checkpoint;
  if ((rc = nvm_scan_limit_load(r)) || (rc = nvm_read_features(r)) ||
      (rc = r->redo ? nvm_redo_check(r) : nvm_undo_check(r)) ||
      (rc = nvm_wal_sb_read(r, &wal_epoch, &wal_checkpoint)))
    return rc;
  (void)flags;
  if (r->readonly) return NVM_OK;
  if ((rc = nvm_alloc_init(r)) || (rc = nvm_recover(r))) return rc;
  /* a region from before a feature (§11, §5.5) */
  if ((rc = nvm_upgrade_features(r))) return rc;
  /* a replayed log (walreplay.c) stays the region's until the region is durable without it */
  if (r->wal && (rc = nvm_ckpt_clean(r))) return rc;
  if (r->wal && r->mode != NVM_MODE_DISK) {
    nvm_wal_close(r->wal);
    r->wal = NULL;
  }
  return start_writing(r);
}

int nvm_region_open(const char *path, int mode, unsigned flags, nvm_region **out) {
  return nvm_region_open_with(path, mode, flags, NULL, out);
}

int nvm_region_open_with(const char *path, int mode, unsigned flags, const nvm_options *opt,
                         nvm_region **out) {
  *out = NULL;
  if (!path) return nvm_fail(NVM_EINVAL, "open: path is NULL");
  if (flags & ~NVM_OPEN_READONLY)
    return nvm_fail(NVM_EINVAL, "open %s: unknown flags 0x%x", path, flags);
  nvm_region *r = region_new(path);
  if (!r) return nvm_fail(NVM_EIO, "open %s: out of memory", path);
  r->readonly = (flags & NVM_OPEN_READONLY) != 0;
  r->fd = open(path, r->readonly ? O_RDONLY : O_RDWR);
  int rc = r->fd < 0 ? nvm_fail(NVM_EIO, "open %s failed", path) : open_steps(r, mode, flags, opt);
  if (rc) {
    region_destroy(r);
    return rc;
  }
  nvm_clear_error();
  *out = r;
  return NVM_OK;
}

/* Unmaps; batches still staged are discarded, as a crash would (the caller commits what
 * it wants kept first: nvm_sync). The last group's in-place bytes were flushed, not drained
 * (region-format.md §7.3): a final drain makes them durable, and the slots are emptied
 * (a second drain), so a cleanly closed region has no record and its next open writes
 * nothing before it validates. */
int nvm_region_close(nvm_region *r) {
  if (!r) return NVM_OK;
  int rc = NVM_OK;
  nvm_ckpt_stop(r);
  pthread_mutex_lock(&r->persist_lock);
  if (!r->readonly && !r->crashed && !r->failed && r->redo &&
      (r->redo_undrained || nvm_ld64(r, NVM_REDO_SLOT0) || nvm_ld64(r, NVM_REDO_SLOT1)))
    rc = nvm_redo_settle(r);
  /* disk mode: the region made durable without its log, so the file alone is the namespace
   * (the tools read it, another mode opens it, it can be copied) */
  if (rc == NVM_OK && r->wal && !r->readonly && !r->crashed && !r->failed) rc = nvm_ckpt_clean(r);
  pthread_mutex_unlock(&r->persist_lock);
  int rc2 = region_destroy(r);
  return rc ? rc : rc2;
}

/* ------------------------------------------------------------- accessors */

uint8_t *nvm_region_base(const nvm_region *r) { return r->base; }
uint64_t nvm_region_size(const nvm_region *r) { return r->size; }
int nvm_region_mode(const nvm_region *r) { return r->mode; }
int nvm_region_is_pmem(const nvm_region *r) { return r->is_pmem; }
int nvm_region_readonly(const nvm_region *r) { return r->readonly; }
uint64_t nvm_region_page_count(const nvm_region *r) { return r->page_count; }

void nvm_region_usage(const nvm_region *r, nvm_usage *out) {
  pthread_mutex_t *m = (pthread_mutex_t *)&r->lock;
  pthread_mutex_lock(m);
  out->pages_total = r->page_count;
  out->pages_reserved = r->pages_reserved;
  out->pages_used = r->pages_used;
  out->pages_free = r->page_count - r->pages_used - r->pages_reserved;
  out->high_water = r->high_water;
  pthread_mutex_unlock(m);
}

void nvm_recovery_report(const nvm_region *r, nvm_recovery *out) { *out = r->rec; }

const char *nvm_region_log_path(const nvm_region *r) { return r->wal ? r->log_path : NULL; }

int nvm_checkpoint(nvm_region *r) {
  if (!r->wal || r->readonly)
    return nvm_fail(NVM_EINVAL, "region %s: checkpoints are the disk mode's", r->path);
  pthread_mutex_lock(&r->persist_lock); /* every committed record applied */
  int rc = r->crashed
               ? nvm_fail(NVM_ECRASHED, "region %s: simulated crash already happened", r->path)
               : nvm_ckpt_take(r);
  pthread_mutex_unlock(&r->persist_lock);
  return rc;
}

int nvm_log_stats_get(const nvm_region *r, nvm_log_stats *out) {
  memset(out, 0, sizeof *out);
  const struct nvm_wal *w = r->wal;
  if (!w) return nvm_fail(NVM_EINVAL, "region %s: no write-ahead log (not the disk mode)", r->path);
  out->capacity = w->capacity;
  out->head = __atomic_load_n(&r->applied_lsn, __ATOMIC_ACQUIRE);
  out->checkpoint = nvm_wal_tail(w);
  out->used = out->head - out->checkpoint;
  out->records = w->records;
  out->syncs = w->syncs;
  out->bytes = w->bytes;
  out->sync_ns = w->sync_ns;
  out->checkpoints = r->checkpoints;
  out->checkpoint_ns = r->checkpoint_ns;
  out->replayed = r->replayed;
  out->replayed_bytes = r->replayed_bytes;
  return NVM_OK;
}

const uint64_t *nvm_recovered_inodes(const nvm_region *r, uint64_t *count) {
  *count = r->ninodes;
  return r->inodes;
}

const uint64_t *nvm_recovered_strings(const nvm_region *r, uint64_t *count) {
  *count = r->nstrings;
  return r->strings;
}

const uint64_t *nvm_recovered_string_refs(const nvm_region *r, uint64_t *count) {
  *count = r->nstrings;
  return r->string_refs;
}

const uint64_t *nvm_recovered_records(const nvm_region *r, uint64_t *count) {
  *count = r->nrecords;
  return r->record_offs;
}
