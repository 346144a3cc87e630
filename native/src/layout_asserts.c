/*
 * layout_asserts.c — compile-time checks of the facts that follow from the
 * numbers in nvmns_layout.h and nvmns.h and that the code (C and Java) relies
 * on. Nothing here runs; a change to a number that breaks one of them stops
 * the build. The numbers themselves are checked against Java and the doc by
 * RegionLayoutTest, FormatFactsTest and RegionFormatDocTest.
 */
#include "nvmns.h"

#define NVM_ALIGNED8(x) ((x) % 8 == 0)

/* ---- region geometry: header, superblock, undo record, pages, in this order ---- */
_Static_assert(NVM_HEADER_OFFSET == 0, "the header starts the file");
_Static_assert(NVM_SUPERBLOCK_OFFSET == NVM_HEADER_OFFSET + NVM_HEADER_SIZE,
               "the superblock follows the header");
_Static_assert(NVM_UNDO_OFFSET == NVM_SUPERBLOCK_OFFSET + NVM_SUPERBLOCK_SIZE,
               "the undo record follows the superblock");
_Static_assert(NVM_DATA_OFFSET == NVM_UNDO_OFFSET + NVM_UNDO_SIZE,
               "the pages follow the undo record");
_Static_assert(NVM_DATA_OFFSET > 0, "offset 0 never names a page, so 0 can mean none");
_Static_assert(NVM_PAGE_SIZE % 64 == 0 && NVM_DATA_OFFSET % NVM_PAGE_SIZE == 0,
               "pages are whole cache lines: committing a page writes back PAGE_SIZE/64 lines");
_Static_assert(NVM_MIN_REGION_SIZE >= NVM_DATA_OFFSET + NVM_PAGE_SIZE,
               "the smallest region holds a page");
_Static_assert(NVM_MAX_PAGE_COUNT == 0xffffffffULL,
               "page indexes are u32 in DRAM and in SB_SCAN_LIMIT's halves");

/* ---- header: fields in order, none past the CRC-covered bytes ---- */
_Static_assert(NVM_HDR_MAGIC == 0 && NVM_HDR_VERSION == NVM_HDR_MAGIC + 8,
               "header: magic (u64), then version");
_Static_assert(NVM_HDR_HEADER_SIZE == NVM_HDR_VERSION + 4,
               "header: version (u32), then header size");
_Static_assert(NVM_HDR_REGION_SIZE == NVM_HDR_HEADER_SIZE + 4,
               "header: header size (u32), then region size");
_Static_assert(NVM_HDR_PAGE_SIZE == NVM_HDR_REGION_SIZE + 8,
               "header: region size (u64), then page size");
_Static_assert(NVM_HDR_FLAGS == NVM_HDR_PAGE_SIZE + 4, "header: page size (u32), then flags");
_Static_assert(NVM_HDR_DATA_OFFSET == NVM_HDR_FLAGS + 4, "header: flags (u32), then data offset");
_Static_assert(NVM_HDR_PAGE_COUNT == NVM_HDR_DATA_OFFSET + 8,
               "header: data offset (u64), then page count");
_Static_assert(NVM_HDR_CREATION_ID == NVM_HDR_PAGE_COUNT + 8,
               "header: page count (u64), then creation id");
_Static_assert(NVM_HDR_CREATION_TIME == NVM_HDR_CREATION_ID + 8,
               "header: creation id (u64), then creation time");
_Static_assert(NVM_HDR_NAMESPACE_ID == NVM_HDR_CREATION_TIME + 8,
               "header: creation time (u64), then namespace id");
_Static_assert(NVM_HDR_CLUSTER_ID >= NVM_HDR_NAMESPACE_ID + 4,
               "header: namespace id (u32), then cluster id");
_Static_assert(NVM_HDR_BLOCKPOOL_ID >= NVM_HDR_CLUSTER_ID + NVM_HDR_ID_STRING_MAX + 1,
               "header: the cluster id and its NUL end before the block pool id");
_Static_assert(NVM_HDR_CRC >= NVM_HDR_BLOCKPOOL_ID + NVM_HDR_ID_STRING_MAX + 1,
               "header: the block pool id and its NUL end before the CRC");
_Static_assert(NVM_HDR_CRC == NVM_HDR_CRC_COVERED, "the CRC covers every header byte before it");
_Static_assert(NVM_HDR_CRC + 4 <= NVM_HEADER_SIZE, "the CRC (u32) lies inside the header");

/* ---- superblock: u64 counters; a batch may write [SB_LAST_INODE_ID, SB_LAST_TXID + 8)
 * except SB_COMMIT_SEQ (nvm_sb_counter_range); the magic and the scan limit lie outside ---- */
_Static_assert(NVM_SB_MAGIC == NVM_SUPERBLOCK_OFFSET, "the superblock starts with its magic");
_Static_assert(NVM_SB_LAST_INODE_ID == NVM_SB_MAGIC + 8, "the counters follow the magic");
_Static_assert(NVM_SB_GENSTAMP_V1 == NVM_SB_LAST_INODE_ID + 8 &&
                   NVM_SB_GENSTAMP_V2 == NVM_SB_GENSTAMP_V1 + 8 &&
                   NVM_SB_GENSTAMP_V1_LIMIT == NVM_SB_GENSTAMP_V2 + 8 &&
                   NVM_SB_LAST_BLOCK_ID == NVM_SB_GENSTAMP_V1_LIMIT + 8 &&
                   NVM_SB_COMMIT_SEQ == NVM_SB_LAST_BLOCK_ID + 8 &&
                   NVM_SB_LAST_STRING_ID == NVM_SB_COMMIT_SEQ + 8 &&
                   NVM_SB_ROOT_PAGE == NVM_SB_LAST_STRING_ID + 8 &&
                   NVM_SB_LAST_TXID == NVM_SB_ROOT_PAGE + 8,
               "the superblock counters are consecutive u64 words");
_Static_assert(NVM_SB_SCAN_LIMIT >= NVM_SB_LAST_TXID + 8,
               "the scan limit lies outside the batch-writable counters");
_Static_assert(NVM_SB_SCAN_LIMIT + 8 <= NVM_SUPERBLOCK_OFFSET + NVM_SUPERBLOCK_SIZE,
               "the scan limit lies in the superblock");
_Static_assert(NVM_SB_FEATURES == NVM_SB_SCAN_LIMIT + 8 && NVM_ALIGNED8(NVM_SB_FEATURES) &&
                   NVM_SB_FEATURES + 8 <= NVM_SUPERBLOCK_OFFSET + NVM_SUPERBLOCK_SIZE,
               "the feature word follows the scan limit inside the superblock");
_Static_assert(NVM_SB_LAST_RECORD_ID == NVM_SB_FEATURES + 8 &&
                   NVM_SB_TOKEN_SEQUENCE == NVM_SB_LAST_RECORD_ID + 8 &&
                   NVM_SB_MASTER_KEY_ID == NVM_SB_TOKEN_SEQUENCE + 8 &&
                   NVM_SB_MASTER_KEY_ID + 8 <= NVM_SUPERBLOCK_OFFSET + NVM_SUPERBLOCK_SIZE,
               "the record counters are consecutive u64 words after the feature word");
_Static_assert((NVM_FEATURE_PAGE_CHECKSUMS & NVM_FEATURE_RECORDS) == 0 &&
                   ((NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS) & NVM_FEATURE_INODE_ATTRS) ==
                       0 &&
                   ((NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS) &
                    NVM_FEATURE_SYMLINKS) == 0 &&
                   ((NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS |
                     NVM_FEATURE_SYMLINKS) &
                    NVM_FEATURE_REDO_LOG) == 0 &&
                   ((NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS |
                     NVM_FEATURE_SYMLINKS | NVM_FEATURE_REDO_LOG) &
                    NVM_FEATURE_WAL) == 0 &&
                   ((NVM_FEATURE_PAGE_CHECKSUMS | NVM_FEATURE_RECORDS | NVM_FEATURE_INODE_ATTRS |
                     NVM_FEATURE_SYMLINKS | NVM_FEATURE_REDO_LOG | NVM_FEATURE_WAL) &
                    NVM_FEATURE_SNAPSHOTS) == 0,
               "feature bits are distinct");
_Static_assert(NVM_SB_COUNTER_BITS + 16 == 64,
               "a counter word is its value and a 16-bit check (region-format.md §11)");
_Static_assert(NVM_PAGE_MAGIC_SHIFT == 32 && NVM_KIND_SHIFT + 8 <= 16,
               "a LIVE page's checksum takes the top half of its state word; state and kind the "
               "low 16 bits");

/* ---- undo record ---- */
_Static_assert(NVM_UNDO_STATE == NVM_UNDO_OFFSET, "the undo record starts with its state word");
_Static_assert(NVM_UNDO_ENTRY_COUNT == NVM_UNDO_STATE + 8 &&
                   NVM_UNDO_PAYLOAD_BYTES == NVM_UNDO_ENTRY_COUNT + 4 &&
                   NVM_UNDO_CRC == NVM_UNDO_PAYLOAD_BYTES + 4 &&
                   NVM_UNDO_PAYLOAD >= NVM_UNDO_CRC + 4,
               "undo record: state (u64), entry count, payload bytes, CRC (u32 each), payload");
_Static_assert(NVM_UNDO_PAYLOAD_MAX == NVM_UNDO_SIZE - (NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET),
               "UNDO_PAYLOAD_MAX is the rest of the undo area");
_Static_assert(NVM_UNDO_ENTRY_HEADER == 8 + 4 + 4,
               "undo entry: u64 target, u32 length, u32 field id (undo_put)");
_Static_assert(NVM_UNDO_PAYLOAD_MAX >=
                   (NVM_UNDO_ENTRY_HEADER + NVM_PAGE_SIZE) + (NVM_UNDO_ENTRY_HEADER + 8),
               "one INPLACE entry of a whole page plus SB_COMMIT_SEQ fits the undo record");

/* ---- redo records (FEATURE_REDO_LOG; region-format.md §4.1) ---- */
_Static_assert(NVM_REDO_SLOT0 == NVM_UNDO_OFFSET &&
                   NVM_REDO_SLOT1 == NVM_REDO_SLOT0 + NVM_REDO_SLOT_SIZE &&
                   NVM_REDO_SLOT1 + NVM_REDO_SLOT_SIZE == NVM_UNDO_OFFSET + NVM_UNDO_SIZE,
               "the two redo slots split the undo area in halves");
_Static_assert(NVM_REDO_SEQ == 0 && NVM_REDO_ENTRY_COUNT == 8 && NVM_REDO_PAYLOAD_BYTES == 12 &&
                   NVM_REDO_SPAN == 16 && NVM_REDO_CRC == 20 && NVM_REDO_PAYLOAD == 24,
               "redo record: seq (u64), entry count, payload bytes, span, CRC (u32 each), payload");
_Static_assert(NVM_REDO_SLOT_PAYLOAD_MAX == NVM_REDO_SLOT_SIZE - NVM_REDO_PAYLOAD &&
                   NVM_REDO_BIG_PAYLOAD_MAX == NVM_UNDO_SIZE - NVM_REDO_PAYLOAD,
               "a slot record fills its slot, a big record the whole area");
_Static_assert(NVM_REDO_BIG_PAYLOAD_MAX == NVM_UNDO_PAYLOAD_MAX,
               "a big redo record holds every batch an undo record held: nothing accepted before "
               "is refused");
_Static_assert(NVM_ALIGNED8(NVM_REDO_SLOT0 + NVM_REDO_SEQ) &&
                   NVM_ALIGNED8(NVM_REDO_SLOT1 + NVM_REDO_SEQ) && NVM_ALIGNED8(NVM_REDO_PAYLOAD),
               "a slot's seq is one atomic word (zeroed to empty the slot); entries are 8-aligned");

/* ---- batch format (nvmns.h; MutationBatch.java) ---- */
_Static_assert(NVM_BATCH_HEADER == 4 + 4, "batch header: u32 entry count, u32 reserved");
_Static_assert(
    NVM_BATCH_ENTRY_HEADER == 4 + 4 + 8 + 4 + 4,
    "batch entry: u32 op, u32 field id, u64 target, u32 length, u32 reserved (txn.c parse)");

/* ---- the true alignment invariant: every field a batch may update in place (a
 * page field, a superblock counter) is an 8-byte word at an 8-aligned offset, so
 * a single-field update is one atomic store (region-format.md §7.2). The u32s of
 * the header (immutable) and of the undo record (persisted before UNDO_STATE
 * publishes it) are not updated in place and need only 4-byte alignment. ---- */
_Static_assert(NVM_ALIGNED8(NVM_DATA_OFFSET) && NVM_ALIGNED8(NVM_PAGE_SIZE),
               "every page starts 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_SB_LAST_INODE_ID) && NVM_ALIGNED8(NVM_SB_LAST_TXID) &&
                   NVM_ALIGNED8(NVM_SB_COMMIT_SEQ) && NVM_ALIGNED8(NVM_SB_SCAN_LIMIT),
               "superblock words are 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_UNDO_STATE),
               "UNDO_STATE, the record's valid flag, is one atomic 8-byte store");
_Static_assert(NVM_ALIGNED8(NVM_UNDO_PAYLOAD) && NVM_ALIGNED8(NVM_UNDO_ENTRY_HEADER),
               "undo entries are 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_PG_STATE) && NVM_ALIGNED8(NVM_IN_ID) &&
                   NVM_ALIGNED8(NVM_IN_PARENT_PAGE) && NVM_ALIGNED8(NVM_IN_PARENT_ID) &&
                   NVM_ALIGNED8(NVM_IN_MTIME) && NVM_ALIGNED8(NVM_IN_ATIME) &&
                   NVM_ALIGNED8(NVM_IN_PERM) && NVM_ALIGNED8(NVM_IN_NAME_LEN) &&
                   NVM_ALIGNED8(NVM_IN_NAME_EXT),
               "inode page words are 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_FI_HEADER) && NVM_ALIGNED8(NVM_FI_UC) &&
                   NVM_ALIGNED8(NVM_FI_BLOCK_COUNT) && NVM_ALIGNED8(NVM_FI_BLOCK_EXT) &&
                   NVM_ALIGNED8(NVM_FI_BLOCKS_INLINE),
               "file page words are 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_BLOCK_RECORD_SIZE) && NVM_ALIGNED8(NVM_BR_ID) &&
                   NVM_ALIGNED8(NVM_BR_NUM_BYTES) && NVM_ALIGNED8(NVM_BR_GENSTAMP),
               "block record words are 8-aligned in every record");
_Static_assert(NVM_ALIGNED8(NVM_DI_NS_QUOTA) && NVM_ALIGNED8(NVM_DI_DS_QUOTA) &&
                   NVM_ALIGNED8(NVM_DI_TYPE_QUOTA) && NVM_ALIGNED8(NVM_DI_STORAGE_POLICY) &&
                   NVM_ALIGNED8(NVM_DI_SNAPSHOT),
               "directory page words are 8-aligned");
_Static_assert(NVM_ALIGNED8(NVM_EXT_OWNER_ID) && NVM_ALIGNED8(NVM_EXT_NEXT) &&
                   NVM_ALIGNED8(NVM_EXT_COUNT) && NVM_ALIGNED8(NVM_EXT_PAYLOAD),
               "extension page words are 8-aligned (EXT_NEXT is a commit link)");
_Static_assert(NVM_ALIGNED8(NVM_ST_ID) && NVM_ALIGNED8(NVM_ST_LEN),
               "string page words are 8-aligned");

/* ---- page state word: magic << 32 | kind << 8 | state ---- */
_Static_assert(NVM_PG_STATE == 0, "the state word is the first word of every page");
_Static_assert(NVM_STATE_MASK == (1 << NVM_KIND_SHIFT) - 1, "the state is the bits below the kind");
_Static_assert(NVM_STATE_PENDING == 0, "an all-zero page reads as PENDING (never used)");
_Static_assert(NVM_STATE_LIVE <= NVM_STATE_MASK && NVM_STATE_INVALID <= NVM_STATE_MASK,
               "states fit their bits");
_Static_assert(NVM_KIND_SHIFT + 8 <= NVM_PAGE_MAGIC_SHIFT,
               "the kind byte (NVM_KIND_OF) lies below the magic");
_Static_assert(NVM_PAGE_MAGIC_SHIFT == 32 && NVM_PAGE_MAGIC <= 0xffffffffULL,
               "the page magic fills the top 32 bits");
_Static_assert(NVM_KIND_DIR > 0 && NVM_KIND_FILE > 0 && NVM_KIND_NAME_EXT > 0 &&
                   NVM_KIND_BLOCK_EXT > 0 && NVM_KIND_STRING > 0 && NVM_KIND_STRING_EXT > 0 &&
                   NVM_KIND_DIR <= 0xff && NVM_KIND_FILE <= 0xff && NVM_KIND_NAME_EXT <= 0xff &&
                   NVM_KIND_BLOCK_EXT <= 0xff && NVM_KIND_STRING <= 0xff &&
                   NVM_KIND_STRING_EXT <= 0xff,
               "page kinds are non-zero and fit the kind byte");

/* ---- inode page ---- */
_Static_assert(
    NVM_IN_ID == NVM_PG_STATE + 8 && NVM_IN_PARENT_PAGE == NVM_IN_ID + 8 &&
        NVM_IN_PARENT_ID == NVM_IN_PARENT_PAGE + 8 && NVM_IN_MTIME == NVM_IN_PARENT_ID + 8 &&
        NVM_IN_ATIME == NVM_IN_MTIME + 8 && NVM_IN_PERM == NVM_IN_ATIME + 8 &&
        NVM_IN_NAME_LEN == NVM_IN_PERM + 8 && NVM_IN_NAME_EXT == NVM_IN_NAME_LEN + 8 &&
        NVM_IN_NAME_INLINE == NVM_IN_NAME_EXT + 8,
    "inode fields are consecutive (a rename writes parent page + id, and name length + link + "
    "inline bytes, as one range each)");
_Static_assert(NVM_IN_NAME_INLINE + NVM_NAME_INLINE_MAX <= NVM_FI_HEADER,
               "the inline name ends before the file fields");
_Static_assert(NVM_IN_NAME_INLINE + NVM_NAME_INLINE_MAX <= NVM_DI_NS_QUOTA,
               "the inline name ends before the directory fields");
_Static_assert(NVM_NAME_MAX > NVM_NAME_INLINE_MAX,
               "a name longer than the inline bytes continues in NAME_EXT pages");
_Static_assert(
    255 <= NVM_NAME_INLINE_MAX + NVM_NAME_EXT_MAX,
    "a 255-byte name (the HDFS default limit) takes one extension page (region-format.md §8)");
_Static_assert(NVM_PERM_MODE_BITS <= NVM_PERM_GROUP_SHIFT, "the mode lies below the group id");
_Static_assert(NVM_PERM_STRING_ID_MAX == (1 << (NVM_PERM_OWNER_SHIFT - NVM_PERM_GROUP_SHIFT)) - 1,
               "the group id fills the bits between its shift and the owner's");
_Static_assert(NVM_PERM_OWNER_SHIFT + (NVM_PERM_OWNER_SHIFT - NVM_PERM_GROUP_SHIFT) == 64,
               "the owner id, as wide as the group id, fills the top of the word");

/* ---- file page ---- */
_Static_assert(NVM_FI_UC == NVM_FI_HEADER + 8 && NVM_FI_BLOCK_COUNT == NVM_FI_UC + 8 &&
                   NVM_FI_BLOCK_EXT == NVM_FI_BLOCK_COUNT + 8 &&
                   NVM_FI_BLOCKS_INLINE == NVM_FI_BLOCK_EXT + 8,
               "file fields are consecutive u64 words, then the inline block records");
_Static_assert(NVM_FI_BLOCKS_INLINE + NVM_BLOCKS_INLINE_MAX * NVM_BLOCK_RECORD_SIZE <=
                   NVM_PAGE_SIZE,
               "the inline block records fit in the page");
_Static_assert(0 < NVM_FI_HDR_REPLICATION_SHIFT &&
                   NVM_FI_HDR_REPLICATION_SHIFT < NVM_FI_HDR_POLICY_SHIFT &&
                   NVM_FI_HDR_POLICY_SHIFT + 4 == 64,
               "file header: block size below replication below a 4-bit storage policy");
_Static_assert(NVM_FI_UC_MACHINE_SHIFT == 32,
               "UC word: client string id (low 32 bits), machine string id (high 32)");
_Static_assert(
    NVM_BR_ID == 0 && NVM_BR_NUM_BYTES == NVM_BR_ID + 8 &&
        NVM_BR_GENSTAMP == NVM_BR_NUM_BYTES + 8 && NVM_BLOCK_RECORD_SIZE == NVM_BR_GENSTAMP + 8,
    "block record: id, length, generation stamp (a length + stamp update is one 16-byte range)");

/* ---- directory page ---- */
_Static_assert(NVM_DI_DS_QUOTA == NVM_DI_NS_QUOTA + 8,
               "setQuota writes both quotas as one 16-byte range");
_Static_assert(NVM_DI_TYPE_QUOTA == NVM_DI_DS_QUOTA + 8,
               "the per-type quotas follow the storage-space quota");
_Static_assert(NVM_DI_TYPE_QUOTA + 8 * NVM_DI_TYPE_QUOTA_COUNT <= NVM_DI_STORAGE_POLICY,
               "the per-type quotas end before the storage policy");
_Static_assert(NVM_DI_STORAGE_POLICY + 8 == NVM_DI_SNAPSHOT,
               "the snapshot word follows the storage policy");
_Static_assert(NVM_DI_SNAPSHOT + 8 <= NVM_IN_ATTRS, "the directory fields fit in the page");

/* ---- extension and string pages ---- */
_Static_assert(NVM_EXT_OWNER_ID == NVM_PG_STATE + 8 && NVM_EXT_NEXT == NVM_EXT_OWNER_ID + 8 &&
                   NVM_EXT_COUNT == NVM_EXT_NEXT + 8 && NVM_EXT_PAYLOAD == NVM_EXT_COUNT + 8,
               "extension page: state, owner id, next, count, payload");
_Static_assert(NVM_NAME_EXT_MAX == NVM_PAGE_SIZE - NVM_EXT_PAYLOAD,
               "NAME_EXT_MAX is the payload of one page");
_Static_assert(NVM_BLOCKS_EXT_MAX == (NVM_PAGE_SIZE - NVM_EXT_PAYLOAD) / NVM_BLOCK_RECORD_SIZE,
               "BLOCKS_EXT_MAX is as many block records as one page's payload holds");
_Static_assert(NVM_ST_ID == NVM_PG_STATE + 8 && NVM_ST_LEN == NVM_ST_ID + 8 &&
                   NVM_ST_BYTES == NVM_ST_LEN + 8,
               "string page: state, id, length, bytes");
_Static_assert(NVM_STRING_MAX == NVM_PAGE_SIZE - NVM_ST_BYTES,
               "STRING_MAX is the rest of a string page");
_Static_assert(NVM_ST_EXT == NVM_ST_BYTES && NVM_ALIGNED8(NVM_ST_EXT),
               "a chained string's link overlays the first word of its (unused) inline bytes");
_Static_assert(NVM_RC_TYPE == NVM_PG_STATE + 8 && NVM_RC_ID == NVM_RC_TYPE + 8 &&
                   NVM_RC_KEY == NVM_RC_ID + 8 && NVM_RC_VALUE == NVM_RC_KEY + 8 &&
                   NVM_RC_LEN == NVM_RC_VALUE + 8 && NVM_RC_EXT == NVM_RC_LEN + 8 &&
                   NVM_RC_PAYLOAD == NVM_RC_EXT + 8,
               "record page: state, type, id, key, value, length, extension link, payload");
_Static_assert(NVM_RECORD_INLINE_MAX == NVM_PAGE_SIZE - NVM_RC_PAYLOAD,
               "RECORD_INLINE_MAX is the rest of a record page");
_Static_assert(NVM_RE_TIME == NVM_RE_SEQ + 8 && NVM_RE_CLIENT_ID == NVM_RE_TIME + 8 &&
                   NVM_RE_CALL_ID == NVM_RE_CLIENT_ID + NVM_RETRY_CLIENT_ID_LEN &&
                   NVM_RE_KIND == NVM_RE_CALL_ID + 4 && NVM_RE_INODE == NVM_RE_KIND + 4 &&
                   NVM_RETRY_ENTRY_SIZE == NVM_RE_INODE + 8,
               "retry entry: seq, time, client id, call id, kind, inode");
_Static_assert(NVM_RETRY_SLOTS *NVM_RETRY_ENTRY_SIZE <= NVM_RECORD_INLINE_MAX &&
                   (NVM_RETRY_SLOTS + 1) * NVM_RETRY_ENTRY_SIZE > NVM_RECORD_INLINE_MAX,
               "a retry log page holds as many entries as its inline payload fits");
_Static_assert(NVM_RC_PAYLOAD % 8 == 0 && NVM_RETRY_ENTRY_SIZE % 8 == 0,
               "retry entries and their sequence words are 8-byte aligned");
_Static_assert(NVM_KIND_SYMLINK == NVM_KIND_ATTR_EXT + 1 &&
                   NVM_KIND_ATTR_EXT == NVM_KIND_RECORD_EXT + 1 &&
                   NVM_KIND_RECORD_EXT == NVM_KIND_RECORD + 1 &&
                   NVM_KIND_RECORD == NVM_KIND_STRING_EXT + 1,
               "page kinds are consecutive (nvm_checksum_of_other_kind tries each)");
_Static_assert(NVM_IN_ATTRS ==
                       NVM_FI_BLOCKS_INLINE + NVM_BLOCKS_INLINE_MAX * NVM_BLOCK_RECORD_SIZE &&
                   NVM_IN_ATTRS >= NVM_DI_SNAPSHOT + 8 && NVM_ALIGNED8(NVM_IN_ATTRS) &&
                   NVM_IN_ATTRS + 8 == NVM_PAGE_SIZE,
               "IN_ATTRS is the last word of file and directory pages (their reserved bytes)");
_Static_assert(NVM_SL_TARGET_LEN == NVM_FI_HEADER && NVM_SL_TARGET_EXT == NVM_SL_TARGET_LEN + 8 &&
                   NVM_SL_TARGET_INLINE == NVM_SL_TARGET_EXT + 8 &&
                   NVM_SL_TARGET_INLINE + NVM_SYMLINK_TARGET_INLINE_MAX == NVM_IN_ATTRS,
               "symlink page: target length, chain link and inline bytes up to IN_ATTRS");
_Static_assert(NVM_ATTRS_MAX < (1ull << NVM_ATTRS_PAGE_SHIFT) &&
                   NVM_MAX_PAGE_COUNT < (1ull << (64 - NVM_ATTRS_PAGE_SHIFT)),
               "IN_ATTRS: the length fits below the page index, and every page index fits");
_Static_assert(
    NVM_NAME_MAX == 65535,
    "names fit the two length bytes of the NameNode's child index (ChildIndex.MAX_NAME)");

/* ---- enumerated lists: values distinct (a duplicate would make OR differ from SUM) ---- */
#define NVM_X_BIT(name, value, meaning) | (1ULL << (value))
#define NVM_X_ADD(name, value, meaning) +(1ULL << (value))
#define NVM_X_SMALL(name, value, meaning) &&((value) >= 0 && (value) < 64)
_Static_assert(1 NVM_ERRORS(NVM_X_SMALL) && 1 NVM_OPS(NVM_X_SMALL) && 1 NVM_FIELDS(NVM_X_SMALL),
               "error codes, ops and field ids are in [0, 64), for the checks below");
_Static_assert((0 NVM_ERRORS(NVM_X_BIT)) == (0 NVM_ERRORS(NVM_X_ADD)), "error codes are distinct");
_Static_assert((0 NVM_OPS(NVM_X_BIT)) == (0 NVM_OPS(NVM_X_ADD)), "batch ops are distinct");
_Static_assert((0 NVM_FIELDS(NVM_X_BIT)) == (0 NVM_FIELDS(NVM_X_ADD)), "field ids are distinct");
_Static_assert(NVM_OK == 0, "0 means success");
_Static_assert(((0 NVM_OPS(NVM_X_BIT)) & 1) == 0, "op 0 is no op: an all-zero entry is refused");
#undef NVM_X_SMALL
#undef NVM_X_ADD
#undef NVM_X_BIT

_Static_assert(NVM_PERM_STRING_ID_MAX < (1ull << NVM_FI_UC_LAST_COMPLETE_SHIFT) &&
                   NVM_FI_UC_LAST_COMPLETE_SHIFT < NVM_FI_UC_MACHINE_SHIFT,
               "FI_UC: a client string id fits below the last-block-complete bit");
