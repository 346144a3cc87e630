/*
 * ranges.c — where a batch or a log record may write: the writable superblock counters and the
 * byte ranges that lie inside one page of the data area (region-format.md §3, §4.1, §10). Pure
 * functions of the region's geometry, shared by validation (txn.c) and every log's check
 * (undo.c, redolog.c, walreplay.c).
 */
#include "nvm_internal.h"

/* Superblock counters a batch may write: [SB_LAST_INODE_ID, SB_LAST_TXID+8) and
 * [SB_LAST_RECORD_ID, SB_MASTER_KEY_ID+8), minus SB_COMMIT_SEQ unless allow_commit_seq
 * (the undo record may hold it). */
int nvm_sb_counter_range(uint64_t off, uint64_t len, int allow_commit_seq) {
  /* inside [lo, hi): off >= lo, off < hi and len <= hi - off (no wrap-around) */
#define NVM_INSIDE(lo, hi) (off >= (lo) && off < (hi) && len <= (uint64_t)(hi)-off)
  int inside = NVM_INSIDE(NVM_SB_LAST_INODE_ID, NVM_SB_LAST_TXID + 8) ||
               NVM_INSIDE(NVM_SB_LAST_RECORD_ID, NVM_SB_MASTER_KEY_ID + 8);
#undef NVM_INSIDE
  if (!inside) return 0;
  if (!allow_commit_seq && off < NVM_SB_COMMIT_SEQ + 8 && off + len > NVM_SB_COMMIT_SEQ) return 0;
  return 1;
}

/* [off, off+len) lies inside one page of the data area; *idx = that page. */
int nvm_page_range(const nvm_region *r, uint64_t off, uint64_t len, uint64_t *idx) {
  if (off < NVM_DATA_OFFSET || off >= r->size) return 0;
  uint64_t in = (off - NVM_DATA_OFFSET) % NVM_PAGE_SIZE;
  if (len > NVM_PAGE_SIZE - in) return 0;
  *idx = (off - NVM_DATA_OFFSET) / NVM_PAGE_SIZE;
  return *idx < r->page_count;
}

int nvm_log_target_ok(const nvm_region *r, uint64_t target, uint32_t len) {
  uint64_t idx;
  if (len == 0) return 0;
  if (len == 8 && target % 8) return 0;
  return nvm_sb_counter_range(target, len, 1) || nvm_page_range(r, target, len, &idx);
}
