package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits.invalid;
import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One-operation helpers over {@link InodeStore#begin()} for the store's tests: each method
 * validates its arguments against the committed region, then stages one operation and applies it as
 * one batch with one native call, exactly as a {@link Txn} with that content would. The NameNode
 * does not use these; it stages whole inode states into its own transactions.
 */
public final class StoreOps {
  private StoreOps() {}

  /** Stages one operation into a transaction. */
  interface Staging {
    void stage(Txn t) throws NvmException;
  }

  /** Stages {@code op} and applies it with exactly one native call. */
  static void mutate(InodeStore s, Staging op) throws NvmException {
    try (Txn t = s.begin()) {
      op.stage(t);
      t.commit();
    }
  }

  // ------------------------------------------------------------------ inodes

  /**
   * Creates a file or directory under {@code parentPage} and sets the parent's mtime to the new
   * inode's mtime. Returns the new inode's page offset.
   */
  public static long createInode(InodeStore s, long parentPage, InodeAttrs a) throws NvmException {
    long[] out = new long[1];
    mutate(
        s,
        t -> {
          out[0] = t.create(parentPage, a);
          t.putWord(parentPage + IN_MTIME, a.mtime, Field.MTIME);
        });
    return out[0];
  }

  private static void putWord(InodeStore s, long target, long value, Field field)
      throws NvmException {
    mutate(s, t -> t.putWord(target, value, field));
  }

  public static void setMtime(InodeStore s, long page, long mtime) throws NvmException {
    s.requireInode(page);
    putWord(s, page + IN_MTIME, mtime, Field.MTIME);
  }

  public static void setAtime(InodeStore s, long page, long atime) throws NvmException {
    s.requireInode(page);
    putWord(s, page + IN_ATIME, atime, Field.ATIME);
  }

  /**
   * Sets both times in one batch; -1 leaves a time unchanged (HDFS's setTimes convention), so a
   * single change is one atomic word and only a double change is undo-logged.
   */
  public static void setTimes(InodeStore s, long page, long mtime, long atime) throws NvmException {
    s.requireInode(page);
    if (mtime == -1 && atime == -1) {
      return;
    } else if (atime == -1) {
      setMtime(s, page, mtime);
      return;
    } else if (mtime == -1) {
      setAtime(s, page, atime);
      return;
    }
    mutate(s, t -> t.putBytes(page + IN_MTIME, PageCodec.longs(mtime, atime), Field.MTIME));
  }

  public static void setPermission(InodeStore s, long page, int mode) throws NvmException {
    s.requireInode(page);
    InodeLimits.checkMode(mode);
    mutate(s, t -> t.setPermission(page, mode, null, null));
  }

  /**
   * Changes owner and/or group (null leaves that part unchanged); new names get STRING pages in the
   * same batch.
   */
  public static void setOwner(InodeStore s, long page, String owner, String group)
      throws NvmException {
    InodeView v = s.requireInode(page);
    mutate(s, t -> t.setPermission(page, v.mode(), owner, group));
  }

  public static void setReplication(InodeStore s, long page, int replication) throws NvmException {
    InodeView v = s.requireFile(page);
    setHeader(s, page, v.preferredBlockSize(), replication, v.storagePolicy());
  }

  /** A file's policy (in its header word) or a directory's (DI_STORAGE_POLICY). */
  public static void setStoragePolicy(InodeStore s, long page, int policy) throws NvmException {
    InodeView v = s.requireInode(page);
    if (v.isDirectory()) {
      mutate(s, t -> t.setDirectoryStoragePolicy(page, policy));
      return;
    }
    setHeader(s, page, v.preferredBlockSize(), v.replication(), policy);
  }

  public static void setPreferredBlockSize(InodeStore s, long page, long blockSize)
      throws NvmException {
    InodeView v = s.requireFile(page);
    setHeader(s, page, blockSize, v.replication(), v.storagePolicy());
  }

  private static void setHeader(
      InodeStore s, long page, long blockSize, int replication, int policy) throws NvmException {
    InodeLimits.checkFileHeader(blockSize, replication, policy);
    putWord(
        s,
        page + FI_HEADER,
        PageCodec.fileHeader(blockSize, replication, policy),
        Field.FILE_HEADER);
  }

  /** Namespace and storage-space quota of a directory (-1 = not set), one 16-byte store. */
  public static void setQuota(InodeStore s, long page, long nsQuota, long dsQuota)
      throws NvmException {
    s.requireDir(page);
    mutate(s, t -> t.putBytes(page + DI_NS_QUOTA, PageCodec.longs(nsQuota, dsQuota), Field.QUOTA));
  }

  /** Quota of one storage type (0 RAM_DISK, 1 SSD, 2 DISK, 3 ARCHIVE). */
  public static void setStorageTypeQuota(InodeStore s, long page, int storageType, long quota)
      throws NvmException {
    s.requireDir(page);
    InodeLimits.checkStorageType(storageType);
    putWord(s, page + DI_TYPE_QUOTA + 8L * storageType, quota, Field.QUOTA);
  }

  // ------------------------------------------------------------------ rename / delete

  public static void rename(InodeStore s, long page, long newParentPage, String newName, long mtime)
      throws NvmException {
    rename(s, page, newParentPage, newName.getBytes(StandardCharsets.UTF_8), mtime, 0, new long[0]);
  }

  /**
   * Moves {@code page} under {@code newParentPage} as {@code newName}; both parents' mtimes become
   * {@code mtime}. If {@code overwrittenPage} is not 0, that inode (a child of the new parent with
   * the new name) is invalidated in the same batch and it, its extension pages and {@code
   * overwrittenSubtree} (all its descendants) are freed.
   */
  public static void rename(
      InodeStore s,
      long page,
      long newParentPage,
      byte[] newName,
      long mtime,
      long overwrittenPage,
      long[] overwrittenSubtree)
      throws NvmException {
    InodeView v = s.requireNotRoot(page);
    s.requireDir(newParentPage);
    InodeLimits.checkName(newName);
    long oldParentPage = v.parentPage();
    s.requireDir(oldParentPage);
    long[] dstSubtree;
    if (overwrittenPage != 0) {
      InodeView dst = s.requireNotRoot(overwrittenPage);
      if (overwrittenPage == page) {
        throw invalid("rename onto itself");
      }
      if (dst.parentPage() != newParentPage || !Arrays.equals(dst.nameBytes(), newName)) {
        throw invalid(
            "overwritten inode page "
                + overwrittenPage
                + " is not '"
                + new String(newName, StandardCharsets.UTF_8)
                + "' in the destination directory");
      }
      dstSubtree = checkSubtree(s, overwrittenPage, overwrittenSubtree);
    } else {
      dstSubtree = null;
    }
    mutate(
        s,
        t -> {
          t.move(page, newParentPage, newName);
          if (oldParentPage != newParentPage) {
            t.putWord(newParentPage + IN_MTIME, mtime, Field.MTIME);
          }
          t.putWord(oldParentPage + IN_MTIME, mtime, Field.MTIME);
          if (dstSubtree != null) {
            t.remove(overwrittenPage, dstSubtree);
          }
        });
  }

  /**
   * Deletes {@code page} and its subtree. {@code subtreePages} must list every descendant inode
   * page (any order); pages missing from it become orphans that only the next recovery reclaims.
   */
  public static void delete(
      InodeStore s, long page, long[] subtreePages, long parentPage, long mtime)
      throws NvmException {
    InodeView v = s.requireNotRoot(page);
    if (v.parentPage() != parentPage) {
      throw invalid("inode page " + page + " is not a child of page " + parentPage);
    }
    s.requireDir(parentPage);
    long[] subtree = checkSubtree(s, page, subtreePages);
    mutate(
        s,
        t -> {
          t.putWord(parentPage + IN_MTIME, mtime, Field.MTIME);
          t.remove(page, subtree);
        });
  }

  /** Checks that every page is a live inode whose parent is the root or another listed page. */
  private static long[] checkSubtree(InodeStore s, long root, long[] pages) throws NvmException {
    if (pages == null) {
      return new long[0];
    }
    Set<Long> set = new LinkedHashSet<Long>();
    set.add(root);
    for (long p : pages) {
      s.requireInode(p);
      if (!set.add(p)) {
        throw invalid("subtree page " + p + " listed twice (or is the subtree root)");
      }
    }
    for (long p : pages) {
      if (!set.contains(s.inode(p).parentPage())) {
        throw invalid("inode page " + p + " is not in the subtree of page " + root);
      }
    }
    return pages.clone();
  }

  // ------------------------------------------------------------------ blocks

  /**
   * The block list of a file as triples (id, numBytes, genstamp), with room for {@code extra} more.
   */
  public static long[] blocks(InodeStore s, long page, int extra) {
    InodeView v = s.inode(page);
    int n = v.blockCount();
    long[] out = new long[3 * (n + extra)];
    for (int i = 0; i < n; i++) {
      long rec = v.blockRecordOffsetUnchecked(i);
      out[3 * i] = s.region().getLong(rec + BR_ID);
      out[3 * i + 1] = s.region().getLong(rec + BR_NUM_BYTES);
      out[3 * i + 2] = s.region().getLong(rec + BR_GENSTAMP);
    }
    return out;
  }

  public static int addBlock(InodeStore s, long page, long blockId, long genstamp)
      throws NvmException {
    return addBlock(s, page, blockId, genstamp, -1);
  }

  /**
   * Appends a block record (numBytes 0). If {@code penultimateNumBytes} &gt;= 0 the previous last
   * block's length is set in the same batch. Returns the new block's index.
   */
  public static int addBlock(
      InodeStore s, long page, long blockId, long genstamp, long penultimateNumBytes)
      throws NvmException {
    InodeView v = s.requireFile(page);
    int n = v.blockCount();
    if (penultimateNumBytes >= 0 && n == 0) {
      throw invalid("no penultimate block to complete in inode " + v.id());
    }
    long[] b = blocks(s, page, 1);
    b[3 * n] = blockId;
    b[3 * n + 1] = 0;
    b[3 * n + 2] = genstamp;
    if (penultimateNumBytes >= 0) {
      b[3 * (n - 1) + 1] = penultimateNumBytes;
    }
    mutate(s, t -> t.setBlocks(page, b, n + 1));
    return n;
  }

  /** Drops the last block record; an extension page left empty is unlinked and freed. */
  public static void removeLastBlock(InodeStore s, long page) throws NvmException {
    InodeView v = s.requireFile(page);
    int n = v.blockCount();
    if (n == 0) {
      throw invalid("inode " + v.id() + " has no blocks");
    }
    long[] b = blocks(s, page, 0);
    mutate(s, t -> t.setBlocks(page, b, n - 1));
  }

  /** Sets length and generation stamp of block {@code index} (one 16-byte store). */
  public static void updateBlock(InodeStore s, long page, int index, long numBytes, long genstamp)
      throws NvmException {
    InodeView v = s.requireFile(page);
    if (index < 0 || index >= v.blockCount()) {
      throw invalid(
          "block index " + index + " outside 0.." + (v.blockCount() - 1) + " of inode " + v.id());
    }
    long rec = v.blockRecordOffset(index);
    mutate(
        s, t -> t.putBytes(rec + BR_NUM_BYTES, PageCodec.longs(numBytes, genstamp), Field.BLOCK));
  }

  // ------------------------------------------------------------------ under construction

  public static void setUnderConstruction(InodeStore s, long page, String client, String machine)
      throws NvmException {
    s.requireFile(page);
    if (client == null || machine == null) {
      throw invalid("client name and client machine are required");
    }
    mutate(s, t -> t.setUnderConstruction(page, client, machine));
  }

  public static void clearUnderConstruction(InodeStore s, long page) throws NvmException {
    s.requireFile(page);
    mutate(s, t -> t.setUnderConstruction(page, null, null));
  }

  // ------------------------------------------------------------------ superblock counters

  public static void setGenerationStampV1(InodeStore s, long v) throws NvmException {
    putWord(s, SB_GENSTAMP_V1, v, Field.COUNTER);
  }

  public static void setGenerationStampV2(InodeStore s, long v) throws NvmException {
    putWord(s, SB_GENSTAMP_V2, v, Field.COUNTER);
  }

  public static void setGenerationStampV1Limit(InodeStore s, long v) throws NvmException {
    putWord(s, SB_GENSTAMP_V1_LIMIT, v, Field.COUNTER);
  }

  public static void setLastAllocatedBlockId(InodeStore s, long v) throws NvmException {
    putWord(s, SB_LAST_BLOCK_ID, v, Field.COUNTER);
  }

  public static void setLastInodeId(InodeStore s, long v) throws NvmException {
    putWord(s, SB_LAST_INODE_ID, v, Field.COUNTER);
  }

  public static void setLastTxId(InodeStore s, long v) throws NvmException {
    putWord(s, SB_LAST_TXID, v, Field.COUNTER);
  }
}
