package org.apache.hadoop.hdfs.server.namenode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotSection;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FSImageFormatPBSnapshot;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotCounters;
import org.apache.hadoop.hdfs.server.namenode.snapshot.SnapshotManager;

/**
 * The restart of the snapshot state (region-format.md §13): the records go back into memory through
 * the stock fsimage loader's snapshot methods ({@code FSImageFormatPBSnapshot.Loader}), each record
 * read with its own string table, after the slim rebuild has put every inode back — the inodes only
 * snapshots hold included, which {@link #notInCurrentTree} kept out of their parents' child
 * indexes.
 */
final class SnapshotRestore {
  private SnapshotRestore() {}

  /**
   * The inodes that snapshots' deleted lists hold: their pages keep their parent links, but they
   * are not children in the current tree. Read from the diff records' id lists, before the rebuild.
   */
  static LongLongMap notInCurrentTree(InodeStore store, long[] recordPages) throws IOException {
    LongLongMap ids = new LongLongMap();
    for (long page : recordPages) {
      RecordView v = store.record(page);
      if (v.type() != RegionLayout.RECORD_INODE_DIFFS) {
        continue;
      }
      ByteBuffer b = ByteBuffer.wrap(v.payload()).order(ByteOrder.LITTLE_ENDIAN);
      int n = b.getInt();
      if (n < 0 || n > (b.remaining() / 8)) {
        throw new IOException(
            "NVM region: the diff record of inode " + v.key() + " (page " + page + ") is damaged");
      }
      for (int i = 0; i < n; i++) {
        ids.put(b.getLong(), v.key());
      }
    }
    return ids;
  }

  /** One snapshot record, parsed far enough to order it. */
  private static final class SnapshotRecord implements Comparable<SnapshotRecord> {
    final long page;
    final long dirId;
    final byte[] name;
    final String[] strings;
    final SnapshotSection.Snapshot snapshot;

    SnapshotRecord(long page, long dirId, byte[] payload) throws IOException {
      InputStream in = new ByteArrayInputStream(payload);
      this.page = page;
      this.dirId = dirId;
      this.strings = NvmStringTables.read(in);
      this.snapshot = SnapshotSection.Snapshot.parseDelimitedFrom(in);
      if (snapshot == null) {
        throw new IOException("NVM region: the snapshot record at page " + page + " is empty");
      }
      this.name = snapshot.getRoot().getName().toByteArray();
    }

    /** A directory's snapshots go back in name order, as its list keeps them. */
    @Override
    public int compareTo(SnapshotRecord o) {
      int c = Long.compare(dirId, o.dirId);
      return c != 0 ? c : org.apache.hadoop.hdfs.DFSUtil.compareBytes(name, o.name);
    }
  }

  /**
   * Loads the snapshots, the counter and every diff list; returns the records' pages for the
   * write-through. Files with diffs are pinned in the inode cache (their diffs live on the object).
   */
  static NvmSnapshotRecords restore(
      FSNamesystem fsn, InodeStore store, long[] recordPages, SlimNamespace slim)
      throws IOException {
    NvmSnapshotRecords records = new NvmSnapshotRecords(store);
    List<SnapshotRecord> snapshots = new ArrayList<SnapshotRecord>();
    List<RecordView> diffs = new ArrayList<RecordView>();
    long counter = 0;
    for (long page : recordPages) {
      RecordView v = store.record(page);
      if (v.type() == RegionLayout.RECORD_SNAPSHOT) {
        snapshots.add(new SnapshotRecord(page, v.value(), v.payload()));
        records.restoredSnapshot(v.key(), page);
      } else if (v.type() == RegionLayout.RECORD_INODE_DIFFS) {
        diffs.add(v);
        records.restoredDiffs(v.key(), page);
      } else if (v.type() == RegionLayout.RECORD_SNAPSHOT_IDS) {
        counter = v.value();
        records.restoredCounter(page);
      }
    }
    if (snapshots.isEmpty() && diffs.isEmpty()) {
      return records;
    }
    FSImageFormatProtobuf.Loader image =
        new FSImageFormatProtobuf.Loader(new Configuration(false), fsn, false);
    FSImageFormatPBSnapshot.Loader loader = new FSImageFormatPBSnapshot.Loader(fsn, image);
    Collections.sort(snapshots);
    for (SnapshotRecord s : snapshots) {
      strings(image, s.strings);
      ByteArrayOutputStream section = new ByteArrayOutputStream();
      SnapshotSection.newBuilder()
          .setSnapshotCounter((int) counter)
          .setNumSnapshots(1)
          .build()
          .writeDelimitedTo(section);
      s.snapshot.writeDelimitedTo(section);
      loader.loadSnapshotSection(new ByteArrayInputStream(section.toByteArray()));
    }
    SnapshotManager sm = fsn.getSnapshotManager();
    NvmSnapshotCounters.restored(sm, snapshots.size(), (int) counter);
    for (RecordView v : diffs) {
      ByteArrayInputStream in = new ByteArrayInputStream(v.payload());
      int n = ByteBuffer.wrap(v.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt();
      in.skip(4L + 8L * n);
      strings(image, NvmStringTables.read(in));
      loader.loadSnapshotDiffSection(in);
      INode owner = fsn.getFSDirectory().getInode(v.key());
      if (owner != null && owner.isFile()) {
        slim.fileChanged(owner.asFile());
      }
    }
    // usage as 2.7.3 counts it with snapshots (deleted lists, file diffs), as its fsimage load does
    FSImage.updateCountForQuota(
        fsn.getBlockManager().getStoragePolicySuite(), fsn.getFSDirectory().getRoot());
    return records;
  }

  private static Field stringTable;

  /**
   * The stock loader reads permission, ACL and xattr words through its context's string table,
   * which only its own section loader sets; each record brings its own.
   */
  private static void strings(FSImageFormatProtobuf.Loader image, String[] table)
      throws IOException {
    try {
      if (stringTable == null) {
        Field f = FSImageFormatProtobuf.LoaderContext.class.getDeclaredField("stringTable");
        f.setAccessible(true);
        stringTable = f;
      }
      stringTable.set(image.getLoaderContext(), table);
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot set the stock fsimage loader's string table", e);
    }
  }
}
