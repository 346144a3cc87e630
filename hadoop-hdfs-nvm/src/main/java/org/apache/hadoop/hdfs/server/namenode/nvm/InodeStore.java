package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException.ErrorCode;

/**
 * The namespace operations the NameNode performs on a region. Each mutation validates
 * its arguments, reserves every page it needs up front, stages ONE batch and applies
 * it with one native call; the native side orders the persists (FRESH pages first,
 * then the undo-logged or single-word commit, then FREEs). If anything fails before
 * or during the apply, reserved pages are released and nothing is written.
 *
 * Not thread-safe: callers hold the namesystem write lock for mutations.
 */
public final class InodeStore implements AutoCloseable {
  /** Namespace quota of a formatted root (HDFS's default for "/"). */
  public static final long ROOT_NS_QUOTA = Long.MAX_VALUE;

  private final Region region;
  private final StringTable strings;
  private final MutationBatch batch = new MutationBatch();
  private final PagePool pool;

  private InodeStore(Region region) {
    this.region = region;
    this.strings = StringTable.load(region);
    this.pool = new PagePool(region);
  }

  /** Wraps an open region; the store owns it from now on and closes it. */
  public static InodeStore open(Region region) {
    return new InodeStore(region);
  }

  public Region region() {
    return region;
  }

  public StringTable strings() {
    return strings;
  }

  /** Offset of the root directory page, 0 before {@link #format}. */
  public long rootPage() {
    return region.rootPage();
  }

  public InodeView inode(long page) {
    return new InodeView(region, page);
  }

  public String owner(long page) {
    return strings.get(inode(page).ownerId());
  }

  public String group(long page) {
    return strings.get(inode(page).groupId());
  }

  /** Client name of an under-construction file, else null. */
  public String clientName(long page) {
    return strings.get(inode(page).clientId());
  }

  public String clientMachine(long page) {
    return strings.get(inode(page).clientMachineId());
  }

  @Override
  public void close() throws NvmException {
    region.close();
  }

  // ------------------------------------------------------------------ batches

  private interface Staging {
    void stage(Reservation res) throws NvmException;
  }

  /** Stages one operation and applies it with exactly one native call. */
  private void mutate(Staging op) throws NvmException {
    if (region.isClosed()) {
      throw new IllegalStateException("inode store of " + region.file() + " is closed");
    }
    batch.clear();
    strings.abortStaged();
    Reservation res = new Reservation(pool);
    boolean ok = false;
    try {
      op.stage(res);
      strings.stageCounter(batch);
      region.apply(batch);
      ok = true;
    } finally {
      batch.clear();
      if (ok) {
        strings.commitStaged();
      } else {
        strings.abortStaged();
        res.abandon();
      }
    }
    res.committed();
  }

  private static NvmException invalid(String msg) {
    return new NvmException(ErrorCode.EINVAL, msg);
  }

  // ------------------------------------------------------------------ validation

  private InodeView requireInode(long page) throws NvmException {
    if (page < DATA_OFFSET || (page - DATA_OFFSET) % PAGE_SIZE != 0 || page + PAGE_SIZE > region.size()) {
      throw invalid("offset " + page + " is not a page of the data area");
    }
    InodeView v = inode(page);
    if (!v.isLive()) {
      throw invalid("page " + page + " is not a live inode (state word 0x" + Long.toHexString(v.stateWord()) + ")");
    }
    return v;
  }

  private InodeView requireDir(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (!v.isDirectory()) {
      throw invalid("inode page " + page + " (id " + v.id() + ") is not a directory");
    }
    return v;
  }

  private InodeView requireFile(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (!v.isFile()) {
      throw invalid("inode page " + page + " (id " + v.id() + ") is not a file");
    }
    return v;
  }

  private InodeView requireNotRoot(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (page == region.rootPage()) {
      throw invalid("the root directory cannot be renamed or deleted");
    }
    return v;
  }

  /** A path component: 1..NAME_MAX bytes, no '/', not "." or "..". */
  static void checkName(byte[] name) throws NvmException {
    if (name == null || name.length == 0) {
      throw invalid("empty inode name");
    }
    if (name.length > NAME_MAX) {
      throw new NvmException(ErrorCode.ETOOLONG, "name of " + name.length + " bytes exceeds NAME_MAX " + NAME_MAX);
    }
    for (byte b : name) {
      if (b == '/') {
        throw invalid("name contains '/': " + new String(name, StandardCharsets.UTF_8));
      }
    }
    if ((name.length == 1 && name[0] == '.') || (name.length == 2 && name[0] == '.' && name[1] == '.')) {
      throw invalid("name '" + new String(name, StandardCharsets.UTF_8) + "' is reserved");
    }
  }

  private static void checkFileHeader(long blockSize, int replication, int policy) throws NvmException {
    if (blockSize < 0 || blockSize > PageCodec.BLOCK_SIZE_MAX) {
      throw invalid("preferred block size " + blockSize + " does not fit 48 bits");
    }
    if (replication < 0 || replication > PageCodec.REPLICATION_MAX) {
      throw invalid("replication " + replication + " outside 0.." + PageCodec.REPLICATION_MAX);
    }
    if (policy < 0 || policy > PageCodec.POLICY_MAX) {
      throw invalid("storage policy " + policy + " outside 0.." + PageCodec.POLICY_MAX);
    }
  }

  private static void checkMode(int mode) throws NvmException {
    if ((mode & ~0xffff) != 0) {
      throw invalid("permission " + mode + " does not fit 16 bits");
    }
  }

  /** Distinct strings among {@code ss} (nulls skipped) that need a new STRING page. */
  private int newStrings(String... ss) throws NvmException {
    Set<String> fresh = new HashSet<String>();
    for (String s : ss) {
      if (s != null) {
        StringTable.check(s);
        if (strings.isNew(s)) {
          fresh.add(s);
        }
      }
    }
    return fresh.size();
  }

  /** Owner and group ids share the perm word with 24 bits each. */
  private long permStringId(String s, Reservation res) throws NvmException {
    if (s == null) {
      return 0;
    }
    long id = strings.idFor(s, batch, res);
    if (id > PERM_STRING_ID_MAX) {
      throw invalid("string id " + id + " for '" + s + "' does not fit the 24-bit owner/group field");
    }
    return id;
  }

  // ------------------------------------------------------------------ name chains

  /** Stages FRESH NAME_EXT pages for name bytes past the inline part; returns the first page (0 if none). */
  private long stageNameExt(long ownerId, byte[] name, Reservation res) throws NvmException {
    int n = PageCodec.nameExtPages(name.length);
    long[] pages = new long[n];
    for (int i = 0; i < n; i++) {
      pages[i] = res.next();
    }
    for (int i = 0; i < n; i++) {
      int off = NAME_INLINE_MAX + i * NAME_EXT_MAX;
      int len = Math.min(NAME_EXT_MAX, name.length - off);
      batch.fresh(pages[i], PageCodec.nameExt(ownerId, i + 1 < n ? pages[i + 1] : 0, name, off, len), Field.PAGE);
    }
    return n == 0 ? 0 : pages[0];
  }

  /** FREEs an inode page's extension pages (name and block chains). */
  private void freeExtPages(InodeView v) {
    for (long p : v.nameExtPages()) {
      batch.free(p);
    }
    if (v.isFile()) {
      for (long p : v.blockExtPages()) {
        batch.free(p);
      }
    }
  }

  // ------------------------------------------------------------------ inodes

  /**
   * Creates the root directory (id ROOT_INODE_ID) of an empty region and points
   * SB_ROOT_PAGE at it. Returns the root page.
   */
  public long format(final long mtime, final int mode, final String owner, final String group) throws NvmException {
    if (region.rootPage() != 0) {
      throw new NvmException(ErrorCode.EEXIST, region.file() + " already has a root directory");
    }
    checkMode(mode);
    final int extra = newStrings(owner, group);
    final long[] out = new long[1];
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        res.reserve(1 + extra);
        long page = res.next();
        InodeAttrs a = InodeAttrs.directory("").times(mtime, mtime).mode(mode).quota(ROOT_NS_QUOTA, -1);
        long perm = PageCodec.perm(mode, permStringId(group, res), permStringId(owner, res));
        batch.fresh(page, PageCodec.inode(a, ROOT_INODE_ID, 0, 0, perm, 0, 0), Field.PAGE);
        // Commit: the root becomes LIVE and reachable in one undo-logged step.
        batch.putLong(page + PG_STATE, stateWord(KIND_DIR, STATE_LIVE), Field.STATE);
        batch.putLong(SB_ROOT_PAGE, page, Field.COUNTER);
        batch.putLong(SB_LAST_INODE_ID, Math.max(region.lastInodeId(), ROOT_INODE_ID), Field.COUNTER);
        out[0] = page;
      }
    });
    return out[0];
  }

  /**
   * Creates a file or directory under {@code parentPage} and sets the parent's mtime to
   * the new inode's mtime. Returns the new inode's page offset.
   */
  public long createInode(final long parentPage, final InodeAttrs a) throws NvmException {
    final InodeView parent = requireDir(parentPage);
    checkName(a.name);
    checkMode(a.mode);
    if (!a.directory) {
      checkFileHeader(a.preferredBlockSize, a.replication, a.storagePolicy);
      if ((a.clientName == null) != (a.clientMachine == null)) {
        throw invalid("an under-construction file needs both client name and client machine");
      }
    }
    final long id = a.id != 0 ? a.id : region.lastInodeId() + 1;
    if (id <= 0) {
      throw invalid("inode id " + id);
    }
    final int pages = 1 + PageCodec.nameExtPages(a.name.length)
        + newStrings(a.owner, a.group, a.clientName, a.clientMachine);
    final long[] out = new long[1];
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        res.reserve(pages);
        long page = res.next();
        long perm = PageCodec.perm(a.mode, permStringId(a.group, res), permStringId(a.owner, res));
        long uc = 0;
        if (!a.directory && a.clientName != null) {
          uc = PageCodec.uc(strings.idFor(a.clientName, batch, res), strings.idFor(a.clientMachine, batch, res));
        }
        long firstExt = stageNameExt(id, a.name, res);
        // The image is PENDING: a crash before the commit below leaves a page recovery discards.
        batch.fresh(page, PageCodec.inode(a, id, parentPage, parent.id(), perm, uc, firstExt), Field.PAGE);
        batch.putLong(page + PG_STATE, stateWord(a.directory ? KIND_DIR : KIND_FILE, STATE_LIVE), Field.STATE);
        batch.putLong(parentPage + IN_MTIME, a.mtime, Field.MTIME);
        batch.putLong(SB_LAST_INODE_ID, Math.max(region.lastInodeId(), id), Field.COUNTER);
        out[0] = page;
      }
    });
    return out[0];
  }

  private void putWord(final long target, final long value, final Field field) throws NvmException {
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        batch.putLong(target, value, field);
      }
    });
  }

  public void setMtime(long page, long mtime) throws NvmException {
    requireInode(page);
    putWord(page + IN_MTIME, mtime, Field.MTIME);
  }

  public void setAtime(long page, long atime) throws NvmException {
    requireInode(page);
    putWord(page + IN_ATIME, atime, Field.ATIME);
  }

  /**
   * Sets both times in one batch; -1 leaves a time unchanged (HDFS's setTimes convention),
   * so a single change is one atomic word and only a double change is undo-logged.
   */
  public void setTimes(final long page, final long mtime, final long atime) throws NvmException {
    requireInode(page);
    if (mtime == -1 && atime == -1) {
      return;
    } else if (atime == -1) {
      setMtime(page, mtime);
      return;
    } else if (mtime == -1) {
      setAtime(page, atime);
      return;
    }
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        batch.putBytes(page + IN_MTIME, PageCodec.longs(mtime, atime), Field.MTIME);
      }
    });
  }

  public void setPermission(long page, int mode) throws NvmException {
    InodeView v = requireInode(page);
    checkMode(mode);
    long perm = v.permWord();
    putWord(page + IN_PERM, PageCodec.perm(mode, PageCodec.permGroup(perm), PageCodec.permOwner(perm)), Field.PERM);
  }

  /** Changes owner and/or group (null leaves that part unchanged); new names get STRING pages in the same batch. */
  public void setOwner(final long page, final String owner, final String group) throws NvmException {
    final InodeView v = requireInode(page);
    final int extra = newStrings(owner, group);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        res.reserve(extra);
        long perm = v.permWord();
        long o = owner == null ? PageCodec.permOwner(perm) : permStringId(owner, res);
        long g = group == null ? PageCodec.permGroup(perm) : permStringId(group, res);
        batch.putLong(page + IN_PERM, PageCodec.perm(PageCodec.permMode(perm), g, o), Field.PERM);
      }
    });
  }

  public void setReplication(long page, int replication) throws NvmException {
    InodeView v = requireFile(page);
    checkFileHeader(v.preferredBlockSize(), replication, v.storagePolicy());
    putWord(page + FI_HEADER, PageCodec.fileHeader(v.preferredBlockSize(), replication, v.storagePolicy()),
        Field.FILE_HEADER);
  }

  public void setStoragePolicy(long page, int policy) throws NvmException {
    InodeView v = requireFile(page);
    checkFileHeader(v.preferredBlockSize(), v.replication(), policy);
    putWord(page + FI_HEADER, PageCodec.fileHeader(v.preferredBlockSize(), v.replication(), policy),
        Field.FILE_HEADER);
  }

  public void setPreferredBlockSize(long page, long blockSize) throws NvmException {
    InodeView v = requireFile(page);
    checkFileHeader(blockSize, v.replication(), v.storagePolicy());
    putWord(page + FI_HEADER, PageCodec.fileHeader(blockSize, v.replication(), v.storagePolicy()),
        Field.FILE_HEADER);
  }

  /** Namespace and storage-space quota of a directory (-1 = not set), one 16-byte store. */
  public void setQuota(final long page, final long nsQuota, final long dsQuota) throws NvmException {
    requireDir(page);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        batch.putBytes(page + DI_NS_QUOTA, PageCodec.longs(nsQuota, dsQuota), Field.QUOTA);
      }
    });
  }

  /** Quota of one storage type (0 RAM_DISK, 1 SSD, 2 DISK, 3 ARCHIVE). */
  public void setStorageTypeQuota(long page, int storageType, long quota) throws NvmException {
    requireDir(page);
    if (storageType < 0 || storageType >= DI_TYPE_QUOTA_COUNT) {
      throw invalid("storage type " + storageType + " outside 0.." + (DI_TYPE_QUOTA_COUNT - 1));
    }
    putWord(page + DI_TYPE_QUOTA + 8L * storageType, quota, Field.QUOTA);
  }

  // ------------------------------------------------------------------ rename / delete

  public void rename(long page, long newParentPage, String newName, long mtime) throws NvmException {
    rename(page, newParentPage, newName.getBytes(StandardCharsets.UTF_8), mtime, 0, new long[0]);
  }

  /**
   * Moves {@code page} under {@code newParentPage} as {@code newName}; both parents'
   * mtimes become {@code mtime}. If {@code overwrittenPage} is not 0, that inode (a
   * child of the new parent with the new name) is invalidated in the same batch and
   * it, its extension pages and {@code overwrittenSubtree} (all its descendants) are
   * freed.
   */
  public void rename(final long page, final long newParentPage, final byte[] newName, final long mtime,
      final long overwrittenPage, final long[] overwrittenSubtree) throws NvmException {
    final InodeView v = requireNotRoot(page);
    final InodeView newParent = requireDir(newParentPage);
    checkName(newName);
    final long oldParentPage = v.parentPage();
    requireDir(oldParentPage);
    for (long p = newParentPage; p != 0; p = inode(p).parentPage()) {
      if (p == page) {
        throw invalid("cannot move inode " + v.id() + " under its own subtree");
      }
    }
    final InodeView dst;
    final long[] dstSubtree;
    if (overwrittenPage != 0) {
      dst = requireNotRoot(overwrittenPage);
      if (overwrittenPage == page) {
        throw invalid("rename onto itself");
      }
      if (dst.parentPage() != newParentPage || !Arrays.equals(dst.nameBytes(), newName)) {
        throw invalid("overwritten inode page " + overwrittenPage + " is not '"
            + new String(newName, StandardCharsets.UTF_8) + "' in the destination directory");
      }
      dstSubtree = checkSubtree(overwrittenPage, overwrittenSubtree);
    } else {
      dst = null;
      dstSubtree = new long[0];
    }
    final boolean nameChanged = !Arrays.equals(v.nameBytes(), newName);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        if (nameChanged) {
          res.reserve(PageCodec.nameExtPages(newName.length));
          // A new chain is written out of place; the inode switches to it inside the
          // undo-logged commit and the old chain is freed only after that commit.
          long firstExt = stageNameExt(v.id(), newName, res);
          batch.putBytes(page + IN_NAME_LEN, PageCodec.nameArea(newName, firstExt), Field.NAME);
          for (long p : v.nameExtPages()) {
            batch.free(p);
          }
        }
        if (oldParentPage != newParentPage) {
          batch.putBytes(page + IN_PARENT_PAGE, PageCodec.longs(newParentPage, newParent.id()), Field.PARENT);
          batch.putLong(newParentPage + IN_MTIME, mtime, Field.MTIME);
        }
        batch.putLong(oldParentPage + IN_MTIME, mtime, Field.MTIME);
        if (dst != null) {
          stageRemoval(dst, dstSubtree);
        }
      }
    });
  }

  /**
   * Deletes {@code page} and its subtree. {@code subtreePages} must list every
   * descendant inode page (any order); pages missing from it become orphans that only
   * the next recovery reclaims.
   */
  public void delete(final long page, long[] subtreePages, final long parentPage, final long mtime)
      throws NvmException {
    final InodeView v = requireNotRoot(page);
    if (v.parentPage() != parentPage) {
      throw invalid("inode page " + page + " is not a child of page " + parentPage);
    }
    requireDir(parentPage);
    final long[] subtree = checkSubtree(page, subtreePages);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        batch.putLong(parentPage + IN_MTIME, mtime, Field.MTIME);
        stageRemoval(v, subtree);
      }
    });
  }

  /**
   * The subtree root is made INVALID inside the commit, so after it no recovery can
   * attach it (or, through it, its descendants). The pages are then freed after the
   * commit; a crash in between leaves orphans that recovery reclaims.
   */
  private void stageRemoval(InodeView root, long[] subtree) {
    batch.putLong(root.page() + PG_STATE, stateWord(kindOf(root.stateWord()), STATE_INVALID), Field.STATE);
    batch.free(root.page());
    freeExtPages(root);
    for (long p : subtree) {
      batch.free(p);
      freeExtPages(inode(p));
    }
  }

  /** Checks that every page is a live inode whose parent is the root or another listed page. */
  private long[] checkSubtree(long root, long[] pages) throws NvmException {
    if (pages == null) {
      return new long[0];
    }
    Set<Long> set = new LinkedHashSet<Long>();
    set.add(root);
    for (long p : pages) {
      requireInode(p);
      if (!set.add(p)) {
        throw invalid("subtree page " + p + " listed twice (or is the subtree root)");
      }
    }
    for (long p : pages) {
      if (!set.contains(inode(p).parentPage())) {
        throw invalid("inode page " + p + " is not in the subtree of page " + root);
      }
    }
    return pages.clone();
  }

  // ------------------------------------------------------------------ blocks

  public int addBlock(long page, long blockId, long genstamp) throws NvmException {
    return addBlock(page, blockId, genstamp, -1);
  }

  /**
   * Appends a block record (numBytes 0). If {@code penultimateNumBytes} &gt;= 0 the
   * previous last block's length is set in the same batch. Returns the new block's index.
   */
  public int addBlock(final long page, final long blockId, final long genstamp, final long penultimateNumBytes)
      throws NvmException {
    final InodeView v = requireFile(page);
    final int n = v.blockCount();
    if (penultimateNumBytes >= 0 && n == 0) {
      throw invalid("no penultimate block to complete in inode " + v.id());
    }
    final int k = n - BLOCKS_INLINE_MAX;
    final boolean newExtPage = k >= 0 && k % BLOCKS_EXT_MAX == 0;
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        if (n < BLOCKS_INLINE_MAX) {
          batch.putBytes(page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * n,
              PageCodec.blockRecord(blockId, 0, genstamp), Field.BLOCK);
        } else if (newExtPage) {
          // New chain page written LIVE out of place; the link below (inside the commit) makes it reachable.
          res.reserve(1);
          long ext = res.next();
          batch.fresh(ext, PageCodec.blockExt(v.id(), blockId, 0, genstamp), Field.PAGE);
          int idx = k / BLOCKS_EXT_MAX;
          long link = idx == 0 ? page + FI_BLOCK_EXT : v.blockExtPage(idx - 1) + EXT_NEXT;
          batch.putLong(link, ext, Field.EXT_LINK);
        } else {
          long ext = v.blockExtPage(k / BLOCKS_EXT_MAX);
          int slot = k % BLOCKS_EXT_MAX;
          batch.putBytes(ext + EXT_PAYLOAD + (long) BLOCK_RECORD_SIZE * slot,
              PageCodec.blockRecord(blockId, 0, genstamp), Field.BLOCK);
          batch.putLong(ext + EXT_COUNT, slot + 1, Field.BLOCK_COUNT);
        }
        batch.putLong(page + FI_BLOCK_COUNT, n + 1, Field.BLOCK_COUNT);
        if (penultimateNumBytes >= 0) {
          batch.putLong(v.blockRecordOffset(n - 1) + BR_NUM_BYTES, penultimateNumBytes, Field.BLOCK);
        }
      }
    });
    return n;
  }

  /** Drops the last block record; an extension page left empty is unlinked and freed. */
  public void removeLastBlock(final long page) throws NvmException {
    final InodeView v = requireFile(page);
    final int n = v.blockCount();
    if (n == 0) {
      throw invalid("inode " + v.id() + " has no blocks");
    }
    final int k = n - 1 - BLOCKS_INLINE_MAX;
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        if (k >= 0) {
          int idx = k / BLOCKS_EXT_MAX;
          long ext = v.blockExtPage(idx);
          if (k % BLOCKS_EXT_MAX == 0) {
            long link = idx == 0 ? page + FI_BLOCK_EXT : v.blockExtPage(idx - 1) + EXT_NEXT;
            batch.putLong(link, 0, Field.EXT_LINK);
            batch.free(ext);
          } else {
            batch.putLong(ext + EXT_COUNT, k % BLOCKS_EXT_MAX, Field.BLOCK_COUNT);
          }
        }
        batch.putLong(page + FI_BLOCK_COUNT, n - 1, Field.BLOCK_COUNT);
      }
    });
  }

  /** Sets length and generation stamp of block {@code index} (one 16-byte store). */
  public void updateBlock(final long page, int index, final long numBytes, final long genstamp)
      throws NvmException {
    InodeView v = requireFile(page);
    if (index < 0 || index >= v.blockCount()) {
      throw invalid("block index " + index + " outside 0.." + (v.blockCount() - 1) + " of inode " + v.id());
    }
    final long rec = v.blockRecordOffset(index);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) {
        batch.putBytes(rec + BR_NUM_BYTES, PageCodec.longs(numBytes, genstamp), Field.BLOCK);
      }
    });
  }

  // ------------------------------------------------------------------ under construction

  public void setUnderConstruction(final long page, final String client, final String machine)
      throws NvmException {
    requireFile(page);
    if (client == null || machine == null) {
      throw invalid("client name and client machine are required");
    }
    final int extra = newStrings(client, machine);
    mutate(new Staging() {
      @Override
      public void stage(Reservation res) throws NvmException {
        res.reserve(extra);
        long uc = PageCodec.uc(strings.idFor(client, batch, res), strings.idFor(machine, batch, res));
        batch.putLong(page + FI_UC, uc, Field.UC);
      }
    });
  }

  public void clearUnderConstruction(long page) throws NvmException {
    requireFile(page);
    putWord(page + FI_UC, 0, Field.UC);
  }

  // ------------------------------------------------------------------ superblock counters

  public void setGenerationStampV1(long v) throws NvmException {
    putWord(SB_GENSTAMP_V1, v, Field.COUNTER);
  }

  public void setGenerationStampV2(long v) throws NvmException {
    putWord(SB_GENSTAMP_V2, v, Field.COUNTER);
  }

  public void setGenerationStampV1Limit(long v) throws NvmException {
    putWord(SB_GENSTAMP_V1_LIMIT, v, Field.COUNTER);
  }

  public void setLastAllocatedBlockId(long v) throws NvmException {
    putWord(SB_LAST_BLOCK_ID, v, Field.COUNTER);
  }

  public void setLastInodeId(long v) throws NvmException {
    putWord(SB_LAST_INODE_ID, v, Field.COUNTER);
  }

  public void setLastTxId(long v) throws NvmException {
    putWord(SB_LAST_TXID, v, Field.COUNTER);
  }
}
