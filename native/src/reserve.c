/*
 * reserve.c — nvm_reserve_pages: the allocator (alloc.c) under the locks a reservation may need.
 * Most reservations take r->lock only. Two need the media too, and so persist_lock, which comes
 * before r->lock: raising the scan limit (scanlimit.c), and, in the memory modes, a region short
 * of pages that only wait for two more redo records (region-format.md §7.4), which empties the
 * redo slots (redo.c: two barriers) and takes them back at once.
 */
#include "batch.h"

/* Freed pages the redo log still holds back (redo.c, rule 3) would make room. */
static int needs_settle(const nvm_region *r, uint32_t n) {
  return nvm_alloc_free_pages(r) < n && r->freed[0].n + r->freed[1].n > 0;
}

int nvm_reserve_pages(nvm_region *r, uint32_t n, uint64_t *offs) {
  pthread_mutex_lock(&r->lock);
  int persisting = 0;
  if (nvm_alloc_needs_raise(r, n) || needs_settle(r, n)) {
    pthread_mutex_unlock(&r->lock);
    pthread_mutex_lock(&r->persist_lock);
    pthread_mutex_lock(&r->lock);
    persisting = 1;
  }
  int rc = nvm_check_writable(r);
  if (rc == NVM_OK && persisting && needs_settle(r, n) && (rc = nvm_redo_settle(r)) == NVM_OK)
    rc = nvm_redo_release(r, NULL);
  if (rc == NVM_OK && n > 0 && !offs) rc = nvm_fail(NVM_EINVAL, "reserve: offs is NULL");
  uint64_t hw = r->high_water;
  if (rc == NVM_OK) rc = nvm_alloc_take(r, n, offs);
  pthread_mutex_unlock(&r->lock);
  if (r->high_water != hw) nvm_populate_nudge(r); /* populate.c: the mark moved */
  if (persisting) pthread_mutex_unlock(&r->persist_lock);
  return rc;
}
