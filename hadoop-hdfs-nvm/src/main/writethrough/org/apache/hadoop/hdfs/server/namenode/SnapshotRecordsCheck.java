package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder;

/**
 * The debugging comparison of the snapshot records with memory ({@code
 * -Dnvm.debug.snapshotSweep=true}; the differential fuzzer and the snapshot restart tests set it):
 * after each batch every diff record head, diff record, entry record and reference record is
 * compared with what memory holds now, and the call fails if one differs that did not differ before
 * the batch: a change the batch's scoped comparison ({@link NvmSnapshotRecords}) missed.
 */
final class SnapshotRecordsCheck {
  private static final org.apache.commons.logging.Log LOG =
      org.apache.commons.logging.LogFactory.getLog(SnapshotRecordsCheck.class);

  static final boolean ON = Boolean.getBoolean("nvm.debug.snapshotSweep");

  private final InodeStore store;
  private final LongLongMap diffPages;
  private final NvmDiffRecords diffs;
  private final NvmEntryRecords entries;
  private final NvmReferenceRecords refs;

  SnapshotRecordsCheck(
      InodeStore store,
      LongLongMap diffPages,
      NvmDiffRecords diffs,
      NvmEntryRecords entries,
      NvmReferenceRecords refs) {
    this.store = store;
    this.diffPages = diffPages;
    this.diffs = diffs;
    this.entries = entries;
    this.refs = refs;
  }

  /** Records that differed from memory before the running batch (the debug check only). */
  private Map<Long, String> drift = java.util.Collections.emptyMap();

  /**
   * At the end of a write operation (-Dnvm.debug.snapshotSweep=true): the records that differ from
   * memory now are noted and logged, and the next batches are not blamed for them. They were
   * changed by an operation that wrote no batch for the change: one that failed after 2.7.3
   * recorded a modification (a stock NameNode replaying its edit log loses that change too), or one
   * whose memory changed after its edit was logged.
   */
  void endOfOperation(FSDirectory fsd) {
    try {
      drift = differing(fsd);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    if (!drift.isEmpty()) {
      LOG.warn(
          "nvm.debug.snapshotSweep: after a write operation (its last batch: "
              + lastVerb
              + "): "
              + drift.values());
    }
  }

  /** The last batch the debug check looked at (for its drift message). */
  private String lastVerb = "none";

  /** After a batch committed: a record that differs now and did not before fails the call. */
  void afterBatch(FSDirectory fsd, String verb) throws IOException {
    lastVerb = verb;
    for (Map.Entry<Long, String> e : differing(fsd).entrySet()) {
      if (!drift.containsKey(e.getKey())) {
        throw new IllegalStateException(
            "nvm.debug.snapshotSweep: " + e.getValue() + " after a batch that did not compare it");
      }
    }
  }

  /** Inode id &rarr; a description, for every diff or reference record unequal to memory. */
  private Map<Long, String> differing(FSDirectory fsd) throws IOException {
    Map<Long, String> out = new java.util.TreeMap<>();
    for (long id : diffPages.keys()) {
      INode n;
      try {
        n = fsd.getInode(id);
      } catch (IllegalStateException e) {
        continue; // a directory 2.7.3 destroyed whose page stays (RemovalParents): not in memory
      }
      if (n != null && n.isReference()) {
        n = n.asReference().getReferredINode();
      }
      if (n == null) {
        continue; // destroyed but still listed by its deleted directory (RemovalParents)
      }
      if (diffs.isLegacy(id)) {
        continue; // an older build's record, compared whole by the inode's next batch
      }
      byte[] want = NvmSnapshotEncoder.head(n);
      byte[] have = store.record(diffPages.get(id)).payload();
      if (want == null || !Arrays.equals(have, want)) {
        out.put(
            id,
            "the diff record of inode "
                + id
                + " ("
                + n.getClass().getSimpleName()
                + " "
                + n.getFullPathName()
                + ") differs from memory"
                + (want == null ? " (no diffs in memory)" : ""));
        continue;
      }
      diffs.differing(n, out);
      if (n.isDirectory()) {
        entries.differing(n.asDirectory(), out);
      }
    }
    for (long id : diffs.inodes()) {
      if (!diffPages.containsKey(id)) {
        out.put(id, "inode " + id + " has diff records but no diff record head");
      }
    }
    refs.differing(fsd, out);
    return out;
  }
}
