/*
 * populate.c — the pages the allocator will hand out next, made private and writable in the
 * working copy before a batch writes them (region-format.md §7.7).
 *
 * The working copy is a private copy-on-write mapping: the first store into one of its pages
 * faults, and the kernel copies the page. Staging happens under the NameNode's namesystem lock,
 * so every such fault lengthens the lock's hold; with many threads queued on the lock, that time
 * is paid by all of them. Almost every page a batch writes FRESH is a never-used page just above
 * the allocator's high-water mark, so a thread of the region keeps the next NVM_POPULATE_AHEAD
 * pages above it populated (MADV_POPULATE_WRITE: faulted in writable, copied) ahead of need, off
 * the lock. In the memory modes it populates the media mapping too, where a commit's stores land
 * (in the disk mode the media is a file on disk: populating it for writing would dirty pages
 * nothing wrote). A page populated early equals the media there (nothing staged has written it),
 * which is what the copy-on-write fault would have copied.
 */
#include <sys/mman.h>

#include "nvm_internal.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define NVM_POPULATE_AHEAD 8192u /* pages (2 MiB) kept populated above the high-water mark */

/* Populates [from, to) (page indexes) in the working copy, and in the media in a memory mode.
 * An error (an old kernel: EINVAL) only means the faults stay where they were. */
static int populate(nvm_region *r, uint64_t from, uint64_t to) {
  uint64_t off = nvm_page_off(from), len = (to - from) * NVM_PAGE_SIZE;
  uint64_t start = off - off % NVM_OS_PAGE, end = off + len;
  end += (NVM_OS_PAGE - end % NVM_OS_PAGE) % NVM_OS_PAGE;
  if (end > r->size) end = r->size;
  if (end <= start) return 0;
  int bad = madvise(r->work + start, end - start, MADV_POPULATE_WRITE);
  if (!bad && r->mode != NVM_MODE_DISK)
    bad = madvise(r->base + start, end - start, MADV_POPULATE_WRITE);
  return bad;
}

/* The pages to populate next, [*from, *want), for a high-water mark hw; 0 when the populated
 * pages already reach half the window above it (the thread waits then). */
static int work_ahead(const nvm_region *r, uint64_t populated, uint64_t hw, uint64_t *from,
                      uint64_t *want) {
  *want = hw + NVM_POPULATE_AHEAD;
  if (*want > r->page_count) *want = r->page_count;
  *from = populated > hw ? populated : hw;
  return *from + NVM_POPULATE_AHEAD / 2 <= *want;
}

static void *populate_main(void *arg) {
  nvm_region *r = arg;
  pthread_mutex_lock(&r->populate_mu);
  while (!r->populate_stop) {
    /* idle is set before the mark is read, and a reservation raises the mark before it reads
     * idle (both sequentially consistent): one of the two sees the other's store, so a raise
     * is never missed by both (nvm_populate_nudge) */
    __atomic_store_n(&r->populate_idle, 1, __ATOMIC_SEQ_CST);
    uint64_t hw = __atomic_load_n(&r->high_water, __ATOMIC_SEQ_CST), from, want;
    if (!work_ahead(r, r->populated, hw, &from, &want)) {
      pthread_cond_wait(&r->populate_cond, &r->populate_mu); /* enough ahead */
      continue;
    }
    __atomic_store_n(&r->populate_idle, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&r->populate_mu);
    int bad = populate(r, from, want);
    pthread_mutex_lock(&r->populate_mu);
    if (bad) break; /* the kernel cannot: staging takes its faults as before */
    if (r->populated < want) __atomic_store_n(&r->populated, want, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&r->populate_mu);
  return NULL;
}

int nvm_populate_start(nvm_region *r) {
  r->populate_stop = 0;
  r->populated = 0;
  if (pthread_create(&r->populate_thread, NULL, populate_main, r) != 0)
    return nvm_fail(NVM_EIO, "region %s: cannot start the page populator", r->path);
  r->populate_running = 1;
  return NVM_OK;
}

void nvm_populate_stop(nvm_region *r) {
  if (!r->populate_running) return;
  pthread_mutex_lock(&r->populate_mu);
  r->populate_stop = 1;
  pthread_cond_signal(&r->populate_cond);
  pthread_mutex_unlock(&r->populate_mu);
  pthread_join(r->populate_thread, NULL);
  r->populate_running = 0;
}

/* After the allocator raised the high-water mark (high_water stored sequentially consistent):
 * wakes the thread only when it waits and the window needs it (the caller raised the mark
 * under r->lock and released it), so that a reservation takes no
 * lock and makes no system call on almost every call. */
void nvm_populate_nudge(nvm_region *r) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* the raised mark before idle is read */
  if (!r->populate_running || !__atomic_load_n(&r->populate_idle, __ATOMIC_SEQ_CST)) return;
  uint64_t from, want, hw = __atomic_load_n(&r->high_water, __ATOMIC_RELAXED);
  if (!work_ahead(r, __atomic_load_n(&r->populated, __ATOMIC_RELAXED), hw, &from, &want)) return;
  pthread_mutex_lock(&r->populate_mu);
  pthread_cond_signal(&r->populate_cond);
  pthread_mutex_unlock(&r->populate_mu);
}

void nvm_populate_forget(nvm_region *r) {
  pthread_mutex_lock(&r->populate_mu);
  __atomic_store_n(&r->populated, 0, __ATOMIC_RELAXED); /* dropped: from the mark again */
  pthread_cond_signal(&r->populate_cond);
  pthread_mutex_unlock(&r->populate_mu);
}
