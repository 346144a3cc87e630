/*
 * nvmns.h — libhdfsnvm: a persistent-memory region holding an HDFS namespace
 * as log-structured inode pages (see docs/region-format.md).
 *
 * Conventions (after PMDK libpmem):
 *  - every function that can fail returns an int error code (NVM_OK = 0) and
 *    leaves a human-readable message for the calling thread in nvm_errormsg();
 *  - flushing and draining are separate steps internally; every drain is a
 *    "persist barrier", counted, and the test-only crash hook fires on them;
 *  - nothing is written to a file that has not passed validation.
 *
 * Threading: one region handle may be used from several threads; mutations
 * (nvm_apply, nvm_stage, reservations, release) are serialised by a mutex inside
 * the handle, and commits (nvm_sync) by a second one, so one thread can stage
 * while another commits. Readers read nvm_region_view() directly; callers provide
 * the read/write exclusion (the NameNode's namesystem lock does).
 */
#ifndef NVMNS_H
#define NVMNS_H

#include <stddef.h>
#include <stdint.h>

#include "nvmns_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error codes ---- */
/*
 * X(name, value, meaning): every error code, the one list of them. C names them
 * NVM_<name>, NvmException.ErrorCode <name>; nvm_strerror() gives "NVM_<name>";
 * nvm_layout_table() exports "ERROR_<name>=value meaning" and FormatFactsTest
 * checks ErrorCode against it both ways; docs/region-format.md §10 lists them.
 * A meaning is one line of plain text (no '|', no backquote, no newline).
 */
#define NVM_ERRORS(X)                                                                       \
  X(OK, 0, "success")                                                                       \
  X(EIO, 1, "a system call failed; the message carries the errno text")                     \
  X(ENOTREGION, 2,                                                                          \
    "the file is not an NVM namespace region (bad magic, or too small for a header)")       \
  X(EVERSION, 3,                                                                            \
    "a region of another format version or geometry (header size, page size, data offset)") \
  X(ECORRUPT, 4, "a checksum mismatch or a broken structural invariant")                    \
  X(ETRUNCATED, 5, "the file is shorter than the region size in its header")                \
  X(EFULL, 6, "not enough free pages; the message has the used and total pages")            \
  X(EINVAL, 7, "a bad argument or a malformed mutation batch; nothing was written")         \
  X(EEXIST, 8, "create: the file already exists")                                           \
  X(EMODE, 9, "the requested persistence mode is not available for this file")              \
  X(ECRASHED, 10, "test hook: the simulated crash point was reached; the handle is dead")   \
  X(ETOOLONG, 11, "a name or string over the format's limit")                               \
  X(EBUSY, 12, "another process holds the region open (flock)")                             \
  X(ELOG, 13,                                                                               \
    "the write-ahead log the region needs is missing, of another region or epoch, or damaged")

#define NVM_X_ENUM(name, value, meaning) NVM_##name = (value),
enum nvm_error { NVM_ERRORS(NVM_X_ENUM) };
#undef NVM_X_ENUM

/* The message for the last error on this thread ("" if none). */
const char *nvm_errormsg(void);
/*
 * Where in the file the last error on this thread points: the absolute byte offset
 * of the field that failed validation (open and recovery: header, geometry,
 * superblock, redo slot or undo record, a page's state word, parent link, chain link, name or
 * string reference; docs/region-format.md §2 and §7.6), or of the page when the
 * page as a whole is bad; for a truncated file, its length (the first missing
 * byte). NVM_NO_OFFSET when the error has no place in the file (I/O, lock, bad
 * argument, a full region) or there was no error.
 */
#define NVM_NO_OFFSET ((int64_t)-1)
int64_t nvm_erroroffset(void);
/* A stable symbolic name for an error code, e.g. "NVM_EFULL". */
const char *nvm_strerror(int code);

/* ---- persistence modes ---- */
/*
 * X(name, value, config name): NVM_MODE_<name>; PersistMode in Java, whose
 * configuration value (dfs.namenode.nvm.persist.mode) is the config name;
 * nvm_mode_name() returns it; nvm_layout_table() exports "MODE_<name>=value
 * config name" and FormatFactsTest checks PersistMode against it both ways.
 *  AUTO      pmem if pmem_is_pmem(), emulated if that was forced, disk otherwise
 *  PMEM      cache-line flush + fence; requires pmem_is_pmem()
 *  EMULATED  cache-line flush + fence on a non-DAX file (e.g. tmpfs): survives a
 *            process crash, not a power loss
 *  DISK      an ordinary file system: a group commit is one append to the write-ahead
 *            log and one fdatasync; the region file is written lazily, after the log,
 *            and made durable by checkpoints (region-format.md §12). Survives a power
 *            loss. (Value 3 was "msync", which this mode replaced.)
 */
#define NVM_MODES(X)         \
  X(AUTO, 0, "auto")         \
  X(PMEM, 1, "pmem")         \
  X(EMULATED, 2, "emulated") \
  X(DISK, 3, "disk")

#define NVM_X_ENUM(name, value, config) NVM_MODE_##name = (value),
enum nvm_mode { NVM_MODES(NVM_X_ENUM) };
#undef NVM_X_ENUM
const char *nvm_mode_name(int mode); /* the config name: "auto", "pmem", "emulated", "disk" */

/* ---- region lifetime ---- */
typedef struct nvm_region nvm_region;

/* Identity written into the header at creation; compared by the NameNode. */
typedef struct nvm_identity {
  int32_t namespace_id;
  const char *cluster_id;   /* <= NVM_HDR_ID_STRING_MAX bytes, may be NULL */
  const char *blockpool_id; /* <= NVM_HDR_ID_STRING_MAX bytes, may be NULL */
} nvm_identity;

/*
 * Create a new region file of `size` bytes (rounded down to a whole number of
 * pages; >= NVM_MIN_REGION_SIZE). Fails with NVM_EEXIST if the file exists.
 * The magic is written and persisted last, so a crash during creation leaves
 * a file that open() refuses as NVM_ENOTREGION.
 */
int nvm_region_create(const char *path, uint64_t size, const nvm_identity *id, int mode,
                      nvm_region **out);

#define NVM_OPEN_READONLY 1u /* map read-only, shared lock, no recovery: for check/dump tools */

/*
 * Open and validate an existing region, then (unless READONLY) run recovery:
 * replay the valid redo records (in a region from before the redo log: roll back a
 * valid undo record, then upgrade), reclaim uncommitted and orphaned pages, and
 * build the list of live inodes (see nvm_recovered_inodes). Validation order:
 * size >= header, magic, version/page size, header CRC, file size vs header.
 * Nothing is written unless every check passes.
 */
int nvm_region_open(const char *path, int mode, unsigned flags, nvm_region **out);

/*
 * Options of a read-write open or a create; NULL, or a zero field, takes the default.
 * Only the disk mode reads them (region-format.md §12). A read-write open of a region
 * whose write-ahead log holds records the region lacks (a disk-mode region that was not
 * closed) replays that log in any mode, from log_path.
 */
typedef struct nvm_options {
  const char *log_path;      /* the write-ahead log file; NULL: "<region path>.wal" */
  uint64_t log_capacity;     /* bytes of its record area (0: NVM_DEFAULT_LOG_CAPACITY); rounded
                                down to 4 KiB, at least WAL_MIN_CAPACITY */
  uint64_t checkpoint_bytes; /* checkpoint once this much log was written since the last
                                checkpoint (0: a quarter of the capacity) */
  uint64_t checkpoint_ms;    /* and once the oldest record not in a checkpoint is this old
                                (0: NVM_DEFAULT_CHECKPOINT_MS) */
  uint32_t flags;            /* NVM_OPT_* */
} nvm_options;
#define NVM_DEFAULT_LOG_CAPACITY (128ull << 20)
#define NVM_DEFAULT_CHECKPOINT_MS 60000ull
/* No checkpoint thread: checkpoints only when the log is short of room, at close and by
 * nvm_checkpoint (tests that need every write in one thread). */
#define NVM_OPT_NO_CHECKPOINTER 1u

int nvm_region_create_with(const char *path, uint64_t size, const nvm_identity *id, int mode,
                           const nvm_options *opt, nvm_region **out);
int nvm_region_open_with(const char *path, int mode, unsigned flags, const nvm_options *opt,
                         nvm_region **out);

/* Disk mode: a checkpoint now (region-format.md §12): the region file made durable up to
 * everything committed, then SB_WAL_CHECKPOINT moved there. NVM_EINVAL in other modes. */
int nvm_checkpoint(nvm_region *r);

/* Disk mode: the write-ahead log's state and counters since the open. */
typedef struct nvm_log_stats {
  uint64_t capacity;       /* bytes of the record area */
  uint64_t used;           /* bytes between the checkpoint and the end of the log */
  uint64_t head;           /* LSN of the next record */
  uint64_t checkpoint;     /* LSN replay would start at */
  uint64_t records;        /* group records written */
  uint64_t syncs;          /* fdatasync calls of the log: one per group commit */
  uint64_t bytes;          /* bytes written to the log (records and pads) */
  uint64_t sync_ns;        /* time in those fdatasync calls */
  uint64_t checkpoints;    /* checkpoints taken */
  uint64_t checkpoint_ns;  /* time they took */
  uint64_t replayed;       /* records replayed at the open */
  uint64_t replayed_bytes; /* their bytes */
} nvm_log_stats;
int nvm_log_stats_get(const nvm_region *r, nvm_log_stats *out);
/* The write-ahead log's path in disk mode, else NULL. */
const char *nvm_region_log_path(const nvm_region *r);

/* Unmap and free. Returns NVM_OK or NVM_EIO. `r` is invalid afterwards. Batches still
 * staged (nvm_stage) are discarded, as a crash would: nvm_sync first to keep them. */
int nvm_region_close(nvm_region *r);

/* ---- accessors ---- */
uint8_t *nvm_region_base(const nvm_region *r); /* start of the mapping (the media) */
/* What readers read: the working copy of a writable region (staged batches included),
 * else the mapping itself. */
const uint8_t *nvm_region_view(const nvm_region *r);
uint64_t nvm_region_size(const nvm_region *r);
int nvm_region_mode(const nvm_region *r);    /* resolved mode, never AUTO */
int nvm_region_is_pmem(const nvm_region *r); /* what pmem_map_file reported */
int nvm_region_readonly(const nvm_region *r);
uint64_t nvm_region_page_count(const nvm_region *r);

typedef struct nvm_usage {
  uint64_t pages_total;
  uint64_t pages_used;     /* committed pages: live inode, extension, string, record pages */
  uint64_t pages_free;     /* total - used - reserved */
  uint64_t pages_reserved; /* handed out by nvm_reserve_pages, not yet committed or released */
  uint64_t high_water;     /* pages at index >= high_water have never been used */
} nvm_usage;
void nvm_region_usage(const nvm_region *r, nvm_usage *out);

/* ---- allocation (application level; no system call per page) ---- */

/*
 * Reserve n free pages; their offsets are written to offs[0..n). Reused
 * (invalidated) pages come first, then never-used pages. All or nothing:
 * NVM_EFULL ("region full: U of T pages in use, N requested") if fewer than
 * n are free. A reserved page may be the target of FRESH writes (below).
 */
int nvm_reserve_pages(nvm_region *r, uint32_t n, uint64_t *offs);
/* Give back reserved pages that were not used. */
int nvm_release_pages(nvm_region *r, uint32_t n, const uint64_t *offs);

/* ---- mutation batches: the only way to write ---- */
/*
 * A batch is a byte buffer (8-byte aligned, native little-endian):
 *   u32 entry_count; u32 reserved (0);
 *   entry_count times:
 *     u32 op; u32 field_id; u64 target; u32 length; u32 reserved (0);
 *     u8 data[length]; zero padding to a multiple of 8
 * op:
 *   NVM_OP_FRESH   write data into a reserved page that is not live (a new page
 *                  or the unused tail of one); needs no undo. target..target+length
 *                  must lie inside one reserved page. After the batch the page
 *                  counts as used (it is no longer reserved).
 *   NVM_OP_INPLACE overwrite live bytes (a page field or a superblock counter).
 *                  The range must lie inside one page or inside the superblock;
 *                  8-byte fields must be 8-byte aligned.
 *   NVM_OP_FREE    after the batch committed, mark page `target` INVALID on media
 *                  and return it to the free list (length 0). Used for pages made
 *                  unreachable by this batch (a deleted subtree, a replaced
 *                  extension chain).
 * field_id identifies the logical field for the log record and the checker
 * (enum nvm_field); it does not change how the bytes are written.
 *
 * Persist order (docs/region-format.md §7.3, the redo log):
 *  - all FRESH data is written and flushed first (and drained, if a page is
 *    written LIVE in it);
 *  - one redo record with the final bytes of every INPLACE range, the seals of
 *    the pages they change and SB_COMMIT_SEQ := new seq, flushed; ONE drain:
 *    the commit point;
 *  - the INPLACE bytes stored and flushed, no drain: the next commit's barrier
 *    (or close) makes them durable, recovery replays the record until then;
 *  - FREE pages: state word := INVALID, flushed, no drain; onto the free list
 *    two commits later.
 * The batch is validated completely before the first store; on NVM_EINVAL
 * nothing was written. Returns NVM_ECRASHED if the test crash hook fired.
 */
/*
 * X(name, value, meaning): the batch ops (NVM_OP_<name>; MutationBatch.Op in
 * Java) and the logical field ids (NVM_F_<name>; Field in Java), exported by
 * nvm_layout_table() as "OP_<name>=value meaning" and "FIELD_<name>=value
 * meaning", with BATCH_HEADER and BATCH_ENTRY_HEADER; FormatFactsTest checks
 * the Java side against them both ways, docs/region-format.md §4 and §10 list them.
 */
#define NVM_OPS(X)                                                                               \
  X(FRESH, 1, "write data into a reserved page that is not live; needs no undo")                 \
  X(INPLACE, 2, "overwrite bytes in place, inside one page or the writable superblock counters") \
  X(FREE, 3, "after the commit, mark a page INVALID and return it to the free list")

#define NVM_FIELDS(X)                                                        \
  X(NONE, 0, "no field named")                                               \
  X(PAGE, 1, "a whole page")                                                 \
  X(STATE, 2, "a page state word")                                           \
  X(PARENT, 3, "parent page and parent id")                                  \
  X(MTIME, 4, "modification time")                                           \
  X(ATIME, 5, "access time")                                                 \
  X(PERM, 6, "the permission word (mode, group, owner)")                     \
  X(NAME, 7, "name length, name extension link and inline name bytes")       \
  X(FILE_HEADER, 8, "a file's header word, or a directory's storage policy") \
  X(UC, 9, "a file's under-construction word")                               \
  X(BLOCK_COUNT, 10, "a file's block count")                                 \
  X(BLOCK, 11, "a block record or part of one")                              \
  X(EXT_LINK, 12, "a link to the first or next extension page")              \
  X(QUOTA, 13, "a directory quota")                                          \
  X(COUNTER, 14, "a superblock counter")                                     \
  X(STRING, 15, "a string page field")                                       \
  X(RECORD, 16, "a record page field")                                       \
  X(ATTRS, 17, "an inode's attribute word (length and first ATTR_EXT page)")

#define NVM_X_ENUM(name, value, meaning) NVM_OP_##name = (value),
enum nvm_op { NVM_OPS(NVM_X_ENUM) };
#undef NVM_X_ENUM
#define NVM_X_ENUM(name, value, meaning) NVM_F_##name = (value),
enum nvm_field { NVM_FIELDS(NVM_X_ENUM) };
#undef NVM_X_ENUM

#define NVM_BATCH_HEADER 8        /* u32 entry_count, u32 reserved */
#define NVM_BATCH_ENTRY_HEADER 24 /* u32 op, u32 field_id, u64 target, u32 length, u32 reserved */

int nvm_apply(nvm_region *r, const void *batch, size_t batch_len);

/*
 * Group commit (docs/region-format.md §7.7). nvm_apply is nvm_stage followed by
 * nvm_sync. Staging validates a batch exactly as nvm_apply does and applies it to the
 * region's working copy: a private copy-on-write mapping of the region that
 * nvm_region_view() returns and readers read; it writes nothing to the region's media
 * and issues no flush or barrier. *seq is the batch's place in staging order (1, 2, ...
 * since open).
 *
 * nvm_sync commits every batch staged before it was called, in staging order, grouped:
 * one group's batches as one commit (the persist order above, over the union of their
 * entries: one redo record), as many groups as a record slot's size needs. A crash
 * leaves a prefix of the staged batches in the region, ending at a group's end. One
 * thread commits at a time; a caller whose batches another caller committed meanwhile
 * returns without a barrier. *durable is the last staged batch now in the region.
 * If a commit fails the handle fails for good (NVM_EIO or NVM_ECRASHED from every later
 * stage and sync): the working copy is ahead of the region and cannot be trusted.
 */
int nvm_stage(nvm_region *r, const void *batch, size_t batch_len, uint64_t *seq);
int nvm_sync(nvm_region *r, uint64_t *durable);
/* The same for the staged batches up to sequence number up_to only (the others stay
 * staged): an HA NameNode commits what the journal quorum has acknowledged. */
int nvm_sync_upto(nvm_region *r, uint64_t up_to, uint64_t *durable);
uint64_t nvm_durable_seq(const nvm_region *r); /* without a lock: the last committed batch */

/* ---- recovery results (filled by nvm_region_open unless READONLY) ---- */
typedef struct nvm_recovery {
  uint64_t elapsed_ns;
  uint64_t pages_scanned;
  uint64_t inodes_live; /* attached to the tree, including the root */
  uint64_t strings_live;
  uint64_t undo_rolled_back;  /* 1 if a log record was applied: redo records replayed, or
                                 (a region from before the redo log) an undo record rolled back */
  uint64_t undo_entries;      /* entries stored from it */
  uint64_t pending_discarded; /* written but never committed pages */
  uint64_t orphans_reclaimed; /* live inode pages not reachable from the root */
  uint64_t ext_reclaimed;     /* extension pages not reachable from a live inode */
  uint64_t strings_reclaimed; /* string pages no live inode refers to */
  uint64_t log_records;       /* write-ahead log records replayed (region-format.md §12.5) */
  uint64_t log_bytes;         /* their bytes */
  uint64_t log_entries;       /* the entries stored from them */
} nvm_recovery;
void nvm_recovery_report(const nvm_region *r, nvm_recovery *out);

/* Live inode page offsets: the directories breadth first from the root (so a
 * directory comes after its parent), then the files in page order (after every
 * directory; a directory's files are not contiguous). The array belongs to the
 * handle. */
const uint64_t *nvm_recovered_inodes(const nvm_region *r, uint64_t *count);
/* Live string page offsets, in id order. */
const uint64_t *nvm_recovered_strings(const nvm_region *r, uint64_t *count);
/* Parallel to nvm_recovered_strings: how many references (owner, group, client
 * name, client machine of live inodes) each string has; every kept string has
 * at least one. */
const uint64_t *nvm_recovered_string_refs(const nvm_region *r, uint64_t *count);
/* Live record page offsets (region-format.md §5.5), in page order; each record's
 * RECORD_EXT chain was verified. */
const uint64_t *nvm_recovered_records(const nvm_region *r, uint64_t *count);

/* ---- persist barriers and the test-only crash hook ---- */
uint64_t nvm_barrier_count(const nvm_region *r);
/*
 * Test only. Arm a simulated crash at the n-th persist barrier from now
 * (n >= 1). When that barrier is reached, instead of draining, the library
 * writes two region images and kills the handle (every later call that would
 * write returns NVM_ECRASHED):
 *   <prefix>.lost    — only stores covered by barriers that completed
 *                      (everything after the last completed barrier is lost);
 *   <prefix>.present — every store issued so far (as if all had reached media).
 * Keeps a shadow copy of the region while armed (memory = region size).
 * n == 0 disarms.
 */
int nvm_debug_crash_at(nvm_region *r, uint64_t n, const char *snapshot_prefix);
/*
 * Test only. Capture mode: at EVERY persist barrier from now on, write the
 * images a crash at that barrier could leave, <prefix>.<k>.lost and
 * <prefix>.<k>.present (k = 1, 2, ... counted from arming) and, when more than
 * one cache line was flushed since the previous barrier (of more than 64 lines, 64 spread evenly
 * over them), <prefix>.<k>.line<j>-only (only line j of them reached media) and
 * <prefix>.<k>.line<j>-missing (all but line j did); then complete the
 * barrier normally; nothing crashes. After each successful nvm_apply it also
 * writes <prefix>.<k>.applied, the state after that whole batch (k = the
 * batch's last captured barrier): the consistent states a crash may return
 * to. A NULL prefix disarms. *captured (may be
 * NULL) receives the number of barriers captured since the last arming, read
 * before this call changes anything. Refused while a crash is armed.
 */
int nvm_debug_capture(nvm_region *r, const char *snapshot_prefix, uint64_t *captured);
int nvm_debug_crashed(const nvm_region *r);
/*
 * Test only, disk mode: the power-loss model (region-format.md §12.7). From now on, at every
 * sync point (an fdatasync of the write-ahead log, an msync or fdatasync of the region file)
 * write the states a power loss during it could leave, as image pairs <prefix>.<k>.<variant>
 * (the region) and <prefix>.<k>.<variant>.wal (its log), k = 1, 2, ... counted from arming (of
 * the cases that vary one log sector or one region page, up to `sample` of each kind, evenly
 * spread; 0: 16), then let the sync complete; after every group commit <prefix>.<k>.applied, the
 * region as the commit left it (needing no log): a consistent state. Arming takes a checkpoint. A
 * NULL prefix disarms. *captured (may be NULL): sync points captured since the arming, read before
 * this call changes anything. NVM_EIO if writing an image failed since the arming.
 */
int nvm_debug_powerloss(nvm_region *r, const char *prefix, unsigned sample, uint64_t *captured);
/* Test only: the sync points captured since the power-loss model was armed (0 if it is not). */
uint64_t nvm_debug_powerloss_points(nvm_region *r);

/* ---- layout export ---- */
/* One line per format fact, static storage: "NAME=value\n" for every layout
 * constant and magic, BATCH_HEADER and BATCH_ENTRY_HEADER, and
 * "PREFIX_NAME=value meaning\n" for every entry of NVM_ERRORS (ERROR_),
 * NVM_OPS (OP_) and NVM_FIELDS (FIELD_), and "MODE_NAME=value config name\n"
 * for every entry of NVM_MODES. */
const char *nvm_layout_table(void);
const char *nvm_version_string(void); /* library + libpmem versions */

/* ---- CRC-32C (Castagnoli), as used for the header and the log records ---- */
uint32_t nvm_crc32c(uint32_t crc, const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* NVMNS_H */
