package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
  /**
   * Live inodes (the root included): what recovery attached at open, then every committed create
   * and removal. Written under the caller's write exclusion, read by the metrics thread.
   */
  private volatile long liveInodes;

  private InodeStore(Region region) {
    this.region = region;
    this.strings = StringTable.load(region);
    this.pool = new PagePool(region);
    this.liveInodes = region.isReadOnly() ? 0 : region.recovery().inodesLive();
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

  /** Live inodes in the region, the root included (0 for a region opened read-only). */
  public long liveInodes() {
    return liveInodes;
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

  /** Stages operations into a {@link Txn}; every public mutation is one. */
  interface Staging {
    void stage(Txn t) throws NvmException;
  }

  private Txn current;

  /**
   * Starts a transaction: any number of staged operations applied as ONE batch by
   * {@link Txn#commit()} (one native call, one commit point). Only one transaction can
   * be open at a time; {@link Txn#close()} abandons an uncommitted one.
   */
  public Txn begin() {
    if (region.isClosed()) {
      throw new IllegalStateException("inode store of " + region.file() + " is closed");
    }
    if (current != null) {
      throw new IllegalStateException("a transaction is already open on " + region.file());
    }
    current = new Txn();
    return current;
  }

  /** Stages one operation and applies it with exactly one native call. */
  private void mutate(Staging op) throws NvmException {
    try (Txn t = begin()) {
      op.stage(t);
      t.commit();
    }
  }

  /**
   * One atomic batch under construction. Staging methods read the committed state of
   * the region (not what earlier calls of the same transaction staged), so a
   * transaction must not stage two changes of the same field, nor refer to a page it
   * creates. Nothing is written before {@link #commit()}.
   */
  public final class Txn implements AutoCloseable {
    private final Reservation res = new Reservation(pool);
    private long lastInodeId;
    /** Inodes this transaction creates minus those it removes. */
    private long inodeDelta;
    private boolean done;

    private Txn() {
      batch.clear();
      strings.abortStaged();
      lastInodeId = region.lastInodeId();
    }

    /** Entries staged so far. */
    public int size() {
      return batch.entryCount();
    }

    /** Applies everything staged as one batch. An empty transaction writes nothing. */
    public void commit() throws NvmException {
      check();
      boolean ok = false;
      try {
        if (lastInodeId > region.lastInodeId()) {
          batch.putLong(SB_LAST_INODE_ID, lastInodeId, Field.COUNTER);
        }
        strings.stageCounter(batch);
        if (!batch.isEmpty()) {
          region.apply(batch);
        }
        ok = true;
      } finally {
        done = true;
        current = null;
        batch.clear();
        if (ok) {
          strings.commitStaged();
          res.committed();
          liveInodes += inodeDelta;
        } else {
          strings.abortStaged();
          res.abandon();
        }
      }
    }

    /** Abandons an uncommitted transaction (no-op after commit). */
    @Override
    public void close() {
      if (!done) {
        done = true;
        current = null;
        batch.clear();
        strings.abortStaged();
        res.abandon();
      }
    }

    private void check() {
      if (done) {
        throw new IllegalStateException("transaction already finished");
      }
    }

    // ---- words

    /** Stages an 8-byte store. */
    public void putWord(long target, long value, Field field) {
      check();
      batch.putLong(target, value, field);
    }

    /** Stages an 8-byte store only if the committed value differs. */
    public void updateWord(long target, long value, Field field) {
      check();
      if (region.getLong(target) != value) {
        batch.putLong(target, value, field);
      }
    }

    /** Stages a superblock counter only if it grows (counters never decrease). */
    public void raiseCounter(long sbOffset, long value) {
      check();
      if (sbOffset == SB_LAST_INODE_ID) {
        lastInodeId = Math.max(lastInodeId, value);
      } else if (value > region.getLong(sbOffset)) {
        batch.putLong(sbOffset, value, Field.COUNTER);
      }
    }

    public void setCounter(long sbOffset, long value) {
      check();
      batch.putLong(sbOffset, value, Field.COUNTER);
    }

    // ---- strings

    long stringId(String s) throws NvmException {
      return s == null ? 0 : strings.idFor(s, batch, res);
    }

    /** Owner and group ids share the perm word with 24 bits each. */
    long permStringId(String s) throws NvmException {
      long id = stringId(s);
      if (id > PERM_STRING_ID_MAX) {
        throw invalid("string id " + id + " for '" + s + "' does not fit the 24-bit owner/group field");
      }
      return id;
    }

    // ---- inodes

    /**
     * Stages a new inode under {@code parentPage} (the parent's mtime is not touched;
     * stage it separately). Returns the new page's offset, valid once committed.
     */
    public long create(long parentPage, InodeAttrs a) throws NvmException {
      check();
      InodeView parent = requireDir(parentPage);
      checkAttrs(a);
      long id = a.id != 0 ? a.id : lastInodeId + 1;
      if (id <= 0) {
        throw invalid("inode id " + id);
      }
      StringTable.check(a.owner);
      StringTable.check(a.group);
      StringTable.check(a.clientName);
      StringTable.check(a.clientMachine);
      long page = res.next();
      long perm = PageCodec.perm(a.mode, permStringId(a.group), permStringId(a.owner));
      long uc = 0;
      if (!a.directory && a.clientName != null) {
        uc = PageCodec.uc(stringId(a.clientName), stringId(a.clientMachine));
      }
      long firstExt = stageNameExt(id, a.name, res);
      // The image is PENDING: a crash before the commit below leaves a page recovery discards.
      batch.fresh(page, PageCodec.inode(a, id, parentPage, parent.id(), perm, uc, firstExt), Field.PAGE);
      batch.putLong(page + PG_STATE, stateWord(a.directory ? KIND_DIR : KIND_FILE, STATE_LIVE), Field.STATE);
      lastInodeId = Math.max(lastInodeId, id);
      inodeDelta++;
      return page;
    }

    public void setMtime(long page, long mtime) {
      updateWord(page + IN_MTIME, mtime, Field.MTIME);
    }

    public void setAtime(long page, long atime) {
      updateWord(page + IN_ATIME, atime, Field.ATIME);
    }

    /** Mode, owner and group in one word (null owner/group: keep the current one). */
    public void setPermission(long page, int mode, String owner, String group) throws NvmException {
      check();
      InodeView v = requireInode(page);
      checkMode(mode);
      StringTable.check(owner);
      StringTable.check(group);
      long perm = v.permWord();
      long o = owner == null ? PageCodec.permOwner(perm) : permStringId(owner);
      long g = group == null ? PageCodec.permGroup(perm) : permStringId(group);
      updateWord(page + IN_PERM, PageCodec.perm(mode, g, o), Field.PERM);
    }

    public void setFileHeader(long page, long blockSize, int replication, int policy) throws NvmException {
      check();
      requireFile(page);
      checkFileHeader(blockSize, replication, policy);
      updateWord(page + FI_HEADER, PageCodec.fileHeader(blockSize, replication, policy), Field.FILE_HEADER);
    }

    /** Client name and machine of an under-construction file; both null = complete. */
    public void setUnderConstruction(long page, String client, String machine) throws NvmException {
      check();
      requireFile(page);
      if ((client == null) != (machine == null)) {
        throw invalid("an under-construction file needs both client name and client machine");
      }
      StringTable.check(client);
      StringTable.check(machine);
      long uc = client == null ? 0 : PageCodec.uc(stringId(client), stringId(machine));
      updateWord(page + FI_UC, uc, Field.UC);
    }

    public void setQuota(long page, long nsQuota, long dsQuota) throws NvmException {
      check();
      requireDir(page);
      updateWord(page + DI_NS_QUOTA, nsQuota, Field.QUOTA);
      updateWord(page + DI_DS_QUOTA, dsQuota, Field.QUOTA);
    }

    public void setTypeQuota(long page, int storageType, long quota) throws NvmException {
      check();
      requireDir(page);
      if (storageType < 0 || storageType >= DI_TYPE_QUOTA_COUNT) {
        throw invalid("storage type " + storageType + " outside 0.." + (DI_TYPE_QUOTA_COUNT - 1));
      }
      updateWord(page + DI_TYPE_QUOTA + 8L * storageType, quota, Field.QUOTA);
    }

    public void setDirectoryStoragePolicy(long page, int policy) throws NvmException {
      check();
      requireDir(page);
      if (policy < 0 || policy > 255) {
        throw invalid("storage policy " + policy + " outside 0..255");
      }
      updateWord(page + DI_STORAGE_POLICY, policy, Field.FILE_HEADER);
    }

    /**
     * Makes the block list of a file {@code blocks} (triples id, numBytes, genstamp;
     * {@code n} blocks): changed records are rewritten, new BLOCK_EXT pages are written
     * out of place and linked, pages no longer needed are unlinked and freed.
     */
    public void setBlocks(long page, long[] blocks, int n) throws NvmException {
      check();
      InodeView v = requireFile(page);
      if (n < 0 || blocks.length < 3 * n) {
        throw invalid("block list of " + n + " blocks in an array of " + blocks.length);
      }
      int c = v.blockCount();
      long[] ext = v.blockExtPages();
      for (int i = 0; i < Math.min(n, BLOCKS_INLINE_MAX); i++) {
        stageRecord(page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * i, i < c, blocks, i);
      }
      int need = blockExtPageCount(n);
      int have = ext.length;
      for (int j = 0; j < Math.min(need, have); j++) {
        int first = BLOCKS_INLINE_MAX + j * BLOCKS_EXT_MAX;
        int count = Math.min(BLOCKS_EXT_MAX, n - first);
        for (int s = 0; s < count; s++) {
          stageRecord(ext[j] + EXT_PAYLOAD + (long) BLOCK_RECORD_SIZE * s, first + s < c, blocks, first + s);
        }
        updateWord(ext[j] + EXT_COUNT, count, Field.BLOCK_COUNT);
      }
      if (need > have) {
        long[] fresh = new long[need - have];
        for (int j = 0; j < fresh.length; j++) {
          fresh[j] = res.next();
        }
        for (int j = have; j < need; j++) {
          int first = BLOCKS_INLINE_MAX + j * BLOCKS_EXT_MAX;
          int count = Math.min(BLOCKS_EXT_MAX, n - first);
          long next = j + 1 < need ? fresh[j + 1 - have] : 0;
          // Written LIVE out of place; the link below (inside the commit) makes it reachable.
          batch.fresh(fresh[j - have], PageCodec.blockExt(v.id(), next, blocks, first, count), Field.PAGE);
        }
        long link = have == 0 ? page + FI_BLOCK_EXT : ext[have - 1] + EXT_NEXT;
        batch.putLong(link, fresh[0], Field.EXT_LINK);
      } else if (need < have) {
        long link = need == 0 ? page + FI_BLOCK_EXT : ext[need - 1] + EXT_NEXT;
        batch.putLong(link, 0, Field.EXT_LINK);
        for (int j = need; j < have; j++) {
          batch.free(ext[j]);
        }
      }
      if (n != c) {
        batch.putLong(page + FI_BLOCK_COUNT, n, Field.BLOCK_COUNT);
      }
    }

    private void stageRecord(long rec, boolean exists, long[] blocks, int i) {
      long id = blocks[3 * i];
      long len = blocks[3 * i + 1];
      long gs = blocks[3 * i + 2];
      if (exists && region.getLong(rec + BR_ID) == id && region.getLong(rec + BR_NUM_BYTES) == len
          && region.getLong(rec + BR_GENSTAMP) == gs) {
        return;
      }
      if (exists && region.getLong(rec + BR_ID) == id) {
        if (region.getLong(rec + BR_GENSTAMP) == gs) {
          batch.putLong(rec + BR_NUM_BYTES, len, Field.BLOCK);
        } else {
          batch.putBytes(rec + BR_NUM_BYTES, PageCodec.longs(len, gs), Field.BLOCK);
        }
        return;
      }
      batch.putBytes(rec, PageCodec.blockRecord(id, len, gs), Field.BLOCK);
    }

    /**
     * Moves {@code page} under {@code newParentPage} as {@code newName} (parents' mtimes
     * are not touched; stage them separately).
     */
    public void move(long page, long newParentPage, byte[] newName) throws NvmException {
      check();
      InodeView v = requireNotRoot(page);
      InodeView newParent = requireDir(newParentPage);
      checkName(newName);
      for (long p = newParentPage; p != 0; p = inode(p).parentPage()) {
        if (p == page) {
          throw invalid("cannot move inode " + v.id() + " under its own subtree");
        }
      }
      if (!Arrays.equals(v.nameBytes(), newName)) {
        // A new chain is written out of place; the inode switches to it inside the
        // undo-logged commit and the old chain is freed only after that commit.
        long firstExt = stageNameExt(v.id(), newName, res);
        batch.putBytes(page + IN_NAME_LEN, PageCodec.nameArea(newName, firstExt), Field.NAME);
        for (long p : v.nameExtPages()) {
          batch.free(p);
        }
      }
      if (v.parentPage() != newParentPage) {
        batch.putBytes(page + IN_PARENT_PAGE, PageCodec.longs(newParentPage, newParent.id()), Field.PARENT);
      }
    }

    /**
     * Removes a subtree: the root page becomes INVALID inside the commit, so after it no
     * recovery can attach it (or, through it, its descendants); it and {@code subtree}
     * (its descendants) are freed after the commit. A crash in between leaves orphans
     * that recovery reclaims.
     */
    public void remove(long rootPage, long[] subtree) throws NvmException {
      check();
      InodeView root = requireNotRoot(rootPage);
      invalidate(root);
      for (long p : subtree) {
        batch.free(p);
        freeExtPages(inode(p));
      }
      inodeDelta -= 1 + subtree.length;
    }

    /**
     * Removes a set of inodes given in any order (e.g. a deleted subtree as HDFS lists
     * it): those whose parent is not in the set are the subtree roots and are
     * invalidated in the commit; every page is freed after it.
     */
    public void removeAll(long[] pages, int n) throws NvmException {
      check();
      LongLongMap set = new LongLongMap(Math.max(16, n * 2));
      for (int i = 0; i < n; i++) {
        requireInode(pages[i]);
        set.put(pages[i], 1);
      }
      for (int i = 0; i < n; i++) {
        InodeView v = inode(pages[i]);
        if (!set.containsKey(v.parentPage())) {
          requireNotRoot(pages[i]);
          invalidate(v);
        } else {
          batch.free(pages[i]);
          freeExtPages(v);
        }
      }
      inodeDelta -= n;
    }

    private void invalidate(InodeView root) {
      batch.putLong(root.page() + PG_STATE, stateWord(kindOf(root.stateWord()), STATE_INVALID), Field.STATE);
      batch.free(root.page());
      freeExtPages(root);
    }
  }

  /**
   * Throws the NvmException {@link Txn#create} would throw for these attributes (name, mode,
   * file header, under-construction pair, string lengths) without touching a region.
   */
  public static void validate(InodeAttrs a) throws NvmException {
    checkAttrs(a);
    StringTable.check(a.owner);
    StringTable.check(a.group);
    StringTable.check(a.clientName);
    StringTable.check(a.clientMachine);
  }

  /**
   * Pages an inode with these attributes and {@code blocks} block records takes: its page, its
   * name-extension pages and its block-extension pages (strings not included).
   */
  public static long pagesFor(InodeAttrs a, int blocks) {
    return 1 + PageCodec.nameExtPages(a.name.length) + blockExtPageCount(blocks);
  }

  /** BLOCK_EXT pages holding the block records past the inline ones. */
  private static int blockExtPageCount(int blocks) {
    return blocks <= BLOCKS_INLINE_MAX ? 0 : (blocks - BLOCKS_INLINE_MAX + BLOCKS_EXT_MAX - 1) / BLOCKS_EXT_MAX;
  }

  private static void checkAttrs(InodeAttrs a) throws NvmException {
    checkName(a.name);
    checkMode(a.mode);
    if (!a.directory) {
      checkFileHeader(a.preferredBlockSize, a.replication, a.storagePolicy);
      if ((a.clientName == null) != (a.clientMachine == null)) {
        throw invalid("an under-construction file needs both client name and client machine");
      }
    }
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
    StringTable.check(owner);
    StringTable.check(group);
    final long[] out = new long[1];
    mutate(t -> {
      long page = t.res.next();
      InodeAttrs a = InodeAttrs.directory("").times(mtime, mtime).mode(mode).quota(ROOT_NS_QUOTA, -1);
      long perm = PageCodec.perm(mode, t.permStringId(group), t.permStringId(owner));
      batch.fresh(page, PageCodec.inode(a, ROOT_INODE_ID, 0, 0, perm, 0, 0), Field.PAGE);
      // Commit: the root becomes LIVE and reachable in one undo-logged step.
      batch.putLong(page + PG_STATE, stateWord(KIND_DIR, STATE_LIVE), Field.STATE);
      batch.putLong(SB_ROOT_PAGE, page, Field.COUNTER);
      t.raiseCounter(SB_LAST_INODE_ID, ROOT_INODE_ID);
      t.inodeDelta++;
      out[0] = page;
    });
    return out[0];
  }

  /**
   * Creates a file or directory under {@code parentPage} and sets the parent's mtime to
   * the new inode's mtime. Returns the new inode's page offset.
   */
  public long createInode(final long parentPage, final InodeAttrs a) throws NvmException {
    final long[] out = new long[1];
    mutate(t -> {
      out[0] = t.create(parentPage, a);
      t.putWord(parentPage + IN_MTIME, a.mtime, Field.MTIME);
    });
    return out[0];
  }

  private void putWord(final long target, final long value, final Field field) throws NvmException {
    mutate(t -> t.putWord(target, value, field));
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
    mutate(t -> batch.putBytes(page + IN_MTIME, PageCodec.longs(mtime, atime), Field.MTIME));
  }

  public void setPermission(long page, int mode) throws NvmException {
    requireInode(page);
    checkMode(mode);
    mutate(t -> t.putWord(page + IN_PERM, permWith(page, mode, null, null, t), Field.PERM));
  }

  private long permWith(long page, int mode, String owner, String group, Txn t) throws NvmException {
    long perm = inode(page).permWord();
    long o = owner == null ? PageCodec.permOwner(perm) : t.permStringId(owner);
    long g = group == null ? PageCodec.permGroup(perm) : t.permStringId(group);
    return PageCodec.perm(mode, g, o);
  }

  /** Changes owner and/or group (null leaves that part unchanged); new names get STRING pages in the same batch. */
  public void setOwner(final long page, final String owner, final String group) throws NvmException {
    final InodeView v = requireInode(page);
    StringTable.check(owner);
    StringTable.check(group);
    mutate(t -> t.putWord(page + IN_PERM, permWith(page, v.mode(), owner, group, t), Field.PERM));
  }

  public void setReplication(long page, int replication) throws NvmException {
    InodeView v = requireFile(page);
    checkFileHeader(v.preferredBlockSize(), replication, v.storagePolicy());
    putWord(page + FI_HEADER, PageCodec.fileHeader(v.preferredBlockSize(), replication, v.storagePolicy()),
        Field.FILE_HEADER);
  }

  /** A file's policy (in its header word) or a directory's (DI_STORAGE_POLICY). */
  public void setStoragePolicy(long page, int policy) throws NvmException {
    InodeView v = requireInode(page);
    if (v.isDirectory()) {
      mutate(t -> t.setDirectoryStoragePolicy(page, policy));
      return;
    }
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
    mutate(t -> batch.putBytes(page + DI_NS_QUOTA, PageCodec.longs(nsQuota, dsQuota), Field.QUOTA));
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
    requireDir(newParentPage);
    checkName(newName);
    final long oldParentPage = v.parentPage();
    requireDir(oldParentPage);
    final long[] dstSubtree;
    if (overwrittenPage != 0) {
      InodeView dst = requireNotRoot(overwrittenPage);
      if (overwrittenPage == page) {
        throw invalid("rename onto itself");
      }
      if (dst.parentPage() != newParentPage || !Arrays.equals(dst.nameBytes(), newName)) {
        throw invalid("overwritten inode page " + overwrittenPage + " is not '"
            + new String(newName, StandardCharsets.UTF_8) + "' in the destination directory");
      }
      dstSubtree = checkSubtree(overwrittenPage, overwrittenSubtree);
    } else {
      dstSubtree = null;
    }
    mutate(t -> {
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
    mutate(t -> {
      t.putWord(parentPage + IN_MTIME, mtime, Field.MTIME);
      t.remove(page, subtree);
    });
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

  /** The block list of a file as triples (id, numBytes, genstamp), with room for {@code extra} more. */
  public long[] blocks(long page, int extra) {
    InodeView v = inode(page);
    int n = v.blockCount();
    long[] out = new long[3 * (n + extra)];
    for (int i = 0; i < n; i++) {
      long rec = v.blockRecordOffsetUnchecked(i);
      out[3 * i] = region.getLong(rec + BR_ID);
      out[3 * i + 1] = region.getLong(rec + BR_NUM_BYTES);
      out[3 * i + 2] = region.getLong(rec + BR_GENSTAMP);
    }
    return out;
  }

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
    final long[] b = blocks(page, 1);
    b[3 * n] = blockId;
    b[3 * n + 1] = 0;
    b[3 * n + 2] = genstamp;
    if (penultimateNumBytes >= 0) {
      b[3 * (n - 1) + 1] = penultimateNumBytes;
    }
    mutate(t -> t.setBlocks(page, b, n + 1));
    return n;
  }

  /** Drops the last block record; an extension page left empty is unlinked and freed. */
  public void removeLastBlock(final long page) throws NvmException {
    final InodeView v = requireFile(page);
    final int n = v.blockCount();
    if (n == 0) {
      throw invalid("inode " + v.id() + " has no blocks");
    }
    final long[] b = blocks(page, 0);
    mutate(t -> t.setBlocks(page, b, n - 1));
  }

  /** Sets length and generation stamp of block {@code index} (one 16-byte store). */
  public void updateBlock(final long page, int index, final long numBytes, final long genstamp)
      throws NvmException {
    InodeView v = requireFile(page);
    if (index < 0 || index >= v.blockCount()) {
      throw invalid("block index " + index + " outside 0.." + (v.blockCount() - 1) + " of inode " + v.id());
    }
    final long rec = v.blockRecordOffset(index);
    mutate(t -> batch.putBytes(rec + BR_NUM_BYTES, PageCodec.longs(numBytes, genstamp), Field.BLOCK));
  }

  // ------------------------------------------------------------------ under construction

  public void setUnderConstruction(final long page, final String client, final String machine)
      throws NvmException {
    requireFile(page);
    if (client == null || machine == null) {
      throw invalid("client name and client machine are required");
    }
    mutate(t -> t.setUnderConstruction(page, client, machine));
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
