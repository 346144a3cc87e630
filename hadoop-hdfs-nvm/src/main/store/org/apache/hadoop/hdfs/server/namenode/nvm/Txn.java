package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits.invalid;
import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * One atomic batch under construction, from {@link InodeStore#begin()}: any number of staged
 * changes, applied by {@link #commit()} with one native call and one commit point. Each staging
 * method validates its arguments and reserves the pages it needs before it stages anything, so a
 * refusal leaves the batch as it was; if anything fails before or during the apply, the reserved
 * pages go back and nothing is written. The native side orders the persists (FRESH pages and the
 * group's redo record, one barrier, then the in-place bytes and FREEs: region-format.md §7.3).
 *
 * <p>Staging methods read the committed state of the region (not what earlier calls of the same
 * transaction staged), so a transaction must not stage two changes of the same field, nor refer to
 * a page it creates. Nothing is written before {@link #commit()}. Not thread-safe: the NameNode
 * stages under its namesystem write lock.
 */
public final class Txn implements AutoCloseable {
  private final InodeStore store;
  private final Region region;
  private final StringTable strings;
  private final MutationBatch batch;
  private final Reservation res;
  private final ExtChains chains;
  private final BlockLists blockLists;

  /** What {@link #newAttrs} hands out; read by {@link #create} and not kept. */
  private final InodeAttrs scratch = InodeAttrs.file("");

  private long lastInodeId;

  /** The last record id this transaction handed out; -1 until it creates a record. */
  private long lastRecordId = -1;

  /** Inodes this transaction creates minus those it removes. */
  private long inodeDelta;

  private boolean done = true;

  /** The store's one transaction object; {@link #start} opens it. */
  Txn(InodeStore store, Region region, StringTable strings, MutationBatch batch, PagePool pool) {
    this.store = store;
    this.region = region;
    this.strings = strings;
    this.batch = batch;
    this.res = new Reservation(pool);
    this.chains = new ExtChains(batch, res, strings);
    this.blockLists = new BlockLists(region, batch, res);
  }

  /** Opens the transaction afresh (from {@link InodeStore#begin()}, holding its lock). */
  void start() {
    batch.clear();
    movedTo = null; // this object serves every batch: a page freed and reused since moved nothing
    strings.abortStaged();
    lastInodeId = region.lastInodeId();
    lastRecordId = -1;
    inodeDelta = 0;
    done = false;
  }

  /**
   * This transaction's attributes object for a new inode, cleared (quotas -1, everything else
   * empty): a directory, a file, or with {@code symlinkTarget} a symlink. It is reused by the next
   * call, so fill it and {@link #create} it before asking for another; {@code create} does not keep
   * it.
   */
  public InodeAttrs newAttrs(boolean directory, byte[] symlinkTarget) {
    check();
    return scratch.reset(directory && symlinkTarget == null, symlinkTarget);
  }

  /** Entries staged so far. */
  public int size() {
    return batch.entryCount();
  }

  /** The pages this transaction frees so far (a debugging check's; walks the batch). */
  public LongLongMap freedPages() {
    LongLongMap freed = ParentLinkGuard.freedPages(batch);
    return freed == null ? new LongLongMap() : freed;
  }

  /** Applies everything staged as one batch. An empty transaction writes nothing. */
  public void commit() throws NvmException {
    check();
    boolean ok = false;
    try {
      if (lastInodeId > region.lastInodeId()) {
        batch.putLong(SB_LAST_INODE_ID, lastInodeId, Field.COUNTER);
      }
      if (lastRecordId >= 0 && lastRecordId > region.counter(SB_LAST_RECORD_ID)) {
        batch.putLong(SB_LAST_RECORD_ID, lastRecordId, Field.COUNTER);
      }
      strings.stageCounter(batch);
      strings.stageFrees(batch); // strings whose last reference this batch drops
      LongSupplier stamp = store.txidStamp();
      if (stamp != null && !batch.isEmpty()) {
        long txid = stamp.getAsLong();
        if (txid > region.counter(SB_LAST_TXID)) {
          batch.putLong(SB_LAST_TXID, txid, Field.COUNTER);
        }
      }
      if (!batch.isEmpty()) {
        store.write(batch);
      }
      ok = true;
    } finally {
      end(ok);
    }
  }

  /**
   * Abandons an uncommitted transaction (no-op after commit, and in a thread that does not hold
   * it).
   */
  @Override
  public void close() {
    if (!done && store.holdsTxn()) {
      end(false);
    }
  }

  private void end(boolean committed) {
    done = true;
    batch.clear();
    if (committed) {
      strings.commitStaged();
      res.committed();
    } else {
      strings.abortStaged();
      res.abandon();
    }
    store.ended(committed ? inodeDelta : 0);
  }

  private void check() {
    if (done) {
      throw new IllegalStateException("transaction already finished");
    }
    if (!store.holdsTxn()) {
      throw new IllegalStateException("transaction used by a thread that did not begin it");
    }
  }

  // ---- words

  /**
   * Stages an 8-byte store. Not for the perm and UC words: they hold string references, which
   * {@link #setPermission} and {@link #setUnderConstruction} count.
   */
  public void putWord(long target, long value, Field field) {
    check();
    notAStringReference(field);
    batch.putLong(target, value, field);
  }

  /** Stages an 8-byte store only if the committed value differs (not the perm or UC word). */
  public void updateWord(long target, long value, Field field) {
    check();
    notAStringReference(field);
    stageIfChanged(target, value, field);
  }

  private void stageIfChanged(long target, long value, Field field) {
    if (region.getLong(target) != value) {
      batch.putLong(target, value, field);
    }
  }

  private static void notAStringReference(Field field) {
    if (field == Field.PERM || field == Field.UC) {
      throw new IllegalArgumentException(
          field + " holds string references: stage it with setPermission/setUnderConstruction");
    }
  }

  /** Stages a store of several adjacent fields inside one page (logged as one range). */
  void putBytes(long target, byte[] data, Field field) {
    check();
    notAStringReference(field);
    batch.putBytes(target, data, field);
  }

  /** Stages a superblock counter only if it grows (counters never decrease). */
  public void raiseCounter(long sbOffset, long value) {
    check();
    if (sbOffset == SB_LAST_INODE_ID) {
      lastInodeId = Math.max(lastInodeId, value);
    } else if (value > region.counter(sbOffset)) {
      batch.putLong(sbOffset, value, Field.COUNTER);
    }
  }

  public void setCounter(long sbOffset, long value) {
    check();
    batch.putLong(sbOffset, value, Field.COUNTER);
  }

  // ---- strings

  /** One more reference to {@code s} (a new string is staged); its id, 0 for null. */
  private long ref(String s) throws NvmException {
    return s == null ? 0 : strings.ref(s, batch, res);
  }

  /** Owner and group ids share the perm word with 24 bits each. */
  private long permRef(String s) throws NvmException {
    long id = ref(s);
    if (id > PERM_STRING_ID_MAX) {
      throw invalid(
          "string id " + id + " for '" + s + "' does not fit the 24-bit owner/group field");
    }
    return id;
  }

  // ---- inodes

  /**
   * Creates the root directory (id ROOT_INODE_ID) of an empty region and points SB_ROOT_PAGE at it
   * (see {@link InodeStore#format}). Returns the root page.
   */
  long createRoot(long mtime, int mode, String owner, String group) throws NvmException {
    check();
    long page = res.next();
    InodeAttrs a =
        InodeAttrs.directory("").times(mtime, mtime).mode(mode).quota(InodeStore.ROOT_NS_QUOTA, -1);
    long perm = PageCodec.perm(mode, permRef(group), permRef(owner));
    int at = batch.freshInPlace(page, PAGE_SIZE, Field.PAGE);
    PageCodec.inode(batch.pageView(), at, a, ROOT_INODE_ID, 0, 0, perm, 0, 0, 0, 0);
    // Commit: the root becomes LIVE and reachable in one logged step.
    batch.putLong(page + PG_STATE, stateWord(KIND_DIR, STATE_LIVE), Field.STATE);
    batch.putLong(SB_ROOT_PAGE, page, Field.COUNTER);
    raiseCounter(SB_LAST_INODE_ID, ROOT_INODE_ID);
    inodeDelta++;
    return page;
  }

  /**
   * Stages a new inode under {@code parentPage} (the parent's mtime is not touched; stage it
   * separately). Returns the new page's offset, valid once committed.
   */
  public long create(long parentPage, InodeAttrs a) throws NvmException {
    check();
    InodeView parent = store.requireDir(parentPage);
    InodeLimits.validate(a);
    long id = a.id != 0 ? a.id : lastInodeId + 1;
    if (id <= 0) {
      throw invalid("inode id " + id);
    }
    long page = res.next();
    long perm = PageCodec.perm(a.mode, permRef(a.group), permRef(a.owner));
    long uc = 0;
    if (!a.directory && a.clientName != null) {
      uc = PageCodec.uc(ref(a.clientName), ref(a.clientMachine), false);
    }
    long firstExt = chains.name(id, a.name);
    long attrs = chains.attributes(id, a.attributes);
    long target = a.symlinkTarget == null ? 0 : chains.symlinkTarget(id, a.symlinkTarget);
    // The image is PENDING: a crash before the commit below leaves a page recovery discards. It is
    // encoded straight into the batch, the buffer the native call reads.
    int at = batch.freshInPlace(page, PAGE_SIZE, Field.PAGE);
    PageCodec.inode(
        batch.pageView(), at, a, id, parentPage, parent.id(), perm, uc, firstExt, attrs, target);
    batch.putLong(page + PG_STATE, stateWord(a.kind(), STATE_LIVE), Field.STATE);
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
    InodeView v = store.requireInode(page);
    InodeLimits.checkMode(mode);
    long perm = v.permWord();
    long o = PageCodec.permOwner(perm), g = PageCodec.permGroup(perm);
    // the same string again (the usual case: a close) changes no reference count
    if (owner != null && !holds(o, owner)) {
      strings.unref(o);
      o = permRef(owner);
    }
    if (group != null && !holds(g, group)) {
      strings.unref(g);
      g = permRef(group);
    }
    stageIfChanged(page + IN_PERM, PageCodec.perm(mode, g, o), Field.PERM);
  }

  /** Whether string id {@code id} (0: none) is {@code s}. */
  private boolean holds(long id, String s) {
    return id != 0 && strings.lookup(s) == id;
  }

  public void setFileHeader(long page, long blockSize, int replication, int policy)
      throws NvmException {
    check();
    store.requireFile(page);
    InodeLimits.checkFileHeader(blockSize, replication, policy);
    updateWord(
        page + FI_HEADER, PageCodec.fileHeader(blockSize, replication, policy), Field.FILE_HEADER);
  }

  /** Client name and machine of an under-construction file; both null = complete. */
  public void setUnderConstruction(long page, String client, String machine) throws NvmException {
    setUnderConstruction(page, client, machine, false);
  }

  /**
   * Client name and machine of an under-construction file (both null = complete), and whether its
   * last block is complete rather than under construction.
   */
  public void setUnderConstruction(
      long page, String client, String machine, boolean lastBlockComplete) throws NvmException {
    check();
    InodeView v = store.requireFile(page);
    if ((client == null) != (machine == null)) {
      throw invalid("an under-construction file needs both client name and client machine");
    }
    long old = v.ucWord();
    strings.unref(PageCodec.ucClient(old));
    strings.unref(PageCodec.ucMachine(old));
    long uc = client == null ? 0 : PageCodec.uc(ref(client), ref(machine), lastBlockComplete);
    stageIfChanged(page + FI_UC, uc, Field.UC);
  }

  public void setQuota(long page, long nsQuota, long dsQuota) throws NvmException {
    check();
    store.requireDir(page);
    updateWord(page + DI_NS_QUOTA, nsQuota, Field.QUOTA);
    updateWord(page + DI_DS_QUOTA, dsQuota, Field.QUOTA);
  }

  public void setTypeQuota(long page, int storageType, long quota) throws NvmException {
    check();
    store.requireDir(page);
    InodeLimits.checkStorageType(storageType);
    updateWord(page + DI_TYPE_QUOTA + 8L * storageType, quota, Field.QUOTA);
  }

  public void setDirectoryStoragePolicy(long page, int policy) throws NvmException {
    check();
    store.requireDir(page);
    if (policy < 0 || policy > 255) {
      throw invalid("storage policy " + policy + " outside 0..255");
    }
    updateWord(page + DI_STORAGE_POLICY, policy, Field.FILE_HEADER);
  }

  /**
   * Allows or disallows snapshots on a directory (DI_SNAPSHOT; the snapshot quota of 2.7.3, whose
   * only persisted states are 0 and its limit): one word, staged only if it changes.
   */
  public void setSnapshottable(long page, boolean snapshottable) throws NvmException {
    check();
    store.requireDir(page);
    updateWord(page + DI_SNAPSHOT, snapshottable ? DI_SNAPSHOTTABLE : 0, Field.QUOTA);
  }

  /**
   * Makes the attribute encoding of an inode {@code encoded} (empty: none), if it differs from the
   * page's: a new ATTR_EXT chain is written out of place, the IN_ATTRS word switches to it in the
   * commit (one 8-byte store: length and first page together), and the old chain is freed after.
   */
  public void setAttributes(long page, byte[] encoded) throws NvmException {
    check();
    InodeView v = store.requireInode(page);
    InodeLimits.checkAttributes(encoded.length);
    long word = v.attrsWord();
    if (word == 0 && encoded.length == 0) {
      return; // the common case, without reading a chain
    }
    if (PageCodec.attrsLength(word) == encoded.length && Arrays.equals(v.attrBytes(), encoded)) {
      return;
    }
    long[] old = v.attrExtPages();
    batch.putLong(page + IN_ATTRS, chains.attributes(v.id(), encoded), Field.ATTRS);
    for (long p : old) {
      batch.free(p);
    }
  }

  /**
   * Makes the block list of a file {@code blocks} (triples id, numBytes, genstamp; {@code n}
   * blocks): changed records are rewritten, new BLOCK_EXT pages are written out of place and
   * linked, pages no longer needed are unlinked and freed.
   */
  public void setBlocks(long page, long[] blocks, int n) throws NvmException {
    check();
    InodeView v = store.requireFile(page);
    if (n < 0 || blocks.length < 3 * n) {
      throw invalid("block list of " + n + " blocks in an array of " + blocks.length);
    }
    blockLists.set(v, page, blocks, n);
  }

  /**
   * Moves {@code page} under {@code newParentPage} as {@code newName} (parents' mtimes are not
   * touched; stage them separately).
   */
  public void move(long page, long newParentPage, byte[] newName) throws NvmException {
    check();
    InodeView v = store.requireNotRoot(page);
    InodeView newParent = store.requireDir(newParentPage);
    InodeLimits.checkName(newName);
    if (wouldCycle(page, newParentPage)) {
      throw invalid("cannot move inode " + v.id() + " under its own subtree");
    }
    if (!Arrays.equals(v.nameBytes(), newName)) {
      // A new chain is written out of place; the inode switches to it inside the
      // batch's commit and the old chain is freed only after that commit.
      long firstExt = chains.name(v.id(), newName);
      batch.putBytes(page + IN_NAME_LEN, PageCodec.nameArea(newName, firstExt), Field.NAME);
      for (long p : v.nameExtPages()) {
        batch.free(p);
      }
    }
    if (v.parentPage() != newParentPage) {
      batch.putBytes(
          page + IN_PARENT_PAGE, PageCodec.longs(newParentPage, newParent.id()), Field.PARENT);
      if (movedTo == null) {
        movedTo = new LongLongMap();
      }
      movedTo.put(page, newParentPage);
    }
  }

  /** Pages this batch moved &rarr; their new parent page (null: none yet; cleared by start). */
  private LongLongMap movedTo;

  /**
   * Whether {@code newParentPage} is {@code page} or below it, with the moves this batch staged
   * before (a batch may move an inode out of a subtree and then the subtree's root under it).
   */
  public boolean wouldCycle(long page, long newParentPage) {
    for (long p = newParentPage; p != 0; ) {
      if (p == page) {
        return true;
      }
      long moved = movedTo == null ? LongLongMap.MISSING : movedTo.get(p);
      p = moved != LongLongMap.MISSING ? moved : store.inode(p).parentPage();
    }
    return false;
  }

  /**
   * Removes a subtree: the root page becomes INVALID inside the commit, so after it no recovery can
   * attach it (or, through it, its descendants); it and {@code subtree} (its descendants) are freed
   * after the commit. A crash in between leaves orphans that recovery reclaims.
   */
  public void remove(long rootPage, long[] subtree) throws NvmException {
    check();
    InodeView root = store.requireNotRoot(rootPage);
    invalidate(root);
    for (long p : subtree) {
      batch.free(p);
      chains.release(store.inode(p));
    }
    inodeDelta -= 1 + subtree.length;
  }

  /**
   * Removes a set of inodes given in any order (e.g. a deleted subtree as HDFS lists it): those
   * whose parent is not in the set are the subtree roots and are invalidated in the commit; every
   * page is freed after it.
   */
  public void removeAll(long[] pages, int n) throws NvmException {
    check();
    // one page (a file's delete, an overwrite) needs no set: its parent is in it only if it is it
    LongLongMap set = n == 1 ? null : new LongLongMap(Math.max(16, n * 2));
    for (int i = 0; i < n; i++) {
      store.requireInode(pages[i]);
      if (set != null) {
        set.put(pages[i], 1);
      }
    }
    for (int i = 0; i < n; i++) {
      InodeView v = store.inode(pages[i]);
      long parent = v.parentPage();
      if (set == null ? parent != pages[0] : !set.containsKey(parent)) {
        store.requireNotRoot(pages[i]);
        invalidate(v);
      } else {
        batch.free(pages[i]);
        chains.release(v);
      }
    }
    inodeDelta -= n;
  }

  private void invalidate(InodeView root) {
    batch.putLong(
        root.page() + PG_STATE, stateWord(kindOf(root.stateWord()), STATE_INVALID), Field.STATE);
    batch.free(root.page());
    chains.release(root);
  }

  // ---- records (region-format.md §5.5)

  /**
   * Stages a new record: its page is written PENDING and made LIVE by the commit (nothing links to
   * a record, so its own state word is its commit), its RECORD_EXT chain is written LIVE out of
   * place and reachable only from it. Returns the record's page, valid once committed.
   */
  public long createRecord(int type, long key, long value, byte[] payload) throws NvmException {
    check();
    if (type <= 0) {
      throw invalid("record type " + type);
    }
    if (lastRecordId < 0) {
      lastRecordId = region.counter(SB_LAST_RECORD_ID);
    }
    long id = lastRecordId + 1;
    long page = res.next();
    long firstExt = chains.recordPayload(id, payload);
    batch.fresh(page, PageCodec.record(type, id, key, value, payload, firstExt), Field.PAGE);
    batch.putLong(page + PG_STATE, stateWord(KIND_RECORD, STATE_LIVE), Field.STATE);
    lastRecordId = id;
    return page;
  }

  /**
   * Stages {@code bytes} into a record's inline payload at {@code offset} (a record whose payload
   * is a set of slots rewritten in place, such as the retry log; logged with the batch).
   */
  public void setRecordPayload(long page, int offset, byte[] bytes) throws NvmException {
    check();
    RecordView v = store.requireRecord(page);
    long inline = Math.min(v.payloadLength(), RECORD_INLINE_MAX);
    if (offset < 0 || bytes.length == 0 || offset + (long) bytes.length > inline) {
      throw invalid(
          "record page "
              + page
              + ": payload range ["
              + offset
              + ", +"
              + bytes.length
              + ") outside "
              + inline
              + " inline bytes");
    }
    batch.putBytes(page + RC_PAYLOAD + offset, bytes, Field.RECORD);
  }

  /** Stages a record's one mutable word (RC_VALUE), if it changes. */
  public void setRecordValue(long page, long value) throws NvmException {
    check();
    store.requireRecord(page);
    stageIfChanged(page + RC_VALUE, value, Field.RECORD);
  }

  /**
   * Removes a record: its page becomes INVALID in the commit; it and its chain (unreachable from
   * then on) are freed after it.
   */
  public void removeRecord(long page) throws NvmException {
    check();
    RecordView v = store.requireRecord(page);
    batch.putLong(page + PG_STATE, stateWord(KIND_RECORD, STATE_INVALID), Field.STATE);
    batch.free(page);
    for (long p : v.extPages()) {
      batch.free(p);
    }
  }
}
