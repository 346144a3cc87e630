package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.RETRY_CREATE;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.ipc.RetryCache;
import org.apache.hadoop.ipc.RetryCacheInProgress;

/**
 * The answers of the create and append calls the retry log restored at start-up, computed after the
 * namespace is loaded instead of during the load. 2.7.3's replay gives each such retry cache entry
 * its answer (the file's status; an append's last block too) as it adds it, which costs a
 * materialized file and a status per entry: 65,536 of them added about 0.2 s to a restart. Here the
 * restore puts each entry into the retry cache in progress, with its ids, before the NameNode
 * serves, and one daemon thread completes them oldest first under the namesystem read lock, {@link
 * #BATCH} at a time. A call retried before its entry is complete waits for it, as a retry of a call
 * still executing does; it then gets the answer, or, for a file that is gone, executes again (the
 * entry completes as failed, which is what a missing entry did before).
 *
 * <p>Crash ordering is not involved (the entries are read-only copies of the log); what matters is
 * the region's lifetime: {@link #stop} returns only when no batch is reading it, and every entry
 * not completed by then completes as failed, so no retried call waits forever.
 */
final class NvmRetryAnswers implements Runnable {
  static final Log LOG = LogFactory.getLog(NvmRetryAnswers.class);

  /** Entries completed per hold of the read lock. */
  static final int BATCH = 256;

  private final FSNamesystem fsn;
  private final List<NvmRetryLog.Entry> entries;
  private final RetryCache.CacheEntryWithPayload[] pending;

  /** Held while a batch reads the namespace: {@link #stop} takes it to wait for the batch. */
  private final ReentrantLock working = new ReentrantLock();

  private volatile boolean stopped;
  private volatile boolean done;

  private NvmRetryAnswers(
      FSNamesystem fsn, List<NvmRetryLog.Entry> entries, RetryCache.CacheEntryWithPayload[] p) {
    this.fsn = fsn;
    this.entries = entries;
    this.pending = p;
  }

  /**
   * Puts {@code entries} (create and append entries, oldest first) into {@code cache} in progress
   * and starts the thread that answers them; null if there are none. Called under the namesystem
   * write lock (the load's: FSNamesystem.loadFSImage holds it around the region's recovery), so the
   * thread's first batch waits until the namespace is complete.
   */
  static NvmRetryAnswers start(
      FSNamesystem fsn, RetryCache cache, List<NvmRetryLog.Entry> entries, long expiryNanos) {
    if (entries.isEmpty()) {
      return null;
    }
    RetryCache.CacheEntryWithPayload[] p = new RetryCache.CacheEntryWithPayload[entries.size()];
    for (int i = 0; i < p.length; i++) {
      NvmRetryLog.Entry e = entries.get(i);
      p[i] = RetryCacheInProgress.add(cache, e.clientId, e.callId, expiryNanos);
    }
    NvmRetryAnswers a = new NvmRetryAnswers(fsn, entries, p);
    Thread t = new Thread(a, "NVM retry cache answers");
    t.setDaemon(true);
    t.start();
    return a;
  }

  @Override
  public void run() {
    long t0 = System.nanoTime();
    int i = 0;
    int answered = 0;
    try {
      while (i < pending.length) {
        fsn.readLock(); // taken once the load that started this thread releases the write lock
        try {
          working.lock();
          try {
            if (stopped) {
              break;
            }
            for (int end = Math.min(pending.length, i + BATCH); i < end; i++) {
              answered += complete(i) ? 1 : 0;
            }
          } finally {
            working.unlock();
          }
        } finally {
          fsn.readUnlock();
        }
      }
    } finally {
      int failed = pending.length - i;
      for (; i < pending.length; i++) {
        RetryCache.setState(pending[i], false, null); // a waiting retry executes again
      }
      done = true;
      LOG.info(
          "NVM retry cache: "
              + answered
              + " of "
              + pending.length
              + " restored create/append calls answered in "
              + (System.nanoTime() - t0) / 1000000
              + " ms"
              + (failed > 0 ? " (" + failed + " left unanswered at stop)" : ""));
    }
  }

  /** Completes entry {@code i}: with its answer, or as failed when its file is gone. */
  private boolean complete(int i) {
    Object answer = null;
    try {
      answer = answer(fsn, entries.get(i));
    } catch (Exception | AssertionError e) {
      LOG.warn("NVM retry cache: no answer for restored call " + entries.get(i).callId, e);
    }
    RetryCache.setState(pending[i], answer != null, answer);
    return answer != null;
  }

  /**
   * Stops the thread: returns when no batch reads the namespace any more (before the region
   * closes). Safe under the namesystem write lock: a batch runs only under the read lock.
   */
  void stop() {
    stopped = true;
    working.lock();
    working.unlock();
  }

  /** Whether every entry is complete (answered or failed). */
  boolean isDone() {
    return done;
  }

  /**
   * What 2.7.3's replay answers for the entry: a create with the file's status, an append with its
   * last block and status; null when the file is gone (its status cannot be given any more).
   */
  static Object answer(FSNamesystem fsn, NvmRetryLog.Entry e) throws java.io.IOException {
    FSDirectory fsd = fsn.getFSDirectory();
    INode n = fsd.getInode(e.inodeId);
    if (n == null || !n.isFile()) {
      return null;
    }
    HdfsFileStatus stat =
        FSDirStatAndListingOp.createFileStatus(
            fsd,
            n.getFullPathName(),
            HdfsFileStatus.EMPTY_NAME,
            n,
            BlockStoragePolicySuite.ID_UNSPECIFIED,
            Snapshot.CURRENT_STATE_ID,
            false,
            INodesInPath.fromINode(n));
    if (e.kind == RETRY_CREATE) {
      return stat;
    }
    return new LastBlockWithStatus(lastBlock(fsn, n.asFile()), stat);
  }

  /**
   * The last block as an append answers it after a replay: the block under construction with no
   * locations yet (no DataNode has reported), or null if the last block is complete.
   */
  private static LocatedBlock lastBlock(FSNamesystem fsn, INodeFile f) {
    BlockInfoContiguous last = f.getLastBlock();
    if (last == null || last.isComplete()) {
      return null;
    }
    long offset = f.computeFileSize() - last.getNumBytes();
    return new LocatedBlock(
        new ExtendedBlock(fsn.getBlockPoolId(), last), new DatanodeInfo[0], offset, false);
  }
}
