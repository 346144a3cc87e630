package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmDiffEntries;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotAccess;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.server.namenode.snapshot.SnapshotManager;

/**
 * The snapshot records of an imported namespace (region-format.md §13), with the payloads the
 * running NameNode writes for the same objects ({@link NvmSnapshotEncoder}): one per snapshot, the
 * id counter, one per inode with a diff list (the pages {@link NvmImportTree} places, so the inodes
 * only snapshots hold too), one per current reference.
 */
final class NvmImportSnapshots {
  /** One record to create. */
  static final class Record {
    final int type;
    final long key;
    final long value;
    final byte[] payload;

    Record(int type, long key, long value, byte[] payload) {
      this.type = type;
      this.key = key;
      this.value = value;
      this.payload = payload;
    }

    String describe() {
      return "snapshot record type "
          + type
          + " key "
          + key
          + " value "
          + value
          + " payload sha256 "
          + DigestUtils.sha256Hex(payload);
    }
  }

  private NvmImportSnapshots() {}

  static List<Record> records(FSNamesystem fsn, NvmImportTree tree) throws IOException {
    List<Record> out = new ArrayList<Record>();
    SnapshotManager sm = fsn.getSnapshotManager();
    for (INodeDirectory d : NvmSnapshotAccess.snapshottableDirs(sm)) {
      for (Snapshot s : d.getDirectorySnapshottableFeature().getSnapshotList()) {
        out.add(
            new Record(
                RegionLayout.RECORD_SNAPSHOT,
                s.getId(),
                d.getId(),
                NvmSnapshotEncoder.snapshot(s)));
      }
    }
    int counter = NvmSnapshotAccess.counter(sm);
    if (counter != 0) {
      out.add(new Record(RegionLayout.RECORD_SNAPSHOT_IDS, 0, counter, new byte[0]));
    }
    for (NvmImportTree.Page p : tree.pages) {
      byte[] diffs = NvmSnapshotEncoder.head(p.inode);
      if (diffs != null) {
        out.add(new Record(RegionLayout.RECORD_INODE_DIFFS, p.inode.getId(), 0, diffs));
        for (int i = 0; i < NvmSnapshotEncoder.diffCount(p.inode); i++) {
          out.add(
              new Record(
                  RegionLayout.RECORD_DIFF,
                  p.inode.getId(),
                  NvmSnapshotEncoder.diffId(p.inode, i),
                  NvmSnapshotEncoder.diff(p.inode, i)));
        }
        if (p.inode.isDirectory()) {
          for (Map.Entry<Long, byte[]> e : NvmDiffEntries.all(p.inode.asDirectory()).entrySet()) {
            out.add(
                new Record(
                    RegionLayout.RECORD_DIFF_ENTRY, p.inode.getId(), e.getKey(), e.getValue()));
          }
        }
      }
    }
    for (NvmImportTree.Reference r : tree.references) {
      out.add(
          new Record(
              RegionLayout.RECORD_INODE_REF,
              r.ref.getId(),
              r.parent.getId(),
              NvmSnapshotEncoder.reference(r.ref)));
    }
    return out;
  }

  /** Pages the records take (each a record page and its extension chain). */
  static long pages(List<Record> records) {
    long n = 0;
    for (Record r : records) {
      n += 1 + PageCodec.recordExtPages(r.payload.length);
    }
    return n;
  }

  static void write(InodeStore store, List<Record> records) throws IOException {
    List<RecordBatches.Stage> stages = new ArrayList<RecordBatches.Stage>();
    for (Record r : records) {
      stages.add(t -> t.createRecord(r.type, r.key, r.value, r.payload));
    }
    RecordBatches.commitInBatches(store, stages);
  }

  /** The records as sorted lines, for the verification. */
  static List<String> describe(List<Record> records) {
    List<String> out = new ArrayList<String>();
    for (Record r : records) {
      out.add(r.describe());
    }
    Collections.sort(out);
    return out;
  }

  /** The snapshot records a region holds, as {@link #describe(List)} writes them. */
  static List<String> describe(Region region) throws IOException {
    List<Record> in = new ArrayList<Record>();
    for (long page : RecordView.scan(region)) {
      RecordView r = new RecordView(region, page);
      switch (r.type()) {
        case RegionLayout.RECORD_SNAPSHOT:
        case RegionLayout.RECORD_SNAPSHOT_IDS:
        case RegionLayout.RECORD_INODE_DIFFS:
        case RegionLayout.RECORD_INODE_REF:
        case RegionLayout.RECORD_DIFF_ENTRY:
        case RegionLayout.RECORD_DIFF:
          in.add(new Record(r.type(), r.key(), r.value(), r.payload()));
          break;
        default:
      }
    }
    return describe(in);
  }
}
