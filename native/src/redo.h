/*
 * redo.h — what redo.c (the commit) and redolog.c (the slots, the check, the replay) share.
 * Not installed.
 */
#ifndef NVM_REDO_H
#define NVM_REDO_H

#include <stdint.h>
#include <string.h>

#include "batch.h"

static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Record N lives in slot N % 2 (a big record in slot 0, region-format.md §4.1). */
static inline uint64_t slot_of(uint64_t seq) { return seq % 2 ? NVM_REDO_SLOT1 : NVM_REDO_SLOT0; }

/* Stores every entry of a record's payload in place and flushes it (no drain); with `keep`,
 * keeps what each store replaces (r->redo_pre, for the crash hook). Returns the entry count. */
uint32_t nvm_redo_apply(nvm_region *r, const uint8_t *payload, uint32_t count, int keep);
/* Keeps the 8 bytes at `target` before a store that is not a record entry (a FREE page's
 * invalidation), as nvm_redo_apply does. */
void nvm_redo_keep(nvm_region *r, uint64_t target);
/* Zeroes both slots' REDO_SEQ and flushes them (the caller drains): no record stays valid. */
void nvm_redo_empty_slots(nvm_region *r);

#endif /* NVM_REDO_H */
