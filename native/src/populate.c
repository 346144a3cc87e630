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

static void *populate_main(void *arg) {
  nvm_region *r = arg;
  pthread_mutex_lock(&r->populate_mu);
  while (!r->populate_stop) {
    uint64_t hw = __atomic_load_n(&r->high_water, __ATOMIC_RELAXED);
    uint64_t want = hw + NVM_POPULATE_AHEAD;
    if (want > r->page_count) want = r->page_count;
    uint64_t from = r->populated > hw ? r->populated : hw;
    if (from + NVM_POPULATE_AHEAD / 2 > want) { /* enough ahead: wait for the allocator */
      pthread_cond_wait(&r->populate_cond, &r->populate_mu);
      continue;
    }
    pthread_mutex_unlock(&r->populate_mu);
    int bad = populate(r, from, want);
    pthread_mutex_lock(&r->populate_mu);
    if (bad) break; /* the kernel cannot: staging takes its faults as before */
    if (r->populated < want) r->populated = want;
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

void nvm_populate_forget(nvm_region *r) {
  pthread_mutex_lock(&r->populate_mu);
  r->populated = 0; /* dropped: populate again from the high-water mark */
  pthread_cond_signal(&r->populate_cond);
  pthread_mutex_unlock(&r->populate_mu);
}
