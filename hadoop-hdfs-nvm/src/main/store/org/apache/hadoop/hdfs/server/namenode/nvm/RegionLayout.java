package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * The on-media layout of a region, mirroring native/include/nvmns_layout.h name for name.
 * RegionLayoutTest checks every constant against nvm_layout_table() in both directions,
 * RegionFormatDocTest the tables of docs/region-format.md against them.
 */
public final class RegionLayout {
  private RegionLayout() {}

  // ---- region geometry ----
  public static final int FORMAT_VERSION = 2;
  public static final int PAGE_SIZE = 256;
  public static final int HEADER_OFFSET = 0;
  public static final int HEADER_SIZE = 4096;
  public static final int SUPERBLOCK_OFFSET = 4096;
  public static final int SUPERBLOCK_SIZE = 4096;
  public static final int UNDO_OFFSET = 8192;
  public static final int UNDO_SIZE = 8192;
  public static final int DATA_OFFSET = 16384;
  public static final int MIN_REGION_SIZE = 1048576;

  // ---- header (immutable after creation, CRC-32C protected) ----
  /** u64 = REGION_MAGIC */
  public static final int HDR_MAGIC = 0;

  /** u32 */
  public static final int HDR_VERSION = 8;

  /** u32 */
  public static final int HDR_HEADER_SIZE = 12;

  /** u64 */
  public static final int HDR_REGION_SIZE = 16;

  /** u32 */
  public static final int HDR_PAGE_SIZE = 24;

  /** u32, 0 */
  public static final int HDR_FLAGS = 28;

  /** u64 */
  public static final int HDR_DATA_OFFSET = 32;

  /** u64 */
  public static final int HDR_PAGE_COUNT = 40;

  /** u64, random */
  public static final int HDR_CREATION_ID = 48;

  /** u64, ms since epoch */
  public static final int HDR_CREATION_TIME = 56;

  /** u32 (HDFS namespaceID) */
  public static final int HDR_NAMESPACE_ID = 64;

  /** char[64], NUL padded */
  public static final int HDR_CLUSTER_ID = 72;

  /** char[64], NUL padded */
  public static final int HDR_BLOCKPOOL_ID = 136;

  public static final int HDR_ID_STRING_MAX = 63;

  /** u32 CRC-32C of bytes [0, 248) */
  public static final int HDR_CRC = 248;

  public static final int HDR_CRC_COVERED = 248;

  // ---- superblock: mutable 8-byte counters ----
  /** u64 = SUPER_MAGIC */
  public static final int SB_MAGIC = 4096;

  public static final int SB_LAST_INODE_ID = 4104;
  public static final int SB_GENSTAMP_V1 = 4112;
  public static final int SB_GENSTAMP_V2 = 4120;
  public static final int SB_GENSTAMP_V1_LIMIT = 4128;
  public static final int SB_LAST_BLOCK_ID = 4136;
  public static final int SB_COMMIT_SEQ = 4144;
  public static final int SB_LAST_STRING_ID = 4152;

  /** offset of the root directory page, 0 = none */
  public static final int SB_ROOT_PAGE = 4160;

  /** NameNode transaction id high-water mark */
  public static final int SB_LAST_TXID = 4168;

  /** Bound of recovery's page scan: low 32 bits the page limit, high 32 bits its complement. */
  public static final int SB_SCAN_LIMIT = 4176;

  /** u64: low 32 bits the region's feature bits, high 32 bits their complement; 0 = none */
  public static final int SB_FEATURES = 4184;

  /** LIVE pages carry a CRC-32C in their state word, superblock counters a 16-bit check */
  public static final int FEATURE_PAGE_CHECKSUMS = 1;

  /** Record pages (KIND_RECORD) and the three record counters below */
  public static final int FEATURE_RECORDS = 2;

  /** Inode attribute chains: IN_ATTRS words and ATTR_EXT pages (region-format.md §5.6) */
  public static final int FEATURE_INODE_ATTRS = 4;

  /** Symlink inode pages (KIND_SYMLINK) */
  public static final int FEATURE_SYMLINKS = 8;

  /** The undo area holds redo records (REDO_* below), not UNDO_* (region-format.md §4.1) */
  public static final int FEATURE_REDO_LOG = 16;

  /** Last record id handed out (FEATURE_RECORDS) */
  public static final int SB_LAST_RECORD_ID = 4192;

  /** The delegation token secret manager's sequence number (FEATURE_RECORDS) */
  public static final int SB_TOKEN_SEQUENCE = 4200;

  /** The delegation token secret manager's last master key id (FEATURE_RECORDS) */
  public static final int SB_MASTER_KEY_ID = 4208;

  /** Value bits of a superblock counter; the 16 bits above them are its check */
  public static final int SB_COUNTER_BITS = 48;

  /** The disk mode's write-ahead log: the SB_WAL_* words (region-format.md §12.2) */
  public static final int FEATURE_WAL = 32;

  /** The DI_SNAPSHOT word of directory pages (region-format.md §5.2) */
  public static final int FEATURE_SNAPSHOTS = 64;

  /** A redo record may keep its payload in chain pages (REDO_SPAN 3, region-format.md §4.1) */
  public static final int FEATURE_REDO_CHAIN = 128;

  /** u64: low 32 bits the log's epoch, high 32 its complement; 0 = none */
  public static final int SB_WAL_EPOCH = 4216;

  /** u64: the LSN replay starts at; 0 = the region needs no log */
  public static final int SB_WAL_CHECKPOINT = 4224;

  /** u64: CRC-32C of the two words above (low 32 bits) */
  public static final int SB_WAL_CHECK = 4232;

  // ---- undo log (one record, at most one transaction in flight) ----
  /** u64: 0 = empty, else commit seq of the txn */
  public static final int UNDO_STATE = 8192;

  /** u32 */
  public static final int UNDO_ENTRY_COUNT = 8200;

  /** u32 */
  public static final int UNDO_PAYLOAD_BYTES = 8204;

  /** u32 CRC-32C of the payload */
  public static final int UNDO_CRC = 8208;

  /** entries: u64 target, u32 len, u32 field, data[len] padded to 8 */
  public static final int UNDO_PAYLOAD = 8216;

  public static final int UNDO_ENTRY_HEADER = 16;

  /** UNDO_SIZE - (UNDO_PAYLOAD - UNDO_OFFSET) */
  public static final int UNDO_PAYLOAD_MAX = 8168;

  // ---- redo records (FEATURE_REDO_LOG): the undo area as two slots ----
  /** = UNDO_OFFSET; a big record (REDO_SPAN 2) starts here too */
  public static final int REDO_SLOT0 = 8192;

  /** REDO_SLOT0 + REDO_SLOT_SIZE */
  public static final int REDO_SLOT1 = 12288;

  /** the REDO_ fields below are offsets inside a slot */
  public static final int REDO_SLOT_SIZE = 4096;

  /** u64: the group's commit seq (the SB_COMMIT_SEQ it sets); 0 = empty */
  public static final int REDO_SEQ = 0;

  /** u32 */
  public static final int REDO_ENTRY_COUNT = 8;

  /** u32 */
  public static final int REDO_PAYLOAD_BYTES = 12;

  /** u32: 1 = one slot, 2 = the whole area (in slot 0 only), 3 = chained */
  public static final int REDO_SPAN = 16;

  /** u32 CRC-32C of HDR_CREATION_ID, slot bytes [0, 20) and the payload */
  public static final int REDO_CRC = 20;

  /** entries: u64 target, u32 len, u32 field, new data[len] padded to 8 */
  public static final int REDO_PAYLOAD = 24;

  /** REDO_SLOT_SIZE - REDO_PAYLOAD */
  public static final int REDO_SLOT_PAYLOAD_MAX = 4072;

  /** UNDO_SIZE - REDO_PAYLOAD (= UNDO_PAYLOAD_MAX) */
  public static final int REDO_BIG_PAYLOAD_MAX = 8168;

  /** span 3: u64, the payload's first KIND_REDO_CHAIN page */
  public static final int REDO_CHAIN_FIRST = 24;

  /** span 3: u64, how many chain pages hold it */
  public static final int REDO_CHAIN_PAGES = 32;

  /** span 3: the slot bytes after REDO_PAYLOAD the CRC covers (the two words above) */
  public static final int REDO_CHAIN_HEAD = 16;

  /** chain page: u64, the next chain page, 0 = the last */
  public static final int RCH_NEXT = 8;

  /** chain page: the payload's next bytes */
  public static final int RCH_PAYLOAD = 16;

  /** PAGE_SIZE - RCH_PAYLOAD */
  public static final int RCH_PAYLOAD_MAX = 240;

  // ---- page state word (offset 0 of every page) ----
  /** u64: magic<<32 | kind<<8 | state */
  public static final int PG_STATE = 0;

  public static final int STATE_MASK = 255;

  /** written, not committed (or never used) */
  public static final int STATE_PENDING = 0;

  public static final int STATE_LIVE = 1;

  /** deleted / reclaimed */
  public static final int STATE_INVALID = 2;

  public static final int KIND_SHIFT = 8;
  public static final int KIND_DIR = 1;
  public static final int KIND_FILE = 2;
  public static final int KIND_NAME_EXT = 3;
  public static final int KIND_BLOCK_EXT = 4;
  public static final int KIND_STRING = 5;
  public static final int KIND_STRING_EXT = 6;
  public static final int KIND_RECORD = 7;
  public static final int KIND_RECORD_EXT = 8;

  /** An inode's attributes (ACL entries, xattrs), FEATURE_INODE_ATTRS */
  public static final int KIND_ATTR_EXT = 9;

  /** symlink inode, FEATURE_SYMLINKS */
  public static final int KIND_SYMLINK = 10;

  /** part of a chained redo record (FEATURE_REDO_CHAIN); always INVALID */
  public static final int KIND_REDO_CHAIN = 11;

  public static final int PAGE_MAGIC_SHIFT = 32;

  // ---- inode page (KIND_DIR, KIND_FILE) ----
  public static final int IN_ID = 8;
  public static final int IN_PARENT_PAGE = 16;
  public static final int IN_PARENT_ID = 24;
  public static final int IN_MTIME = 32;
  public static final int IN_ATIME = 40;

  /** mode:16 | group:24 | owner:24 (bits 0..63) */
  public static final int IN_PERM = 48;

  /** u64, name length in bytes */
  public static final int IN_NAME_LEN = 56;

  /** u64, first KIND_NAME_EXT page, 0 = none */
  public static final int IN_NAME_EXT = 64;

  /** first NAME_INLINE_MAX bytes of the name */
  public static final int IN_NAME_INLINE = 72;

  public static final int NAME_INLINE_MAX = 48;
  public static final int NAME_MAX = 65535;
  public static final int PERM_MODE_BITS = 16;
  public static final int PERM_GROUP_SHIFT = 16;
  public static final int PERM_OWNER_SHIFT = 40;
  public static final int PERM_STRING_ID_MAX = 16777215;

  /** attribute bytes:32 | first ATTR_EXT page index:32; 0 = no attributes */
  public static final int IN_ATTRS = 248;

  public static final int ATTRS_PAGE_SHIFT = 32;

  /** longest attribute encoding the format stores, bytes */
  public static final int ATTRS_MAX = 16777216;

  // symlink-only fields
  /** u64, the link target's length in bytes (1..SYMLINK_TARGET_MAX) */
  public static final int SL_TARGET_LEN = 120;

  /** u64, first NAME_EXT page of the target past the inline part */
  public static final int SL_TARGET_EXT = 128;

  /** the first SYMLINK_TARGET_INLINE_MAX bytes of the target */
  public static final int SL_TARGET_INLINE = 136;

  public static final int SYMLINK_TARGET_INLINE_MAX = 112;
  public static final int SYMLINK_TARGET_MAX = 65535;

  // file-only fields
  /** blocksize:48 | replication:12 | policy:4 */
  public static final int FI_HEADER = 120;

  /** client string id:32 | machine string id:32 */
  public static final int FI_UC = 128;

  public static final int FI_BLOCK_COUNT = 136;

  /** first KIND_BLOCK_EXT page, 0 = none */
  public static final int FI_BLOCK_EXT = 144;

  public static final int FI_BLOCKS_INLINE = 152;
  public static final int BLOCKS_INLINE_MAX = 4;
  public static final int FI_HDR_REPLICATION_SHIFT = 48;
  public static final int FI_HDR_POLICY_SHIFT = 60;
  public static final int FI_UC_MACHINE_SHIFT = 32;

  /** FI_UC bit 31: the last block of the file under construction is complete. */
  public static final int FI_UC_LAST_COMPLETE_SHIFT = 31;

  // block record
  public static final int BLOCK_RECORD_SIZE = 24;
  public static final int BR_ID = 0;
  public static final int BR_NUM_BYTES = 8;
  public static final int BR_GENSTAMP = 16;

  // directory-only fields
  public static final int DI_NS_QUOTA = 120;
  public static final int DI_DS_QUOTA = 128;

  /** 4 x i64: RAM_DISK, SSD, DISK, ARCHIVE */
  public static final int DI_TYPE_QUOTA = 136;

  public static final int DI_TYPE_QUOTA_COUNT = 4;

  /** u64 storage policy id, 0 = unspecified */
  public static final int DI_STORAGE_POLICY = 168;

  /** u64, FEATURE_SNAPSHOTS: DI_SNAPSHOTTABLE or 0 (every other bit 0) */
  public static final int DI_SNAPSHOT = 176;

  /** Snapshots allowed: the directory is in SnapshotManager's snapshottable set */
  public static final int DI_SNAPSHOTTABLE = 1;

  // ---- extension pages (KIND_NAME_EXT, KIND_BLOCK_EXT) ----
  public static final int EXT_OWNER_ID = 8;
  public static final int EXT_NEXT = 16;

  /** name bytes / block records in this page */
  public static final int EXT_COUNT = 24;

  public static final int EXT_PAYLOAD = 32;
  public static final int NAME_EXT_MAX = 224;
  public static final int BLOCKS_EXT_MAX = 9;

  // ---- string page (KIND_STRING) ----
  public static final int ST_ID = 8;
  public static final int ST_LEN = 16;
  public static final int ST_BYTES = 24;

  /** u64, first STRING_EXT page if ST_LEN &gt; STRING_MAX (overlays ST_BYTES) */
  public static final int ST_EXT = 24;

  public static final int STRING_MAX = 232;

  // ---- record page (KIND_RECORD): NameNode state that is not an inode ----
  /** u64, RECORD_* */
  public static final int RC_TYPE = 8;

  /** u64, unique in the region, never reused; owner id of its RECORD_EXT pages */
  public static final int RC_ID = 16;

  /** u64, the record's key within its type (a token's sequence number, a key id) */
  public static final int RC_KEY = 24;

  /** u64, the record's one mutable word (an expiry date) */
  public static final int RC_VALUE = 32;

  /** u64, payload bytes */
  public static final int RC_LEN = 40;

  /** u64, first KIND_RECORD_EXT page if RC_LEN &gt; RECORD_INLINE_MAX, 0 = none */
  public static final int RC_EXT = 48;

  public static final int RC_PAYLOAD = 56;
  public static final int RECORD_INLINE_MAX = 200;

  /** Payload: the token identifier; value: its expiry (renew) date */
  public static final int RECORD_DELEGATION_TOKEN = 1;

  /** Payload: the encoded key; value: its expiry date */
  public static final int RECORD_MASTER_KEY = 2;

  /** Key: ring page index; payload: RETRY_SLOTS retry entries */
  public static final int RECORD_RETRY_LOG = 3;

  /** key: 0; payload: the pool (CachePoolInfoProto), named in it */
  public static final int RECORD_CACHE_POOL = 4;

  /** key: the directive id; payload: the directive (CacheDirectiveInfoProto) */
  public static final int RECORD_CACHE_DIRECTIVE = 5;

  /** key: 0; value: the next cache directive id; at most one */
  public static final int RECORD_CACHE_IDS = 6;

  /** key: a file's inode id; payload: its truncate block (id, bytes, genstamp) */
  public static final int RECORD_TRUNCATE_BLOCK = 7;

  /** key: snapshot id; value: its directory's inode id; payload: §13 */
  public static final int RECORD_SNAPSHOT = 8;

  /** key: 0; value: the snapshot counter; at most one */
  public static final int RECORD_SNAPSHOT_IDS = 9;

  /** key: an inode id; payload: its snapshot diffs (§13) */
  public static final int RECORD_INODE_DIFFS = 10;

  /** key: a renamed inode's id; value: its parent's id; payload: §13 */
  public static final int RECORD_INODE_REF = 11;

  /** key: a directory's inode id; value: a child's inode id; payload: its diff entries (§13) */
  public static final int RECORD_DIFF_ENTRY = 12;

  /** key: an inode id; value: a snapshot id; payload: the inode's diff of that snapshot (§13) */
  public static final int RECORD_DIFF = 13;

  // ---- retry entry (RETRY_ENTRY_SIZE bytes in a RECORD_RETRY_LOG payload) ----
  /** u64, entry number (from 1, never reused); 0 = empty slot */
  public static final int RE_SEQ = 0;

  /** u64, ms: when the call completed */
  public static final int RE_TIME = 8;

  /** u8[16], the RPC client id */
  public static final int RE_CLIENT_ID = 16;

  /** i32, the RPC call id */
  public static final int RE_CALL_ID = 32;

  /** u32, RETRY_* */
  public static final int RE_KIND = 36;

  /** u64, the file a create or append answered about, else 0 */
  public static final int RE_INODE = 40;

  public static final int RETRY_ENTRY_SIZE = 48;

  /** Entries per RECORD_RETRY_LOG page */
  public static final int RETRY_SLOTS = 4;

  public static final int RETRY_CLIENT_ID_LEN = 16;

  /** A call that succeeded; its retry gets the success */
  public static final int RETRY_SUCCESS = 1;

  /** Create: its retry gets RE_INODE's file status */
  public static final int RETRY_CREATE = 2;

  /** Append: its retry gets RE_INODE's last block and file status */
  public static final int RETRY_APPEND = 3;

  /** addCacheDirective: its retry gets RE_INODE as the directive id */
  public static final int RETRY_CACHE_DIRECTIVE = 4;

  /** createSnapshot: its retry gets the path of the snapshot whose id is RE_INODE */
  public static final int RETRY_CREATE_SNAPSHOT = 5;

  // ---- the disk mode's write-ahead log file (region-format.md §12) ----
  /** The log header; the record area follows it */
  public static final int WAL_HEADER_SIZE = 4096;

  public static final int WAL_VERSION = 1;

  /** u64 = WAL_MAGIC */
  public static final int WH_MAGIC = 0;

  /** u32 = WAL_VERSION */
  public static final int WH_VERSION = 8;

  /** u64: the region's HDR_CREATION_ID */
  public static final int WH_REGION_ID = 16;

  /** u32: random, new at every read-write open; seeds every record's CRC */
  public static final int WH_EPOCH = 24;

  /** u64: bytes of the record area, a multiple of 4096 */
  public static final int WH_CAPACITY = 32;

  /** u64: the epoch's first LSN */
  public static final int WH_START_LSN = 40;

  /** u32 CRC-32C of bytes [0, 48) */
  public static final int WH_CRC = 48;

  public static final int WH_CRC_COVERED = 48;

  /** Smallest record area */
  public static final int WAL_MIN_CAPACITY = 1048576;

  /** u32 = WAL_RECORD_MAGIC */
  public static final int WR_MAGIC = 0;

  /** u32 CRC-32C of WH_REGION_ID, WH_EPOCH, the header from WR_LSN on and the payload */
  public static final int WR_CRC = 4;

  /** u64: the record's place in the log stream (at WAL_HEADER_SIZE + LSN mod capacity) */
  public static final int WR_LSN = 8;

  /** u32: the record's bytes, header included, a multiple of 8 */
  public static final int WR_LEN = 16;

  /** u32: WR_TYPE_* */
  public static final int WR_TYPE = 20;

  /** u64: the group's commit sequence (the SB_COMMIT_SEQ it sets); a pad's: 0 */
  public static final int WR_SEQ = 24;

  /** u32: entries in the payload */
  public static final int WR_COUNT = 32;

  /** u32, 0 */
  public static final int WR_RESERVED = 36;

  /** entries: u64 target, u32 len, u32 field, new data[len] padded to 8 */
  public static final int WR_PAYLOAD = 40;

  /** A committed group: its entries, SB_COMMIT_SEQ := WR_SEQ last */
  public static final int WR_TYPE_GROUP = 1;

  /** No entries: the rest of the lap is skipped (the CRC covers only its header) */
  public static final int WR_TYPE_PAD = 2;

  // ---- well-known values ----
  public static final int ROOT_INODE_ID = 16385;

  // ---- values wider than an int ----
  /** Bytes "NVMNSRG1" read as a little-endian u64. */
  public static final long REGION_MAGIC = 0x314752534e4d564eL;

  /** Bytes "NVMSUPR1" read as a little-endian u64. */
  public static final long SUPER_MAGIC = 0x31525055534d564eL;

  /** Bytes "NVMP": the top 32 bits of a state word, except a LIVE page's with page checksums. */
  public static final long PAGE_MAGIC = 0x504d564eL;

  /** Page indexes fit in a u32. */
  public static final long MAX_PAGE_COUNT = 4294967295L;

  /** Bytes "NVMWAL01" read as a little-endian u64: the write-ahead log's header. */
  public static final long WAL_MAGIC = 0x31304c41574d564eL;

  /** Bytes "NVRC" read as a little-endian u32: every write-ahead log record. */
  public static final int WAL_RECORD_MAGIC = 0x4352564e;

  // ---- helpers (not layout constants; not in the native table) ----
  // Public: the store and the offline tools (….nvm.tools) compose and decode state words with
  // these, as C does with NVM_STATE_WORD / NVM_STATE_OF / NVM_KIND_OF / NVM_MAGIC_OF.

  /** Composes a page state word (NVM_STATE_WORD). */
  public static long stateWord(int kind, int state) {
    return (PAGE_MAGIC << PAGE_MAGIC_SHIFT) | ((long) kind << KIND_SHIFT) | state;
  }

  /** The state (PENDING, LIVE, INVALID, or a malformed value) of a state word. */
  public static int stateOf(long word) {
    return (int) (word & STATE_MASK);
  }

  /** The kind (DIR, FILE, NAME_EXT, BLOCK_EXT, STRING, or an undefined value) of a state word. */
  public static int kindOf(long word) {
    return (int) ((word >>> KIND_SHIFT) & 0xff);
  }

  /**
   * The top 32 bits of a state word: PAGE_MAGIC on every page that was ever written, except a LIVE
   * page of a region with page checksums, whose checksum is kept there (region-format.md §11).
   */
  public static long magicOf(long word) {
    return word >>> PAGE_MAGIC_SHIFT;
  }

  /** Offset of page {@code index}. */
  public static long pageOffset(long index) {
    return DATA_OFFSET + (long) PAGE_SIZE * index;
  }
}
