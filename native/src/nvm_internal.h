/*
 * nvm_internal.h — the region handle and the library's internal functions.
 * Not installed; the JNI glue uses only nvmns.h.
 */
#ifndef NVM_INTERNAL_H
#define NVM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "nvmns.h"

#define NVM_LIB_VERSION "0.1.0"

/* A range flushed since the last barrier (crash hook bookkeeping). */
struct nvm_range {
  uint64_t off;
  uint64_t len;
};

#define NVM_PAD8(n) (((uint64_t)(n) + 7) & ~(uint64_t)7)
#define NVM_OS_PAGE 4096u /* the unit the working copy is copied and dropped in */

/* A parsed mutation batch (batch.h has what is done with one). */
struct entry {
  uint32_t op, field, len;
  uint64_t target;
  uint64_t page; /* page index (data area targets); UINT64_MAX for a superblock counter */
  const uint8_t *data;
};

struct batch {
  struct entry *e;
  uint32_t n, cap;
  uint32_t n_inplace;
  uint64_t log_bytes; /* its log record's payload: one entry per INPLACE entry, per touched
                         state word and for SB_COMMIT_SEQ (the same for an undo or a redo record) */
  uint64_t *touched;  /* data pages INPLACE entries change: resealed in the batch (§11) */
  uint32_t ntouched, touched_cap;
  /* past NVM_TOUCH_LINEAR touched pages, an index of them (txn.c): offset -> position in touched;
   * a slot is valid only while it names a position below ntouched holding its offset (a group's
   * rollback truncates touched and leaves stale slots) */
  uint64_t *tkeys;
  uint32_t *tvals;
  uint32_t tcap; /* a power of two; 0 = none */
  int tindexed;  /* the index covers touched[0, ntouched) */
};

struct nvm_crash_hook {
  uint64_t countdown;       /* barriers left until the fatal one; 0 = disarmed */
  int capture;              /* capture mode: images at every barrier, no crash */
  uint64_t captured;        /* barriers captured since capture was armed */
  char *prefix;             /* snapshot path prefix */
  uint8_t *shadow;          /* what completed barriers made durable */
  struct nvm_range *ranges; /* flushed since the last barrier */
  size_t nranges, cap;
};

struct nvm_region {
  char *path;
  int fd; /* kept open: holds the flock */
  uint8_t *base;
  uint64_t size;
  uint64_t page_count;
  int mode; /* resolved, never AUTO */
  int is_pmem;
  int readonly;
  int pmem_mapped;      /* mapped by pmem_map_file (else plain mmap) */
  pthread_mutex_t lock; /* serialises stage / reserve / release and the allocator */

  /* group commit (stage.c, group.c; region-format.md §7.7). Every write to the media
   * mapping `base` after open holds persist_lock (taken before `lock`, never after it);
   * staged batches are written to `work` under `lock` only. */
  uint8_t
      *work; /* private copy-on-write mapping: base plus every staged batch; NULL if read-only */
  pthread_mutex_t persist_lock;
  struct nvm_queue {
    uint8_t *buf; /* encoded batches, each as u64 length then its bytes padded to 8 */
    size_t len, cap;
    uint64_t nbatches;
  } staged, persisting;
  uint64_t staged_seq;  /* batches staged since open */
  uint64_t durable_seq; /* of those, committed to the region (read without a lock) */
  uint8_t *cow_bits;    /* 1 bit per OS page: written in the working copy since the last drop */
  uint64_t cow_pages;   /* bits set in cow_bits */
  struct batch stage_scratch, group; /* reused: the batch being staged, the group being committed */
  /* populate.c: pages above the high-water mark made private ahead of staging */
  pthread_mutex_t populate_mu; /* guards populated, populate_stop; never held across madvise */
  pthread_cond_t populate_cond;
  pthread_t populate_thread;
  int populate_running, populate_stop, populate_idle; /* idle: waiting, or about to */
  uint64_t populated; /* pages below this index are populated (as far as the thread knows) */
  int failed;         /* sticky: a group's commit failed; its batches are not in the region */
  char fail_msg[512]; /* what that commit reported (the threads that waited for it read it) */

  int checksums;   /* FEATURE_PAGE_CHECKSUMS: LIVE pages and counters checked (§11) */
  int records;     /* FEATURE_RECORDS: record pages and their counters (§5.5) */
  int attrs;       /* FEATURE_INODE_ATTRS: IN_ATTRS words and ATTR_EXT pages (§5.6) */
  int symlinks;    /* FEATURE_SYMLINKS: symlink inode pages (§5.2) */
  int redo;        /* FEATURE_REDO_LOG: the undo area holds two redo slots (§4.1) */
  int wal_feature; /* FEATURE_WAL: the SB_WAL_* words (§12.2) */
  int snapshots;   /* FEATURE_SNAPSHOTS: the DI_SNAPSHOT word of directory pages (§5.2) */
  int redo_chain;  /* FEATURE_REDO_CHAIN: a record may keep its payload in chain pages (§4.1) */

  /* redo log (redo.c, region-format.md §7.3); written under persist_lock */
  int redo_undrained; /* the last record's in-place bytes are flushed, not yet drained */
  int redo_last_big;  /* the last record took the whole area (REDO_SPAN 2) */
  struct nvm_pageset {
    uint32_t *p; /* data pages the record wrote in place, sorted */
    uint32_t n, cap;
  } redo_recent[2];  /* of the last record ([0]) and the one before ([1]) */
  uint8_t *redo_pre; /* the bytes the last record's in-place stores replaced, in store order
                        (u64 target, u32 len, u32 0, bytes padded to 8): what is not durable
                        while redo_undrained, for the crash hook's shadow (persist.c) */
  size_t redo_pre_len, redo_pre_cap;
  uint8_t *redo_scratch; /* page images for the seals of one record */
  size_t redo_scratch_cap;
  int redo_settled;            /* nvm_redo_settle emptied the slots since the last release */
  struct nvm_pageset freed[2]; /* FREE pages of the last record ([0]) and the one before ([1]):
                                  back to the allocator once two more records committed */
  /* chained records (§4.1, REDO_SPAN 3): a batch with more log than the whole area */
  uint64_t chain_promised; /* chain pages staged batches will take at their commit (r->lock) */
  uint8_t *chain_buf;      /* the payload of the record being written */
  size_t chain_buf_cap;
  struct nvm_pageset chain_taken; /* the chain pages of the last commit, for nvm_redo_release */

  /* disk mode (commit_disk.c, checkpoint.c, walreplay.c; region-format.md §12) */
  struct nvm_wal *wal; /* the write-ahead log; NULL in the memory modes */
  char *log_path;
  uint64_t log_capacity, ckpt_bytes, ckpt_ms;
  uint32_t opt_flags;
  uint64_t applied_lsn;      /* every record below it is stored in the media mapping (atomic) */
  uint64_t ckpt_lsn;         /* SB_WAL_CHECKPOINT as last made durable */
  uint64_t first_unckpt_ns;  /* when the oldest record not in a checkpoint was written; 0: none */
  pthread_mutex_t ckpt_lock; /* one checkpoint at a time; taken after persist_lock, never before */
  pthread_mutex_t ckpt_mu;   /* the checkpointer's stop flag and wake-ups; never held across I/O */
  pthread_cond_t ckpt_cond;  /* the checkpointer sleeps here (on ckpt_mu) */
  pthread_t ckpt_thread;
  int ckpt_running, ckpt_stop, ckpt_failed;
  uint64_t checkpoints, checkpoint_ns, replayed, replayed_bytes;
  struct iovec *disk_iov; /* reused by each commit: the records' pieces */
  uint8_t *disk_seq;      /* the commit-sequence entries of one commit's records */
  size_t disk_iov_cap, disk_seq_cap;

  /* test only (powerloss.c): told of every sync of the region file before it is issued */
  struct nvm_media_watch {
    void *ctx;
    /* [off, off + len) of the region file is about to be made durable (len 0: all of it);
     * nonzero: fail it (a simulated power loss) */
    int (*on_sync)(void *ctx, uint64_t off, uint64_t len);
  } * media_watch;
  struct nvm_powerloss *powerloss; /* powerloss.c, while armed */

  /* persistence */
  uint64_t barriers;
  int flush_errno;           /* sticky msync failure, reported by the next drain */
  struct nvm_range *pending; /* msync mode: ranges flushed since the last drain (persist.c) */
  size_t npending, pending_cap;
  int crashed;
  struct nvm_crash_hook hook;

  /* allocator (alloc.c) */
  uint32_t *free_stack; /* free page indexes below high_water */
  uint64_t free_top, free_cap;
  uint64_t high_water;
  uint64_t scan_limit;    /* persisted SB_SCAN_LIMIT: pages at or above were never used */
  uint8_t *reserved_bits; /* 1 bit per page */
  uint8_t *used_bits;     /* 1 bit per page: committed, in use */
  uint64_t pages_used;    /* excluding reserved */
  uint64_t pages_reserved;
  uint64_t pending_frees; /* FREE pages staged, not committed yet: room kept on the free stack */

  /* recovery results (recover.c) */
  nvm_recovery rec;
  uint64_t *inodes;
  uint64_t ninodes;
  uint64_t *strings;
  uint64_t *string_refs; /* parallel to strings: references from live inodes */
  uint64_t nstrings;
  uint64_t *record_offs; /* live record pages, page order */
  uint64_t nrecords;
};

/* errors.c */
int nvm_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* As nvm_fail, for a failure that points at a place in the file (nvm_erroroffset). */
int nvm_fail_at(int code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void nvm_clear_error(void);

/* persist.c */
int nvm_resolve_mode(const char *path, int requested, int is_pmem, int *resolved);
void nvm_flush(nvm_region *r, const void *addr, size_t len);
int nvm_drain(nvm_region *r);
/* The region file made durable: [off, off + len) by msync, all of it (len 0) by fdatasync.
 * The disk mode's checkpoints and the library's own writes in that mode. */
int nvm_media_sync(nvm_region *r, uint64_t off, uint64_t len);
void nvm_hook_free(nvm_region *r);
void nvm_pending_free(nvm_region *r);
/* capture mode: the state after a whole batch, <prefix>.<k>.applied (k = barriers captured) */
int nvm_hook_capture_applied(nvm_region *r);

/* work.c, stage.c, group.c */
int nvm_work_map(nvm_region *r);
void nvm_stage_free(nvm_region *r);
int nvm_check_not_failed(const nvm_region *r);

void nvm_work_unmap(nvm_region *r);
/* Stores an 8-byte word into the working copy as well (a word written to the media by
 * the library itself, not by a batch: SB_COMMIT_SEQ, SB_SCAN_LIMIT). */
void nvm_work_mirror(nvm_region *r, uint64_t off);

/* populate.c */
int nvm_populate_start(nvm_region *r);
void nvm_populate_stop(nvm_region *r);
void nvm_populate_forget(nvm_region *r); /* the working copy's pages were dropped */
void nvm_populate_nudge(nvm_region *r);  /* the high-water mark rose */

/* alloc.c */
int nvm_alloc_init(nvm_region *r);
void nvm_alloc_free(nvm_region *r);
int nvm_free_push(nvm_region *r, uint32_t page);
int nvm_free_reserve(nvm_region *r, uint64_t extra); /* make room for `extra` pushes */
int nvm_check_writable(nvm_region *r);
int nvm_alloc_needs_raise(const nvm_region *r, uint32_t n);
uint64_t nvm_alloc_free_pages(const nvm_region *r);
/* Pages free or waiting for two more redo records (redo.c, rule 3): what a chained record's
 * promise (r->chain_promised) may count on. */
uint64_t nvm_alloc_pages_coming(const nvm_region *r);
int nvm_alloc_take(nvm_region *r, uint32_t n, uint64_t *offs);
/* bitmaps (inline: recovery tests and sets a bit per inode, 10M times at 10M inodes) */
static inline int nvm_bit_get(const uint8_t *bits, uint64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void nvm_bit_set(uint8_t *bits, uint64_t i) {
  bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}
static inline void nvm_bit_clear(uint8_t *bits, uint64_t i) {
  bits[i >> 3] &= (uint8_t) ~(1u << (i & 7));
}

/* redolog.c (check, replay) and redo.c (settle, free): the redo log (region-format.md §4.1, §7.3)
 */
int nvm_redo_check(const nvm_region *r); /* open, read only: refuse a bad valid record */
int nvm_redo_recover(nvm_region *r);     /* replay, drain, empty the slots */
int nvm_redo_settle(nvm_region *r);      /* drain, empty the slots, drain; frees back */
void nvm_redo_free(nvm_region *r);
/* The CRC of a record: its slot header at `rec`, and `payload` (a chained record's, or the slot's
 * own at rec + REDO_PAYLOAD). */
uint32_t nvm_redo_crc(const nvm_region *r, const uint8_t *rec, const uint8_t *payload,
                      uint32_t bytes);
/* The chain pages a record of `bytes` of payload needs: 0 when it fits the area. */
uint32_t nvm_redo_chain_pages(uint64_t bytes);

/* undo.c / recover.c */
int nvm_sb_counter_range(uint64_t off, uint64_t len, int allow_commit_seq);
int nvm_page_range(const nvm_region *r, uint64_t off, uint64_t len, uint64_t *idx);
/* A log entry's target: a writable superblock counter (or SB_COMMIT_SEQ) or inside a page. */
int nvm_log_target_ok(const nvm_region *r, uint64_t target, uint32_t len);
void nvm_store(nvm_region *r, uint64_t off, const void *src, uint32_t len);
/* powerloss.c (test only): the state after a commit, and the model's end */
void nvm_powerloss_applied(nvm_region *r);
void nvm_powerloss_disarm(nvm_region *r);
/* walreplay.c: replay the disk mode's write-ahead log from the checkpoint (§12.5) */
int nvm_wal_recover(nvm_region *r);
/* commit_disk.c: a group commit in the disk mode (§12.3); persist_lock held */
struct nvm_queue;
int nvm_disk_commit(nvm_region *r, const struct nvm_queue *q);
int nvm_undo_check(const nvm_region *r);
int nvm_undo_rollback(nvm_region *r, uint64_t *entries);
int nvm_recover(nvm_region *r);

/* checksum.c: page checksums and counter checks (region-format.md §11) */
uint32_t nvm_page_crc(const nvm_region *r, uint64_t page, uint32_t low);
/* The state word for a page whose low half is `low`: a LIVE page's carries its checksum
 * (over its current bytes), any other the page magic. */
uint64_t nvm_sealed_word(const nvm_region *r, uint64_t page, uint32_t low);
/* The same over another image of the region (the working copy, stage.c). */
uint64_t nvm_sealed_word_in(const nvm_region *r, const uint8_t *img, uint64_t page, uint32_t low);
/* The same over a copy of one page's bytes (a record's scratch image, redo.c). */
uint64_t nvm_sealed_word_of(const nvm_region *r, const uint8_t *bytes, uint32_t low);
/* Store (and flush) the page's sealed state word, keeping its low half. */
void nvm_seal(nvm_region *r, uint64_t page);
int nvm_live_checksum_ok(const nvm_region *r, uint64_t page, uint64_t word);
/* A LIVE page whose checksum fails but would match with another kind: a damaged kind byte. */
int nvm_checksum_of_other_kind(const nvm_region *r, uint64_t page, uint64_t word);
uint64_t nvm_counter_word(uint64_t off, uint64_t value);
/* The value of a counter word: without its check if the check matches, else as stored (plain). */
uint64_t nvm_counter_value(uint64_t off, uint64_t w);
uint64_t nvm_sb_get(const nvm_region *r, uint64_t off); /* a counter's value */
int nvm_counter_ok(const nvm_region *r, uint64_t off);
int nvm_check_counters(const nvm_region *r);
/* The checked superblock counters in offset order: the first is SB_LAST_INODE_ID; the next
 * after `off`, 0 after the last (the record counters only with FEATURE_RECORDS). */
uint64_t nvm_next_counter(const nvm_region *r, uint64_t off);
uint64_t nvm_features_word(uint32_t features);
int nvm_read_features(nvm_region *r);
/* The disk mode's superblock words for an epoch and a checkpoint LSN (epoch 0: no log). */
void nvm_wal_sb_words(uint32_t epoch, uint64_t checkpoint, uint64_t out[3]);
/* Reads and checks them (NVM_ECORRUPT at SB_WAL_EPOCH if they fail); zeros if the region
 * never had a log. */
int nvm_wal_sb_read(const nvm_region *r, uint32_t *epoch, uint64_t *checkpoint);
/* Brings a region from before a feature up to every feature this library writes (§11, §5.5). */
int nvm_upgrade_features(nvm_region *r);
/* A LIVE page of this kind? (The top half is its checksum, verified by recovery's scan.) */
static inline int nvm_is_live(uint64_t word, unsigned kind) {
  return (word & 0xffffffffull) == (NVM_STATE_WORD(kind, NVM_STATE_LIVE) & 0xffffffffull);
}

/* scanlimit.c: the persisted bound of recovery's page scan (region-format.md §3). */
#define NVM_SCAN_LIMIT_STEP 16384u /* pages (4 MiB) added per raise */
uint64_t nvm_scan_limit_word(uint64_t limit);
int nvm_scan_limit_load(nvm_region *r);
int nvm_scan_limit_cover(nvm_region *r, uint64_t high_water);

/* Recovery working set: compact arrays of page indexes. */
struct nvm_str {
  uint64_t id;
  uint32_t page;
  uint64_t refs; /* references from attached inodes (counted on the kept page of an id) */
};
struct nvm_scan {
  uint32_t *inodes;
  uint64_t ninodes, icap; /* LIVE DIR/FILE pages, page order */
  uint32_t *exts;
  uint64_t nexts, ecap; /* LIVE NAME_EXT/BLOCK_EXT/STRING_EXT pages */
  uint32_t *spages;
  uint64_t nstrs, scap; /* LIVE STRING pages, page order */
  uint32_t *rpages;
  uint64_t nrecs, rcap; /* LIVE RECORD pages, page order */
  struct nvm_str *strs; /* (id, page) sorted by id */
  uint32_t *order;
  uint64_t norder; /* attached: directories breadth first, then files in page order */
  uint64_t high_water, pending;
};
int nvm_radix_sort_u64(uint64_t *a, uint64_t n);
/* CRC-32C without the SSE4.2 path (crc32c.c), for tests holding the two paths equal. */
uint32_t nvm_crc32c_portable(uint32_t crc, const void *data, size_t len);
int nvm_attach_tree(nvm_region *r, struct nvm_scan *s);         /* attach.c */
int nvm_check_orphans(nvm_region *r, const struct nvm_scan *s); /* orphans.c */
int nvm_check_chains(nvm_region *r, const struct nvm_scan *s);  /* chains.c */
int nvm_check_strings(nvm_region *r, struct nvm_scan *s);       /* chains.c */
int nvm_check_records(nvm_region *r, const struct nvm_scan *s); /* chains.c */

/* Store len bytes at img + off; an aligned 8-byte word goes in one atomic store so that
 * a crash (or a concurrent reader) never sees it torn. */
static inline void nvm_store_into(uint8_t *img, uint64_t off, const void *src, uint32_t len) {
  if (len == 8 && off % 8 == 0) {
    uint64_t v;
    memcpy(&v, src, 8);
    __atomic_store_n((uint64_t *)(img + off), v, __ATOMIC_RELAXED);
  } else {
    memcpy(img + off, src, len);
  }
}

/* A log entry (a redo record's, a write-ahead log record's, a staged batch's payload; the
 * undo record's shape, region-format.md §4): u64 target, u32 len, u32 field, data padded to 8.
 * Writes it at rec + pos and returns the position after it. */
static inline uint64_t nvm_put_entry(uint8_t *rec, uint64_t pos, uint64_t target, uint32_t len,
                                     uint32_t field, const void *data) {
  uint8_t *p = rec + pos;
  memcpy(p, &target, 8);
  memcpy(p + 8, &len, 4);
  memcpy(p + 12, &field, 4);
  memcpy(p + NVM_UNDO_ENTRY_HEADER, data, len);
  memset(p + NVM_UNDO_ENTRY_HEADER + len, 0, NVM_PAD8(len) - len);
  return pos + NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
}

/* little helpers over the mapping */
static inline uint64_t nvm_ld64(const nvm_region *r, uint64_t off) {
  return *(const uint64_t *)(r->base + off);
}
static inline uint32_t nvm_ld32(const nvm_region *r, uint64_t off) {
  return *(const uint32_t *)(r->base + off);
}
static inline uint64_t nvm_page_off(uint64_t idx) {
  return (uint64_t)NVM_DATA_OFFSET + idx * NVM_PAGE_SIZE;
}
/* Is off the start of a page inside the data area? Sets *idx. */
static inline int nvm_is_page_off(const nvm_region *r, uint64_t off, uint64_t *idx) {
  if (off < NVM_DATA_OFFSET || off >= r->size || (off - NVM_DATA_OFFSET) % NVM_PAGE_SIZE) return 0;
  *idx = (off - NVM_DATA_OFFSET) / NVM_PAGE_SIZE;
  return *idx < r->page_count;
}

#endif /* NVM_INTERNAL_H */
/* Every feature bit this library knows; a region it creates has them all (region-format.md §11). */
#define NVM_FEATURES_ALL                                                                   \
  (NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS |            \
   NVM_FEATURE_SYMLINKS | NVM_FEATURE_REDO_LOG | NVM_FEATURE_WAL | NVM_FEATURE_SNAPSHOTS | \
   NVM_FEATURE_REDO_CHAIN)
