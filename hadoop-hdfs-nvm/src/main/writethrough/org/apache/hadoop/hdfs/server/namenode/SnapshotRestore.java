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
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeReferenceSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotSection;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FSImageFormatPBSnapshot;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotAccess;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
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
   * The inodes only snapshots hold: their pages keep their parent links, but they are not children
   * in the current tree. They are the inodes the diff records' deleted lists hold, and the inodes
   * their references there refer to unless a current reference (RECORD_INODE_REF) names them too.
   * Read from the records' id lists, before the rebuild.
   */
  static LongLongMap notInCurrentTree(InodeStore store, long[] recordPages) throws IOException {
    LongLongMap ids = new LongLongMap();
    LongLongMap current = new LongLongMap();
    for (long page : recordPages) {
      RecordView v = store.record(page);
      if (v.type() == RegionLayout.RECORD_INODE_REF) {
        current.put(v.key(), page);
        continue;
      }
      if (v.type() != RegionLayout.RECORD_INODE_DIFFS) {
        continue;
      }
      ByteBuffer b = ByteBuffer.wrap(v.payload()).order(ByteOrder.LITTLE_ENDIAN);
      for (int list = 0; list < 2; list++) {
        int n = b.remaining() >= 4 ? b.getInt() : -1;
        if (n < 0 || n > (b.remaining() / 8)) {
          throw new IOException(
              "NVM region: the diff record of inode "
                  + v.key()
                  + " (page "
                  + page
                  + ") is damaged");
        }
        for (int i = 0; i < n; i++) {
          ids.put(b.getLong(), v.key());
        }
      }
    }
    for (long id : current.keys()) {
      ids.remove(id);
    }
    return ids;
  }

  /** A diff record's head: its two id lists and its directory copies' access times. */
  private static long[][] head(byte[] payload) {
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    long[][] lists = new long[3][];
    for (int l = 0; l < 3; l++) {
      lists[l] = new long[b.getInt()];
      for (int i = 0; i < lists[l].length; i++) {
        lists[l][i] = b.getLong();
      }
    }
    return lists;
  }

  private static int headLength(long[][] head) {
    return 12 + 8 * (head[0].length + head[1].length + head[2].length);
  }

  /** One snapshot record, parsed far enough to order it. */
  private static final class SnapshotRecord implements Comparable<SnapshotRecord> {
    final long page;
    final long dirId;
    final byte[] name;
    final String[] strings;
    final SnapshotSection.Snapshot snapshot;

    /** The root copy's access time (the payload's first 8 bytes). */
    final long accessTime;

    SnapshotRecord(long page, long dirId, byte[] payload) throws IOException {
      if (payload.length < 8) {
        throw new IOException("NVM region: the snapshot record at page " + page + " is damaged");
      }
      this.accessTime = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
      InputStream in = new ByteArrayInputStream(payload, 8, payload.length - 8);
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
    List<RecordView> refs = new ArrayList<RecordView>();
    long counter = 0;
    for (long page : recordPages) {
      RecordView v = store.record(page);
      if (v.type() == RegionLayout.RECORD_SNAPSHOT) {
        snapshots.add(new SnapshotRecord(page, v.value(), v.payload()));
        records.restoredSnapshot(v.key(), page);
      } else if (v.type() == RegionLayout.RECORD_INODE_DIFFS) {
        diffs.add(v);
        records.restoredDiffs(v.key(), page);
      } else if (v.type() == RegionLayout.RECORD_INODE_REF) {
        refs.add(v);
        records.restoredReference(v.key(), page, v.value());
      } else if (v.type() == RegionLayout.RECORD_SNAPSHOT_IDS) {
        counter = v.value();
        records.restoredCounter(page);
      }
    }
    if (snapshots.isEmpty() && diffs.isEmpty() && refs.isEmpty()) {
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
      if (s.accessTime != 0) {
        INode dir = fsn.getFSDirectory().getInode(s.dirId);
        dir.asDirectory()
            .getDirectorySnapshottableFeature()
            .getSnapshotById(s.snapshot.getSnapshotId())
            .getRoot()
            .setAccessTime(s.accessTime);
      }
    }
    SnapshotManager sm = fsn.getSnapshotManager();
    NvmSnapshotAccess.restored(sm, snapshots.size(), (int) counter);
    // the current references first: each makes (or joins) its inode's WithCount, as the stock
    // loader's reference section does, and takes the child's place in its directory
    List<INodeReference> refList = image.getLoaderContext().getRefList();
    FSDirectory fsd = fsn.getFSDirectory();
    for (RecordView v : refs) {
      refList.clear();
      loader.loadINodeReferenceSection(new ByteArrayInputStream(v.payload()));
      INode parent = fsd.getInode(v.value());
      if (refList.size() != 1 || !(parent instanceof NvmINodeDirectory)) {
        throw new IOException(
            "NVM region: the reference record of inode "
                + v.key()
                + " (page "
                + v.page()
                + ") does not name one reference in a directory");
      }
      ((NvmINodeDirectory) parent).attachReference(refList.get(0));
      pin(slim, refList.get(0).getReferredINode());
    }
    for (RecordView v : diffs) {
      ByteArrayInputStream in = new ByteArrayInputStream(v.payload());
      long[][] head = head(v.payload());
      in.skip(headLength(head));
      strings(image, NvmStringTables.read(in));
      // this record's references, which its deletedINodeRef indexes count from 0
      refList.clear();
      for (int i = 0; i < head[1].length; i++) {
        INodeReferenceSection.INodeReference r =
            INodeReferenceSection.INodeReference.parseDelimitedFrom(in);
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        r.writeDelimitedTo(one);
        loader.loadINodeReferenceSection(new ByteArrayInputStream(one.toByteArray()));
        pin(slim, refList.get(refList.size() - 1).getReferredINode());
      }
      loader.loadSnapshotDiffSection(in);
      INode owner = fsn.getFSDirectory().getInode(v.key());
      if (owner != null && owner.isFile()) {
        slim.fileChanged(owner.asFile());
        NvmSnapshotAccess.restoreEmptyBlockLists(owner.asFile(), head[2]);
        NvmSnapshotAccess.shareCopyXAttrs(owner);
      } else if (owner != null && owner.isDirectory()) {
        holdCreated(slim, owner.asDirectory());
        records.restoredDiffs(owner.asDirectory());
        NvmSnapshotAccess.restoreCopyAccessTimes(owner.asDirectory(), head[2]);
        NvmSnapshotAccess.shareCopyXAttrs(owner);
      }
    }
    records.restoredNames(fsn.getSnapshotManager());
    recomputeQuotaUsage(fsn, slim);
    return records;
  }

  /**
   * Each quota directory's cached usage as 2.7.3 counts it with snapshots (deleted lists, file
   * diffs), which the rebuild's sum of the pages does not: its subtree computed afresh. (2.7.3's
   * own fsimage load, {@code FSImage.updateCountForQuota}, stores a storage-type running total
   * instead of the subtree's own count: docs/bad-input.md, the open divergence.) Every file is read
   * once per quota directory above it: the cost of a restart with snapshots until docs/snapshots.md
   * §4.
   */
  private static void recomputeQuotaUsage(FSNamesystem fsn, SlimNamespace slim) {
    BlockStoragePolicySuite bsps = fsn.getBlockManager().getStoragePolicySuite();
    for (INodeDirectory d : slim.residentDirectories()) {
      DirectoryWithQuotaFeature q = d.getDirectoryWithQuotaFeature();
      if (q == null || !q.isQuotaSet()) {
        continue;
      }
      QuotaCounts counts = new QuotaCounts.Builder().build();
      d.computeQuotaUsage(bsps, d.getStoragePolicyID(), counts, false, Snapshot.CURRENT_STATE_ID);
      q.setSpaceConsumed(counts);
    }
  }

  /** The files {@code dir}'s created lists hold stay the objects they hold (InodeCache). */
  private static void holdCreated(SlimNamespace slim, INodeDirectory dir) {
    for (INodeFile f : NvmSnapshotAccess.createdFiles(dir)) {
      slim.cache().holdForSnapshot(f);
    }
  }

  /** A file a reference holds stays the one object (InodeCache pins it). */
  private static void pin(SlimNamespace slim, INode n) {
    INode referred = n.isReference() ? n.asReference().getReferredINode() : n;
    if (referred.isFile()) {
      slim.fileChanged(referred.asFile());
    }
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

  /**
   * The id of snapshot {@code name} of the snapshottable directory at {@code root}, which a
   * createSnapshot's retry entry keeps (RETRY_CREATE_SNAPSHOT); -1 if there is none.
   */
  static int snapshotId(FSNamesystem fsn, String root, String name) {
    try {
      INode d = fsn.getFSDirectory().getINode(root);
      if (d != null && d.isDirectory() && d.asDirectory().isSnapshottable()) {
        Snapshot s =
            d.asDirectory()
                .getDirectorySnapshottableFeature()
                .getSnapshot(DFSUtil.string2Bytes(name));
        return s == null ? -1 : s.getId();
      }
    } catch (IOException e) {
      // no such directory: no id
    }
    return -1;
  }

  /** The path a createSnapshot answered, of the snapshot with id {@code id}; null if none. */
  static String snapshotPath(FSNamesystem fsn, int id) {
    for (INodeDirectory d : NvmSnapshotAccess.snapshottableDirs(fsn.getSnapshotManager())) {
      for (Snapshot s : d.getDirectorySnapshottableFeature().getSnapshotList()) {
        if (s.getId() == id) {
          return Snapshot.getSnapshotPath(d.getFullPathName(), s.getRoot().getLocalName());
        }
      }
    }
    return null;
  }
}
