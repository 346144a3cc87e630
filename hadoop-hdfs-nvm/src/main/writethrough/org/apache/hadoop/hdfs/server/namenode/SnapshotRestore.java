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
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FSImageFormatPBSnapshot;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FileDiff;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmDiffUnits;
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
      if (v.type() == RegionLayout.RECORD_DIFF_ENTRY) {
        for (DiffEntryFormat.Entry e : entries(v)) {
          if (e.kind != DiffEntryFormat.CREATED) {
            ids.put(v.value(), v.key());
          }
        }
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

  private static List<DiffEntryFormat.Entry> entries(RecordView v) throws IOException {
    try {
      return DiffEntryFormat.decode(v.payload());
    } catch (IOException e) {
      throw new IOException(
          "NVM region: the diff entry record of inode "
              + v.value()
              + " in directory "
              + v.key()
              + " (page "
              + v.page()
              + ") is damaged: "
              + e.getMessage(),
          e);
    }
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
    java.util.Map<Long, List<RecordView>> entryRecords =
        new java.util.HashMap<Long, List<RecordView>>();
    java.util.Map<Long, List<RecordView>> diffRecords =
        new java.util.HashMap<Long, List<RecordView>>();
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
      } else if (v.type() == RegionLayout.RECORD_DIFF_ENTRY) {
        // its payload decoded already (notInCurrentTree, before the rebuild); assembled below
        entryRecords.computeIfAbsent(v.key(), k -> new ArrayList<RecordView>()).add(v);
        records.restoredEntry(v.key(), v.value(), page, v.payload());
      } else if (v.type() == RegionLayout.RECORD_DIFF) {
        diffRecords.computeIfAbsent(v.key(), k -> new ArrayList<RecordView>()).add(v);
        records.restoredDiff(v.key(), (int) v.value(), page);
      } else if (v.type() == RegionLayout.RECORD_SNAPSHOT_IDS) {
        counter = v.value();
        records.restoredCounter(page);
      }
    }
    if (snapshots.isEmpty() && diffs.isEmpty() && refs.isEmpty() && diffRecords.isEmpty()) {
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
      NvmDiffUnits.Diffs loaded =
          units(v, diffRecords.remove(v.key()), entryRecords.remove(v.key()), records);
      List<NvmDiffUnits.Unit> units = loaded.units;
      INode owner = fsn.getFSDirectory().getInode(v.key());
      if (owner == null || !(owner.isFile() || owner.isDirectory())) {
        throw new IOException(
            "NVM region: the diff record at page "
                + v.page()
                + " names inode "
                + v.key()
                + ", which is not a file or directory of the namespace");
      }
      long[] extras = new long[units.size()];
      List<FileDiff> fileDiffs = new ArrayList<FileDiff>();
      for (int i = 0; i < units.size(); i++) {
        NvmDiffUnits.Unit u = units.get(i);
        extras[i] = u.extra;
        strings(image, u.strings);
        refList.clear();
        for (INodeReferenceSection.INodeReference r : u.references) {
          ByteArrayOutputStream one = new ByteArrayOutputStream();
          r.writeDelimitedTo(one);
          loader.loadINodeReferenceSection(new ByteArrayInputStream(one.toByteArray()));
          pin(slim, refList.get(refList.size() - 1).getReferredINode());
        }
        if (owner.isFile() && owner.asFile().isWithSnapshot()) {
          // the loader gives a file a new feature per call: each diff is taken from it (below)
          owner.asFile().removeFeature(owner.asFile().getFileWithSnapshotFeature());
        }
        loader.loadSnapshotDiffSection(new ByteArrayInputStream(u.stream));
        if (owner.isFile()) {
          fileDiffs.add(owner.asFile().getFileWithSnapshotFeature().getDiffs().getLast());
        }
      }
      if (owner.isFile()) {
        if (owner.asFile().isWithSnapshot()) {
          owner.asFile().removeFeature(owner.asFile().getFileWithSnapshotFeature());
        }
        NvmSnapshotAccess.setFileDiffs(owner.asFile(), fileDiffs);
        slim.fileChanged(owner.asFile());
        NvmSnapshotAccess.restoreEmptyBlockLists(owner.asFile(), extras);
        NvmSnapshotAccess.shareCopyXAttrs(owner);
      } else {
        if (!owner.asDirectory().isWithSnapshot()) {
          loader.loadSnapshotDiffSection(new ByteArrayInputStream(loaded.emptyStream));
        }
        holdCreated(slim, owner.asDirectory());
        records.restoredDiffs(owner.asDirectory());
        NvmSnapshotAccess.restoreCopyAccessTimes(owner.asDirectory(), extras);
        NvmSnapshotAccess.shareCopyXAttrs(owner);
      }
    }
    if (!diffRecords.isEmpty()) {
      RecordView v = diffRecords.values().iterator().next().get(0);
      throw new IOException(
          "NVM region: the diff record at page "
              + v.page()
              + " (inode "
              + v.key()
              + ", snapshot "
              + v.value()
              + ") belongs to an inode that has no diff record head");
    }
    if (!entryRecords.isEmpty()) {
      RecordView v = entryRecords.values().iterator().next().get(0);
      throw new IOException(
          "NVM region: the diff entry record at page "
              + v.page()
              + " belongs to directory "
              + v.key()
              + ", which has no diff record");
    }
    records.restoredNames(fsn.getSnapshotManager());
    recomputeQuotaUsage(fsn, slim);
    return records;
  }

  /**
   * An inode's diffs as the stock loader reads them, one at a time (NvmDiffUnits): from its head,
   * its diff records and, for a directory, its children's entry records. A head written by an older
   * build holds the diffs itself; the inode is then compared whole by its next batch, which writes
   * it in the current form.
   */
  private static NvmDiffUnits.Diffs units(
      RecordView head,
      List<RecordView> diffRecords,
      List<RecordView> entries,
      NvmSnapshotRecords records)
      throws IOException {
    try {
      List<byte[]> diffs = new ArrayList<byte[]>();
      long[] diffIds = new long[diffRecords == null ? 0 : diffRecords.size()];
      for (int i = 0; i < diffIds.length; i++) {
        diffIds[i] = diffRecords.get(i).value();
        diffs.add(diffRecords.get(i).payload());
      }
      List<byte[]> payloads = new ArrayList<byte[]>();
      long[] ids = new long[entries == null ? 0 : entries.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = entries.get(i).value();
        payloads.add(entries.get(i).payload());
      }
      NvmDiffUnits.Diffs d = NvmDiffUnits.of(head.payload(), diffIds, diffs, ids, payloads);
      if (d.headHoldsDiffs) {
        records.restoredLegacy(head.key());
      }
      return d;
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "NVM region: the diff record of inode "
              + head.key()
              + " (page "
              + head.page()
              + "), its diff records and its entry records do not fit together: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Each quota directory's cached usage as 2.7.3 counts it with snapshots (deleted lists, file
   * diffs), which the rebuild's sum of the pages does not: its subtree computed afresh. (2.7.3's
   * own fsimage load, {@code FSImage.updateCountForQuota}, stores a storage-type running total
   * instead of the subtree's own count: docs/bad-input.md, the open divergence.) Every file is read
   * once per quota directory above it, a cold one from its page (NvmINodeDirectory's
   * computeQuotaUsage): the cost of a restart with snapshots until docs/snapshots.md §4.
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
