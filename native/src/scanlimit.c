/*
 * scanlimit.c — SB_SCAN_LIMIT, the persisted bound of recovery's page scan.
 *
 * Invariant: every page at an index >= the persisted limit has never been
 * written (its state word is 0), so recovery scans only [0, limit) and never
 * touches the untouched rest of the region (on tmpfs or a DAX file, touching
 * it costs a page fault, and on tmpfs the zeroing of the page, per 4 KiB).
 * The limit is raised, with its own barrier, before a page at or above it is
 * handed out, and only ever grows, in steps of NVM_SCAN_LIMIT_STEP pages.
 *
 * The word is self-checking: low 32 bits the limit, high 32 bits its
 * complement. One aligned 8-byte store replaces it, so it cannot be torn; a
 * word that does not check, or a limit beyond the page count, is corruption.
 */
#include "nvm_internal.h"

uint64_t nvm_scan_limit_word(uint64_t limit) {
  uint32_t lo = (uint32_t)limit;
  return (uint64_t)(uint32_t)~lo << 32 | lo;
}

int nvm_scan_limit_load(nvm_region *r) {
  uint64_t w = nvm_ld64(r, NVM_SB_SCAN_LIMIT);
  uint64_t limit = w & 0xffffffffu;
  if (w != nvm_scan_limit_word(limit) || limit > r->page_count)
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_SCAN_LIMIT,
                       "%s: bad scan limit word 0x%016llx (region of %llu pages)", r->path,
                       (unsigned long long)w, (unsigned long long)r->page_count);
  r->scan_limit = limit;
  return NVM_OK;
}

/* Makes the persisted limit cover pages [0, high_water) before any of them is
 * written. Caller holds r->lock, and persist_lock once the region is open. */
int nvm_scan_limit_cover(nvm_region *r, uint64_t high_water) {
  if (high_water <= r->scan_limit) return NVM_OK;
  uint64_t limit = high_water + NVM_SCAN_LIMIT_STEP;
  if (limit > r->page_count) limit = r->page_count;
  uint64_t w = nvm_scan_limit_word(limit);
  nvm_store(r, NVM_SB_SCAN_LIMIT, &w, 8);
  int rc = NVM_OK;
  /* The disk mode takes no barrier: the word reaches the region file with the superblock's
   * page, before any page above the old limit does through a checkpoint (the store comes
   * before the page is handed out, so before its record, so before the checkpoint's fdatasync),
   * and a page written since the checkpoint is in a record, whose replay raises the limit over
   * it (walreplay.c). */
  if (r->mode != NVM_MODE_DISK) {
    nvm_flush(r, r->base + NVM_SB_SCAN_LIMIT, 8);
    rc = nvm_drain(r);
  }
  if (rc == NVM_OK) r->scan_limit = limit;
  nvm_work_mirror(r, NVM_SB_SCAN_LIMIT);
  return rc;
}
