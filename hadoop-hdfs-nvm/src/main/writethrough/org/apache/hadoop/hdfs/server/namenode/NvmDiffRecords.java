package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder;

/**
 * The diffs of inodes in the region: one {@code RECORD_DIFF} per (inode, snapshot)
 * (region-format.md §13), kept equal to memory by the batches of the edits that change them, so
 * that an edit costs the diffs it changed, not the number of diffs (65,536 createSnapshot calls on
 * one directory, TestNestedSnapshots#testSnapshotLimit, each rewrote every earlier diff of the
 * directory when its diffs were one record).
 *
 * <p>A batch compares an inode's diffs either <b>scoped</b> or <b>whole</b>. Outside a snapshot's
 * deletion 2.7.3 changes only an inode's newest diff, or adds a newer one ({@code
 * AbstractINodeDiffList.checkAndAddLatestSnapshotDiff} returns the last diff whenever its snapshot
 * is not older than the one asked for; a createSnapshot appends the root's diff): scoped, the batch
 * compares the newest diff and, if memory holds one diff more than the records, the one before it.
 * Whole: on a sweep (a snapshot's deletion, a delete that walked directories: they merge, renumber
 * and drop any diff), for an inode whose record still held its diffs (an older build's), and when
 * the diffs' count or newest ids do not match the records' in the way above. The debugging
 * comparison ({@code -Dnvm.debug.snapshotSweep}) compares every diff after every batch.
 */
final class NvmDiffRecords {
  private final InodeStore store;

  /**
   * Inode id &rarr; its one diff record, packed (page number &lt;&lt; 24 | snapshot id): most
   * inodes with diffs have one, and an object per inode would cost the heap more than the diff
   * itself.
   */
  private final LongLongMap single = new LongLongMap();

  /** Inode id &rarr; its diff records when it has more than one, by snapshot id ascending. */
  private final Map<Long, Pages> multi = new HashMap<Long, Pages>();

  /** 2.7.3's snapshot ids are 24 bits (SnapshotManager). */
  private static final int SID_BITS = 24;

  /** The records of {@code id} (a new object for a packed one), or null. */
  private Pages load(long id) {
    Pages p = multi.get(id);
    if (p != null) {
      return p;
    }
    long w = single.get(id);
    if (w == LongLongMap.MISSING) {
      return null;
    }
    p = new Pages();
    p.put((int) (w & ((1 << SID_BITS) - 1)), (w >>> SID_BITS) * RegionLayout.PAGE_SIZE);
    return p;
  }

  /**
   * Keeps {@code p} as the records of {@code id}: packed if it is one that packs, none if empty.
   */
  private void save(long id, Pages p) {
    if (p == null || p.n == 0) {
      multi.remove(id);
      single.remove(id);
    } else if (p.n == 1
        && p.pages[0] % RegionLayout.PAGE_SIZE == 0
        && p.ids[0] >= 0
        && p.ids[0] < (1 << SID_BITS)
        && p.pages[0] / RegionLayout.PAGE_SIZE < (1L << (63 - SID_BITS))) {
      multi.remove(id);
      single.put(id, (p.pages[0] / RegionLayout.PAGE_SIZE) << SID_BITS | p.ids[0]);
    } else {
      single.remove(id);
      multi.put(id, p);
    }
  }

  /** Payloads of the records the running batch created (not readable before its commit). */
  private final Map<Long, byte[]> writtenNow = new HashMap<Long, byte[]>();

  /** Inodes the running batch compared whole. */
  private final LongLongMap wholeNow = new LongLongMap();

  /** Inodes whose diff record holds its diffs (an older build's): compared whole next. */
  private final LongLongMap legacy = new LongLongMap();

  NvmDiffRecords(InodeStore store) {
    this.store = store;
  }

  /** One inode's records: snapshot ids ascending, with their pages. */
  private static final class Pages {
    int[] ids = new int[2];
    long[] pages = new long[2];
    int n;

    int indexOf(int id) {
      return Arrays.binarySearch(ids, 0, n, id);
    }

    void put(int id, long page) {
      int i = indexOf(id);
      if (i >= 0) {
        pages[i] = page;
        return;
      }
      i = -i - 1;
      if (n == ids.length) {
        ids = Arrays.copyOf(ids, 2 * n);
        pages = Arrays.copyOf(pages, 2 * n);
      }
      System.arraycopy(ids, i, ids, i + 1, n - i);
      System.arraycopy(pages, i, pages, i + 1, n - i);
      ids[i] = id;
      pages[i] = page;
      n++;
    }

    void removeAt(int i) {
      System.arraycopy(ids, i + 1, ids, i, n - i - 1);
      System.arraycopy(pages, i + 1, pages, i, n - i - 1);
      n--;
    }
  }

  boolean isEmpty() {
    return single.size() == 0 && multi.isEmpty();
  }

  /** Whether the records of {@code inodeId} hold a diff of snapshot {@code snapshotId}. */
  boolean hasDiff(long inodeId, int snapshotId) {
    long w = single.get(inodeId);
    if (w != LongLongMap.MISSING) {
      return (w & ((1 << SID_BITS) - 1)) == snapshotId;
    }
    Pages p = multi.get(inodeId);
    return p != null && p.indexOf(snapshotId) >= 0;
  }

  /**
   * Stages {@code n}'s diff records: whole if asked (or if memory and the records do not fit the
   * scoped case), else the newest one or two.
   */
  void stage(Txn t, INode n, boolean whole) throws IOException {
    long id = n.getId();
    if (wholeNow.containsKey(id)) {
      return;
    }
    if (legacy.remove(id) != LongLongMap.MISSING) {
      whole = true;
    }
    Pages p = load(id);
    int m = p == null ? 0 : p.n;
    int k = NvmSnapshotEncoder.diffCount(n);
    if (!whole && k == m && (k == 0 || NvmSnapshotEncoder.diffId(n, k - 1) == p.ids[m - 1])) {
      if (k > 0) {
        compare(t, n, k - 1, p);
        save(id, p);
      }
      return;
    }
    if (!whole && k == m + 1 && (m == 0 || NvmSnapshotEncoder.diffId(n, k - 2) == p.ids[m - 1])) {
      if (m > 0) {
        compare(t, n, k - 2, p);
      }
      if (p == null) {
        p = new Pages();
      }
      compare(t, n, k - 1, p);
      save(id, p);
      return;
    }
    stageWhole(t, n);
  }

  private void stageWhole(Txn t, INode n) throws IOException {
    long id = n.getId();
    wholeNow.put(id, 1);
    Pages p = load(id);
    int k = NvmSnapshotEncoder.diffCount(n);
    if (p == null) {
      p = new Pages();
    }
    Pages keep = new Pages();
    for (int i = 0; i < k; i++) {
      keep.put(NvmSnapshotEncoder.diffId(n, i), 1);
    }
    for (int i = p.n - 1; i >= 0; i--) {
      if (keep.indexOf(p.ids[i]) < 0) {
        t.removeRecord(p.pages[i]);
        writtenNow.remove(p.pages[i]);
        p.removeAt(i);
      }
    }
    for (int i = 0; i < k; i++) {
      compare(t, n, i, p);
    }
    save(id, p);
  }

  /** Diff {@code i} of {@code n}: its record written if it has none or the bytes differ. */
  private void compare(Txn t, INode n, int i, Pages p) throws IOException {
    int sid = NvmSnapshotEncoder.diffId(n, i);
    byte[] want = NvmSnapshotEncoder.diff(n, i);
    int at = p.indexOf(sid);
    if (at >= 0) {
      if (Arrays.equals(payload(p.pages[at]), want)) {
        return;
      }
      t.removeRecord(p.pages[at]);
      writtenNow.remove(p.pages[at]);
    }
    long created = t.createRecord(RegionLayout.RECORD_DIFF, n.getId(), sid, want);
    writtenNow.put(created, want);
    p.put(sid, created);
  }

  private byte[] payload(long page) throws IOException {
    byte[] p = writtenNow.get(page);
    return p != null ? p : store.record(page).payload();
  }

  /** The end of a batch's staging. */
  void batchStaged() {
    writtenNow.clear();
    wholeNow.clear();
  }

  /** The inode's diff records go (its record and page go in the same batch). */
  void stageRemoval(Txn t, long inodeId) throws IOException {
    legacy.remove(inodeId);
    Pages p = load(inodeId);
    save(inodeId, null);
    if (p != null) {
      for (int i = 0; i < p.n; i++) {
        t.removeRecord(p.pages[i]);
        writtenNow.remove(p.pages[i]);
      }
    }
  }

  /** The debug check: a description of each of {@code n}'s diff records unequal to memory. */
  void differing(INode n, Map<Long, String> out) throws IOException {
    Pages p = load(n.getId());
    int m = p == null ? 0 : p.n;
    int k = NvmSnapshotEncoder.diffCount(n);
    StringBuilder why = new StringBuilder();
    if (k != m) {
      why.append(m).append(" diff records, ").append(k).append(" diffs in memory");
    } else {
      for (int i = 0; i < k; i++) {
        int sid = NvmSnapshotEncoder.diffId(n, i);
        if (p.ids[i] != sid) {
          why.append("diff ").append(i).append(" of snapshot ").append(sid).append(" has none");
          break;
        }
        if (!Arrays.equals(store.record(p.pages[i]).payload(), NvmSnapshotEncoder.diff(n, i))) {
          why.append("the record of the diff of snapshot ").append(sid).append(" differs");
          break;
        }
      }
    }
    if (why.length() > 0) {
      out.put(
          n.getId(),
          "the diffs of inode "
              + n.getId()
              + " ("
              + n.getClass().getSimpleName()
              + " "
              + n.getFullPathName()
              + "): "
              + why);
    }
  }

  /** Inode ids that have diff records. */
  long[] inodes() {
    long[] ones = single.keys();
    long[] ids = Arrays.copyOf(ones, ones.length + multi.size());
    int i = ones.length;
    for (long id : multi.keySet()) {
      ids[i++] = id;
    }
    return ids;
  }

  // ---- restart (SnapshotRestore)

  void restoredLegacy(long inodeId) {
    legacy.put(inodeId, 1);
  }

  boolean isLegacy(long inodeId) {
    return legacy.containsKey(inodeId);
  }

  void restored(long inodeId, int snapshotId, long page) {
    Pages p = load(inodeId);
    if (p == null) {
      p = new Pages();
    }
    p.put(snapshotId, page);
    save(inodeId, p);
  }
}
