package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits.invalid;
import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException.ErrorCode;

/**
 * An open region as the NameNode's inode store. Reads are {@link InodeView}s straight from the
 * mapping (no copy, no JNI); every write is a {@link Txn} from {@link #begin()}: any number of
 * staged changes applied as one atomic batch with one native call. The write-through, the import
 * and the offline demo all write through {@code begin()}; {@link #format} is the one write the
 * store stages itself.
 *
 * <p>Transactions are serialised by the store: {@link #begin()} waits while another thread's
 * transaction is open. Namespace changes begin theirs under the namesystem write lock; the
 * delegation token secret manager logs its master keys and expired tokens from its own thread
 * without that lock (as 2.7.3's edit log allows), so the store cannot rely on it.
 */
public final class InodeStore implements AutoCloseable {
  /** Namespace quota of a formatted root (HDFS's default for "/"). */
  public static final long ROOT_NS_QUOTA = Long.MAX_VALUE;

  private final Region region;
  private final StringTable strings;
  private final MutationBatch batch = new MutationBatch();
  private final PagePool pool;

  /** The one transaction object, handed out by every {@link #begin()} (see {@link Txn}). */
  private final Txn txn;

  /**
   * Live inodes (the root included): what recovery attached at open, then every committed create
   * and removal. Written under the caller's write exclusion, read by the metrics thread.
   */
  private volatile long liveInodes;

  /** The open transaction, if any (at most one); guarded by {@link #txnLock}. */
  private Txn current;

  /** Held from {@link #begin()} until the transaction ends. */
  private final ReentrantLock txnLock = new ReentrantLock();

  /**
   * With HA: the transaction id of the edit whose batch is being committed, stamped into every
   * non-empty batch as SB_LAST_TXID (docs/ha.md); null without HA, where no batch carries one.
   */
  private volatile LongSupplier txidStamp;

  /**
   * Group commit (docs/region-format.md §7.7): commits stage their batch, and {@link #syncMine}
   * (the edit log's {@code logSync}, after the namesystem lock is released) makes it durable;
   * false: every commit is durable when it returns.
   */
  private volatile boolean groupCommit;

  /** The last batch each thread staged (a holder, so that the hot path allocates nothing). */
  private final ThreadLocal<long[]> stagedByThread = ThreadLocal.withInitial(() -> new long[1]);

  /** The last staged batch in the region; raised by {@link #advanceDurable} only. */
  private volatile long durable;

  /** One group commit at a time: a thread that waits here usually finds its batch committed. */
  private final ReentrantLock syncLock = new ReentrantLock();

  private InodeStore(Region region) {
    this.region = region;
    this.strings = StringTable.load(region);
    this.pool = new PagePool(region);
    this.txn = new Txn(this, region, strings, batch, pool);
    this.liveInodes = region.isReadOnly() ? 0 : region.recovery().inodesLive();
  }

  /** Wraps an open region; the store owns it from now on and closes it. */
  public static InodeStore open(Region region) {
    return new InodeStore(region);
  }

  public Region region() {
    return region;
  }

  /**
   * Makes every later non-empty batch raise SB_LAST_TXID to {@code stamp}'s value at its commit, so
   * that the region records the last edit whose change it holds; null turns it off.
   */
  public void stampTxids(LongSupplier stamp) {
    this.txidStamp = stamp;
  }

  LongSupplier txidStamp() {
    return txidStamp;
  }

  /**
   * Turns group commit on or off. Off, every {@link Txn#commit()} is durable when it returns (the
   * import, the offline tools and the tests use that); on, it only stages its batch, and the caller
   * must {@link #syncMine} before it acknowledges the change. Turning it off first commits what is
   * staged.
   */
  public void groupCommit(boolean on) throws NvmException {
    if (!on) {
      syncAll();
    }
    this.groupCommit = on;
  }

  public boolean isGroupCommit() {
    return groupCommit;
  }

  /** A committed transaction's batch: staged (group commit) or applied. Under {@link #txnLock}. */
  void write(MutationBatch batch) throws NvmException {
    if (groupCommit) {
      long seq = region.stage(batch);
      stagedByThread.get()[0] = seq;
      lastStaged = seq;
    } else {
      region.apply(batch);
    }
    if (ParentLinkGuard.ENABLED) {
      ParentLinkGuard.check(this, batch);
    }
  }

  /** The last batch staged by any thread; written under {@link #txnLock}. */
  private volatile long lastStaged;

  /**
   * Commits what is staged once more than {@code batches} batches wait: for a writer that stages a
   * long run of batches with no RPC to answer in between (the standby applying the journal, the
   * import), so that the staged queue and the working copy's private pages stay bounded.
   */
  public void syncIfMoreThan(long batches) throws NvmException {
    if (groupCommit && lastStaged - durable > batches) {
      syncAll();
    }
  }

  /**
   * Whether the last batch this thread staged is not durable yet ({@link #syncMine} would wait).
   */
  public boolean stagedByMeNotDurable() {
    return stagedByThread.get()[0] > durable;
  }

  /**
   * Makes every batch this thread staged durable, together with whatever other threads staged
   * before it (one group commit serves all the threads waiting). {@code all}: every batch staged so
   * far; otherwise (HA, where the region must not get ahead of the journal quorum) only up to this
   * thread's own last batch, which the caller made sure the quorum has acknowledged.
   */
  public void syncMine(boolean all) throws NvmException {
    long mine = stagedByThread.get()[0];
    if (mine <= durable) {
      return;
    }
    // Stock FSEditLog.logSync's ferry: one commit in flight at a time; every thread waiting for
    // it wakes when it ends (notifyAll), those it covered return at once, and the first one it
    // did not cover commits everything staged meanwhile. (Queued on a lock instead, the covered
    // threads would be woken one after the other, and stage nothing new until their turn.)
    boolean interrupted = false;
    synchronized (ferry) {
      while (mine > durable && committing) {
        try {
          ferry.wait();
        } catch (InterruptedException e) {
          interrupted = true; // as stock's logSync: the batch is made durable first
        }
      }
      if (mine <= durable) {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      committing = true;
    }
    try {
      if (all) {
        awaitQueuedWriters();
      }
      syncLock.lock(); // held by pauseCommits and close too
      try {
        if (mine > durable) {
          refuseIfAbandoned();
          advanceDurable(region.sync(all ? Long.MAX_VALUE : mine));
        }
      } finally {
        syncLock.unlock();
      }
    } finally {
      synchronized (ferry) {
        committing = false;
        ferry.notifyAll();
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The commit delay ({@code dfs.namenode.nvm.commit.delay}): before its commit, the group's
   * committer waits up to this long while writers queue for the namesystem lock, so that the
   * batches they are about to stage join this group's one commit (in the disk mode one {@code
   * fdatasync}) instead of the next group's. 0: off. With no writer queued (one client) it does not
   * wait at all; in HA ({@code all} false) it does not wait, since the commit then covers only the
   * committer's own batch.
   */
  private volatile long commitDelayNanos;

  /** How many threads wait for the namesystem lock; null: no commit delay. */
  private volatile IntSupplier writersQueued;

  /** Sets the commit delay (0: off) and how to count the writers it waits for. */
  public void commitDelay(long nanos, IntSupplier queued) {
    this.writersQueued = queued;
    this.commitDelayNanos = Math.max(0, nanos);
  }

  public long commitDelayNanos() {
    return commitDelayNanos;
  }

  private void awaitQueuedWriters() {
    long delay = commitDelayNanos;
    IntSupplier queued = writersQueued;
    if (delay <= 0 || queued == null) {
      return;
    }
    long deadline = System.nanoTime() + delay;
    while (queued.getAsInt() > 0 && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(COMMIT_DELAY_POLL_NANOS);
    }
  }

  /** How often the commit delay looks at the lock's queue again. */
  private static final long COMMIT_DELAY_POLL_NANOS = 10_000;

  /** The ferry's monitor: {@link #committing} and the threads waiting for a commit to end. */
  private final Object ferry = new Object();

  /** A thread of {@link #syncMine} is committing; guarded by {@link #ferry}. */
  private boolean committing;

  /** Makes every staged batch durable. */
  public void syncAll() throws NvmException {
    if (region.isClosed() || region.isReadOnly()) {
      return;
    }
    syncLock.lock();
    try {
      refuseIfAbandoned();
      advanceDurable(region.sync(Long.MAX_VALUE));
    } finally {
      syncLock.unlock();
    }
  }

  /** {@link #durable} only grows, whichever thread's commit returns last. */
  private void advanceDurable(long d) {
    synchronized (ferry) {
      if (d > durable) {
        durable = d;
      }
    }
  }

  /**
   * Holds every commit back until the returned handle is closed, while transactions go on staging:
   * the threads that sync meanwhile wait, and the first one after it commits all of their batches
   * as one group. For tests that need several batches in flight at once (the crash-point sweep).
   */
  public AutoCloseable pauseCommits() {
    syncLock.lock();
    return syncLock::unlock;
  }

  /**
   * No staged batch is committed from now on, not even at {@link #close}: the caller is stopping
   * because what they belong to cannot be kept (with HA: the journal quorum did not acknowledge
   * their ops, and the region must not get ahead of it). They are lost as a crash would lose them.
   */
  public void abandonStaged() {
    abandoned = true;
  }

  /** Read under {@link #syncLock}, so no commit starts after it is set. */
  private volatile boolean abandoned;

  private void refuseIfAbandoned() throws NvmException {
    if (abandoned) {
      throw new NvmException(
          NvmException.ErrorCode.EIO,
          region.file() + ": staged batches were abandoned (the NameNode is stopping)");
    }
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

  public RecordView record(long page) {
    return new RecordView(region, page);
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

  /**
   * Frees every idle string (one without references; they are kept for reuse, see {@link
   * StringTable}) in one batch, durable when this returns. Returns the strings freed.
   */
  public int reclaimIdleStrings() throws NvmException {
    int n = strings.idleCount();
    if (n > 0) {
      try (Txn t = begin()) {
        strings.requestSweep();
        t.commit();
      }
      if (groupCommit) {
        syncAll(); // maintenance, not an RPC: no logSync follows it
      }
    }
    return n;
  }

  /**
   * Closes the region; a writable one first frees its idle strings, so that a clean stop leaves
   * nothing for recovery to reclaim. If that batch cannot be applied (a dead handle, an I/O error),
   * the strings stay for the next recovery to reclaim, and the region is closed anyway.
   */
  @Override
  public void close() throws NvmException {
    try {
      if (!region.isReadOnly() && !region.isClosed() && current == null && !region.debugCrashed()) {
        try {
          reclaimIdleStrings();
        } catch (NvmException e) {
          // recovery reclaims unreferenced strings: nothing is lost
        }
        syncLock.lock();
        try {
          if (!abandoned) { // what is staged goes in before the region closes
            advanceDurable(region.sync(Long.MAX_VALUE));
          }
        } finally {
          syncLock.unlock();
        }
      }
    } finally {
      region.close();
    }
  }

  // ------------------------------------------------------------------ transactions

  /**
   * Starts a transaction: any number of staged operations applied as ONE batch by {@link
   * Txn#commit()} (one native call, one commit point). Only one transaction is open at a time: a
   * second thread waits here until the first ends; a second begin in the same thread is refused.
   * {@link Txn#close()} abandons an uncommitted one.
   */
  public Txn begin() {
    if (region.isClosed()) {
      throw new IllegalStateException("inode store of " + region.file() + " is closed");
    }
    txnLock.lock();
    if (current != null) {
      txnLock.unlock();
      throw new IllegalStateException("a transaction is already open on " + region.file());
    }
    try {
      txn.start();
      current = txn;
    } catch (RuntimeException e) {
      txnLock.unlock();
      throw e;
    }
    return current;
  }

  /** Whether this thread holds the open transaction. */
  boolean holdsTxn() {
    return txnLock.isHeldByCurrentThread();
  }

  /** The open transaction ended; {@code inodeDelta} live inodes were committed (0 if abandoned). */
  void ended(long inodeDelta) {
    current = null;
    liveInodes += inodeDelta;
    txnLock.unlock();
  }

  /**
   * Creates the root directory (id ROOT_INODE_ID) of an empty region and points SB_ROOT_PAGE at it,
   * in one transaction. Returns the root page.
   */
  public long format(long mtime, int mode, String owner, String group) throws NvmException {
    if (region.rootPage() != 0) {
      throw new NvmException(ErrorCode.EEXIST, region.file() + " already has a root directory");
    }
    InodeLimits.checkMode(mode);
    try (Txn t = begin()) {
      long page = t.createRoot(mtime, mode, owner, group);
      t.commit();
      return page;
    }
  }

  // ------------------------------------------------------------------ checks before staging

  /** EINVAL unless {@code page} is the offset of a page of the data area. */
  private void requireDataPage(long page) throws NvmException {
    if (page < DATA_OFFSET
        || (page - DATA_OFFSET) % PAGE_SIZE != 0
        || page + PAGE_SIZE > region.size()) {
      throw invalid("offset " + page + " is not a page of the data area");
    }
  }

  /**
   * The live inode at {@code page}; EINVAL if the offset is not a page or the page not a live
   * inode.
   */
  InodeView requireInode(long page) throws NvmException {
    requireDataPage(page);
    InodeView v = inode(page);
    if (!v.isLive()) {
      throw invalid(
          "page "
              + page
              + " is not a live inode (state word 0x"
              + Long.toHexString(v.stateWord())
              + ")");
    }
    return v;
  }

  InodeView requireDir(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (!v.isDirectory()) {
      throw invalid("inode page " + page + " (id " + v.id() + ") is not a directory");
    }
    return v;
  }

  InodeView requireFile(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (!v.isFile()) {
      throw invalid("inode page " + page + " (id " + v.id() + ") is not a file");
    }
    return v;
  }

  RecordView requireRecord(long page) throws NvmException {
    requireDataPage(page);
    RecordView v = record(page);
    if (!v.isLive()) {
      throw invalid(
          "page "
              + page
              + " is not a live record (state word 0x"
              + Long.toHexString(v.stateWord())
              + ")");
    }
    return v;
  }

  InodeView requireNotRoot(long page) throws NvmException {
    InodeView v = requireInode(page);
    if (page == region.rootPage()) {
      throw invalid("the root directory cannot be renamed or deleted");
    }
    return v;
  }
}
