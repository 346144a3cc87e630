/*
 * nvmns_layout.h — the byte layout of an NVM namespace region.
 *
 * This header is the single source of truth for every offset and size of the
 * on-media format. docs/region-format.md describes the same numbers in prose;
 * the Java constants (RegionLayout.java) are checked against the table that
 * nvm_layout_table() exports from this list, and a test checks the doc table.
 * The facts derived from these numbers (regions in order, fields inside their
 * page, packing shifts, alignment) are compile-time checks in
 * src/layout_asserts.c. The error codes, batch ops and field ids are lists in
 * nvmns.h; page kinds and states are here (KIND_*, STATE_*).
 *
 * All multi-byte integers are little-endian. Every scalar field that a batch
 * may update in place (the page fields, the superblock counters) is an 8-byte
 * word at an 8-aligned offset, and so is UNDO_STATE, so that one atomic store
 * replaces it; wider ranges (name bytes, block records, a pair of words) are
 * written in place only by undo-logged batches. The u32 fields of the header
 * and of the undo record are only 4-aligned and are never updated in place:
 * the header is immutable after creation, and the undo record's u32s are
 * written and persisted before UNDO_STATE makes the record valid.
 */
#ifndef NVMNS_LAYOUT_H
#define NVMNS_LAYOUT_H

/* X(name, value): every layout constant, exported by nvm_layout_table(). */
#define NVM_LAYOUT_CONSTANTS(X)                                                                     \
  /* ---- region geometry ---- */                                                                   \
  X(FORMAT_VERSION, 2)                                                                              \
  X(PAGE_SIZE, 256)                                                                                 \
  X(HEADER_OFFSET, 0)                                                                               \
  X(HEADER_SIZE, 4096)                                                                              \
  X(SUPERBLOCK_OFFSET, 4096)                                                                        \
  X(SUPERBLOCK_SIZE, 4096)                                                                          \
  X(UNDO_OFFSET, 8192)                                                                              \
  X(UNDO_SIZE, 8192)                                                                                \
  X(DATA_OFFSET, 16384)                                                                             \
  X(MIN_REGION_SIZE, 1048576)                                                                       \
  /* ---- header (immutable after creation, CRC-32C protected) ---- */                              \
  X(HDR_MAGIC, 0)          /* u64 = REGION_MAGIC */                                                 \
  X(HDR_VERSION, 8)        /* u32 */                                                                \
  X(HDR_HEADER_SIZE, 12)   /* u32 */                                                                \
  X(HDR_REGION_SIZE, 16)   /* u64 */                                                                \
  X(HDR_PAGE_SIZE, 24)     /* u32 */                                                                \
  X(HDR_FLAGS, 28)         /* u32, 0 */                                                             \
  X(HDR_DATA_OFFSET, 32)   /* u64 */                                                                \
  X(HDR_PAGE_COUNT, 40)    /* u64 */                                                                \
  X(HDR_CREATION_ID, 48)   /* u64, random */                                                        \
  X(HDR_CREATION_TIME, 56) /* u64, ms since epoch */                                                \
  X(HDR_NAMESPACE_ID, 64)  /* u32 (HDFS namespaceID) */                                             \
  X(HDR_CLUSTER_ID, 72)    /* char[64], NUL padded */                                               \
  X(HDR_BLOCKPOOL_ID, 136) /* char[64], NUL padded */                                               \
  X(HDR_ID_STRING_MAX, 63)                                                                          \
  X(HDR_CRC, 248) /* u32 CRC-32C of bytes [0, 248) */                                               \
  X(HDR_CRC_COVERED, 248)                                                                           \
  /* ---- superblock: mutable 8-byte counters ---- */                                               \
  X(SB_MAGIC, 4096) /* u64 = SUPER_MAGIC */                                                         \
  X(SB_LAST_INODE_ID, 4104)                                                                         \
  X(SB_GENSTAMP_V1, 4112)                                                                           \
  X(SB_GENSTAMP_V2, 4120)                                                                           \
  X(SB_GENSTAMP_V1_LIMIT, 4128)                                                                     \
  X(SB_LAST_BLOCK_ID, 4136)                                                                         \
  X(SB_COMMIT_SEQ, 4144)                                                                            \
  X(SB_LAST_STRING_ID, 4152)                                                                        \
  X(SB_ROOT_PAGE, 4160)        /* offset of the root directory page, 0 = none */                    \
  X(SB_LAST_TXID, 4168)        /* NameNode transaction id high-water mark */                        \
  X(SB_SCAN_LIMIT, 4176)       /* u64: low 32 = page limit, high 32 = ~limit */                     \
  X(SB_FEATURES, 4184)         /* u64: low 32 = feature bits, high 32 = their complement */         \
  X(FEATURE_PAGE_CHECKSUMS, 1) /* LIVE pages carry a CRC-32C, counters a check */                   \
  X(FEATURE_RECORDS, 2)        /* record pages and the three counters below */                      \
  X(FEATURE_INODE_ATTRS, 4)    /* inode attribute chains: IN_ATTRS words and ATTR_EXT pages */      \
  X(FEATURE_SYMLINKS, 8)       /* symlink inode pages (KIND_SYMLINK) */                             \
  X(FEATURE_REDO_LOG, 16)      /* the undo area holds redo records (REDO_* below), not UNDO_* */    \
  X(SB_LAST_RECORD_ID, 4192)   /* last record id handed out (FEATURE_RECORDS) */                    \
  X(SB_TOKEN_SEQUENCE, 4200)   /* delegation token sequence number (FEATURE_RECORDS) */             \
  X(SB_MASTER_KEY_ID, 4208)    /* last delegation master key id (FEATURE_RECORDS) */                \
  X(SB_COUNTER_BITS, 48)       /* a counter's value bits; the 16 above are its check */             \
  X(FEATURE_WAL, 32)           /* the disk mode's write-ahead log: the SB_WAL_* words below */      \
  X(FEATURE_SNAPSHOTS, 64)     /* the DI_SNAPSHOT word of directory pages */                        \
  X(FEATURE_REDO_CHAIN, 128)   /* a redo record may keep its payload in chain pages */              \
  X(SB_WAL_EPOCH, 4216)        /* u64: low 32 = the log's epoch, high 32 = ~epoch; 0 = none */      \
  X(SB_WAL_CHECKPOINT, 4224)   /* u64: the LSN replay starts at; 0 = the region needs no log */     \
  X(SB_WAL_CHECK, 4232)        /* u64: CRC-32C of the two words above (low 32), 0 above */          \
  /* ---- undo log (one record, at most one transaction in flight) ---- */                          \
  X(UNDO_STATE, 8192)         /* u64: 0 = empty, else commit seq of the txn */                      \
  X(UNDO_ENTRY_COUNT, 8200)   /* u32 */                                                             \
  X(UNDO_PAYLOAD_BYTES, 8204) /* u32 */                                                             \
  X(UNDO_CRC, 8208)           /* u32 CRC-32C of the payload */                                      \
  X(UNDO_PAYLOAD, 8216)       /* entries: u64 target, u32 len, u32 field, data[len] padded to 8 */  \
  X(UNDO_ENTRY_HEADER, 16)                                                                          \
  X(UNDO_PAYLOAD_MAX, 8168) /* UNDO_SIZE - (UNDO_PAYLOAD - UNDO_OFFSET) */                          \
  /* ---- redo records (FEATURE_REDO_LOG): the undo area as two slots ---- */                       \
  X(REDO_SLOT0, 8192)       /* = UNDO_OFFSET; a big record (REDO_SPAN 2) starts here too */         \
  X(REDO_SLOT1, 12288)      /* REDO_SLOT0 + REDO_SLOT_SIZE */                                       \
  X(REDO_SLOT_SIZE, 4096)   /* the fields below are offsets inside a slot */                        \
  X(REDO_SEQ, 0)            /* u64: the group's commit seq (SB_COMMIT_SEQ it sets); 0 = empty */    \
  X(REDO_ENTRY_COUNT, 8)    /* u32 */                                                               \
  X(REDO_PAYLOAD_BYTES, 12) /* u32 */                                                               \
  X(REDO_SPAN, 16)          /* u32: 1 = one slot, 2 = the whole area (slot 0 only), 3 = chained */  \
  X(REDO_CRC, 20)     /* u32 CRC-32C of HDR_CREATION_ID, slot bytes [0, 20) and the payload */      \
  X(REDO_PAYLOAD, 24) /* entries: u64 target, u32 len, u32 field, new data[len] padded to 8 */      \
  X(REDO_SLOT_PAYLOAD_MAX, 4072) /* REDO_SLOT_SIZE - REDO_PAYLOAD */                                \
  X(REDO_BIG_PAYLOAD_MAX, 8168)  /* UNDO_SIZE - REDO_PAYLOAD: = UNDO_PAYLOAD_MAX */                 \
  X(REDO_CHAIN_FIRST, 24)        /* span 3: u64, the payload's first KIND_REDO_CHAIN page */        \
  X(REDO_CHAIN_PAGES, 32)        /* span 3: u64, how many chain pages hold it */                    \
  X(REDO_CHAIN_HEAD, 16)         /* span 3: slot bytes after REDO_PAYLOAD the CRC covers */         \
  X(RCH_NEXT, 8)                 /* chain page: u64, the next chain page, 0 = the last */           \
  X(RCH_PAYLOAD, 16)             /* chain page: the payload's next bytes */                         \
  X(RCH_PAYLOAD_MAX, 240)        /* PAGE_SIZE - RCH_PAYLOAD */                                      \
  /* ---- the write-ahead log file of the disk mode (a file of its own; region-format.md §12) ---- \
   */                                                                                               \
  X(WAL_HEADER_SIZE, 4096) /* the log header; the record area follows it */                         \
  X(WAL_VERSION, 1)                                                                                 \
  X(WH_MAGIC, 0)      /* u64 = WAL_MAGIC */                                                         \
  X(WH_VERSION, 8)    /* u32 = WAL_VERSION */                                                       \
  X(WH_REGION_ID, 16) /* u64: the region's HDR_CREATION_ID */                                       \
  X(WH_EPOCH, 24)     /* u32: random, new at every read-write open; seeds every record's CRC */     \
  X(WH_CAPACITY, 32)  /* u64: bytes of the record area, a multiple of 4096 */                       \
  X(WH_START_LSN, 40) /* u64: the epoch's first LSN */                                              \
  X(WH_CRC, 48)       /* u32 CRC-32C of bytes [0, 48) */                                            \
  X(WH_CRC_COVERED, 48)                                                                             \
  X(WAL_MIN_CAPACITY, 1048576) /* smallest record area */                                           \
  X(WR_MAGIC, 0)               /* u32 = WAL_RECORD_MAGIC */                                         \
  X(WR_CRC, 4)        /* u32 CRC-32C of WH_REGION_ID, WH_EPOCH, bytes [8, 40) and the payload */    \
  X(WR_LSN, 8)        /* u64: the record's place in the log stream; at WAL_HEADER_SIZE + LSN */     \
                      /* modulo the capacity in the file */                                         \
  X(WR_LEN, 16)       /* u32: the record's bytes, header included, a multiple of 8 */               \
  X(WR_TYPE, 20)      /* u32: WR_TYPE_* */                                                          \
  X(WR_SEQ, 24)       /* u64: the group's commit sequence (SB_COMMIT_SEQ it sets); pad: 0 */        \
  X(WR_COUNT, 32)     /* u32: entries in the payload */                                             \
  X(WR_RESERVED, 36)  /* u32, 0 */                                                                  \
  X(WR_PAYLOAD, 40)   /* entries: u64 target, u32 len, u32 field, new data[len] padded to 8 */      \
  X(WR_TYPE_GROUP, 1) /* a committed group: its entries, SB_COMMIT_SEQ := WR_SEQ last */            \
  X(WR_TYPE_PAD, 2)   /* no entries: the rest of the lap is skipped (covers only its header) */     \
  /* ---- page state word (offset 0 of every page) ---- */                                          \
  X(PG_STATE, 0) /* u64: magic<<32 | kind<<8 | state */                                             \
  X(STATE_MASK, 255)                                                                                \
  X(STATE_PENDING, 0) /* written, not committed (or never used) */                                  \
  X(STATE_LIVE, 1)                                                                                  \
  X(STATE_INVALID, 2) /* deleted / reclaimed */                                                     \
  X(KIND_SHIFT, 8)                                                                                  \
  X(KIND_DIR, 1)                                                                                    \
  X(KIND_FILE, 2)                                                                                   \
  X(KIND_NAME_EXT, 3)                                                                               \
  X(KIND_BLOCK_EXT, 4)                                                                              \
  X(KIND_STRING, 5)                                                                                 \
  X(KIND_STRING_EXT, 6)                                                                             \
  X(KIND_RECORD, 7)                                                                                 \
  X(KIND_RECORD_EXT, 8)                                                                             \
  X(KIND_ATTR_EXT, 9)    /* an inode's attributes (ACL entries, xattrs), FEATURE_INODE_ATTRS */     \
  X(KIND_SYMLINK, 10)    /* symlink inode, FEATURE_SYMLINKS */                                      \
  X(KIND_REDO_CHAIN, 11) /* part of a chained redo record; always INVALID */                        \
  X(PAGE_MAGIC_SHIFT, 32)                                                                           \
  /* ---- inode page (KIND_DIR, KIND_FILE) ---- */                                                  \
  X(IN_ID, 8)                                                                                       \
  X(IN_PARENT_PAGE, 16)                                                                             \
  X(IN_PARENT_ID, 24)                                                                               \
  X(IN_MTIME, 32)                                                                                   \
  X(IN_ATIME, 40)                                                                                   \
  X(IN_PERM, 48)        /* mode:16 | group:24 | owner:24 (bits 0..63) */                            \
  X(IN_NAME_LEN, 56)    /* u64, name length in bytes */                                             \
  X(IN_NAME_EXT, 64)    /* u64, first KIND_NAME_EXT page, 0 = none */                               \
  X(IN_NAME_INLINE, 72) /* first NAME_INLINE_MAX bytes of the name */                               \
  X(NAME_INLINE_MAX, 48)                                                                            \
  X(NAME_MAX, 65535)                                                                                \
  X(PERM_MODE_BITS, 16)                                                                             \
  X(PERM_GROUP_SHIFT, 16)                                                                           \
  X(PERM_OWNER_SHIFT, 40)                                                                           \
  X(PERM_STRING_ID_MAX, 16777215)                                                                   \
  X(IN_ATTRS, 248) /* attribute bytes:32 | first ATTR_EXT page index:32; 0 = no attributes */       \
  X(ATTRS_PAGE_SHIFT, 32)                                                                           \
  X(ATTRS_MAX, 16777216) /* longest attribute encoding the format stores, bytes */                  \
  /* file-only fields */                                                                            \
  X(FI_HEADER, 120) /* blocksize:48 | replication:12 | policy:4 */                                  \
  X(FI_UC, 128)     /* client id:31 | last block complete:1 | machine id:32 */                      \
  X(FI_BLOCK_COUNT, 136)                                                                            \
  X(FI_BLOCK_EXT, 144) /* first KIND_BLOCK_EXT page, 0 = none */                                    \
  X(FI_BLOCKS_INLINE, 152)                                                                          \
  X(BLOCKS_INLINE_MAX, 4)                                                                           \
  X(FI_HDR_REPLICATION_SHIFT, 48)                                                                   \
  X(FI_HDR_POLICY_SHIFT, 60)                                                                        \
  X(FI_UC_MACHINE_SHIFT, 32)                                                                        \
  X(FI_UC_LAST_COMPLETE_SHIFT, 31) /* set: the last block is complete, not under construction */    \
  /* symlink-only fields */                                                                         \
  X(SL_TARGET_LEN, 120)    /* u64, the link target's length in bytes (1..SYMLINK_TARGET_MAX) */     \
  X(SL_TARGET_EXT, 128)    /* u64, first NAME_EXT page of the target past the inline part */        \
  X(SL_TARGET_INLINE, 136) /* the first SYMLINK_TARGET_INLINE_MAX bytes of the target */            \
  X(SYMLINK_TARGET_INLINE_MAX, 112)                                                                 \
  X(SYMLINK_TARGET_MAX, 65535)                                                                      \
  /* block record */                                                                                \
  X(BLOCK_RECORD_SIZE, 24)                                                                          \
  X(BR_ID, 0)                                                                                       \
  X(BR_NUM_BYTES, 8)                                                                                \
  X(BR_GENSTAMP, 16)                                                                                \
  /* directory-only fields */                                                                       \
  X(DI_NS_QUOTA, 120)                                                                               \
  X(DI_DS_QUOTA, 128)                                                                               \
  X(DI_TYPE_QUOTA, 136) /* 4 x i64: RAM_DISK, SSD, DISK, ARCHIVE */                                 \
  X(DI_TYPE_QUOTA_COUNT, 4)                                                                         \
  X(DI_STORAGE_POLICY, 168) /* u64 storage policy id, 0 = unspecified */                            \
  X(DI_SNAPSHOT, 176)       /* u64, FEATURE_SNAPSHOTS: DI_SNAPSHOTTABLE | 0 (other bits 0) */       \
  X(DI_SNAPSHOTTABLE, 1)    /* snapshots allowed (SnapshotManager's snapshottable set) */           \
  /* ---- extension pages (KIND_NAME_EXT, KIND_BLOCK_EXT) ---- */                                   \
  X(EXT_OWNER_ID, 8)                                                                                \
  X(EXT_NEXT, 16)                                                                                   \
  X(EXT_COUNT, 24) /* name bytes / block records in this page */                                    \
  X(EXT_PAYLOAD, 32)                                                                                \
  X(NAME_EXT_MAX, 224)                                                                              \
  X(BLOCKS_EXT_MAX, 9)                                                                              \
  /* ---- string page (KIND_STRING) ---- */                                                         \
  X(ST_ID, 8)                                                                                       \
  X(ST_LEN, 16)                                                                                     \
  X(ST_BYTES, 24)                                                                                   \
  X(ST_EXT, 24) /* u64, first STRING_EXT page if ST_LEN > STRING_MAX */                             \
  X(STRING_MAX, 232)                                                                                \
  /* ---- record page (KIND_RECORD): NameNode state that is not an inode ---- */                    \
  X(RC_TYPE, 8) /* u64, RECORD_* */                                                                 \
  X(RC_ID, 16)  /* u64, unique in the region, never reused; owner id of its RECORD_EXT pages */     \
  X(RC_KEY, 24) /* u64, the record's key within its type (a token's sequence number, a key id) */   \
  X(RC_VALUE, 32) /* u64, the record's one mutable word (an expiry date) */                         \
  X(RC_LEN, 40)   /* u64, payload bytes */                                                          \
  X(RC_EXT, 48)   /* u64, first KIND_RECORD_EXT page if RC_LEN > RECORD_INLINE_MAX, 0 = none */     \
  X(RC_PAYLOAD, 56)                                                                                 \
  X(RECORD_INLINE_MAX, 200)                                                                         \
  X(RECORD_DELEGATION_TOKEN,                                                                        \
    1)                    /* payload: the token identifier; value: its expiry (renew) date */       \
  X(RECORD_MASTER_KEY, 2) /* payload: the encoded key; value: its expiry date */                    \
  X(RECORD_RETRY_LOG, 3)  /* key: ring page index; payload: RETRY_SLOTS retry entries */            \
  X(RECORD_CACHE_POOL, 4) /* key: 0; payload: the pool (CachePoolInfoProto), named in it */         \
  X(RECORD_CACHE_DIRECTIVE,                                                                         \
    5) /* key: the directive id; payload: the directive (CacheDirectiveInfoProto) */                \
  X(RECORD_CACHE_IDS, 6) /* key: 0; value: the next cache directive id; at most one */              \
  X(RECORD_TRUNCATE_BLOCK,                                                                          \
    7) /* key: a file's inode id; payload: its truncate block (id, bytes, genstamp) */              \
  X(RECORD_SNAPSHOT, 8)     /* key: snapshot id; value: its directory's inode id; payload: §13 */  \
  X(RECORD_SNAPSHOT_IDS, 9) /* key: 0; value: the snapshot counter; at most one */                  \
  X(RECORD_INODE_DIFFS, 10) /* key: an inode id; payload: its snapshot diffs (§13) */              \
  X(RECORD_INODE_REF, 11)   /* key: a renamed inode's id; value: its parent's id; payload: §13 */  \
  X(RECORD_DIFF_ENTRY, 12) /* key: a directory's inode id; value: a child's inode id; payload: its  \
                              diff entries (§13) */                                                \
  X(RECORD_DIFF, 13) /* key: an inode id; value: a snapshot id; payload: the inode's diff of that   \
                        snapshot (§13) */                                                          \
  /* ---- retry entry (RETRY_ENTRY_SIZE bytes in a RECORD_RETRY_LOG payload) ---- */                \
  X(RE_SEQ, 0)        /* u64, entry number (from 1, never reused); 0 = empty slot */                \
  X(RE_TIME, 8)       /* u64, ms: when the call completed */                                        \
  X(RE_CLIENT_ID, 16) /* u8[16], the RPC client id */                                               \
  X(RE_CALL_ID, 32)   /* i32, the RPC call id */                                                    \
  X(RE_KIND, 36)      /* u32, RETRY_* */                                                            \
  X(RE_INODE, 40)     /* u64, the file a create or append answered about, else 0 */                 \
  X(RETRY_ENTRY_SIZE, 48)                                                                           \
  X(RETRY_SLOTS, 4) /* entries per RECORD_RETRY_LOG page */                                         \
  X(RETRY_CLIENT_ID_LEN, 16)                                                                        \
  X(RETRY_SUCCESS, 1)         /* a call that succeeded; its retry gets the success */               \
  X(RETRY_CREATE, 2)          /* create: its retry gets RE_INODE's file status */                   \
  X(RETRY_APPEND, 3)          /* append: its retry gets RE_INODE's last block and file status */    \
  X(RETRY_CACHE_DIRECTIVE, 4) /* addCacheDirective: its retry gets RE_INODE as the directive id */  \
  X(RETRY_CREATE_SNAPSHOT, 5) /* createSnapshot: its retry gets snapshot RE_INODE's path */         \
  /* ---- well-known values ---- */                                                                 \
  X(ROOT_INODE_ID, 16385)

/* Values wider than an int live outside the X list (an enum holds ints);
 * nvm_layout_table() exports them too. */
#define NVM_REGION_MAGIC 0x314752534e4d564eULL /* bytes "NVMNSRG1" read as LE u64 */
#define NVM_SUPER_MAGIC 0x31525055534d564eULL  /* bytes "NVMSUPR1" read as LE u64 */
#define NVM_PAGE_MAGIC 0x504d564eULL           /* bytes "NVMP", top 32 bits of a state word */
#define NVM_MAX_PAGE_COUNT 4294967295ULL       /* page indexes fit in a u32 */
#define NVM_WAL_MAGIC 0x31304c41574d564eULL    /* bytes "NVMWAL01" read as LE u64 */
#define NVM_WAL_RECORD_MAGIC 0x4352564eU       /* bytes "NVRC" read as LE u32 */

#define NVM_X_ENUM(name, value) NVM_##name = (value),
enum nvm_layout_constant { NVM_LAYOUT_CONSTANTS(NVM_X_ENUM) NVM__LAYOUT_END };
#undef NVM_X_ENUM

/* Compose / decompose a page state word. */
#define NVM_STATE_WORD(kind, state)                                                            \
  ((NVM_PAGE_MAGIC << NVM_PAGE_MAGIC_SHIFT) | ((unsigned long long)(kind) << NVM_KIND_SHIFT) | \
   (unsigned long long)(state))
#define NVM_STATE_OF(word) ((unsigned)((word)&NVM_STATE_MASK))
#define NVM_KIND_OF(word) ((unsigned)(((word) >> NVM_KIND_SHIFT) & 0xff))
#define NVM_MAGIC_OF(word) ((unsigned long long)(word) >> NVM_PAGE_MAGIC_SHIFT)

#endif /* NVMNS_LAYOUT_H */
