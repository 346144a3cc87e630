/*
 * checkpoint.c — the disk mode's checkpoints (region-format.md §12.4).
 *
 * A group commit makes its records durable in the write-ahead log and then stores their
 * bytes into the region's shared mapping without any flush (commit_disk.c): the kernel writes
 * those pages back whenever it likes, which is safe because every one of their bytes is
 * already durable in the log. A checkpoint bounds the log:
 *   1. L := the LSN every applied record ends at;
 *   2. fdatasync of the region file: every byte stored so far, so every record below L, is
 *      durable in the region;
 *   3. SB_WAL_CHECKPOINT := L (with its check word), msync of the superblock's page: from now
 *      on a restart replays from L;
 *   4. the log's room below L is free.
 * A crash before 3 completes leaves the old checkpoint, and the log still holds every record
 * from it (the committer never writes over the room below the durable checkpoint). Records
 * at or above L may be in the region file in part or whole, in any page order, torn at any
 * sector: replay stores every byte they changed again, in order.
 */
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include "checkpoint.h"
#include "wal.h"

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Stores the three SB_WAL_* words into the media and the working copy, then makes the
 * superblock's page durable (they share one sector, so a power loss keeps all three or none). */
static int store_sb_words(nvm_region *r, uint32_t epoch, uint64_t checkpoint) {
  uint64_t w[3];
  nvm_wal_sb_words(epoch, checkpoint, w);
  for (int i = 0; i < 3; i++) {
    nvm_store(r, NVM_SB_WAL_EPOCH + 8 * (uint64_t)i, &w[i], 8);
    nvm_work_mirror(r, NVM_SB_WAL_EPOCH + 8 * (uint64_t)i);
  }
  return nvm_media_sync(r, NVM_SUPERBLOCK_OFFSET, NVM_SUPERBLOCK_SIZE);
}

int nvm_ckpt_take(nvm_region *r) {
  pthread_mutex_lock(&r->ckpt_lock);
  int rc = NVM_OK;
  uint64_t t0 = mono_ns(), lsn = __atomic_load_n(&r->applied_lsn, __ATOMIC_ACQUIRE);
  if (lsn != r->ckpt_lsn) {
    rc = nvm_media_sync(r, 0, 0); /* step 2: everything below lsn durable in the region */
    if (rc == NVM_OK) rc = store_sb_words(r, r->wal->epoch, lsn); /* step 3 */
    if (rc == NVM_OK) {
      r->ckpt_lsn = lsn;
      nvm_wal_set_tail(r->wal, lsn); /* step 4 */
      if (__atomic_load_n(&r->applied_lsn, __ATOMIC_ACQUIRE) == lsn)
        __atomic_store_n(&r->first_unckpt_ns, 0, __ATOMIC_RELAXED);
      else /* commits went on meanwhile: their age counts from now, roughly */
        __atomic_store_n(&r->first_unckpt_ns, mono_ns(), __ATOMIC_RELAXED);
      r->checkpoints++;
      r->checkpoint_ns += mono_ns() - t0;
    }
  }
  pthread_mutex_unlock(&r->ckpt_lock);
  return rc;
}

/* Is a checkpoint due: the log written since the last one reached ckpt_bytes, or its oldest
 * record is ckpt_ms old? *wait_ns: how long until the age makes it due. */
static int due(nvm_region *r, uint64_t *wait_ns) {
  uint64_t applied = __atomic_load_n(&r->applied_lsn, __ATOMIC_ACQUIRE);
  uint64_t first = __atomic_load_n(&r->first_unckpt_ns, __ATOMIC_RELAXED);
  uint64_t age_limit = r->ckpt_ms * 1000000u;
  *wait_ns = age_limit;
  if (applied - r->ckpt_lsn >= r->ckpt_bytes) return 1;
  if (!first) return 0;
  uint64_t age = mono_ns() - first;
  if (age >= age_limit) return 1;
  *wait_ns = age_limit - age;
  return 0;
}

void nvm_ckpt_note_commit(nvm_region *r) {
  if (__atomic_load_n(&r->first_unckpt_ns, __ATOMIC_RELAXED) == 0)
    __atomic_store_n(&r->first_unckpt_ns, mono_ns(), __ATOMIC_RELAXED);
  if (r->ckpt_running &&
      __atomic_load_n(&r->applied_lsn, __ATOMIC_ACQUIRE) - r->ckpt_lsn >= r->ckpt_bytes) {
    pthread_mutex_lock(&r->ckpt_mu);
    pthread_cond_signal(&r->ckpt_cond);
    pthread_mutex_unlock(&r->ckpt_mu);
  }
}

static void *ckpt_main(void *arg) {
  nvm_region *r = arg;
  pthread_mutex_lock(&r->ckpt_mu);
  while (!r->ckpt_stop) {
    uint64_t wait_ns;
    if (!due(r, &wait_ns)) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      uint64_t ns = (uint64_t)ts.tv_nsec + wait_ns;
      ts.tv_sec += (time_t)(ns / 1000000000u);
      ts.tv_nsec = (long)(ns % 1000000000u);
      pthread_cond_timedwait(&r->ckpt_cond, &r->ckpt_mu, &ts);
      continue;
    }
    pthread_mutex_unlock(&r->ckpt_mu);
    int rc = nvm_ckpt_take(r);
    pthread_mutex_lock(&r->ckpt_mu);
    if (rc) { /* the next commit short of room checkpoints itself, and fails the handle */
      r->ckpt_failed = rc;
      break;
    }
  }
  pthread_mutex_unlock(&r->ckpt_mu);
  return NULL;
}

int nvm_ckpt_start(nvm_region *r) {
  if (r->opt_flags & NVM_OPT_NO_CHECKPOINTER) return NVM_OK;
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_destroy(&r->ckpt_cond);
  pthread_cond_init(&r->ckpt_cond, &a);
  pthread_condattr_destroy(&a);
  r->ckpt_stop = 0;
  if (pthread_create(&r->ckpt_thread, NULL, ckpt_main, r) != 0)
    return nvm_fail(NVM_EIO, "region %s: cannot start the checkpoint thread", r->path);
  r->ckpt_running = 1;
  return NVM_OK;
}

void nvm_ckpt_stop(nvm_region *r) {
  if (!r->ckpt_running) return;
  pthread_mutex_lock(&r->ckpt_mu);
  r->ckpt_stop = 1;
  pthread_cond_signal(&r->ckpt_cond);
  pthread_mutex_unlock(&r->ckpt_mu);
  pthread_join(r->ckpt_thread, NULL);
  r->ckpt_running = 0;
}

int nvm_ckpt_clean(nvm_region *r) {
  int rc = nvm_media_sync(r, 0, 0);
  if (rc == NVM_OK) rc = store_sb_words(r, r->wal ? r->wal->epoch : 0, 0);
  if (rc == NVM_OK) r->ckpt_lsn = 0;
  return rc;
}

static uint32_t new_epoch(uint32_t old) {
  uint32_t e = 0;
  while (e == 0 || e == old)
    if (getrandom(&e, sizeof e, 0) != (ssize_t)sizeof e) e = (uint32_t)mono_ns() ^ ~old;
  return e;
}

int nvm_ckpt_begin_epoch(nvm_region *r) {
  int rc = NVM_OK;
  if (r->wal && r->wal->capacity != r->log_capacity) { /* replayed with the old size */
    nvm_wal_close(r->wal);
    r->wal = NULL;
  }
  if (!r->wal) rc = nvm_wal_open_file(r->log_path, r->log_capacity, 1, &r->wal);
  uint32_t epoch = 0;
  uint64_t ignored;
  if (rc == NVM_OK) rc = nvm_wal_sb_read(r, &epoch, &ignored);
  if (rc) return rc;
  epoch = new_epoch(epoch);
  /* The first LSN is the ring's start; any non-zero value would do (0 means "no log"). */
  rc = nvm_wal_start_epoch(r->wal, nvm_ld64(r, NVM_HDR_CREATION_ID), epoch, r->wal->capacity);
  if (rc == NVM_OK) rc = store_sb_words(r, epoch, r->wal->capacity);
  if (rc) return rc;
  r->ckpt_lsn = r->wal->capacity;
  __atomic_store_n(&r->applied_lsn, r->wal->capacity, __ATOMIC_RELEASE);
  __atomic_store_n(&r->first_unckpt_ns, 0, __ATOMIC_RELAXED);
  return NVM_OK;
}
