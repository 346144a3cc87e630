package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * Configuration keys of the NVM NameNode, read from hdfs-site.xml. Defaults and descriptions are
 * also in {@code hdfs-nvm-default.xml} (shipped in the jar, kept equal to these constants by a
 * test). The code reads {@code conf.get(KEY, DEFAULT)}; the XML file is documentation and is not
 * added as a default resource, because a resource added after hdfs-site.xml would override the
 * operator's settings.
 */
public final class NvmConfigKeys {
  private NvmConfigKeys() {}

  /** Put the namespace in a persistent-memory region instead of fsimage + edit log. */
  public static final String NVM_ENABLED_KEY = "dfs.namenode.nvm.enabled";

  public static final boolean NVM_ENABLED_DEFAULT = false;

  /**
   * The region file; unset = {@link #REGION_DEFAULT_FILE_NAME} in the first name directory's
   * current/.
   */
  public static final String NVM_REGION_PATH_KEY = "dfs.namenode.nvm.region.path";

  public static final String REGION_DEFAULT_FILE_NAME = "nvm-namespace.region";

  /** Size of a region created at the first start after -format (bytes; k/m/g suffixes). */
  public static final String NVM_REGION_SIZE_KEY = "dfs.namenode.nvm.region.size";

  public static final long NVM_REGION_SIZE_DEFAULT = 1L << 30;

  /** auto | pmem | emulated | disk ("msync", the mode disk replaced, is read as disk). */
  public static final String NVM_PERSIST_MODE_KEY = "dfs.namenode.nvm.persist.mode";

  public static final String NVM_PERSIST_MODE_DEFAULT = "auto";

  /**
   * The disk mode's write-ahead log file (docs/region-format.md §12); unset = the region's path +
   * ".wal".
   */
  public static final String NVM_LOG_PATH_KEY = "dfs.namenode.nvm.log.path";

  /** Bytes of the write-ahead log's ring (k/m/g suffixes), preallocated with zeros. */
  public static final String NVM_LOG_SIZE_KEY = "dfs.namenode.nvm.log.size";

  public static final long NVM_LOG_SIZE_DEFAULT = 128L << 20;

  /**
   * The disk mode checkpoints once this much log was written since the last checkpoint (bytes;
   * k/m/g suffixes); 0 = a quarter of the log's size. At most half of it.
   */
  public static final String NVM_CHECKPOINT_SIZE_KEY = "dfs.namenode.nvm.checkpoint.size";

  public static final long NVM_CHECKPOINT_SIZE_DEFAULT = 0;

  /**
   * ... and once the oldest record not in a checkpoint is this old (seconds, or a time suffix: ms,
   * s, m, h).
   */
  public static final String NVM_CHECKPOINT_PERIOD_KEY = "dfs.namenode.nvm.checkpoint.period";

  public static final long NVM_CHECKPOINT_PERIOD_DEFAULT = 60;

  /**
   * Free pages held back from client operations that add to the namespace. Below this many free
   * pages, create, mkdirs, addBlock, append, rename and setOwner are refused at the RPC boundary
   * with a "region full" error (nothing changes), while deletes, reads and the NameNode's own work
   * (lease recovery, block synchronization) go on using the reserve.
   */
  public static final String NVM_RESERVED_PAGES_KEY = "dfs.namenode.nvm.region.reserved.pages";

  public static final long NVM_RESERVED_PAGES_DEFAULT = 1024;

  /** Materialized inodes kept in the LRU read cache (the slim in-memory index). */
  public static final String NVM_CACHE_INODES_KEY = "dfs.namenode.nvm.cache.inodes";

  public static final int NVM_CACHE_INODES_DEFAULT = 100000;

  /**
   * Threads that sort and index the directories' children at a restart (the rest of the rebuild is
   * one pass on the loading thread); 0: one per available processor from 100,000 files up.
   */
  public static final String NVM_REBUILD_THREADS_KEY = "dfs.namenode.nvm.rebuild.threads";

  public static final int NVM_REBUILD_THREADS_DEFAULT = 0;

  /**
   * Retry cache entries the region keeps across restarts (the newest ones; 4 per 256-byte page): a
   * call a client retries after a restart gets its original answer if its entry is among them. 0
   * keeps none. Ignored when the retry cache is off ({@code dfs.namenode.enable.retrycache}).
   */
  public static final String NVM_RETRY_LOG_ENTRIES_KEY = "dfs.namenode.nvm.retrycache.entries";

  public static final int NVM_RETRY_LOG_ENTRIES_DEFAULT = 65536;

  /**
   * Creating, renaming and deleting snapshots in NVM mode, a preview while issue 40 is built
   * (docs/snapshots.md): off by default, when those calls are refused as before. (An HA standby
   * persists the snapshot edits it tails whatever this says.) A namespace with snapshots cannot be
   * imported yet.
   */
  public static final String NVM_SNAPSHOTS_PREVIEW_KEY = "dfs.namenode.nvm.snapshots.preview";

  public static final boolean NVM_SNAPSHOTS_PREVIEW_DEFAULT = false;

  /**
   * HA: how long (ms) a NameNode that was active when it stopped waits at start-up for the other
   * NameNode's transition to active to finalize the journal segment it was writing, before it runs
   * that recovery of the journal itself: until the segment is finalized its region may hold edits
   * the quorum never accepted (docs/ha.md).
   */
  public static final String NVM_HA_UNDECIDED_WAIT_KEY = "dfs.namenode.nvm.ha.undecided.wait.ms";

  public static final long NVM_HA_UNDECIDED_WAIT_DEFAULT = 15_000;

  /**
   * Group commit (docs/region-format.md §7.7): a namespace change stages its batch under the
   * namesystem lock and {@code logSync}, after the lock, makes it durable together with every batch
   * staged meanwhile (one undo-logged commit per group); false: each change is durable before the
   * lock is released (every batch its own commit), as before group commit.
   */
  public static final String NVM_GROUP_COMMIT_KEY = "dfs.namenode.nvm.group-commit.enabled";

  public static final boolean NVM_GROUP_COMMIT_DEFAULT = true;

  /**
   * The commit delay (docs/region-format.md §7.7): before a group commit, its committer waits up to
   * this long while other threads queue for the namesystem lock, so that their batches join the
   * group (one {@code fdatasync} in the disk mode) instead of the next one. Microseconds, or a
   * number with a unit (us, ms); 0: off. Without queued threads it never waits. Unset: {@link
   * #NVM_COMMIT_DELAY_DISK_DEFAULT_US} in the disk mode, 0 in the memory modes.
   */
  public static final String NVM_COMMIT_DELAY_KEY = "dfs.namenode.nvm.commit.delay";

  public static final long NVM_COMMIT_DELAY_DISK_DEFAULT_US = 100;

  /**
   * Keys an operator can set per nameservice or per NameNode, as {@code <key>.<nameserviceId>} or
   * {@code <key>.<nameserviceId>.<namenodeId>} (HDFS's convention for NameNode-specific keys): the
   * most specific one present wins over the plain key ({@link NvmGenericKeys}).
   */
  public static final String[] NAMENODE_SPECIFIC_KEYS = {
    NVM_ENABLED_KEY,
    NVM_REGION_PATH_KEY,
    NVM_REGION_SIZE_KEY,
    NVM_PERSIST_MODE_KEY,
    NVM_LOG_PATH_KEY,
    NVM_LOG_SIZE_KEY,
    NVM_CHECKPOINT_SIZE_KEY,
    NVM_CHECKPOINT_PERIOD_KEY,
    NVM_RESERVED_PAGES_KEY,
    NVM_CACHE_INODES_KEY,
    NVM_REBUILD_THREADS_KEY,
    NVM_RETRY_LOG_ENTRIES_KEY,
    NVM_SNAPSHOTS_PREVIEW_KEY,
    NVM_HA_UNDECIDED_WAIT_KEY,
    NVM_GROUP_COMMIT_KEY,
    NVM_COMMIT_DELAY_KEY,
  };
}
