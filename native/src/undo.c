/*
 * undo.c — the single undo record of a region without FEATURE_REDO_LOG (written by the
 * releases before the redo log; region-format.md §4): the open-time check (read only) and the
 * recovery rollback. This
 * library never writes an undo record: it rolls one back, and the upgrade that follows
 * recovery turns the area into redo slots.
 */
#include <string.h>

#include "nvm_internal.h"

#define PAD8(n) (((uint64_t)(n) + 7) & ~(uint64_t)7)

/* Validate a non-empty undo record without writing anything. */
int nvm_undo_check(const nvm_region *r) {
  uint64_t state = nvm_ld64(r, NVM_UNDO_STATE);
  if (state == 0) return NVM_OK;
  uint32_t count = nvm_ld32(r, NVM_UNDO_ENTRY_COUNT), bytes = nvm_ld32(r, NVM_UNDO_PAYLOAD_BYTES);
  if (bytes > NVM_UNDO_PAYLOAD_MAX)
    return nvm_fail_at(NVM_ECORRUPT, NVM_UNDO_PAYLOAD_BYTES,
                       "%s: undo record (seq %llu) payload length %u exceeds %d", r->path,
                       (unsigned long long)state, bytes, NVM_UNDO_PAYLOAD_MAX);
  uint32_t stored = nvm_ld32(r, NVM_UNDO_CRC),
           crc = nvm_crc32c(0, r->base + NVM_UNDO_PAYLOAD, bytes);
  if (stored != crc)
    return nvm_fail_at(
        NVM_ECORRUPT, NVM_UNDO_CRC,
        "%s: undo record (seq %llu) checksum mismatch (stored 0x%08x, computed 0x%08x)", r->path,
        (unsigned long long)state, stored, crc);
  uint64_t pos = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (pos + NVM_UNDO_ENTRY_HEADER > bytes)
      return nvm_fail_at(NVM_ECORRUPT, NVM_UNDO_ENTRY_COUNT,
                         "%s: undo entry %u runs past the payload (%u bytes)", r->path, i, bytes);
    uint64_t entry = NVM_UNDO_PAYLOAD + pos;
    uint64_t target = nvm_ld64(r, entry);
    uint32_t len = nvm_ld32(r, entry + 8);
    pos += NVM_UNDO_ENTRY_HEADER + PAD8(len);
    if (pos > bytes || !nvm_log_target_ok(r, target, len)) /* at the entry (its target field) */
      return nvm_fail_at(NVM_ECORRUPT, entry, "%s: undo entry %u has a bad target %llu / length %u",
                         r->path, i, (unsigned long long)target, len);
  }
  if (pos != bytes)
    return nvm_fail_at(NVM_ECORRUPT, NVM_UNDO_ENTRY_COUNT,
                       "%s: undo record has %u entries covering %llu of %u payload bytes", r->path,
                       count, (unsigned long long)pos, bytes);
  /* The last entry saves SB_COMMIT_SEQ; an armed record's state is that value + 1. A disarmed
   * record keeps its (valid) payload, so a damaged state word would otherwise roll back the
   * last committed batch. */
  uint64_t last = NVM_UNDO_PAYLOAD + bytes - NVM_UNDO_ENTRY_HEADER - 8;
  if (bytes < NVM_UNDO_ENTRY_HEADER + 8 || nvm_ld64(r, last) != NVM_SB_COMMIT_SEQ ||
      nvm_ld32(r, last + 8) != 8 ||
      state != nvm_counter_value(NVM_SB_COMMIT_SEQ, nvm_ld64(r, last + NVM_UNDO_ENTRY_HEADER)) + 1)
    return nvm_fail_at(NVM_ECORRUPT, NVM_UNDO_STATE,
                       "%s: undo record state %llu does not follow the commit sequence it saved: "
                       "a damaged state word",
                       r->path, (unsigned long long)state);
  return NVM_OK;
}

/* Copy every entry's old bytes back (barrier), then empty the record
 * (barrier). Idempotent: a crash during rollback rolls back again. */
int nvm_undo_rollback(nvm_region *r, uint64_t *entries) {
  uint32_t count = nvm_ld32(r, NVM_UNDO_ENTRY_COUNT);
  uint64_t pos = NVM_UNDO_PAYLOAD;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t target = nvm_ld64(r, pos);
    uint32_t len = nvm_ld32(r, pos + 8);
    nvm_store(r, target, r->base + pos + NVM_UNDO_ENTRY_HEADER, len);
    nvm_flush(r, r->base + target, len);
    pos += NVM_UNDO_ENTRY_HEADER + PAD8(len);
  }
  int rc = nvm_drain(r);
  if (rc) return rc;
  __atomic_store_n((uint64_t *)(r->base + NVM_UNDO_STATE), (uint64_t)0, __ATOMIC_RELAXED);
  nvm_flush(r, r->base + NVM_UNDO_STATE, 8);
  rc = nvm_drain(r);
  *entries = count;
  return rc;
}
